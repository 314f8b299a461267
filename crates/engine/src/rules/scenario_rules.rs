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
//! - Neighbour defence (5.1.2): while no player controls the country, its army moves into the
//!   empty province it defends as soon as a legal order (research D-25: one the reader
//!   accepted) attacks that province, unless one attacks the army's own province in the same
//!   turn; supports of that move become holds.
//! - Empty centre defence (5.2.2, research D-9): while the centre stands empty and its first
//!   owner still owns it, a move into it by anyone but the exempt country needs an attack
//!   strength of 2.
//!
//! A country is controlled when a player plays it or, by political factors, a player controls it
//! alone or jointly (rule module `politics`).

use super::{MovementPhase, MovementSetup, ResolverRule, RuleModule, RuleName, UnitOrders};
use crate::adjudicate::movement::Adjudicator;
use crate::ids::{PowerId, ProvinceId, UnitType};
use crate::order::Order;
use crate::order::model::UnitRef;
use crate::position::{Position, Unit};
use crate::scenario::{EmptyCentreDefence, NeighbourDefence, SpecialRule};
use crate::variant::Variant;

/// See the module's description.
pub(super) struct ScenarioRules;

impl RuleModule for ScenarioRules {
    fn name(&self) -> RuleName {
        RuleName::ScenarioRules
    }

    fn automatic_orders(&self, variant: &Variant, position: &Position, units: &[Unit], orders: &mut UnitOrders) {
        let on = position.rules.special_rules();
        let places = &variant.special_places;
        if on.contains(&SpecialRule::Garrisons) {
            garrisons_go_home(variant, position, units, orders);
        }
        if on.contains(&SpecialRule::NeighbourDefence) {
            for defence in &places.neighbour_defence {
                neighbour_defence(variant, position, defence, units, orders);
            }
        }
        if on.contains(&SpecialRule::MutualDefence) {
            for &country in &places.mutual_defence {
                if !position.rules.controlled(&variant.map, country) {
                    mutual_supports(variant, country, units, orders);
                }
            }
        }
    }

    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        let on = phase.position.rules.special_rules();
        if on.contains(&SpecialRule::CapitalDefence) {
            capital_defence(phase, setup);
        }
        if on.contains(&SpecialRule::EmptyCentreDefence) {
            let guarded: Vec<EmptyCentreDefence> = phase
                .variant
                .special_places
                .empty_centre_defence
                .iter()
                .filter(|d| still_guarded(phase, d))
                .copied()
                .collect();
            if !guarded.is_empty() {
                setup.resolver_rules.push(Box::new(GuardedCentres { guarded }));
            }
        }
    }
}

/// Raises the strength of an uncontrolled country's army in its capital to that of a led one
/// (5.1.3).
fn capital_defence(phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
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
                    && !phase.position.rules.controlled(map, country)
            });
        if defends {
            if setup.strengths.is_empty() {
                setup.strengths = vec![1; phase.units.len()];
            }
            setup.strengths[i] = setup.strengths[i].max(2);
        }
    }
}

/// Whether an empty centre's defence still stands this phase: nothing stands in the centre and
/// its first owner still owns it (5.2.2, research D-9).
fn still_guarded(phase: &MovementPhase<'_>, defence: &EmptyCentreDefence) -> bool {
    let map = &phase.variant.map;
    let empty = !phase
        .units
        .iter()
        .any(|u| map.province_of(u.location) == defence.province);
    empty
        && phase
            .position
            .owners
            .get(usize::from(defence.province.0))
            .copied()
            .flatten()
            == Some(defence.owner)
}

/// The defended empty centres of one phase inside the resolver: a move into one by anyone but
/// the exempt country needs an attack of more than 1 (5.2.2, research D-9). The defence is no
/// unit: it cannot be supported or dislodged, and it keeps no one else out.
struct GuardedCentres {
    guarded: Vec<EmptyCentreDefence>,
}

