-- A new e-mail address takes effect only when the code mailed to it is entered: until then it
-- waits beside the address in use, with the SHA-256 of its code and when that code expires.
ALTER TABLE accounts ADD COLUMN pending_email TEXT;
ALTER TABLE accounts ADD COLUMN pending_code_hash TEXT;
ALTER TABLE accounts ADD COLUMN pending_expires_ms BIGINT;
