//! Why the judge refuses a request or cannot carry it out, as the domain sees it: no HTTP status,
//! no text (the adapters map each case to their status and the `i18n` texts).

/// A refusal or failure of a use case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainError {
    /// No game has that id.
    NoSuchGame,
    /// No built-in variant has that name.
    UnknownVariant(String),
    /// The game is not being played (forming or finished).
    NotRunning,
    /// The game has not started: it has no position yet.
    NotStarted,
    /// The game is over: its position is the final one.
    GameOver,
    /// Only the game's players vote on draws and concessions.
    OnlyPlayersVote,
    /// Only powers still on the board vote.
    OnlySurvivorsVote,
    /// Only the game's players and master send press.
    OnlyMembersSendPress,
    /// The game allows no press between players.
    NoPress,
    /// A message must have 1 to `max` characters.
    BadPressLength {
        /// The most a message may have.
        max: usize,
    },
    /// No power of the game has this name.
    UnknownPower(String),
    /// The name is a country no player plays (a neutral country of Hegemony).
    NotPlayable(String),
    /// A power concedes to another power, not to itself.
    ConcedeToSelf,
    /// The power named has been eliminated.
    Eliminated(super::PowerName),
    /// A game's setting out of its bounds.
    Setting(SettingError),
    /// A member cannot join, or the game cannot start, as things stand.
    Seat(SeatError),
    /// A master's action refused.
    Master(MasterError),
    /// Only the game's members see its results (until it ends).
    OnlyMembersSeeResults,
    /// No adjudicated phase has that name.
    NoSuchPhase,
    /// Only the game's players give orders.
    OnlyPlayersOrder,
    /// Only the game's players have orders to show.
    OnlyPlayersHaveOrders,
    /// The phase was adjudicated while the orders arrived.
    PhaseClosed(String),
    /// The phase has been adjudicated already.
    AdjudicatedAlready(String),
    /// The phase is not due: adjudicated already, its deadline extended, or the game paused.
    NotDue(String),
    /// The engine could not adjudicate the phase (the details were logged).
    AdjudicationFailed,
    /// Stored data that cannot be read (the details were logged where it was found).
    Unreadable(String),
    /// The store failed (the details were logged where it happened).
    Store,
    /// The request needs a log-in (or the account logged in is gone).
    NotLoggedIn,
    /// A request about an account refused.
    Account(super::account::AccountError),
    /// Too many attempts of a kind: try again in `wait_ms`.
    RateLimited {
        /// What was tried too often.
        what: Limited,
        /// How long until the next attempt may be made, in milliseconds.
        wait_ms: i64,
    },
}

/// What is limited in number ([`DomainError::RateLimited`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limited {
    /// Failed log-ins (passwords and codes tried).
    LogIns,
    /// New accounts.
    SignUps,
    /// Order submissions.
    Orders,
    /// Live echoes of orders being typed.
    Echoes,
}

/// What only a game's master does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MasterAction {
    /// Start the game.
    Start,
    /// Adjudicate before the deadline.
    Adjudicate,
    /// Extend a deadline.
    Extend,
    /// Pause the clock.
    Pause,
    /// Resume the clock.
    Resume,
    /// Give a power to another player.
    Replace,
}

/// A game's setting out of its bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// Press is full, grey or none.
    BadPressPolicy,
    /// Phases are 1 second to 60 days long.
    BadPhaseLength,
    /// Civil disorder comes after 1 to 10 missed turns.
    BadNmrLimit,
    /// A grace period is 0 seconds to 7 days.
    BadGrace,
    /// Reminders come 0 (none) to 336 hours before a deadline.
    BadReminder,
    /// A time zone or time of day that is not valid (the reason, in English).
    BadDeadlineRule(String),
    /// A game's name has 1 to 40 visible characters.
    BadGameName,
    /// A game has this name already.
    GameNameTaken(String),
    /// A game option the variant does not have or does not allow (the engine's reason, in
    /// English).
    BadRuleOption(String),
}

/// Why a member cannot join, or the game cannot start, as things stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatError {
    /// The game has started: join as an observer.
    JoinAsObserver,
    /// The game has as many players as powers.
    GameFull,
    /// The account is in this game already.
    MemberAlready,
    /// The game has started already.
    StartedAlready,
    /// A game of this variant needs 2 to this many players.
    PlayerCount(usize),
    /// The account is not a player of this game (nothing to leave or change).
    NotJoined,
}

/// Why a master's action is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MasterError {
    /// Only the game's master does this.
    OnlyMaster(MasterAction),
    /// An extension is 1 second to 7 days.
    BadExtension,
    /// The game is paused: resume it first.
    Paused,
    /// The phase's deadline has been extended as often as allowed (or the phase is over).
    ExtensionsUsed(i64),
    /// The game is paused already, or its phase has just been adjudicated.
    PausedAlready,
    /// The game is not paused.
    NotPaused,
    /// No account has that name.
    NoSuchAccount,
    /// The account plays in this game already.
    PlaysAlready,
}
