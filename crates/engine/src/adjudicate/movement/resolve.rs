//! The generic resolve function of the DATC (section 5.F, with recursion hits) and the backup
//! rule for cycles with no single resolution.

use super::{Adjudicator, Kind, ResolverRule};

impl Adjudicator<'_> {
    /// Resolves decision `u` (a unit's order, or a rule's decision) by the guess algorithm.
    pub(super) fn resolve(&mut self, u: usize) -> bool {
        let decision = self.decisions[u];
        if decision.resolved {
            return decision.resolution;
        }
        if decision.in_cycle {
            self.guess_based = true;
            return decision.resolution;
        }
        if decision.visited {
            self.decisions[u].in_cycle = true;
            self.cycle.push(u as u16);
            self.guess_based = true;
            self.recursion_hits += 1;
            return decision.resolution;
        }
        self.decisions[u].visited = true;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_recursion_hits = self.recursion_hits;
        self.decisions[u].resolution = false;
        let first = self.adjudicate_order(u);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.decisions[u].resolution = first;
            self.decisions[u].resolved = true;
            return first;
        }
        let hit_itself = self.decisions[u].in_cycle;
        if hit_itself {
            self.recursion_hits -= 1;
        }
        // Only an order that was itself hit deeper in the recursion can be the ancestor of the
        // cycle; one that merely read guesses of a cycle's members waits for that cycle.
        if hit_itself && self.recursion_hits == old_recursion_hits {
            self.clear_cycle(old_cycle_len);
            self.decisions[u].resolution = true;
            let second = self.adjudicate_order(u);
            // The cycle is settled by the two guesses: hits inside it no longer count for
            // enclosing cycles.
            self.recursion_hits = old_recursion_hits;
            if first == second {
                self.clear_cycle(old_cycle_len);
                self.guess_based = old_guess_based;
                self.decisions[u].resolution = first;
                self.decisions[u].resolved = true;
                self.decisions[u].visited = false;
                return first;
            }
            self.backup_rule(old_cycle_len, !first && second);
            self.clear_cycle(old_cycle_len);
            self.guess_based = old_guess_based;
            self.decisions[u].visited = false;
            return self.resolve(u);
        }
        if !self.decisions[u].in_cycle {
            self.decisions[u].in_cycle = true;
            self.cycle.push(u as u16);
        }
        self.decisions[u].resolution = first;
        self.decisions[u].visited = false;
        first
    }

    fn clear_cycle(&mut self, from: usize) {
        for &c in &self.cycle[from..] {
            self.decisions[usize::from(c)].in_cycle = false;
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
        let n = self.slots.len();
        let rules = self.rules();
        let rule_says = |s: &Self, d: usize, f: &dyn Fn(&dyn ResolverRule, usize) -> bool| {
            let (Some(rules), Some((i, k))) = (&rules, s.rule_decision(d)) else {
                return false;
            };
            f(rules[i].as_ref(), k)
        };
        let fails_like_convoy = |s: &Self, d: usize| {
            if d < n {
                s.slots[d].kind == Kind::Convoy
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
                matches!(self.slots[d].kind, Kind::Move | Kind::RuledMove)
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
            self.decisions[c].visited = false;
        }
        for &d in &settled_by_rule {
            self.decisions[d].resolved = true;
            self.decisions[d].resolution = false;
            self.decisions[d].paradox = true;
        }
        if has_szykman {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                if fails_like_convoy(self, c) {
                    self.decisions[c].resolved = true;
                    self.decisions[c].resolution = false;
                    self.decisions[c].paradox = true;
                }
            }
        } else if settled_by_rule.is_empty() {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                // A rule's move follows from the rule's decisions.
                if c < n && self.slots[c].kind == Kind::RuledMove {
                    continue;
                }
                self.decisions[c].resolved = true;
                self.decisions[c].resolution = only_moves;
            }
        }
        // Every backup settles at least one decision of the cycle, so resolving ends.
        let settled = self.cycle[from..]
            .iter()
            .any(|&c| self.decisions[usize::from(c)].resolved);
        if !settled {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                self.decisions[c].resolved = true;
                self.decisions[c].resolution = false;
            }
        }
    }
}
