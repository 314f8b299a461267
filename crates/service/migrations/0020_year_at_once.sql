-- House rule: a year's orders at once (seed 003): one deadline per game year, the phases of the
-- year adjudicated one after another at it.
ALTER TABLE games ADD COLUMN year_at_once BIGINT NOT NULL DEFAULT 0;
