//! Convoy geography: which fleets could ever be part of a convoy route.

use crate::ids::{ProvinceId, UnitType};
use crate::map::Map;

impl Map {
    /// Whether a fleet in `through` could be needed to convoy an army from `from` to `to`: it lies
    /// on a route of convoying provinces (those `usable` allows) that has no shortcut, i.e. no
    /// province of the route touches the start, the end or another province of the route except
    /// its neighbours on the route (DATC 4.E.1 and 6.G.19: a fleet that no route needs cannot
    /// legally convoy).
    pub fn needed_for_convoy(
        &self,
        from: ProvinceId,
        to: ProvinceId,
        through: ProvinceId,
        usable: &dyn Fn(ProvinceId) -> bool,
    ) -> bool {
        if from == to || !self.province(through).convoys || !usable(through) {
            return false;
        }
        let mut path: Vec<ProvinceId> = Vec::with_capacity(16);
        self.extend_route(from, to, through, usable, &mut path)
    }

    /// Whether some chain of convoying provinces (those `usable` allows) joins `from` and `to`,
    /// never passing through `avoid`.
    pub fn convoy_chain_exists(
        &self,
        from: ProvinceId,
        to: ProvinceId,
        avoid: Option<ProvinceId>,
        usable: &dyn Fn(ProvinceId) -> bool,
    ) -> bool {
        if from == to {
            return false;
        }
        let mut seen = vec![false; self.provinces.len()];
        let mut stack: Vec<ProvinceId> = self
            .convoy_neighbours(from)
            .filter(|&p| Some(p) != avoid && usable(p))
            .collect();
        for p in &stack {
            seen[p.index()] = true;
        }
        while let Some(p) = stack.pop() {
            if self.fleet_touches(p, to) {
                return true;
            }
            for q in self.convoy_neighbours(p) {
                if !seen[q.index()] && Some(q) != avoid && usable(q) {
                    seen[q.index()] = true;
                    stack.push(q);
                }
            }
        }
        false
    }

    /// Whether a fleet in province `a` could move into some part of province `b`.
    fn fleet_touches(&self, a: ProvinceId, b: ProvinceId) -> bool {
        let pa = self.province(a);
        std::iter::once(pa.main)
            .chain(pa.coasts.iter().copied())
            .filter(|&l| self.location(l).fleet)
            .any(|l| self.can_reach_province(UnitType::Fleet, l, b))
    }

    /// Convoying provinces next to a province.
    fn convoy_neighbours(&self, p: ProvinceId) -> impl Iterator<Item = ProvinceId> + '_ {
        self.provinces
            .iter()
            .filter(move |q| q.convoys && q.id != p && self.fleet_touches(q.id, p))
            .map(|q| q.id)
    }

    fn extend_route(
        &self,
        from: ProvinceId,
        to: ProvinceId,
        through: ProvinceId,
        usable: &dyn Fn(ProvinceId) -> bool,
        path: &mut Vec<ProvinceId>,
    ) -> bool {
        let candidates: Vec<ProvinceId> = match path.last() {
            None => self.convoy_neighbours(from).collect(),
            Some(&last) => self.convoy_neighbours(last).collect(),
        };
        for next in candidates {
            if next == to || next == from || path.contains(&next) || !usable(next) {
                continue;
            }
            // No shortcut: the new province touches only the last one of the route (and the start
            // only if it is the first).
            let shortcut = (!path.is_empty() && self.fleet_touches(next, from))
                || path[..path.len().saturating_sub(1)]
                    .iter()
                    .any(|&p| self.fleet_touches(next, p));
            if shortcut {
                continue;
            }
            path.push(next);
            let found = if self.fleet_touches(next, to) {
                path.contains(&through)
            } else {
                self.extend_route(from, to, through, usable, path)
            };
            path.pop();
            if found {
                return true;
            }
        }
        false
    }
}
