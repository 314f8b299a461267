-- A player marks the orders of a phase as final ("ready"); early adjudication waits for every
-- played power to be ready. The master may let everyone see who is ready (else only how many).
ALTER TABLE orders ADD COLUMN ready BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ready_names BIGINT NOT NULL DEFAULT 0;
