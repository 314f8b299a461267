//! Results: each adjudicated phase (its published result, the reports, the reader's own
//! notices), a game's history, and its record, for those who may read them.

use std::collections::BTreeMap;

use spielleiter_engine::interchange::{AdjudicationOutput, GameState, RejectedOrder};
use spielleiter_engine::report::Lang;

use super::ports::GameUnit;
use crate::domain::play::may_read_history;
use crate::domain::{DomainError, Game};
use crate::variants::of_game;

/// An adjudicated phase as stored.
#[derive(Debug, Clone)]
pub struct StoredResult {
    /// The phase.
    pub phase: String,
    /// The state before it (with its secrets: not for readers as it is).
    pub before: GameState,
    /// The published result.
    pub result: AdjudicationOutput,
    /// The report in English.
    pub report_en: String,
    /// The report in German.
    pub report_de: String,
    /// What each power alone is told, by power.
    pub notices: BTreeMap<String, Vec<RejectedOrder>>,
}

/// A phase as one reader sees it: the result, both reports, and the reader's own notices.
#[derive(Debug, serde::Serialize)]
pub struct PhaseView {
    /// The phase.
    pub phase: String,
    /// The published result.
    pub result: AdjudicationOutput,
    /// The report in English.
    pub report_en: String,
    /// The report in German.
    pub report_de: String,
    /// What only the reader's power is told (retreats in advance not used, orders for a phase
    /// not played): never another power's.
    pub notices: Vec<RejectedOrder>,
}

/// The game, if `me` may read its past phases.
async fn readable(unit: &mut impl GameUnit, me: &str, id: &str) -> Result<Game, DomainError> {
    let g = unit.game(id).await?;
    may_read_history(&g, &unit.members(id).await?, me)?;
    Ok(g)
}

/// An adjudicated phase of a game, as `me` sees it.
pub async fn phase(unit: &mut impl GameUnit, me: &str, id: &str, phase: &str) -> Result<PhaseView, DomainError> {
    let g = readable(unit, me, id).await?;
    let phase = phase.to_ascii_uppercase();
    let mut stored = unit.result(id, &phase).await?.ok_or(DomainError::NoSuchPhase)?;
    let mine = unit.members(&g.id).await?.into_iter().find(|m| m.account == me);
    let notices = mine
        .and_then(|m| m.played_power().map(str::to_string))
        .and_then(|p| stored.notices.remove(&p))
        .unwrap_or_default();
    Ok(PhaseView {
        phase,
        result: stored.result,
        report_en: stored.report_en,
        report_de: stored.report_de,
        notices,
    })
}

/// One adjudicated phase in a game's history: the state before it (as every player may see it)
/// and its published result.
#[derive(Debug, serde::Serialize)]
pub struct HistoryPhase {
    /// The phase.
    pub phase: String,
    /// The state before it, without secrets.
    pub before: GameState,
    /// The published result.
    pub result: AdjudicationOutput,
}

/// A game's history: every adjudicated phase.
#[derive(Debug, serde::Serialize)]
pub struct History {
    /// The game's name.
    pub game: String,
    /// Its variant.
    pub variant: String,
    /// Its adjudicated phases, oldest first.
    pub phases: Vec<HistoryPhase>,
}

/// Every adjudicated phase of a game.
pub async fn history(unit: &mut impl GameUnit, me: &str, id: &str) -> Result<History, DomainError> {
    let g = readable(unit, me, id).await?;
    let phases = unit
        .results(id)
        .await?
        .into_iter()
        .map(|r| HistoryPhase {
            phase: r.phase,
            before: r.before.without_secrets(),
            result: r.result,
        })
        .collect();
    Ok(History {
        game: g.name,
        variant: g.variant,
        phases,
    })
}

/// A game's record: the game, its variant's title and the report of every adjudicated phase,
/// oldest first, in a language.
#[derive(Debug)]
pub struct Record {
    /// The game.
    pub game: Game,
    /// The variant's title in the language.
    pub variant_title: String,
    /// Each phase with its report.
    pub reports: Vec<(String, String)>,
}