impl GuardedCentres {
    fn meets(&self, r: &Adjudicator<'_>, u: usize) -> bool {
        r.is_move(u)
            && self
                .guarded
                .iter()
                .any(|d| d.province == r.target(u) && d.exempt != r.power(u))
    }
}

impl ResolverRule for GuardedCentres {
    fn prepare(&mut self, _r: &mut Adjudicator<'_>, _units: &[Unit], _orders: &[Order], _first: usize) -> usize {
        0
    }

    fn decides_move(&self, r: &mut Adjudicator<'_>, u: usize, attack: u32) -> Option<bool> {
        (attack <= 1 && self.meets(r, u)).then_some(false)
    }

    fn bounce_cause(&self, r: &mut Adjudicator<'_>, u: usize) -> Option<ProvinceId> {
        let weak = r.strength(u) + r.support_count(u) <= 1;
        (weak && self.meets(r, u)).then(|| r.target(u))
    }
}

/// Orders every garrison driven out of its home to move back there (5.1.4.4).
fn garrisons_go_home(variant: &Variant, position: &Position, units: &[Unit], orders: &mut UnitOrders) {
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
        let order = if borders || by_sea {
            Order::Move {
                unit,
                to: home,
                via_convoy: by_sea,
            }
        } else {
            Order::Hold { unit }
        };
        orders.set(i, order, SpecialRule::Garrisons.number());
    }
}

/// Sends the defending army into the province it defends when something attacks that
/// province and nothing attacks the army's own (5.1.2); supports of that move become holds.
fn neighbour_defence(
    variant: &Variant,
    position: &Position,
    defence: &NeighbourDefence,
    units: &[Unit],
    orders: &mut UnitOrders,
) {
    let map = &variant.map;
    let controlled = position.rules.controlled(map, defence.country);
    if controlled || units.iter().any(|u| map.province_of(u.location) == defence.to) {
        return;
    }
    let Some(d) = units.iter().position(|u| {
        u.power == defence.country && u.kind == UnitType::Army && map.province_of(u.location) == defence.from
    }) else {
        return;
    };
    let to = map.province(defence.to).main;
    // Moves of other units only: an order for the defending army itself starts nothing.
    let attacked = |p: ProvinceId| {
        orders
            .orders
            .iter()
            .enumerate()
            .any(|(i, o)| i != d && matches!(o, Order::Move { to, .. } if map.province_of(*to) == p))
    };
    if !attacked(defence.to) || attacked(defence.from) || !map.is_adjacent(UnitType::Army, units[d].location, to) {
        return;
    }
    let unit = UnitRef::new(UnitType::Army, units[d].location);
    let rule = SpecialRule::NeighbourDefence.number();
    orders.set(
        d,
        Order::Move {
            unit,
            to,
            via_convoy: false,
        },
        rule,
    );
    for i in 0..units.len() {
        if let Order::SupportMove { unit, supported, to } = orders.orders[i] {
            if map.province_of(supported.location) == defence.from && map.province_of(to) == defence.to {
                orders.set(i, Order::Hold { unit }, rule);
            }
        }
    }
}

/// Gives each unit of `country` without an order that borders exactly one other unit of it a
/// support of that unit's hold (5.1.6).
fn mutual_supports(variant: &Variant, country: PowerId, units: &[Unit], orders: &mut UnitOrders) {
    let map = &variant.map;
    for (i, u) in units.iter().enumerate() {
        if u.power != country || orders.ordered[i] {
            continue;
        }
        let mut next_to = units.iter().enumerate().filter(|&(j, v)| {
            j != i && v.power == country && map.can_reach_province(u.kind, u.location, map.province_of(v.location))
        });
        let (Some((_, v)), None) = (next_to.next(), next_to.next()) else {
            continue;
        };
        let support = Order::SupportHold {
            unit: UnitRef::new(u.kind, u.location),
            supported: UnitRef::new(v.kind, v.location),
        };
        orders.set(i, support, SpecialRule::MutualDefence.number());
    }
}
