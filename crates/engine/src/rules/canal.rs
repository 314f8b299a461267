//! The canal rule: a fleet passes through a canal province between two waters only with the
//! leave of the unit holding it (an `SC` order names the passage; without one, a unit lets the
//! one fleet of its own power pass).
//!
//! In the resolver each fleet moving through a canal has a passage decision of its own: open
//! when the unit holding the canal province stays there all turn, is not dislodged, and permits
//! the passage. In a paradox the passage fails like a convoy (Szykman).

use super::{MovementPhase, MovementSetup, RuleModule, RuleName};
use crate::adjudicate::movement::{Adjudicator, ResolverRule};
use crate::adjudicate::outcome::Outcome;
use crate::ids::{ProvinceId, UnitType};
use crate::order::{CanalPermission, Order};
use crate::position::Unit;

/// See the module's description.
pub(super) struct Canal;

impl RuleModule for Canal {
    fn name(&self) -> RuleName {
        RuleName::Canal
    }

    /// The passages of the orders carried out: a replaced order's permission is gone.
    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        let lines = phase.lines.iter().zip(phase.carried);
        let permissions = lines
            .filter(|&(_, &carried)| carried)
            .filter_map(|(line, _)| line.permission)
            .collect();
        setup.resolver_rules.push(Box::new(Passages::new(permissions)));
    }
}

/// The canal passages of one phase, as the resolver decides them.
pub struct Passages {
    /// The permissions given by the orders carried out.
    permissions: Vec<CanalPermission>,
    /// Per unit: the canal province it moves through, if any.
    canal: Vec<Option<ProvinceId>>,
    /// Permissions by keeper unit: (keeper, fleet's province, destination province); a later
    /// permission of the same unit replaces an earlier one.
    permits: Vec<(usize, ProvinceId, ProvinceId)>,
    /// The resolver's id of the first passage decision (one per unit).
    first_decision: usize,
}

impl Passages {
    /// The passages of a phase with these permissions.
    pub fn new(permissions: Vec<CanalPermission>) -> Self {
        Passages {
            permissions,
            canal: Vec::new(),
            permits: Vec::new(),
            first_decision: 0,
        }
    }

    /// Whether the unit holding the canal lets fleet `u` pass.
    fn permitted(&self, r: &Adjudicator<'_>, keeper: usize, u: usize, canal: ProvinceId) -> bool {
        let explicit = self.permits.iter().any(|&(k, _, _)| k == keeper);
        if explicit {
            return self
                .permits
                .iter()
                .any(|&(k, from, to)| k == keeper && from == r.origin(u) && to == r.target(u));
        }
        // Without an explicit permission a unit lets the one fleet of its own power pass.
        let own = r.power(u);
        r.power(keeper) == own
            && (0..r.unit_count())
                .filter(|&v| self.canal[v] == Some(canal) && r.power(v) == own)
                .count()
                == 1
    }
}

impl ResolverRule for Passages {
    fn prepare(&mut self, r: &mut Adjudicator<'_>, units: &[Unit], orders: &[Order], first_decision: usize) -> usize {
        let map = r.map();
        self.first_decision = first_decision;
        self.canal.clear();
        for (unit, order) in units.iter().zip(orders) {
            let through = match *order {
                Order::Move { to, .. }
                    if unit.kind == UnitType::Fleet && !map.is_adjacent(unit.kind, unit.location, to) =>
                {
                    map.canal_between(unit.location, to)
                }
                _ => None,
            };
            self.canal.push(through);
        }
        self.permits.clear();
        for p in &self.permissions {
            if let Some(keeper) = r.occupant(map.province_of(p.keeper)) {
                let passage = (keeper, map.province_of(p.fleet), map.province_of(p.to));
                self.permits.retain(|&(k, _, _)| k != keeper);
                self.permits.push(passage);
            }
        }
        let mut routed = false;
        for u in (0..units.len()).filter(|&u| self.canal[u].is_some()) {
            r.claim_route(u);
            routed = true;
        }
        if routed { units.len() } else { 0 }
    }

    /// Whether unit `k`'s canal is open to it.
    fn decide(&self, r: &mut Adjudicator<'_>, k: usize) -> bool {
        let Some(canal) = self.canal.get(k).copied().flatten() else {
            return false;
        };
        let Some(keeper) = r.occupant(canal) else { return false };
        // The keeper must stay in the canal province all turn: a move of its that fails keeps it
        // there (DATC 7.C.8, 7.C.14).
        if !r.stays(keeper) || !self.permitted(r, keeper, k, canal) {
            return false;
        }
        let mut a = r.first_attacker(canal);
        while let Some(attacker) = a {
            a = r.next_attacker(attacker);
            if r.decision(attacker) {
                return false;
            }
        }
        true
    }

    fn route(&self, r: &mut Adjudicator<'_>, u: usize) -> bool {
        let d = self.first_decision + u;
        !r.is_paradox(d) && r.decision(d)
    }

    fn outcome(&self, r: &mut Adjudicator<'_>, u: usize) -> Option<Outcome> {
        (!r.decision(u) && !self.route(r, u)).then_some(Outcome::CanalClosed)
    }

    fn fails_in_paradox(&self, _k: usize) -> bool {
        true
    }
}
