//! The words of the web pages in English and German.

/// Every fixed text the pages show, in one language.
pub(crate) struct Text {
    pub(crate) lang: &'static str,
    pub(crate) other_lang: &'static str,
    pub(crate) other_lang_name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) tagline: &'static str,
    pub(crate) games: &'static str,
    pub(crate) login: &'static str,
    pub(crate) logout: &'static str,
    pub(crate) signup: &'static str,
    pub(crate) name: &'static str,
    pub(crate) email: &'static str,
    pub(crate) password: &'static str,
    pub(crate) language: &'static str,
    pub(crate) logged_in_as: &'static str,
    pub(crate) new_game: &'static str,
    pub(crate) create: &'static str,
    pub(crate) variant: &'static str,
    pub(crate) press: &'static str,
    pub(crate) press_full: &'static str,
    pub(crate) press_grey: &'static str,
    pub(crate) press_none: &'static str,
    pub(crate) deadline_minutes: &'static str,
    pub(crate) status: &'static str,
    pub(crate) phase: &'static str,
    pub(crate) players: &'static str,
    pub(crate) no_games: &'static str,
    pub(crate) my_games: &'static str,
    pub(crate) other_games: &'static str,
    pub(crate) join: &'static str,
    pub(crate) join_as_observer: &'static str,
    pub(crate) wishes: &'static str,
    pub(crate) wish: &'static str,
    pub(crate) any_power: &'static str,
    pub(crate) start: &'static str,
    pub(crate) you_play: &'static str,
    pub(crate) you_master: &'static str,
    pub(crate) deadline: &'static str,
    pub(crate) orders: &'static str,
    pub(crate) orders_help: &'static str,
    pub(crate) send_orders: &'static str,
    pub(crate) read_as: &'static str,
    pub(crate) no_orders_yet: &'static str,
    pub(crate) map: &'static str,
    pub(crate) history: &'static str,
    pub(crate) show: &'static str,
    pub(crate) earlier: &'static str,
    pub(crate) later: &'static str,
    pub(crate) report: &'static str,
    pub(crate) members: &'static str,
    pub(crate) to_everyone: &'static str,
    pub(crate) send: &'static str,
    pub(crate) no_press: &'static str,
    pub(crate) from: &'static str,
    pub(crate) to: &'static str,
    pub(crate) game_master: &'static str,
    pub(crate) anonymous: &'static str,
    pub(crate) new_phase: &'static str,
    pub(crate) reload: &'static str,
    pub(crate) forming: &'static str,
    pub(crate) active: &'static str,
    pub(crate) finished: &'static str,
    pub(crate) observer: &'static str,
    pub(crate) error: &'static str,
    pub(crate) back: &'static str,
    pub(crate) result: &'static str,
    pub(crate) press_to_help: &'static str,
}

/// English.
pub(crate) static EN: Text = Text {
    lang: "en",
    other_lang: "de",
    other_lang_name: "Deutsch",
    title: "Spielleiter",
    tagline: "A Diplomacy judge: play by web and by e-mail.",
    games: "Games",
    login: "Log in",
    logout: "Log out",
    signup: "Sign up",
    name: "Name",
    email: "E-mail",
    password: "Password (at least 8 characters)",
    language: "Language",
    logged_in_as: "Logged in as",
    new_game: "New game",
    create: "Create",
    variant: "Variant",
    press: "Press",
    press_full: "full",
    press_grey: "grey (anonymous)",
    press_none: "none",
    deadline_minutes: "Minutes per phase",
    status: "Status",
    phase: "Phase",
    players: "Players",
    no_games: "No games yet.",
    my_games: "Your games",
    other_games: "Other games",
    join: "Join",
    join_as_observer: "Watch as an observer",
    wishes: "Your wishes (first to third)",
    wish: "Wish",
    any_power: "any power",
    start: "Start the game",
    you_play: "You play",
    you_master: "You are the game master.",
    deadline: "Deadline",
    orders: "Your orders",
    orders_help: "One order per line, in any common notation (A Par - Bur, F Lon S F Nth, Paris nach Burgund, …). Click units and provinces on the map to write them.",
    send_orders: "Send orders",
    read_as: "Read as",
    no_orders_yet: "No orders sent for this phase yet.",
    map: "Map",
    history: "History",
    show: "Show",
    earlier: "Earlier",
    later: "Later",
    report: "Report",
    members: "Members",
    to_everyone: "everyone",
    send: "Send",
    no_press: "No messages yet.",
    from: "From",
    to: "To",
    game_master: "Game master",
    anonymous: "anonymous",
    new_phase: "A new phase has been adjudicated.",
    reload: "Show it",
    forming: "forming",
    active: "running",
    finished: "finished",
    observer: "observer",
    error: "That did not work",
    back: "Back",
    result: "Result",
    press_to_help: "(none ticked: to everyone)",
};

