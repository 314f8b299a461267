//! Movement adjudication: the DATC's decision equations (section 5.B) solved by the guess
//! algorithm with cycle detection (section 5.F), with the convoy-paradox fix of section 5.D and
//! the Szykman rule as backup. All working state lives in reusable buffers: a record per province,
//! one per unit and one per decision, each set up with a single fill per phase, and the units
//! listed by the kind of their order, so that setting up and writing results go through one kind
//! at a time instead of branching on each unit's kind (the branch a processor mispredicts most).
//! Adjudicating a phase allocates nothing once the buffers have grown; a dropped adjudicator
//! leaves them to the next one made on the same thread.

use std::rc::Rc;

use crate::adjudicate::outcome::UnitResult;
use crate::ids::LocationId;
use crate::map::Map;
use crate::order::Order;
use crate::position::Unit;

mod convoy;
mod decide;
mod hooks;
mod resolve;
mod results;
mod setup;
mod spare;

pub use hooks::ResolverRule;

const NONE: u16 = u16::MAX;
/// `rule_of` of a unit no rule claimed.
const NO_RULE: u8 = u8::MAX;

/// The kinds of order the resolver tells apart; each unit is listed under its kind
/// (`Adjudicator::by_kind`), so that the passes over one kind do not branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hold,
    Move,
    SupportHold,
    SupportMove,
    Convoy,
    /// A move of a kind a rule decides (a railroad ride); supports may name it like a move.
    RuledMove,
}

/// How many kinds of order there are.
const KINDS: usize = 6;

/// One unit's order as the resolver reads it: set up before anything is decided and fixed after
/// (rules change it only while they prepare). Unit and province numbers are `u16`, `NONE` for
/// none.
#[derive(Clone, Copy, Debug)]
struct Slot {
    kind: Kind,
    /// The unit's power.
    power: u8,
    /// The rule that claimed the unit's move, route or outcome (`NO_RULE`: none).
    rule_of: u8,
    /// A move that goes by convoy.
    convoyed: bool,
    /// A support or convoy that matches the order of the unit it names.
    matched: bool,
    /// The province the unit starts in.
    origin: u16,
    /// The province moved to, supported into or convoyed to.
    target: u16,
    /// The location (coast) named as destination by moves and move supports.
    target_location: u16,
    /// The province of the unit a move support or convoy names.
    source: u16,
    /// The next move to the same province.
    next_attacker: u16,
    /// The first matching support of this unit's order.
    first_support: u16,
    /// The next matching support of the same order.
    next_support: u16,
    /// The first matching convoy of this army's move.
    first_convoy: u16,
    /// The next matching convoy of the same move.
    next_convoy: u16,
    /// The unit in `target` that moves straight back into `origin`, where neither move goes by
    /// convoy or by a route a rule decides (head to head).
    opponent: u16,
    /// The unit's own strength before supports (1 in the standard rules; variants may change it).
    strength: u32,
}

impl Slot {
    /// A unit holding, before its order is read.
    const HOLD: Slot = Slot {
        kind: Kind::Hold,
        power: 0,
        rule_of: NO_RULE,
        convoyed: false,
        matched: false,
        origin: NONE,
        target: NONE,
        target_location: NONE,
        source: NONE,
        next_attacker: NONE,
        first_support: NONE,
        next_support: NONE,
        first_convoy: NONE,
        next_convoy: NONE,
        opponent: NONE,
        strength: 1,
    };
}

/// The resolution state of one decision (a unit's order, or a rule's decision).
#[derive(Clone, Copy, Debug, Default)]
struct Decision {
    resolved: bool,
    visited: bool,
    in_cycle: bool,
    resolution: bool,
    /// Ruled out by a paradox rule.
    paradox: bool,
}

/// What the resolver keeps per province.
#[derive(Clone, Copy, Debug)]
struct Place {
    /// The unit standing there at the start of the phase.
    unit: u16,
    /// The first unit moving there (ordinary moves only).
    first_attacker: u16,
}

impl Place {
    const EMPTY: Place = Place {
        unit: NONE,
        first_attacker: NONE,
    };
}

