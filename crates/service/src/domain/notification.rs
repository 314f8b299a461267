//! What the judge tells people, as values: the `i18n` module writes each in English and German,
//! the outbox delivers it.

/// Who a message is shown as coming from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Speaker {
    /// The game master.
    Master,
    /// A power, named.
    Power(String),
    /// A power whose name grey press hides.
    Hidden,
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
        powers: Vec<String>,
    },
    /// The other survivors conceded the game to `winner`.
    Conceded {
        /// The game's name.
        game: String,
        /// The power conceded to.
        winner: String,
    },
    /// A message of press.
    Press {
        /// The game's name.
        game: String,
        /// Who it is shown as coming from.
        from: Speaker,
        /// The powers it went to; none: everyone.
        to: Vec<String>,
        /// The phase it was sent in.
        phase: String,
        /// The text.
        body: String,
    },
}