/// German.
pub(crate) static DE: Text = Text {
    lang: "de",
    other_lang: "en",
    other_lang_name: "English",
    title: "Spielleiter",
    tagline: "Ein Diplomacy-Spielleiter: spielen im Browser und per E-Mail.",
    games: "Partien",
    login: "Anmelden",
    logout: "Abmelden",
    signup: "Registrieren",
    name: "Name",
    email: "E-Mail",
    password: "Passwort (mindestens 8 Zeichen)",
    language: "Sprache",
    logged_in_as: "Angemeldet als",
    new_game: "Neue Partie",
    create: "Anlegen",
    variant: "Variante",
    press: "Presse",
    press_full: "offen",
    press_grey: "grau (anonym)",
    press_none: "keine",
    deadline_minutes: "Minuten je Phase",
    status: "Stand",
    phase: "Phase",
    players: "Spieler",
    no_games: "Noch keine Partien.",
    my_games: "Ihre Partien",
    other_games: "Weitere Partien",
    join: "Mitspielen",
    join_as_observer: "Als Beobachter zusehen",
    wishes: "Ihre Wünsche (erster bis dritter)",
    wish: "Wunsch",
    any_power: "beliebige Macht",
    start: "Partie starten",
    you_play: "Sie spielen",
    you_master: "Sie leiten diese Partie.",
    deadline: "Abgabeschluss",
    orders: "Ihre Befehle",
    orders_help: "Ein Befehl je Zeile, in jeder üblichen Schreibweise (A Par - Bur, F Lon S F Nth, Paris nach Burgund, …). Einheiten und Provinzen auf der Karte anklicken schreibt sie.",
    send_orders: "Befehle abgeben",
    read_as: "Gelesen als",
    no_orders_yet: "Für diese Phase noch keine Befehle abgegeben.",
    map: "Karte",
    history: "Verlauf",
    show: "Zeigen",
    earlier: "Früher",
    later: "Später",
    report: "Bericht",
    members: "Teilnehmer",
    to_everyone: "alle",
    send: "Senden",
    no_press: "Noch keine Nachrichten.",
    from: "Von",
    to: "An",
    game_master: "Spielleiter",
    anonymous: "anonym",
    new_phase: "Eine neue Phase wurde ausgewertet.",
    reload: "Anzeigen",
    forming: "im Aufbau",
    active: "läuft",
    finished: "beendet",
    observer: "Beobachter",
    error: "Das hat nicht geklappt",
    back: "Zurück",
    result: "Ergebnis",
    press_to_help: "(keine angekreuzt: an alle)",
};

impl Text {
    /// The engine's language of these texts (reports, phase names, order errors).
    pub(crate) fn engine_lang(&self) -> spielleiter_engine::report::Lang {
        if self.lang == "de" {
            spielleiter_engine::report::Lang::De
        } else {
            spielleiter_engine::report::Lang::En
        }
    }

    /// A power's name in this language.
    pub(crate) fn power_name(&self, power: &spielleiter_engine::map::model::Power) -> String {
        if self.lang == "de" {
            power.name_de.clone()
        } else {
            power.name.clone()
        }
    }

    /// A variant's title in this language.
    pub(crate) fn variant_title(&self, v: &spielleiter_engine::Variant) -> String {
        if self.lang == "de" {
            v.title_de.clone()
        } else {
            v.title.clone()
        }
    }

    /// The texts of a language code (`de`, anything else English).
    pub(crate) fn of(lang: &str) -> &'static Text {
        if lang.eq_ignore_ascii_case("de") { &DE } else { &EN }
    }

    /// A game status in words.
    pub(crate) fn status(&self, status: &str) -> &'static str {
        match status {
            "forming" => self.forming,
            "active" => self.active,
            _ => self.finished,
        }
    }
}