/// The results of a movement phase, one per unit in the order of the input.
#[derive(Clone, Debug, Default)]
pub struct MovementResult {
    /// Per unit: outcome and dislodgement.
    pub units: Vec<UnitResult>,
    /// Per unit: whether it ends in its destination (moved successfully).
    pub moved: Vec<bool>,
    /// Per unit: whether its move went by convoy.
    pub convoyed: Vec<bool>,
    /// Per province: a move there bounced and it is empty after the phase (no retreat there).
    pub contested: Vec<bool>,
    /// The unit whose rule-decided move (a railroad ride) left its province, and the place it
    /// got to, which may fall short of its destination.
    pub rail_end: Option<(usize, LocationId)>,
}

/// What variant rules add to a movement phase besides units and orders.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseExtras<'a> {
    /// Each unit's own strength before supports, by unit index (missing: 1). The hook for rules
    /// that make a unit stronger or weaker (Hegemony's leaders).
    pub strengths: &'a [u32],
}

/// Reusable movement adjudicator for one map.
pub struct Adjudicator<'m> {
    map: &'m Map,
    /// The variant's resolver rules (none in the standard game).
    rules: Option<Rc<Vec<Box<dyn ResolverRule>>>>,
    /// Per rule: its first decision id and how many it has this phase.
    rule_decisions: Vec<(usize, usize)>,
    /// The rule whose `prepare` runs (for the claims it makes).
    preparing: u8,
    /// Per province.
    places: Vec<Place>,
    /// Per unit, in the order of the input.
    slots: Vec<Slot>,
    /// Per kind of order: the units with such an order, in the order of the input.
    by_kind: [Vec<u16>; KINDS],
    /// The units with an order other than a hold, in the order of the input (those resolved).
    active: Vec<u16>,
    /// The moves that succeeded, in the order of the input (once decided).
    succeeded: Vec<u16>,
    /// The moves that failed, in the order of the input (once decided).
    failed: Vec<u16>,
    /// Per decision: the units' orders, then each rule's decisions.
    decisions: Vec<Decision>,
    cycle: Vec<u16>,
    guess_based: bool,
    recursion_hits: u32,
    /// Some province holds two units at the start of the phase (not a game's board).
    shared_province: bool,
}

impl<'m> Adjudicator<'m> {
    /// An adjudicator for a map under the standard rules. Its buffers start with room for as
    /// many units as the map has provinces and grow once if a phase needs more.
    pub fn new(map: &'m Map) -> Self {
        spare::adjudicator(map)
    }

    /// An adjudicator for a map with the variant's resolver rules (at most 254), which every
    /// phase prepares anew.
    pub fn with_rules(map: &'m Map, rules: Vec<Box<dyn ResolverRule>>) -> Self {
        let mut adjudicator = Adjudicator::new(map);
        if !rules.is_empty() {
            let mut rules = rules;
            rules.truncate(usize::from(NO_RULE) - 1);
            adjudicator.rules = Some(Rc::new(rules));
        }
        adjudicator
    }

    /// Adjudicates one movement phase. `orders[i]` is the (legal) order of `units[i]`; a unit
    /// without an order, or whose order was illegal, must be given `Order::Hold`. Orders of kinds
    /// the core does not know (hold, move, support, convoy) are holds unless a rule claims them.
    pub fn adjudicate(&mut self, units: &[Unit], orders: &[Order], result: &mut MovementResult) {
        self.adjudicate_with(units, orders, &PhaseExtras::default(), result);
    }

    /// As [`Adjudicator::adjudicate`], with what variant rules add to a phase (see
    /// [`PhaseExtras`]).
    pub fn adjudicate_with(
        &mut self,
        units: &[Unit],
        orders: &[Order],
        extras: &PhaseExtras<'_>,
        result: &mut MovementResult,
    ) {
        let n = units.len().min(orders.len()).min(NONE as usize / 3);
        self.setup(&units[..n], &orders[..n]);
        // Set after the rules prepared, which saw every unit at strength 1.
        for (slot, &s) in self.slots.iter_mut().zip(extras.strengths) {
            slot.strength = s;
        }
        for k in 0..self.active.len() {
            let u = usize::from(self.active[k]);
            self.resolve(u);
        }
        self.write_result(result);
    }

    /// The variant's rules (a shared handle, so a rule can call back into the resolver).
    fn rules(&self) -> Option<Rc<Vec<Box<dyn ResolverRule>>>> {
        self.rules.clone()
    }

