-- Users, API keys and sign-in sessions of the host, and its own settings.
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  has_password INTEGER NOT NULL,
  is_admin INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

-- Keys are stored as SHA-256 digests: they are 128-bit random values, so a fast digest is enough and a
-- copy of the database gives no usable key.
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client TEXT,
  device TEXT,
  device_id TEXT,
  created_at TEXT NOT NULL,
  last_activity_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
