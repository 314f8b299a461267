-- Account and game names are one name when they read the same (migration 0007 folded ASCII
-- letters only): `name_key` holds the name in Unicode NFKC and lower case ("Émile", "émile" and
-- fullwidth "Ｅｍｉｌｅ" share one key). The service writes it with every new name and fills it for
-- existing rows at start (portable SQL cannot normalise Unicode); it is unique, NULL until filled.
-- (PostgreSQL names the UNIQUE constraints on `name` `accounts_name_key` and `games_name_key`
-- already: these indexes are called `…_by_name_key`.)

ALTER TABLE accounts ADD COLUMN name_key TEXT;
ALTER TABLE games ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX accounts_by_name_key ON accounts (name_key);
CREATE UNIQUE INDEX games_by_name_key ON games (name_key);
