//! The ports the use cases need: the game store (one unit of work at a time, with the outbox in
//! it, so a notification is queued exactly when its change is stored) and the clock. The SQL
//! adapter (`crate::sql`) and the in-memory fake (`super::fake`) implement them.

use std::collections::BTreeMap;

use spielleiter_engine::interchange::{GameEnd, GameState};
use spielleiter_engine::report::Lang;

use super::adjudication::{Advance, Claim, PhaseRecord};
use super::games::NewGameRecord;
use super::results::StoredResult;
use crate::domain::account::{Account, PendingAddress};
use crate::domain::play::Turns;
use crate::domain::{DomainError, Game, Member, Notification, Role};

/// The time.
pub trait Clock {
    /// Milliseconds since 1970.
    fn now_ms(&self) -> i64;
}

/// The machine's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        crate::store::now_ms()
    }
}

/// Where games are kept: begins units of work.
pub trait GameStore {
    /// A unit of work of this store.
    type Unit<'a>: GameUnit
    where
        Self: 'a;

    /// Begins a unit of work: everything done in it is stored together on `commit`, or not at
    /// all.
    async fn begin(&self) -> Result<Self::Unit<'_>, DomainError>;
}

/// A message of press to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPress {
    /// Its id (a mail's Message-ID based id, so that a repeat is recognised).
    pub id: String,
    /// The game.
    pub game: String,
    /// The phase it was sent in.
    pub phase: String,
    /// The sending account.
    pub from_account: String,
    /// The sending power; none: the master.
    pub from_power: Option<String>,
    /// The recipient powers; none: everyone.
    pub recipients: Vec<String>,
    /// Whether grey press hides the sender.
    pub grey: bool,
    /// The text.
    pub body: String,
    /// When it was sent (milliseconds since 1970).
    pub sent_ms: i64,
}

/// A unit of work: what is done in it is stored together by `commit`, or not at all when it is
/// dropped.
pub trait Unit {
    /// Stores everything done in the unit.
    async fn commit(self) -> Result<(), DomainError>;
}

/// One unit of work (a transaction) on games, their members, orders, press and the outbox.
pub trait GameUnit: Unit {
    /// The game with this id ([`DomainError::NoSuchGame`] if there is none).
    async fn game(&mut self, id: &str) -> Result<Game, DomainError>;

    /// The game's members (players and observers), by account.
    async fn members(&mut self, game: &str) -> Result<Vec<Member>, DomainError>;

    /// Everyone who hears of the game: its members and its master, each with the language read.
    async fn audience(&mut self, game: &Game) -> Result<Vec<(String, Lang)>, DomainError>;

    /// The powers that stored orders for `phase`, each with whether it marked them ready.
    async fn ordered_powers(&mut self, game: &str, phase: &str) -> Result<Vec<(String, bool)>, DomainError>;

    /// Records an account's draw vote.
    async fn set_draw_vote(&mut self, game: &str, account: &str, yes: bool) -> Result<(), DomainError>;

    /// Records the power an account concedes to (none: withdrawn).
    async fn set_concession(&mut self, game: &str, account: &str, to: Option<&str>) -> Result<(), DomainError>;

    /// Ends a running game with `end`; false if it was not running (ended meanwhile).
    async fn finish(&mut self, game: &str, end: &GameEnd) -> Result<bool, DomainError>;

    /// Moves the deadline by the grace period and marks the phase as in grace; false if the
    /// phase had its grace period already or is over.
    async fn start_grace(&mut self, game: &Game) -> Result<bool, DomainError>;

    /// Stores the record of turns of the player of `power`, if `account` still plays it (a
    /// player seated meanwhile starts afresh).
    async fn set_turns(&mut self, game: &str, power: &str, account: &str, turns: Turns) -> Result<(), DomainError>;

    /// Stores a message of press; false if one with its id is stored already (a repeat).
    async fn add_press(&mut self, press: &NewPress) -> Result<bool, DomainError>;

    /// Queues a notification to an account, in the language given.
    async fn notify(&mut self, game: &str, to: &(String, Lang), n: &Notification) -> Result<(), DomainError>;

    /// Queues a phase's result to an account, with the phase's maps drawn in its language when
    /// it is sent.
    async fn notify_with_maps(
        &mut self,
        game: &str,
        to: &(String, Lang),
        n: &Notification,
        phase: &str,
    ) -> Result<(), DomainError>;

