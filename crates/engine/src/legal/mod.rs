//! Every legal order of a position, per location: what researchers take from the Python
//! `diplomacy` package's `get_orderable_locations()` and `get_all_possible_orders()`.
//!
//! "Legal" means what the order reader accepts for the position (`order::resolve` with the
//! position, the path of [`crate::game::PhaseOrders`]): each order listed here, printed in the
//! interchange notation and read back, is accepted and is the same order; no other order of a
//! unit on the board is accepted (the engine's `legal` test suite checks both on positions of
//! every built-in variant). Supports and convoys name units on the board only (the reader also
//! accepts them for empty provinces, where they do nothing).
//!
//! - **Movement**: hold; moves to every adjacent location (fleets to each coast they reach,
//!   through a canal); an army's moves by convoy where fleets on the board make a route,
//!   written `VIA` and, where it does not border the province, without it (the reader gives
//!   both); railroad rides (Colonial); supports of every unit the supporter can reach, holding
//!   or moving anywhere it could move (a supported fleet's move also to each coast it reaches);
//!   convoys by every fleet some route without a shortcut needs. Hegemony: each order again for
//!   a unit led by its leader (`LA`, `LF`), supports and convoys of led units, convoys of
//!   leaders alone, the leaders' own orders; a garrison at home only holds.
//! - **Retreat**: each retreat option and the disband of each dislodged unit; Hegemony: the
//!   retreats of displaced leaders, and of leaders on the board in case a retreating unit
//!   displaces them.
//! - **Adjustment**: builds (army, fleet on each coast) in the free home centres the power owns
//!   (and Hegemony's fleet builds outside them) and a waive, when it has builds; the disband of
//!   each unit when it must disband; the choices of a scenario's first winter.
//! - **Other countries**: a power's orders include those of the neutral countries a rule lets
//!   it order for (Hegemony's controlled neutrals), each listed under its country.
//!
//! Left out: a canal keeper's permission (`… SC F Red - Med`, a suffix to an order, not an order
//! of its own); Hegemony's winter allocations of political factors (`PF 3 Bavaria`, any number)
//! and declarations of friendship (`Friendly to England`), which belong to no location;
//! conditional orders and retreats ordered in advance.

mod board;
mod leaders;
mod movement;
mod phases;
mod support;

use crate::ids::{LocationId, PowerId};
use crate::map::Map;
use crate::order::Order;
use crate::phase::PhaseKind;
use crate::position::Position;
use crate::variant::Variant;

use board::Board;
use phases::ByLocation;

/// The orders one country may be given at one location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationOrders {
    /// The country the orders are for (the unit's owner, the building power).
    pub country: PowerId,
    /// Where the ordered unit or leader stands, or where a unit would be built.
    pub location: LocationId,
    /// The orders, each once.
    pub orders: Vec<Order>,
}

impl LocationOrders {
    /// The line that gives one of these orders when `sender` sends it: the interchange
    /// notation, after the country's name when it is not the sender's own (`Bavaria: A MUN H`).
    pub fn line(&self, map: &Map, sender: PowerId, order: &Order) -> String {
        if sender == self.country {
            order.display(map).to_string()
        } else {
            format!("{}: {}", map.power(self.country).name, order.display(map))
        }
    }
}

/// The countries whose orders `power` may give: its own, then those a rule lets it order for.
pub fn countries_ordered_by(variant: &Variant, position: &Position, power: PowerId) -> Vec<PowerId> {
    let others =
        variant.map.countries().iter().map(|c| c.id).filter(|&c| {
            c != power && matches!(crate::rules::may_order_for(variant, position, power, c), Some(Ok(())))
        });
    std::iter::once(power).chain(others).collect()
}

