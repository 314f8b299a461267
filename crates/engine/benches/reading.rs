//! How long reading one order takes: text to a checked order (tokens, names, grammar, and the
//! checks against the map and a position), over a realistic mix of notations; one at a time
//! (`parse_order`) and as the lines of a phase (`PhaseOrders::read_all`, which takes the
//! commonest lines in one pass).
//!
//! Run: `cargo bench -p spielleiter-engine --bench reading`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielleiter_engine::game::PhaseOrders;
use spielleiter_engine::interchange::{GameState, position_from_state};
use spielleiter_engine::order::OrderContext;
use spielleiter_engine::{PhaseKind, Position, Variant, parse_order};

/// The board the orders are for.
const STATE: &str = r#"{"phase": "S1901M", "units": {
    "AUSTRIA": ["A VIE", "A BUD", "F TRI"],
    "ENGLAND": ["F LON", "F NTH", "A YOR", "F EDI"],
    "FRANCE": ["A PAR", "A MAR", "F BRE", "F MAO"],
    "GERMANY": ["A MUN", "A BER", "F KIE"],
    "ITALY": ["A VEN", "F ION", "A APU"],
    "RUSSIA": ["F STP/SC", "A MOS", "F SEV", "A WAR"],
    "TURKEY": ["A CON", "F BLA", "A SMY"]}}"#;

/// The same orders in the interchange notation, in English names and in German.
const INTERCHANGE: [&str; 14] = [
    "A PAR - BUR",
    "A MAR S A PAR - BUR",
    "F BRE - ENG",
    "F MAO - SPA/NC",
    "A YOR - NWY VIA",
    "F NTH C A YOR - NWY",
    "F STP/SC - BOT",
    "A MUN H",
    "F KIE S A BER",
    "F ION C A APU - TUN",
    "A APU - TUN",
    "F SEV - RUM",
    "A WAR - GAL",
    "F LON S F BRE - ENG",
];
const ENGLISH: [&str; 14] = [
    "Army Paris -> Burgundy",
    "A Marseilles supports A Paris - Burgundy",
    "Fleet Brest - English Channel",
    "F Mid-Atlantic Ocean - Spain (north coast)",
    "A Yorkshire - Norway via convoy",
    "Fleet North Sea convoys Army Yorkshire to Norway",
    "F St. Petersburg (south coast) - Gulf of Bothnia",
    "A Munich holds",
    "Fleet Kiel supports Army Berlin",
    "F Ionian Sea convoys A Apulia - Tunis",
    "Army Apulia - Tunis",
    "F Sevastopol - Rumania",
    "A Warsaw - Galicia",
    "F London supports French F Brest - English Channel",
];
const GERMAN: [&str; 14] = [
    "Armee Paris nach Burgund",
    "A Marseille unterstützt A Paris - Burgund",
    "Flotte Brest - Ärmelkanal",
    "F Mittelatlantik - Spanien (Nordküste)",
    "A Yorkshire - Norwegen mit Konvoi",
    "F Nordsee K A Yorkshire - Norwegen",
    "F St. Petersburg (Südküste) - Bottnischer Meerbusen",
    "A München hält",
    "Flotte Kiel unterstützt Armee Berlin",
    "F Ionisches Meer K A Apulien - Tunis",
    "Armee Apulien - Tunis",
    "F Sewastopol - Rumänien",
    "A Warschau - Galizien",
    "F London U F Brest - Ärmelkanal",
];

fn setup() -> (Variant, Position) {
    let variant = spielleiter_engine::variant::builtin("standard")
        .expect("standard is built in")
        .expect("standard loads");
    let state: GameState = serde_json::from_str(STATE).expect("state JSON");
    let position = position_from_state(&variant, &state).expect("state reads");
    (variant, position)
}

fn reading(c: &mut Criterion) {
    let (variant, position) = setup();
    let context = |position| OrderContext {
        map: &variant.map,
        phase: PhaseKind::Movement,
        position,
        default_power: None,
        leaders: &variant.leaders,
    };
    let notations = [
        ("interchange", &INTERCHANGE),
        ("english", &ENGLISH),
        ("german", &GERMAN),
    ];
    let mixed: Vec<&str> = notations.iter().flat_map(|(_, lines)| lines.iter().copied()).collect();
    let mut group = c.benchmark_group("read order");
    for (name, position) in [("against the position", Some(&position)), ("against the map", None)] {
        let ctx = context(position);
        for line in &mixed {
            assert!(parse_order(&ctx, line).is_ok(), "{line}: {:?}", parse_order(&ctx, line));
        }
        group.throughput(Throughput::Elements(mixed.len() as u64));
        group.bench_function(format!("mixed notations, {name} ({} orders)", mixed.len()), |b| {
            b.iter(|| {
                for line in &mixed {
                    black_box(parse_order(&ctx, black_box(line)).is_ok());
                }
            })
        });
    }
    let ctx = context(Some(&position));
    for (name, lines) in notations {
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.bench_function(format!("{name}, as a phase's lines ({} orders)", lines.len()), |b| {
            b.iter(|| {
                let mut orders = PhaseOrders::default();
                orders.read_all(&variant, &position, [(None, black_box(lines).iter().copied())]);
                black_box(orders.lines.len())
            })
        });
    }
    for (name, lines) in notations {
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.bench_function(format!("{name}, against the position ({} orders)", lines.len()), |b| {
            b.iter(|| {
                for line in lines {
                    black_box(parse_order(&ctx, black_box(line)).is_ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, reading);
criterion_main!(benches);
