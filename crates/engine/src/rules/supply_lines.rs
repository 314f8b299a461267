//! Supply lines (Hegemony 2.1), blocked overseas centres (2.2.3) and the declarations of
//! friendship they depend on (1.2): the first steps of a winter (4.4 steps 1–3).
//!
//! - Friendship: a country is friendly towards another when it is that country, declared
//!   itself friendly towards it this winter (`Friendly to England`), or is a neutral that
//!   country controls alone (1.2.2.1); otherwise hostile — an uncontrolled neutral towards all.
//! - An overseas centre (a sea its owner owns as a centre) is blocked when a unit of a country
//!   hostile to the owner stands there at the end of the fall (2.2.3).
//! - A supply line runs from a unit's square through bordering squares (any border, research
//!   D-28; never a shut one) to a centre its country owns and can use. It is cut where a unit not
//!   friendly to the supplied unit stands (D-12). A square is threatened where a hostile unit
//!   that may move could be ordered into it without a convoy (2.1.3; not uncontrolled neutrals,
//!   not a garrison at home, a garrison away only its home); it is protected by a friendly unit
//!   standing there, by the supplied unit for the line's second square, and by the centre for the
//!   last (2.1.4). A line is secure when nothing cuts it and every threatened square is protected
//!   (D-13); a unit without one is removed (2.1.5.3).
//!
//! None of this is checked in the scenario's first winter (research D-6).

use super::{AdjustmentPhase, BlockedCentre, RuleModule, RuleName, SupplyFailure, Unsupplied, WinterSteps};
use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::ids::{PowerId, ProvinceId};
use crate::order::{Order, PowerOrder};
use crate::position::{Position, Unit};
use crate::variant::Variant;

/// See the module's description.
pub(super) struct SupplyLines;

impl RuleModule for SupplyLines {
    fn name(&self) -> RuleName {
        RuleName::SupplyLines
    }

    fn has_winter_steps(&self) -> bool {
        true
    }

    fn winter_steps(&self, variant: &Variant, position: &Position, orders: &[PowerOrder]) -> Option<WinterSteps> {
        let declared: Vec<(PowerId, PowerId)> = orders
            .iter()
            .filter_map(|o| match (o.power, o.order) {
                (Some(from), Order::Declare { to }) => Some((from, to)),
                _ => None,
            })
            .collect();
        if position.phase == variant.start {
            return Some(WinterSteps {
                declared,
                ..WinterSteps::default()
            });
        }
        let board = Board::new(variant, position, &declared);
        let blocked = board.blocked_centres();
        let board = Board {
            blocked: &blocked,
            ..board
        };
        let unsupplied = position
            .units
            .iter()
            .filter(|u| variant.map.power(u.power).needs_supply)
            .filter_map(|u| board.unsupplied(u))
            .collect();
        Some(WinterSteps {
            declared,
            blocked,
            unsupplied,
        })
    }

    fn adjustment_orders(&self, phase: &AdjustmentPhase<'_>, outcomes: &mut [AdjustmentOutcome], _next: &mut Position) {
        for (o, outcome) in phase.orders.iter().zip(outcomes.iter_mut()) {
            if matches!(o.order, Order::Declare { .. }) {
                *outcome = AdjustmentOutcome::Declared;
            }
        }
    }
}

/// The board of a winter as the supply rules see it.
struct Board<'a> {
    variant: &'a Variant,
    position: &'a Position,
    declared: &'a [(PowerId, PowerId)],
    blocked: &'a [BlockedCentre],
    /// The unit standing in each province.
    occupant: Vec<Option<Unit>>,
}

