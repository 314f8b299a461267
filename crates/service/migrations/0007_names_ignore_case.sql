-- Account and game names are unique regardless of letter case ("Alice" and "alice" are one name).

CREATE UNIQUE INDEX accounts_name_lower ON accounts (LOWER(name));
CREATE UNIQUE INDEX games_name_lower ON games (LOWER(name));
