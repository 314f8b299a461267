//! The phases played, as a list shared between clones: a clone costs one reference count, and a
//! phase added to one game is never seen by another.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::interchange::AdjudicationOutput;
use spielleiter_engine::{Position, Variant};

/// One phase played: the position it was played from, and what the adjudication did.
#[derive(Debug)]
pub struct Record {
    /// The position at the start of the phase.
    pub position: Position,
    /// The adjudication (phases played here).
    pub played: Option<Played>,
    /// The orders carried out and the results per unit, for phases read from a saved game.
    pub saved: Option<SavedOutcome>,
}

/// A phase adjudicated here: the engine's report, and its interchange output written when it is
/// first asked for (search and self-play seldom ask).
#[derive(Debug)]
pub struct Played {
    report: PhaseReport,
    output: OnceLock<AdjudicationOutput>,
}

impl Played {
    /// A phase just adjudicated.
    pub fn new(report: PhaseReport) -> Played {
        Played {
            report,
            output: OnceLock::new(),
        }
    }

    /// The interchange output of the adjudication.
    pub fn output(&self, variant: &Variant) -> &AdjudicationOutput {
        self.output
            .get_or_init(|| spielleiter_engine::adjudication::output(variant, &self.report))
    }
}

/// The orders and results of a phase as a saved game records them.
#[derive(Clone, Debug, Default)]
pub struct SavedOutcome {
    /// Orders per power.
    pub orders: BTreeMap<String, Vec<String>>,
    /// Result codes per unit.
    pub results: BTreeMap<String, Vec<String>>,
}

impl Record {
    /// The orders carried out, per power.
    pub fn orders<'a>(&'a self, variant: &Variant) -> &'a BTreeMap<String, Vec<String>> {
        match (&self.played, &self.saved) {
            (Some(p), _) => &p.output(variant).accepted_orders,
            (None, Some(s)) => &s.orders,
            (None, None) => empty(),
        }
    }

    /// The result codes per unit (`[]` is success).
    pub fn results<'a>(&'a self, variant: &Variant) -> &'a BTreeMap<String, Vec<String>> {
        match (&self.played, &self.saved) {
            (Some(p), _) => &p.output(variant).results,
            (None, Some(s)) => &s.results,
            (None, None) => empty(),
        }
    }
}

fn empty() -> &'static BTreeMap<String, Vec<String>> {
    static EMPTY: BTreeMap<String, Vec<String>> = BTreeMap::new();
    &EMPTY
}

#[derive(Debug)]
struct Node {
    record: Record,
    previous: Option<Arc<Node>>,
}

/// The phases played, newest first in memory; shared by clones.
#[derive(Clone, Debug, Default)]
pub struct History {
    head: Option<Arc<Node>>,
    len: usize,
}

impl History {
    /// Adds the phase just played.
    pub fn push(&mut self, record: Record) {
        let previous = self.head.take();
        self.head = Some(Arc::new(Node { record, previous }));
        self.len += 1;
    }

    /// The number of phases played.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The phase played last.
    pub fn last(&self) -> Option<&Record> {
        self.head.as_deref().map(|n| &n.record)
    }

    /// The phases, oldest first.
    pub fn records(&self) -> Vec<&Record> {
        let mut out = Vec::with_capacity(self.len);
        let mut node = self.head.as_deref();
        while let Some(n) = node {
            out.push(&n.record);
            node = n.previous.as_deref();
        }
        out.reverse();
        out
    }
}

impl Drop for History {
    /// Unlinks a long list one node at a time (no deep recursion of drops).
    fn drop(&mut self) {
        let mut next = self.head.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut n) => next = n.previous.take(),
                Err(_) => break,
            }
        }
    }
}
