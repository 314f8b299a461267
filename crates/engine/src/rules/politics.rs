//! Political factors (Hegemony 1.1) in winter, in the order of the winter's steps (4.4):
//!
//! - step 5, income (1.1.9): each player gets one PF per centre value his country owns (a
//!   blocked overseas centre gives none, 2.2.3.3) and per centre of a neutral country he controls
//!   alone — not in the scenario's first winter (research D-6);
//! - step 7, allocation (1.1.1): `PF 3 Bavaria` moves PF from the player's stock into his
//!   influence there for good; orders that together ask for more than the stock are all void
//!   (research §5.2 case 12); PF for a neutral one of whose home centres the player's country (or
//!   a neutral he controls alone) owns stay in stock (1.1.8);
//! - step 8, control (1.1.2–1.1.4): who controls each neutral until the next winter.
//!
//! In every phase, the controllers' orders for the neutral countries (see `neutral_orders`);
//! after each movement phase, provocations (see `provocation`); at the end of every phase the
//! elimination of players, and after each year the victory condition chosen (see `victory`).
//!
//! Nothing of this is published: the sender alone learns what became of his orders.

use std::collections::BTreeMap;

use super::{AdjustmentPhase, RuleModule, RuleName};
use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::ids::PowerId;
use crate::order::Order;
use crate::politics::Politics;
use crate::position::Position;
use crate::variant::Variant;

/// See the module's description.
pub(super) struct PoliticalFactors;

impl RuleModule for PoliticalFactors {
    fn name(&self) -> RuleName {
        RuleName::Politics
    }

    fn adjustment_orders(&self, phase: &AdjustmentPhase<'_>, outcomes: &mut [AdjustmentOutcome], next: &mut Position) {
        let variant = phase.variant;
        let mut politics = next.rules.politics().clone();
        for (player, pf) in winter_income(variant, phase.position, phase.winter) {
            politics.earn(player, pf);
        }
        allocate(variant, phase, &mut politics, outcomes);
        let control = crate::politics::determine_control(variant, &politics);
        politics.set_control(control);
        *next.rules.politics_mut() = politics;
    }

    fn after_movement_politics(
        &self,
        phase: &super::MovementPhase<'_>,
        next: &mut Position,
    ) -> Vec<super::Provocation> {
        super::provocation::provoke(phase, next)
    }

    fn game_end(&self, variant: &Variant, position: &Position) -> Option<Option<crate::game::GameResult>> {
        super::victory::game_end(variant, position)
    }

    fn end_of_phase(&self, variant: &Variant, next: &mut Position) {
        super::victory::end_of_phase(variant, next);
    }

    fn may_order_for(
        &self,
        variant: &Variant,
        position: &Position,
        sender: PowerId,
        country: PowerId,
    ) -> Option<Result<(), crate::order::OrderErrorKind>> {
        super::neutral_orders::may_order_for(variant, position, sender, country)
    }

    fn settle_orders(&self, variant: &Variant, position: &Position, orders: &mut crate::game::PhaseOrders) {
        super::neutral_orders::settle(variant, position, orders);
    }

    fn has_orders(&self, variant: &Variant, position: &Position, power: PowerId) -> bool {
        let map = &variant.map;
        // Asked for the winter at hand or (at the end of a fall) the one to come.
        let owns_centres = position.owners.contains(&Some(power));
        map.is_player(power) && (position.rules.politics().stock(power) > 0 || owns_centres)
    }
}

/// Each player's income of the winter played from `position` (1.1.9): his country's centre
/// values and the centres of the neutrals he controls alone (the control of the last winter,
/// research D-19); none in the scenario's first winter (research D-6).
pub(crate) fn winter_income(
    variant: &Variant,
    position: &Position,
    winter: Option<&super::WinterSteps>,
) -> BTreeMap<PowerId, u32> {
    if position.phase == variant.start {
        return BTreeMap::new();
    }
    let blocked = |p: PowerId| winter.map_or(0, |w| w.blocked.iter().filter(|b| b.owner == p).count()) as u32;
    variant
        .map
        .powers()
        .iter()
        .map(|p| {
            let values = super::victory::controlled_values(variant, position, p.id);
            (p.id, values.saturating_sub(blocked(p.id)))
        })
        .collect()
}

/// Carries out the allocations (see the module's description), setting their outcomes.
fn allocate(
    variant: &Variant,
    phase: &AdjustmentPhase<'_>,
    politics: &mut Politics,
    outcomes: &mut [AdjustmentOutcome],
) {
    let mut asked: BTreeMap<PowerId, u32> = BTreeMap::new();
    for o in phase.orders {
        if let (Order::Allocate { pf, .. }, Some(p)) = (o.order, o.power) {
            *asked.entry(p).or_default() += pf;
        }
    }
    let over: Vec<PowerId> = asked
        .iter()
        .filter(|&(&p, &n)| n > politics.stock(p))
        .map(|(&p, _)| p)
        .collect();
    for (o, outcome) in phase.orders.iter().zip(outcomes.iter_mut()) {
        let (Order::Allocate { country, pf }, Some(player)) = (o.order, o.power) else {
            continue;
        };
        *outcome = if over.contains(&player) {
            AdjustmentOutcome::OverAllocated
        } else if holds_home_centre(variant, phase.position, politics, player, country) {
            AdjustmentOutcome::HomeCentreHeld
        } else {
            politics.allocate(player, country, pf);
            AdjustmentOutcome::Allocated
        };
    }
}

/// Whether the player's country, or a neutral he controls alone, owns a home centre of
/// `country` (1.1.8).
fn holds_home_centre(
    variant: &Variant,
    position: &Position,
    politics: &Politics,
    player: PowerId,
    country: PowerId,
) -> bool {
    let map = &variant.map;
    map.power(country).home.iter().any(|h| {
        position.owners[h.index()].is_some_and(|owner| owner == player || politics.controllers(owner) == [player])
    })
}
