//! Adjudication of a phase, on the master's request, at the deadline, or early when every
//! awaited power has ordered: the phase's record, the game's next state, missed turns and the
//! notifications are stored in one unit of work, so a crash at any moment loses no accepted
//! order and publishes no result twice.

use std::collections::BTreeMap;

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::interchange::{AdjudicationInput, AdjudicationOutput, GameEnd, GameState, RejectedOrder};
use spielleiter_engine::position::Position;
use spielleiter_engine::report::{Lang, private_report, render};
use spielleiter_engine::{PhaseKind, Variant};

use super::outcome::Outcome;
use super::ports::{Clock, GameUnit};
use super::position::{current_position, to_order};
use super::turns::record_turns;
use crate::domain::{DomainError, Game, GameStatus, Notification, Pending, PhaseResult};
use crate::variants::of_game;

/// What asks for an adjudication, with the phase it found due.
#[derive(Debug, Clone, Copy)]
pub enum Trigger<'a> {
    /// The game master, now.
    Master(&'a str),
    /// The scheduler: the deadline (and any grace period) has passed.
    Deadline(&'a str),
    /// Every awaited power has marked its orders final (ready), in a game that adjudicates early.
    Early(&'a str),
    /// A phase of the game year that follows the one just adjudicated, in a game played with a
    /// year's orders at once.
    Chained(&'a str),
}

impl<'a> Trigger<'a> {
    /// The phase the trigger found due.
    pub fn phase(&self) -> &'a str {
        match *self {
            Trigger::Master(p) | Trigger::Deadline(p) | Trigger::Early(p) | Trigger::Chained(p) => p,
        }
    }
}

/// What must still hold when a phase is claimed for adjudication (the game runs and is in that
/// phase, always).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Nothing more: the master adjudicates now.
    Now,
    /// The game is not paused.
    NotPaused,
    /// The game is not paused and its deadline has passed at this moment (no extension since).
    DeadlinePassed(i64),
}

/// An adjudicated phase to store: the state before it, the published result, the reports, the
/// input (what the adjudication read), the senders' notices and what its pictures show.
#[derive(Debug, Clone)]
pub struct PhaseRecord {
    /// The game.
    pub game: String,
    /// The phase adjudicated.
    pub phase: String,
    /// The state before it.
    pub before: GameState,
    /// The published result (no orders for later phases, no secrets, no notices).
    pub published: AdjudicationOutput,
    /// The report in English.
    pub report_en: String,
    /// The report in German.
    pub report_de: String,
    /// When it was adjudicated.
    pub adjudicated_ms: i64,
    /// What the adjudication read.
    pub input: AdjudicationInput,
    /// What only each power's player is told.
    pub notices: BTreeMap<String, Vec<RejectedOrder>>,
    /// What its pictures show.
    pub outcome: Outcome,
}

/// Where the game goes after a phase.
#[derive(Debug, Clone)]
pub struct Advance {
    /// The state after the phase (with its secrets: it is the game's own).
    pub state: GameState,
    /// The phase to order for next (`COMPLETED` at the end).
    pub phase: String,
    /// The next deadline (none when finished or paused).
    pub deadline_ms: Option<i64>,
    /// Active, or finished.
    pub status: GameStatus,
    /// How the game ended, if it did.
    pub result: Option<GameEnd>,
    /// Orders waiting for later phases.
    pub pending: Pending,
    /// While paused: the whole next phase's time.
    pub paused_remaining_ms: Option<i64>,
}

/// What an adjudication did: the phase, its published result, the English report, the powers
/// that missed it and those now in civil disorder.
#[derive(Debug, serde::Serialize)]
pub struct Adjudicated {
    /// The phase adjudicated.
    pub phase: String,
    /// Its published result.
    pub result: AdjudicationOutput,
    /// The report in English.
    pub report: String,
    /// The powers that missed it.
    pub missing: Vec<String>,
    /// The powers in civil disorder after it.
    pub civil_disorder: Vec<String>,
    /// The phases of the same game year adjudicated right after it, in a game played with a
    /// year's orders at once (each published like this one).
    pub then: Vec<String>,
}

/// Adjudicates the game's current phase in `unit` (the caller commits). Powers with something to
/// order that sent nothing have missed a turn; after the game's limit of missed turns in a row
/// they are in civil disorder (their player may still come back by sending orders).
///
/// Only the phase the trigger names is adjudicated: a caller that found a phase due must not
/// adjudicate the next one when another request or process was first. A deadline adjudication
/// also checks, under the lock, that the deadline still stands (no extension, no pause since).
///
/// In a game played with a year's orders at once (seed 003) the deadline is the year's: the
/// phases of the game year that follow are adjudicated right after it, one after another, each
/// on the orders sent for it, until the next year begins (or the game ends); missed turns are
/// counted once per year, at its first phase.
pub async fn adjudicate(
    unit: &mut impl GameUnit,
    clock: &impl Clock,
    id: &str,
    trigger: Trigger<'_>,
) -> Result<Adjudicated, DomainError> {
    let mut done = adjudicate_one(unit, clock, id, trigger).await?;
    while let Some(next) = phase_of_the_same_year(&unit.game(id).await?)? {
        let more = adjudicate_one(unit, clock, id, Trigger::Chained(&next)).await?;
        done.then.push(more.phase);
    }
    Ok(done)
}

/// The game's current phase, if the game runs with a year's orders at once and the phase does not
/// begin a new game year.
fn phase_of_the_same_year(g: &Game) -> Result<Option<String>, DomainError> {
    if !g.options.year_at_once || g.status != GameStatus::Active {
        return Ok(None);
    }
    let v = of_game(g)?;
    Ok(g.phase.as_deref().filter(|p| chained(g, &v, p)).map(str::to_string))
}

/// Whether `phase` (a phase name, `COMPLETED` at the end) follows at once in a game played with
/// a year's orders at once: a phase of the game year that does not begin it.
fn chained(g: &Game, v: &Variant, phase: &str) -> bool {
    let Ok(phase) = phase.parse::<spielleiter_engine::Phase>() else {
        return false;
    };
    let begins_year = phase.kind == PhaseKind::Movement && v.calendar.seasons.first() == Some(&phase.season);
    g.options.year_at_once && !begins_year
}

/// Adjudicates the one phase the trigger names (see [`adjudicate`]); a chained phase counts no
/// missed turns.
async fn adjudicate_one(
    unit: &mut impl GameUnit,
    clock: &impl Clock,
    id: &str,
    trigger: Trigger<'_>,
) -> Result<Adjudicated, DomainError> {
    let g = unit.game(id).await?;
    if g.status != GameStatus::Active {
        return Err(DomainError::NotRunning);
    }
    let v = of_game(&g)?;
    let (state, position) = current_position(&v, &g)?;
    let phase = position.phase.to_string();
    if trigger.phase() != phase {
        return Err(DomainError::AdjudicatedAlready(trigger.phase().to_string()));
    }
    let now = clock.now_ms();
    let claim = match trigger {
        Trigger::Master(_) | Trigger::Chained(_) => Claim::Now,
        Trigger::Early(_) => Claim::NotPaused,
        Trigger::Deadline(_) => Claim::DeadlinePassed(now),
    };
    if !unit.claim_phase(id, &phase, claim).await? {
        return Err(DomainError::NotDue(phase));
    }
    let input = AdjudicationInput {
        variant: Some(g.variant.clone()),
        state,
        orders: unit.stored_orders(id, &phase).await?,
        pending_retreats: g.pending.pending_retreats.clone(),
        pending_orders: g.pending.pending_orders.clone(),
        ..AdjudicationInput::default()
    };
    let (output, report) = adjudicate_with(&v, &input).map_err(|e| {
        eprintln!("adjudicating game {id} {phase}: {e}");
        DomainError::AdjudicationFailed
    })?;
    let record = record_of(&v, &g, &phase, input, &output, &report, now);
    if !unit.store_phase(&record).await? {
        return Err(DomainError::AdjudicatedAlready(phase));
    }
    let ordered = |p: &str| record.input.orders.contains_key(p) || g.pending.covers(p, &phase);
    let (missing, disorder) = match trigger {
        Trigger::Chained(_) => (Vec::new(), Vec::new()),
        _ => record_turns(unit, &g, &to_order(&v, &position), ordered).await?,
    };
    // Draw votes and concessions are for the position they were given in.
    unit.clear_votes(id).await?;
    let next = advance(&g, &output, report.next.phase.kind, now);
    unit.advance(id, &next).await?;
    let news = Notification::Result(Box::new(PhaseResult {
        game: g.name.clone(),
        phase: phase.clone(),
        next_phase: next.phase.clone(),
        report_en: record.report_en.clone(),
        report_de: record.report_de.clone(),
        missing: crate::variants::power_names(&v, &missing),
        disorder: crate::variants::power_names(&v, &disorder),
        // A phase adjudicated at once (a year's orders at once) has no deadline to tell.
        deadline: next
            .deadline_ms
            .filter(|_| !chained(&g, &v, &next.phase))
            .map(|d| g.deadline_rule().describe(d)),
    }));
    // Each result carries the maps of the phase: its orders with their outcomes, and the
    // position after them.
    for reader in unit.audience(&g).await? {
        unit.notify_with_maps(id, &reader, &news, &phase).await?;
    }
    tell_players(unit, &g, &v, &position, &report).await?;
    Ok(Adjudicated {
        phase,
        result: record.published,
        report: record.report_en,
        missing,
        civil_disorder: disorder,
        then: Vec::new(),
    })
}

/// The record of an adjudicated phase: the published result leaves out the orders that wait
/// for later phases (secret until their phase is adjudicated; kept with the game), Hegemony's
/// political factors, influence and control (research D-22), and what is told only to its
/// sender (orders refused, retreats in advance not used, orders for a phase not played).
fn record_of(
    v: &Variant,
    g: &Game,
    phase: &str,
    input: AdjudicationInput,
    output: &AdjudicationOutput,
    report: &PhaseReport,
    now: i64,
) -> PhaseRecord {
    let mut published = output.clone();
    published.pending_orders.clear();
    published.pending_retreats.clear();
    published.next = published.next.without_secrets();
    let mut notices = std::mem::take(&mut published.notices);
    // Orders refused were never carried out: their senders alone learn of them (orders sent
    // for this phase in advance that no longer fit would otherwise show plans never made).
    for (power, refused) in std::mem::take(&mut published.rejected_orders) {
        notices.entry(power).or_default().extend(refused);
    }
    PhaseRecord {
        game: g.id.clone(),
        phase: phase.to_string(),
        before: input.state.clone(),
        outcome: Outcome::of(v, report, &published.next),
        published,
        report_en: render(v, report, Lang::En),
        report_de: render(v, report, Lang::De),
        adjudicated_ms: now,
        input,
        notices,
    }
}

/// Where the game goes after the phase: its next phase (`COMPLETED` at the end), deadline (none
/// when finished or paused, then the whole next phase's time kept), status, result and the
/// orders waiting for later phases.
fn advance(g: &Game, output: &AdjudicationOutput, next_kind: PhaseKind, now: i64) -> Advance {
    let finished = output.winner.is_some() || output.next.phase == "COMPLETED";
    let seconds = g.phase_seconds(next_kind);
    let paused = g.paused_remaining_ms.is_some() && !finished;
    Advance {
        state: output.next.clone(),
        phase: if finished {
            "COMPLETED".to_string()
        } else {
            output.next.phase.clone()
        },
        deadline_ms: (!finished && !paused).then(|| g.deadline_rule().next(now, seconds)),
        status: if finished {
            GameStatus::Finished
        } else {
            GameStatus::Active
        },
        result: output.result.clone(),
        pending: Pending {
            pending_retreats: output.pending_retreats.clone(),
            pending_orders: output.pending_orders.clone(),
        },
        paused_remaining_ms: paused.then_some(seconds * 1000),
    }
}

/// Tells each played power what the adjudication tells only it: its lines not carried out (its
/// retreats in advance not used, its orders for phases not played) with the reasons, and in
/// Hegemony its allocations, provocations, income and politics. Nobody else learns of them.
async fn tell_players(
    unit: &mut impl GameUnit,
    g: &Game,
    v: &Variant,
    before: &Position,
    report: &PhaseReport,
) -> Result<(), DomainError> {
    for m in unit.members(&g.id).await? {
        let Some(key) = m.played_power() else { continue };
        let Some(power) = v.map.power_by_name(key) else {
            continue;
        };
        let lines_en = private_report(v, before, report, power, Lang::En);
        if lines_en.is_empty() {
            continue;
        }
        let news = Notification::ForYouAlone {
            game: g.name.clone(),
            phase: report.phase.to_string(),
            power: crate::variants::power_name(v, key),
            lines_en,
            lines_de: private_report(v, before, report, power, Lang::De),
        };
        unit.notify(&g.id, &(m.account.clone(), m.lang), &news).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock, POWERS, standard_game};
    use crate::app::ports::{GameStore, Unit};
    use crate::domain::PressPolicy;

    const DEADLINE: i64 = 1_000_000;

    fn store() -> FakeStore {
        FakeStore::with(standard_game(PressPolicy::Full, DEADLINE))
    }

    fn orders(store: &FakeStore, phase: &str, power: &str, lines: &[&str]) {
        let key = ("g1".to_string(), phase.to_string());
        let lines = lines.iter().map(|l| l.to_string()).collect();
        store
            .data
            .borrow_mut()
            .orders
            .entry(key)
            .or_default()
            .insert(power.into(), lines);
    }

    /// Runs an adjudication in a unit of work, committed if it succeeds.
    async fn run(store: &FakeStore, now: i64, trigger: Trigger<'_>) -> Result<Adjudicated, DomainError> {
        let mut unit = store.begin().await.expect("a unit");
        let done = adjudicate(&mut unit, &FixedClock(now), "g1", trigger).await?;
        unit.commit().await.expect("a commit");
        Ok(done)
    }

    fn game(store: &FakeStore) -> Game {
        store.data.borrow().games["g1"].clone()
    }

    #[tokio::test]
    async fn a_deadline_adjudication_stores_the_phase_moves_on_and_tells_everyone_with_maps() {
        let store = store();
        for p in POWERS.iter().filter(|p| **p != "AUSTRIA") {
            orders(&store, "S1901M", p, &[]);
        }
        orders(&store, "S1901M", "FRANCE", &["A Par - Bur", "F Bre - Mid"]);
        store.edit_member("italy", |m| m.draw_vote = true);
        let done = run(&store, DEADLINE, Trigger::Deadline("S1901M"))
            .await
            .expect("adjudicated");
        assert_eq!(
            (done.phase.as_str(), done.missing.as_slice()),
            ("S1901M", ["AUSTRIA".to_string()].as_slice())
        );
        assert!(done.civil_disorder.is_empty());
        assert!(done.result.next.units["FRANCE"].contains(&"A BUR".to_string()));
        let g = game(&store);
        assert_eq!(g.phase.as_deref(), Some("F1901M"));
        assert_eq!(g.deadline_ms, Some(g.deadline_rule().next(DEADLINE, 86_400)));
        assert_eq!(store.member("austria").missed, 1);
        assert!(!store.member("italy").draw_vote);
        let data = store.data.borrow();
        assert_eq!(data.phases.len(), 1);
        assert_eq!(data.phases[0].outcome.orders.len(), 2);
        // The result goes to the seven players, the observer and the master, each with the maps.
        assert_eq!(data.outbox.len(), 9);
        assert_eq!(data.with_maps.len(), 9);
        assert!(data.outbox.iter().all(
            |(_, _, _, n)| matches!(n, Notification::Result(r) if r.missing.len() == 1 && r.missing[0].en == "Austria")
        ));
    }

    #[tokio::test]
    async fn only_the_phase_found_due_is_adjudicated_and_a_refusal_stores_nothing() {
        let store = store();
        let refused = run(&store, DEADLINE, Trigger::Deadline("F1901M")).await.unwrap_err();
        assert_eq!(refused, DomainError::AdjudicatedAlready("F1901M".into()));
        let early = run(&store, DEADLINE - 1, Trigger::Deadline("S1901M"))
            .await
            .unwrap_err();
        assert_eq!(early, DomainError::NotDue("S1901M".into()));
        store.edit_game(|g| g.paused_remaining_ms = Some(60_000));
        let paused = run(&store, DEADLINE * 2, Trigger::Early("S1901M")).await.unwrap_err();
        assert_eq!(paused, DomainError::NotDue("S1901M".into()));
        assert!(store.data.borrow().phases.is_empty() && store.sent().is_empty());
        // The master adjudicates a paused game before its deadline; the next phase waits paused.
        run(&store, 0, Trigger::Master("S1901M")).await.expect("adjudicated");
        let g = game(&store);
        assert_eq!((g.deadline_ms, g.paused_remaining_ms), (None, Some(86_400_000)));
        let again = run(&store, 0, Trigger::Master("S1901M")).await.unwrap_err();
        assert_eq!(again, DomainError::AdjudicatedAlready("S1901M".into()));
    }

    #[tokio::test]
    async fn a_player_missing_twice_is_in_civil_disorder_and_the_result_says_so() {
        let store = store();
        run(&store, DEADLINE, Trigger::Deadline("S1901M"))
            .await
            .expect("spring");
        let deadline = game(&store).deadline_ms.expect("a deadline");
        orders(&store, "F1901M", "ENGLAND", &["F Lon - Nth"]);
        let autumn = run(&store, deadline, Trigger::Deadline("F1901M"))
            .await
            .expect("autumn");
        let mut others: Vec<String> = POWERS
            .iter()
            .map(|p| p.to_string())
            .filter(|p| p != "ENGLAND")
            .collect();
        others.sort();
        assert_eq!(autumn.civil_disorder, others);
        assert!(!store.member("england").civil_disorder);
        let data = store.data.borrow();
        let last = &data.outbox.last().expect("a result").3;
        assert!(matches!(last, Notification::Result(r) if r.disorder.len() == 6 && r.phase == "F1901M"));
    }

    #[tokio::test]
    async fn an_unused_retreat_ordered_in_advance_is_told_to_its_sender_alone() {
        let store = store();
        // Germany dislodges the French army in Burgundy; France gave a retreat for A Par, which
        // stays where it is.
        store.edit_game(|g| {
            let state = r#"{"phase": "S1901M", "units": {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A RUH", "A MUN"]},
                "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}}"#;
            g.state_json = Some(state.to_string());
        });
        orders(
            &store,
            "S1901M",
            "FRANCE",
            &["A Bur H", "A Par H", "S1901R:", "A Par R Gas"],
        );
        orders(&store, "S1901M", "GERMANY", &["A Ruh - Bur", "A Mun S A Ruh - Bur"]);
        run(&store, DEADLINE, Trigger::Deadline("S1901M"))
            .await
            .expect("adjudicated");
        let private: Vec<_> = store
            .sent()
            .into_iter()
            .filter(|(_, n)| matches!(n, Notification::ForYouAlone { .. }))
            .collect();
        assert_eq!(private.len(), 1, "{private:?}");
        assert_eq!(private[0].0, "france");
        let published = serde_json::to_string(&store.data.borrow().phases[0].published).expect("JSON");
        assert!(!published.contains("PAR R"), "{published}");
    }

    #[tokio::test]
    async fn a_year_at_once_is_adjudicated_in_one_go_counting_a_missed_year_once() {
        let store = store();
        store.edit_game(|g| g.options.year_at_once = true);
        // France sends the whole year; a fall line that no longer fits is refused then, and told
        // to France alone.
        orders(
            &store,
            "S1901M",
            "FRANCE",
            &["A Par - Bur", "F1901M:", "A Par - Pic", "A Bur - Mun"],
        );
        let done = run(&store, DEADLINE, Trigger::Deadline("S1901M"))
            .await
            .expect("adjudicated");
        assert_eq!(done.then, ["F1901M"], "{done:?}");
        let g = game(&store);
        assert_eq!(g.phase.as_deref(), Some("S1902M"), "no centre changed: no winter");
        // Austria sent nothing all year: one missed turn, not two.
        assert_eq!(store.member("austria").missed, 1);
        assert_eq!(store.member("france").missed, 0);
        let data = store.data.borrow();
        let fall = &data.phases[1];
        assert_eq!(fall.phase, "F1901M");
        let published = serde_json::to_string(&fall.published).expect("JSON");
        assert!(
            !published.contains("Par - Pic"),
            "a refused plan is not published: {published}"
        );
        assert!(
            fall.notices["FRANCE"].iter().any(|n| n.order == "A Par - Pic"),
            "{:?}",
            fall.notices
        );
        // The spring's result names no deadline: the fall was adjudicated at once.
        let spring_news = data.outbox.iter().find_map(|(_, _, _, n)| match n {
            Notification::Result(r) if r.phase == "S1901M" => Some(r.deadline.clone()),
            _ => None,
        });
        assert_eq!(spring_news, Some(None));
        let told = data.outbox.iter().any(|(_, who, _, n)| {
            who == "france" && matches!(n, Notification::ForYouAlone { lines_en, .. } if lines_en.iter().any(|l| l.contains("A Par - Pic")))
        });
        assert!(told, "France is told of its refused fall order");
    }
}
