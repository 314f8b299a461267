//! The railroad rule (Colonial's Trans-Siberian Railroad, seed 004 §4.2 and DATC 7.B): one army of
//! the railroad's power rides the line, step by step; it stops before the first province it cannot
//! pass, in the last free province reached.
//!
//! Each step is a decision of its own (after the unit and canal decisions), so the guess algorithm
//! finds cycles through the line, and the paradox rule makes the steps in a paradox fail — a train
//! that reaches a province still bounces the units moving there.
//!
//! Passing a province on the way: blocked by a unit of another power that stays there, by a supply
//! centre the power does not own unless one of its armies stays there, and by a single strongest
//! attack on the province (the attacker and the train stand off, or a stronger attacker enters);
//! two attacks that stand off between themselves let the train pass. The destination: entered like
//! an ordinary move with the train's supports, but never by dislodging a unit. A unit moving from
//! the first province of the line into the train's origin meets the train head to head: the train
//! cannot win that battle.

use super::{Adjudicator, Kind, NONE};

impl Adjudicator<'_> {
    /// The decision id of the train's step `j`.
    pub(super) fn step_decision(&self, j: usize) -> usize {
        2 * self.kind.len() + j
    }

    /// Whether the train gets past or into `steps[j]`.
    pub(super) fn adjudicate_step(&mut self, j: usize) -> bool {
        let Some(train) = self.train else { return false };
        if j > 0 && !self.resolve(self.step_decision(j - 1)) {
            return false;
        }
        let p = self.train_steps[j];
        let last = j + 1 == self.train_steps.len();
        let occupant = self.occupant(p);
        if j == 0 {
            if let Some(o) = occupant {
                let head_on = self.kind[o] == Kind::Move
                    && self.target[o] == self.origin[train]
                    && !self.convoyed[o]
                    && self.canal[o] == NONE;
                if head_on {
                    return false;
                }
            }
        }
        let stays = |s: &mut Self, o: usize| !(s.kind[o] == Kind::Move && s.resolve(o));
        // A supply centre the power does not own must be taken: the train stops in it, unless an
        // army of the power stays there (Avalon Hill errata; DATC 7.B.18-7.B.22).
        if j > 0 && self.train_blocked_centre[j - 1] {
            let before = self.train_steps[j - 1];
            match self.occupant(before) {
                Some(o) if self.power[o] == self.power[train] && stays(self, o) => {}
                _ => return false,
            }
        }
        if !last {
            if let Some(o) = occupant {
                if self.power[o] != self.power[train] && stays(self, o) {
                    return false;
                }
            }
            let strength = self.strength[train];
            !self.single_strongest_attack(p, strength)
        } else {
            if let Some(o) = occupant {
                if stays(self, o) {
                    return false;
                }
            }
            let attack = self.strength[train] + self.supports(train, None);
            !self.single_strongest_attack(p, attack)
        }
    }

    /// Whether one attack on `p` is stronger than every other and at least as strong as the train:
    /// it stops the train there. Attacks that stand off between themselves let the train through
    /// (DATC 7.B.6, 7.B.7).
    fn single_strongest_attack(&mut self, p: u16, train: u32) -> bool {
        let mut strongest = 0;
        let mut count = 0;
        let mut a = self.first_attacker[usize::from(p)];
        while a != NONE {
            let attacker = usize::from(a);
            a = self.next_attacker[attacker];
            let s = self.prevent_strength(attacker);
            if s > strongest {
                strongest = s;
                count = 1;
            } else if s == strongest && s > 0 {
                count += 1;
            }
        }
        count == 1 && strongest >= train
    }

    /// The strength with which the train, if it gets to province `p` of its line, stands against
    /// other units moving there (`None` when it does not get there).
    pub(super) fn train_prevent(&mut self, p: u16) -> Option<u32> {
        let train = self.train?;
        let j = self.train_steps.iter().position(|&s| s == p)?;
        let bounces_by_rule = self.train_bounce_at == Some(p);
        if !bounces_by_rule && j > 0 && !self.resolve(self.step_decision(j - 1)) {
            return None;
        }
        if j == 0 {
            // A train beaten head on (the unit from its first province took its origin) stops
            // nothing there.
            if let Some(o) = self.occupant(p) {
                let head_on = self.kind[o] == Kind::Move && self.target[o] == self.origin[train];
                if head_on && self.resolve(o) {
                    return None;
                }
            }
        }
        Some(if j + 1 == self.train_steps.len() {
            self.strength[train] + self.supports(train, None)
        } else {
            self.strength[train]
        })
    }

    /// Where the train ends: the farthest province it got into that no other unit holds at the
    /// end, or `None` when it stays where it was.
    pub(super) fn train_end(&mut self) -> Option<u16> {
        let n = self.train_steps.len();
        for j in (0..n).rev() {
            if !self.resolve(self.step_decision(j)) {
                continue;
            }
            let p = self.train_steps[j];
            let train = self.train.unwrap_or(0);
            // A unit of another power in a province the train got past must have left it; one of
            // the train's own power may have stayed (the train passed through it).
            let free = match self.occupant(p) {
                None => true,
                Some(o) if self.power[o] != self.power[train] => true,
                Some(o) => self.kind[o] == Kind::Move && self.resolve(o),
            };
            if free {
                return Some(p);
            }
        }
        None
    }

    /// Whether the train leaves its origin.
    pub(super) fn train_moves(&mut self) -> bool {
        self.train_end().is_some()
    }

    /// The strength with which the train defends its origin against a unit coming head on from
    /// the first province of its line.
    pub(super) fn train_defend(&mut self, train: usize) -> u32 {
        if self.train_steps.len() == 1 {
            self.strength[train] + self.supports(train, None)
        } else {
            self.strength[train]
        }
    }
}
