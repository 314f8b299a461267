//! A game and its members as the judge keeps them.

use std::collections::BTreeMap;

use spielleiter_engine::report::Lang;

use super::{GameStatus, PressPolicy, Role};

/// A game as stored: its settings, where it stands, and its position (in the interchange format).
#[derive(Debug, Clone)]
pub struct Game {
    /// Its id.
    pub id: String,
    /// Its name (unique, shown everywhere).
    pub name: String,
    /// The variant's name (`standard`, `hegemony-1701`, …).
    pub variant: String,
    /// The master's account id.
    pub master: String,
    /// Where it stands.
    pub status: GameStatus,
    /// What press it allows.
    pub press: PressPolicy,
    /// The seed of the lot that assigned the powers, once started.
    pub lot_seed: Option<i64>,
    /// The state after the last adjudication (interchange JSON), once started.
    pub state_json: Option<String>,
    /// The current deadline (milliseconds since 1970); none while forming, paused or finished.
    pub deadline_ms: Option<i64>,
    /// The time allowed for movement, retreat and adjustment phases, in seconds.
    pub seconds: [i64; 3],
    /// Whether it is adjudicated as soon as every awaited power has ordered.
    pub early: bool,
    /// Missed turns in a row after which a power is in civil disorder.
    pub nmr_limit: i64,
    /// Extra time once after the deadline when played powers have not ordered.
    pub grace_seconds: i64,
    /// Whether the current deadline is the grace period.
    pub in_grace: bool,
    /// While paused: the time that was left until the deadline.
    pub paused_remaining_ms: Option<i64>,
    /// Deadline extensions granted in the current phase.
    pub extensions: i64,
    /// The phase to order for (`S1901M`), `COMPLETED` at the end; none before the start.
    pub phase: Option<String>,
    /// The game's time zone (IANA name).
    pub time_zone: String,
    /// The local time of day deadlines are moved to, if any (`20:00`).
    pub deadline_at: Option<String>,
    /// Orders for later phases and retreats ordered in advance, as the last adjudication left them.
    pub pending: Pending,
    /// Hours before a deadline at which missing orders are reminded (0: never).
    pub reminder_hours: i64,
    /// The variant's game options chosen at creation.
    pub options: super::RuleOptions,
}

impl Game {
    /// The time allowed for a phase of `kind`, in seconds.
    pub fn phase_seconds(&self, kind: spielleiter_engine::PhaseKind) -> i64 {
        match kind {
            spielleiter_engine::PhaseKind::Movement => self.seconds[0],
            spielleiter_engine::PhaseKind::Retreat => self.seconds[1],
            spielleiter_engine::PhaseKind::Adjustment => self.seconds[2],
        }
    }

    /// How the game sets deadlines (stored settings were checked when the game was created).
    pub fn deadline_rule(&self) -> crate::deadlines::DeadlineRule {
        crate::deadlines::DeadlineRule::stored(&self.time_zone, self.deadline_at.as_deref())
    }
}

/// Orders waiting for a later phase, per power (upper-case key): `PHASE: order` lines, and
/// retreats chosen in advance for the coming retreat phase.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    /// Retreats given in advance, per power.
    #[serde(default)]
    pub pending_retreats: BTreeMap<String, Vec<String>>,
    /// `PHASE: order` lines for later phases, per power.
    #[serde(default)]
    pub pending_orders: BTreeMap<String, Vec<String>>,
}

impl Pending {
    /// Whether `power` has orders waiting for `phase` (`F1901M`), so that it has not missed it.
    pub fn covers(&self, power: &str, phase: &str) -> bool {
        let for_phase = |line: &String| {
            line.split_once(':')
                .is_some_and(|(heading, _)| heading.trim().eq_ignore_ascii_case(phase))
        };
        let retreat = phase.ends_with('R');
        self.pending_orders
            .get(power)
            .is_some_and(|lines| lines.iter().any(for_phase))
            || (retreat && self.pending_retreats.get(power).is_some_and(|r| !r.is_empty()))
    }

    /// The lines of `power`, for showing the player what waits.
    pub fn of(&self, power: &str) -> Vec<String> {
        let mut lines = self.pending_orders.get(power).cloned().unwrap_or_default();
        lines.extend(self.pending_retreats.get(power).into_iter().flatten().cloned());
        lines
    }
}

/// A member of a game: a player (with a power once the game started) or an observer, with what
/// the judge keeps of the member's turns and votes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The account.
    pub account: String,
    /// Player or observer.
    pub role: Role,
    /// The power played (upper-case key), once assigned.
    pub power: Option<String>,
    /// Missed turns in a row.
    pub missed: i64,
    /// Whether the power is in civil disorder (the player may come back by ordering).
    pub civil_disorder: bool,
    /// Whether the member votes for a draw in the current phase.
    pub draw_vote: bool,
    /// The power the member concedes the game to, if any.
    pub concede_to: Option<String>,
    /// The language the member reads.
    pub lang: Lang,
}

impl Member {
    /// The power this member plays, if a player with a power.
    pub fn played_power(&self) -> Option<&str> {
        match self.role {
            Role::Player => self.power.as_deref(),
            Role::Observer => None,
        }
    }
}
