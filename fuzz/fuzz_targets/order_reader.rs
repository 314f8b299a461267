//! Fuzz target: no text may make the order reader panic, in any phase.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use spielleiter_engine::order::{OrderContext, parse_order_list};
use spielleiter_engine::{PhaseKind, Variant};

fn standard() -> &'static Variant {
    static VARIANT: OnceLock<Variant> = OnceLock::new();
    VARIANT.get_or_init(|| {
        spielleiter_engine::variant::builtin("standard")
            .expect("standard is built in")
            .expect("standard loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let variant = standard();
    for phase in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
        let ctx = OrderContext {
            map: &variant.map,
            phase,
            position: None,
            default_power: None,
        };
        for line in text.lines() {
            let _ = parse_order_list(&ctx, line);
        }
    }
});
