-- The closed sets of words the service stores, checked by the database (see 0016, which does
-- the same with triggers on SQLite). Each backend runs only its own file (see `Store::open`).
ALTER TABLE games ADD CONSTRAINT games_status_word CHECK (status IN ('forming', 'active', 'finished'));
ALTER TABLE games ADD CONSTRAINT games_press_word CHECK (press IN ('full', 'grey', 'none'));
ALTER TABLE members ADD CONSTRAINT members_role_word CHECK (role IN ('player', 'observer'));
ALTER TABLE accounts ADD CONSTRAINT accounts_lang_word CHECK (lang IN ('en', 'de'));
ALTER TABLE outbox ADD CONSTRAINT outbox_picture_lang_word CHECK (picture_lang IS NULL OR picture_lang IN ('en', 'de'));
