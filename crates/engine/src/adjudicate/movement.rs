//! Movement adjudication: the DATC's decision equations (section 5.B) solved by the guess
//! algorithm with cycle detection (section 5.F), with the convoy-paradox fix of section 5.D and
//! the Szykman rule as backup. All working state lives in buffers sized once per map, so
//! adjudicating a phase allocates nothing once the buffers have grown; a dropped adjudicator
//! leaves them to the next one made on the same thread.

use std::rc::Rc;

use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::ids::{LocationId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::Order;
use crate::order::model::Cargo;
use crate::position::Unit;

mod hooks;
mod spare;

pub use hooks::ResolverRule;

const NONE: u16 = u16::MAX;
/// `rule_of` of a unit no rule claimed.
const NO_RULE: u8 = u8::MAX;

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
    // Per province.
    unit_at: Vec<u16>,
    first_attacker: Vec<u16>,
    // Per unit.
    kind: Vec<Kind>,
    power: Vec<u8>,
    origin: Vec<u16>,
    target: Vec<u16>,
    /// The location (coast) named as destination by moves and move supports.
    target_location: Vec<u16>,
    source: Vec<u16>,
    next_attacker: Vec<u16>,
    first_support: Vec<u16>,
    next_support: Vec<u16>,
    first_convoy: Vec<u16>,
    next_convoy: Vec<u16>,
    convoyed: Vec<bool>,
    matched: Vec<bool>,
    /// A unit's own strength before supports (1 in the standard rules; variants may change it).
    strength: Vec<u32>,
    /// The rule that claimed the unit's move, route or outcome (`NO_RULE`: none).
    rule_of: Vec<u8>,
    // Resolution state, per decision: the units' orders, then each rule's decisions.
    resolved: Vec<bool>,
    visited: Vec<bool>,
    in_cycle: Vec<bool>,
    resolution: Vec<bool>,
    paradox: Vec<bool>,
    cycle: Vec<u16>,
    guess_based: bool,
    recursion_hits: u32,
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
        for (u, s) in self.strength.iter_mut().enumerate() {
            *s = extras.strengths.get(u).copied().unwrap_or(1);
        }
        for u in 0..n {
            if self.kind[u] != Kind::Hold {
                self.resolve(u);
            }
        }
        self.write_result(n, result);
    }

    fn setup(&mut self, units: &[Unit], orders: &[Order]) {
        let map = self.map;
        let n = units.len();
        self.unit_at.fill(NONE);
        self.first_attacker.fill(NONE);
        for v in [
            &mut self.origin,
            &mut self.target,
            &mut self.target_location,
            &mut self.source,
            &mut self.next_attacker,
            &mut self.first_support,
            &mut self.next_support,
            &mut self.first_convoy,
            &mut self.next_convoy,
        ] {
            v.clear();
            v.resize(n, NONE);
        }
        for v in [&mut self.convoyed, &mut self.matched] {
            v.clear();
            v.resize(n, false);
        }
        self.rule_of.clear();
        self.rule_of.resize(n, NO_RULE);
        self.kind.clear();
        self.power.clear();
        self.strength.clear();
        self.strength.resize(n, 1);
        self.cycle.clear();
        self.guess_based = false;
        self.recursion_hits = 0;
        let province = |l| map.province_of(l).0;
        for (i, (unit, order)) in units.iter().zip(orders).enumerate() {
            let here = province(unit.location);
            self.unit_at[usize::from(here)] = i as u16;
            self.origin[i] = here;
            self.power.push(unit.power.0);
            let kind = match *order {
                Order::Move { to, .. } => {
                    self.target[i] = province(to);
                    self.target_location[i] = to.0;
                    Kind::Move
                }
                Order::SupportHold { supported, .. } => {
                    self.target[i] = province(supported.location);
                    Kind::SupportHold
                }
                Order::SupportMove { supported, to, .. } => {
                    self.source[i] = province(supported.location);
                    self.target[i] = province(to);
                    self.target_location[i] = to.0;
                    Kind::SupportMove
                }
                Order::Convoy { army, to, cargo, .. } if unit.kind == UnitType::Fleet && cargo != Cargo::Leader => {
                    self.source[i] = province(army);
                    self.target[i] = province(to);
                    Kind::Convoy
                }
                _ => Kind::Hold,
            };
            self.kind.push(kind);
        }
        let decisions = n + self.prepare_rules(units, orders);
        for v in [
            &mut self.resolved,
            &mut self.visited,
            &mut self.in_cycle,
            &mut self.resolution,
            &mut self.paradox,
        ] {
            v.clear();
            v.resize(decisions, false);
        }
        self.link_orders(units, orders);
        self.find_convoyed(units, orders);
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

    /// Attackers per province; supports and convoys matched to the orders they name.
    /// Links supports and convoys to the orders they name. A support or convoy names a led unit
    /// (`S LA Vie - Boh`) exactly when that unit is ordered with its leader (Hegemony 3.1.5.5).
    fn link_orders(&mut self, units: &[Unit], orders: &[Order]) {
        let led = |o: &Order| o.unit().is_some_and(|u| u.led);
        let map = self.map;
        let n = units.len();
        for i in (0..n).rev() {
            if self.kind[i] == Kind::Move {
                let t = usize::from(self.target[i]);
                self.next_attacker[i] = self.first_attacker[t];
                self.first_attacker[t] = i as u16;
            }
        }
        for i in (0..n).rev() {
            match self.kind[i] {
                Kind::SupportHold | Kind::SupportMove => {
                    let at = if self.kind[i] == Kind::SupportHold {
                        self.target[i]
                    } else {
                        self.source[i]
                    };
                    let s = self.unit_at[usize::from(at)];
                    if s == NONE {
                        continue;
                    }
                    let s = usize::from(s);
                    let matches = match self.kind[i] {
                        Kind::SupportHold => !matches!(self.kind[s], Kind::Move | Kind::RuledMove),
                        // A coast named by the support must be the coast the move goes to.
                        _ => {
                            matches!(self.kind[s], Kind::Move | Kind::RuledMove)
                                && self.target[s] == self.target[i]
                                && (map.location(LocationId(self.target_location[i])).coast.is_none()
                                    || self.target_location[i] == self.target_location[s])
                        }
                    };
                    let names_led = match orders[i] {
                        Order::SupportHold { supported, .. } | Order::SupportMove { supported, .. } => supported.led,
                        _ => false,
                    };
                    if matches && names_led == led(&orders[s]) {
                        self.matched[i] = true;
                        self.next_support[i] = self.first_support[s];
                        self.first_support[s] = i as u16;
                    }
                }
                Kind::Convoy => {
                    let a = self.unit_at[usize::from(self.source[i])];
                    if a == NONE {
                        continue;
                    }
                    let a = usize::from(a);
                    let names_led = matches!(
                        orders[i],
                        Order::Convoy {
                            cargo: Cargo::LedArmy,
                            ..
                        }
                    );
                    if units[a].kind == UnitType::Army
                        && self.kind[a] == Kind::Move
                        && self.target[a] == self.target[i]
                        && names_led == led(&orders[a])
                    {
                        self.matched[i] = true;
                        self.next_convoy[i] = self.first_convoy[a];
                        self.first_convoy[a] = i as u16;
                    }
                }
                _ => {}
            }
        }
    }

    /// Which moves go by convoy: a move that is not adjacent, or is ordered via convoy, or is
    /// convoyed by a fleet of the army's own power (2000/2023 rules, DATC 4.A.3 without
    /// fallback to the land route).
    fn find_convoyed(&mut self, units: &[Unit], orders: &[Order]) {
        for (i, (unit, order)) in units.iter().zip(orders).enumerate() {
            if let Order::Move { to, via_convoy, .. } = *order {
                if unit.kind != UnitType::Army || self.kind[i] != Kind::Move {
                    continue;
                }
                let adjacent = self.map.is_adjacent(unit.kind, unit.location, to);
                let own_fleet = {
                    let mut c = self.first_convoy[i];
                    let mut found = false;
                    while c != NONE {
                        found |= self.power[usize::from(c)] == self.power[i];
                        c = self.next_convoy[usize::from(c)];
                    }
                    found
                };
                self.convoyed[i] = !adjacent || via_convoy || own_fleet;
            }
        }
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

    // ----- the generic resolve function (DATC 5.F, with recursion hits) -----

    fn resolve(&mut self, u: usize) -> bool {
        if self.resolved[u] {
            return self.resolution[u];
        }
        if self.in_cycle[u] {
            self.guess_based = true;
            return self.resolution[u];
        }
        if self.visited[u] {
            self.in_cycle[u] = true;
            self.cycle.push(u as u16);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.resolution[u];
        }
        self.visited[u] = true;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_recursion_hits = self.recursion_hits;
        self.resolution[u] = false;
        let first = self.adjudicate_order(u);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.resolution[u] = first;
            self.resolved[u] = true;
            return first;
        }
        let hit_itself = self.in_cycle[u];
        if hit_itself {
            self.recursion_hits -= 1;
        }
        // Only an order that was itself hit deeper in the recursion can be the ancestor of the
        // cycle; one that merely read guesses of a cycle's members waits for that cycle.
        if hit_itself && self.recursion_hits == old_recursion_hits {
            self.clear_cycle(old_cycle_len);
            self.resolution[u] = true;
            let second = self.adjudicate_order(u);
            // The cycle is settled by the two guesses: hits inside it no longer count for
            // enclosing cycles.
            self.recursion_hits = old_recursion_hits;
            if first == second {
                self.clear_cycle(old_cycle_len);
                self.guess_based = old_guess_based;
                self.resolution[u] = first;
                self.resolved[u] = true;
                self.visited[u] = false;
                return first;
            }
            self.backup_rule(old_cycle_len, !first && second);
            self.clear_cycle(old_cycle_len);
            self.guess_based = old_guess_based;
            self.visited[u] = false;
            return self.resolve(u);
        }
        if !self.in_cycle[u] {
            self.in_cycle[u] = true;
            self.cycle.push(u as u16);
        }
        self.resolution[u] = first;
        self.visited[u] = false;
        first
    }

    fn clear_cycle(&mut self, from: usize) {
        for &c in &self.cycle[from..] {
            self.in_cycle[usize::from(c)] = false;
        }
        self.cycle.truncate(from);
    }

    /// The backup rule for a cycle with no single resolution. `two_solutions`: both guesses were
    /// consistent; otherwise none was.
    ///
    /// - A rule's own paradox rule settles the decision it names (the railroad paradox rule).
    /// - Convoys, or rule decisions that are passages, in the cycle: they fail (Szykman, and its
    ///   canal version).
    /// - Otherwise, if no rule settled the cycle, a circular movement (moves and rule decisions
    ///   that are movement) succeeds, and anything else (variants) fails.
    fn backup_rule(&mut self, from: usize, two_solutions: bool) {
        let n = self.kind.len();
        let rules = self.rules();
        let rule_says = |s: &Self, d: usize, f: &dyn Fn(&dyn ResolverRule, usize) -> bool| {
            let (Some(rules), Some((i, k))) = (&rules, s.rule_decision(d)) else {
                return false;
            };
            f(rules[i].as_ref(), k)
        };
        let fails_like_convoy = |s: &Self, d: usize| {
            if d < n {
                s.kind[d] == Kind::Convoy
            } else {
                rule_says(s, d, &|r, k| r.fails_in_paradox(k))
            }
        };
        let has_szykman = self.cycle[from..]
            .iter()
            .any(|&c| fails_like_convoy(self, usize::from(c)));
        let only_moves = self.cycle[from..].iter().all(|&c| {
            let d = usize::from(c);
            if d < n {
                matches!(self.kind[d], Kind::Move | Kind::RuledMove)
            } else {
                rule_says(self, d, &|r, k| r.is_movement(k))
            }
        });
        let settled_by_rule: Vec<usize> = rules
            .iter()
            .flat_map(|rules| rules.iter())
            .filter_map(|rule| rule.settle_paradox(self, &self.cycle[from..], two_solutions))
            .collect();
        for k in from..self.cycle.len() {
            let c = usize::from(self.cycle[k]);
            self.visited[c] = false;
        }
        for &d in &settled_by_rule {
            self.resolved[d] = true;
            self.resolution[d] = false;
            self.paradox[d] = true;
        }
        if has_szykman {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                if fails_like_convoy(self, c) {
                    self.resolved[c] = true;
                    self.resolution[c] = false;
                    self.paradox[c] = true;
                }
            }
        } else if settled_by_rule.is_empty() {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                // A rule's move follows from the rule's decisions.
                if c < n && self.kind[c] == Kind::RuledMove {
                    continue;
                }
                self.resolved[c] = true;
                self.resolution[c] = only_moves;
            }
        }
        // Every backup settles at least one decision of the cycle, so resolving ends.
        let settled = self.cycle[from..].iter().any(|&c| self.resolved[usize::from(c)]);
        if !settled {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                self.resolved[c] = true;
                self.resolution[c] = false;
            }
        }
    }

    // ----- the decision equations (DATC 5.B) -----

    fn adjudicate_order(&mut self, u: usize) -> bool {
        let n = self.kind.len();
        if u >= n {
            return match (self.rules(), self.rule_decision(u)) {
                (Some(rules), Some((i, k))) => rules[i].decide(self, k),
                _ => false,
            };
        }
        match self.kind[u] {
            Kind::RuledMove => self.ruled_move(u),
            Kind::Move => self.adjudicate_move(u),
            Kind::SupportHold | Kind::SupportMove => self.adjudicate_support(u),
            Kind::Convoy => self.adjudicate_convoy(u),
            Kind::Hold => true,
        }
    }

    /// Whether a move a rule claimed reaches its destination.
    fn ruled_move(&mut self, u: usize) -> bool {
        match self.rules() {
            Some(rules) => rules[usize::from(self.rule_of[u])].moves(self, u),
            None => false,
        }
    }

    /// Whether a unit whose move a rule claimed leaves its province.
    fn ruled_moves_away(&mut self, u: usize) -> bool {
        match self.rules() {
            Some(rules) => rules[usize::from(self.rule_of[u])].end(self, u).is_some(),
            None => false,
        }
    }

    /// The unit standing (at the start of the phase) in a province.
    fn unit_in(&self, province: u16) -> Option<usize> {
        let u = self.unit_at[usize::from(province)];
        (u != NONE).then_some(usize::from(u))
    }

    /// The unit in `u`'s destination, if it moves back into `u`'s province directly (neither
    /// move by convoy or by a route a rule decides).
    fn head_to_head(&self, u: usize) -> Option<usize> {
        if self.convoyed[u] || self.rule_of[u] != NO_RULE {
            return None;
        }
        let d = self.unit_in(self.target[u])?;
        (self.kind[d] == Kind::Move
            && self.target[d] == self.origin[u]
            && !self.convoyed[d]
            && self.rule_of[d] == NO_RULE)
            .then_some(d)
    }

    fn adjudicate_move(&mut self, u: usize) -> bool {
        let attack = self.attack_strength(u);
        if attack == 0 {
            return false;
        }
        if self.rules.is_some() {
            if let Some(decided) = self.rule_decides_move(u, attack) {
                return decided;
            }
        }
        match self.head_to_head(u) {
            Some(d) => {
                if attack <= self.defend_strength(d) {
                    return false;
                }
            }
            None => {
                if attack <= self.hold_strength(self.target[u]) {
                    return false;
                }
            }
        }
        !self.prevented(u, attack)
    }

    /// Whether another unit moving to `u`'s destination prevents `u` with this attack strength.
    fn prevented(&mut self, u: usize, attack: u32) -> bool {
        let mut o = self.first_attacker[usize::from(self.target[u])];
        while o != NONE {
            let other = usize::from(o);
            if other != u && attack <= self.prevent_strength(other) {
                return true;
            }
            o = self.next_attacker[other];
        }
        false
    }

    /// Whether a rule decides an ordinary move before the core does.
    #[cold]
    #[inline(never)]
    fn rule_decides_move(&mut self, u: usize, attack: u32) -> Option<bool> {
        let rules = self.rules()?;
        rules.iter().find_map(|rule| rule.decides_move(self, u, attack))
    }

    fn adjudicate_support(&mut self, u: usize) -> bool {
        let here = self.origin[u];
        let mut a = self.first_attacker[usize::from(here)];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            if self.power[attacker] == self.power[u] {
                continue;
            }
            let from_supported_target = self.kind[u] == Kind::SupportMove && self.origin[attacker] == self.target[u];
            if !from_supported_target {
                if self.path(attacker) && (self.rules.is_none() || self.rule_cuts(u, attacker)) {
                    return false;
                }
            } else if self.resolve(attacker) {
                // The attack on the supporter from the province it supports into dislodges it.
                return false;
            }
        }
        true
    }

    /// Whether the rules let this attack cut support `u` (the first rule with an answer decides).
    #[cold]
    #[inline(never)]
    fn rule_cuts(&mut self, u: usize, attacker: usize) -> bool {
        let Some(rules) = self.rules() else { return true };
        rules
            .iter()
            .find_map(|rule| rule.cuts_support(self, u, attacker))
            .unwrap_or(true)
    }

    /// What a holding support adds under the rules (the first rule with an answer decides).
    #[cold]
    #[inline(never)]
    fn rule_support_weight(&mut self, u: usize) -> u32 {
        let Some(rules) = self.rules() else { return 1 };
        rules.iter().find_map(|rule| rule.support_weight(self, u)).unwrap_or(1)
    }

    fn adjudicate_convoy(&mut self, u: usize) -> bool {
        // Not dislodged. The attackers are adjudicated directly rather than resolved (DATC 5.D),
        // which keeps convoy paradox cycles clean.
        let mut a = self.first_attacker[usize::from(self.origin[u])];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            if self.adjudicate_move(attacker) {
                return false;
            }
        }
        true
    }

    /// Whether the move has a route: over land, or through a chain of successfully convoying fleets.
    fn path(&mut self, u: usize) -> bool {
        if self.rule_of[u] != NO_RULE {
            return self.rule_route(u);
        }
        if !self.convoyed[u] {
            return true;
        }
        self.convoy_route(u, None)
    }

    /// Whether a rule that claimed move `u`'s route opens it.
    #[cold]
    #[inline(never)]
    fn rule_route(&mut self, u: usize) -> bool {
        match self.rules() {
            Some(rules) => rules[usize::from(self.rule_of[u])].route(self, u),
            None => true,
        }
    }

    /// Searches a chain of convoying fleets (resolved successful) from the army's province to its
    /// destination. With `through`, the chain must contain that fleet.
    fn convoy_route(&mut self, u: usize, through: Option<usize>) -> bool {
        let from = ProvinceId(self.origin[u]);
        let to = ProvinceId(self.target[u]);
        // Fleets on the list are numbered by their position in it; at most 128 are tracked.
        let mut fleets = [NONE; 128];
        let mut count = 0;
        let mut c = self.first_convoy[u];
        while c != NONE && count < fleets.len() {
            let f = usize::from(c);
            c = self.next_convoy[f];
            if !self.paradox[f] && self.resolve(f) {
                fleets[count] = f as u16;
                count += 1;
            }
        }
        let reached = self.reach(&fleets[..count], from);
        let touches = |f: u16, p: ProvinceId| self.fleet_touches(f, p);
        match through {
            None => fleets[..count]
                .iter()
                .enumerate()
                .any(|(k, &f)| reached & (1 << k) != 0 && touches(f, to)),
            Some(x) => {
                // On a route: reached from the army's side and from the destination's side.
                let Some(kx) = fleets[..count].iter().position(|&f| usize::from(f) == x) else {
                    return false;
                };
                reached & (1 << kx) != 0 && self.reach(&fleets[..count], to) & (1 << kx) != 0
            }
        }
    }

    /// Whether the fleet of unit `f` touches province `p`.
    fn fleet_touches(&self, f: u16, p: ProvinceId) -> bool {
        let location = self.map.province(ProvinceId(self.origin[usize::from(f)])).main;
        self.map.can_reach_province(UnitType::Fleet, location, p)
    }

    /// The fleets of `fleets` (as bits by position) joined to province `start` by a chain of them.
    fn reach(&self, fleets: &[u16], start: ProvinceId) -> u128 {
        let mut reached: u128 = 0;
        let mut frontier: u128 = 0;
        for (k, &f) in fleets.iter().enumerate() {
            if self.fleet_touches(f, start) {
                frontier |= 1 << k;
            }
        }
        while frontier != 0 {
            reached |= frontier;
            let mut next: u128 = 0;
            for (k, &fk) in fleets.iter().enumerate() {
                if reached & (1 << k) != 0 {
                    continue;
                }
                let pk = ProvinceId(self.origin[usize::from(fk)]);
                let mut bits = frontier;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.fleet_touches(fleets[j], pk) {
                        next |= 1 << k;
                        break;
                    }
                }
            }
            frontier = next;
        }
        reached
    }

    fn supports(&mut self, u: usize, exclude_power: Option<u8>) -> u32 {
        let mut count = 0;
        let mut s = self.first_support[u];
        while s != NONE {
            let supporter = usize::from(s);
            s = self.next_support[supporter];
            if exclude_power == Some(self.power[supporter]) {
                continue;
            }
            if self.resolve(supporter) {
                count += if self.rules.is_some() {
                    self.rule_support_weight(supporter)
                } else {
                    1
                };
            }
        }
        count
    }

    fn hold_strength(&mut self, province: u16) -> u32 {
        let Some(d) = self.unit_in(province) else { return 0 };
        if self.kind[d] == Kind::RuledMove {
            return if self.ruled_moves_away(d) { 0 } else { self.strength[d] };
        }
        if self.kind[d] == Kind::Move {
            return if self.resolve(d) { 0 } else { self.strength[d] };
        }
        self.strength[d] + self.supports(d, None)
    }

    fn attack_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        let h2h = self.head_to_head(u);
        let occupant = self.unit_in(self.target[u]);
        let moves_away = match occupant {
            None => true,
            Some(d) if self.kind[d] == Kind::RuledMove => self.ruled_moves_away(d),
            Some(d) => h2h.is_none() && self.kind[d] == Kind::Move && self.resolve(d),
        };
        match occupant {
            Some(d) if !moves_away => {
                if self.power[d] == self.power[u] {
                    0
                } else {
                    self.strength[u] + self.supports(u, Some(self.power[d]))
                }
            }
            _ => self.strength[u] + self.supports(u, None),
        }
    }

    fn defend_strength(&mut self, u: usize) -> u32 {
        self.strength[u] + self.supports(u, None)
    }

    fn prevent_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        if let Some(d) = self.head_to_head(u) {
            if self.resolve(d) {
                return 0;
            }
        }
        self.strength[u] + self.supports(u, None)
    }

    // ----- results -----

    fn write_result(&mut self, n: usize, result: &mut MovementResult) {
        result.units.clear();
        result.moved.clear();
        result.convoyed.clear();
        result.contested.clear();
        result.contested.resize(self.map.provinces().len(), false);
        result.rail_end = None;
        result.units.reserve(n);
        result.moved.reserve(n);
        result.convoyed.reserve(n);
        for u in 0..n {
            let moved = match self.kind[u] {
                Kind::Move => self.resolution[u],
                Kind::RuledMove => {
                    let end = self
                        .rules()
                        .and_then(|rules| rules[usize::from(self.rule_of[u])].end(self, u));
                    if let Some(end) = end {
                        result.rail_end = Some((u, self.map.province(end).main));
                    }
                    end.is_some()
                }
                _ => false,
            };
            result.moved.push(moved);
            result.convoyed.push(self.kind[u] == Kind::Move && self.convoyed[u]);
        }
        for u in 0..n {
            // Dislodged: a move into this province succeeded and this unit did not leave.
            let mut dislodged_by = None;
            if !result.moved[u] {
                let mut a = self.first_attacker[usize::from(self.origin[u])];
                while a != NONE {
                    let attacker = usize::from(a);
                    if result.moved[attacker] {
                        dislodged_by = Some(ProvinceId(self.origin[attacker]));
                    }
                    a = self.next_attacker[attacker];
                }
            }
            let outcome = self.outcome(u, result, dislodged_by);
            result.units.push(UnitResult { outcome, dislodged_by });
        }
        // Provinces left empty by a bounce (no retreats there).
        for u in 0..n {
            if self.kind[u] != Kind::Move || result.moved[u] || !self.path(u) {
                continue;
            }
            if let Some(d) = self.head_to_head(u) {
                if result.moved[d] {
                    continue;
                }
            }
            result.contested[usize::from(self.target[u])] = true;
        }
        for u in 0..n {
            // An occupied province is never "left empty".
            let stays = !result.moved[u] && result.units[u].dislodged_by.is_none();
            if stays {
                result.contested[usize::from(self.origin[u])] = false;
            }
            if result.moved[u] && self.kind[u] == Kind::Move {
                result.contested[usize::from(self.target[u])] = false;
            }
        }
        // The train stands where it stopped.
        if let Some((_, end)) = result.rail_end {
            result.contested[self.map.province_of(end).index()] = false;
        }
    }

    /// What unit `u`'s order did: the rule's word where a rule claimed it and names one, else
    /// read off the decided orders.
    fn outcome(&mut self, u: usize, result: &MovementResult, dislodged_by: Option<ProvinceId>) -> Outcome {
        if self.rule_of[u] != NO_RULE {
            let ruled = self
                .rules()
                .and_then(|rules| rules[usize::from(self.rule_of[u])].outcome(self, u));
            if let Some(outcome) = ruled {
                return outcome;
            }
        }
        let kind = self.kind[u];
        match kind {
            Kind::Hold => Outcome::Held,
            Kind::RuledMove if result.moved[u] => Outcome::Moved,
            Kind::RuledMove => Outcome::Held,
            Kind::Move if result.moved[u] => Outcome::Moved,
            Kind::Move if self.convoyed[u] && !self.path(u) => Outcome::NoConvoy,
            Kind::Move => Outcome::Bounced {
                against: self.bounce_cause(u),
            },
            Kind::SupportHold | Kind::SupportMove if !self.matched[u] => Outcome::SupportVoid,
            Kind::SupportHold | Kind::SupportMove if self.resolution[u] => Outcome::Supported,
            Kind::SupportHold | Kind::SupportMove => {
                let by = self
                    .cutting_attacker(u)
                    .or(dislodged_by)
                    .unwrap_or(ProvinceId(self.origin[u]));
                Outcome::Cut { by }
            }
            Kind::Convoy if !self.matched[u] => Outcome::ConvoyVoid,
            Kind::Convoy if self.paradox[u] => Outcome::ConvoyParadox,
            Kind::Convoy => {
                let army = self.unit_in(self.source[u]).unwrap_or(u);
                if self.resolution[u] && result.moved[army] && self.convoy_route(army, Some(u)) {
                    Outcome::Convoyed
                } else {
                    Outcome::ConvoyFailed
                }
            }
        }
    }

    /// The province of the unit that stopped a failed move, read off the decided orders: the
    /// head-to-head opponent, else the destination's unit if it stayed, else another unit that
    /// tried to enter the destination.
    fn bounce_cause(&mut self, u: usize) -> ProvinceId {
        if self.rules.is_some() {
            let rules = self.rules();
            let by_rule = rules
                .iter()
                .flat_map(|r| r.iter())
                .find_map(|rule| rule.bounce_cause(self, u));
            if let Some(at) = by_rule {
                return at;
            }
        }
        if let Some(d) = self.head_to_head(u) {
            return ProvinceId(self.origin[d]);
        }
        if let Some(d) = self.unit_in(self.target[u]) {
            if !(self.kind[d] == Kind::Move && self.resolution[d]) {
                return ProvinceId(self.target[u]);
            }
        }
        let mut o = self.first_attacker[usize::from(self.target[u])];
        while o != NONE {
            let other = usize::from(o);
            o = self.next_attacker[other];
            if other != u && self.path(other) {
                return ProvinceId(self.origin[other]);
            }
        }
        ProvinceId(self.target[u])
    }

    /// The province of the attacker that cut support `u`, by the standard rules and the rules'.
    fn cutting_attacker(&mut self, u: usize) -> Option<ProvinceId> {
        let with_rules = self.rules.is_some();
        let a = self.standard_cutting_attacker(u, |r, a| !with_rules || r.rule_cuts(u, a))?;
        Some(ProvinceId(self.origin[a]))
    }

    /// The first attacker of `u`'s province that would cut its support under the standard rules
    /// (another power's, not from the province supported into, with a route) and passes `also`.
    fn standard_cutting_attacker(&mut self, u: usize, also: impl Fn(&mut Self, usize) -> bool) -> Option<usize> {
        let mut a = self.first_attacker[usize::from(self.origin[u])];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            let from_supported_target = self.kind[u] == Kind::SupportMove && self.origin[attacker] == self.target[u];
            if self.power[attacker] != self.power[u]
                && !from_supported_target
                && self.path(attacker)
                && also(self, attacker)
            {
                return Some(attacker);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interchange::{GameState, position_from_state};
    use crate::order::{OrderContext, parse_order};
    use crate::phase::PhaseKind;

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
