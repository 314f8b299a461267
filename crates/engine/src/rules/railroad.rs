//! The railroad rule (Colonial's Trans-Siberian Railroad, seed 004 §4.2 and DATC 7.B): one army of
//! the railroad's power rides the line a phase, step by step; it stops before the first province
//! it cannot pass, in the last free province reached. When more than one army is ordered to ride,
//! none does.
//!
//! Each step is a resolver decision of its own, so the guess algorithm finds cycles through the
//! line, and the paradox rule makes the steps in a paradox fail — a train that reaches a province
//! still bounces the units moving there.
//!
//! Passing a province on the way: blocked by a unit of another power that stays there, by a supply
//! centre the power does not own unless one of its armies stays there, and by a single strongest
//! attack on the province (the attacker and the train stand off, or a stronger attacker enters);
//! two attacks that stand off between themselves let the train pass. The destination: entered like
//! an ordinary move with the train's supports, but never by dislodging a unit. A unit moving from
//! the first province of the line into the train's origin meets the train head to head: the train
//! cannot win that battle.

use std::cell::Cell;

use super::{MovementPhase, MovementSetup, RuleModule, RuleName};
use crate::adjudicate::movement::{Adjudicator, ResolverRule};
use crate::adjudicate::outcome::Outcome;
use crate::ids::{PowerId, ProvinceId, UnitType};
use crate::order::Order;
use crate::position::Unit;

/// See the module's description.
pub(super) struct Railroad;

impl RuleModule for Railroad {
    fn name(&self) -> RuleName {
        RuleName::Railroad
    }

    /// The ride, which reads who owns the centres along the line.
    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        setup
            .resolver_rules
            .push(Box::new(Ride::new(phase.position.owners.clone())));
    }
}

/// The railroad ride of one phase, as the resolver decides it.
pub struct Ride {
    /// The owner of each province's centre.
    owners: Vec<Option<PowerId>>,
    /// The one army riding this phase, if any.
    train: Option<usize>,
    /// The provinces the train would pass, in order; the last is its destination.
    steps: Vec<ProvinceId>,
    /// Per step: a supply centre the railroad's power does not own.
    blocked_centre: Vec<bool>,
    /// Armies whose ride was refused (more than one ordered, or not their power's line).
    refused: Vec<usize>,
    /// Where the train bounces other units though its ride fails there (the railroad paradox
    /// rule); set while a paradox is settled.
    bounce_at: Cell<Option<ProvinceId>>,
    /// The resolver's id of the first step's decision.
    first_decision: usize,
}

impl Ride {
    /// The ride of a phase in which the centres have these owners (by province).
    pub fn new(owners: Vec<Option<PowerId>>) -> Self {
        Ride {
            owners,
            train: None,
            steps: Vec::new(),
            blocked_centre: Vec::new(),
            refused: Vec::new(),
            bounce_at: Cell::new(None),
            first_decision: 0,
        }
    }

    /// The decision id of step `j`.
    fn step(&self, j: usize) -> usize {
        self.first_decision + j
    }

    /// Whether unit `o` moves from the first province of the line straight into the train's
    /// origin.
    fn head_on(&self, r: &Adjudicator<'_>, train: usize, o: usize) -> bool {
        r.is_direct_move(o) && r.target(o) == r.origin(train)
    }

    /// Whether the train gets past or into `steps[j]`.
    fn adjudicate_step(&self, r: &mut Adjudicator<'_>, j: usize) -> bool {
        let Some(train) = self.train else { return false };
        if j > 0 && !r.decision(self.step(j - 1)) {
            return false;
        }
        let p = self.steps[j];
        let last = j + 1 == self.steps.len();
        let occupant = r.occupant(p);
        if j == 0 && occupant.is_some_and(|o| self.head_on(r, train, o)) {
            return false;
        }
        // A supply centre the power does not own must be taken: the train stops in it, unless an
        // army of the power stays there (Avalon Hill errata; DATC 7.B.18-7.B.22).
        if j > 0 && self.blocked_centre[j - 1] {
            match r.occupant(self.steps[j - 1]) {
                Some(o) if r.power(o) == r.power(train) && r.stays(o) => {}
                _ => return false,
            }
        }
        if !last {
            if let Some(o) = occupant {
                if r.power(o) != r.power(train) && r.stays(o) {
                    return false;
                }
            }
            !single_strongest_attack(r, p, r.strength(train))
        } else {
            if let Some(o) = occupant {
                if r.stays(o) {
                    return false;
                }
            }
            let attack = r.strength(train) + r.support_count(train);
            !single_strongest_attack(r, p, attack)
        }
    }