/// Every location where `power` has something to order, its own and those of the countries it
/// may order for (sorted, each once).
pub fn orderable_locations(variant: &Variant, position: &Position, power: PowerId) -> Vec<LocationId> {
    let board = Board::new(variant, position);
    let mut out: Vec<LocationId> = Vec::new();
    for country in countries_ordered_by(variant, position, power) {
        // A movement phase's locations are told without listing the orders (the long part).
        match position.phase.kind {
            PhaseKind::Movement => out.extend(phases::movement_locations(&board, country)),
            _ => {
                let counts = counts(variant, position);
                out.extend(country_orders(&board, &counts, country).into_iter().map(|l| l.location));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Every order `power` may give, by country and location.
pub fn power_orders(variant: &Variant, position: &Position, power: PowerId) -> Vec<LocationOrders> {
    let board = Board::new(variant, position);
    let counts = counts(variant, position);
    countries_ordered_by(variant, position, power)
        .into_iter()
        .flat_map(|c| country_orders(&board, &counts, c))
        .collect()
}

/// The orders `power` may give at one location (its own and its neutrals').
pub fn orders_at(variant: &Variant, position: &Position, power: PowerId, location: LocationId) -> Vec<Order> {
    power_orders(variant, position, power)
        .into_iter()
        .filter(|l| l.location == location)
        .flat_map(|l| l.orders)
        .collect()
}

/// Every order of every country some player may order for: the players' powers and the
/// neutrals a player controls, each country's orders under its name.
pub fn all_orders(variant: &Variant, position: &Position) -> Vec<LocationOrders> {
    let board = Board::new(variant, position);
    let counts = counts(variant, position);
    let map = &variant.map;
    let ordered = |c: PowerId| {
        map.is_player(c)
            || map
                .powers()
                .iter()
                .any(|p| matches!(crate::rules::may_order_for(variant, position, p.id, c), Some(Ok(()))))
    };
    map.countries()
        .iter()
        .map(|c| c.id)
        .filter(|&c| ordered(c))
        .flat_map(|c| country_orders(&board, &counts, c))
        .collect()
}

/// Each country's builds (positive) or disbands (negative) in an adjustment phase.
fn counts(variant: &Variant, position: &Position) -> Vec<i32> {
    match position.phase.kind {
        PhaseKind::Adjustment => crate::game::expected_counts(variant, position),
        _ => Vec::new(),
    }
}

/// One country's orders in the position's phase.
fn country_orders(board: &Board<'_>, counts: &[i32], country: PowerId) -> Vec<LocationOrders> {
    let mut by_location = ByLocation::new();
    match board.position.phase.kind {
        PhaseKind::Movement => phases::movement(board, country, &mut by_location),
        PhaseKind::Retreat => phases::retreat(board, country, &mut by_location),
        PhaseKind::Adjustment => {
            let count = counts.get(country.index()).copied().unwrap_or(0);
            phases::adjustment(board, country, count, &mut by_location);
        }
    }
    by_location
        .into_iter()
        .filter(|(_, orders)| !orders.is_empty())
        .map(|(location, mut orders)| {
            dedup(&mut orders);
            LocationOrders {
                country,
                location,
                orders,
            }
        })
        .collect()
}

/// Removes repeated orders, keeping the first of each.
fn dedup(orders: &mut Vec<Order>) {
    let mut seen = std::collections::HashSet::with_capacity(orders.len());
    orders.retain(|o| seen.insert(*o));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Variant {
        crate::variant::builtin("standard").expect("built in").expect("loads")
    }

    /// A spring position of the standard map with these units (`power key`, `A lon`).
    fn spring(v: &Variant, units: &[(&str, &str)]) -> Position {
        let mut p = Position::initial(v);
        p.units = units
            .iter()
            .map(|&(power, unit)| {
                let (kind, place) = unit.split_once(' ').expect("a unit");
                crate::position::Unit {
                    power: v.map.country_by_key(power).expect("a power"),
                    kind: if kind == "A" {
                        crate::ids::UnitType::Army
                    } else {
                        crate::ids::UnitType::Fleet
                    },
                    location: v.map.location_by_abbreviation(place).expect("a place"),
                }
            })
            .collect();
        p
    }

    fn lines(v: &Variant, p: &Position, power: &str) -> Vec<String> {
        let power = v.map.country_by_key(power).expect("a power");
        power_orders(v, p, power)
            .iter()
            .flat_map(|l| l.orders.iter().map(|o| o.display(&v.map).to_string()))
            .collect()
    }

    #[test]
    fn an_army_goes_by_convoy_only_where_a_fleet_stands() {
        let v = standard();
        let alone = lines(&v, &spring(&v, &[("england", "A lon")]), "england");
        assert!(alone.contains(&"A LON - WAL".to_string()));
        assert!(!alone.iter().any(|l| l.contains("VIA") || l.contains("BEL")));
        let with_fleet = lines(
            &v,
            &spring(&v, &[("england", "A lon"), ("england", "F nth")]),
            "england",
        );
        for expected in [
            "A LON - BEL VIA",
            "A LON - BEL",
            "F NTH C A LON - BEL",
            "F NTH S A LON - YOR",
        ] {
            assert!(with_fleet.contains(&expected.to_string()), "{expected}");
        }
        assert!(!with_fleet.contains(&"F NTH C A LON - MAR".to_string()));
    }

    #[test]
    fn a_fleet_moves_and_is_supported_to_the_coasts_it_reaches() {
        let v = standard();
        let p = spring(&v, &[("france", "F mao"), ("france", "F lyo")]);
        let france = lines(&v, &p, "france");
        for expected in [
            "F MAO - SPA/NC",
            "F MAO - SPA/SC",
            "F LYO S F MAO - SPA/NC",
            "F MAO S F LYO - SPA/SC",
        ] {
            assert!(france.contains(&expected.to_string()), "{expected}");
        }
        assert!(!france.contains(&"F LYO - SPA/NC".to_string()));
        assert!(!france.contains(&"F MAO S F LYO - SPA/NC".to_string()));
    }

    #[test]
    fn the_orderable_locations_are_the_powers_units_in_movement() {
        let v = standard();
        let p = Position::initial(&v);
        for power in v.map.powers() {
            let mut units: Vec<LocationId> = p
                .units
                .iter()
                .filter(|u| u.power == power.id)
                .map(|u| u.location)
                .collect();
            units.sort_unstable();
            assert_eq!(orderable_locations(&v, &p, power.id), units);
        }
    }
}
