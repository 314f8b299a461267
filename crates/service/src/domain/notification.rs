//! What the judge tells people, as values: the `i18n` module writes each in English and German,
//! the outbox delivers it.

/// A power as readers see it: its key (as stored and in the API) and its names in English and
/// German (as mails and pages show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PowerName {
    /// The key, upper case as in the JSON interchange (`FRANCE`).
    pub key: String,
    /// The English name (`France`).
    pub en: String,
    /// The German name (`Frankreich`).
    pub de: String,
}

impl PowerName {
    /// A power known only by its key, named by it in both languages.
    pub fn bare(key: &str) -> PowerName {
        let key = key.to_ascii_uppercase();
        PowerName {
            en: key.clone(),
            de: key.clone(),
            key,
        }
    }

    /// The name in German or English.
    pub fn in_lang(&self, de: bool) -> &str {
        if de { &self.de } else { &self.en }
    }

    /// The names of `powers` in German or English, joined by commas.
    pub fn list(powers: &[PowerName], de: bool) -> String {
        powers.iter().map(|p| p.in_lang(de)).collect::<Vec<_>>().join(", ")
    }
}

/// Who a message is shown as coming from: a power by its key (`P = String`), or in a mail by its
/// names (`P = PowerName`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Speaker<P = String> {
    /// The game master.
    Master,
    /// A power, named.
    Power(P),
    /// A power whose name grey press hides.
    Hidden,
}

impl Speaker {
    /// The same speaker with the power (a key) named by `name`.
    pub fn named(&self, name: impl FnOnce(&str) -> PowerName) -> Speaker<PowerName> {
        match self {
            Speaker::Master => Speaker::Master,
            Speaker::Hidden => Speaker::Hidden,
            Speaker::Power(key) => Speaker::Power(name(key)),
        }
    }
}

/// Something the judge tells a member of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notification {
    /// The deadline passed without the reader's orders: they are still taken for `minutes`.
    GraceStarted {
        /// The game's name.
        game: String,
        /// The grace period.
        minutes: i64,
    },
    /// The game ended in a draw shared by `powers`.
    Drawn {
        /// The game's name.
        game: String,
        /// The survivors sharing the draw.
        powers: Vec<PowerName>,
    },
    /// The other survivors conceded the game to `winner`.
    Conceded {
        /// The game's name.
        game: String,
        /// The power conceded to.
        winner: PowerName,
    },
    /// The game started: the reader plays `power`.
    GameStarted {
        /// The game's name.
        game: String,
        /// The power the reader plays.
        power: PowerName,
        /// The seed of the lot that settled equal wishes.
        seed: i64,
        /// The first deadline, as the game shows times.
        first_deadline: String,
        /// The house rule of retreats only with the moves is in force.
        retreats_with_moves: bool,
        /// The house rule of a year's orders at once is in force.
        year_at_once: bool,
    },
    /// The master extended the deadline.
    DeadlineExtended {
        /// The game's name.
        game: String,
        /// By how much.
        minutes: i64,
        /// The new deadline.
        deadline: String,
    },
    /// The master paused the game.
    Paused {
        /// The game's name.
        game: String,
    },
    /// The master resumed the game.
    Resumed {
        /// The game's name.
        game: String,
        /// The deadline now.
        deadline: String,
    },
    /// A power has a new player.
    NewPlayer {
        /// The game's name.
        game: String,
        /// The new player's account name.
        player: String,
        /// The power.
        power: PowerName,
    },
    /// A phase's result.
    Result(Box<PhaseResult>),
    /// What an adjudication tells the reader's power alone: its orders not carried out, and in
    /// Hegemony its allocations, provocations, income and politics.
    ForYouAlone {
        /// The game's name.
        game: String,
        /// The phase adjudicated.
        phase: String,
        /// The reader's power.
        power: PowerName,
        /// The lines, in English.
        lines_en: Vec<String>,
        /// The same in German.
        lines_de: Vec<String>,
    },
    /// The reader's orders for the phase are missing and the deadline is near.
    OrdersMissing {
        /// The game's name.
        game: String,
        /// The phase.
        phase: String,
        /// The reader's power.
        power: PowerName,
        /// The deadline.
        deadline: String,
    },
    /// The code that confirms an e-mail address.
    AddressCode {
        /// The account's name.
        account: String,
        /// The code.
        code: String,
        /// The account page that takes the code, where the judge's address is known.
        link: Option<String>,
        /// The address of a new account (which gets no other mail until confirmed), else a new
        /// address of an existing one.
        first: bool,
        /// How many hours the code holds.
        hours: i64,
    },
    /// The account's address was changed (told to the old one, in both languages).
    AddressChanged {
        /// The account's name.
        account: String,
        /// The new address.
        email: String,
    },
    /// A message of press.
    Press {
        /// The game's name.
        game: String,
        /// Who it is shown as coming from.
        from: Speaker<PowerName>,
        /// The powers it went to; none: everyone.
        to: Vec<PowerName>,
        /// The phase it was sent in.
        phase: String,
        /// The text.
        body: String,
    },
}

/// What a phase's result mail says: the report and who missed the phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseResult {
    /// The game's name.
    pub game: String,
    /// The phase adjudicated.
    pub phase: String,
    /// The phase that follows.
    pub next_phase: String,
    /// The report in English.
    pub report_en: String,
    /// The report in German.
    pub report_de: String,
    /// The powers that sent no orders.
    pub missing: Vec<PowerName>,
    /// The powers in civil disorder.
    pub disorder: Vec<PowerName>,
    /// The next deadline, if the game goes on with a clock.
    pub deadline: Option<String>,
}
