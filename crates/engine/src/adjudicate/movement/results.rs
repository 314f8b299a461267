//! The results of a decided phase: who moved, who was dislodged and by whom, each order's
//! outcome, and the provinces left empty by a bounce.

use super::{Adjudicator, Kind, MovementResult, NO_RULE, NONE};
use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::ids::ProvinceId;

/// A unit's result before its outcome is read: held, not dislodged.
const HELD: UnitResult = UnitResult {
    outcome: Outcome::Held,
    dislodged_by: None,
};

impl Adjudicator<'_> {
    /// Writes the results of the decided phase (every unit's order resolved), one kind of
    /// order at a time: who moved, who was dislodged, then each order's outcome. The bounce
    /// marks are cleared afterwards only if a move bounced.
    pub(super) fn write_result(&mut self, result: &mut MovementResult) {
        let n = self.slots.len();
        result.rail_end = None;
        // Resized only when the map changed; the fill is one memset.
        result.contested.resize(self.map.provinces().len(), false);
        result.contested.fill(false);
        result.units.clear();
        result.units.resize(n, HELD);
        self.write_moved(result);
        self.write_dislodged(result);
        for k in 0..self.succeeded.len() {
            let u = usize::from(self.succeeded[k]);
            if self.slots[u].rule_of == NO_RULE {
                result.units[u].outcome = Outcome::Moved;
            } else {
                self.write_outcome(u, true, result);
            }
        }
        let mut bounced = false;
        for k in 0..self.failed.len() {
            let u = usize::from(self.failed[k]);
            if self.bounces(u) {
                result.contested[usize::from(self.slots[u].target)] = true;
                bounced = true;
            }
            self.write_outcome(u, false, result);
        }
        for kind in [Kind::SupportHold, Kind::SupportMove] {
            for k in 0..self.of_kind(kind).len() {
                let u = usize::from(self.of_kind(kind)[k]);
                let slot = self.slots[u];
                if (slot.rule_of == NO_RULE) & slot.matched & self.decisions[u].resolution {
                    result.units[u].outcome = Outcome::Supported;
                } else {
                    self.write_outcome(u, false, result);
                }
            }
        }
        for kind in [Kind::Hold, Kind::Convoy, Kind::RuledMove] {
            for k in 0..self.of_kind(kind).len() {
                let u = usize::from(self.of_kind(kind)[k]);
                if kind != Kind::Hold || self.slots[u].rule_of != NO_RULE {
                    self.write_outcome(u, result.moved[u], result);
                }
            }
        }
        if bounced {
            self.unmark_occupied(result);
        }
    }

    /// Whether each unit ends in its destination (a move that succeeded, or a rule's move that
    /// left its province), and whether each move went by convoy.
    fn write_moved(&mut self, result: &mut MovementResult) {
        let n = self.slots.len();
        result.moved.clear();
        result.moved.resize(n, false);
        result.convoyed.clear();
        result.convoyed.resize(n, false);
        let moves = self.by_kind[Kind::Move as usize].len();
        self.succeeded.clear();
        self.succeeded.resize(moves, 0);
        self.failed.clear();
        self.failed.resize(moves, 0);
        let (mut succeeded, mut failed) = (0, 0);
        for &u in &self.by_kind[Kind::Move as usize] {
            let i = usize::from(u);
            let moved = self.decisions[i].resolution;
            result.moved[i] = moved;
            result.convoyed[i] = self.slots[i].convoyed;
            // Each move written to both lists, and kept in the one it belongs to.
            self.succeeded[succeeded] = u;
            self.failed[failed] = u;
            succeeded += usize::from(moved);
            failed += usize::from(!moved);
        }
        self.succeeded.truncate(succeeded);
        self.failed.truncate(failed);
        // In the order of the units: the last ride that left its province is kept.
        for k in 0..self.of_kind(Kind::RuledMove).len() {
            let u = usize::from(self.of_kind(Kind::RuledMove)[k]);
            result.moved[u] = self.ruled_move_end(u, result);
        }
    }

    /// Marks each unit that stayed and was dislodged with the province of its dislodger: the
    /// last move into its province that succeeded (every such move is an ordinary one).
    fn write_dislodged(&self, result: &mut MovementResult) {
        if self.shared_province {
            return self.write_dislodged_shared(result);
        }
        for &u in &self.succeeded {
            let slot = &self.slots[usize::from(u)];
            let d = self.places[usize::from(slot.target)].unit;
            if d != NONE && !result.moved[usize::from(d)] {
                result.units[usize::from(d)].dislodged_by = Some(ProvinceId(slot.origin));
            }
        }
    }

    /// As [`Adjudicator::write_dislodged`] where a province holds two units: each unit that
    /// stayed looks through the moves into its province.
    #[cold]
    fn write_dislodged_shared(&self, result: &mut MovementResult) {
        for (u, slot) in self.slots.iter().enumerate() {
            if result.moved[u] {
                continue;
            }
            let mut a = self.places[usize::from(slot.origin)].first_attacker;
            while a != NONE {
                let attacker = &self.slots[usize::from(a)];
                if self.decisions[usize::from(a)].resolution {
                    result.units[u].dislodged_by = Some(ProvinceId(attacker.origin));
                }
                a = attacker.next_attacker;
            }
        }
    }

    /// Writes unit `u`'s outcome read off the decided orders (the dislodgement already written).
    #[inline(never)]
    fn write_outcome(&mut self, u: usize, moved: bool, result: &mut MovementResult) {
        let dislodged_by = result.units[u].dislodged_by;
        result.units[u].outcome = self.outcome(u, moved, dislodged_by);
    }

    /// Whether move `u`, which failed, leaves its destination marked as contested: it had its
    /// route and was not beaten head to head.
    fn bounces(&mut self, u: usize) -> bool {
        let opponent = self.slots[u].opponent;
        self.path(u) && !(opponent != NONE && self.decisions[usize::from(opponent)].resolution)
    }

    /// Whether the move a rule decides (a railroad ride) of unit `u` left its province; the last
    /// that did is kept with the place it got to.
    #[cold]
    #[inline(never)]
    fn ruled_move_end(&mut self, u: usize, result: &mut MovementResult) -> bool {
        let rule = usize::from(self.slots[u].rule_of);
        let end = self.rules().and_then(|rules| rules[rule].end(self, u));
        if let Some(end) = end {
            result.rail_end = Some((u, self.map.province(end).main));
        }
        end.is_some()
    }

    /// Clears the bounce marks of the provinces occupied after the phase (an occupied province
    /// is never "left empty"): the origin of each unit that stayed (or of its dislodger), the
    /// destination of each move that succeeded, and where the train stopped.
    fn unmark_occupied(&self, result: &mut MovementResult) {
        for (slot, &moved) in self.slots.iter().zip(&result.moved) {
            result.contested[usize::from(slot.origin)] &= moved;
        }
        for &u in &self.succeeded {
            result.contested[usize::from(self.slots[usize::from(u)].target)] = false;
        }
        if let Some((_, end)) = result.rail_end {
            result.contested[self.map.province_of(end).index()] = false;
        }
    }

    /// What unit `u`'s order did: the rule's word where a rule claimed it and names one, else
    /// read off the decided orders.
    fn outcome(&mut self, u: usize, moved: bool, dislodged_by: Option<ProvinceId>) -> Outcome {
        let slot = &self.slots[u];
        let (kind, rule_of, matched, origin) = (slot.kind, slot.rule_of, slot.matched, slot.origin);
        if rule_of != NO_RULE {
            let ruled = self
                .rules()
                .and_then(|rules| rules[usize::from(rule_of)].outcome(self, u));
            if let Some(outcome) = ruled {
                return outcome;
            }
        }
        match kind {
            Kind::Hold => Outcome::Held,
            Kind::RuledMove if moved => Outcome::Moved,
            Kind::RuledMove => Outcome::Held,
            Kind::Move if moved => Outcome::Moved,
            Kind::Move if self.slots[u].convoyed && !self.path(u) => Outcome::NoConvoy,
            Kind::Move => Outcome::Bounced {
                against: self.bounce_cause(u),
            },
            Kind::SupportHold | Kind::SupportMove if !matched => Outcome::SupportVoid,
            Kind::SupportHold | Kind::SupportMove if self.decisions[u].resolution => Outcome::Supported,
            Kind::SupportHold | Kind::SupportMove => {
                let by = self.cutting_attacker(u).or(dislodged_by).unwrap_or(ProvinceId(origin));
                Outcome::Cut { by }
            }
            Kind::Convoy if !matched => Outcome::ConvoyVoid,
            Kind::Convoy => self.convoy_outcome(u),
        }
    }

    /// What the matched convoy `u` did: ruled out by the paradox rule, carried its army, or not.
    fn convoy_outcome(&mut self, u: usize) -> Outcome {
        let decision = self.decisions[u];
        if decision.paradox {
            return Outcome::ConvoyParadox;
        }
        let army = self.unit_in(self.slots[u].source).unwrap_or(u);
        // The army named moves by an ordinary move (`link_orders`), decided by its decision.
        if decision.resolution && self.decisions[army].resolution && self.convoy_route(army, Some(u)) {
            Outcome::Convoyed
        } else {
            Outcome::ConvoyFailed
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
            return ProvinceId(self.slots[d].origin);
        }
        let target = self.slots[u].target;
        if let Some(d) = self.unit_in(target) {
            if !(self.slots[d].kind == Kind::Move && self.decisions[d].resolution) {
                return ProvinceId(target);
            }
        }
        let mut o = self.places[usize::from(target)].first_attacker;
        while o != NONE {
            let other = usize::from(o);
            o = self.slots[other].next_attacker;
            if other != u && self.path(other) {
                return ProvinceId(self.slots[other].origin);
            }
        }
        ProvinceId(target)
    }

    /// The province of the attacker that cut support `u`, by the standard rules and the rules'.
    fn cutting_attacker(&mut self, u: usize) -> Option<ProvinceId> {
        let with_rules = self.rules.is_some();
        let a = self.standard_cutting_attacker(u, |r, a| !with_rules || r.rule_cuts(u, a))?;
        Some(ProvinceId(self.slots[a].origin))
    }

    /// The first attacker of `u`'s province that would cut its support under the standard rules
    /// (another power's, not from the province supported into, with a route) and passes `also`.
    pub(super) fn standard_cutting_attacker(
        &mut self,
        u: usize,
        also: impl Fn(&mut Self, usize) -> bool,
    ) -> Option<usize> {
        let support = self.slots[u];
        let mut a = self.places[usize::from(support.origin)].first_attacker;
        while a != NONE {
            let attacker = usize::from(a);
            let attack = self.slots[attacker];
            a = attack.next_attacker;
            let from_supported_target = support.kind == Kind::SupportMove && attack.origin == support.target;
            if attack.power != support.power && !from_supported_target && self.path(attacker) && also(self, attacker) {
                return Some(attacker);
            }
        }
        None
    }
}