impl<'a> Board<'a> {
    fn new(variant: &'a Variant, position: &'a Position, declared: &'a [(PowerId, PowerId)]) -> Board<'a> {
        let map = &variant.map;
        let mut occupant = vec![None; map.provinces().len()];
        for u in &position.units {
            occupant[map.province_of(u.location).index()] = Some(*u);
        }
        Board {
            variant,
            position,
            declared,
            blocked: &[],
            occupant,
        }
    }

    /// Whether `from` is friendly towards `to` this winter (1.2).
    fn friendly(&self, from: PowerId, to: PowerId) -> bool {
        from == to || self.declared.contains(&(from, to)) || self.position.rules.politics().controllers(from) == [to]
    }

    /// The overseas centres a hostile unit stands in (2.2.3).
    fn blocked_centres(&self) -> Vec<BlockedCentre> {
        let map = &self.variant.map;
        let mut blocked = Vec::new();
        for (i, owner) in self.position.owners.iter().enumerate() {
            let Some(owner) = *owner else { continue };
            if map.provinces()[i].centre {
                continue;
            }
            if let Some(by) = self.occupant[i].filter(|u| !self.friendly(u.power, owner)) {
                blocked.push(BlockedCentre {
                    owner,
                    centre: ProvinceId(i as u16),
                    by,
                });
            }
        }
        blocked
    }

    /// Whether a line of `country`'s unit may end in `p`: a centre it owns and may use.
    fn own_centre(&self, country: PowerId, p: ProvinceId) -> bool {
        let province = self.variant.map.province(p);
        self.position.owners[p.index()] == Some(country)
            && !province.not_centre_for.contains(&country)
            && !self.blocked.iter().any(|b| b.centre == p)
    }

    /// The unit not friendly to `country` that cuts its lines through `p`, if one stands there.
    fn cutter(&self, country: PowerId, p: ProvinceId) -> Option<Unit> {
        self.occupant[p.index()].filter(|u| !self.friendly(u.power, country))
    }

    /// A hostile unit that could be ordered into `p` without a convoy, threatening `country`'s
    /// lines there (2.1.3).
    fn threat(&self, country: PowerId, p: ProvinceId) -> Option<Unit> {
        self.position
            .units
            .iter()
            .copied()
            .find(|t| !self.friendly(t.power, country) && self.can_threaten(t, p))
    }

    /// Whether unit `t` may move and could move into `p` (2.1.3.2, 5.1.4.6).
    fn can_threaten(&self, t: &Unit, p: ProvinceId) -> bool {
        let map = &self.variant.map;
        if !self.position.rules.controlled(map, t.power) {
            return false;
        }
        let garrison = self
            .position
            .rules
            .garrisons()
            .iter()
            .find(|g| g.power == t.power && g.location == t.location);
        match garrison {
            Some(g) if g.at_home(self.variant) || g.home != p => false,
            _ => map.can_reach_province(t.kind, t.location, p),
        }
    }

    /// The provinces a line may go to next from `p` (any border, never a shut province).
    fn next_squares(&self, p: ProvinceId) -> impl Iterator<Item = ProvinceId> + '_ {
        let map = &self.variant.map;
        (0..map.provinces().len())
            .map(|i| ProvinceId(i as u16))
            .filter(move |&q| q != p && !self.position.is_shut(map, q) && map.borders(p, q))
    }

    /// Whether the unit has a secure supply line (2.1.5.2, research D-13).
    fn supplied(&self, unit: &Unit) -> bool {
        let map = &self.variant.map;
        let country = unit.power;
        let start = map.province_of(unit.location);
        if self.own_centre(country, start) {
            return true;
        }
        let mut seen = vec![false; map.provinces().len()];
        seen[start.index()] = true;
        let mut frontier = Vec::new();
        // The second square: protected by the unit itself (2.1.4.2).
        for q in self.next_squares(start) {
            seen[q.index()] = true;
            if self.cutter(country, q).is_some() {
                continue;
            }
            if self.own_centre(country, q) {
                return true;
            }
            frontier.push(q);
        }
        while let Some(p) = frontier.pop() {
            for q in self.next_squares(p) {
                if std::mem::replace(&mut seen[q.index()], true) || self.cutter(country, q).is_some() {
                    continue;
                }
                if self.own_centre(country, q) {
                    return true;
                }
                let protected = self.occupant[q.index()].is_some();
                if protected || self.threat(country, q).is_none() {
                    frontier.push(q);
                }
            }
        }
        false
    }

    /// The unit's removal and why, if it has no secure supply line.
    fn unsupplied(&self, unit: &Unit) -> Option<Unsupplied> {
        if self.supplied(unit) {
            return None;
        }
        Some(Unsupplied {
            unit: *unit,
            reason: self.failure(unit),
        })
    }

    /// Why the unit's shortest line (counting no unit) is not secure: its first square cut, else
    /// its first square threatened and unprotected.
    fn failure(&self, unit: &Unit) -> SupplyFailure {
        let Some(line) = self.shortest_line(unit) else {
            return SupplyFailure::NoLine;
        };
        let country = unit.power;
        if let Some((square, by)) = line[1..]
            .iter()
            .find_map(|&q| self.cutter(country, q).map(|by| (q, by)))
        {
            return SupplyFailure::Cut { square, by };
        }
        let middle = line.get(2..line.len() - 1).unwrap_or(&[]);
        middle
            .iter()
            .filter(|&&q| self.occupant[q.index()].is_none())
            .find_map(|&q| {
                self.threat(country, q)
                    .map(|by| SupplyFailure::Threatened { square: q, by })
            })
            .unwrap_or(SupplyFailure::NoLine)
    }

    /// The shortest line from the unit to a centre its country may use, counting no unit.
    fn shortest_line(&self, unit: &Unit) -> Option<Vec<ProvinceId>> {
        let map = &self.variant.map;
        let start = map.province_of(unit.location);
        let mut came_from: Vec<Option<ProvinceId>> = vec![None; map.provinces().len()];
        let mut queue = std::collections::VecDeque::from([start]);
        came_from[start.index()] = Some(start);
        while let Some(p) = queue.pop_front() {
            if self.own_centre(unit.power, p) {
                let mut line = vec![p];
                let mut at = p;
                while at != start {
                    at = came_from[at.index()]?;
                    line.push(at);
                }
                line.reverse();
                return Some(line);
            }
            for q in self.next_squares(p) {
                if came_from[q.index()].is_none() {
                    came_from[q.index()] = Some(p);
                    queue.push_back(q);
                }
            }
        }
        None
    }
}
