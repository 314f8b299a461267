//! How many movement phases per second the adjudicator resolves (orders already read, one core).
//!
//! Run: `cargo bench -p spielleiter-engine --bench movement`.

mod positions;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielleiter_engine::adjudicate::{Adjudicator, MovementResult};

fn movement_phases(c: &mut Criterion) {
    let variant = spielleiter_engine::variant::builtin("standard")
        .expect("standard is built in")
        .expect("standard loads");
    let map = &variant.map;
    let mut rng = positions::Rng::new(0x5EED_1901);
    let phases: Vec<positions::Phase> = (0..1000).map(|_| positions::random_phase(map, &mut rng)).collect();
    let units: usize = phases.iter().map(|p| p.units.len()).sum();
    let count =
        |f: fn(&spielleiter_engine::Order) -> bool| phases.iter().flat_map(|p| &p.orders).filter(|o| f(o)).count();
    eprintln!(
        "{} phases, {:.1} units per phase; orders: {} moves ({} by convoy), {} supports, {} convoys, {} holds",
        phases.len(),
        units as f64 / phases.len() as f64,
        count(|o| matches!(o, spielleiter_engine::Order::Move { .. })),
        count(|o| matches!(o, spielleiter_engine::Order::Move { via_convoy: true, .. })),
        count(|o| matches!(
            o,
            spielleiter_engine::Order::SupportHold { .. } | spielleiter_engine::Order::SupportMove { .. }
        )),
        count(|o| matches!(o, spielleiter_engine::Order::Convoy { .. })),
        count(|o| matches!(o, spielleiter_engine::Order::Hold { .. })),
    );
    let mut adjudicator = Adjudicator::new(map);
    let mut result = MovementResult::default();
    let mut group = c.benchmark_group("adjudicate");
    group.throughput(Throughput::Elements(phases.len() as u64));
    group.bench_function("standard movement phases (1000 per iteration)", |b| {
        b.iter(|| {
            for phase in &phases {
                adjudicator.adjudicate(black_box(&phase.units), black_box(&phase.orders), &mut result);
                black_box(&result);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, movement_phases);
criterion_main!(benches);