    /// Claims `phase` of a running game for adjudication: locks the game, so that order
    /// submissions and other adjudications wait; false if the game is not in that phase or
    /// `claim` does not hold (adjudicated already, extended, paused).
    async fn claim_phase(&mut self, game: &str, phase: &str, claim: Claim) -> Result<bool, DomainError>;

    /// The orders each power stored for the phase (a row that cannot be read is an error: read
    /// as no orders, it would look like a missed turn).
    async fn stored_orders(&mut self, game: &str, phase: &str) -> Result<BTreeMap<String, Vec<String>>, DomainError>;

    /// Stores an adjudicated phase; false if it was stored already.
    async fn store_phase(&mut self, record: &PhaseRecord) -> Result<bool, DomainError>;

    /// Withdraws every draw vote and concession in the game.
    async fn clear_votes(&mut self, game: &str) -> Result<(), DomainError>;

    /// Moves the game on after an adjudicated phase (a new phase's extensions and grace period
    /// start afresh).
    async fn advance(&mut self, game: &str, next: &Advance) -> Result<(), DomainError>;

    /// Replaces a power's orders for `phase` with `lines`, marked ready or not, if the game is
    /// still in that phase (waiting for an adjudication in progress); false if it is not.
    async fn replace_orders(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        lines: &[String],
        now_ms: i64,
        ready: bool,
    ) -> Result<bool, DomainError>;

    /// Marks a power's orders for `phase` ready or not (without orders stored: an empty set, every
    /// unit holds), if the game is still in that phase; false if it is not.
    async fn set_ready(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        ready: bool,
        now_ms: i64,
    ) -> Result<bool, DomainError>;

    /// The lines a power stored for `phase`, if any.
    async fn orders_of(&mut self, game: &str, power: &str, phase: &str) -> Result<Option<Vec<String>>, DomainError>;

    /// Moves the deadline of the game's current phase by `ms` and counts an extension, if the
    /// phase still runs unpaused with fewer than `max` extensions; false if not.
    async fn extend_deadline(&mut self, game: &Game, ms: i64, max: i64) -> Result<bool, DomainError>;

    /// Stops the clock of the game's current phase with `remaining_ms` left; false if it is
    /// paused already or the phase is over.
    async fn pause(&mut self, game: &Game, remaining_ms: i64) -> Result<bool, DomainError>;

    /// Starts the clock of a paused game with `deadline_ms`; false if it is not paused.
    async fn resume(&mut self, game: &str, deadline_ms: i64) -> Result<bool, DomainError>;

    /// The id of the account with this name (as names compare), if any.
    async fn account_named(&mut self, name: &str) -> Result<Option<String>, DomainError>;

    /// Makes `account` the player of `power` (its record of turns and votes starting afresh),
    /// dropping its observer membership first if `was_observer`.
    async fn seat_player(
        &mut self,
        game: &str,
        power: &str,
        account: &str,
        was_observer: bool,
        now_ms: i64,
    ) -> Result<(), DomainError>;

    /// Stores a new game, forming; false if a game has its name (as names compare).
    async fn insert_game(&mut self, game: &NewGameRecord) -> Result<bool, DomainError>;

    /// Marks the game's `phase` as reminded; false if it was already (or the game is in another
    /// phase).
    async fn claim_reminder(&mut self, game: &str, phase: &str) -> Result<bool, DomainError>;

    /// Locks a running game (draw votes and concessions are counted one after the other); false
    /// if it is not running.
    async fn lock_running(&mut self, game: &str) -> Result<bool, DomainError>;

    /// Locks a forming game (joins are counted one after the other); false if it is not forming.
    async fn lock_forming(&mut self, game: &str) -> Result<bool, DomainError>;

    /// Adds a member with its wishes; false if the account is a member already.
    async fn add_member(
        &mut self,
        game: &str,
        account: &str,
        role: Role,
        preferences: &[String],
        now_ms: i64,
    ) -> Result<bool, DomainError>;

    /// Starts a forming game: its lot's seed, first state, deadline and phase; false if it is
    /// not forming (started meanwhile).
    async fn start_game(
        &mut self,
        game: &str,
        seed: i64,
        state: &GameState,
        deadline_ms: i64,
        phase: &str,
    ) -> Result<bool, DomainError>;

    /// Removes a member from a forming game; false if it was none (or the game is not forming).
    async fn remove_member(&mut self, game: &str, account: &str) -> Result<bool, DomainError>;

    /// Replaces a member's wishes; false if it is no member.
    async fn set_wishes(&mut self, game: &str, account: &str, preferences: &[String]) -> Result<bool, DomainError>;

