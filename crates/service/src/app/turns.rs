//! The turn of a phase: who is awaited, whether the phase is due (deadline, grace period, early
//! adjudication), and the missed turns and civil disorder it leaves behind.

use super::ports::{Clock, GameStore, GameUnit, Unit};
use super::position::{current_position, to_order};
use crate::domain::play::{Due, OrderMark, Readiness, Turns, due, missed_powers};
use crate::domain::{DomainError, Game, Notification};
use crate::variants::of_game;

/// A game to adjudicate now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueGame {
    /// The game's id.
    pub id: String,
    /// The phase that is due.
    pub phase: String,
    /// Due because every awaited power has ordered, not because of the deadline.
    pub early: bool,
}

/// The readiness of the game's current phase, read in `unit`.
pub async fn readiness(unit: &mut impl GameUnit, g: &Game) -> Result<Readiness, DomainError> {
    let v = of_game(g)?;
    let (_, position) = current_position(&v, g)?;
    let phase = position.phase.to_string();
    let members = unit.members(&g.id).await?;
    let ordered = unit.ordered_powers(&g.id, &phase).await?;
    // Orders sent in an earlier phase for this one count as sent, not as final: only a mark in
    // the phase itself is (else how many are ready would tell who ordered in advance).
    Ok(Readiness::of(&to_order(&v, &position), &members, |p| {
        match ordered.iter().find(|(o, _)| o == p) {
            Some((_, true)) => OrderMark::Ready,
            Some((_, false)) => OrderMark::Sent,
            None if g.pending.covers(p, &phase) => OrderMark::Sent,
            None => OrderMark::None,
        }
    }))
}

/// Whether the game is due now; starts its grace period (telling the late players) when the
/// deadline passed with played powers late and the game has one. A game without a position to
/// adjudicate (not started, over) is never due.
pub async fn check_due(store: &impl GameStore, clock: &impl Clock, id: &str) -> Result<Option<DueGame>, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    let ready = match readiness(&mut unit, &g).await {
        Ok(ready) => ready,
        Err(DomainError::NotStarted | DomainError::GameOver) => return Ok(None),
        Err(e) => return Err(e),
    };
    match due(&g, &ready, clock.now_ms()) {
        Due::Wait => Ok(None),
        Due::StartGrace => {
            start_grace(&mut unit, &g, &ready.awaited).await?;
            unit.commit().await?;
            Ok(None)
        }
        Due::Adjudicate { early } => Ok(Some(DueGame {
            id: g.id.clone(),
            phase: g.phase.clone().unwrap_or_default(),
            early,
        })),
    }
}

/// Moves the deadline by the game's grace period, once per phase, and tells the late players.
async fn start_grace(unit: &mut impl GameUnit, g: &Game, late: &[String]) -> Result<(), DomainError> {
    if !unit.start_grace(g).await? {
        return Ok(());
    }
    let news = Notification::GraceStarted {
        game: g.name.clone(),
        minutes: g.grace_seconds / 60,
    };
    let members = unit.members(&g.id).await?;
    for reader in unit.audience(g).await? {
        let plays_late = members
            .iter()
            .any(|m| m.account == reader.0 && m.played_power().is_some_and(|p| late.iter().any(|l| l == p)));
        if plays_late {
            unit.notify(&g.id, &reader, &news).await?;
        }
    }
    Ok(())
}

/// Reminds the players of powers whose orders are missing, once per phase, when the deadline is
/// near: at the game's `reminder_hours` before it, but at most half a phase before, so that a
/// phase shorter than the reminder time does not start with one. Returns whether it reminded
/// (the phase is marked reminded in the same unit, so several processes never send two).
pub async fn remind(store: &impl GameStore, clock: &impl Clock, id: &str) -> Result<bool, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    let v = of_game(&g)?;
    let Ok((_, position)) = current_position(&v, &g) else {
        return Ok(false);
    };
    let phase = position.phase.to_string();
    let phase_seconds = g.phase_seconds(position.phase.kind);
    let window_ms = (g.reminder_hours * 3_600_000).min(phase_seconds * 1000 / 2);
    if g.reminder_hours <= 0 || g.deadline_ms.is_none_or(|d| d - window_ms > clock.now_ms()) {
        return Ok(false);
    }
    let late = readiness(&mut unit, &g).await?.awaited;
    if !unit.claim_reminder(id, &phase).await? {
        return Ok(false);
    }
    let deadline = g
        .deadline_ms
        .map(|ms| g.deadline_rule().describe(ms))
        .unwrap_or_default();
    for m in unit.members(id).await? {
        let Some(power) = m.played_power().filter(|p| late.iter().any(|l| l == p)) else {
            continue;
        };
        let news = Notification::OrdersMissing {
            game: g.name.clone(),
            phase: phase.clone(),
            power: crate::variants::power_name(&v, power),
            deadline: deadline.clone(),
        };
        unit.notify(id, &(m.account.clone(), m.lang), &news).await?;
    }
    unit.commit().await?;
    Ok(true)
}

