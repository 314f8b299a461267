//! Adjudicating a movement phase allocates nothing once the adjudicator's buffers have grown:
//! this test binary counts every allocation through its global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use spielleiter_engine::adjudicate::{Adjudicator, MovementResult};
use spielleiter_engine::interchange::{GameState, position_from_state};
use spielleiter_engine::order::{OrderContext, parse_order};
use spielleiter_engine::{Order, PhaseKind};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_movement_phase_allocates_nothing_after_warm_up() {
    let variant = spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads");
    let map = &variant.map;
    // A busy position: a convoy paradox, supports, cuts, a circular movement.
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1901M", "units": {
            "ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"], "GERMANY": ["F NTH", "F BEL"],
            "TURKEY": ["F ANK", "A SMY", "A BUL"], "RUSSIA": ["A CON"],
            "ITALY": ["A VEN", "A TYR"], "AUSTRIA": ["A TRI", "F ADR"]}}"#,
    )
    .expect("state");
    let position = position_from_state(&variant, &state).expect("position");
    let ctx = OrderContext {
        map,
        phase: PhaseKind::Movement,
        position: Some(&position),
        default_power: None,
        leaders: &[],
    };
    let texts = [
        "F Lon S F Wal - Eng",
        "F Wal - Eng",
        "A Bre - Lon",
        "F Eng C A Bre - Lon",
        "F Nth S F Bel - Eng",
        "F Bel - Eng",
        "F Ank - Con",
        "A Smy - Ank",
        "A Con - Smy",
        "A Bul S F Ank - Con",
        "A Ven - Tri",
        "A Tyr S A Ven - Tri",
        "F Adr S A Tri",
    ];
    let mut orders: Vec<Order> = position.units.iter().map(|u| Order::hold(u.kind, u.location)).collect();
    for text in texts {
        let order = parse_order(&ctx, text).expect("legal").order;
        let unit = order.unit().expect("unit");
        let index = position
            .units
            .iter()
            .position(|u| u.location == unit.location)
            .expect("ordered unit");
        orders[index] = order;
    }
    let mut adjudicator = Adjudicator::new(map);
    let mut result = MovementResult::default();
    adjudicator.adjudicate(&position.units, &orders, &mut result);
    let first = result.units.clone();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..100 {
        adjudicator.adjudicate(&position.units, &orders, &mut result);
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(after - before, 0, "allocations while adjudicating");
    assert_eq!(result.units, first, "the same orders give the same results every time");
}