    /// The rule owning decision `d` (at or above the unit count) and its own number for it.
    fn rule_decision(&self, d: usize) -> Option<(usize, usize)> {
        self.rule_decisions
            .iter()
            .position(|&(first, count)| d >= first && d < first + count)
            .map(|i| (i, d - self.rule_decisions[i].0))
    }

    /// The units whose orders are of one kind, in the order of the input.
    fn of_kind(&self, kind: Kind) -> &[u16] {
        &self.by_kind[kind as usize]
    }

    /// The unit standing (at the start of the phase) in a province.
    fn unit_in(&self, province: u16) -> Option<usize> {
        let u = self.places[usize::from(province)].unit;
        (u != NONE).then_some(usize::from(u))
    }

    /// The unit in `u`'s destination, if it moves back into `u`'s province directly (neither
    /// move by convoy or by a route a rule decides).
    fn head_to_head(&self, u: usize) -> Option<usize> {
        let d = self.slots[u].opponent;
        (d != NONE).then_some(usize::from(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interchange::{GameState, position_from_state};
    use crate::order::{OrderContext, parse_order};
    use crate::phase::PhaseKind;

    #[test]
    fn every_unit_that_stays_in_a_province_of_two_is_dislodged_by_the_move_into_it() {
        use crate::ids::{PowerId, UnitType};
        use crate::order::UnitRef;
        let variant = crate::variant::builtin("standard").expect("built in").expect("loads");
        let map = &variant.map;
        let at = |name: &str| map.province(map.province_by_abbreviation(name).expect(name)).main;
        let army = |power: u8, place: &str| Unit {
            power: PowerId(power),
            kind: UnitType::Army,
            location: at(place),
        };
        let units = [army(1, "par"), army(1, "par"), army(2, "bur"), army(2, "pic")];
        let mover = UnitRef::new(UnitType::Army, at("bur"));
        let mut orders = [
            Order::hold(UnitType::Army, at("par")),
            Order::hold(UnitType::Army, at("par")),
            Order::Move {
                unit: mover,
                to: at("par"),
                via_convoy: false,
            },
            Order::SupportMove {
                unit: UnitRef::new(UnitType::Army, at("pic")),
                supported: mover,
                to: at("par"),
            },
        ];
        let mut adjudicator = Adjudicator::new(map);
        let mut result = MovementResult::default();
        adjudicator.adjudicate(&units, &orders, &mut result);
        let bur = Some(map.province_by_abbreviation("bur").expect("bur"));
        assert!(result.moved[2]);
        assert_eq!(result.units[0].dislodged_by, bur);
        assert_eq!(result.units[1].dislodged_by, bur);
        // The second unit leaves: only the first one is dislodged.
        orders[1] = Order::Move {
            unit: UnitRef::new(UnitType::Army, at("par")),
            to: at("gas"),
            via_convoy: false,
        };
        adjudicator.adjudicate(&units, &orders, &mut result);
        assert!(result.moved[1] && result.moved[2]);
        assert_eq!(result.units[0].dislodged_by, bur);
        assert_eq!(result.units[1].dislodged_by, None);
    }

    #[test]
    fn a_stronger_unit_needs_more_support_to_be_dislodged() {
        let variant = crate::variant::builtin("standard").expect("built in").expect("loads");
        let map = &variant.map;
        let state: GameState = serde_json::from_str(
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}}"#,
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
        let mut orders: Vec<Order> = position.units.iter().map(|u| Order::hold(u.kind, u.location)).collect();
        for text in ["A Mun - Bur", "A Ruh S A Mun - Bur"] {
            let order = parse_order(&ctx, text).expect("legal").order;
            let i = position
                .units
                .iter()
                .position(|u| Some(u.location) == order.unit().map(|r| r.location))
                .expect("unit");
            orders[i] = order;
        }
        let burgundy = position.units.iter().position(|u| u.power.0 == 2).expect("french unit");
        let mut adjudicator = Adjudicator::new(map);
        let mut result = MovementResult::default();
        adjudicator.adjudicate(&position.units, &orders, &mut result);
        assert!(result.units[burgundy].dislodged_by.is_some(), "two beat one");
        let mut strengths = vec![1; position.units.len()];
        strengths[burgundy] = 2;
        let extras = PhaseExtras { strengths: &strengths };
        adjudicator.adjudicate_with(&position.units, &orders, &extras, &mut result);
        assert!(
            result.units[burgundy].dislodged_by.is_none(),
            "two do not beat a unit of strength two"
        );
    }
}
