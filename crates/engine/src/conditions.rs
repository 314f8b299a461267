//! Conditional winter orders in the phase pipeline (Hegemony 4.4): reading a line
//! `IF … THEN … ELSE …` against the position, and deciding it once the winter's steps it names
//! are known. The syntax is `crate::order::condition`'s.

use crate::game::{PhaseOrders, ReadLine};
use crate::order::model::{Order, PowerOrder};
use crate::order::resolve::OrderContext;
use crate::order::{OrderError, OrderErrorKind};
use crate::phase::PhaseKind;
use crate::position::Position;
use crate::variant::Variant;

/// Decides a winter's conditional orders (Hegemony 4.4): the conditions of a declaration of
/// friendship (a line with a declaration in either branch) on the winter's steps as the
/// unconditional declarations leave them, every other order's on the steps as all declarations
/// leave them. The order carried out takes the line's
/// place; a line whose conditions fail and that has no `ELSE` order is told to its sender alone.
pub(crate) fn apply_conditions(variant: &Variant, position: &Position, orders: &mut PhaseOrders) {
    if orders.lines.iter().all(|l| l.condition.is_none()) {
        return;
    }
    // A line is a declaration when either of its orders is one.
    let is_declaration = |l: &ReadLine| {
        let otherwise = l.condition.as_ref().and_then(|c| c.otherwise.as_ref()).map(|o| o.order);
        matches!(l.result, Ok(Order::Declare { .. })) || matches!(otherwise, Some(Order::Declare { .. }))
    };
    let steps = winter_steps_declared(variant, position, &orders.lines);
    decide_conditions(variant, position, orders, steps.as_ref(), &is_declaration);
    let steps = winter_steps_declared(variant, position, &orders.lines);
    decide_conditions(variant, position, orders, steps.as_ref(), &|_| true);
}

/// The winter's steps with the declarations of the lines that are not (or no longer)
/// conditional.
fn winter_steps_declared(
    variant: &Variant,
    position: &Position,
    lines: &[ReadLine],
) -> Option<crate::rules::WinterSteps> {
    let declared: Vec<PowerOrder> = lines
        .iter()
        .filter(|l| l.condition.is_none())
        .filter_map(|l| match l.result {
            Ok(order @ Order::Declare { .. }) => Some(PowerOrder {
                power: l.power,
                order,
                permission: None,
            }),
            _ => None,
        })
        .collect();
    crate::rules::winter_steps(variant, position, &declared)
}

/// Decides the conditional lines `which` selects on `steps`.
fn decide_conditions(
    variant: &Variant,
    position: &Position,
    orders: &mut PhaseOrders,
    steps: Option<&crate::rules::WinterSteps>,
    which: &dyn Fn(&ReadLine) -> bool,
) {
    for line in std::mem::take(&mut orders.lines) {
        let Some(c) = line.condition.as_deref().filter(|_| which(&line)) else {
            orders.lines.push(line);
            continue;
        };
        let holds = c
            .conditions
            .iter()
            .all(|c| steps.is_some_and(|s| s.holds(&variant.map, position, c)));
        let chosen = match (holds, &line.result, &c.otherwise) {
            (true, Ok(order), _) => Some((line.power, *order)),
            (false, _, Some(o)) => Some((o.power.or(line.power), o.order)),
            _ => None,
        };
        match chosen {
            Some((power, order)) => orders.lines.push(ReadLine {
                power,
                result: Ok(order),
                condition: None,
                ..line
            }),
            None => orders.sender_only.push((
                line.sender.or(line.power),
                line.text,
                OrderError::new(OrderErrorKind::ConditionNotMet, 0),
            )),
        }
    }
}

/// Reads a conditional line (`IF … THEN … ELSE …`): its order, conditions and `ELSE` order.
/// Conditions are for the winter's steps only (Hegemony 4.4); one that names no overseas
/// centre or no unit is refused when read.
pub(crate) fn read_conditional(
    variant: &Variant,
    ctx: &OrderContext<'_>,
    parts: Result<crate::order::condition::Parts<'_>, OrderError>,
) -> (
    Result<PowerOrder, OrderError>,
    Option<Box<crate::order::condition::Conditional>>,
) {
    use crate::order::condition::{Conditional, read_condition};
    let parts = match parts {
        Ok(p) => p,
        Err(e) => return (Err(e), None),
    };
    let position = ctx
        .position
        .filter(|_| ctx.phase == PhaseKind::Adjustment && crate::rules::has_winter_steps(variant));
    let Some(position) = position else {
        return (Err(OrderError::new(OrderErrorKind::NoConditionsHere, 0)), None);
    };
    let map = &variant.map;
    let mut conditions = Vec::new();
    for &(at, text) in &parts.conditions {
        match read_condition(map, position, text, at) {
            Ok(c) => conditions.push(c),
            Err(e) => return (Err(e), None),
        }
    }
    let read = |(at, text): (usize, &str)| {
        let line = if parts.prefix.is_empty() {
            text.to_string()
        } else {
            format!("{} {text}", parts.prefix)
        };
        let shift = at as isize - (line.len() - text.len()) as isize;
        crate::order::parse_order(ctx, &line).map_err(|mut e| {
            e.position = (e.position as isize + shift).max(0) as usize;
            e
        })
    };
    let then = read(parts.then);
    let otherwise = match parts.otherwise.map(read).transpose() {
        Ok(o) => o,
        Err(e) => return (Err(e), None),
    };
    // Both orders are for the same country.
    if let (Ok(t), Some(o)) = (&then, &otherwise) {
        if o.power != t.power {
            let name = o.power.map_or_else(String::new, |p| map.power(p).name.clone());
            return (Err(OrderError::new(OrderErrorKind::ConditionalForOther(name), 0)), None);
        }
    }
    (then, Some(Box::new(Conditional { conditions, otherwise })))
}
