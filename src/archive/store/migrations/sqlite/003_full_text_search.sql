-- Word-prefix search: FTS5 external-content tables over message texts and transcript texts, kept in
-- step by triggers. unicode61 with diacritics removed, so "cafe" finds "café". The rowid is the
-- messages' archive order (pk), so a search reads the index newest first and stops after a page.
-- Prefix indexes for 2 and 3 characters: without them FTS5 merges every term of a short prefix
-- ("th", "re") on each query, hundreds of milliseconds on a million messages (scripts/bench/README.md).

CREATE VIRTUAL TABLE messages_fts USING fts5(
  text, content = 'messages', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.pk, new.text);
END;
CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.pk, old.text);
END;
CREATE TRIGGER messages_fts_au AFTER UPDATE OF text ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.pk, old.text);
  INSERT INTO messages_fts (rowid, text) VALUES (new.pk, new.text);
END;
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');

CREATE VIRTUAL TABLE media_transcripts_fts USING fts5(
  text, content = 'media_transcripts', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER media_transcripts_fts_ai AFTER INSERT ON media_transcripts BEGIN
  INSERT INTO media_transcripts_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER media_transcripts_fts_ad AFTER DELETE ON media_transcripts BEGIN
  INSERT INTO media_transcripts_fts (media_transcripts_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER media_transcripts_fts_au AFTER UPDATE OF text ON media_transcripts BEGIN
  INSERT INTO media_transcripts_fts (media_transcripts_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO media_transcripts_fts (rowid, text) VALUES (new.id, new.text);
END;
INSERT INTO media_transcripts_fts (media_transcripts_fts) VALUES ('rebuild');
