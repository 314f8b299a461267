//! The game's rules of play, as pure functions of the domain's values: who is awaited, when a
//! phase is due (deadline, grace period, early adjudication), missed turns and civil disorder,
//! who may send press and who reads it, and when a draw or a concession ends the game.

use spielleiter_engine::report::Lang;

use super::{DomainError, Game, Member, PressPolicy, Role, Speaker};

/// The most characters a message of press may have.
pub const MAX_PRESS: usize = 20_000;

/// The powers played by a player who is not in civil disorder.
pub fn active_powers(members: &[Member]) -> Vec<String> {
    members
        .iter()
        .filter(|m| !m.civil_disorder)
        .filter_map(|m| m.played_power().map(str::to_string))
        .collect()
}

/// Who has sent orders for the phase at hand, and who marked them final ("ready"), among the
/// played powers that are not in civil disorder and have something to order: the grace period
/// waits for those awaited, early adjudication for every one to be ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readiness {
    /// The powers still awaited (no orders sent).
    pub awaited: Vec<String>,
    /// The powers whose orders are final.
    pub ready: Vec<String>,
    /// The powers that sent orders, not (yet) final.
    pub sent: Vec<String>,
    /// How many powers are expected to order at all.
    pub expected: usize,
}

/// What a power did about the phase at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderMark {
    /// Nothing sent.
    None,
    /// Orders sent, not final.
    Sent,
    /// Orders final: marked ready in the phase.
    Ready,
}

impl Readiness {
    /// The readiness of a phase: `to_order` have something to order, `members` play the game,
    /// `mark` tells what a power did about the phase.
    pub fn of(to_order: &[String], members: &[Member], mark: impl Fn(&str) -> OrderMark) -> Readiness {
        let active = active_powers(members);
        let expected: Vec<&String> = to_order.iter().filter(|p| active.contains(p)).collect();
        let with = |m: OrderMark| -> Vec<String> {
            expected
                .iter()
                .filter(|p| mark(p) == m)
                .map(|p| p.to_string())
                .collect()
        };
        Readiness {
            awaited: with(OrderMark::None),
            ready: with(OrderMark::Ready),
            sent: with(OrderMark::Sent),
            expected: expected.len(),
        }
    }

    /// Whether every expected power's orders are final (and at least one was expected: a game
    /// whose players are all in civil disorder waits for its deadline).
    pub fn complete(&self) -> bool {
        self.expected > 0 && self.ready.len() == self.expected
    }
}

/// What the scheduler does with a running game now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Nothing yet.
    Wait,
    /// The deadline passed with played powers late: the grace period begins (once per phase).
    StartGrace,
    /// Adjudicate the phase: the deadline (or grace period) passed, or every awaited power has
    /// ordered in a game that adjudicates early.
    Adjudicate {
        /// Due because everybody ordered, not because of the deadline.
        early: bool,
    },
}

/// Whether a game is due at `now_ms`. A paused game never is.
pub fn due(game: &Game, ready: &Readiness, now_ms: i64) -> Due {
    if game.paused_remaining_ms.is_some() {
        return Due::Wait;
    }
    let passed = game.deadline_ms.is_some_and(|d| d <= now_ms);
    if passed && !ready.awaited.is_empty() && game.grace_seconds > 0 && !game.in_grace {
        Due::StartGrace
    } else if passed {
        Due::Adjudicate { early: false }
    } else if game.early && ready.complete() {
        Due::Adjudicate { early: true }
    } else {
        Due::Wait
    }
}

/// The powers that missed a phase: they had something to order, have a player, and sent nothing
/// (powers without a player hold, retreat and adjust by the rules and miss nothing).
pub fn missed_powers(to_order: &[String], members: &[Member], has_ordered: impl Fn(&str) -> bool) -> Vec<String> {
    to_order
        .iter()
        .filter(|p| members.iter().any(|m| m.played_power() == Some(p.as_str())))
        .filter(|p| !has_ordered(p))
        .cloned()
        .collect()
}

/// A player's record of turns: missed turns in a row, and civil disorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turns {
    /// Missed turns in a row.
    pub missed: i64,
    /// In civil disorder.
    pub civil_disorder: bool,
}

