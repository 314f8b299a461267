//! Leader retreats (Hegemony 3.1.6), the second half of the leaders rule.
//!
//! - A leader displaced by a unit of another country retreats like an army would — to a
//!   bordering province that is empty, was not left empty by a bounce and is not where the unit
//!   that took his province came from — and besides into a province held by a unit of his own
//!   country (3.1.6.1); never into a sea (3.1.6.2).
//! - Leaders retreat after all units (3.1.6.3): a leader's retreat fails when a unit of another
//!   country retreated into his target, or two units stood off there; a unit that retreats onto
//!   a lone foreign leader displaces him, and he retreats in the same phase, after the units,
//!   if his player ordered a retreat for him (`L Gal R War`, given before it was known).
//! - A leader with no retreat order, nowhere to go, or whose target is barred is removed, as a
//!   dislodged unit without a retreat is disbanded.

use super::RetreatPhase;
use crate::adjudicate::retreat::RetreatOutcome;
use crate::ids::{LocationId, PowerId, ProvinceId};
use crate::map::{Map, Terrain};
use crate::order::Order;
use crate::order::model::{LeaderAct, LeaderOrder};
use crate::position::Position;
use crate::rule_state::{DisplacedLeader, LeaderPlace, Misplaced, misplaced};
use crate::scenario::LeaderId;

/// What became of a displaced leader in a retreat phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderRetreatOutcome {
    /// He retreated there.
    Retreated(LocationId),
    /// He had somewhere to go but no retreat order: he leaves the board.
    NoOrder,
    /// He had nowhere to go: he leaves the board.
    NoRetreat,
    /// A unit of another country retreated into his target, or two units stood off there: he
    /// leaves the board.
    Barred,
}

/// One displaced leader's part in a retreat phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderRetreat {
    /// Which leader.
    pub leader: LeaderId,
    /// His country.
    pub power: PowerId,
    /// Where he was displaced.
    pub from: LocationId,
    /// Whether a retreating unit displaced him (3.1.6.3), not a move.
    pub by_retreat: bool,
    /// His retreat order, if he had one.
    pub order: Option<LeaderOrder>,
    /// Whether that order was given in advance, with the moves.
    pub in_advance: bool,
    /// What became of him.
    pub outcome: LeaderRetreatOutcome,
}

/// Where a displaced leader of `power` in `province` may retreat among the units of `next`:
/// bordering provinces on land (not shut) holding a unit of his country, or empty and not
/// `barred`.
pub(super) fn leader_retreat_options(
    map: &Map,
    next: &Position,
    power: PowerId,
    province: ProvinceId,
    barred: impl Fn(ProvinceId) -> bool,
) -> Vec<LocationId> {
    map.provinces()
        .iter()
        .filter(|p| p.id != province && p.terrain != Terrain::Sea && map.borders(province, p.id))
        .filter(|p| !next.is_shut(map, p.id))
        .filter(
            |p| match next.units.iter().find(|u| map.province_of(u.location) == p.id) {
                Some(u) => u.power == power,
                None => !barred(p.id),
            },
        )
        .map(|p| p.main)
        .collect()
}

/// Retreats the displaced leaders after the units' retreats (see the module's description).
pub(super) fn retreat_leaders(phase: &RetreatPhase<'_>, next: &mut Position) -> Vec<LeaderRetreat> {
    let map = &phase.variant.map;
    let standoffs = standoff_provinces(map, phase);
    let (mut staying, waiting) = displaced_now(phase, next, &standoffs);
    let mut report = Vec::new();
    for (d, by_retreat) in waiting {
        let (order, in_advance) = retreat_order(map, phase, &d.place);
        let open = |to: LocationId| {
            let target = map.province_of(to);
            let foreign = next
                .units
                .iter()
                .any(|u| map.province_of(u.location) == target && u.power != d.place.power);
            d.retreats.contains(&to) && !foreign && !standoffs.contains(&target)
        };
        let outcome = match order.map(|o| o.act) {
            _ if d.retreats.is_empty() => LeaderRetreatOutcome::NoRetreat,
            Some(LeaderAct::Retreat { to }) if open(to) => LeaderRetreatOutcome::Retreated(to),
            Some(LeaderAct::Retreat { .. }) => LeaderRetreatOutcome::Barred,
            _ => LeaderRetreatOutcome::NoOrder,
        };
        if let LeaderRetreatOutcome::Retreated(to) = outcome {
            staying.push(LeaderPlace {
                location: to,
                ..d.place
            });
        }
        report.push(LeaderRetreat {
            leader: d.place.leader,
            power: d.place.power,
            from: d.place.location,
            by_retreat,
            order,
            in_advance,
            outcome,
        });
    }
    next.rules.set_leaders(staying);
    next.rules.set_displaced(Vec::new());
    report
}

/// The leaders still on the board after the units' retreats, and those who must retreat: the
/// ones displaced before, and (marked `true`) those a retreating unit displaced now.
fn displaced_now(
    phase: &RetreatPhase<'_>,
    next: &Position,
    standoffs: &[ProvinceId],
) -> (Vec<LeaderPlace>, Vec<(DisplacedLeader, bool)>) {
    let map = &phase.variant.map;
    let mut staying = Vec::new();
    let mut waiting: Vec<(DisplacedLeader, bool)> = phase
        .position
        .rules
        .displaced_leaders()
        .iter()
        .map(|d| (d.clone(), false))
        .collect();
    for &place in next.rules.leaders() {
        if matches!(misplaced(map, &next.units, &place), Some(Misplaced::WithForeignUnit)) {
            let province = map.province_of(place.location);
            let retreats = leader_retreat_options(map, next, place.power, province, |p| standoffs.contains(&p));
            waiting.push((DisplacedLeader { place, retreats }, true));
        } else {
            staying.push(place);
        }
    }
    (staying, waiting)
}

/// Provinces two or more units tried to retreat into in this phase.
fn standoff_provinces(map: &Map, phase: &RetreatPhase<'_>) -> Vec<ProvinceId> {
    phase
        .orders
        .iter()
        .zip(phase.outcomes)
        .filter(|&(_, o)| *o == RetreatOutcome::Bounced)
        .filter_map(|(order, _)| match order {
            Some(Order::Retreat { to, .. }) => Some(map.province_of(*to)),
            _ => None,
        })
        .collect()
}

/// A displaced leader's retreat order: the last one of the phase's lines for him, else the one
/// given in advance; and whether it was given in advance.
fn retreat_order(map: &Map, phase: &RetreatPhase<'_>, place: &LeaderPlace) -> (Option<LeaderOrder>, bool) {
    let province = map.province_of(place.location);
    let is_his = |o: &Order| match *o {
        Order::Leader(
            l @ LeaderOrder {
                at,
                act: LeaderAct::Retreat { .. },
            },
        ) if map.province_of(at) == province => Some(l),
        _ => None,
    };
    let sent = phase
        .lines
        .iter()
        .rev()
        .filter(|line| line.power.is_none_or(|p| p == place.power))
        .find_map(|line| line.result.as_ref().ok().and_then(is_his));
    if sent.is_some() {
        return (sent, false);
    }
    let advance = phase.position.pending_retreats.iter().find_map(is_his);
    (advance, advance.is_some())
}
