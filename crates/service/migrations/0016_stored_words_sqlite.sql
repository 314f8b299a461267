-- The closed sets of words the service stores (game status and press policy, member role,
-- account language, the language of a message's maps) are checked by the database too, so that
-- no other writer can store a word the service cannot read. SQLite cannot add a CHECK
-- constraint to an existing table, so triggers refuse such rows; PostgreSQL gets CHECK
-- constraints (0017). Each backend runs only its own file (see `Store::open`).
CREATE TRIGGER games_words_insert BEFORE INSERT ON games
WHEN NEW.status NOT IN ('forming', 'active', 'finished') OR NEW.press NOT IN ('full', 'grey', 'none')
BEGIN SELECT RAISE(ABORT, 'games: status or press is not one of its words'); END;

CREATE TRIGGER games_words_update BEFORE UPDATE OF status, press ON games
WHEN NEW.status NOT IN ('forming', 'active', 'finished') OR NEW.press NOT IN ('full', 'grey', 'none')
BEGIN SELECT RAISE(ABORT, 'games: status or press is not one of its words'); END;

CREATE TRIGGER members_role_insert BEFORE INSERT ON members
WHEN NEW.role NOT IN ('player', 'observer')
BEGIN SELECT RAISE(ABORT, 'members: role is player or observer'); END;

CREATE TRIGGER members_role_update BEFORE UPDATE OF role ON members
WHEN NEW.role NOT IN ('player', 'observer')
BEGIN SELECT RAISE(ABORT, 'members: role is player or observer'); END;

CREATE TRIGGER accounts_lang_insert BEFORE INSERT ON accounts
WHEN NEW.lang NOT IN ('en', 'de')
BEGIN SELECT RAISE(ABORT, 'accounts: lang is en or de'); END;

CREATE TRIGGER accounts_lang_update BEFORE UPDATE OF lang ON accounts
WHEN NEW.lang NOT IN ('en', 'de')
BEGIN SELECT RAISE(ABORT, 'accounts: lang is en or de'); END;

CREATE TRIGGER outbox_picture_lang_insert BEFORE INSERT ON outbox
WHEN NEW.picture_lang IS NOT NULL AND NEW.picture_lang NOT IN ('en', 'de')
BEGIN SELECT RAISE(ABORT, 'outbox: picture_lang is en or de'); END;
