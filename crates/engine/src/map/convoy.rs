//! Convoy geography: which fleets could ever be part of a convoy route.

use smallvec::SmallVec;

use crate::ids::{ProvinceId, UnitType};
use crate::map::Map;

/// The provinces a search has seen, one bit each (on the stack for maps of up to 512).
struct Seen(SmallVec<[u64; 8]>);

impl Seen {
    fn new(provinces: usize) -> Seen {
        Seen(smallvec::smallvec![0; provinces.div_ceil(64)])
    }

    fn contains(&self, p: ProvinceId) -> bool {
        self.0[p.index() / 64] & (1 << (p.index() % 64)) != 0
    }

    fn insert(&mut self, p: ProvinceId) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }
}

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
        let mut seen = Seen::new(self.provinces.len());
        let mut stack: SmallVec<[ProvinceId; 16]> = SmallVec::new();
        let mut visit = |q: ProvinceId, stack: &mut SmallVec<[ProvinceId; 16]>| {
            if Some(q) != avoid && !seen.contains(q) && usable(q) {
                seen.insert(q);
                stack.push(q);
            }
        };
        for &q in self.convoy_neighbours(from) {
            visit(q, &mut stack);
        }
        while let Some(p) = stack.pop() {
            if self.fleet_touches(p, to) {
                return true;
            }
            for &q in self.convoy_neighbours(p) {
                visit(q, &mut stack);
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

    /// Convoying provinces next to a province (a fleet there could move into some part of it).
    fn convoy_neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.convoy_neighbours[p.index()]
    }

    /// For every province, the convoying provinces next to it: worked out once when the map is
    /// loaded.
    pub(crate) fn convoy_neighbour_lists(&self) -> Vec<Vec<ProvinceId>> {
        let next_to = |p: ProvinceId| {
            self.provinces
                .iter()
                .filter(|q| q.convoys && q.id != p && self.fleet_touches(q.id, p))
                .map(|q| q.id)
                .collect()
        };
        self.provinces.iter().map(|p| next_to(p.id)).collect()
    }

    fn extend_route(
        &self,
        from: ProvinceId,
        to: ProvinceId,
        through: ProvinceId,
        usable: &dyn Fn(ProvinceId) -> bool,
        path: &mut Vec<ProvinceId>,
    ) -> bool {
        let candidates = self.convoy_neighbours(path.last().copied().unwrap_or(from));
        for &next in candidates {
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
