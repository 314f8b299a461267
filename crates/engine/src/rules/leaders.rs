//! The leaders rule (Hegemony 3.1): a leader stands with the units of his country and makes the
//! unit he leads stronger.
//!
//! - A led unit ordered to hold or move (`LA Boh H`, `LA Vie - Boh`) has the strength of a unit
//!   supported once (3.1.5.1): its own strength is 2.
//! - A led unit's support counts twice (3.1.5.2). An attack by a unit neither led nor supported
//!   leaves it worth one support (3.1.5.3); an attack by a led or supported unit cuts it
//!   (3.1.5.4); dislodging the supporter cuts it as always.
//! - Nelson leads fleets only and has no effect on land: a fleet he leads gains nothing when it
//!   holds in, moves into or supports into a province that is not a sea (3.1.7.3). Leaders who
//!   may not lead a unit never do: such an order is refused when read (3.1.7.1–2).
//! - After the moves a leader goes with the unit he led; a leader alone steps to a bordering
//!   province or is convoyed like an army; into a sea only onto a fleet of his country that had
//!   no move order (3.1.2.4). A leader has no strength and stops no one (3.1.4).
//! - A leader left with a foreign unit is displaced and retreats after the units (3.1.6, see
//!   `leader_retreats`); one left alone at sea is lost.

use super::leader_retreats::{LeaderRetreat, leader_retreat_options, retreat_leaders};
use super::{MovementPhase, MovementSetup, RetreatPhase, RuleModule, RuleName};
use crate::adjudicate::movement::{Adjudicator, MovementResult, ResolverRule};
use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::{Map, Terrain};
use crate::order::Order;
use crate::order::model::{Cargo, LeaderAct, LeaderOrder};
use crate::position::{Position, Unit};
use crate::rule_state::{DisplacedLeader, LeaderPlace, Misplaced, misplaced};
use crate::scenario::{LeaderId, Leads};
use crate::variant::Variant;

/// See the module's description.
pub(super) struct Leaders;

impl RuleModule for Leaders {
    fn name(&self) -> RuleName {
        RuleName::Leaders
    }

    /// Led holds and moves have strength 2; led supports weigh 2 in the resolver.
    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        let effective: Vec<bool> = phase
            .units
            .iter()
            .zip(phase.orders)
            .map(|(unit, order)| leads_with_effect(phase.variant, phase.position, unit, order))
            .collect();
        if !effective.contains(&true) {
            return;
        }
        let strengths = phase.orders.iter().zip(&effective).map(|(order, &led)| {
            let holds_or_moves = matches!(order, Order::Hold { .. } | Order::Move { .. });
            if led && holds_or_moves { 2 } else { 1 }
        });
        if setup.strengths.is_empty() {
            setup.strengths = vec![1; phase.units.len()];
        }
        for (s, extra) in setup.strengths.iter_mut().zip(strengths) {
            *s = (*s).max(extra);
        }
        let weighted = phase
            .orders
            .iter()
            .zip(&effective)
            .map(|(order, &led)| led && matches!(order, Order::SupportHold { .. } | Order::SupportMove { .. }))
            .collect();
        setup.resolver_rules.push(Box::new(LedSupports { weighted }));
    }

    fn after_movement(
        &self,
        phase: &MovementPhase<'_>,
        result: &MovementResult,
        next: &mut Position,
    ) -> Vec<LeaderMove> {
        move_leaders(phase, result, next)
    }

    fn after_retreats(&self, phase: &RetreatPhase<'_>, next: &mut Position) -> Vec<LeaderRetreat> {
        retreat_leaders(phase, next)
    }
}

