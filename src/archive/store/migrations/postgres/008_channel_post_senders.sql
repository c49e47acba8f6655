-- A channel's post without a sender has the channel as its sender (its id, and its title unless the post
-- names an author), as the upstream records it: the writer does so for every message it writes
-- (store/queries/ingest.ts), this for the posts archived before.
UPDATE messages m SET sender_id = c.id, sender_name = coalesce(m.sender_name, c.title)
FROM chats c
WHERE c.account_id = m.account_id AND c.id = m.chat_id AND c.type = 'channel' AND m.sender_id IS NULL;
