//! Provocation (Hegemony 1.1.10, research D-10, D-30).
//!
//! A unit provokes a neutral country in a movement phase when the order it carries out is a move
//! into a province where a unit of that country stands or that the country owns, a support of
//! such a move, or a convoy of it — whether or not it succeeds (a hold or a support of a hold
//! never provokes; retreats, builds and orders refused when read do not either). The provoker is
//! the unit's player, or the player who controls its neutral country alone; a unit under joint
//! control provokes for no one (D-30). At the end of the phase the provoker's influence in the
//! country is gone; if he controlled it (alone or jointly), control is determined anew at once
//! from the influence left (1.1.10.3).

use crate::ids::PowerId;
use crate::order::Order;
use crate::position::{Position, Unit};
use crate::variant::Variant;

use super::MovementPhase;

/// One player's provocation of a neutral country in a movement phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provocation {
    /// The player who loses his influence.
    pub player: PowerId,
    /// The neutral country provoked.
    pub country: PowerId,
    /// The first unit whose order provoked it.
    pub unit: Unit,
    /// The influence (PF) the player had there and lost.
    pub influence_lost: u32,
    /// Whether he (co-)controlled the country and lost that control.
    pub control_lost: bool,
}

/// The provocations of the phase that cost their provoker influence or control, carried out in
/// `next`'s politics.
pub(super) fn provoke(phase: &MovementPhase<'_>, next: &mut Position) -> Vec<Provocation> {
    let variant = phase.variant;
    let mut found: Vec<Provocation> = Vec::new();
    for (unit, order) in phase.units.iter().zip(phase.orders) {
        let Some(player) = provoker(variant, phase.position, unit) else {
            continue;
        };
        for country in provoked(variant, phase.position, unit, order) {
            if !found.iter().any(|p| p.player == player && p.country == country) {
                found.push(Provocation {
                    player,
                    country,
                    unit: *unit,
                    influence_lost: 0,
                    control_lost: false,
                });
            }
        }
    }
    if found.is_empty() {
        return found;
    }
    let mut politics = next.rules.politics().clone();
    for p in &mut found {
        p.influence_lost = politics.influence(p.country, p.player);
        p.control_lost = politics.controllers(p.country).contains(&p.player);
        politics.forfeit(p.country, p.player);
    }
    // Who had no influence there and no control loses nothing: nothing happened to tell.
    found.retain(|p| p.influence_lost > 0 || p.control_lost);
    for p in found.iter().filter(|p| p.control_lost) {
        let by = crate::politics::control_of(variant, &politics, p.country);
        politics.set_control_of(p.country, by);
    }
    *next.rules.politics_mut() = politics;
    found
}

/// Who a unit's orders provoke for: its player, or the sole controller of its neutral country.
fn provoker(variant: &Variant, position: &Position, unit: &Unit) -> Option<PowerId> {
    if variant.map.is_player(unit.power) {
        return Some(unit.power);
    }
    match position.rules.politics().controllers(unit.power) {
        [only] => Some(*only),
        _ => None,
    }
}

/// The neutral countries (with a threshold, other than the unit's own) whose unit or centre
/// the order's move, supported move or convoyed move goes into.
fn provoked(variant: &Variant, position: &Position, unit: &Unit, order: &Order) -> Vec<PowerId> {
    let map = &variant.map;
    let to = match *order {
        Order::Move { to, .. } | Order::RailMove { to, .. } | Order::SupportMove { to, .. } => to,
        Order::Convoy { to, .. } => to,
        _ => return Vec::new(),
    };
    let province = map.province_of(to);
    let standing = position.unit_in(map, province).map(|u| u.power);
    let owner = position.owners[province.index()];
    let mut countries: Vec<PowerId> = standing.into_iter().chain(owner).collect();
    countries.dedup();
    countries.retain(|&c| c != unit.power && !map.is_player(c) && crate::politics::threshold(variant, c).is_some());
    countries
}
