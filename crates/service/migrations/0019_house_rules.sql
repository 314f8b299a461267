-- The house rules of our documents a game is played with, chosen when it is created: retreats
-- only with the moves (seed 000 §10b), 1 or 0 (as `early`). Off for every game made before.
ALTER TABLE games ADD COLUMN retreats_with_moves BIGINT NOT NULL DEFAULT 0;