/// The record of a game in `lang`, for those who may read its history.
pub async fn record(unit: &mut impl GameUnit, me: &str, id: &str, lang: Lang) -> Result<Record, DomainError> {
    let game = readable(unit, me, id).await?;
    let v = of_game(&game)?;
    let reports = unit
        .results(id)
        .await?
        .into_iter()
        .map(|r| (r.phase, if lang == Lang::De { r.report_de } else { r.report_en }))
        .collect();
    Ok(Record {
        variant_title: if lang == Lang::De {
            v.title_de.clone()
        } else {
            v.title.clone()
        },
        game,
        reports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::adjudication::{Trigger, adjudicate};
    use crate::app::fake::{FakeStore, FixedClock, standard_game};
    use crate::app::ports::{GameStore, Unit};
    use crate::domain::{GameStatus, PressPolicy};

    /// A game whose spring 1901 was adjudicated, with an unused retreat of France's.
    async fn played() -> FakeStore {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        store.edit_game(|g| {
            let state = r#"{"phase": "S1901M", "units": {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A RUH", "A MUN"]},
                "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}, "political_factors": {"FRANCE": 3}}"#;
            g.state_json = Some(state.to_string());
        });
        let key = ("g1".to_string(), "S1901M".to_string());
        let orders = [
            (
                "FRANCE".to_string(),
                vec!["A Bur H".into(), "S1901R:".into(), "A Par R Gas".into()],
            ),
            (
                "GERMANY".to_string(),
                vec!["A Ruh - Bur".into(), "A Mun S A Ruh - Bur".into()],
            ),
        ];
        store.data.borrow_mut().orders.insert(key, orders.into_iter().collect());
        let mut unit = store.begin().await.expect("a unit");
        adjudicate(&mut unit, &FixedClock(0), "g1", Trigger::Master("S1901M"))
            .await
            .expect("adjudicated");
        unit.commit().await.expect("a commit");
        store
    }

    #[tokio::test]
    async fn a_phase_shows_each_reader_only_the_own_notices() {
        let store = played().await;
        let mut unit = store.begin().await.expect("a unit");
        let france = phase(&mut unit, "france", "g1", "s1901m").await.expect("a phase");
        assert_eq!(france.phase, "S1901M");
        assert_eq!(france.notices.len(), 1);
        assert!(france.report_en.contains("Bur") && !france.report_de.is_empty());
        let germany = phase(&mut unit, "germany", "g1", "S1901M").await.expect("a phase");
        assert!(germany.notices.is_empty());
        assert!(
            phase(&mut unit, "gm", "g1", "S1901M")
                .await
                .expect("the master")
                .notices
                .is_empty()
        );
        assert_eq!(
            phase(&mut unit, "gm", "g1", "F1901M").await.unwrap_err(),
            DomainError::NoSuchPhase
        );
    }

    #[tokio::test]
    async fn strangers_read_the_history_only_once_the_game_is_over_and_never_its_secrets() {
        let store = played().await;
        let mut unit = store.begin().await.expect("a unit");
        let refused = history(&mut unit, "stranger", "g1").await.unwrap_err();
        assert_eq!(refused, DomainError::OnlyMembersSeeResults);
        let obs = history(&mut unit, "obs", "g1").await.expect("a member reads it");
        assert_eq!(obs.phases.len(), 1);
        assert!(obs.phases[0].before.political_factors.is_empty());
        store.edit_game(|g| g.status = GameStatus::Finished);
        let mut unit = store.begin().await.expect("a unit");
        let record = record(&mut unit, "stranger", "g1", Lang::De).await.expect("a record");
        assert_eq!(record.reports.len(), 1);
        assert_eq!(
            record.variant_title,
            crate::variants::variant("standard").expect("standard").title_de
        );
    }
}
