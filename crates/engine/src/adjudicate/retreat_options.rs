//! The board after a movement phase: where units end up, and where dislodged units may retreat.

use crate::adjudicate::movement::MovementResult;
use crate::ids::LocationId;
use crate::map::Map;
use crate::order::Order;
use crate::position::{DislodgedUnit, Unit};

/// Applies a movement result: the units on the board afterwards (in input order, dislodged ones
/// left out) and the dislodged units with their retreat options.
///
/// A dislodged unit may retreat to a place it could move to (no convoy) that is empty after the
/// phase, is not the province its attacker came from (unless that attack came by convoy), and was
/// not left empty by a bounce.
pub fn after_movement(
    map: &Map,
    units: &[Unit],
    orders: &[Order],
    result: &MovementResult,
) -> (Vec<Unit>, Vec<DislodgedUnit>) {
    let mut staying = Vec::with_capacity(units.len());
    let n = units.len().min(result.units.len());
    let units = &units[..n];
    for (i, unit) in units.iter().enumerate() {
        if result.units[i].dislodged_by.is_some() {
            continue;
        }
        let location = match orders.get(i) {
            Some(&Order::Move { to, .. }) if result.moved[i] => to,
            Some(&Order::RailMove { .. }) if result.moved[i] => match result.rail_end {
                Some((r, end)) if r == i => end,
                _ => unit.location,
            },
            _ => unit.location,
        };
        staying.push(Unit { location, ..*unit });
    }
    let mut dislodged = Vec::new();
    if result.units[..n].iter().all(|r| r.dislodged_by.is_none()) {
        return (staying, dislodged);
    }
    let mut occupied = vec![false; map.provinces().len()];
    for u in &staying {
        occupied[map.province_of(u.location).index()] = true;
    }
    for (i, unit) in units.iter().enumerate() {
        let Some(by) = result.units[i].dislodged_by else {
            continue;
        };
        let attacker = units.iter().position(|u| map.province_of(u.location) == by);
        let attacker_convoyed = attacker.is_some_and(|a| result.convoyed[a]);
        let retreats: Vec<LocationId> = map
            .neighbours(unit.kind, unit.location)
            .iter()
            .copied()
            .filter(|&l| {
                let p = map.province_of(l);
                !occupied[p.index()] && !result.contested[p.index()] && (p != by || attacker_convoyed)
            })
            .collect();
        dislodged.push(DislodgedUnit {
            unit: *unit,
            retreats,
            attacker: attacker.map(|a| units[a].power),
        });
    }
    (staying, dislodged)
}
