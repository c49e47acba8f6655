-- A full-text index a third the size: the messages' index keeps which messages hold each word and no
-- more (detail = none: no positions; columnsize = 0: no per-message word counts; neither is asked for,
-- since a search requires every word and orders by archive order, not by rank) and no prefix indexes
-- (they tripled it). A prefix is searched as its words instead: messages_fts_terms lists every word the
-- index holds, and a search turns "rel" into ("release" OR "relay" OR …), which FTS5 reads lazily,
-- newest first (scripts/bench/README.md, "The full-text index").
--
-- The list is kept by FTS5's own tokenizer, so it holds exactly the index's words: each text written is
-- also given to messages_fts_pending (no content, no positions; a rowid written twice is harmless there), whose words (messages_fts_pending_terms)
-- are moved into the list after a write and after a bulk load (search.ts, flushSearchTerms); a search
-- reads both. Words of deleted messages stay listed: they find nothing.
--
-- The index is refilled by the triggers' own expression (a rebuild from the content table would drop
-- the poll words, 005).

DROP TRIGGER messages_fts_ai;
DROP TRIGGER messages_fts_ad;
DROP TRIGGER messages_fts_au;
DROP TABLE messages_fts;

CREATE VIRTUAL TABLE messages_fts USING fts5(
  text, content = 'messages', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2',
  detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE messages_fts_pending USING fts5(
  text, content = '', tokenize = 'unicode61 remove_diacritics 2', detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE messages_fts_pending_terms USING fts5vocab(messages_fts_pending, row);
CREATE VIRTUAL TABLE messages_fts_vocabulary USING fts5vocab(messages_fts, row);
CREATE TABLE messages_fts_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.pk,
    CASE WHEN new.poll_text IS NULL THEN new.text ELSE coalesce(new.text, '') || char(10) || new.poll_text END);
  INSERT INTO messages_fts_pending (rowid, text) VALUES (new.pk,
    CASE WHEN new.poll_text IS NULL THEN new.text ELSE coalesce(new.text, '') || char(10) || new.poll_text END);
END;
CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.pk,
    CASE WHEN old.poll_text IS NULL THEN old.text ELSE coalesce(old.text, '') || char(10) || old.poll_text END);
END;
CREATE TRIGGER messages_fts_au AFTER UPDATE OF text, poll_text ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.pk,
    CASE WHEN old.poll_text IS NULL THEN old.text ELSE coalesce(old.text, '') || char(10) || old.poll_text END);
  INSERT INTO messages_fts (rowid, text) VALUES (new.pk,
    CASE WHEN new.poll_text IS NULL THEN new.text ELSE coalesce(new.text, '') || char(10) || new.poll_text END);
  INSERT INTO messages_fts_pending (rowid, text) VALUES (new.pk,
    CASE WHEN new.poll_text IS NULL THEN new.text ELSE coalesce(new.text, '') || char(10) || new.poll_text END);
END;

INSERT INTO messages_fts (rowid, text)
  SELECT pk, CASE WHEN poll_text IS NULL THEN text ELSE coalesce(text, '') || char(10) || poll_text END
    FROM messages ORDER BY pk;
INSERT INTO messages_fts (messages_fts) VALUES ('optimize');
INSERT INTO messages_fts_terms (term) SELECT term FROM messages_fts_vocabulary;
