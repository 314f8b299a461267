//! The resolver's hook for variant rules: a [`ResolverRule`] adds decisions of its own to the
//! movement resolver (a canal passage, a railroad step), may take over orders the core does not
//! know (a railroad ride) and the route of a move (a move through a canal), and has its say where
//! the core's equations need it (a train bouncing a move, the paradox rule of its decisions).
//!
//! A rule reads the phase through the accessors below; between [`ResolverRule::prepare`] and the
//! end of the phase its own state is read-only. The standard game has no resolver rule: the core
//! then pays one comparison at each hook.

use super::{Adjudicator, Kind, NO_RULE, NONE};
use crate::adjudicate::outcome::Outcome;
use crate::ids::{LocationId, PowerId, ProvinceId};
use crate::map::Map;
use crate::order::Order;
use crate::position::Unit;

/// A variant rule's part inside the movement resolver. Every method but [`prepare`] has a default
/// that leaves the core's answer alone; `u` is a unit's index in the phase, `k` one of the
/// rule's own decisions (numbered from 0).
///
/// [`prepare`]: ResolverRule::prepare
pub trait ResolverRule {
    /// Reads the phase's units and orders before anything is decided: claims the orders and
    /// routes the rule decides ([`Adjudicator::claim_move`], [`Adjudicator::claim_route`],
    /// [`Adjudicator::claim_outcome`]) and returns how many decisions of its own it needs.
    /// `first_decision` is the resolver's id of its decision 0.
    fn prepare(&mut self, r: &mut Adjudicator<'_>, units: &[Unit], orders: &[Order], first_decision: usize) -> usize;

    /// Decides the rule's decision `k`.
    fn decide(&self, _r: &mut Adjudicator<'_>, _k: usize) -> bool {
        false
    }

    /// Whether a move whose route the rule claimed has its route (the core's `path`).
    fn route(&self, _r: &mut Adjudicator<'_>, _u: usize) -> bool {
        true
    }

    /// Whether a move the rule claimed reaches its destination.
    fn moves(&self, _r: &mut Adjudicator<'_>, _u: usize) -> bool {
        false
    }

    /// Where a move the rule claimed ends, if it leaves its province at all.
    fn end(&self, _r: &mut Adjudicator<'_>, _u: usize) -> Option<ProvinceId> {
        None
    }

    /// Whether the rule decides an ordinary move `u` with this attack strength before the core
    /// does (a train standing in the way).
    fn decides_move(&self, _r: &mut Adjudicator<'_>, _u: usize, _attack: u32) -> Option<bool> {
        None
    }

    /// The province of the unit of this rule that stopped the failed move `u`, if it was one.
    fn bounce_cause(&self, _r: &mut Adjudicator<'_>, _u: usize) -> Option<ProvinceId> {
        None
    }

    /// The outcome of a unit whose order, route or outcome the rule claimed, if the rule names it.
    fn outcome(&self, _r: &mut Adjudicator<'_>, _u: usize) -> Option<Outcome> {
        None
    }

    /// Whether an attack by `attacker` (of another power, from elsewhere than the province the
    /// support goes into, with its route) cuts support `u`; `None` leaves the core's answer: it
    /// does. A dislodged supporter's support is always cut.
    fn cuts_support(&self, _r: &mut Adjudicator<'_>, _u: usize, _attacker: usize) -> Option<bool> {
        None
    }

    /// What support `u`, which holds, adds to the supported order; `None` leaves the core's: 1.
    fn support_weight(&self, _r: &mut Adjudicator<'_>, _u: usize) -> Option<u32> {
        None
    }

    /// Whether decision `k` fails in a paradox the way a convoy does (Szykman): a passage.
    fn fails_in_paradox(&self, _k: usize) -> bool {
        false
    }

    /// Whether decision `k` is movement: a cycle of movement only succeeds as a circle.
    fn is_movement(&self, _k: usize) -> bool {
        false
    }

    /// The rule's own paradox rule for a cycle (the resolver's decision ids of its members): a
    /// decision of the rule that fails, settling the cycle. `two_solutions`: both guesses were
    /// consistent; otherwise none was.
    fn settle_paradox(&self, _r: &Adjudicator<'_>, _cycle: &[u16], _two_solutions: bool) -> Option<usize> {
        None
    }
}

/// What a rule may read and claim of a phase.
impl Adjudicator<'_> {
    /// The map of the phase.
    pub fn map(&self) -> &Map {
        self.map
    }

    /// The number of units in the phase.
    pub fn unit_count(&self) -> usize {
        self.slots.len()
    }

