//! The brute-force candidates: every order shape over every unit (and leader) of a country and
//! every location of the map, as text.

use spielleiter_engine::{Phase, PhaseKind, Position, PowerId, Variant};

/// The printed name of every location.
fn places(variant: &Variant) -> Vec<String> {
    let map = &variant.map;
    (0..map.locations().len())
        .map(|i| {
            map.location_abbreviation(spielleiter_engine::LocationId(i as u16))
                .to_ascii_uppercase()
        })
        .collect()
}

/// How units are written: plain, and (where the variant has leaders) led.
fn unit_names(variant: &Variant, units: impl Iterator<Item = (char, String)>) -> Vec<String> {
    let led = !variant.leaders.is_empty();
    let mut out = Vec::new();
    for (letter, place) in units {
        out.push(format!("{letter} {place}"));
        if led {
            out.push(format!("L{letter} {place}"));
        }
    }
    out
}

/// The candidate lines of one country in the position's phase (without a country prefix).
pub fn candidates(variant: &Variant, position: &Position, country: PowerId) -> Vec<String> {
    let map = &variant.map;
    let name = |l| map.location_abbreviation(l).to_ascii_uppercase();
    let own = position.units.iter().filter(|u| u.power == country);
    let own: Vec<String> = unit_names(variant, own.map(|u| (u.kind.letter(), name(u.location))));
    let leaders: Vec<String> = position
        .rules
        .leaders()
        .iter()
        .chain(position.rules.displaced_leaders().iter().map(|d| &d.place))
        .filter(|l| l.power == country)
        .map(|l| format!("L {}", name(l.location)))
        .collect();
    match position.phase {
        Phase {
            kind: PhaseKind::Movement,
            ..
        } => movement(variant, position, &own, &leaders),
        Phase {
            kind: PhaseKind::Retreat,
            ..
        } => {
            let dislodged = position.dislodged.iter().filter(|d| d.unit.power == country);
            let dislodged = dislodged.map(|d| format!("{} {}", d.unit.kind.letter(), name(d.unit.location)));
            retreat(variant, &dislodged.collect::<Vec<_>>(), &leaders)
        }
        Phase {
            kind: PhaseKind::Adjustment,
            ..
        } => adjustment(variant, &own),
    }
}

/// Movement: holds, moves with and without `VIA`, rail rides, supports, convoys; leaders'
/// holds and moves.
fn movement(variant: &Variant, position: &Position, own: &[String], leaders: &[String]) -> Vec<String> {
    let map = &variant.map;
    let places = places(variant);
    let name = |l| map.location_abbreviation(l).to_ascii_uppercase();
    let all = unit_names(
        variant,
        position.units.iter().map(|u| (u.kind.letter(), name(u.location))),
    );
    let mut cargo = unit_names(
        variant,
        position
            .units
            .iter()
            .filter(|u| u.kind == spielleiter_engine::UnitType::Army)
            .map(|u| ('A', name(u.location))),
    );
    let leader_places = position
        .rules
        .leaders()
        .iter()
        .map(|l| format!("L {}", name(l.location)));
    cargo.extend(leader_places);
    let railroads = map_railroads(variant);
    let mut out = Vec::new();
    for u in own.iter().chain(leaders) {
        out.push(format!("{u} H"));
        for p in &places {
            out.push(format!("{u} - {p}"));
            out.push(format!("{u} - {p} VIA"));
            for r in &railroads {
                out.push(format!("{u} - {r} - {p}"));
            }
        }
    }
    for u in own {
        for s in &all {
            out.push(format!("{u} S {s}"));
            out.extend(places.iter().map(|p| format!("{u} S {s} - {p}")));
        }
        for a in &cargo {
            out.extend(places.iter().map(|p| format!("{u} C {a} - {p}")));
        }
    }
    out
}

/// The railroads' printed names.
fn map_railroads(variant: &Variant) -> Vec<String> {
    let map = &variant.map;
    let mut names: Vec<String> = Vec::new();
    for p in map.provinces() {
        for q in map.provinces() {
            if let Some(r) = map.railroad_between(p.id, q.id) {
                let n = r.abbreviation.to_ascii_uppercase();
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
    }
    names
}

/// Retreat: retreats to every location and disbands; leaders' retreats.
fn retreat(variant: &Variant, dislodged: &[String], leaders: &[String]) -> Vec<String> {
    let places = places(variant);
    let mut out = Vec::new();
    for u in dislodged.iter().chain(leaders) {
        out.push(format!("{u} D"));
        out.extend(places.iter().map(|p| format!("{u} R {p}")));
    }
    out
}

/// Adjustment: builds of each type everywhere, a waive, disbands of each unit, choices.
fn adjustment(variant: &Variant, own: &[String]) -> Vec<String> {
    let places = places(variant);
    let mut out = vec!["WAIVE".to_string()];
    for p in &places {
        out.push(format!("A {p} B"));
        out.push(format!("F {p} B"));
        out.push(format!("CHOOSE A {p}"));
        out.push(format!("CHOOSE F {p}"));
        out.push(format!("CHOOSE L {p}"));
        out.push(format!("CHOOSE {p}"));
    }
    out.extend(own.iter().map(|u| format!("{u} D")));
    out
}
