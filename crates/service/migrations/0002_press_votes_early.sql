-- Press, draw votes, early adjudication and game results.

ALTER TABLE games ADD COLUMN early BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN result_json TEXT;
ALTER TABLE members ADD COLUMN draw_vote BIGINT NOT NULL DEFAULT 0;

CREATE TABLE press (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    phase TEXT NOT NULL,
    from_account TEXT NOT NULL REFERENCES accounts(id),
    from_power TEXT,
    recipients TEXT NOT NULL,
    grey BIGINT NOT NULL,
    body TEXT NOT NULL,
    sent_ms BIGINT NOT NULL
);
