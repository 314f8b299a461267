//! Legal orders of a game's position in the shapes of the `diplomacy` package's
//! `get_all_possible_orders` and `get_orderable_locations` (engine `legal`).

use std::collections::BTreeMap;

use spielleiter_engine::PowerId;
use spielleiter_engine::legal::{orderable_locations, power_orders};

use crate::core::GameCore;

/// Every legal order per location (upper case), as lines the power that gives them sends; a
/// unit on a coast is listed under the coast (`STP/SC`) and under its province (`STP`), as the
/// `diplomacy` package lists them; a neutral country's units are listed under their controller with the
/// country's name before each line (`Bavaria: A BAV H`). A finished game has none.
pub fn possible_orders(core: &GameCore) -> BTreeMap<String, Vec<String>> {
    let mut all: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if core.end.is_some() {
        return all;
    }
    for power in core.variant.map.powers().iter().map(|p| p.id) {
        for (location, lines) in orders_of(core, power) {
            if let Some((province, _coast)) = location.split_once('/') {
                add_lines(&mut all, province.to_string(), &lines);
            }
            add_lines(&mut all, location, &lines);
        }
    }
    all
}

/// Adds the lines not listed yet under `key`.
fn add_lines(all: &mut BTreeMap<String, Vec<String>>, key: String, lines: &[String]) {
    let listed = all.entry(key).or_default();
    if listed.is_empty() {
        listed.extend_from_slice(lines);
        return;
    }
    for line in lines {
        if !listed.contains(line) {
            listed.push(line.clone());
        }
    }
}

/// The provinces where `power` has something to order (its units, dislodged units, build sites,
/// and in Hegemony the units of the neutral countries it controls), by province as the
/// `diplomacy` package names them (`STP`, not `STP/SC`).
pub fn orderable(core: &GameCore, power: PowerId) -> Vec<String> {
    if core.end.is_some() {
        return Vec::new();
    }
    let map = &core.variant.map;
    let mut provinces: Vec<String> = Vec::new();
    for l in orderable_locations(&core.variant, &core.position, power) {
        let name = map.province(map.province_of(l)).abbreviation.to_ascii_uppercase();
        if !provinces.contains(&name) {
            provinces.push(name);
        }
    }
    provinces
}

/// `power`'s orders per location, as lines it sends.
fn orders_of(core: &GameCore, power: PowerId) -> Vec<(String, Vec<String>)> {
    let map = &core.variant.map;
    power_orders(&core.variant, &core.position, power)
        .into_iter()
        .map(|at| {
            let lines = at.orders.iter().map(|o| at.line(map, power, o)).collect();
            (map.location_abbreviation(at.location).to_ascii_uppercase(), lines)
        })
        .collect()
}
