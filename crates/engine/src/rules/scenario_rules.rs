//! The scenario rules a position switches on (Hegemony 5.1); what each acts on is the variant's
//! data (`[special_rule]`, the garrisons of the position), never code.
//!
//! - Garrisons (5.1.4): a garrison at home may only hold (the order reader refuses anything
//!   else); driven out, its army is ordered to move home every turn, whatever else it was told,
//!   by convoy where it does not border its home; where no route exists at all it holds
//!   (research D-26). Either order may be supported.
//! - Capital defence (5.1.3): while no player controls the country, its army in the capital
//!   holds and moves with the strength of a led one (2).
//! - Mutual defence (5.1.6): while no player controls the country, each of its units that
//!   borders exactly one other unit of the country supports that unit's hold; one that borders
//!   several would get several orders, which void each other: it holds.
//!
//! A country is controlled in this part of the rules when a player plays it; control of neutral
//! countries by political factors comes with the politics (Hegemony part 2).

use super::{MovementPhase, MovementSetup, RuleModule, RuleName};
use crate::ids::{PowerId, UnitType};
use crate::order::Order;
use crate::order::model::UnitRef;
use crate::position::{Position, Unit};
use crate::scenario::SpecialRule;
use crate::variant::Variant;

/// See the module's description.
pub(super) struct ScenarioRules;

impl RuleModule for ScenarioRules {
    fn name(&self) -> RuleName {
        RuleName::ScenarioRules
    }

    fn automatic_orders(
        &self,
        variant: &Variant,
        position: &Position,
        units: &[Unit],
        orders: &mut [Order],
        ordered: &mut [bool],
    ) {
        let on = position.rules.special_rules();
        if on.contains(&SpecialRule::Garrisons) {
            garrisons_go_home(variant, position, units, orders, ordered);
        }
        if on.contains(&SpecialRule::MutualDefence) {
            for &country in &variant.special_places.mutual_defence {
                if !variant.map.is_player(country) {
                    mutual_supports(variant, country, units, orders, ordered);
                }
            }
        }
    }

    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        if !phase
            .position
            .rules
            .special_rules()
            .contains(&SpecialRule::CapitalDefence)
        {
            return;
        }
        let map = &phase.variant.map;
        for (i, unit) in phase.units.iter().enumerate() {
            let defends = phase
                .variant
                .special_places
                .capital_defence
                .iter()
                .any(|&(country, capital)| {
                    unit.power == country
                        && unit.kind == UnitType::Army
                        && map.province_of(unit.location) == capital
                        && !map.is_player(country)
                });
            if defends {
                if setup.strengths.is_empty() {
                    setup.strengths = vec![1; phase.units.len()];
                }
                setup.strengths[i] = setup.strengths[i].max(2);
            }
        }
    }
}

/// Orders every garrison driven out of its home to move back there (5.1.4.4).
fn garrisons_go_home(
    variant: &Variant,
    position: &Position,
    units: &[Unit],
    orders: &mut [Order],
    ordered: &mut [bool],
) {
    let map = &variant.map;
    for g in position.rules.garrisons().iter().filter(|g| !g.at_home(variant)) {
        let here = map.province_of(g.location);
        let Some(i) = units
            .iter()
            .position(|u| u.power == g.power && u.kind == UnitType::Army && map.province_of(u.location) == here)
        else {
            continue;
        };
        let unit = UnitRef::new(UnitType::Army, units[i].location);
        let home = map.province(g.home).main;
        let borders = map.is_adjacent(UnitType::Army, units[i].location, home);
        let by_sea = !borders && map.convoy_chain_exists(here, g.home, None, &|_| true);
        orders[i] = if borders || by_sea {
            Order::Move {
                unit,
                to: home,
                via_convoy: by_sea,
            }
        } else {
            Order::Hold { unit }
        };
        ordered[i] = true;
    }
}

/// Gives each unit of `country` without an order that borders exactly one other unit of it a
/// support of that unit's hold (5.1.6).
fn mutual_supports(variant: &Variant, country: PowerId, units: &[Unit], orders: &mut [Order], ordered: &mut [bool]) {
    let map = &variant.map;
    for (i, u) in units.iter().enumerate() {
        if u.power != country || ordered[i] {
            continue;
        }
        let mut next_to = units.iter().enumerate().filter(|&(j, v)| {
            j != i && v.power == country && map.can_reach_province(u.kind, u.location, map.province_of(v.location))
        });
        let (Some((_, v)), None) = (next_to.next(), next_to.next()) else {
            continue;
        };
        orders[i] = Order::SupportHold {
            unit: UnitRef::new(u.kind, u.location),
            supported: UnitRef::new(v.kind, v.location),
        };
        ordered[i] = true;
    }
}
