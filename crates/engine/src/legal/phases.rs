//! The orders of one country in each kind of phase, by location.

use std::collections::BTreeMap;

use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::legal::board::Board;
use crate::order::model::{Order, UnitRef};
use crate::position::Unit;
use crate::rule_state::LeaderPlace;
use crate::scenario::Piece;

/// Orders gathered by location.
pub(crate) type ByLocation = BTreeMap<LocationId, Vec<Order>>;

/// A movement phase: the country's units (led and not) and its leaders alone.
pub(crate) fn movement(board: &Board<'_>, country: PowerId, out: &mut ByLocation) {
    for unit in movement_units(board, country) {
        crate::legal::movement::unit_orders(board, unit, out.entry(unit.location).or_default());
    }
    for leader in movement_leaders(board, country) {
        crate::legal::leaders::movement(board, leader, out.entry(leader.location).or_default());
    }
}

/// Where the country has something to order in a movement phase (each unit and leader may hold,
/// so each has orders): as [`movement`] finds them, without listing the orders.
pub(crate) fn movement_locations(board: &Board<'_>, country: PowerId) -> impl Iterator<Item = LocationId> {
    let units = movement_units(board, country).map(|u| u.location);
    units.chain(movement_leaders(board, country).map(|l| l.location))
}

/// The country's units that take orders in a movement phase: each the unit of its province.
fn movement_units<'b>(board: &'b Board<'_>, country: PowerId) -> impl Iterator<Item = &'b Unit> {
    let map = board.map;
    let units = board.position.units.iter();
    units.filter(move |u| u.power == country && board.unit_in(map.province_of(u.location)) == Some(**u))
}

/// The country's leaders that take orders in a movement phase: each its country's leader there.
fn movement_leaders<'b>(board: &'b Board<'_>, country: PowerId) -> impl Iterator<Item = &'b LeaderPlace> {
    let (map, rules) = (board.map, &board.position.rules);
    let own = move |l: &LeaderPlace| rules.leader_in(map, map.province_of(l.location), Some(country)) == Some(*l);
    rules.leaders().iter().filter(move |l| l.power == country && own(l))
}

/// A retreat phase: each dislodged unit's retreats and disband, each leader's retreats.
pub(crate) fn retreat(board: &Board<'_>, country: PowerId, out: &mut ByLocation) {
    let map = board.map;
    let position = board.position;
    for d in position.dislodged.iter().filter(|d| d.unit.power == country) {
        let here = map.province_of(d.unit.location);
        if position.dislodged_in(map, here).map(|x| x.unit) != Some(d.unit) {
            continue;
        }
        let unit = UnitRef::new(d.unit.kind, d.unit.location);
        let orders = out.entry(d.unit.location).or_default();
        orders.push(Order::Disband { unit });
        for &to in &d.retreats {
            if map.is_adjacent(unit.kind, unit.location, to) && !board.shut(map.province_of(to)) {
                orders.push(Order::Retreat { unit, to });
            }
        }
    }
    let rules = &position.rules;
    for d in rules.displaced_leaders().iter().filter(|d| d.place.power == country) {
        let here = map.province_of(d.place.location);
        if rules.displaced_in(map, here, Some(country)) == Some(d) {
            let orders = out.entry(d.place.location).or_default();
            crate::legal::leaders::retreats(board, &d.place, Some(&d.retreats), orders);
        }
    }
    for l in rules.leaders().iter().filter(|l| l.power == country) {
        let here = map.province_of(l.location);
        let first = rules.leader_in(map, here, Some(country)) == Some(*l);
        if first && rules.displaced_in(map, here, Some(country)).is_none() {
            crate::legal::leaders::retreats(board, l, None, out.entry(l.location).or_default());
        }
    }
}

/// An adjustment phase: builds and waives when the country has builds, disbands when it must
/// disband, and its choices where a scenario's choice is open.
pub(crate) fn adjustment(board: &Board<'_>, country: PowerId, count: i32, out: &mut ByLocation) {
    if count > 0 {
        for (location, kind) in build_sites(board, country) {
            let orders = out.entry(location).or_default();
            orders.push(Order::Build {
                unit: UnitRef::new(kind, location),
            });
            if !orders.contains(&Order::Waive) {
                orders.push(Order::Waive);
            }
        }
    }
    if count < 0 {
        for unit in board.position.units.iter().filter(|u| u.power == country) {
            if board.unit_in(board.map.province_of(unit.location)) == Some(*unit) {
                let order = Order::Disband {
                    unit: UnitRef::new(unit.kind, unit.location),
                };
                out.entry(unit.location).or_default().push(order);
            }
        }
    }
    for (location, piece) in choices(board, country) {
        out.entry(location).or_default().push(Order::Choose(piece));
    }
}

/// Where the country may build what: its owned, empty home centres (each coast of a split
/// coast for a fleet), and the provinces where it may build a fleet though they are no home
/// centre of its own (Hegemony 3.2).
fn build_sites(board: &Board<'_>, country: PowerId) -> Vec<(LocationId, UnitType)> {
    let map = board.map;
    let position = board.position;
    if !position.rules.controlled(map, country) {
        return Vec::new();
    }
    let owned = |p: ProvinceId| position.owners.get(p.index()).copied().flatten() == Some(country);
    let mut sites = Vec::new();
    for p in map.provinces() {
        let extra = p.fleet_build_for.contains(&country);
        let home = !extra && p.home_of == Some(country);
        let may = (extra && (!p.centre || owned(p.id))) || (home && owned(p.id));
        if !may || board.unit_in(p.id).is_some() {
            continue;
        }
        if home && map.location(p.main).army {
            sites.push((p.main, UnitType::Army));
        }
        let fleet_places = if p.has_split_coast() {
            &p.coasts[..]
        } else {
            std::slice::from_ref(&p.main)
        };
        for &l in fleet_places.iter().filter(|&&l| map.location(l).fleet) {
            sites.push((l, UnitType::Fleet));
        }
    }
    sites
}

/// The pieces of the country's open choices that an order can name alone (a piece named the
/// same way in two sets is no order), each at its place.
fn choices(board: &Board<'_>, country: PowerId) -> Vec<(LocationId, Piece)> {
    let map = board.map;
    let mut pieces: Vec<Piece> = Vec::new();
    for c in board
        .position
        .rules
        .open_choices()
        .iter()
        .filter(|c| c.power == country)
    {
        pieces.extend(c.options.iter().flatten().copied());
    }
    let place = |p: Piece| match p {
        Piece::Unit(_, at) | Piece::Leader(_, at) => at,
        Piece::Overseas(p) => map.province(p).main,
    };
    // What the reader lets each written piece stand for (`CHOOSE A Bre`, `CHOOSE L Net`,
    // `CHOOSE Mid`).
    let named_by = |written: Piece, p: Piece| match (written, p) {
        (Piece::Unit(k, a), Piece::Unit(j, b)) => k == j && map.province_of(a) == map.province_of(b),
        (Piece::Leader(_, a), Piece::Leader(_, b)) => map.province_of(a) == map.province_of(b),
        (Piece::Overseas(a), Piece::Unit(_, b)) => a == map.province_of(b),
        (Piece::Overseas(a), Piece::Overseas(b)) => a == b,
        _ => false,
    };
    pieces
        .iter()
        .filter(|&&w| pieces.iter().filter(|&&p| named_by(w, p)).count() == 1)
        .map(|&p| (place(p), p))
        .collect()
}