/// Whether a unit's order is led and the leading has an effect: Nelson's not on land (3.1.7.3).
fn leads_with_effect(variant: &Variant, position: &Position, unit: &Unit, order: &Order) -> bool {
    if !order.unit().is_some_and(|u| u.led) {
        return false;
    }
    let map = &variant.map;
    let Some(place) = position
        .rules
        .leader_in(map, map.province_of(unit.location), Some(unit.power))
    else {
        return false;
    };
    let leads = variant
        .leaders
        .get(place.leader.index())
        .map_or(Leads::Any, |l| l.leads);
    if leads != Leads::Fleets {
        return true;
    }
    let into = match *order {
        Order::Move { to, .. } | Order::SupportMove { to, .. } => map.province_of(to),
        Order::SupportHold { supported, .. } => map.province_of(supported.location),
        _ => map.province_of(unit.location),
    };
    map.province(into).terrain == Terrain::Sea
}

/// Led supports in the resolver: weight 2, halved by a plain attack, cut by a strong one.
struct LedSupports {
    /// Per unit: a led support with effect.
    weighted: Vec<bool>,
}

impl LedSupports {
    fn is_weighted(&self, u: usize) -> bool {
        self.weighted.get(u).copied().unwrap_or(false)
    }
}

/// Whether an attacking unit is led or supported (3.1.5.4).
fn strong_attack(r: &mut Adjudicator<'_>, attacker: usize) -> bool {
    r.strength(attacker) > 1 || r.support_count(attacker) > 0
}

impl ResolverRule for LedSupports {
    fn prepare(&mut self, _r: &mut Adjudicator<'_>, _units: &[Unit], _orders: &[Order], _first: usize) -> usize {
        0
    }

    fn cuts_support(&self, r: &mut Adjudicator<'_>, u: usize, attacker: usize) -> Option<bool> {
        self.is_weighted(u).then(|| strong_attack(r, attacker))
    }

    fn support_weight(&self, r: &mut Adjudicator<'_>, u: usize) -> Option<u32> {
        if !self.is_weighted(u) {
            return None;
        }
        Some(if r.cutting_attacker_of(u).is_some() { 1 } else { 2 })
    }
}

/// What became of a leader in a movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderOutcome {
    /// He stayed where he was.
    Stayed,
    /// He moved (with the unit he led, or alone) to this place.
    Moved(LocationId),
    /// His move into a sea failed: the fleet there was ordered to move (3.1.2.4).
    NoFleet,
    /// His convoy failed.
    NoConvoy,
    /// A unit of another country took his province, or he stepped into one it holds: he must
    /// retreat (3.1.2.2, 3.1.6, D-24).
    Displaced,
    /// He was left alone at sea and is lost (3.1.2.4).
    Lost,
}

/// One leader's part in a movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderMove {
    /// Which leader.
    pub leader: LeaderId,
    /// His country.
    pub power: PowerId,
    /// Where he stood.
    pub from: LocationId,
    /// His order: his own, or that of the unit he led (none: he stayed).
    pub order: Option<Order>,
    /// What became of him.
    pub outcome: LeaderOutcome,
}

/// Moves the leaders after a movement phase and says what became of each.
fn move_leaders(phase: &MovementPhase<'_>, result: &MovementResult, next: &mut Position) -> Vec<LeaderMove> {
    let map = &phase.variant.map;
    let mut moves = Vec::new();
    let mut kept = Vec::new();
    let mut displaced = Vec::new();
    for &place in phase.position.rules.leaders() {
        let (order, outcome) = leader_step(phase, result, place);
        let end = match outcome {
            LeaderOutcome::Moved(to) => to,
            _ => place.location,
        };
        let ended = LeaderPlace { location: end, ..place };
        let outcome = fate(map, next, ended).unwrap_or(outcome);
        match outcome {
            LeaderOutcome::Displaced => displaced.push(DisplacedLeader {
                place: ended,
                retreats: retreats_after_moves(phase, result, next, ended),
            }),
            LeaderOutcome::Lost => {}
            _ => kept.push(ended),
        }
        moves.push(LeaderMove {
            leader: place.leader,
            power: place.power,
            from: place.location,
            order,
            outcome,
        });
    }
    next.rules.set_leaders(kept);
    next.rules.set_displaced(displaced);
    moves
}

