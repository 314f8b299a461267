-- A log-in attempt is counted as a failure before its password is checked, and taken back when
-- the password was right (so that attempts made at the same moment cannot together pass a cap):
-- `attempt` names the row of one attempt, NULL for rows counted before this migration.
ALTER TABLE login_failures ADD COLUMN attempt TEXT;
CREATE INDEX login_failures_attempt ON login_failures (attempt);

-- Sign-ups, counted per source (`ip:…`, `mail:…`) and per address asked for (lower case): each
-- costs a password hash and mails a code, so neither a client nor an address may ask for many.
-- `attempt` names the row, which a refused sign-up takes back.
CREATE TABLE sign_ups (
    source TEXT NOT NULL,
    address TEXT NOT NULL,
    made_ms BIGINT NOT NULL,
    attempt TEXT NOT NULL
);
CREATE INDEX sign_ups_source ON sign_ups (source, made_ms);
CREATE INDEX sign_ups_address ON sign_ups (address, made_ms);
CREATE INDEX sign_ups_time ON sign_ups (made_ms);
