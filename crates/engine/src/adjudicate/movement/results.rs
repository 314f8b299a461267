//! The results of a decided phase: who moved, who was dislodged and by whom, each order's
//! outcome, and the provinces left empty by a bounce.

use super::{Adjudicator, Kind, MovementResult, NO_RULE, NONE};
use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::ids::ProvinceId;

impl Adjudicator<'_> {
    /// Writes the results of the decided phase (every unit's order resolved) in one pass over
    /// the units; the bounce marks are cleared afterwards only if a move bounced.
    pub(super) fn write_result(&mut self, result: &mut MovementResult) {
        result.rail_end = None;
        result.moved.clear();
        result.convoyed.clear();
        result.units.clear();
        // Resized only when the map changed; the fill is one memset.
        result.contested.resize(self.map.provinces().len(), false);
        result.contested.fill(false);
        let mut bounced = false;
        for u in 0..self.slots.len() {
            let slot = self.slots[u];
            let moved = match slot.kind {
                Kind::Move => self.decisions[u].resolution,
                Kind::RuledMove => self.ruled_move_end(u, result),
                _ => false,
            };
            let dislodged_by = if moved { None } else { self.dislodger(slot.origin) };
            let outcome = self.outcome(u, moved, dislodged_by);
            if slot.kind == Kind::Move && !moved && self.bounces(u) {
                result.contested[usize::from(slot.target)] = true;
                bounced = true;
            }
            result.moved.push(moved);
            result.convoyed.push(slot.kind == Kind::Move && slot.convoyed);
            result.units.push(UnitResult { outcome, dislodged_by });
        }
        if bounced {
            self.unmark_occupied(result);
        }
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

    /// The province of the unit that dislodged the unit in `origin` (which did not leave): the
    /// last move into it that succeeded. Every move listed there is an ordinary one.
    fn dislodger(&self, origin: u16) -> Option<ProvinceId> {
        let mut dislodged_by = None;
        let mut a = self.places[usize::from(origin)].first_attacker;
        while a != NONE {
            let attacker = &self.slots[usize::from(a)];
            if self.decisions[usize::from(a)].resolution {
                dislodged_by = Some(ProvinceId(attacker.origin));
            }
            a = attacker.next_attacker;
        }
        dislodged_by
    }

    /// Clears the bounce marks of the provinces occupied after the phase (an occupied province
    /// is never "left empty"): the origin of each unit that stayed (or of its dislodger), the
    /// destination of each move that succeeded, and where the train stopped.
    fn unmark_occupied(&self, result: &mut MovementResult) {
        for (slot, &moved) in self.slots.iter().zip(&result.moved) {
            if !moved {
                result.contested[usize::from(slot.origin)] = false;
            } else if slot.kind == Kind::Move {
                result.contested[usize::from(slot.target)] = false;
            }
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
