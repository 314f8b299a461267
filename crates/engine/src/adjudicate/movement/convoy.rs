//! Routes: whether a move has its way there, over land, through a chain of convoying fleets, or
//! by a route a rule decides.

use super::{Adjudicator, NO_RULE, NONE};
use crate::ids::{ProvinceId, UnitType};

impl Adjudicator<'_> {
    /// Whether the move has a route: over land, or through a chain of successfully convoying fleets.
    pub(super) fn path(&mut self, u: usize) -> bool {
        let slot = &self.slots[u];
        if slot.rule_of != NO_RULE {
            return self.rule_route(u);
        }
        if !slot.convoyed {
            return true;
        }
        self.convoy_route(u, None)
    }

    /// Whether a rule that claimed move `u`'s route opens it.
    #[cold]
    #[inline(never)]
    fn rule_route(&mut self, u: usize) -> bool {
        match self.rules() {
            Some(rules) => rules[usize::from(self.slots[u].rule_of)].route(self, u),
            None => true,
        }
    }

    /// Searches a chain of convoying fleets (resolved successful) from the army's province to its
    /// destination. With `through`, the chain must contain that fleet.
    pub(super) fn convoy_route(&mut self, u: usize, through: Option<usize>) -> bool {
        let from = ProvinceId(self.slots[u].origin);
        let to = ProvinceId(self.slots[u].target);
        // Fleets on the list are numbered by their position in it; at most 128 are tracked.
        let mut fleets = [NONE; 128];
        let mut count = 0;
        let mut c = self.slots[u].first_convoy;
        while c != NONE && count < fleets.len() {
            let f = usize::from(c);
            c = self.slots[f].next_convoy;
            if !self.decisions[f].paradox && self.resolve(f) {
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
        let location = self.map.province(ProvinceId(self.slots[usize::from(f)].origin)).main;
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
                let pk = ProvinceId(self.slots[usize::from(fk)].origin);
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
}
