-- The archive proper: what the backup copies from the platform. Timestamps are UTC ISO 8601 text
-- (YYYY-MM-DDTHH:MM:SS.sssZ, so they sort and compare as text); flags are 0/1.

CREATE TABLE accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT,
  platform_user_id INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Every ref ever minted, kept after its chat is deleted: a ref belongs to one (account, chat) for good
-- and is never handed to another.
CREATE TABLE chat_refs (
  ref TEXT PRIMARY KEY CHECK (length(ref) = 22),
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (account_id, chat_id)
);

CREATE TABLE chats (
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  id INTEGER NOT NULL,
  ref TEXT NOT NULL CONSTRAINT uq_chats_ref UNIQUE REFERENCES chat_refs (ref),
  type TEXT NOT NULL CHECK (type IN ('private', 'group', 'supergroup', 'channel')),
  title TEXT,
  username TEXT,
  first_name TEXT,
  last_name TEXT,
  phone TEXT,
  description TEXT,
  participants_count INTEGER,
  is_forum INTEGER NOT NULL DEFAULT 0,
  is_archived INTEGER NOT NULL DEFAULT 0,
  last_synced_message_id INTEGER,
  avatar_photo_id TEXT,
  last_message_date TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (account_id, id)
);
CREATE INDEX idx_chats_last_message ON chats (last_message_date DESC);
CREATE INDEX idx_chats_id ON chats (id);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT,
  first_name TEXT,
  last_name TEXT,
  phone TEXT,
  is_bot INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- pk is the archive-wide order of messages, newest last: unix seconds of `date` x 2^21 plus a counter
-- within that second (assigned on insert). It is the full-text index's rowid, so a search walks the
-- index newest first and stops after one page, and an explicit INTEGER PRIMARY KEY survives VACUUM.
CREATE TABLE messages (
  pk INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  id INTEGER NOT NULL,
  sender_id INTEGER,
  sender_name TEXT,
  date TEXT NOT NULL,
  text TEXT,
  reply_to_msg_id INTEGER,
  reply_to_top_id INTEGER,
  reply_to_text TEXT,
  forward_from_id INTEGER,
  edit_date TEXT,
  edit_hide INTEGER,
  raw_data TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  is_outgoing INTEGER NOT NULL DEFAULT 0,
  is_pinned INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  deleted_at TEXT,
  CONSTRAINT uq_messages UNIQUE (account_id, chat_id, id),
  FOREIGN KEY (account_id, chat_id) REFERENCES chats (account_id, id) ON DELETE CASCADE
);
CREATE INDEX idx_messages_chat_date ON messages (account_id, chat_id, date DESC, id DESC);
CREATE INDEX idx_messages_topic ON messages (account_id, chat_id, reply_to_top_id, date DESC, id DESC)
  WHERE reply_to_top_id IS NOT NULL;
CREATE INDEX idx_messages_pinned ON messages (account_id, chat_id, date DESC) WHERE is_pinned = TRUE;
CREATE INDEX idx_messages_deleted ON messages (deleted_at DESC) WHERE is_deleted = TRUE;
CREATE INDEX idx_messages_sender ON messages (sender_id);

-- The chat list is sorted by its newest message: kept here rather than aggregated per request.
CREATE TRIGGER messages_last_date_ai AFTER INSERT ON messages BEGIN
  UPDATE chats SET last_message_date = new.date
   WHERE account_id = new.account_id AND id = new.chat_id
     AND (last_message_date IS NULL OR last_message_date < new.date);
END;
CREATE TRIGGER messages_last_date_ad AFTER DELETE ON messages BEGIN
  UPDATE chats SET last_message_date =
      (SELECT max(date) FROM messages WHERE account_id = old.account_id AND chat_id = old.chat_id)
   WHERE account_id = old.account_id AND id = old.chat_id AND last_message_date = old.date;
END;

