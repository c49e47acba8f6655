-- Who may read the archive: viewer accounts, sessions, share tokens, the audit log, push subscriptions.
-- Grant lists are JSON arrays; NULL means all, [] means nothing.

CREATE TABLE viewer_accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL CONSTRAINT uq_viewer_accounts_username UNIQUE,
  password_hash TEXT NOT NULL,
  salt TEXT NOT NULL,
  allowed_accounts TEXT,
  allowed_chat_refs TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  no_download INTEGER NOT NULL DEFAULT 0,
  created_by TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT
);

CREATE TABLE viewer_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT,
  token_hash TEXT NOT NULL CONSTRAINT uq_viewer_tokens_hash UNIQUE,
  created_by TEXT,
  allowed_accounts TEXT,
  allowed_chat_refs TEXT NOT NULL,
  is_revoked INTEGER NOT NULL DEFAULT 0,
  no_download INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT,
  last_used_at TEXT,
  use_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- id is the SHA-256 of the cookie key: a copy of the table opens no session.
CREATE TABLE viewer_sessions (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('master', 'viewer', 'token')),
  allowed_accounts TEXT,
  allowed_chat_refs TEXT,
  no_download INTEGER NOT NULL DEFAULT 0,
  viewer_account_id INTEGER,
  source_token_id INTEGER,
  created_at TEXT NOT NULL,
  last_accessed_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX idx_viewer_sessions_user ON viewer_sessions (username, created_at);
CREATE INDEX idx_viewer_sessions_account ON viewer_sessions (viewer_account_id);
CREATE INDEX idx_viewer_sessions_token ON viewer_sessions (source_token_id);
CREATE INDEX idx_viewer_sessions_expiry ON viewer_sessions (expires_at);

CREATE TABLE viewer_audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL,
  role TEXT,
  action TEXT NOT NULL,
  endpoint TEXT,
  chat_id INTEGER,
  ip_address TEXT,
  user_agent TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX idx_viewer_audit_user ON viewer_audit_log (username, id DESC);
CREATE INDEX idx_viewer_audit_action ON viewer_audit_log (action, id DESC);

CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint TEXT NOT NULL CONSTRAINT uq_push_subscriptions_endpoint UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  username TEXT,
  session_id TEXT,
  account_id INTEGER,
  chat_id INTEGER,
  chat_ref TEXT,
  allowed_accounts TEXT,
  allowed_chat_refs TEXT,
  user_agent TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at TEXT
);
CREATE INDEX idx_push_subscriptions_user ON push_subscriptions (username);
