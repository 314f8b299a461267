//! What the generation of legal orders looks up again and again, computed once per position:
//! the unit in each province, the fleets that could convoy now, and which provinces each of them
//! touches (the geography of `map::convoy`, with the fleets on the board).

use std::cell::{OnceCell, RefCell};

use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::model::Cargo;
use crate::position::{Position, Unit};
use crate::variant::Variant;

/// A position prepared for listing orders.
pub(crate) struct Board<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// Its map.
    pub map: &'a Map,
    /// The position.
    pub position: &'a Position,
    /// The unit in each province (the first one, as `Position::unit_in` finds it).
    occupant: Vec<Option<Unit>>,
    /// Per province: the index into `touches` of the fleet there that could convoy now.
    convoy_fleet: Vec<Option<usize>>,
    /// The provinces holding a fleet that could convoy now.
    fleets: Vec<ProvinceId>,
    /// Per such fleet, per province: whether the fleet's province touches it.
    touches: Vec<Vec<bool>>,
    /// Per province: the fleets a chain from there reaches, computed when first asked.
    reach: RefCell<Vec<Option<Vec<bool>>>>,
    /// What fleets may carry, computed when first asked.
    cargoes: OnceCell<Vec<(ProvinceId, Cargo)>>,
    /// The convoy routes from each cargo's province, computed when first asked.
    routes: OnceCell<Vec<Route>>,
}

/// The fleets that may convoy from one province to another: those on a route without shortcut.
pub(crate) struct Route {
    /// Where the army (or leader) stands.
    pub from: ProvinceId,
    /// Where it goes.
    pub to: ProvinceId,
    /// The provinces of the fleets some route needs.
    pub fleets: Vec<ProvinceId>,
}

