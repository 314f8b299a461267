//! Legal orders of every power listed per second: the standard opening and a mid-game position
//! (reached by seeded random play, with its fleets and supports).

use criterion::{Criterion, criterion_group, criterion_main};
use spielleiter_engine::game::{PhaseOrders, adjudicate_phase};
use spielleiter_engine::legal::all_orders;
use spielleiter_engine::{Order, Position, Variant};

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads")
}

/// The position after `phases` phases in which every unit takes the `n`-th legal order of its
/// list, `n` from a fixed sequence (so the position never changes).
fn mid_game(v: &Variant, phases: usize) -> Position {
    let mut position = Position::initial(v);
    let mut n = 7usize;
    for _ in 0..phases {
        let mut orders = PhaseOrders::default();
        let all = all_orders(v, &position);
        for power in v.map.powers() {
            let lines: Vec<String> = all
                .iter()
                .filter(|l| l.country == power.id)
                .map(|l| {
                    n = n.wrapping_mul(31).wrapping_add(17) % 1009;
                    let moves: Vec<&Order> = l.orders.iter().filter(|o| matches!(o, Order::Move { .. })).collect();
                    let order = match moves.is_empty() || n % 3 == 0 {
                        true => &l.orders[n % l.orders.len()],
                        false => moves[n % moves.len()],
                    };
                    l.line(&v.map, power.id, order)
                })
                .collect();
            orders.read(v, &position, Some(power.id), lines.iter().map(String::as_str));
        }
        position = adjudicate_phase(v, &position, orders).next;
    }
    position
}

fn bench(c: &mut Criterion) {
    let v = standard();
    let opening = Position::initial(&v);
    c.bench_function("legal orders, standard opening", |b| {
        b.iter(|| all_orders(&v, &opening))
    });
    let middle = mid_game(&v, 12);
    let count: usize = all_orders(&v, &middle).iter().map(|l| l.orders.len()).sum();
    eprintln!(
        "mid-game {}: {} units, {count} orders",
        middle.phase,
        middle.units.len()
    );
    c.bench_function("legal orders, standard mid-game", |b| {
        b.iter(|| all_orders(&v, &middle))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