    /// The province unit `u` starts in.
    pub fn origin(&self, u: usize) -> ProvinceId {
        ProvinceId(self.slots[u].origin)
    }

    /// The province unit `u` moves to, supports into or convoys to (its own for a hold).
    pub fn target(&self, u: usize) -> ProvinceId {
        let slot = &self.slots[u];
        match slot.target {
            NONE => ProvinceId(slot.origin),
            t => ProvinceId(t),
        }
    }

    /// The power of unit `u`.
    pub fn power(&self, u: usize) -> PowerId {
        PowerId(self.slots[u].power)
    }

    /// Unit `u`'s own strength before supports.
    pub fn strength(&self, u: usize) -> u32 {
        self.slots[u].strength
    }

    /// Whether unit `u` was ordered an ordinary move (by land, by convoy or by a claimed route).
    pub fn is_move(&self, u: usize) -> bool {
        self.slots[u].kind == Kind::Move
    }

    /// Whether unit `u` moves straight over a border (no convoy, no claimed route): the only
    /// moves that meet head to head.
    pub fn is_direct_move(&self, u: usize) -> bool {
        let slot = &self.slots[u];
        slot.kind == Kind::Move && !slot.convoyed && slot.rule_of == NO_RULE
    }

    /// The unit standing in a province at the start of the phase.
    pub fn occupant(&self, province: ProvinceId) -> Option<usize> {
        let u = self.places[province.index()].unit;
        (u != NONE).then_some(usize::from(u))
    }

    /// The first unit moving to a province (ordinary moves only), to walk with
    /// [`Adjudicator::next_attacker`].
    pub fn first_attacker(&self, province: ProvinceId) -> Option<usize> {
        let a = self.places[province.index()].first_attacker;
        (a != NONE).then_some(usize::from(a))
    }

    /// The next unit moving to the same province as attacker `u`.
    pub fn next_attacker(&self, u: usize) -> Option<usize> {
        let a = self.slots[u].next_attacker;
        (a != NONE).then_some(usize::from(a))
    }

    /// Resolves decision `d` (a unit's order for `d` below the unit count, else a rule's).
    pub fn decision(&mut self, d: usize) -> bool {
        self.resolve(d)
    }

    /// Whether decision `d` was ruled out by a paradox rule.
    pub fn is_paradox(&self, d: usize) -> bool {
        self.decisions[d].paradox
    }

    /// Whether unit `u` stays where it is: it was not ordered to move, or its move failed.
    pub fn stays(&mut self, u: usize) -> bool {
        !(self.slots[u].kind == Kind::Move && self.resolve(u))
    }

    /// The supports given to unit `u`'s order that hold.
    pub fn support_count(&mut self, u: usize) -> u32 {
        self.supports(u, None)
    }

    /// The first unit attacking unit `u`'s province that would cut its support under the
    /// standard rules: another power's, from elsewhere than the province it supports into, with a
    /// route.
    pub fn cutting_attacker_of(&mut self, u: usize) -> Option<usize> {
        self.standard_cutting_attacker(u, |_, _| true)
    }

    /// The strength with which move `u` keeps others out of its destination.
    pub fn prevent_strength_of(&mut self, u: usize) -> u32 {
        self.prevent_strength(u)
    }

    /// Whether another move to `u`'s destination keeps out a move of this attack strength.
    pub fn prevented_by_another(&mut self, u: usize, attack: u32) -> bool {
        self.prevented(u, attack)
    }

    /// During [`ResolverRule::prepare`]: the rule decides unit `u`'s move to `to` (an order kind
    /// the core does not know). Supports may name it like a move.
    pub fn claim_move(&mut self, u: usize, to: LocationId) {
        let target = self.map.province_of(to).0;
        let slot = &mut self.slots[u];
        slot.kind = Kind::RuledMove;
        slot.convoyed = false;
        slot.target = target;
        slot.target_location = to.0;
        slot.rule_of = self.preparing;
    }

    /// During [`ResolverRule::prepare`]: the rule decides whether move `u` has its route.
    pub fn claim_route(&mut self, u: usize) {
        if self.slots[u].kind == Kind::Move {
            self.slots[u].rule_of = self.preparing;
        }
    }

    /// During [`ResolverRule::prepare`]: the rule names the outcome of unit `u`, which holds.
    pub fn claim_outcome(&mut self, u: usize) {
        if self.slots[u].kind == Kind::Hold {
            self.slots[u].rule_of = self.preparing;
        }
    }
}
