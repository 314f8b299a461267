//! The decision equations (DATC 5.B): whether a move, support or convoy succeeds, and the
//! strengths they are decided by.

use super::{Adjudicator, Kind, NONE};

impl Adjudicator<'_> {
    /// Decides decision `u` once, with the current guesses of the others.
    pub(super) fn adjudicate_order(&mut self, u: usize) -> bool {
        let n = self.slots.len();
        if u >= n {
            return match (self.rules(), self.rule_decision(u)) {
                (Some(rules), Some((i, k))) => rules[i].decide(self, k),
                _ => false,
            };
        }
        match self.slots[u].kind {
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
            Some(rules) => rules[usize::from(self.slots[u].rule_of)].moves(self, u),
            None => false,
        }
    }

    /// Whether a unit whose move a rule claimed leaves its province.
    fn ruled_moves_away(&mut self, u: usize) -> bool {
        match self.rules() {
            Some(rules) => rules[usize::from(self.slots[u].rule_of)].end(self, u).is_some(),
            None => false,
        }
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
                if attack <= self.hold_strength(self.slots[u].target) {
                    return false;
                }
            }
        }
        !self.prevented(u, attack)
    }

    /// Whether another unit moving to `u`'s destination prevents `u` with this attack strength.
    pub(super) fn prevented(&mut self, u: usize, attack: u32) -> bool {
        let mut o = self.places[usize::from(self.slots[u].target)].first_attacker;
        while o != NONE {
            let other = usize::from(o);
            if other != u && attack <= self.prevent_strength(other) {
                return true;
            }
            o = self.slots[other].next_attacker;
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
        let support = self.slots[u];
        let mut a = self.places[usize::from(support.origin)].first_attacker;
        while a != NONE {
            let attacker = usize::from(a);
            let attack = self.slots[attacker];
            a = attack.next_attacker;
            if attack.power == support.power {
                continue;
            }
            let from_supported_target = support.kind == Kind::SupportMove && attack.origin == support.target;
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
    pub(super) fn rule_cuts(&mut self, u: usize, attacker: usize) -> bool {
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
        let mut a = self.places[usize::from(self.slots[u].origin)].first_attacker;
        while a != NONE {
            let attacker = usize::from(a);
            a = self.slots[attacker].next_attacker;
            if self.adjudicate_move(attacker) {
                return false;
            }
        }
        true
    }

    // ----- strengths -----

    /// The supports given to unit `u`'s order that hold, leaving out those of `exclude_power`.
    pub(super) fn supports(&mut self, u: usize, exclude_power: Option<u8>) -> u32 {
        let mut count = 0;
        let mut s = self.slots[u].first_support;
        while s != NONE {
            let supporter = usize::from(s);
            let slot = self.slots[supporter];
            s = slot.next_support;
            if exclude_power == Some(slot.power) {
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
        let slot = self.slots[d];
        match slot.kind {
            Kind::RuledMove if self.ruled_moves_away(d) => 0,
            Kind::RuledMove => slot.strength,
            Kind::Move if self.resolve(d) => 0,
            Kind::Move => slot.strength,
            _ => slot.strength + self.supports(d, None),
        }
    }

    fn attack_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        let slot = self.slots[u];
        let occupant = self.unit_in(slot.target);
        let moves_away = match occupant {
            None => true,
            Some(d) if self.slots[d].kind == Kind::RuledMove => self.ruled_moves_away(d),
            Some(d) => slot.opponent == NONE && self.slots[d].kind == Kind::Move && self.resolve(d),
        };
        match occupant {
            Some(d) if !moves_away => {
                let power = self.slots[d].power;
                if power == slot.power {
                    0
                } else {
                    slot.strength + self.supports(u, Some(power))
                }
            }
            _ => slot.strength + self.supports(u, None),
        }
    }

    fn defend_strength(&mut self, u: usize) -> u32 {
        self.slots[u].strength + self.supports(u, None)
    }

    /// The strength with which move `u` keeps others out of its destination.
    pub(super) fn prevent_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        if let Some(d) = self.head_to_head(u) {
            if self.resolve(d) {
                return 0;
            }
        }
        self.slots[u].strength + self.supports(u, None)
    }
}
