-- The transcription queue: one row per media file and language, waiting or being processed.
CREATE TABLE queue_jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path TEXT NOT NULL,
  language TEXT NOT NULL,
  item TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('request', 'scan')),
  state TEXT NOT NULL CHECK (state IN ('queued', 'running')),
  attempts INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL,
  worker INTEGER,
  enqueued_at TEXT NOT NULL,
  started_at TEXT,
  UNIQUE (path, language)
);
CREATE INDEX queue_jobs_next ON queue_jobs (state, position);
