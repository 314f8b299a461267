//! Positions reached by playing seeded random legal orders, and the reading of order lines the
//! way a game reads them.

use spielleiter_engine::game::{PhaseOrders, adjudicate_phase};
use spielleiter_engine::legal::{LocationOrders, all_orders};
use spielleiter_engine::{Order, Position, PowerId, Variant};

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

/// A power's own line read by the order reader with the position (`order::resolve`, the step
/// [`PhaseOrders::read`] takes for each line).
pub fn read_own(variant: &Variant, position: &Position, power: PowerId, line: &str) -> Option<Order> {
    let ctx = spielleiter_engine::order::OrderContext {
        map: &variant.map,
        phase: position.phase.kind,
        position: Some(position),
        default_power: Some(power),
        leaders: &variant.leaders,
    };
    spielleiter_engine::parse_order(&ctx, line)
        .ok()
        .filter(|o| o.power == Some(power))
        .map(|o| o.order)
}

/// Whether a support order backs one of the chosen moves.
fn backs(support: &Order, chosen: &[Order]) -> bool {
    let Order::SupportMove { supported, to, .. } = support else {
        return false;
    };
    chosen
        .iter()
        .any(|c| matches!(c, Order::Move { unit, to: t, .. } if unit.location == supported.location && t == to))
}

/// A power's orders: a move for half of its locations where there is one, then for each other
/// location a support of one of those moves where it can give one, else any order.
fn pick(rng: &mut Rng, lists: &[&LocationOrders], attacks: impl Fn(&Order) -> bool) -> Vec<Order> {
    let mut chosen: Vec<Option<Order>> = vec![None; lists.len()];
    for (slot, l) in chosen.iter_mut().zip(lists) {
        let mut moves: Vec<&Order> = l.orders.iter().filter(|o| matches!(o, Order::Move { .. })).collect();
        if moves.iter().any(|o| attacks(o)) && rng.below(2) == 0 {
            moves.retain(|o| attacks(o));
        }
        if !moves.is_empty() && rng.below(2) == 0 {
            *slot = Some(*moves[rng.below(moves.len())]);
        }
    }
    let moves: Vec<Order> = chosen.iter().flatten().copied().collect();
    for (slot, l) in chosen.iter_mut().zip(lists) {
        if slot.is_none() {
            let backing: Vec<&Order> = l.orders.iter().filter(|o| backs(o, &moves)).collect();
            *slot = Some(match backing.is_empty() {
                true => l.orders[rng.below(l.orders.len())],
                false => *backing[rng.below(backing.len())],
            });
        }
    }
    chosen.into_iter().flatten().collect()
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
            let own: Vec<&LocationOrders> = all.iter().filter(|l| l.country == power.id).collect();
            // A move into a province another power holds.
            let attacks = |o: &Order| match o {
                Order::Move { to, .. } => {
                    let there = variant.map.province_of(*to);
                    position
                        .unit_in(&variant.map, there)
                        .is_some_and(|u| u.power != power.id)
                }
                _ => false,
            };
            let picked = pick(&mut rng, &own, attacks);
            let lines: Vec<String> = own
                .iter()
                .zip(&picked)
                .map(|(l, o)| l.line(&variant.map, power.id, o))
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
