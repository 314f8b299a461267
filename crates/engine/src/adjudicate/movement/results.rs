//! The results of a decided phase: who moved, who was dislodged and by whom, each order's
//! outcome, and the provinces left empty by a bounce.

use super::{Adjudicator, Kind, MovementResult, NO_RULE, NONE};
use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::ids::ProvinceId;

impl Adjudicator<'_> {
    /// Writes the results of the decided phase (every unit's order resolved).
    pub(super) fn write_result(&mut self, result: &mut MovementResult) {
        result.rail_end = None;
        result.moved.clear();
        let moves = self.slots.iter().zip(&self.decisions);
        result
            .moved
            .extend(moves.map(|(s, d)| s.kind == Kind::Move && d.resolution));
        if self.rules.is_some() {
            self.write_ruled_moves(result);
        }
        result.convoyed.clear();
        result
            .convoyed
            .extend(self.slots.iter().map(|s| s.kind == Kind::Move && s.convoyed));
        self.mark_bounces(result);
        result.units.clear();
        result.units.reserve(self.slots.len());
        for u in 0..self.slots.len() {
            let dislodged_by = self.dislodger(u, &result.moved);
            let outcome = self.outcome(u, result, dislodged_by);
            result.units.push(UnitResult { outcome, dislodged_by });
            self.unmark_occupied(u, result, dislodged_by.is_none());
        }
        // The train stands where it stopped.
        if let Some((_, end)) = result.rail_end {
            result.contested[self.map.province_of(end).index()] = false;
        }
    }

    /// Whether each move a rule decides (a railroad ride) left its province, and where the last
    /// that did got to.
    #[cold]
    #[inline(never)]
    fn write_ruled_moves(&mut self, result: &mut MovementResult) {
        for u in 0..self.slots.len() {
            if self.slots[u].kind != Kind::RuledMove {
                continue;
            }
            let rule = usize::from(self.slots[u].rule_of);
            let end = self.rules().and_then(|rules| rules[rule].end(self, u));
            if let Some(end) = end {
                result.rail_end = Some((u, self.map.province(end).main));
            }
            result.moved[u] = end.is_some();
        }
    }

    /// The province of the unit that dislodged unit `u`: the last move into its province that
    /// succeeded while `u` did not leave.
    fn dislodger(&self, u: usize, moved: &[bool]) -> Option<ProvinceId> {
        if moved[u] {
            return None;
        }
        let mut dislodged_by = None;
        let mut a = self.places[usize::from(self.slots[u].origin)].first_attacker;
        while a != NONE {
            let attacker = &self.slots[usize::from(a)];
            if moved[usize::from(a)] {
                dislodged_by = Some(ProvinceId(attacker.origin));
            }
            a = attacker.next_attacker;
        }
        dislodged_by
    }

    /// Marks the destinations of the moves that bounced (with their route, not beaten head to
    /// head); [`Adjudicator::unmark_occupied`] then clears those occupied after the phase.
    fn mark_bounces(&mut self, result: &mut MovementResult) {
        // Resized only when the map changed; the fill is one memset.
        result.contested.resize(self.map.provinces().len(), false);
        result.contested.fill(false);
        for u in 0..self.slots.len() {
            let slot = &self.slots[u];
            if slot.kind != Kind::Move || result.moved[u] {
                continue;
            }
            let (target, opponent) = (slot.target, slot.opponent);
            if !self.path(u) || (opponent != NONE && result.moved[usize::from(opponent)]) {
                continue;
            }
            result.contested[usize::from(target)] = true;
        }
    }

    /// Clears the bounce marks of the provinces unit `u` occupies after the phase (an occupied
    /// province is never "left empty"): its own if it stays, its destination if it moved there.
    fn unmark_occupied(&self, u: usize, result: &mut MovementResult, not_dislodged: bool) {
        let slot = &self.slots[u];
        let moved = result.moved[u];
        if !moved && not_dislodged {
            result.contested[usize::from(slot.origin)] = false;
        }
        if moved && slot.kind == Kind::Move {
            result.contested[usize::from(slot.target)] = false;
        }
    }

    /// What unit `u`'s order did: the rule's word where a rule claimed it and names one, else
    /// read off the decided orders.
    fn outcome(&mut self, u: usize, result: &MovementResult, dislodged_by: Option<ProvinceId>) -> Outcome {
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
        let moved = result.moved[u];
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
            Kind::Convoy => self.convoy_outcome(u, result),
        }
    }

    /// What the matched convoy `u` did: ruled out by the paradox rule, carried its army, or not.
    fn convoy_outcome(&mut self, u: usize, result: &MovementResult) -> Outcome {
        let decision = self.decisions[u];
        if decision.paradox {
            return Outcome::ConvoyParadox;
        }
        let army = self.unit_in(self.slots[u].source).unwrap_or(u);
        if decision.resolution && result.moved[army] && self.convoy_route(army, Some(u)) {
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
