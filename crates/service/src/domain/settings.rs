//! A new game's settings and the bounds they are checked against.

use super::{DomainError, PressPolicy, SettingError};

/// The settings a game is created with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSettings {
    /// The name (trimmed when checked).
    pub name: String,
    /// The variant's name.
    pub variant: String,
    /// What press it allows.
    pub press: PressPolicy,
    /// The time for movement, retreat and adjustment phases, in seconds.
    pub seconds: [i64; 3],
    /// Adjudicate as soon as every awaited power has ordered.
    pub early: bool,
    /// Missed turns in a row after which a power is in civil disorder.
    pub nmr_limit: i64,
    /// Extra time once after a deadline that a played power missed.
    pub grace_seconds: i64,
    /// The time zone (IANA name).
    pub time_zone: String,
    /// A local time of day (`HH:MM`) every deadline is moved to.
    pub deadline_at: Option<String>,
    /// Hours before a deadline at which missing orders are reminded (0: never).
    pub reminder_hours: i64,
    /// The variant's game options.
    pub options: RuleOptions,
}

/// The game options of the rules, chosen when the game is created and checked by the engine
/// against the variant: a variant's own (Hegemony: how control of neutral countries is
/// determined, and the victory condition) and the house rules of our documents, for any variant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleOptions {
    /// The control rule by name (`standard`, `alternative`).
    pub control_rule: Option<String>,
    /// The victory condition by number.
    pub victory: Option<u8>,
    /// House rule: retreats only with the moves, no retreat phase (seed 000 §10b).
    pub retreats_with_moves: bool,
    /// House rule: a year's orders at once (seed 003): one deadline per game year, at which the
    /// year's phases are adjudicated one after another.
    pub year_at_once: bool,
    /// The master's choice: every member sees which powers marked their orders final, not only
    /// how many.
    pub ready_names: bool,
    /// Another calendar of the variant (Colonial: `original`, spring and fall years).
    pub calendar: Option<String>,
}

impl RuleOptions {
    /// Whether no option is chosen.
    pub fn is_empty(&self) -> bool {
        self.control_rule.is_none()
            && self.victory.is_none()
            && !self.retreats_with_moves
            && !self.year_at_once
            && !self.ready_names
            && self.calendar.is_none()
    }
}

/// The longest phase: 60 days.
pub const MAX_PHASE_SECONDS: i64 = 60 * 24 * 3600;
/// The longest grace period: 7 days.
pub const MAX_GRACE_SECONDS: i64 = 7 * 24 * 3600;
/// The earliest reminder: 14 days before a deadline.
pub const MAX_REMINDER_HOURS: i64 = 14 * 24;

impl GameSettings {
    /// Checks every bound (the name, variant and time zone are checked where they are known).
    pub fn check(&self) -> Result<(), DomainError> {
        if self.seconds.iter().any(|s| !(1..=MAX_PHASE_SECONDS).contains(s)) {
            return Err(DomainError::Setting(SettingError::BadPhaseLength));
        }
        if !(1..=10).contains(&self.nmr_limit) {
            return Err(DomainError::Setting(SettingError::BadNmrLimit));
        }
        if !(0..=MAX_GRACE_SECONDS).contains(&self.grace_seconds) {
            return Err(DomainError::Setting(SettingError::BadGrace));
        }
        if !(0..=MAX_REMINDER_HOURS).contains(&self.reminder_hours) {
            return Err(DomainError::Setting(SettingError::BadReminder));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> GameSettings {
        GameSettings {
            name: "Zugspitze".into(),
            variant: "standard".into(),
            press: PressPolicy::Full,
            seconds: [86_400; 3],
            early: false,
            nmr_limit: 2,
            grace_seconds: 0,
            time_zone: "UTC".into(),
            deadline_at: None,
            reminder_hours: 24,
            options: RuleOptions::default(),
        }
    }

    #[test]
    fn each_setting_is_checked_against_its_bounds() {
        assert_eq!(settings().check(), Ok(()));
        let bad = [
            (
                GameSettings {
                    seconds: [0, 1, 1],
                    ..settings()
                },
                DomainError::Setting(SettingError::BadPhaseLength),
            ),
            (
                GameSettings {
                    seconds: [1, 1, MAX_PHASE_SECONDS + 1],
                    ..settings()
                },
                DomainError::Setting(SettingError::BadPhaseLength),
            ),
            (
                GameSettings {
                    nmr_limit: 0,
                    ..settings()
                },
                DomainError::Setting(SettingError::BadNmrLimit),
            ),
            (
                GameSettings {
                    nmr_limit: 11,
                    ..settings()
                },
                DomainError::Setting(SettingError::BadNmrLimit),
            ),
            (
                GameSettings {
                    grace_seconds: -1,
                    ..settings()
                },
                DomainError::Setting(SettingError::BadGrace),
            ),
            (
                GameSettings {
                    grace_seconds: MAX_GRACE_SECONDS + 1,
                    ..settings()
                },
                DomainError::Setting(SettingError::BadGrace),
            ),
            (
                GameSettings {
                    reminder_hours: MAX_REMINDER_HOURS + 1,
                    ..settings()
                },
                DomainError::Setting(SettingError::BadReminder),
            ),
        ];
        for (s, e) in bad {
            assert_eq!(s.check(), Err(e));
        }
        let edges = GameSettings {
            seconds: [1, MAX_PHASE_SECONDS, 1],
            nmr_limit: 10,
            grace_seconds: MAX_GRACE_SECONDS,
            reminder_hours: 0,
            ..settings()
        };
        assert_eq!(edges.check(), Ok(()));
    }
}
