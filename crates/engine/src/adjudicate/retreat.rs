//! Retreat adjudication: dislodged units retreat or disband; two retreats to one place disband both.

use crate::ids::LocationId;
use crate::map::Map;
use crate::order::Order;
use crate::position::DislodgedUnit;

/// What happened to one dislodged unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatOutcome {
    /// It retreated there.
    Retreated(LocationId),
    /// It was disbanded by order.
    Disbanded,
    /// It had no (legal) retreat order and was disbanded.
    DisbandedNoOrder,
    /// It retreated to a place another unit retreated to as well; both were disbanded.
    Bounced,
    /// It had nowhere to retreat to and was disbanded.
    Destroyed,
}

/// Adjudicates a retreat phase. `orders[i]` is the order of `dislodged[i]` (`None` if none): a
/// `Retreat` to one of its options, or a `Disband`; anything else counts as no order.
pub fn adjudicate_retreats(map: &Map, dislodged: &[DislodgedUnit], orders: &[Option<Order>]) -> Vec<RetreatOutcome> {
    let target = |i: usize| match orders.get(i).copied().flatten() {
        Some(Order::Retreat { to, .. }) if dislodged[i].retreats.contains(&to) => Some(to),
        _ => None,
    };
    (0..dislodged.len())
        .map(|i| match (target(i), orders.get(i).copied().flatten()) {
            _ if dislodged[i].retreats.is_empty() => RetreatOutcome::Destroyed,
            (Some(to), _) => {
                let province = map.province_of(to);
                let crowded =
                    (0..dislodged.len()).any(|j| j != i && target(j).is_some_and(|t| map.province_of(t) == province));
                if crowded {
                    RetreatOutcome::Bounced
                } else {
                    RetreatOutcome::Retreated(to)
                }
            }
            (None, Some(Order::Disband { .. })) => RetreatOutcome::Disbanded,
            (None, _) => RetreatOutcome::DisbandedNoOrder,
        })
        .collect()
}
