//! Support orders: of every unit the supporter can reach holding, and of every move another
//! unit could make (by land, along coasts, through a canal, by rail or by convoy without the
//! supporter's own fleet) into a province the supporter can reach.

use crate::ids::{LocationId, ProvinceId, UnitType};
use crate::legal::board::Board;
use crate::order::model::{Order, UnitRef};
use crate::position::Unit;

/// Every support the unit may give.
pub(crate) fn supports(board: &Board<'_>, me: UnitRef, out: &mut Vec<Order>) {
    let map = board.map;
    let here = map.province_of(me.location);
    let reachable: Vec<ProvinceId> = map
        .provinces()
        .iter()
        .map(|p| p.id)
        .filter(|&p| p != here && map.can_reach_province(me.kind, me.location, p))
        .collect();
    for other in board.position.units.iter() {
        let there = map.province_of(other.location);
        if there == here || board.unit_in(there) != Some(*other) {
            continue;
        }
        let led = board.leads(there, other.power, other.kind);
        for led in [false, true].into_iter().filter(|&l| !l || led) {
            let supported = UnitRef {
                kind: other.kind,
                location: other.location,
                led,
            };
            if reachable.contains(&there) {
                out.push(Order::SupportHold { unit: me, supported });
            }
            for &to in &reachable {
                if !board.shut(to) && move_possible(board, other, to, here) {
                    move_supports(board, me, supported, to, out);
                }
            }
        }
    }
}

/// The supports of one possible move: to the province, and for a fleet to each coast of a
/// split-coast province it could reach.
fn move_supports(board: &Board<'_>, me: UnitRef, supported: UnitRef, to: ProvinceId, out: &mut Vec<Order>) {
    let province = board.map.province(to);
    let support = |to: LocationId| Order::SupportMove {
        unit: me,
        supported,
        to,
    };
    out.push(support(province.main));
    if supported.kind == UnitType::Fleet {
        for &coast in &province.coasts {
            if board.map.is_adjacent(UnitType::Fleet, supported.location, coast) {
                out.push(support(coast));
            }
        }
    }
}

/// Whether the unit could ever move into the province (coasts aside), a convoy through the
/// supporter's own province not counted.
fn move_possible(board: &Board<'_>, unit: &Unit, to: ProvinceId, supporter: ProvinceId) -> bool {
    let map = board.map;
    let from = map.province_of(unit.location);
    if from == to {
        return false;
    }
    let target = map.province(to).main;
    match unit.kind {
        UnitType::Army => {
            map.location(target).army
                && (map.can_reach_province(UnitType::Army, unit.location, to)
                    || map.railroad_between(from, to).is_some()
                    || (map.is_coastal(to) && board.chain_avoiding(from, to, supporter)))
        }
        UnitType::Fleet => {
            map.can_reach_province(UnitType::Fleet, unit.location, to)
                || map.canal_between(unit.location, target).is_some()
        }
    }
}
