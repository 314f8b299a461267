//! Legal orders (`spielleiter_engine::legal`) on positions of every built-in variant reached by
//! seeded random play: (1) every listed order, printed and read back as a game reads it, is the
//! same order; (2) every order shape over every unit and location that the reader accepts is
//! listed, and nothing else.

mod candidates;
mod play;

use std::collections::BTreeSet;

use spielleiter_engine::legal::{countries_ordered_by, orderable_locations, power_orders};
use spielleiter_engine::{Order, PhaseKind, Position, PowerId, Variant};

/// The variants checked, each with its seed, how many phases are played, and for how many
/// powers of each position the brute force runs (in turn, so that every power has its turn).
const PLAYS: [(&str, u64, usize, usize); 4] = [
    ("standard", 1, 9, 2),
    ("ancmed", 2, 6, 2),
    ("colonial", 3, 5, 2),
    ("hegemony-1701", 4, 5, 1),
];

/// Runs `check` on every position of every play, with the powers it is to check there.
fn each_position(all_powers: bool, check: impl Fn(&Variant, &Position, &[PowerId])) {
    for (name, seed, phases, per_position) in PLAYS {
        let v = play::variant(name);
        let powers: Vec<PowerId> = v.map.powers().iter().map(|p| p.id).collect();
        for (i, p) in play::positions(&v, seed, phases).iter().enumerate() {
            let some: Vec<PowerId> = (0..per_position)
                .map(|k| powers[(i * per_position + k) % powers.len()])
                .collect();
            check(&v, p, if all_powers { &powers } else { &some });
        }
    }
}

fn round_trip(v: &Variant, position: &Position, powers: &[PowerId]) {
    for &power in powers {
        for lo in power_orders(v, position, power) {
            for order in &lo.orders {
                let line = lo.line(&v.map, power, order);
                let read = play::read(v, position, power, &line);
                assert_eq!(
                    read,
                    Some((Some(lo.country), *order)),
                    "{} {}: `{line}`",
                    v.name,
                    position.phase
                );
            }
        }
    }
}

#[test]
fn every_listed_order_reads_back_as_itself() {
    each_position(true, round_trip);
}

#[test]
fn the_orderable_locations_are_those_with_listed_orders() {
    each_position(true, |v, position, powers| {
        for &power in powers {
            let mut listed: Vec<_> = power_orders(v, position, power).iter().map(|l| l.location).collect();
            listed.sort_unstable();
            listed.dedup();
            let told = orderable_locations(v, position, power);
            assert_eq!(told, listed, "{} {}", v.name, position.phase);
        }
    });
}

/// Whether an accepted adjustment order is one the country may give with its count.
fn fits_count(order: &Order, count: i32) -> bool {
    match order {
        Order::Build { .. } | Order::Waive => count > 0,
        Order::Disband { .. } => count < 0,
        _ => true,
    }
}

/// The orders the reader accepts of every candidate of the countries `power` orders for.
fn accepted(v: &Variant, position: &Position, power: PowerId) -> BTreeSet<(PowerId, String)> {
    let counts = spielleiter_engine::game::expected_counts(v, position);
    let mut out = BTreeSet::new();
    for country in countries_ordered_by(v, position, power) {
        let prefix = if country == power {
            String::new()
        } else {
            format!("{}: ", v.map.power(country).name)
        };
        for line in candidates::candidates(v, position, country) {
            let read = match country == power {
                true => play::read_own(v, position, power, &line).map(|o| (Some(power), o)),
                false => play::read(v, position, power, &format!("{prefix}{line}")),
            };
            let Some((Some(c), order)) = read else {
                continue;
            };
            let count = counts.get(c.index()).copied().unwrap_or(0);
            if position.phase.kind != PhaseKind::Adjustment || fits_count(&order, count) {
                out.insert((c, order.display(&v.map).to_string()));
            }
        }
    }
    out
}

fn complete(v: &Variant, position: &Position, powers: &[PowerId]) {
    for &power in powers {
        let listed: BTreeSet<(PowerId, String)> = power_orders(v, position, power)
            .iter()
            .flat_map(|lo| lo.orders.iter().map(|o| (lo.country, o.display(&v.map).to_string())))
            .collect();
        let accepted = accepted(v, position, power);
        let missing: Vec<_> = accepted.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&accepted).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{} {} {}: not listed {missing:?}; not accepted {extra:?}",
            v.name,
            position.phase,
            v.map.power(power).name
        );
    }
}

#[test]
fn the_listed_orders_are_exactly_those_the_reader_accepts() {
    each_position(false, complete);
}

/// Hegemony 1701 in spring with Bavaria controlled by France alone.
fn bavaria_controlled_by_france() -> (Variant, Position) {
    let v = play::variant("hegemony-1701");
    let state = serde_json::json!({
        "phase": "S1701M",
        "units": {"BAVARIA": ["A BAV"], "FRANCE": ["A PAR", "F BRE"], "AUSTRIA": ["A VIE"]},
        "centers": {"BAVARIA": ["BAV"], "FRANCE": ["PAR", "BRE"], "AUSTRIA": ["VIE"]},
        "influence": {"BAVARIA": {"FRANCE": 3}},
        "control": {"BAVARIA": ["FRANCE"]},
    });
    let state = serde_json::from_value(state).expect("a state");
    let position = spielleiter_engine::interchange::position_from_state(&v, &state).expect("a position");
    (v, position)
}

#[test]
fn a_controller_gets_the_orders_of_his_neutral_and_only_he() {
    let (v, position) = bavaria_controlled_by_france();
    let france = v.map.power_by_name("France").expect("France");
    let bavaria = v
        .map
        .countries()
        .iter()
        .find(|c| c.name == "Bavaria")
        .expect("Bavaria")
        .id;
    let countries: BTreeSet<PowerId> = power_orders(&v, &position, france).iter().map(|l| l.country).collect();
    assert_eq!(countries, BTreeSet::from([france, bavaria]));
    let powers: Vec<PowerId> = v.map.powers().iter().map(|p| p.id).collect();
    for &p in powers.iter().filter(|&&p| p != france) {
        assert!(power_orders(&v, &position, p).iter().all(|l| l.country == p));
    }
    round_trip(&v, &position, &powers);
    complete(&v, &position, &[france]);
}

#[test]
fn the_plays_reach_movement_retreat_and_adjustment_phases() {
    let mut kinds = BTreeSet::new();
    for (name, seed, phases, _) in PLAYS {
        let v = play::variant(name);
        kinds.extend(
            play::positions(&v, seed, phases)
                .iter()
                .map(|p| format!("{:?}", p.phase.kind)),
        );
    }
    assert_eq!(kinds.len(), 3, "{kinds:?}");
}
