-- The language each account reads results and announcements in: en or de.

ALTER TABLE accounts ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
