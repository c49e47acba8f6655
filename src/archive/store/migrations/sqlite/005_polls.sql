-- Polls: each poll message keeps its poll (question, options, votes, flags) as JSON, and the words a search
-- finds it by (the question and each option, a line each) beside it. The full-text index holds a message's
-- text followed by those words, so a poll is found by its question or an option; a message without a poll
-- is indexed by its text alone, exactly as before, so the index needs no rebuild. (Rebuilding it from the
-- content table would drop the poll words: the triggers below are what keep it.)

ALTER TABLE messages ADD COLUMN poll TEXT;
ALTER TABLE messages ADD COLUMN poll_text TEXT;

DROP TRIGGER messages_fts_ai;
DROP TRIGGER messages_fts_ad;
DROP TRIGGER messages_fts_au;
CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.pk,
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
END;
