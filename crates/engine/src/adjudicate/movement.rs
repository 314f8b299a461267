//! Movement adjudication: the DATC's decision equations (section 5.B) solved by the guess
//! algorithm with cycle detection (section 5.F), with the convoy-paradox fix of section 5.D and
//! the Szykman rule as backup. All working state lives in buffers sized once per map, so
//! adjudicating a phase allocates nothing once the buffers have grown.

use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::{CanalPermission, Order};
use crate::position::Unit;

mod railroad;

const NONE: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hold,
    Move,
    SupportHold,
    SupportMove,
    Convoy,
    /// Riding a railroad (only one unit a phase).
    Rail,
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
    /// The unit that rode a railroad and the place it got to, if it left its province.
    pub rail_end: Option<(usize, LocationId)>,
}

/// What variant rules add to a movement phase besides units and orders.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseExtras<'a> {
    /// Each unit's own strength before supports, by unit index (missing: 1). The hook for rules
    /// that make a unit stronger or weaker (Hegemony's leaders).
    pub strengths: &'a [u32],
    /// Canal passages permitted this phase (Colonial's Suez canal).
    pub permissions: &'a [CanalPermission],
    /// The owner of each province's centre (railroads stop at centres their power does not own);
    /// empty: no such check.
    pub owners: &'a [Option<PowerId>],
}

