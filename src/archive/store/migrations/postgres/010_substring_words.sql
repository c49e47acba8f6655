-- In-chat search for a rare word: pg_trgm's index (009) intersects the lists of every trigram of the needle,
-- and a word built of common trigrams reads long lists for a few hits. A needle without a space, tab or line
-- break stands inside one word of the text (a run between those characters), so the search can ask instead
-- for the messages holding any word that contains it: the words are found in a vocabulary of every word ever
-- written (small, with its own trigram index), their messages in a GIN index of each message's words. A word
-- longer than 64 characters is indexed as '' (a GIN key has a size limit), and '' is in the vocabulary once
-- any such word is: a search always asks for it too, so a needle inside a long word is still found.
--
-- The vocabulary only grows (a word whose messages are gone finds nothing) and may hold a word twice (two
-- writers adding it at once): neither changes an answer, and no writer waits for another's word. Its
-- trigger runs as the archive's owner (on this schema only), so a role granted writes to the archive's
-- tables before this revision keeps writing messages without a grant on the vocabulary.

CREATE FUNCTION archive_search_words(searched text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT CASE WHEN length(w) > 64 THEN '' ELSE w END), '{}')
    FROM unnest(regexp_split_to_array(searched, '[ \t\n\r\f\v]+')) AS w
   WHERE w <> '' $$;

CREATE INDEX idx_messages_search_words ON messages
  USING GIN (archive_search_words(lower(coalesce(text, '') || ' ' || coalesce(poll_text, ''))))
  WITH (gin_pending_list_limit = 64);

CREATE TABLE message_search_words (word text NOT NULL);
INSERT INTO message_search_words (word)
  SELECT DISTINCT w FROM messages,
    unnest(archive_search_words(lower(coalesce(text, '') || ' ' || coalesce(poll_text, '')))) AS w;
CREATE INDEX idx_message_search_words ON message_search_words (word);
CREATE INDEX idx_message_search_words_substrings ON message_search_words USING GIN (word gin_trgm_ops);

CREATE FUNCTION archive_keep_search_words() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO message_search_words (word)
  SELECT DISTINCT w FROM written,
    unnest(archive_search_words(lower(coalesce(written.text, '') || ' ' || coalesce(written.poll_text, '')))) AS w
   WHERE NOT EXISTS (SELECT 1 FROM message_search_words k WHERE k.word = w);
  RETURN NULL;
END $$;
CREATE TRIGGER messages_search_words_ai AFTER INSERT ON messages
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION archive_keep_search_words();
CREATE TRIGGER messages_search_words_au AFTER UPDATE ON messages
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION archive_keep_search_words();
ANALYZE messages;
ANALYZE message_search_words;
