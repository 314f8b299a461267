-- Missed turns and civil disorder, the game master's controls (pause, extensions, grace period),
-- concessions, the current phase as a column (the lock for order submission and adjudication),
-- and claims on outgoing messages so that several processes never send one twice.

ALTER TABLE games ADD COLUMN phase TEXT;
ALTER TABLE games ADD COLUMN nmr_limit BIGINT NOT NULL DEFAULT 2;
ALTER TABLE games ADD COLUMN grace_seconds BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN in_grace BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN paused_remaining_ms BIGINT;
ALTER TABLE games ADD COLUMN extensions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN missed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN civil_disorder BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN concede_to TEXT;
ALTER TABLE outbox ADD COLUMN claimed_ms BIGINT;
