//! A game as plain Rust values (no Python): the variant, the position, the orders given for the
//! phase at hand, and the phases played. Cloning one is cheap (the variant and the history are
//! shared).

use std::collections::BTreeMap;
use std::sync::Arc;

use spielleiter_engine::adjudication::{AdjudicationError, game_end, pending_orders, phase_report};
use spielleiter_engine::game::PhaseOrders;
use spielleiter_engine::interchange::{GameEnd, RejectedOrder, StateError};
use spielleiter_engine::{Position, PowerId, Variant};

use crate::history::{History, Played, Record};
use crate::variant_cache::VariantProblem;

/// Why a call on a game failed.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The adjudication refused (game over, unknown power, …).
    #[error(transparent)]
    Adjudication(#[from] AdjudicationError),
    /// A power the variant does not have.
    #[error("unknown power `{0}`")]
    UnknownPower(String),
    /// An order line refused in strict mode.
    #[error("{power}: `{}`: {}", .refused.order, .refused.error)]
    Refused {
        /// The power whose orders they were.
        power: String,
        /// The first line refused.
        refused: RejectedOrder,
    },
    /// A structured order that does not say what it orders.
    #[error("{0}")]
    Structured(String),
    /// A state that does not fit the variant.
    #[error("state: {0}")]
    State(#[from] StateError),
    /// A saved game that cannot be read.
    #[error("saved game: {0}")]
    Saved(String),
    /// A variant that cannot be had.
    #[error(transparent)]
    Variant(#[from] VariantProblem),
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct GameCore {
    /// The variant (with the calendar the game is played with).
    pub variant: Arc<Variant>,
    /// The variant file's text, for a variant not built in.
    pub toml: Option<Arc<str>>,
    /// The game's id (saved games carry it).
    pub id: String,
    /// The position to play.
    pub position: Position,
    /// The order lines given for the phase at hand, per power key (upper case).
    pub orders: BTreeMap<String, Vec<String>>,
    /// Lines sent for later phases, per power, as `PHASE: order`.
    pub later: BTreeMap<String, Vec<String>>,
    /// How the game ended, once it has.
    pub end: Option<GameEnd>,
    /// The phases played.
    pub history: History,
}

impl GameCore {
    /// A new game at the variant's start.
    pub fn new(variant: Arc<Variant>, toml: Option<Arc<str>>, id: String) -> GameCore {
        let position = Position::initial(&variant);
        GameCore::at(variant, toml, id, position)
    }

    /// A game from a position, with no phase played.
    pub fn at(variant: Arc<Variant>, toml: Option<Arc<str>>, id: String, position: Position) -> GameCore {
        GameCore {
            variant,
            toml,
            id,
            position,
            orders: BTreeMap::new(),
            later: BTreeMap::new(),
            end: None,
            history: History::default(),
        }
    }

    /// The power with this key (any case).
    pub fn power(&self, key: &str) -> Result<PowerId, GameError> {
        self.variant
            .map
            .country_by_key(key)
            .ok_or_else(|| GameError::UnknownPower(key.to_string()))
    }

    /// The power's key as the interchange writes it.
    pub fn key(&self, power: PowerId) -> String {
        self.variant.map.power(power).key.to_ascii_uppercase()
    }

    /// The keys of the powers that play (not Hegemony's neutral countries).
    pub fn power_keys(&self) -> Vec<String> {
        self.variant.map.powers().iter().map(|p| self.key(p.id)).collect()
    }

    /// The phase to play (`S1901M`), or `COMPLETED`.
    pub fn phase_name(&self) -> String {
        match self.end {
            Some(_) => "COMPLETED".to_string(),
            None => self.position.phase.to_string(),
        }
    }

    /// The lines the engine refuses of these orders of `power` for the phase at hand.
    pub fn refused(&self, power: PowerId, lines: &[String]) -> Vec<RejectedOrder> {
        let mut read = PhaseOrders::default();
        read.read(
            &self.variant,
            &self.position,
            Some(power),
            lines.iter().map(String::as_str),
        );
        let mut out: Vec<RejectedOrder> = read
            .lines
            .iter()
            .filter_map(|l| l.result.as_ref().err().map(|e| RejectedOrder::refused(&l.text, e)))
            .collect();
        out.extend(
            read.sender_only
                .iter()
                .map(|(_, text, e)| RejectedOrder::refused(text, e)),
        );
        out
    }

    /// Gives `power`'s orders for the phase at hand, replacing those it gave before. Strict: a
    /// refused line refuses them all (nothing is kept); otherwise every line is kept and the
    /// refused ones are returned (the adjudication leaves them out).
    pub fn set_orders(
        &mut self,
        power: &str,
        lines: Vec<String>,
        strict: bool,
    ) -> Result<Vec<RejectedOrder>, GameError> {
        self.still_going()?;
        let id = self.power(power)?;
        let refused = self.refused(id, &lines);
        if strict && let Some(first) = refused.first() {
            return Err(GameError::Refused {
                power: self.key(id),
                refused: first.clone(),
            });
        }
        let key = self.key(id);
        if lines.is_empty() {
            self.orders.remove(&key);
        } else {
            self.orders.insert(key, lines);
        }
        Ok(refused)
    }

    /// Ends the game in a draw shared by every power still in it (DIAS) instead of playing on.
    pub fn draw(&mut self) -> Result<(), GameError> {
        self.still_going()?;
        let result = spielleiter_engine::game::draw(&self.variant, &self.position);
        self.end_with(&result);
        Ok(())
    }

    /// Ends the game conceded to `power`, which must still be in it.
    pub fn concede(&mut self, power: &str) -> Result<(), GameError> {
        self.still_going()?;
        let id = self.power(power)?;
        let result = spielleiter_engine::game::concede(&self.variant, &self.position, id)
            .ok_or_else(|| AdjudicationError::NotInGame(self.key(id)))?;
        self.end_with(&result);
        Ok(())
    }

    /// Ends the game as agreed: the orders given for the phase at hand are never carried out.
    fn end_with(&mut self, result: &spielleiter_engine::game::GameResult) {
        self.orders.clear();
        self.later.clear();
        self.end = Some(game_end(&self.variant, result));
    }

    /// `GameOver` once the game has ended.
    fn still_going(&self) -> Result<(), GameError> {
        match self.end {
            Some(_) => Err(AdjudicationError::GameOver(self.phase_name()).into()),
            None => Ok(()),
        }
    }

    /// Adjudicates the phase at hand with the orders given, and moves on to the next phase.
    pub fn process(&mut self) -> Result<(), GameError> {
        self.still_going()?;
        let report = phase_report(&self.variant, &self.position, &self.orders, &self.later)?;
        let before = std::mem::replace(&mut self.position, report.next.clone());
        self.orders.clear();
        self.later = pending_orders(&self.variant, &report);
        self.end = report.end.as_ref().map(|end| game_end(&self.variant, end));
        self.history.push(Record {
            position: before,
            played: Some(Played::new(report)),
            saved: None,
        });
        Ok(())
    }

    /// The orders given for the phase at hand as the engine reads them, in the interchange
    /// notation (refused lines left out), per power.
    pub fn normalized_orders(&self) -> BTreeMap<String, Vec<String>> {
        let map = &self.variant.map;
        let mut out = BTreeMap::new();
        for (key, lines) in &self.orders {
            let Ok(power) = self.power(key) else { continue };
            let mut read = PhaseOrders::default();
            read.read(
                &self.variant,
                &self.position,
                Some(power),
                lines.iter().map(String::as_str),
            );
            let carried = read.carried_out(&self.variant, self.position.phase.kind);
            let shown = read
                .lines
                .iter()
                .zip(carried)
                .filter(|(_, c)| *c)
                .filter_map(|(l, _)| l.result.as_ref().ok().map(|o| o.display(map).to_string()));
            out.insert(key.clone(), shown.collect());
        }
        out
    }
}
