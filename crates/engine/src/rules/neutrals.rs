//! Countries no player plays (Hegemony 1.1.6): a unit of a neutral country never supports a
//! foreign unit's attack on a supply centre its country owns — not even to keep the centre free
//! by a standoff. Such a support, whoever gave it, becomes a hold, which may be supported.
//!
//! A dislodged unit of a country no one plays or controls retreats by itself (1.1.5.3, research
//! D-11): into an adjacent empty centre of its own country where it may retreat, else into one
//! of another country or of none (never an overseas centre, which cannot be taken), the first
//! by province order; with no such place it is disbanded.
//!
//! Which countries are neutral is the variant's data (the scenario's players); which centres a
//! country owns is the position's.

use super::{RuleModule, RuleName, UnitOrders};
use crate::order::Order;
use crate::position::{DislodgedUnit, Position, Unit};
use crate::variant::Variant;

/// The rule's number in the Hegemony rules, named in reports.
const NUMBER: &str = "1.1.6";

/// See the module's description.
pub(super) struct Neutrals;

impl RuleModule for Neutrals {
    fn name(&self) -> RuleName {
        RuleName::Neutrals
    }

    fn automatic_retreat(&self, variant: &Variant, position: &Position, d: &DislodgedUnit) -> Option<Order> {
        let map = &variant.map;
        if position.rules.controlled(map, d.unit.power) {
            return None;
        }
        let unit = crate::order::UnitRef::new(d.unit.kind, d.unit.location);
        let centre = |own: bool| {
            d.retreats
                .iter()
                .copied()
                .filter(|&l| {
                    let p = map.province_of(l);
                    let owner = position.owners[p.index()];
                    map.province(p).centre && (owner == Some(d.unit.power)) == own
                })
                .min_by_key(|&l| map.province_of(l))
        };
        Some(match centre(true).or_else(|| centre(false)) {
            Some(to) => Order::Retreat { unit, to },
            None => Order::Disband { unit },
        })
    }

    fn automatic_orders(&self, variant: &Variant, position: &Position, units: &[Unit], orders: &mut UnitOrders) {
        let map = &variant.map;
        for (i, unit) in units.iter().enumerate() {
            if map.is_player(unit.power) {
                continue;
            }
            let Order::SupportMove {
                unit: me,
                supported,
                to,
            } = orders.orders[i]
            else {
                continue;
            };
            let target = map.province_of(to);
            let mover = units
                .iter()
                .find(|u| map.province_of(u.location) == map.province_of(supported.location));
            let foreign = mover.is_some_and(|m| m.power != unit.power);
            let own_centre = position.owners.get(target.index()).copied().flatten() == Some(unit.power);
            if foreign && own_centre {
                orders.set(i, Order::Hold { unit: me }, NUMBER);
            }
        }
    }
}
