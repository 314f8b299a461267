-- A variant's game options chosen when the game is created (Hegemony: the control rule of
-- neutral countries and the victory condition); none for variants without options.
ALTER TABLE games ADD COLUMN control_rule TEXT;
ALTER TABLE games ADD COLUMN victory BIGINT;