-- Earlier texts of edited messages. date: when the text became current; replaced_at: the edit that
-- replaced it (the change feed's date).
CREATE TABLE message_versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  text TEXT,
  date TEXT NOT NULL,
  replaced_at TEXT NOT NULL,
  captured_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  change_hash TEXT,
  entities TEXT,
  source TEXT CHECK (source IN ('listener', 'sync', 'backup', 'import')),
  FOREIGN KEY (account_id, chat_id, message_id) REFERENCES messages (account_id, chat_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX uq_message_versions_hash ON message_versions (account_id, change_hash)
  WHERE change_hash IS NOT NULL;
CREATE INDEX idx_message_versions_message ON message_versions (account_id, chat_id, message_id, date DESC);
CREATE INDEX idx_message_versions_replaced ON message_versions (replaced_at DESC);

-- id is the storage media id {chat_id}_{message_id}_{type}; the API's media key is {message_id}_{type}.
CREATE TABLE media (
  account_id INTEGER NOT NULL,
  id TEXT NOT NULL,
  chat_id INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  file_path TEXT,
  file_name TEXT,
  file_size INTEGER,
  mime_type TEXT,
  width INTEGER,
  height INTEGER,
  duration REAL,
  content_hash TEXT,
  platform_file_id TEXT,
  downloaded INTEGER NOT NULL DEFAULT 0,
  download_attempts INTEGER NOT NULL DEFAULT 0,
  last_attempt_at TEXT,
  skip_reason TEXT,
  download_date TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (account_id, id),
  CONSTRAINT uq_media_message UNIQUE (account_id, chat_id, message_id),
  FOREIGN KEY (account_id, chat_id, message_id) REFERENCES messages (account_id, chat_id, id) ON DELETE CASCADE
);
CREATE INDEX idx_media_gallery ON media (account_id, chat_id, type, message_id DESC);
CREATE INDEX idx_media_hash ON media (content_hash);

-- Append-only; at most one open (queued or running) row per media item.
CREATE TABLE media_transcripts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  media_id TEXT NOT NULL,
  content_hash TEXT,
  idempotency_key TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'skipped')),
  error TEXT,
  text TEXT,
  language TEXT,
  language_confidence REAL,
  source TEXT,
  engine_name TEXT,
  engine_version TEXT,
  preset TEXT,
  models TEXT,
  confidence REAL,
  duration_s REAL,
  words TEXT,
  segments TEXT,
  turns TEXT,
  job_id TEXT,
  options_tag TEXT,
  copied_from_id INTEGER,
  requested_at TEXT NOT NULL,
  completed_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  FOREIGN KEY (account_id, media_id) REFERENCES media (account_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX uq_media_transcripts_open ON media_transcripts (account_id, media_id)
  WHERE status IN ('queued', 'running');
CREATE INDEX idx_media_transcripts_media ON media_transcripts (account_id, media_id, requested_at DESC);
CREATE INDEX idx_media_transcripts_done ON media_transcripts (completed_at DESC) WHERE status = 'done';

-- One row per (message, emoji, reacting user when known); removed_at marks a reaction taken back.
CREATE TABLE reactions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  emoji TEXT NOT NULL CHECK (length(emoji) BETWEEN 1 AND 50),
  user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
  count INTEGER NOT NULL DEFAULT 1 CHECK (count >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  removed_at TEXT,
  FOREIGN KEY (account_id, chat_id, message_id) REFERENCES messages (account_id, chat_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX uq_reactions ON reactions (account_id, chat_id, message_id, emoji, coalesce(user_id, 0));
CREATE INDEX idx_reactions_message ON reactions (account_id, chat_id, message_id);

CREATE TABLE forum_topics (
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  id INTEGER NOT NULL,
  title TEXT NOT NULL,
  icon_color INTEGER,
  icon_emoji_id TEXT,
  icon_emoji TEXT,
  is_closed INTEGER NOT NULL DEFAULT 0,
  is_pinned INTEGER NOT NULL DEFAULT 0,
  is_hidden INTEGER NOT NULL DEFAULT 0,
  date TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (account_id, chat_id, id),
  FOREIGN KEY (account_id, chat_id) REFERENCES chats (account_id, id) ON DELETE CASCADE
);

CREATE TABLE chat_folders (
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  id INTEGER NOT NULL,
  title TEXT NOT NULL,
  emoticon TEXT,
  sort_order INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, id)
);

CREATE TABLE chat_folder_members (
  account_id INTEGER NOT NULL,
  folder_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  PRIMARY KEY (account_id, folder_id, chat_id),
  FOREIGN KEY (account_id, folder_id) REFERENCES chat_folders (account_id, id) ON DELETE CASCADE,
  FOREIGN KEY (account_id, chat_id) REFERENCES chats (account_id, id) ON DELETE CASCADE
);
CREATE INDEX idx_chat_folder_members_chat ON chat_folder_members (account_id, chat_id);

-- photo_id NULL records that the avatar was removed at seen_at.
CREATE TABLE avatar_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  photo_id TEXT,
  file_path TEXT,
  seen_at TEXT NOT NULL,
  FOREIGN KEY (account_id, chat_id) REFERENCES chats (account_id, id) ON DELETE CASCADE
);
CREATE INDEX idx_avatar_history_chat ON avatar_history (account_id, chat_id, seen_at DESC);

CREATE TABLE sync_status (
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  last_message_id INTEGER NOT NULL DEFAULT 0,
  last_sync_date TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, chat_id)
);

-- Per-chat figures of the last statistics run; the archive totals are their sums over visible chats.
CREATE TABLE chat_figures (
  account_id INTEGER NOT NULL,
  chat_id INTEGER NOT NULL,
  messages INTEGER NOT NULL DEFAULT 0,
  media_files INTEGER NOT NULL DEFAULT 0,
  total_size_bytes INTEGER NOT NULL DEFAULT 0,
  calculated_at TEXT NOT NULL,
  PRIMARY KEY (account_id, chat_id),
  FOREIGN KEY (account_id, chat_id) REFERENCES chats (account_id, id) ON DELETE CASCADE
);

CREATE TABLE metadata (
  key TEXT PRIMARY KEY,
  value TEXT
);

CREATE TABLE app_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
