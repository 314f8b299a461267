-- Deadlines in a game's time zone, optionally at a fixed local time of day ("20:00").

ALTER TABLE games ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE games ADD COLUMN deadline_at TEXT;
