-- Polls: each poll message keeps its poll (question, options, votes, flags) as JSON, and the words a search
-- finds it by (the question and each option, a line each) beside it. The text-search vector is made again
-- from the text and those words, so a poll is found by its question or an option (this rewrites the
-- messages table and its text index once).

ALTER TABLE messages ADD COLUMN poll jsonb;
ALTER TABLE messages ADD COLUMN poll_text text;

ALTER TABLE messages DROP COLUMN text_search;
ALTER TABLE messages ADD COLUMN text_search tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', archive_fts_text(text) || ' ' || archive_fts_text(poll_text))) STORED;
CREATE INDEX idx_messages_text_search ON messages USING GIN (text_search);