    /// The strength with which the train, if it gets to province `p` of its line, stands against
    /// other units moving there (`None` when it does not get there).
    fn prevent(&self, r: &mut Adjudicator<'_>, p: ProvinceId) -> Option<u32> {
        let train = self.train?;
        let j = self.steps.iter().position(|&s| s == p)?;
        let bounces_by_rule = self.bounce_at.get() == Some(p);
        if !bounces_by_rule && j > 0 && !r.decision(self.step(j - 1)) {
            return None;
        }
        if j == 0 {
            // A train beaten head on (the unit from its first province took its origin) stops
            // nothing there.
            if let Some(o) = r.occupant(p) {
                let head_on = r.is_move(o) && r.target(o) == r.origin(train);
                if head_on && r.decision(o) {
                    return None;
                }
            }
        }
        Some(if j + 1 == self.steps.len() {
            r.strength(train) + r.support_count(train)
        } else {
            r.strength(train)
        })
    }

    /// Where the train ends: the farthest province it got into that no other unit holds at the
    /// end, or `None` when it stays where it was.
    fn train_end(&self, r: &mut Adjudicator<'_>) -> Option<ProvinceId> {
        let train = self.train?;
        for j in (0..self.steps.len()).rev() {
            if !r.decision(self.step(j)) {
                continue;
            }
            let p = self.steps[j];
            // A unit of another power in a province the train got past must have left it; one of
            // the train's own power may have stayed (the train passed through it).
            let free = match r.occupant(p) {
                None => true,
                Some(o) if r.power(o) != r.power(train) => true,
                Some(o) => !r.stays(o),
            };
            if free {
                return Some(p);
            }
        }
        None
    }

    /// The strength with which the train defends its origin against a unit coming head on from
    /// the first province of its line.
    fn defend(&self, r: &mut Adjudicator<'_>, train: usize) -> u32 {
        if self.steps.len() == 1 {
            r.strength(train) + r.support_count(train)
        } else {
            r.strength(train)
        }
    }

    /// The step of the line a move into it is bounced at by the train reaching it, where that is
    /// part of the cycle (the farthest such step).
    fn bounced_on_line(&self, r: &Adjudicator<'_>, cycle: &[u16]) -> Option<usize> {
        let in_cycle = |d: usize| cycle.iter().any(|&c| usize::from(c) == d);
        cycle
            .iter()
            .filter_map(|&c| {
                let d = usize::from(c);
                if d >= r.unit_count() || !r.is_move(d) {
                    return None;
                }
                let j = self.steps.iter().position(|&p| p == r.target(d))?;
                let reach_in_cycle = j > 0 && in_cycle(self.step(j - 1));
                (reach_in_cycle || in_cycle(self.step(j))).then_some(j)
            })
            .max()
    }
}

/// Whether one attack on `p` is stronger than every other and at least as strong as the train:
/// it stops the train there. Attacks that stand off between themselves let the train through
/// (DATC 7.B.6, 7.B.7).
fn single_strongest_attack(r: &mut Adjudicator<'_>, p: ProvinceId, train: u32) -> bool {
    let mut strongest = 0;
    let mut count = 0;
    let mut a = r.first_attacker(p);
    while let Some(attacker) = a {
        a = r.next_attacker(attacker);
        let s = r.prevent_strength_of(attacker);
        if s > strongest {
            strongest = s;
            count = 1;
        } else if s == strongest && s > 0 {
            count += 1;
        }
    }
    count == 1 && strongest >= train
}

