//! Setting up a phase: each unit's order read into its slot, the rules prepared, and the orders
//! linked (attackers per province, supports and convoys to the orders they name, head-to-head
//! opponents).

use std::rc::Rc;

use super::{Adjudicator, Decision, Kind, NO_RULE, NONE, Place, Slot};
use crate::ids::{LocationId, UnitType};
use crate::map::Map;
use crate::order::Order;
use crate::order::model::Cargo;
use crate::position::Unit;

/// The slot of a unit with its order read (not yet linked to other orders).
#[inline]
fn slot_of(map: &Map, unit: &Unit, order: &Order) -> Slot {
    let province = |l: LocationId| map.province_of(l).0;
    let mut slot = Slot {
        power: unit.power.0,
        origin: province(unit.location),
        ..Slot::HOLD
    };
    match *order {
        Order::Move { to, via_convoy, .. } => {
            slot.kind = Kind::Move;
            slot.target = province(to);
            slot.target_location = to.0;
            // Set again if a fleet of the army's own power convoys it (`link_orders`).
            // Computed without branches (an army's or fleet's order comes in no predictable
            // order); the army's adjacency is looked up for fleets too and not used.
            let walks = map.is_adjacent(UnitType::Army, unit.location, to);
            slot.convoyed = (unit.kind == UnitType::Army) & (via_convoy | !walks);
        }
        Order::SupportHold { supported, .. } => {
            slot.kind = Kind::SupportHold;
            slot.target = province(supported.location);
        }
        Order::SupportMove { supported, to, .. } => {
            slot.kind = Kind::SupportMove;
            slot.source = province(supported.location);
            slot.target = province(to);
            slot.target_location = to.0;
        }
        Order::Convoy { army, to, cargo, .. } if unit.kind == UnitType::Fleet && cargo != Cargo::Leader => {
            slot.kind = Kind::Convoy;
            slot.source = province(army);
            slot.target = province(to);
        }
        _ => {}
    }
    slot
}

/// Whether an order is given to a unit with its leader (Hegemony).
fn led(order: &Order) -> bool {
    order.unit().is_some_and(|u| u.led)
}

