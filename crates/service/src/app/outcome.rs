//! What the pictures of an adjudicated phase show, kept with the phase when it is adjudicated,
//! so that they are drawn without adjudicating it again.

use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::interchange::GameState;
use spielleiter_engine::order::{OrderContext, parse_order};
use spielleiter_engine::{PhaseKind, Variant};
use spielleiter_render::{DrawnOrder, OrderState};

/// What the pictures of an adjudicated phase show, kept when it is adjudicated: the orders
/// drawn with how each turned out (in the interchange notation), and the position after them
/// (as published: without Hegemony's secrets).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The orders drawn, in the order they are drawn.
    pub orders: Vec<OutcomeOrder>,
    /// The position after the phase.
    pub next: GameState,
}

/// One order drawn: whose (none: grey), the order, and whether it succeeded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OutcomeOrder {
    /// The power's key (none: drawn in grey).
    pub power: Option<String>,
    /// The order in the interchange notation.
    pub order: String,
    /// Whether it succeeded.
    pub succeeded: bool,
}

impl Outcome {
    /// The outcome of an adjudicated phase: its report, and the published position after it.
    pub fn of(v: &Variant, report: &PhaseReport, next: &GameState) -> Outcome {
        let orders = spielleiter_render::scene::drawn_orders(report)
            .into_iter()
            .map(|d| OutcomeOrder {
                power: d.power.map(|p| v.map.power(p).key.to_ascii_uppercase()),
                order: d.order.display(&v.map).to_string(),
                succeeded: d.state == OrderState::Succeeded,
            })
            .collect();
        Outcome {
            orders,
            next: next.clone(),
        }
    }

    /// The orders to draw, read back for a phase of `kind`.
    pub fn drawn(&self, v: &Variant, kind: PhaseKind) -> Result<Vec<DrawnOrder>, String> {
        self.orders
            .iter()
            .map(|o| {
                let power = match &o.power {
                    Some(name) => Some(
                        v.map
                            .power_by_name(name)
                            .ok_or_else(|| format!("unknown power {name}"))?,
                    ),
                    None => None,
                };
                // Read as its power's: an order that names no unit (a choice) needs one.
                let ctx = OrderContext {
                    map: &v.map,
                    phase: kind,
                    position: None,
                    default_power: power,
                    leaders: &v.leaders,
                };
                let order = parse_order(&ctx, &o.order).map_err(|e| format!("the order `{}`: {e:?}", o.order))?;
                let state = if o.succeeded {
                    OrderState::Succeeded
                } else {
                    OrderState::Failed
                };
                Ok(DrawnOrder {
                    power,
                    order: order.order,
                    state,
                })
            })
            .collect()
    }
}