impl Turns {
    /// The record after a phase the power had to order in: a missed turn counts, and at `limit`
    /// missed turns in a row the power is in civil disorder; orders sent clear both.
    pub fn after_phase(self, missed_it: bool, limit: i64) -> Turns {
        if missed_it {
            let missed = self.missed + 1;
            Turns {
                missed,
                civil_disorder: self.civil_disorder || missed >= limit,
            }
        } else {
            Turns {
                missed: 0,
                civil_disorder: false,
            }
        }
    }
}

/// Who a message of press is shown as coming from, if the sender may send it at all: a power's
/// player (hidden in grey press), or the master (also in no-press games).
pub fn press_speaker(policy: PressPolicy, power: Option<&str>, is_master: bool) -> Result<Speaker, DomainError> {
    match (power, is_master) {
        (None, false) => Err(DomainError::OnlyMembersSendPress),
        _ if policy == PressPolicy::None && !is_master => Err(DomainError::NoPress),
        (None, true) => Ok(Speaker::Master),
        (Some(_), _) if policy == PressPolicy::Grey => Ok(Speaker::Hidden),
        (Some(p), _) => Ok(Speaker::Power(p.to_string())),
    }
}

/// Checks a message's length (1 to [`MAX_PRESS`] characters, blanks not counting).
pub fn check_press_body(body: &str) -> Result<(), DomainError> {
    let trimmed = body.trim();
    if trimmed.is_empty() || trimmed.chars().count() > MAX_PRESS {
        return Err(DomainError::BadPressLength { max: MAX_PRESS });
    }
    Ok(())
}

/// Who receives a message by mail: of the `audience` (every member and the master), for a
/// broadcast (`to` empty) all, otherwise the players of the recipient powers; never the sender.
pub fn press_readers(
    audience: &[(String, Lang)],
    members: &[Member],
    sender: &str,
    to: &[String],
) -> Vec<(String, Lang)> {
    let reads = |account: &str| {
        to.is_empty()
            || members
                .iter()
                .any(|m| m.account == account && m.played_power().is_some_and(|p| to.iter().any(|t| t == p)))
    };
    audience
        .iter()
        .filter(|(account, _)| account != sender && reads(account))
        .cloned()
        .collect()
}

/// Whether `me` may read a game's past phases (reports, orders, maps): its members and master,
/// and everyone once the game has ended.
pub fn may_read_history(g: &super::Game, members: &[Member], me: &str) -> Result<(), DomainError> {
    if g.status == super::GameStatus::Finished || g.master == me || members.iter().any(|m| m.account == me) {
        Ok(())
    } else {
        Err(DomainError::OnlyMembersSeeResults)
    }
}

/// Refuses `action` to anyone but the game's master.
pub fn master_only(g: &super::Game, me: &str, action: super::MasterAction) -> Result<(), DomainError> {
    if g.master == me {
        Ok(())
    } else {
        Err(DomainError::Master(super::MasterError::OnlyMaster(action)))
    }
}

/// Whether `me` may read a game's press: its members and master.
pub fn member_or_master(g: &super::Game, members: &[Member], me: &str) -> Result<(), DomainError> {
    if g.master == me || members.iter().any(|m| m.account == me) {
        Ok(())
    } else {
        Err(DomainError::OnlyMembersSeeResults)
    }
}

/// A stored message of press as its reader sees it: who it shows as from, or none if the reader
/// may not read it. Private press is for its sender and recipients only; a power's press belongs
/// to the power (a replacing player reads what the power sent, the replaced one no longer does);
/// grey press hides the sending power from everyone but the sender.
pub fn press_seen_by(
    from_account: &str,
    from_power: Option<&str>,
    recipients: &[String],
    grey: bool,
    me: &str,
    my_power: Option<&str>,
) -> Option<Speaker> {
    let sent_by_me = match (from_power, my_power) {
        (Some(from), Some(mine)) => from == mine,
        (Some(_), None) => false,
        (None, _) => from_account == me,
    };
    let to_me = recipients.is_empty() || my_power.is_some_and(|p| recipients.iter().any(|r| r == p));
    if !sent_by_me && !to_me {
        return None;
    }
    Some(match from_power {
        None => Speaker::Master,
        Some(_) if grey && !sent_by_me => Speaker::Hidden,
        Some(p) => Speaker::Power(p.to_string()),
    })
}