impl<'a> Board<'a> {
    /// Prepares a position.
    pub fn new(variant: &'a Variant, position: &'a Position) -> Board<'a> {
        let map = &variant.map;
        let count = map.provinces().len();
        let mut occupant = vec![None; count];
        for u in &position.units {
            let slot = &mut occupant[map.province_of(u.location).index()];
            if slot.is_none() {
                *slot = Some(*u);
            }
        }
        let fleets: Vec<ProvinceId> = map
            .provinces()
            .iter()
            .filter(|p| p.convoys && occupant[p.id.index()].is_some_and(|u| u.kind == UnitType::Fleet))
            .map(|p| p.id)
            .collect();
        let mut convoy_fleet = vec![None; count];
        let touches = fleets
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                convoy_fleet[f.index()] = Some(i);
                map.provinces().iter().map(|q| fleet_touches(map, f, q.id)).collect()
            })
            .collect();
        Board {
            variant,
            map,
            position,
            occupant,
            convoy_fleet,
            fleets,
            touches,
            reach: RefCell::new(vec![None; count]),
            cargoes: OnceCell::new(),
            routes: OnceCell::new(),
        }
    }

    /// The unit in a province.
    pub fn unit_in(&self, province: ProvinceId) -> Option<Unit> {
        self.occupant[province.index()]
    }

    /// Whether a province is shut in this position.
    pub fn shut(&self, province: ProvinceId) -> bool {
        self.position.is_shut(self.map, province)
    }

    /// The leader of `power` in a province who may lead a unit of this type, if one stands there.
    pub fn leads(&self, province: ProvinceId, power: PowerId, kind: UnitType) -> bool {
        let Some(place) = self.position.rules.leader_in(self.map, province, Some(power)) else {
            return false;
        };
        self.variant
            .leaders
            .get(place.leader.index())
            .is_none_or(|l| match l.leads {
                crate::scenario::Leads::Any => true,
                crate::scenario::Leads::Armies => kind == UnitType::Army,
                crate::scenario::Leads::Fleets => kind == UnitType::Fleet,
            })
    }

    /// Whether the unit is a garrison in its home province (Hegemony 5.1.4): it only holds.
    pub fn garrison_at_home(&self, location: LocationId) -> bool {
        let here = self.map.province_of(location);
        self.position
            .rules
            .garrisons()
            .iter()
            .any(|g| self.map.province_of(g.location) == here && g.home == here)
    }

    /// The convoying fleets a chain from `from` reaches, never passing through `avoid` (the
    /// search of `Map::convoy_chain_exists`), as a flag per fleet.
    pub fn convoy_reach(&self, from: ProvinceId, avoid: Option<ProvinceId>) -> Vec<bool> {
        let mut seen = vec![false; self.fleets.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (i, &f) in self.fleets.iter().enumerate() {
            if f != from && Some(f) != avoid && self.touches[i][from.index()] {
                seen[i] = true;
                stack.push(i);
            }
        }
        while let Some(p) = stack.pop() {
            let here = self.fleets[p];
            for (q, &f) in self.fleets.iter().enumerate() {
                if !seen[q] && f != here && Some(f) != avoid && self.touches[q][here.index()] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        seen
    }

    /// Whether a chain of fleets on the board joins two provinces without passing through
    /// `avoid` (`Map::convoy_chain_exists`); the chains without avoiding are kept per province.
    pub fn chain_avoiding(&self, from: ProvinceId, to: ProvinceId, avoid: ProvinceId) -> bool {
        let mut cache = self.reach.borrow_mut();
        let reach = cache[from.index()].get_or_insert_with(|| self.convoy_reach(from, None));
        if !self.reached(reach, avoid) {
            return self.chain_reaches(reach, to);
        }
        drop(cache);
        self.chain_reaches(&self.convoy_reach(from, Some(avoid)), to)
    }

    /// Whether one of the reached fleets touches `to` (a chain joins the army's province and it).
    pub fn chain_reaches(&self, reach: &[bool], to: ProvinceId) -> bool {
        reach.iter().enumerate().any(|(i, &r)| r && self.touches[i][to.index()])
    }

    /// Whether the fleet in `province` (if it could convoy now) was reached.
    pub fn reached(&self, reach: &[bool], province: ProvinceId) -> bool {
        self.convoy_fleet[province.index()].is_some_and(|i| reach[i])
    }

    /// What a fleet may be ordered to carry: each army (led, too, where its leader may lead it)
    /// and each leader alone, by the province it stands in.
    pub fn cargoes(&self) -> &[(ProvinceId, Cargo)] {
        self.cargoes.get_or_init(|| {
            let mut out = Vec::new();
            for u in self.position.units.iter().filter(|u| u.kind == UnitType::Army) {
                let from = self.map.province_of(u.location);
                if self.unit_in(from) == Some(*u) {
                    out.push((from, Cargo::Army));
                    if self.leads(from, u.power, UnitType::Army) {
                        out.push((from, Cargo::LedArmy));
                    }
                }
            }
            for l in self.position.rules.leaders() {
                let from = self.map.province_of(l.location);
                if !out.contains(&(from, Cargo::Leader)) {
                    out.push((from, Cargo::Leader));
                }
            }
            out
        })
    }

    /// Every convoy route from a cargo's province with the fleets on the board.
    pub fn routes(&self) -> &[Route] {
        self.routes.get_or_init(|| {
            let mut froms: Vec<ProvinceId> = self.cargoes().iter().map(|c| c.0).collect();
            froms.sort_unstable();
            froms.dedup();
            let mut out = Vec::new();
            for from in froms {
                let needed = self.routes_from(from);
                for (to, fleets) in needed.into_iter().enumerate() {
                    let to = ProvinceId(to as u16);
                    if fleets.is_empty() || !self.map.convoy_possible(from, to) {
                        continue;
                    }
                    out.push(Route { from, to, fleets });
                }
            }
            out
        })
    }

    /// Per province: the fleets on some route without a shortcut from `from` to it (those
    /// `Map::needed_for_convoy` says a route needs). A route ends with the first fleet that
    /// touches its end, and never holds the fleet standing in its end.
    fn routes_from(&self, from: ProvinceId) -> Vec<Vec<ProvinceId>> {
        let mut walk = RouteWalk {
            from,
            path: Vec::with_capacity(16),
            earlier: vec![0; self.map.provinces().len()],
            needed: vec![Vec::new(); self.map.provinces().len()],
        };
        self.extend_routes(&mut walk);
        walk.needed
    }

    /// Extends the walk's route by every fleet next to its end that makes no shortcut, and marks
    /// the fleets of each route as needed for every province its last fleet is the first to touch.
    fn extend_routes(&self, walk: &mut RouteWalk) {
        let from = walk.from;
        let last = walk.path.last().map_or(from, |&i| self.fleets[i]);
        for next in 0..self.fleets.len() {
            let f = self.fleets[next];
            if f == last || f == from || !self.touches[next][last.index()] || walk.path.contains(&next) {
                continue;
            }
            let shortcut = (!walk.path.is_empty() && self.touches[next][from.index()])
                || walk.path[..walk.path.len().saturating_sub(1)]
                    .iter()
                    .any(|&p| self.touches[next][self.fleets[p].index()]);
            if shortcut {
                continue;
            }
            walk.path.push(next);
            // The fleet before the new last one now lies inside the route.
            let inner = walk.path.len().checked_sub(2).map(|i| walk.path[i]);
            self.count_touched(walk, inner, 1);
            self.mark_routes(walk);
            self.extend_routes(walk);
            self.count_touched(walk, inner, -1);
            walk.path.pop();
        }
    }

    /// Marks the route's fleets as needed for the provinces its last fleet touches and no
    /// earlier one does (not those of its own fleets).
    fn mark_routes(&self, walk: &mut RouteWalk) {
        let Some(&last) = walk.path.last() else {
            return;
        };
        for to in 0..self.map.provinces().len() {
            let ends = self.touches[last][to]
                && walk.earlier[to] == 0
                && to != walk.from.index()
                && !walk.path.iter().any(|&p| self.fleets[p].index() == to);
            if ends {
                for &p in &walk.path {
                    if !walk.needed[to].contains(&self.fleets[p]) {
                        walk.needed[to].push(self.fleets[p]);
                    }
                }
            }
        }
    }

    /// Counts (or uncounts) the provinces a fleet inside the route touches.
    fn count_touched(&self, walk: &mut RouteWalk, fleet: Option<usize>, by: i32) {
        if let Some(i) = fleet {
            for (count, &t) in walk.earlier.iter_mut().zip(&self.touches[i]) {
                if t {
                    *count += by;
                }
            }
        }
    }
}

/// A depth-first walk over the convoy routes from one province.
struct RouteWalk {
    /// Where the routes start.
    from: ProvinceId,
    /// The route so far (indices of fleets).
    path: Vec<usize>,
    /// Per province: how many fleets of the route before its last touch it.
    earlier: Vec<i32>,
    /// Per province: the fleets some route to it needs.
    needed: Vec<Vec<ProvinceId>>,
}

/// Whether a fleet in province `a` could move into some part of province `b`.
fn fleet_touches(map: &Map, a: ProvinceId, b: ProvinceId) -> bool {
    let pa = map.province(a);
    std::iter::once(pa.main)
        .chain(pa.coasts.iter().copied())
        .filter(|&l| map.location(l).fleet)
        .any(|l| map.can_reach_province(UnitType::Fleet, l, b))
}
