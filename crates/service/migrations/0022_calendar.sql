-- A variant's other calendar chosen for a game (Colonial: "original", spring and fall years).
ALTER TABLE games ADD COLUMN calendar TEXT;