impl ResolverRule for Ride {
    fn prepare(&mut self, r: &mut Adjudicator<'_>, units: &[Unit], orders: &[Order], first_decision: usize) -> usize {
        let map = r.map();
        self.first_decision = first_decision;
        self.train = None;
        self.bounce_at.set(None);
        self.steps.clear();
        self.blocked_centre.clear();
        self.refused.clear();
        let riders: Vec<(usize, ProvinceId, crate::ids::LocationId)> = units
            .iter()
            .zip(orders)
            .enumerate()
            .filter_map(|(i, (unit, order))| match *order {
                Order::RailMove { to, .. } if unit.kind == UnitType::Army => {
                    Some((i, map.province_of(unit.location), to))
                }
                _ => None,
            })
            .collect();
        for &(i, from, to) in &riders {
            let line = map.railroad_between(from, map.province_of(to));
            match line {
                Some(line) if riders.len() == 1 && line.power == units[i].power => {
                    let a = line.route.iter().position(|&p| p == from).unwrap_or(0);
                    let b = line.route.iter().position(|&p| p == map.province_of(to)).unwrap_or(0);
                    for k in 1..=a.abs_diff(b) {
                        let p = if a < b { line.route[a + k] } else { line.route[a - k] };
                        self.steps.push(p);
                        let owner = self.owners.get(p.index()).copied().flatten();
                        self.blocked_centre
                            .push(map.province(p).centre && owner != Some(line.power));
                    }
                    self.train = Some(i);
                }
                _ => self.refused.push(i),
            }
        }
        if let Some(train) = self.train {
            let to = riders[0].2;
            r.claim_move(train, to);
        }
        for &i in &self.refused {
            r.claim_outcome(i);
        }
        self.steps.len()
    }

    fn decide(&self, r: &mut Adjudicator<'_>, k: usize) -> bool {
        self.adjudicate_step(r, k)
    }

    fn moves(&self, r: &mut Adjudicator<'_>, u: usize) -> bool {
        self.train_end(r) == Some(r.target(u))
    }

    fn end(&self, r: &mut Adjudicator<'_>, _u: usize) -> Option<ProvinceId> {
        self.train_end(r)
    }

    /// The train bounces a move into a province of its line it reaches, and meets head on a
    /// move from its first province into its origin.
    fn decides_move(&self, r: &mut Adjudicator<'_>, u: usize, attack: u32) -> Option<bool> {
        let train = self.train?;
        if let Some(tp) = self.prevent(r, r.target(u)) {
            if attack <= tp {
                return Some(false);
            }
        }
        let head_on = r.target(u) == r.origin(train) && self.steps.first() == Some(&r.origin(u)) && r.is_direct_move(u);
        if !head_on {
            return None;
        }
        if attack <= self.defend(r, train) {
            return Some(false);
        }
        Some(!r.prevented_by_another(u, attack))
    }

    fn bounce_cause(&self, r: &mut Adjudicator<'_>, u: usize) -> Option<ProvinceId> {
        let train = self.train?;
        self.prevent(r, r.target(u)).map(|_| r.origin(train))
    }

    fn outcome(&self, r: &mut Adjudicator<'_>, u: usize) -> Option<Outcome> {
        if self.train != Some(u) {
            return Some(Outcome::RailStopped { at: r.origin(u) });
        }
        Some(match self.train_end(r) {
            Some(end) if end == r.target(u) => Outcome::Moved,
            end => Outcome::RailStopped {
                at: end.unwrap_or(r.origin(u)),
            },
        })
    }

    fn is_movement(&self, _k: usize) -> bool {
        true
    }

    /// The railroad paradox rule (DATC 7, assumptions): a ride whose bouncing of another unit is
    /// part of the cycle, or a cycle through the line with no consistent resolution: that part
    /// of the ride fails but still bounces the units moving there.
    fn settle_paradox(&self, r: &Adjudicator<'_>, cycle: &[u16], two_solutions: bool) -> Option<usize> {
        let steps = self.first_decision..self.first_decision + self.steps.len();
        if let Some(j) = self.bounced_on_line(r, cycle) {
            self.bounce_at.set(Some(self.steps[j]));
            return Some(self.step(j));
        }
        let last_step = cycle
            .iter()
            .map(|&c| usize::from(c))
            .filter(|d| steps.contains(d))
            .max();
        last_step.filter(|_| !two_solutions)
    }
}
