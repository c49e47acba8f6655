-- Sessions carry the id a client sees (never the token) and the client's version; a user holds one
-- session per device, found by this index.
ALTER TABLE sessions ADD COLUMN public_id TEXT;
ALTER TABLE sessions ADD COLUMN version TEXT;
CREATE INDEX sessions_user_device ON sessions (user_id, device_id);
