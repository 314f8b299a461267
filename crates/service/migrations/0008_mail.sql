-- Play by e-mail: incoming mail kept raw until it is processed (one row per Message-ID), and an
-- outbox that also holds replies to senders without an account, with retries of failed sends.

CREATE TABLE inbox (
    id TEXT PRIMARY KEY,
    message_key TEXT NOT NULL UNIQUE,
    envelope_from TEXT,
    raw TEXT,
    size BIGINT NOT NULL,
    received_ms BIGINT NOT NULL,
    claimed_ms BIGINT,
    processed_ms BIGINT
);

ALTER TABLE outbox RENAME TO outbox_before_mail;

CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    game_id TEXT REFERENCES games(id),
    account_id TEXT REFERENCES accounts(id),
    to_name TEXT NOT NULL,
    to_email TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    in_reply_to TEXT,
    created_ms BIGINT NOT NULL,
    claimed_ms BIGINT,
    sent_ms BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_try_ms BIGINT NOT NULL DEFAULT 0,
    failed_ms BIGINT,
    last_error TEXT
);

INSERT INTO outbox (id, game_id, account_id, to_name, to_email, subject, body, created_ms, claimed_ms, sent_ms)
    SELECT o.id, o.game_id, o.account_id, a.name, a.email, o.subject, o.body, o.created_ms, o.claimed_ms, o.sent_ms
    FROM outbox_before_mail o JOIN accounts a ON a.id = o.account_id;

DROP TABLE outbox_before_mail;

CREATE INDEX outbox_due ON outbox (sent_ms, next_try_ms);

-- Deadline reminders: hours before the deadline (0: none), and the phase last reminded of.
ALTER TABLE games ADD COLUMN reminder_hours BIGINT NOT NULL DEFAULT 24;
ALTER TABLE games ADD COLUMN reminded_phase TEXT;