impl Adjudicator<'_> {
    /// Reads the phase into the buffers: one fill of the provinces, one slot per unit, one
    /// decision per unit and rule decision.
    pub(super) fn setup(&mut self, units: &[Unit], orders: &[Order]) {
        let map = self.map;
        self.places.fill(Place::EMPTY);
        self.slots.clear();
        self.cycle.clear();
        self.guess_based = false;
        self.recursion_hits = 0;
        let slots = units.iter().zip(orders).map(|(unit, order)| slot_of(map, unit, order));
        self.slots.extend(slots);
        self.shared_province = false;
        for (i, slot) in self.slots.iter().enumerate() {
            let place = &mut self.places[usize::from(slot.origin)];
            // Two units in one province (a caller's board the game never makes): the last one
            // is the province's unit, and dislodgements are found the slow way (`results`).
            self.shared_province |= place.unit != NONE;
            place.unit = i as u16;
        }
        let decisions = units.len() + self.prepare_rules(units, orders);
        self.decisions.clear();
        self.decisions.resize(decisions, Decision::default());
        self.list_by_kind();
        self.link_orders(units, orders);
        self.finish_links();
    }

    /// Lists each unit under the kind of its order (as the rules left it), and the units to
    /// resolve; without a branch on the kind.
    fn list_by_kind(&mut self) {
        let n = self.slots.len();
        for list in &mut self.by_kind {
            list.clear();
        }
        self.active.clear();
        self.active.resize(n, 0);
        let mut active = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            self.by_kind[slot.kind as usize].push(i as u16);
            self.active[active] = i as u16;
            active += usize::from(slot.kind != Kind::Hold);
        }
        self.active.truncate(active);
    }

    /// Lets every rule read the phase and claim orders; returns the number of rule decisions.
    fn prepare_rules(&mut self, units: &[Unit], orders: &[Order]) -> usize {
        self.rule_decisions.clear();
        let Some(mut rules) = self.rules.take() else { return 0 };
        let mut next = units.len();
        if let Some(list) = Rc::get_mut(&mut rules) {
            for (i, rule) in list.iter_mut().enumerate() {
                self.preparing = i as u8;
                let count = rule.prepare(self, units, orders, next);
                self.rule_decisions.push((next, count));
                next += count;
            }
        }
        self.preparing = NO_RULE;
        self.rules = Some(rules);
        next - units.len()
    }

    /// Lists the moves into each province, and links supports and convoys to the orders they
    /// name; each list in the order of the units (built from the last unit back).
    fn link_orders(&mut self, units: &[Unit], orders: &[Order]) {
        for k in (0..self.of_kind(Kind::Move).len()).rev() {
            let i = usize::from(self.of_kind(Kind::Move)[k]);
            let slot = &mut self.slots[i];
            let place = &mut self.places[usize::from(slot.target)];
            slot.next_attacker = place.first_attacker;
            place.first_attacker = i as u16;
        }
        for kind in [Kind::SupportHold, Kind::SupportMove] {
            for k in (0..self.of_kind(kind).len()).rev() {
                let i = usize::from(self.of_kind(kind)[k]);
                if let Some(s) = self.supported_unit(i, orders) {
                    self.slots[i].matched = true;
                    self.slots[i].next_support = self.slots[s].first_support;
                    self.slots[s].first_support = i as u16;
                }
            }
        }
        for k in (0..self.of_kind(Kind::Convoy).len()).rev() {
            let i = usize::from(self.of_kind(Kind::Convoy)[k]);
            if let Some(a) = self.convoyed_army(i, units, orders) {
                let fleet = &mut self.slots[i];
                fleet.matched = true;
                let power = fleet.power;
                let army = &mut self.slots[a];
                // A fleet of the army's own power makes it go by convoy (2000/2023 rules).
                army.convoyed |= army.power == power;
                let next = std::mem::replace(&mut army.first_convoy, i as u16);
                self.slots[i].next_convoy = next;
            }
        }
    }

    /// The unit support `i` names, if its order is the one the support names. A support names a
    /// led unit (`S LA Vie - Boh`) exactly when that unit is ordered with its leader (Hegemony
    /// 3.1.5.5).
    fn supported_unit(&self, i: usize, orders: &[Order]) -> Option<usize> {
        let support = self.slots[i];
        let at = match support.kind {
            Kind::SupportHold => support.target,
            _ => support.source,
        };
        let s = self.unit_in(at)?;
        let supported = self.slots[s];
        let moves = matches!(supported.kind, Kind::Move | Kind::RuledMove);
        let matches = match support.kind {
            Kind::SupportHold => !moves,
            // A coast named by the support must be the coast the move goes to.
            _ => {
                moves
                    && supported.target == support.target
                    && (self.map.location(LocationId(support.target_location)).coast.is_none()
                        || support.target_location == supported.target_location)
            }
        };
        let names_led = match orders[i] {
            Order::SupportHold { supported, .. } | Order::SupportMove { supported, .. } => supported.led,
            _ => false,
        };
        (matches && names_led == led(&orders[s])).then_some(s)
    }

    /// The army convoy `i` names, if it moves where the convoy names (led or not alike).
    fn convoyed_army(&self, i: usize, units: &[Unit], orders: &[Order]) -> Option<usize> {
        let convoy = self.slots[i];
        let a = self.unit_in(convoy.source)?;
        let names_led = matches!(
            orders[i],
            Order::Convoy {
                cargo: Cargo::LedArmy,
                ..
            }
        );
        let army = self.slots[a];
        (units[a].kind == UnitType::Army
            && army.kind == Kind::Move
            && army.target == convoy.target
            && names_led == led(&orders[a]))
        .then_some(a)
    }

    /// Finds each move's head-to-head opponent, and settles at once the supports and convoys
    /// no move attacks: they stand (what resolving them would find).
    fn finish_links(&mut self) {
        for k in 0..self.of_kind(Kind::Move).len() {
            let u = usize::from(self.of_kind(Kind::Move)[k]);
            self.find_opponent(u);
        }
        for kind in [Kind::SupportHold, Kind::SupportMove, Kind::Convoy] {
            for k in 0..self.of_kind(kind).len() {
                let u = usize::from(self.of_kind(kind)[k]);
                // Without a branch: the decision is fresh (not resolved, failing) otherwise.
                let stands = self.places[usize::from(self.slots[u].origin)].first_attacker == NONE;
                self.decisions[u].resolved = stands;
                self.decisions[u].resolution = stands;
            }
        }
    }

    /// Move `u`'s head-to-head opponent: the unit in its target moving straight back into its
    /// province, neither move by convoy or by a route a rule decides.
    fn find_opponent(&mut self, u: usize) {
        // Without branches on the board: whether a province is held, and by a move back, comes
        // in no predictable order. An empty target reads the unit itself, which fails the test.
        let direct = |s: &Slot| !s.convoyed & (s.rule_of == NO_RULE);
        let slot = &self.slots[u];
        let (origin, target) = (slot.origin, slot.target);
        let d = self.places[usize::from(target)].unit;
        let held = d != NONE;
        let other = &self.slots[if held { usize::from(d) } else { u }];
        let back = held & (other.kind == Kind::Move) & (other.target == origin) & direct(other) & direct(slot);
        self.slots[u].opponent = if back { d } else { NONE };
    }
}
