-- A new account's address is confirmed like a changed one (migration 0010): it waits with a
-- code mailed to it, and no other mail goes to it until then. `email_confirmed_ms` is when the
-- address in `email` was confirmed (NULL: not yet); accounts made before this count as confirmed.
ALTER TABLE accounts ADD COLUMN email_confirmed_ms BIGINT;
UPDATE accounts SET email_confirmed_ms = created_ms;

-- Failed log-ins (a wrong password, or a wrong code for an address), kept in the database so that
-- every process counts them alike: the web, the API, the SMTP listener and each `mail ingest`.
-- `account_key` is the name_key of the name tried (also for names without an account), `source`
-- the client address (`ip:…`) or the mail's sender (`mail:…`). Rows older than the longest window
-- are deleted as new ones come.
CREATE TABLE login_failures (
    account_key TEXT NOT NULL,
    source TEXT NOT NULL,
    failed_ms BIGINT NOT NULL
);
CREATE INDEX login_failures_account ON login_failures (account_key, failed_ms);
CREATE INDEX login_failures_time ON login_failures (failed_ms);
