-- Word-prefix search: generated tsvector('simple') columns with GIN indexes over message texts and
-- transcript texts. archive_fts_text() splits on every non-alphanumeric character and, where the
-- unaccent extension is available, drops diacritics, so words come out as SQLite's FTS5 unicode61
-- tokenizer (remove_diacritics 2) makes them and both backends answer a query the same way.

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent') THEN
    CREATE EXTENSION IF NOT EXISTS unaccent;
  END IF;
END $$;

DO $$
DECLARE
  unaccent_schema text;
BEGIN
  SELECT n.nspname INTO unaccent_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'unaccent';
  IF unaccent_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE FUNCTION archive_fts_text(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS '
      '$body$ SELECT regexp_replace(%I.unaccent(%L::regdictionary, coalesce(t, %L)), %L, %L, %L) $body$',
      unaccent_schema, unaccent_schema || '.unaccent', '', '[^[:alnum:]]+', ' ', 'g');
  ELSE
    CREATE FUNCTION archive_fts_text(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
      $body$ SELECT regexp_replace(coalesce(t, ''), '[^[:alnum:]]+', ' ', 'g') $body$;
  END IF;
END $$;

ALTER TABLE messages ADD COLUMN text_search tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', archive_fts_text(text))) STORED;
CREATE INDEX idx_messages_text_search ON messages USING GIN (text_search);

ALTER TABLE media_transcripts ADD COLUMN text_search tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', archive_fts_text(text))) STORED;
CREATE INDEX idx_media_transcripts_text_search ON media_transcripts USING GIN (text_search);

-- Hashtags and cashtags of a text, lower-cased: a sign followed by a run of letters, digits and
-- underscores, not glued to a word before it. A GIN index over them answers a tag lookup directly;
-- through the word index a tag like #release would first collect every message saying "release".
CREATE FUNCTION archive_text_tags(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $body$
  SELECT coalesce(array_agg(DISTINCT m[1]), '{}')
    FROM regexp_matches(lower(coalesce(t, '')), '(?:^|[^[:alnum:]_])([#$][[:alnum:]_]+)', 'g') AS m
$body$;

ALTER TABLE messages ADD COLUMN tags text[] GENERATED ALWAYS AS (archive_text_tags(text)) STORED;
CREATE INDEX idx_messages_tags ON messages USING GIN (tags);
