-- A channel's post without a sender has the channel as its sender (its id, and its title unless the post
-- names an author), as the upstream records it: the writer does so for every message it writes
-- (store/queries/ingest.ts), this for the posts archived before.
UPDATE messages SET
  sender_id = chat_id,
  sender_name = coalesce(sender_name,
    (SELECT c.title FROM chats c WHERE c.account_id = messages.account_id AND c.id = messages.chat_id))
WHERE sender_id IS NULL
  AND EXISTS (SELECT 1 FROM chats c
    WHERE c.account_id = messages.account_id AND c.id = messages.chat_id AND c.type = 'channel');
