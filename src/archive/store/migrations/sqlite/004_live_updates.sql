-- Live updates: event payloads too large for one PostgreSQL notification are kept here and sent by id
-- (SQLite keeps the table for parity), and the ids of transcription callbacks already received, so a
-- replayed delivery is stored once.

CREATE TABLE live_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX idx_live_events_created ON live_events (created_at);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX idx_media_transcripts_job ON media_transcripts (job_id);
ALTER TABLE media_transcripts ADD COLUMN requested_by text;
CREATE INDEX idx_media_transcripts_requester ON media_transcripts (requested_by, requested_at);
ALTER TABLE push_subscriptions ADD COLUMN no_download boolean NOT NULL DEFAULT false;