    /// The players' wishes in the order they joined: account and powers wished for.
    async fn wishes(&mut self, game: &str) -> Result<Vec<(String, Vec<String>)>, DomainError>;

    /// Gives a player a power.
    async fn assign_power(&mut self, game: &str, account: &str, power: &str) -> Result<(), DomainError>;

    /// An adjudicated phase as stored, if the game has it.
    async fn result(&mut self, game: &str, phase: &str) -> Result<Option<StoredResult>, DomainError>;

    /// Every adjudicated phase of the game, oldest first.
    async fn results(&mut self, game: &str) -> Result<Vec<StoredResult>, DomainError>;

    /// The game's press sent after `since_ms`, oldest first.
    async fn press_since(&mut self, game: &str, since_ms: i64) -> Result<Vec<NewPress>, DomainError>;

    /// The sending time of the newest message of the game `account` was shown (0: none).
    async fn press_seen(&mut self, game: &str, account: &str) -> Result<i64, DomainError>;

    /// Notes that `account` was shown the game's press up to `seen_ms` (never moves back).
    async fn mark_press_seen(&mut self, game: &str, account: &str, seen_ms: i64) -> Result<(), DomainError>;
}

/// Where accounts are kept: begins units of work on them.
pub trait AccountStore {
    /// A unit of work on accounts.
    type Unit<'a>: AccountUnit
    where
        Self: 'a;

    /// Begins a unit of work on accounts.
    async fn begin_accounts(&self) -> Result<Self::Unit<'_>, DomainError>;
}

/// One unit of work on accounts, their sessions and the mail to their addresses.
pub trait AccountUnit: Unit {
    /// The account with this id, if any.
    async fn account(&mut self, id: &str) -> Result<Option<Account>, DomainError>;

    /// The account a typed name names: by its exact name first, else as names compare.
    async fn account_by_name(&mut self, name: &str) -> Result<Option<Account>, DomainError>;

    /// Whether an account has a name that compares as `key`.
    async fn name_key_taken(&mut self, key: &str) -> Result<bool, DomainError>;

    /// Stores a new account; false if its name key is taken (meanwhile).
    async fn insert_account(&mut self, account: &Account, created_ms: i64) -> Result<bool, DomainError>;

    /// Sets the account's language and password hash where given, if its hash is still
    /// `if_hash`; false if it is not (changed meanwhile).
    async fn update_account(
        &mut self,
        id: &str,
        lang: Option<Lang>,
        hash: Option<&str>,
        if_hash: &str,
    ) -> Result<bool, DomainError>;

    /// Sets (or, with none, withdraws) the new address waiting for its code.
    async fn set_pending(&mut self, id: &str, pending: Option<&PendingAddress>) -> Result<(), DomainError>;

    /// Makes the waiting address the account's confirmed address, if its code is still
    /// `code_hash`; false if not (changed meanwhile).
    async fn confirm_pending(&mut self, id: &str, code_hash: &str, now_ms: i64) -> Result<bool, DomainError>;

    /// Ends every session of the account.
    async fn end_sessions(&mut self, id: &str) -> Result<(), DomainError>;

    /// Opens a session whose token has the hash given.
    async fn open_session(
        &mut self,
        id: &str,
        token_hash: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), DomainError>;

    /// Queues a notification to an address (not yet, or no longer, the account's), in `lang`.
    async fn mail_address(&mut self, name: &str, email: &str, n: &Notification, lang: Lang) -> Result<(), DomainError>;
}

/// The rate limits of one request's source: secrets tried and sign-ups counted.
pub trait Gate {
    /// Checks a secret (password, code) for the name whose key is `key`, as one log-in attempt:
    /// refused ([`DomainError::RateLimited`]) after too many failures, else whether `right`
    /// found it right (a wrong one stays counted).
    async fn check_secret(&self, key: &str, right: impl Future<Output = bool>) -> Result<bool, DomainError>;

    /// Counts a sign-up for the address `email`; refused after too many.
    async fn sign_up(&self, email: &str) -> Result<(), DomainError>;
}

/// Hashes and checks passwords.
pub trait Passwords {
    /// The stored form of a new password.
    async fn hash(&self, password: &str) -> Result<String, DomainError>;

    /// Whether a password matches a stored hash; without one (no account has the name tried)
    /// it does not, after as long a check as with one.
    async fn matches(&self, password: &str, stored: Option<&str>) -> bool;
}
