-- In-chat search finds a substring of the lower-cased text (`GET /api/chats/{ref}/messages?search=`). Without
-- an index a rare word reads every message of the chat. pg_trgm's GIN index over exactly the expression the
-- search's condition reads answers that `LIKE '%…%'` from the trigrams of the needle (the planner still
-- rechecks each row, and walks the chat's date index instead when the word is common enough to fill a page
-- from the newest messages). pg_trgm is a trusted extension: the database's owner may create it.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
-- A pending list as small as the other search indexes' (007): each search reads it whole.
CREATE INDEX idx_messages_text_substrings ON messages
  USING GIN (lower(coalesce(text, '') || ' ' || coalesce(poll_text, '')) gin_trgm_ops)
  WITH (gin_pending_list_limit = 64);
ANALYZE messages;
