//! What one picture shows: a position, and the orders given in it with what became of them.

use spielleiter_engine::adjudicate::adjustment::AdjustmentOutcome;
use spielleiter_engine::adjudicate::retreat::RetreatOutcome;
use spielleiter_engine::completeness::UnitMark;
use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::report::Lang;
use spielleiter_engine::{Order, Position, PowerId, Unit, Variant};

/// How an order turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderState {
    /// Not adjudicated yet (orders being entered).
    Pending,
    /// It did what it says.
    Succeeded,
    /// It failed (bounced, cut, dislodged, no convoy, ...).
    Failed,
}

/// One order drawn on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawnOrder {
    /// Whose order it is (its colour); `None` draws it in grey.
    pub power: Option<PowerId>,
    /// The order.
    pub order: Order,
    /// Whether it succeeded.
    pub state: OrderState,
}

/// Everything one picture shows.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The position: centre owners, units, dislodged units with their retreat options.
    pub position: &'a Position,
    /// Orders to draw on top.
    pub orders: Vec<DrawnOrder>,
    /// The language of the title and legend.
    pub lang: Lang,
    /// Marks on the units of the reader's power while orders are entered: ordered, no order,
    /// or a line for it refused.
    pub marks: Vec<(Unit, UnitMark)>,
}

impl<'a> Scene<'a> {
    /// A position alone.
    pub fn position(variant: &'a Variant, position: &'a Position, lang: Lang) -> Scene<'a> {
        Scene {
            variant,
            position,
            orders: Vec::new(),
            lang,
            marks: Vec::new(),
        }
    }

    /// The orders of an adjudicated phase and how each turned out, drawn on the position the
    /// phase started from (which must be `before`).
    pub fn adjudicated(variant: &'a Variant, before: &'a Position, report: &PhaseReport, lang: Lang) -> Scene<'a> {
        Scene {
            variant,
            position: before,
            orders: drawn_orders(report),
            lang,
            marks: Vec::new(),
        }
    }
}

/// The orders of an adjudicated phase with their outcomes.
pub fn drawn_orders(report: &PhaseReport) -> Vec<DrawnOrder> {
    let mut out = Vec::new();
    let state = |ok: bool| if ok { OrderState::Succeeded } else { OrderState::Failed };
    if let Some(m) = &report.movement {
        for (i, unit) in m.units.iter().enumerate() {
            if !m.ordered[i] {
                continue;
            }
            out.push(DrawnOrder {
                power: Some(unit.power),
                order: m.orders[i],
                state: state(m.results[i].succeeded()),
            });
        }
    }
    // Retreats ordered in advance belong to the next picture, not to the movement.
    if report.movement.is_none()
        && let Some(r) = &report.retreats
    {
        for (i, d) in r.dislodged.iter().enumerate() {
            let Some(order) = r.orders[i] else { continue };
            let ok = matches!(r.outcomes[i], RetreatOutcome::Retreated(_) | RetreatOutcome::Disbanded);
            out.push(DrawnOrder {
                power: Some(d.unit.power),
                order,
                state: state(ok),
            });
        }
    }
    if let Some(a) = &report.adjustments {
        adjustment_orders(a, &mut out);
    }
    out
}

/// The adjustments drawn: builds and removals that may be published (allocations of political
/// factors and declarations of friendship are their sender's secret, choices and waived builds
/// have no place on the map), and units removed for want of supply or by civil disorder.
fn adjustment_orders(a: &spielleiter_engine::game::AdjustmentReport, out: &mut Vec<DrawnOrder>) {
    let state = |ok: bool| if ok { OrderState::Succeeded } else { OrderState::Failed };
    // Only what may be published: allocations of political factors and declarations of
    // friendship are their sender's secret, and are kept with the phase's picture too.
    // Choices and waived builds have no place on the map.
    let placed = a
        .public_orders()
        .filter(|(o, _)| matches!(o.order, Order::Build { .. } | Order::Disband { .. }));
    for (o, outcome) in placed {
        let ok = matches!(outcome, AdjustmentOutcome::Built | AdjustmentOutcome::Disbanded);
        out.push(DrawnOrder {
            power: o.power,
            order: o.order,
            state: state(ok),
        });
    }
    // Units removed for want of supply (Hegemony 2.1.5) and by civil disorder, as removals.
    let unsupplied = a.winter.iter().flat_map(|w| &w.unsupplied).map(|u| u.unit);
    for removed in unsupplied.chain(a.civil_disorder.iter().copied()) {
        let unit = spielleiter_engine::order::model::UnitRef {
            kind: removed.kind,
            location: removed.location,
            led: false,
        };
        out.push(DrawnOrder {
            power: Some(removed.power),
            order: Order::Disband { unit },
            state: OrderState::Succeeded,
        });
    }
}
