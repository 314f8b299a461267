//! The buffers of a dropped adjudicator, kept for the next one made on the same thread: a caller
//! that makes an adjudicator per phase (as `game::adjudicate_phase` does) then allocates nothing
//! for its buffers after the first phase.

use std::cell::RefCell;

use super::{Adjudicator, Decision, KINDS, NO_RULE, Place, Slot};
use crate::map::Map;

/// Every buffer of an adjudicator, emptied or not.
#[derive(Default)]
pub(super) struct Spare {
    rule_decisions: Vec<(usize, usize)>,
    places: Vec<Place>,
    slots: Vec<Slot>,
    by_kind: [Vec<u16>; KINDS],
    active: Vec<u16>,
    succeeded: Vec<u16>,
    failed: Vec<u16>,
    decisions: Vec<Decision>,
    cycle: Vec<u16>,
}

thread_local! {
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
}

/// The spare buffers of this thread, if an adjudicator left some.
fn take() -> Spare {
    SPARE
        .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.take()))
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// An adjudicator for `map` on spare buffers, each with room for as many units as the map has
/// provinces.
pub(super) fn adjudicator(map: &Map) -> Adjudicator<'_> {
    let s = take();
    let p = map.provinces().len();
    let mut places = s.places;
    places.clear();
    places.resize(p, Place::EMPTY);
    let mut slots = s.slots;
    slots.reserve(p);
    let mut decisions = s.decisions;
    decisions.reserve(p);
    let mut cycle = s.cycle;
    cycle.reserve(p);
    // The unit lists: each kind's, the active units', the moves that succeeded and failed.
    let mut by_kind = s.by_kind;
    let mut lists = [s.active, s.succeeded, s.failed];
    for list in by_kind.iter_mut().chain(lists.iter_mut()) {
        list.reserve(p);
    }
    let [active, succeeded, failed] = lists;
    Adjudicator {
        map,
        rules: None,
        rule_decisions: s.rule_decisions,
        preparing: NO_RULE,
        places,
        slots,
        by_kind,
        active,
        succeeded,
        failed,
        decisions,
        cycle,
        guess_based: false,
        recursion_hits: 0,
        shared_province: false,
    }
}

impl Drop for Adjudicator<'_> {
    fn drop(&mut self) {
        let spare = Spare {
            rule_decisions: std::mem::take(&mut self.rule_decisions),
            places: std::mem::take(&mut self.places),
            slots: std::mem::take(&mut self.slots),
            by_kind: std::mem::take(&mut self.by_kind),
            active: std::mem::take(&mut self.active),
            succeeded: std::mem::take(&mut self.succeeded),
            failed: std::mem::take(&mut self.failed),
            decisions: std::mem::take(&mut self.decisions),
            cycle: std::mem::take(&mut self.cycle),
        };
        // On a thread being torn down the buffers are simply freed.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut slot) = s.try_borrow_mut() {
                *slot = Some(spare);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::NONE;
    use super::*;

    #[test]
    fn a_dropped_adjudicator_leaves_its_buffers_to_the_next() {
        let variant = crate::variant::builtin("standard")
            .expect("standard is built in")
            .expect("standard loads");
        let first = adjudicator(&variant.map);
        let places = first.places.as_ptr();
        drop(first);
        let second = adjudicator(&variant.map);
        assert_eq!(second.places.as_ptr(), places);
        assert_eq!(second.places.len(), variant.map.provinces().len());
        assert!(second.places.iter().all(|p| p.unit == NONE && p.first_attacker == NONE));
        assert!(second.slots.capacity() >= variant.map.provinces().len());
    }
}
