//! The buffers of a dropped adjudicator, kept for the next one made on the same thread: a caller
//! that makes an adjudicator per phase (as `game::adjudicate_phase` does) then allocates nothing
//! for its buffers after the first phase.

use std::cell::RefCell;

use super::{Adjudicator, Kind, NO_RULE, NONE};
use crate::map::Map;

/// Every buffer of an adjudicator, emptied or not.
#[derive(Default)]
pub(super) struct Spare {
    rule_decisions: Vec<(usize, usize)>,
    unit_at: Vec<u16>,
    first_attacker: Vec<u16>,
    kind: Vec<Kind>,
    power: Vec<u8>,
    origin: Vec<u16>,
    target: Vec<u16>,
    target_location: Vec<u16>,
    source: Vec<u16>,
    next_attacker: Vec<u16>,
    first_support: Vec<u16>,
    next_support: Vec<u16>,
    first_convoy: Vec<u16>,
    next_convoy: Vec<u16>,
    convoyed: Vec<bool>,
    matched: Vec<bool>,
    strength: Vec<u32>,
    rule_of: Vec<u8>,
    resolved: Vec<bool>,
    visited: Vec<bool>,
    in_cycle: Vec<bool>,
    resolution: Vec<bool>,
    paradox: Vec<bool>,
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
    let per_province = |mut v: Vec<u16>| {
        v.clear();
        v.resize(p, NONE);
        v
    };
    let room = |mut v: Vec<u16>| {
        v.reserve(p);
        v
    };
    let room_bool = |mut v: Vec<bool>| {
        v.reserve(p);
        v
    };
    let mut kind = s.kind;
    kind.reserve(p);
    let mut power = s.power;
    power.reserve(p);
    let mut strength = s.strength;
    strength.reserve(p);
    let mut rule_of = s.rule_of;
    rule_of.reserve(p);
    Adjudicator {
        map,
        rules: None,
        rule_decisions: s.rule_decisions,
        preparing: NO_RULE,
        unit_at: per_province(s.unit_at),
        first_attacker: per_province(s.first_attacker),
        kind,
        power,
        origin: room(s.origin),
        target: room(s.target),
        target_location: room(s.target_location),
        source: room(s.source),
        next_attacker: room(s.next_attacker),
        first_support: room(s.first_support),
        next_support: room(s.next_support),
        first_convoy: room(s.first_convoy),
        next_convoy: room(s.next_convoy),
        convoyed: room_bool(s.convoyed),
        matched: room_bool(s.matched),
        strength,
        rule_of,
        resolved: room_bool(s.resolved),
        visited: room_bool(s.visited),
        in_cycle: room_bool(s.in_cycle),
        resolution: room_bool(s.resolution),
        paradox: room_bool(s.paradox),
        cycle: room(s.cycle),
        guess_based: false,
        recursion_hits: 0,
    }
}

/// The vector, leaving an empty one in its place.
fn take_vec<T>(v: &mut Vec<T>) -> Vec<T> {
    std::mem::take(v)
}

impl Drop for Adjudicator<'_> {
    fn drop(&mut self) {
        let spare = Spare {
            rule_decisions: take_vec(&mut self.rule_decisions),
            unit_at: take_vec(&mut self.unit_at),
            first_attacker: take_vec(&mut self.first_attacker),
            kind: take_vec(&mut self.kind),
            power: take_vec(&mut self.power),
            origin: take_vec(&mut self.origin),
            target: take_vec(&mut self.target),
            target_location: take_vec(&mut self.target_location),
            source: take_vec(&mut self.source),
            next_attacker: take_vec(&mut self.next_attacker),
            first_support: take_vec(&mut self.first_support),
            next_support: take_vec(&mut self.next_support),
            first_convoy: take_vec(&mut self.first_convoy),
            next_convoy: take_vec(&mut self.next_convoy),
            convoyed: take_vec(&mut self.convoyed),
            matched: take_vec(&mut self.matched),
            strength: take_vec(&mut self.strength),
            rule_of: take_vec(&mut self.rule_of),
            resolved: take_vec(&mut self.resolved),
            visited: take_vec(&mut self.visited),
            in_cycle: take_vec(&mut self.in_cycle),
            resolution: take_vec(&mut self.resolution),
            paradox: take_vec(&mut self.paradox),
            cycle: take_vec(&mut self.cycle),
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
    use super::*;

    #[test]
    fn a_dropped_adjudicator_leaves_its_buffers_to_the_next() {
        let variant = crate::variant::builtin("standard")
            .expect("standard is built in")
            .expect("standard loads");
        let first = adjudicator(&variant.map);
        let unit_at = first.unit_at.as_ptr();
        drop(first);
        let second = adjudicator(&variant.map);
        assert_eq!(second.unit_at.as_ptr(), unit_at);
        assert_eq!(second.unit_at.len(), variant.map.provinces().len());
        assert!(second.unit_at.iter().all(|&u| u == NONE));
        assert!(second.origin.capacity() >= variant.map.provinces().len());
    }
}
