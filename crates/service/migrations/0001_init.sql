-- The judge service's tables. Portable SQL for SQLite and PostgreSQL: ids are text made by the
-- service, times are milliseconds since 1970 as BIGINT, JSON is stored as TEXT.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    master_id TEXT NOT NULL REFERENCES accounts(id),
    status TEXT NOT NULL,
    press TEXT NOT NULL,
    movement_seconds BIGINT NOT NULL,
    retreat_seconds BIGINT NOT NULL,
    adjustment_seconds BIGINT NOT NULL,
    lot_seed BIGINT,
    state_json TEXT,
    deadline_ms BIGINT,
    created_ms BIGINT NOT NULL
);

CREATE TABLE members (
    game_id TEXT NOT NULL REFERENCES games(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    role TEXT NOT NULL,
    preferences TEXT NOT NULL,
    power TEXT,
    joined_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);

CREATE TABLE orders (
    game_id TEXT NOT NULL REFERENCES games(id),
    power TEXT NOT NULL,
    phase TEXT NOT NULL,
    lines TEXT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, power, phase)
);

CREATE TABLE phases (
    game_id TEXT NOT NULL REFERENCES games(id),
    phase TEXT NOT NULL,
    state_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    report_en TEXT NOT NULL,
    report_de TEXT NOT NULL,
    adjudicated_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, phase)
);

CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    sent_ms BIGINT
);
