//! The orders of a unit in a movement phase: hold, moves (by land, along coasts, through a
//! canal, by convoy, along a railroad), supports and convoys; each again for the unit led by its
//! leader, where one stands with it.

use crate::ids::UnitType;
use crate::legal::board::Board;
use crate::order::model::{Order, UnitRef};
use crate::position::Unit;

/// Every order the unit may be given, led and not led.
pub(crate) fn unit_orders(board: &Board<'_>, unit: &Unit, out: &mut Vec<Order>) {
    let here = board.map.province_of(unit.location);
    let led = board.leads(here, unit.power, unit.kind);
    for led in [false, true].into_iter().filter(|&l| !l || led) {
        let me = UnitRef {
            kind: unit.kind,
            location: unit.location,
            led,
        };
        out.push(Order::Hold { unit: me });
        if board.garrison_at_home(unit.location) {
            continue;
        }
        match unit.kind {
            UnitType::Army => {
                army_moves(board, me, out);
                rail_moves(board, unit, me, out);
            }
            UnitType::Fleet => {
                fleet_moves(board, me, out);
                convoys(board, me, out);
            }
        }
        crate::legal::support::supports(board, me, out);
    }
}

/// An army's moves: to each province it borders, and by convoy (`VIA`, and unwritten where it
/// does not border) where fleets on the board could carry it.
fn army_moves(board: &Board<'_>, unit: UnitRef, out: &mut Vec<Order>) {
    let map = board.map;
    let from = map.province_of(unit.location);
    let reach = board.convoy_reach(from, None);
    for p in map.provinces() {
        if p.id == from || !map.location(p.main).army || board.shut(p.id) {
            continue;
        }
        let adjacent = map.is_adjacent(UnitType::Army, unit.location, p.main);
        let convoy = map.convoy_possible(from, p.id) && board.chain_reaches(&reach, p.id);
        let mv = |via_convoy| Order::Move {
            unit,
            to: p.main,
            via_convoy,
        };
        if adjacent || convoy {
            out.push(mv(false));
        }
        if convoy {
            out.push(mv(true));
        }
    }
}

/// A fleet's moves: to each location next to it, and through a canal.
fn fleet_moves(board: &Board<'_>, unit: UnitRef, out: &mut Vec<Order>) {
    let map = board.map;
    let from = map.province_of(unit.location);
    for &to in map.neighbours(UnitType::Fleet, unit.location) {
        let province = map.province_of(to);
        if province != from && !board.shut(province) {
            out.push(Order::Move {
                unit,
                to,
                via_convoy: false,
            });
        }
    }
    for p in map.provinces() {
        let through = p.id != from
            && !board.shut(p.id)
            && map.fleet_targets_in(unit.location, p.id).next().is_none()
            && map.canal_between(unit.location, p.main).is_some();
        if through {
            out.push(Order::Move {
                unit,
                to: p.main,
                via_convoy: false,
            });
        }
    }
}

/// An army of a railroad's power rides to every other province of the line it stands on.
fn rail_moves(board: &Board<'_>, unit: &Unit, me: UnitRef, out: &mut Vec<Order>) {
    let map = board.map;
    let from = map.province_of(unit.location);
    for p in map.provinces() {
        let rides = map.railroad_between(from, p.id).is_some_and(|r| r.power == unit.power);
        if rides {
            out.push(Order::RailMove { unit: me, to: p.main });
        }
    }
}

/// A fleet's convoys: of every army (and Hegemony's led armies and leaders alone) to every
/// province a route through this fleet reaches.
fn convoys(board: &Board<'_>, unit: UnitRef, out: &mut Vec<Order>) {
    let map = board.map;
    let here = map.province_of(unit.location);
    if !map.province(here).convoys {
        return;
    }
    for route in board.routes().iter().filter(|r| r.fleets.contains(&here)) {
        for &(from, cargo) in board.cargoes().iter().filter(|c| c.0 == route.from) {
            out.push(Order::Convoy {
                unit,
                army: map.province(from).main,
                to: map.province(route.to).main,
                cargo,
            });
        }
    }
}