/// The missed turns of an adjudicated phase: `to_order` had something to order, `has_ordered`
/// tells who did. Each played power's record is updated; returns the powers that missed the
/// phase and the powers in civil disorder after it.
pub async fn record_turns(
    unit: &mut impl GameUnit,
    g: &Game,
    to_order: &[String],
    has_ordered: impl Fn(&str) -> bool,
) -> Result<(Vec<String>, Vec<String>), DomainError> {
    let members = unit.members(&g.id).await?;
    let missing = missed_powers(to_order, &members, has_ordered);
    let mut disorder = Vec::new();
    for m in &members {
        let Some(power) = m.played_power() else { continue };
        let mut turns = Turns {
            missed: m.missed,
            civil_disorder: m.civil_disorder,
        };
        if to_order.iter().any(|p| p == power) {
            turns = turns.after_phase(missing.iter().any(|p| p == power), g.nmr_limit);
            unit.set_turns(&g.id, power, &m.account, turns).await?;
        }
        if turns.civil_disorder {
            disorder.push(power.to_string());
        }
    }
    disorder.sort();
    Ok((missing, disorder))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock, POWERS, standard_game};
    use crate::domain::PressPolicy;

    const DEADLINE: i64 = 1_000_000;

    fn store() -> FakeStore {
        FakeStore::with(standard_game(PressPolicy::Full, DEADLINE))
    }

    fn ordered(store: &FakeStore, powers: &[&str]) {
        let key = ("g1".to_string(), "S1901M".to_string());
        store
            .data
            .borrow_mut()
            .orders
            .insert(key, powers.iter().map(|p| (p.to_string(), Vec::new())).collect());
    }

    fn marked_ready(store: &FakeStore, powers: &[&str]) {
        let mut data = store.data.borrow_mut();
        for p in powers {
            data.ready.insert(("g1".into(), "S1901M".into(), p.to_string()));
        }
    }

    async fn due_at(store: &FakeStore, now: i64) -> Option<DueGame> {
        check_due(store, &FixedClock(now), "g1").await.expect("a check")
    }

    async fn ready(store: &FakeStore) -> Readiness {
        let mut unit = store.begin().await.expect("a unit");
        let g = unit.game("g1").await.expect("the game");
        readiness(&mut unit, &g).await.expect("readiness")
    }

    #[tokio::test]
    async fn the_awaited_powers_are_the_played_ones_not_in_civil_disorder_without_orders() {
        let store = store();
        assert_eq!(ready(&store).await.awaited, POWERS.map(String::from));
        ordered(&store, &["ENGLAND", "FRANCE"]);
        store.edit_member("turkey", |m| m.civil_disorder = true);
        // Orders waiting for this phase, sent in an earlier one, count as sent.
        store.edit_game(|g| {
            g.pending
                .pending_orders
                .insert("ITALY".into(), vec!["S1901M: A Ven H".into()]);
        });
        marked_ready(&store, &["ENGLAND"]);
        let r = ready(&store).await;
        assert_eq!(r.awaited, ["AUSTRIA", "GERMANY", "RUSSIA"]);
        // Orders sent in an earlier phase for this one are sent, not final.
        assert_eq!(r.ready, ["ENGLAND"]);
        assert_eq!(r.expected, 6);
        assert!(!r.complete());
    }

    #[tokio::test]
    async fn a_game_is_due_at_its_deadline_and_early_only_when_it_says_so() {
        let store = store();
        ordered(&store, &POWERS);
        assert_eq!(due_at(&store, DEADLINE - 1).await, None);
        let due = due_at(&store, DEADLINE).await.expect("due");
        assert_eq!((due.phase.as_str(), due.early), ("S1901M", false));
        store.edit_game(|g| g.early = true);
        assert_eq!(due_at(&store, 0).await, None, "orders sent, none final");
        marked_ready(&store, &POWERS);
        assert!(due_at(&store, 0).await.expect("due early").early);
        ordered(&store, &["ENGLAND"]);
        assert_eq!(due_at(&store, 0).await, None);
        store.edit_game(|g| g.paused_remaining_ms = Some(5_000));
        assert_eq!(due_at(&store, DEADLINE * 2).await, None);
    }

    #[tokio::test]
    async fn a_game_whose_players_are_all_in_civil_disorder_waits_for_its_deadline() {
        let store = store();
        store.edit_game(|g| g.early = true);
        for p in POWERS {
            store.edit_member(&p.to_ascii_lowercase(), |m| m.civil_disorder = true);
        }
        assert_eq!(due_at(&store, 0).await, None);
        assert!(due_at(&store, DEADLINE).await.is_some());
    }

    #[tokio::test]
    async fn the_grace_period_starts_once_and_tells_only_the_late_players() {
        let store = store();
        store.edit_game(|g| g.grace_seconds = 600);
        ordered(&store, &["AUSTRIA", "ENGLAND", "FRANCE", "ITALY", "RUSSIA"]);
        assert_eq!(due_at(&store, DEADLINE).await, None);
        let g = store.data.borrow().games["g1"].clone();
        assert!(g.in_grace);
        assert_eq!(g.deadline_ms, Some(DEADLINE + 600_000));
        let told: Vec<String> = store.sent().into_iter().map(|(a, _)| a).collect();
        assert_eq!(told, ["germany", "turkey"]);
        assert!(matches!(
            &store.sent()[0].1,
            Notification::GraceStarted { minutes: 10, .. }
        ));
        // Within the grace period nothing more happens; at its end the phase is due.
        assert_eq!(due_at(&store, DEADLINE + 1).await, None);
        assert_eq!(store.sent().len(), 2);
        assert!(due_at(&store, DEADLINE + 600_000).await.is_some());
    }

    #[tokio::test]
    async fn no_grace_period_when_everybody_ordered_or_the_game_has_none() {
        let store = store();
        ordered(&store, &["ENGLAND"]);
        assert!(due_at(&store, DEADLINE).await.is_some());
        store.edit_game(|g| g.grace_seconds = 600);
        ordered(&store, &POWERS);
        assert!(due_at(&store, DEADLINE).await.is_some());
        assert!(store.sent().is_empty());
    }

    async fn turn(store: &FakeStore, sent: &[&str]) -> (Vec<String>, Vec<String>) {
        let mut unit = store.begin().await.expect("a unit");
        let g = unit.game("g1").await.expect("the game");
        let to_order = POWERS.map(String::from);
        let result = record_turns(&mut unit, &g, &to_order, |p| sent.contains(&p))
            .await
            .expect("turns");
        unit.commit().await.expect("a commit");
        result
    }

    #[tokio::test]
    async fn late_players_are_reminded_once_a_phase_when_the_deadline_is_near() {
        let store = store();
        store.edit_game(|g| g.reminder_hours = 24);
        ordered(&store, &["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY"]);
        // The phase lasts a day: the reminder comes at most half a day before the deadline.
        let half_day = 43_200_000;
        assert!(
            !remind(&store, &FixedClock(DEADLINE - half_day - 1), "g1")
                .await
                .expect("checked")
        );
        assert!(
            remind(&store, &FixedClock(DEADLINE - half_day), "g1")
                .await
                .expect("reminded")
        );
        let told: Vec<String> = store.sent().into_iter().map(|(a, _)| a).collect();
        assert_eq!(told, ["russia", "turkey"]);
        assert!(matches!(&store.sent()[0].1, Notification::OrdersMissing { phase, .. } if phase == "S1901M"));
        assert!(
            !remind(&store, &FixedClock(DEADLINE - 1), "g1")
                .await
                .expect("once a phase")
        );
        assert_eq!(store.sent().len(), 2);
    }

    #[tokio::test]
    async fn missed_turns_count_up_to_civil_disorder_and_orders_clear_them() {
        let store = store();
        // Italy has no player: it misses nothing.
        store
            .data
            .borrow_mut()
            .members
            .get_mut("g1")
            .expect("members")
            .retain(|m| m.account != "italy");
        let most = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY"];
        let (missing, disorder) = turn(&store, &most).await;
        assert_eq!(missing, ["RUSSIA", "TURKEY"]);
        assert!(disorder.is_empty());
        assert_eq!(store.member("russia").missed, 1);
        let (_, disorder) = turn(&store, &["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA"]).await;
        // The limit is two missed turns in a row: Turkey reached it, Russia ordered again.
        assert_eq!(disorder, ["TURKEY"]);
        assert_eq!(store.member("russia").missed, 0);
        assert_eq!(store.member("turkey").missed, 2);
        let (_, disorder) = turn(&store, &POWERS).await;
        assert!(disorder.is_empty());
        assert!(!store.member("turkey").civil_disorder);
    }
}
