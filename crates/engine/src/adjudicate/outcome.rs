//! What happened to each unit in a movement phase, and why.

use crate::ids::ProvinceId;

/// The result of one unit's order in a movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Held (by order, by default, or after an illegal order).
    Held,
    /// Moved to its destination.
    Moved,
    /// Did not move: a stronger or equal unit held the destination, beat it head to head, or
    /// moved there as well.
    Bounced {
        /// The province of the unit that stopped it (the destination itself when its occupant held).
        against: ProvinceId,
    },
    /// An army needing a convoy found no unbroken chain of convoying fleets.
    NoConvoy,
    /// The support was given (and counted where it could be).
    Supported,
    /// The support was cut by an attack from this province (or by dislodgement).
    Cut {
        /// Where the cutting attack came from.
        by: ProvinceId,
    },
    /// The supported unit did not do what the support names.
    SupportVoid,
    /// The convoy order carried its army (the army arrived by a route through this fleet).
    Convoyed,
    /// The convoy was ordered correctly but the army did not arrive through this fleet.
    ConvoyFailed,
    /// The army named did not move to the destination named by convoy.
    ConvoyVoid,
    /// The convoy was ruled out by the convoy paradox rule (Szykman).
    ConvoyParadox,
    /// A railroad ride stopped short of its destination (or never left, `at` its origin).
    RailStopped {
        /// Where the army stopped.
        at: ProvinceId,
    },
    /// A fleet's way through a canal was closed: no leave from the unit holding it, or that unit
    /// moved or was dislodged.
    CanalClosed,
}

/// The result of one unit in a movement phase: its outcome, and whether it was dislodged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitResult {
    /// What its order did.
    pub outcome: Outcome,
    /// The province of the unit that dislodged it, if it was dislodged.
    pub dislodged_by: Option<ProvinceId>,
}

impl UnitResult {
    /// Whether the order did what it says (a hold that was not dislodged counts as done).
    pub fn succeeded(&self) -> bool {
        match self.outcome {
            Outcome::Held => self.dislodged_by.is_none(),
            Outcome::Moved | Outcome::Supported | Outcome::Convoyed => true,
            _ => false,
        }
    }

    /// The outcome codes of the Python `diplomacy` package (`bounce`, `cut`, `dislodged`, `void`,
    /// `no convoy`, `disrupted`).
    pub fn codes(&self) -> impl Iterator<Item = &'static str> {
        let first = match self.outcome {
            Outcome::Bounced { .. } | Outcome::RailStopped { .. } => Some("bounce"),
            Outcome::NoConvoy => Some("no convoy"),
            Outcome::Cut { .. } => Some("cut"),
            Outcome::SupportVoid | Outcome::ConvoyVoid | Outcome::CanalClosed => Some("void"),
            Outcome::ConvoyParadox | Outcome::ConvoyFailed => Some("disrupted"),
            _ => None,
        };
        first
            .into_iter()
            .chain(self.dislodged_by.is_some().then_some("dislodged"))
    }
}
