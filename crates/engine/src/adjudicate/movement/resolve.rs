//! The generic resolve function of the DATC (section 5.F, with recursion hits) and the backup
//! rule for cycles with no single resolution.

use super::{Adjudicator, Decision, Kind, ResolverRule};

/// What resolving a decision keeps of the resolution around it, to restore.
#[derive(Clone, Copy)]
struct Frame {
    cycle_len: usize,
    guess_based: bool,
    recursion_hits: u32,
}

impl Adjudicator<'_> {
    /// Resolves decision `u` (a unit's order, or a rule's decision) by the guess algorithm.
    #[inline]
    pub(super) fn resolve(&mut self, u: usize) -> bool {
        let decision = self.decisions[u];
        if decision.resolved {
            return decision.resolution;
        }
        if decision.in_cycle || decision.visited {
            return self.hit(u, decision);
        }
        self.resolve_fresh(u)
    }

    /// A decision met again while it is being resolved: its guess stands, and the decisions
    /// resolved meanwhile depend on a guess.
    fn hit(&mut self, u: usize, decision: Decision) -> bool {
        self.guess_based = true;
        if !decision.in_cycle {
            self.decisions[u].in_cycle = true;
            self.cycle.push(u as u16);
            self.recursion_hits += 1;
        }
        decision.resolution
    }

    /// Resolves a decision not yet visited: adjudicated once with the guess that it fails, and
    /// settled at once when that depended on no guess.
    fn resolve_fresh(&mut self, u: usize) -> bool {
        let outer = Frame {
            cycle_len: self.cycle.len(),
            guess_based: self.guess_based,
            recursion_hits: self.recursion_hits,
        };
        let decision = &mut self.decisions[u];
        decision.visited = true;
        decision.resolution = false;
        self.guess_based = false;
        let first = self.adjudicate_order(u);
        if !self.guess_based {
            self.guess_based = outer.guess_based;
            let decision = &mut self.decisions[u];
            decision.resolution = first;
            decision.resolved = true;
            return first;
        }
        self.resolve_guessed(u, first, outer)
    }

    /// Goes on with decision `u`, whose first adjudication (`first`) depended on guesses.
    fn resolve_guessed(&mut self, u: usize, first: bool, outer: Frame) -> bool {
        let hit_itself = self.decisions[u].in_cycle;
        if hit_itself {
            self.recursion_hits -= 1;
        }
        // Only an order that was itself hit deeper in the recursion can be the ancestor of the
        // cycle; one that merely read guesses of a cycle's members waits for that cycle.
        if hit_itself && self.recursion_hits == outer.recursion_hits {
            return self.resolve_cycle(u, first, outer);
        }
        let decision = &mut self.decisions[u];
        let joins = !decision.in_cycle;
        decision.in_cycle = true;
        decision.resolution = first;
        decision.visited = false;
        if joins {
            self.cycle.push(u as u16);
        }
        first
    }

    /// Settles the cycle decision `u` heads: adjudicated again with the guess that it succeeds;
    /// the same answer both times settles it, else the backup rule does.
    fn resolve_cycle(&mut self, u: usize, first: bool, outer: Frame) -> bool {
        self.clear_cycle(outer.cycle_len);
        self.decisions[u].resolution = true;
        let second = self.adjudicate_order(u);
        // The cycle is settled by the two guesses: hits inside it no longer count for enclosing
        // cycles.
        self.recursion_hits = outer.recursion_hits;
        if first == second {
            self.clear_cycle(outer.cycle_len);
            self.guess_based = outer.guess_based;
            let decision = &mut self.decisions[u];
            decision.resolution = first;
            decision.resolved = true;
            decision.visited = false;
            return first;
        }
        self.backup_rule(outer.cycle_len, !first && second);
        self.clear_cycle(outer.cycle_len);
        self.guess_based = outer.guess_based;
        self.decisions[u].visited = false;
        self.resolve(u)
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
        let has_szykman = self.cycle[from..]
            .iter()
            .any(|&c| self.fails_like_convoy(usize::from(c)));
        let only_moves = self.cycle[from..].iter().all(|&c| {
            let d = usize::from(c);
            if d < n {
                matches!(self.slots[d].kind, Kind::Move | Kind::RuledMove)
            } else {
                self.rule_says(d, |r, k| r.is_movement(k))
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
            self.rule_out(d);
        }
        if has_szykman {
            for k in from..self.cycle.len() {
                let c = usize::from(self.cycle[k]);
                if self.fails_like_convoy(c) {
                    self.rule_out(c);
                }
            }
        } else if settled_by_rule.is_empty() {
            self.settle_circle(from, only_moves);
        }
        self.settle_unsettled(from);
    }

    /// What a rule says of its decision `d` (false for a decision no rule owns).
    fn rule_says(&self, d: usize, f: impl Fn(&dyn ResolverRule, usize) -> bool) -> bool {
        let (Some(rules), Some((i, k))) = (&self.rules, self.rule_decision(d)) else {
            return false;
        };
        f(rules[i].as_ref(), k)
    }

    /// Whether decision `d` fails in a paradox the way a convoy does: a convoy, or a rule's
    /// passage.
    fn fails_like_convoy(&self, d: usize) -> bool {
        if d < self.slots.len() {
            self.slots[d].kind == Kind::Convoy
        } else {
            self.rule_says(d, |r, k| r.fails_in_paradox(k))
        }
    }

    /// Settles decision `d` as failed by a paradox rule.
    fn rule_out(&mut self, d: usize) {
        let decision = &mut self.decisions[d];
        decision.resolved = true;
        decision.resolution = false;
        decision.paradox = true;
    }

    /// Settles the cycle from `from` as a circular movement: it succeeds if it is one
    /// (`only_moves`), else fails; a rule's move follows from the rule's decisions.
    fn settle_circle(&mut self, from: usize, only_moves: bool) {
        let n = self.slots.len();
        for k in from..self.cycle.len() {
            let c = usize::from(self.cycle[k]);
            if c < n && self.slots[c].kind == Kind::RuledMove {
                continue;
            }
            self.decisions[c].resolved = true;
            self.decisions[c].resolution = only_moves;
        }
    }

    /// Every backup settles at least one decision of the cycle, so resolving ends: if none was,
    /// all of them fail.
    fn settle_unsettled(&mut self, from: usize) {
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