/// Where a leader displaced in a movement phase may retreat (3.1.6.1): as an army — not into a
/// province left empty by a bounce, nor where the unit that took his province came from unless
/// it came by convoy — and besides to the units of his country.
fn retreats_after_moves(
    phase: &MovementPhase<'_>,
    result: &MovementResult,
    next: &Position,
    place: LeaderPlace,
) -> Vec<LocationId> {
    let map = &phase.variant.map;
    let province = map.province_of(place.location);
    let attacker_from = phase
        .units
        .iter()
        .zip(phase.orders)
        .enumerate()
        .find(|&(i, (_, o))| {
            result.moved[i]
                && !result.convoyed[i]
                && matches!(*o, Order::Move { to, .. } if map.province_of(to) == province)
        })
        .map(|(_, (u, _))| map.province_of(u.location));
    leader_retreat_options(map, next, place.power, province, |p| {
        result.contested[p.index()] || Some(p) == attacker_from
    })
}

/// Whether a leader ending in a place is displaced or lost there.
fn fate(map: &Map, next: &Position, place: LeaderPlace) -> Option<LeaderOutcome> {
    misplaced(map, &next.units, &place).map(|m| match m {
        Misplaced::WithForeignUnit => LeaderOutcome::Displaced,
        Misplaced::AloneAtSea => LeaderOutcome::Lost,
    })
}

/// A leader's order and where it takes him, before looking at who else ends there.
fn leader_step(
    phase: &MovementPhase<'_>,
    result: &MovementResult,
    place: LeaderPlace,
) -> (Option<Order>, LeaderOutcome) {
    let map = &phase.variant.map;
    let province = map.province_of(place.location);
    let led = phase.units.iter().zip(phase.orders).position(|(u, o)| {
        u.power == place.power && map.province_of(u.location) == province && o.unit().is_some_and(|r| r.led)
    });
    if let Some(u) = led {
        let order = phase.orders[u];
        let outcome = match order {
            Order::Move { to, .. } if result.moved[u] => LeaderOutcome::Moved(map.province(map.province_of(to)).main),
            _ => LeaderOutcome::Stayed,
        };
        return (Some(order), outcome);
    }
    let own = phase
        .lines
        .iter()
        .zip(phase.carried)
        .filter(|&(line, &carried)| carried && line.power == Some(place.power))
        .find_map(|(line, _)| match line.result {
            Ok(Order::Leader(o)) if map.province_of(o.at) == province => Some(o),
            _ => None,
        });
    let Some(own) = own else {
        return (None, LeaderOutcome::Stayed);
    };
    (Some(Order::Leader(own)), lone_move(phase, result, own, place.power))
}

/// Where a leader's own order takes him.
fn lone_move(phase: &MovementPhase<'_>, result: &MovementResult, order: LeaderOrder, power: PowerId) -> LeaderOutcome {
    let map = &phase.variant.map;
    let LeaderAct::Move { to, via_convoy } = order.act else {
        return LeaderOutcome::Stayed;
    };
    let (from, target) = (map.province_of(order.at), map.province_of(to));
    if map.province(target).terrain == Terrain::Sea {
        let fleet_stays = phase.units.iter().zip(phase.orders).any(|(u, o)| {
            u.power == power
                && u.kind == UnitType::Fleet
                && map.province_of(u.location) == target
                && !matches!(o, Order::Move { .. } | Order::RailMove { .. })
        });
        return if fleet_stays {
            LeaderOutcome::Moved(to)
        } else {
            LeaderOutcome::NoFleet
        };
    }
    if !via_convoy && map.borders(from, target) {
        return LeaderOutcome::Moved(to);
    }
    let convoying = |p: ProvinceId| {
        phase.units.iter().zip(phase.orders).enumerate().any(|(i, (u, o))| {
            map.province_of(u.location) == p
                && result.units[i].dislodged_by.is_none()
                && matches!(*o, Order::Convoy { army, to: t, cargo: Cargo::Leader, .. }
                    if map.province_of(army) == from && map.province_of(t) == target)
        })
    };
    if map.convoy_chain_exists(from, target, None, &convoying) {
        LeaderOutcome::Moved(to)
    } else {
        LeaderOutcome::NoConvoy
    }
}
