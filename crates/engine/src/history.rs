//! What the last phases did, kept with the position so that conditional orders can name it
//! (docs/NOTATION.md, "Conditional orders"): per phase, the moves and retreats carried out with
//! their success, and the units dislodged. Kept for the movement phases of the last game year
//! and their retreat phases. Everything here was published with its phase's result: nothing a
//! player sent that was replaced or not carried out is recorded.

use crate::ids::{PowerId, ProvinceId, UnitType};
use crate::phase::{Phase, PhaseKind};
use crate::position::Unit;
use crate::variant::Variant;

/// A move (movement phase) or retreat (retreat phase) carried out, and whether it got there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveResult {
    /// The unit's owner.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitType,
    /// Where it stood.
    pub from: ProvinceId,
    /// Where it was ordered to.
    pub to: ProvinceId,
    /// Whether it arrived.
    pub succeeded: bool,
}

/// What one phase did, as its published result shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseFacts {
    /// The phase.
    pub phase: Phase,
    /// The moves (or retreats) carried out.
    pub moves: Vec<MoveResult>,
    /// The units dislodged (movement phases), where they stood.
    pub dislodged: Vec<Unit>,
}

impl PhaseFacts {
    /// The move from `from` to `to` carried out in this phase, if there was one.
    pub fn move_from(&self, from: ProvinceId, to: ProvinceId) -> Option<&MoveResult> {
        self.moves.iter().find(|m| m.from == from && m.to == to)
    }

    /// Whether the unit in `province` was dislodged in this phase.
    pub fn dislodged_in(&self, map: &crate::map::Map, province: ProvinceId) -> bool {
        self.dislodged.iter().any(|u| map.province_of(u.location) == province)
    }
}

/// Adds a phase's facts to those kept, and forgets the phases older than the movement phases of
/// the last game year (one cycle of the calendar's seasons) and their retreats.
pub fn record(variant: &Variant, kept: &mut Vec<PhaseFacts>, facts: PhaseFacts) {
    kept.retain(|f| f.phase != facts.phase);
    kept.push(facts);
    // The oldest movement phase kept; its retreats come after it.
    let cycle = variant.calendar.seasons.len().max(1);
    let oldest = kept
        .iter()
        .rev()
        .filter(|f| f.phase.kind == PhaseKind::Movement)
        .nth(cycle - 1)
        .map(|f| f.phase);
    if let Some(oldest) = oldest {
        kept.retain(|f| f.phase >= oldest);
    }
}

/// The facts of the phase a condition names: `named` if given (it must be kept and earlier than
/// `now`), else the last movement phase before `now`.
pub fn phase_named(kept: &[PhaseFacts], now: Phase, named: Option<Phase>) -> Option<&PhaseFacts> {
    match named {
        Some(p) => kept.iter().find(|f| f.phase == p && p < now),
        None => kept
            .iter()
            .filter(|f| f.phase.kind == PhaseKind::Movement && f.phase < now)
            .max_by_key(|f| f.phase),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase::Season;

    fn facts(text: &str) -> PhaseFacts {
        PhaseFacts {
            phase: text.parse().expect("phase"),
            moves: Vec::new(),
            dislodged: Vec::new(),
        }
    }

    #[test]
    fn a_game_year_of_movement_phases_and_their_retreats_is_kept() {
        let variant = crate::variant::builtin("standard").expect("built in").expect("valid");
        let mut kept = Vec::new();
        for p in ["S1901M", "S1901R", "F1901M", "F1901R", "S1902M"] {
            record(&variant, &mut kept, facts(p));
        }
        let phases: Vec<String> = kept.iter().map(|f| f.phase.to_string()).collect();
        assert_eq!(phases, ["F1901M", "F1901R", "S1902M"]);
        let now = Phase {
            year: 1902,
            season: Season::Fall,
            kind: PhaseKind::Movement,
        };
        assert_eq!(
            phase_named(&kept, now, None).map(|f| f.phase.to_string()),
            Some("S1902M".into())
        );
        let named = "F1901R".parse().ok();
        assert_eq!(
            phase_named(&kept, now, named).map(|f| f.phase.to_string()),
            Some("F1901R".into())
        );
        assert!(phase_named(&kept, now, "S1901M".parse().ok()).is_none(), "forgotten");
        assert!(
            phase_named(&kept, "S1902M".parse().expect("phase"), "S1902M".parse().ok()).is_none(),
            "not earlier"
        );
    }
}