/// Reusable movement adjudicator for one map.
pub struct Adjudicator<'m> {
    map: &'m Map,
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
    /// For a fleet moving through a canal: the canal province (else `NONE`).
    canal: Vec<u16>,
    /// Canal permissions: (keeper unit, fleet's province, destination province).
    permits: Vec<(u16, u16, u16)>,
    /// The one unit riding a railroad this phase, if any.
    train: Option<usize>,
    /// The provinces the train would pass, in order; the last is its destination.
    train_steps: Vec<u16>,
    /// Per step: a supply centre the railroad's power does not own.
    train_blocked_centre: Vec<bool>,
    /// Units whose railroad move was refused (more than one ordered).
    rail_refused: Vec<bool>,
    /// Where the train bounces other units though its ride fails there (the railroad paradox rule).
    train_bounce_at: Option<u16>,
    // Resolution state.
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
    /// An adjudicator for a map. Its buffers start with room for as many units as the map has
    /// provinces and grow once if a phase needs more (decisions: one per unit, one per unit for
    /// a canal passage, one per railroad step).
    pub fn new(map: &'m Map) -> Self {
        let p = map.provinces().len();
        Adjudicator {
            map,
            unit_at: vec![NONE; p],
            first_attacker: vec![NONE; p],
            kind: Vec::with_capacity(p),
            power: Vec::with_capacity(p),
            origin: Vec::with_capacity(p),
            target: Vec::with_capacity(p),
            target_location: Vec::with_capacity(p),
            source: Vec::with_capacity(p),
            next_attacker: Vec::with_capacity(p),
            first_support: Vec::with_capacity(p),
            next_support: Vec::with_capacity(p),
            first_convoy: Vec::with_capacity(p),
            next_convoy: Vec::with_capacity(p),
            convoyed: Vec::with_capacity(p),
            matched: Vec::with_capacity(p),
            strength: Vec::with_capacity(p),
            canal: Vec::with_capacity(p),
            permits: Vec::with_capacity(p),
            train: None,
            train_steps: Vec::with_capacity(p),
            train_blocked_centre: Vec::with_capacity(p),
            rail_refused: Vec::with_capacity(p),
            train_bounce_at: None,
            resolved: Vec::with_capacity(p),
            visited: Vec::with_capacity(p),
            in_cycle: Vec::with_capacity(p),
            resolution: Vec::with_capacity(p),
            paradox: Vec::with_capacity(p),
            cycle: Vec::with_capacity(p),
            guess_based: false,
            recursion_hits: 0,
        }
    }

    /// Adjudicates one movement phase. `orders[i]` is the (legal) order of `units[i]`; a unit
    /// without an order, or whose order was illegal, must be given `Order::Hold`. Orders of kinds
    /// other than hold, move, railroad move, support and convoy are treated as holds.
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
        self.setup(&units[..n], &orders[..n], extras);
        // One passage per keeper: a later permission of the same unit replaces an earlier one.
        for p in extras.permissions {
            let keeper = self.unit_at[self.map.province_of(p.keeper).index()];
            if keeper != NONE {
                let from = self.map.province_of(p.fleet).0;
                let to = self.map.province_of(p.to).0;
                self.permits.retain(|&(k, _, _)| k != keeper);
                self.permits.push((keeper, from, to));
            }
        }
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

    fn setup(&mut self, units: &[Unit], orders: &[Order], extras: &PhaseExtras<'_>) {
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
        // Decisions: one per unit, and one per unit for the way through a canal.
        for v in [
            &mut self.resolved,
            &mut self.visited,
            &mut self.in_cycle,
            &mut self.resolution,
            &mut self.paradox,
        ] {
            v.clear();
            v.resize(2 * n, false);
        }
        self.canal.clear();
        self.canal.resize(n, NONE);
        self.permits.clear();
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
                Order::Convoy { army, to, .. } if unit.kind == UnitType::Fleet => {
                    self.source[i] = province(army);
                    self.target[i] = province(to);
                    Kind::Convoy
                }
                Order::RailMove { to, .. } if unit.kind == UnitType::Army => {
                    self.target[i] = province(to);
                    self.target_location[i] = to.0;
                    Kind::Rail
                }
                _ => Kind::Hold,
            };
            self.kind.push(kind);
        }
        // The railroad: one army may ride it a phase; when more are ordered, none rides.
        self.train = None;
        self.train_bounce_at = None;
        self.train_steps.clear();
        self.train_blocked_centre.clear();
        self.rail_refused.clear();
        self.rail_refused.resize(n, false);
        let riders = self.kind.iter().filter(|&&k| k == Kind::Rail).count();
        for i in (0..n).filter(|_| riders > 0) {
            if self.kind[i] != Kind::Rail {
                continue;
            }
            let from = ProvinceId(self.origin[i]);
            let to = ProvinceId(self.target[i]);
            let line = map.railroad_between(from, to).map(|r| (r.power, &r.route));
            match line {
                Some((power, route)) if riders == 1 && power.0 == self.power[i] => {
                    let a = route.iter().position(|&p| p == from).unwrap_or(0);
                    let b = route.iter().position(|&p| p == to).unwrap_or(0);
                    let count = a.abs_diff(b);
                    for k in 1..=count {
                        let p = if a < b { route[a + k] } else { route[a - k] };
                        self.train_steps.push(p.0);
                        let centre = map.province(p).centre;
                        let owner = extras.owners.get(p.index()).copied().flatten();
                        self.train_blocked_centre
                            .push(centre && !extras.owners.is_empty() && owner != Some(power));
                    }
                    self.train = Some(i);
                }
                _ => {
                    self.kind[i] = Kind::Hold;
                    self.rail_refused[i] = true;
                }
            }
        }
        if !self.train_steps.is_empty() {
            let decisions = 2 * n + self.train_steps.len();
            for v in [
                &mut self.resolved,
                &mut self.visited,
                &mut self.in_cycle,
                &mut self.resolution,
                &mut self.paradox,
            ] {
                v.resize(decisions, false);
            }
        }
        // Attackers per province.
        for i in (0..n).rev() {
            if self.kind[i] == Kind::Move {
                let t = usize::from(self.target[i]);
                self.next_attacker[i] = self.first_attacker[t];
                self.first_attacker[t] = i as u16;
            }
        }
        // Supports and convoys matched to the orders they name.
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
                        Kind::SupportHold => !matches!(self.kind[s], Kind::Move | Kind::Rail),
                        // A coast named by the support must be the coast the move goes to.
                        _ => {
                            matches!(self.kind[s], Kind::Move | Kind::Rail)
                                && self.target[s] == self.target[i]
                                && (map.location(LocationId(self.target_location[i])).coast.is_none()
                                    || self.target_location[i] == self.target_location[s])
                        }
                    };
                    if matches {
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
                    if units[a].kind == UnitType::Army && self.kind[a] == Kind::Move && self.target[a] == self.target[i]
                    {
                        self.matched[i] = true;
                        self.next_convoy[i] = self.first_convoy[a];
                        self.first_convoy[a] = i as u16;
                    }
                }
                _ => {}
            }
        }
        // Which moves go by convoy: a move that is not adjacent, or is ordered via convoy, or is
        // convoyed by a fleet of the army's own power (2000/2023 rules, DATC 4.A.3 without
        // fallback to the land route).
        for (i, (unit, order)) in units.iter().zip(orders).enumerate() {
            if let Order::Move { to, via_convoy, .. } = *order {
                let adjacent = map.is_adjacent(unit.kind, unit.location, to);
                if unit.kind == UnitType::Fleet && !adjacent {
                    if let Some(c) = map.canal_between(unit.location, to) {
                        self.canal[i] = c.0;
                    }
                }
                let own_fleet = {
                    let mut c = self.first_convoy[i];
                    let mut found = false;
                    while c != NONE {
                        found |= self.power[usize::from(c)] == self.power[i];
                        c = self.next_convoy[usize::from(c)];
                    }
                    found
                };
                self.convoyed[i] = unit.kind == UnitType::Army && (!adjacent || via_convoy || own_fleet);
            }
        }
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
    /// - Convoys or canal passages in the cycle: they fail (Szykman, and its canal version).
    /// - A railroad ride whose bouncing of another unit is part of the cycle, or a cycle through a
    ///   railroad with no consistent resolution: the railroad paradox rule (DATC 7, assumptions) —
    ///   that part of the ride fails but still bounces the units moving there.
    /// - Otherwise a circular movement (moves and railroad steps) succeeds.
    /// - Anything else (variants): every order of the cycle fails.
    fn backup_rule(&mut self, from: usize, two_solutions: bool) {
        let n = self.kind.len();
        let members = from..self.cycle.len();
        let is_convoy = |s: &Self, d: usize| d < n && s.kind[d] == Kind::Convoy;
        let is_canal = |d: usize| d >= n && d < 2 * n;
        let is_step = |d: usize| d >= 2 * n;
        let has_szykman = members.clone().any(|k| {
            let d = usize::from(self.cycle[k]);
            is_convoy(self, d) || is_canal(d)
        });
        // A move into a province of the line that the train's reaching it (its earlier steps,
        // in the cycle) bounces: the farthest such step.
        let in_cycle_decision = |s: &Self, d: usize| s.cycle[from..].iter().any(|&c| usize::from(c) == d);
        let bounced_on_line = members
            .clone()
            .filter_map(|k| {
                let d = usize::from(self.cycle[k]);
                if d >= n || self.kind[d] != Kind::Move {
                    return None;
                }
                let j = self.train_steps.iter().position(|&p| p == self.target[d])?;
                let reach_in_cycle = j > 0 && in_cycle_decision(self, self.step_decision(j - 1));
                (reach_in_cycle || in_cycle_decision(self, self.step_decision(j))).then_some(j)
            })
            .max();
        let last_step = members
            .clone()
            .map(|k| usize::from(self.cycle[k]))
            .filter(|&d| is_step(d))
            .max();
        let railroad_paradox = bounced_on_line.is_some() || (last_step.is_some() && !two_solutions);
        let only_moves = members.clone().all(|k| {
            let d = usize::from(self.cycle[k]);
            is_step(d) || (d < n && matches!(self.kind[d], Kind::Move | Kind::Rail))
        });
        for k in members {
            let c = usize::from(self.cycle[k]);
            self.visited[c] = false;
        }
        if railroad_paradox {
            let step = match bounced_on_line {
                Some(j) => {
                    self.train_bounce_at = Some(self.train_steps[j]);
                    Some(self.step_decision(j))
                }
                None => last_step,
            };
            if let Some(d) = step {
                self.resolved[d] = true;
                self.resolution[d] = false;
                self.paradox[d] = true;
            }
        }
        if has_szykman {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                if is_convoy(self, c) || is_canal(c) {
                    self.resolved[c] = true;
                    self.resolution[c] = false;
                    self.paradox[c] = true;
                }
            }
        } else if !railroad_paradox {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                // The train's arrival follows from its steps.
                if c < n && self.kind[c] == Kind::Rail {
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
        if u >= 2 * n {
            return self.adjudicate_step(u - 2 * n);
        }
        if u >= n {
            return self.adjudicate_canal(u - n);
        }
        match self.kind[u] {
            Kind::Rail => {
                let destination = self.target[u];
                self.train_end() == Some(destination)
            }
            Kind::Move => self.adjudicate_move(u),
            Kind::SupportHold | Kind::SupportMove => self.adjudicate_support(u),
            Kind::Convoy => self.adjudicate_convoy(u),
            Kind::Hold => true,
        }
    }

    /// The unit standing (at the start of the phase) in a province.
    fn occupant(&self, province: u16) -> Option<usize> {
        let u = self.unit_at[usize::from(province)];
        (u != NONE).then_some(usize::from(u))
    }

    /// The unit in `u`'s destination, if it moves back into `u`'s province directly (neither
    /// move by convoy or through a canal).
    fn head_to_head(&self, u: usize) -> Option<usize> {
        if self.convoyed[u] || self.canal[u] != NONE {
            return None;
        }
        let d = self.occupant(self.target[u])?;
        (self.kind[d] == Kind::Move && self.target[d] == self.origin[u] && !self.convoyed[d] && self.canal[d] == NONE)
            .then_some(d)
    }

    /// Whether the canal a fleet moves through is open to it: the unit holding the canal
    /// province stays there all turn, is not dislodged, and permits the passage — explicitly, or (when it
    /// gives no explicit permission) implicitly to the one fleet of its own power passing.
    fn adjudicate_canal(&mut self, u: usize) -> bool {
        let c = self.canal[u];
        let Some(keeper) = self.occupant(c) else { return false };
        // The keeper must stay in the canal province all turn: a move of its that fails keeps it
        // there (DATC 7.C.8, 7.C.14).
        if self.kind[keeper] == Kind::Move && self.resolve(keeper) {
            return false;
        }
        let explicit = self.permits.iter().any(|&(k, _, _)| usize::from(k) == keeper);
        let permitted = if explicit {
            self.permits
                .iter()
                .any(|&(k, from, to)| usize::from(k) == keeper && from == self.origin[u] && to == self.target[u])
        } else {
            let own = self.power[u];
            self.power[keeper] == own
                && (0..self.kind.len())
                    .filter(|&v| self.canal[v] == c && self.power[v] == own)
                    .count()
                    == 1
        };
        if !permitted {
            return false;
        }
        let mut a = self.first_attacker[usize::from(c)];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            if self.resolve(attacker) {
                return false;
            }
        }
        true
    }

    fn adjudicate_move(&mut self, u: usize) -> bool {
        let attack = self.attack_strength(u);
        if attack == 0 {
            return false;
        }
        if self.train.is_some() {
            if let Some(decided) = self.move_against_train(u, attack) {
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

    /// How the train decides a move, if it does: it bounces a move into a province of its line
    /// it reaches, and it meets head on a move from its first province into its origin.
    #[cold]
    #[inline(never)]
    fn move_against_train(&mut self, u: usize, attack: u32) -> Option<bool> {
        let train = self.train?;
        if let Some(tp) = self.train_prevent(self.target[u]) {
            if attack <= tp {
                return Some(false);
            }
        }
        let head_on = self.target[u] == self.origin[train]
            && self.train_steps.first() == Some(&self.origin[u])
            && !self.convoyed[u]
            && self.canal[u] == NONE;
        if !head_on {
            return None;
        }
        if attack <= self.train_defend(train) {
            return Some(false);
        }
        Some(!self.prevented(u, attack))
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
                if self.path(attacker) {
                    return false;
                }
            } else if self.resolve(attacker) {
                // The attack on the supporter from the province it supports into dislodges it.
                return false;
            }
        }
        true
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
        if self.canal[u] != NONE {
            let decision = self.kind.len() + u;
            return !self.paradox[decision] && self.resolve(decision);
        }
        if !self.convoyed[u] {
            return true;
        }
        self.convoy_route(u, None)
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
                count += 1;
            }
        }
        count
    }

    fn hold_strength(&mut self, province: u16) -> u32 {
        let Some(d) = self.occupant(province) else { return 0 };
        if self.kind[d] == Kind::Rail {
            return if self.train_moves() { 0 } else { self.strength[d] };
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
        let occupant = self.occupant(self.target[u]);
        let moves_away = match occupant {
            None => true,
            Some(d) if self.kind[d] == Kind::Rail => self.train_moves(),
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
        let train_end = self.train.and_then(|_| self.train_end());
        result.rail_end = None;
        for u in 0..n {
            let moved = match self.kind[u] {
                Kind::Move => self.resolution[u],
                Kind::Rail => {
                    if let Some(end) = train_end {
                        result.rail_end = Some((u, self.map.province(ProvinceId(end)).main));
                    }
                    train_end.is_some()
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
            let kind = self.kind[u];
            let outcome = match kind {
                Kind::Hold if self.rail_refused[u] => Outcome::RailStopped {
                    at: ProvinceId(self.origin[u]),
                },
                Kind::Hold => Outcome::Held,
                Kind::Rail if train_end == Some(self.target[u]) => Outcome::Moved,
                Kind::Rail => Outcome::RailStopped {
                    at: ProvinceId(train_end.unwrap_or(self.origin[u])),
                },
                Kind::Move if result.moved[u] => Outcome::Moved,
                Kind::Move if self.canal[u] != NONE && !self.path(u) => Outcome::CanalClosed,
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
                    let army = self.occupant(self.source[u]).unwrap_or(u);
                    if self.resolution[u] && result.moved[army] && self.convoy_route(army, Some(u)) {
                        Outcome::Convoyed
                    } else {
                        Outcome::ConvoyFailed
                    }
                }
            };
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

    /// The province of the unit that stopped a failed move, read off the decided orders: the
    /// head-to-head opponent, else the destination's unit if it stayed, else another unit that
    /// tried to enter the destination.
    fn bounce_cause(&mut self, u: usize) -> ProvinceId {
        if let Some(train) = self.train {
            if self.train_prevent(self.target[u]).is_some() {
                return ProvinceId(self.origin[train]);
            }
        }
        if let Some(d) = self.head_to_head(u) {
            return ProvinceId(self.origin[d]);
        }
        if let Some(d) = self.occupant(self.target[u]) {
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

    fn cutting_attacker(&mut self, u: usize) -> Option<ProvinceId> {
        let mut a = self.first_attacker[usize::from(self.origin[u])];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            if self.power[attacker] != self.power[u]
                && !(self.kind[u] == Kind::SupportMove && self.origin[attacker] == self.target[u])
                && self.path(attacker)
            {
                return Some(ProvinceId(self.origin[attacker]));
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
        let extras = PhaseExtras {
            strengths: &strengths,
            ..PhaseExtras::default()
        };
        adjudicator.adjudicate_with(&position.units, &orders, &extras, &mut result);
        assert!(
            result.units[burgundy].dislodged_by.is_none(),
            "two do not beat a unit of strength two"
        );
    }
}