/// Who votes on the end of a game: the voter's power, the survivors, and the survivors that
/// decide (those with a player who is not in civil disorder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Electorate {
    /// The voter's power.
    pub power: String,
    /// The powers still on the board.
    pub survivors: Vec<String>,
    /// The survivors whose votes count.
    pub deciders: Vec<String>,
}

impl Electorate {
    /// The electorate `voter` votes in, or why the voter may not vote.
    pub fn of(voter: &str, members: &[Member], survivors: Vec<String>) -> Result<Electorate, DomainError> {
        let power = members
            .iter()
            .find(|m| m.account == voter && m.role == Role::Player)
            .and_then(|m| m.power.clone())
            .ok_or(DomainError::OnlyPlayersVote)?;
        if !survivors.contains(&power) {
            return Err(DomainError::OnlySurvivorsVote);
        }
        let active = active_powers(members);
        let deciders = survivors.iter().filter(|s| active.contains(s)).cloned().collect();
        Ok(Electorate {
            power,
            survivors,
            deciders,
        })
    }

    /// Whether every decider votes for a draw (nobody decides for a game whose surviving
    /// players are all in civil disorder).
    pub fn draw_reached(&self, members: &[Member]) -> bool {
        let yes: Vec<&str> = members
            .iter()
            .filter(|m| m.draw_vote)
            .filter_map(Member::played_power)
            .collect();
        !self.deciders.is_empty() && self.deciders.iter().all(|d| yes.contains(&d.as_str()))
    }

    /// The power conceded to, checked: another surviving power (none withdraws a concession).
    /// An eliminated power is named by `name`.
    pub fn concession(
        &self,
        to: Option<String>,
        name: impl FnOnce(&str) -> super::PowerName,
    ) -> Result<Option<String>, DomainError> {
        match to {
            Some(p) if p == self.power => Err(DomainError::ConcedeToSelf),
            Some(p) if !self.survivors.contains(&p) => Err(DomainError::Eliminated(name(&p))),
            to => Ok(to),
        }
    }

    /// Whether every other decider concedes to `winner`.
    pub fn concession_reached(&self, members: &[Member], winner: &str) -> bool {
        let conceding: Vec<&str> = members
            .iter()
            .filter(|m| m.concede_to.as_deref() == Some(winner))
            .filter_map(Member::played_power)
            .collect();
        let others: Vec<&String> = self.deciders.iter().filter(|d| *d != winner).collect();
        !others.is_empty() && others.iter().all(|d| conceding.contains(&d.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_disorder_comes_at_the_limit_and_stays_until_orders_come() {
        let fresh = Turns {
            missed: 0,
            civil_disorder: false,
        };
        let once = fresh.after_phase(true, 3);
        let twice = once.after_phase(true, 3);
        let thrice = twice.after_phase(true, 3);
        assert_eq!((once.missed, once.civil_disorder), (1, false));
        assert!(!twice.civil_disorder && thrice.civil_disorder);
        assert!(thrice.after_phase(true, 3).civil_disorder);
        assert_eq!(thrice.after_phase(false, 3), fresh);
    }

    #[test]
    fn who_may_send_press_and_how_the_sender_is_shown() {
        use PressPolicy::*;
        assert_eq!(
            press_speaker(Full, Some("ITALY"), false),
            Ok(Speaker::Power("ITALY".into()))
        );
        assert_eq!(press_speaker(Grey, Some("ITALY"), false), Ok(Speaker::Hidden));
        assert_eq!(press_speaker(None, Some("ITALY"), false), Err(DomainError::NoPress));
        assert_eq!(
            press_speaker(Full, Option::None, false),
            Err(DomainError::OnlyMembersSendPress)
        );
        for policy in [Full, Grey, None] {
            assert_eq!(press_speaker(policy, Option::None, true), Ok(Speaker::Master));
        }
        // A master who also plays speaks as the power.
        assert_eq!(
            press_speaker(None, Some("ITALY"), true),
            Ok(Speaker::Power("ITALY".into()))
        );
    }

    #[test]
    fn a_message_has_one_to_the_most_characters_counted_as_characters() {
        assert!(check_press_body(" a ").is_ok());
        assert!(check_press_body(&"ü".repeat(MAX_PRESS)).is_ok());
        assert!(check_press_body(&"a".repeat(MAX_PRESS + 1)).is_err());
        assert!(check_press_body(" \n ").is_err());
    }
}
