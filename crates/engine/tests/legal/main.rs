//! Legal orders (`spielleiter_engine::legal`) on positions of every built-in variant reached by
//! seeded random play: (1) every listed order, printed and read back as a game reads it, is the
//! same order; (2) every order shape over every unit and location that the reader accepts is
//! listed, and nothing else.

mod candidates;
mod play;

use std::collections::BTreeSet;

use spielleiter_engine::legal::{countries_ordered_by, power_orders};
use spielleiter_engine::{Order, PhaseKind, PowerId, Position, Variant};

/// The variants checked, each with its seed and how many phases are played.
const PLAYS: [(&str, u64, usize); 4] = [
    ("standard", 1, 9),
    ("ancmed", 2, 6),
    ("colonial", 3, 4),
    ("hegemony-1701", 4, 6),
];

fn each_position(check: impl Fn(&Variant, &Position)) {
    for (name, seed, phases) in PLAYS {
        let v = play::variant(name);
        for p in play::positions(&v, seed, phases) {
            check(&v, &p);
        }
    }
}

fn round_trip(v: &Variant, position: &Position) {
    for power in v.map.powers() {
        for lo in power_orders(v, position, power.id) {
            for order in &lo.orders {
                let line = lo.line(&v.map, power.id, order);
                let read = play::read(v, position, power.id, &line);
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
    each_position(round_trip);
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
            let Some((Some(c), order)) = play::read(v, position, power, &format!("{prefix}{line}")) else {
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

fn complete(v: &Variant, position: &Position) {
    for power in v.map.powers() {
        let listed: BTreeSet<(PowerId, String)> = power_orders(v, position, power.id)
            .iter()
            .flat_map(|lo| lo.orders.iter().map(|o| (lo.country, o.display(&v.map).to_string())))
            .collect();
        let accepted = accepted(v, position, power.id);
        let missing: Vec<_> = accepted.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&accepted).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{} {} {}: not listed {missing:?}; not accepted {extra:?}",
            v.name,
            position.phase,
            power.name
        );
    }
}

#[test]
fn the_listed_orders_are_exactly_those_the_reader_accepts() {
    each_position(complete);
}
