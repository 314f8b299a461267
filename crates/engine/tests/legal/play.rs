//! Positions reached by playing seeded random legal orders, and the reading of order lines the
//! way a game reads them.

use spielleiter_engine::game::{PhaseOrders, adjudicate_phase};
use spielleiter_engine::legal::{LocationOrders, all_orders};
use spielleiter_engine::{Order, PowerId, Position, Variant};

/// SplitMix64: a tiny seeded generator, so the positions never change.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// A built-in variant.
pub fn variant(name: &str) -> Variant {
    spielleiter_engine::variant::builtin(name)
        .expect("built in")
        .expect("loads")
}

/// The lines a power sends with `sender` as sender; the order lines it produced, or why not one.
pub fn read(variant: &Variant, position: &Position, sender: PowerId, line: &str) -> Option<(Option<PowerId>, Order)> {
    let mut orders = PhaseOrders::default();
    orders.read(variant, position, Some(sender), [line]);
    match (orders.lines.as_slice(), orders.sender_only.is_empty()) {
        ([one], true) => one.result.as_ref().ok().map(|o| (one.power, *o)),
        _ => None,
    }
}

/// One order picked for a location: a move half the time where there is one.
fn pick(rng: &mut Rng, orders: &[Order]) -> Order {
    let moves: Vec<&Order> = orders.iter().filter(|o| matches!(o, Order::Move { .. })).collect();
    if !moves.is_empty() && rng.below(2) == 0 {
        return *moves[rng.below(moves.len())];
    }
    orders[rng.below(orders.len())]
}

/// Plays `phases` phases of random legal orders from the variant's start; every position met.
pub fn positions(variant: &Variant, seed: u64, phases: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut position = Position::initial(variant);
    let mut seen = Vec::new();
    for _ in 0..phases {
        seen.push(position.clone());
        let mut orders = PhaseOrders::default();
        let all: Vec<LocationOrders> = all_orders(variant, &position);
        for power in variant.map.powers() {
            let lines: Vec<String> = all
                .iter()
                .filter(|l| l.country == power.id)
                .map(|l| l.line(&variant.map, power.id, &pick(&mut rng, &l.orders)))
                .collect();
            orders.read(variant, &position, Some(power.id), lines.iter().map(String::as_str));
        }
        let report = adjudicate_phase(variant, &position, orders);
        if report.end.is_some() {
            break;
        }
        position = report.next;
    }
    seen
}
