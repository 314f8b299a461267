-- How far each reader (member or master) has read a game's press: the sending time of the
-- newest message shown to it. Newer messages are marked new on the game page.
CREATE TABLE press_seen (
    game_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    seen_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
