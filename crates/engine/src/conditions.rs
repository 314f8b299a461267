//! Conditional orders in the phase pipeline: reading a line `IF … THEN … ELSE …` against the
//! position of its phase, deciding its conditions on results and the board when the phase
//! begins, and those on a winter's steps (Hegemony 4.4) once the winter's declarations are known.
//! The syntax is `crate::order::condition`'s; docs/NOTATION.md defines it.

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
                line.text.into(),
                OrderError::new(OrderErrorKind::ConditionNotMet, 0),
            )),
        }
    }
}

/// What reading a conditional line gave: the order carried out (or why none is) and, where
/// conditions on a winter's steps remain (Hegemony 4.4), those conditions and the `ELSE` order.
pub(crate) type ReadConditional = (
    Result<PowerOrder, OrderError>,
    Option<Box<crate::order::condition::Conditional>>,
);

/// Reads a conditional line (`IF … THEN … ELSE …`) for the position's phase. Its conditions on
/// results and the board are decided now, when the phase begins, and only the branch they
/// choose is read (the other may name a unit that is no longer there): the line is then that
/// order, or refused with [`OrderErrorKind::ConditionNotMet`] when nothing is chosen. Conditions
/// on a winter's steps (Hegemony 4.4) stay with the line, both branches read, until the winter's
/// declarations are known ([`apply_conditions`]). A condition that cannot be read refuses the
/// line.
pub(crate) fn read_conditional(
    variant: &Variant,
    ctx: &OrderContext<'_>,
    parts: Result<crate::order::condition::Parts<'_>, OrderError>,
) -> ReadConditional {
    use crate::order::condition::{Conditional, read_condition};
    let parts = match parts {
        Ok(p) => p,
        Err(e) => return (Err(e), None),
    };
    let Some(position) = ctx.position else {
        return (Err(OrderError::new(OrderErrorKind::ConditionNeedsPosition, 0)), None);
    };
    let map = &variant.map;
    let mut now = true;
    let mut steps = Vec::new();
    for &(at, text) in &parts.conditions {
        match read_condition(map, Some(position), position.phase, text, at) {
            Ok(c) if c.test.is_winter_step() => steps.push(c),
            Ok(c) => now &= c.holds_now(map, position),
            Err(e) => return (Err(e), None),
        }
    }
    if !steps.is_empty() && !names_winter_steps(variant, ctx.phase) {
        return (Err(OrderError::new(OrderErrorKind::NoConditionsHere, 0)), None);
    }
    let read = |branch| read_branch(ctx, parts.prefix, branch);
    if !now || steps.is_empty() {
        let chosen = match (now, parts.otherwise) {
            (true, _) => read(parts.then),
            (false, Some(otherwise)) => read(otherwise),
            (false, None) => Err(OrderError::new(OrderErrorKind::ConditionNotMet, 0)),
        };
        return (chosen, None);
    }
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
    let conditional = Conditional {
        conditions: steps,
        otherwise,
    };
    (then, Some(Box::new(conditional)))
}

/// Checks a line sent for the later phase `phase` as far as the map and the phase tell (its
/// position is not known yet): a conditional line's conditions and both its orders, else each
/// order of the line (or a retreat given in advance with a later phase's moves). The first error,
/// if any; the line is read for good when its phase begins.
pub(crate) fn check_later_line(
    variant: &Variant,
    phase: crate::phase::Phase,
    power: Option<crate::ids::PowerId>,
    text: &str,
) -> Option<OrderError> {
    let ctx = OrderContext {
        map: &variant.map,
        phase: phase.kind,
        position: None,
        default_power: power,
        leaders: &variant.leaders,
    };
    let error = if let Some(parts) = crate::order::condition::split(text).filter(Result::is_ok) {
        check_conditional(variant, &ctx, phase, parts).err()
    } else if let Some(advance) =
        crate::order::advance::read_advance_retreat(&variant.map, text).filter(|_| phase.kind == PhaseKind::Movement)
    {
        advance.err()
    } else {
        crate::order::resolve::parse_order_list(&ctx, text)
            .into_iter()
            .find_map(|(_, r)| r.err())
    };
    error.filter(|e| wrong_on_any_board(&e.kind))
}

/// Whether an order error holds whatever the position (a name the map does not know, words that
/// make no order, a move no unit of that type could make): a line for a later phase with one is
/// refused when sent. What only the position of its phase decides (which unit stands where, of
/// which type, on which coast, what may be built, who controls what) is left for then.
fn wrong_on_any_board(kind: &OrderErrorKind) -> bool {
    use OrderErrorKind as K;
    matches!(
        kind,
        K::Empty
            | K::UnexpectedCharacter(_)
            | K::UnknownProvince(_)
            | K::UnknownPower(_)
            | K::Expected { .. }
            | K::TrailingText(_)
            | K::UnknownCoast(_)
            | K::ImpossibleUnit { .. }
            | K::MoveToOwnProvince(_)
            | K::Unreachable { .. }
            | K::AmbiguousCoast { .. }
            | K::WrongCoast { .. }
            | K::FleetConvoyed
            | K::CannotConvoy(_)
            | K::NoConvoyRoute { .. }
            | K::CannotSupport { .. }
            | K::SupportSelf(_)
            | K::ImpossibleSupportedMove { .. }
            | K::WrongPhase { .. }
            | K::ConditionNotAllowed(_)
            | K::UnknownRetreatRule(_)
            | K::NotACanal(_)
            | K::NoConditionsHere
            | K::ConditionOnOrders
            | K::ConditionOnLaterPhase(_)
            | K::ResultsNotKept(_)
            | K::NotACentre(_)
            | K::FriendlyToItself(_)
    )
}

/// Whether conditions may name the winter's steps in a phase of this kind (Hegemony 4.4: the
/// winters of a variant with these steps).
fn names_winter_steps(variant: &Variant, kind: PhaseKind) -> bool {
    kind == PhaseKind::Adjustment && crate::rules::has_winter_steps(variant)
}

/// [`check_later_line`] for a conditional line.
fn check_conditional(
    variant: &Variant,
    ctx: &OrderContext<'_>,
    phase: crate::phase::Phase,
    parts: Result<crate::order::condition::Parts<'_>, OrderError>,
) -> Result<(), OrderError> {
    let parts = parts?;
    for &(at, text) in &parts.conditions {
        let c = crate::order::condition::read_condition(&variant.map, None, phase, text, at)?;
        if c.test.is_winter_step() && !names_winter_steps(variant, phase.kind) {
            return Err(OrderError::new(OrderErrorKind::NoConditionsHere, 0));
        }
    }
    for branch in std::iter::once(parts.then).chain(parts.otherwise) {
        read_branch(ctx, parts.prefix, branch)?;
    }
    Ok(())
}

/// Reads one order of a conditional line (the one after `THEN` or `ELSE`, at byte `at` of the
/// line), with the line's `Power:` prefix; an error's position counts from the line's start.
fn read_branch(ctx: &OrderContext<'_>, prefix: &str, (at, text): (usize, &str)) -> Result<PowerOrder, OrderError> {
    let line = if prefix.is_empty() {
        text.to_string()
    } else {
        format!("{prefix} {text}")
    };
    let shift = at as isize - (line.len() - text.len()) as isize;
    crate::order::parse_order(ctx, &line).map_err(|mut e| {
        e.position = (e.position as isize + shift).max(0) as usize;
        e
    })
}

/// One order of a line, as [`read_order_line`] read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineOrder {
    /// Its text.
    pub text: String,
    /// The order (for a conditional line: the one its conditions chose), or why none is given.
    pub result: Result<PowerOrder, OrderError>,
    /// For a line with conditions on a winter's steps (Hegemony 4.4): the `ELSE` order, if any;
    /// `result` is then the order carried out when they hold, decided in the winter.
    pub undecided: Option<Option<PowerOrder>>,
}

/// Reads one line of orders for the context's phase as a submission is read: a conditional line
/// (decided on the position, see [`read_conditional`]) or one or more orders separated by
/// commas.
pub fn read_order_line(variant: &Variant, ctx: &OrderContext<'_>, text: &str) -> Vec<LineOrder> {
    match crate::order::condition::split(text) {
        Some(parts) => {
            let (result, conditional) = read_conditional(variant, ctx, parts);
            vec![LineOrder {
                text: text.to_string(),
                result,
                undecided: conditional.map(|c| c.otherwise),
            }]
        }
        None => crate::order::resolve::parse_order_list(ctx, text)
            .into_iter()
            .map(|(text, result)| LineOrder {
                text,
                result,
                undecided: None,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use crate::game::PhaseOrders;
    use crate::position::Position;

    #[test]
    fn lines_for_a_later_phase_are_checked_when_sent_and_kept_only_when_readable() {
        let variant = crate::variant::builtin("standard").expect("built in").expect("valid");
        let position = Position::initial(&variant);
        let france = variant.map.power_by_name("France");
        let lines = [
            "F1901M:",
            "IF F Bre - Engg succeeds THEN F Eng - Bel",
            "IF A Par - Bur succeeds in F1901M THEN A Bur - Mun",
            "IF A Par - Bur ordered THEN A Par - Pic",
            "IF A Par - Bur fails THEN A Par - Gas ELSE A Bur - Mun",
            "W1901A:",
            "IF Mun owned by France THEN Build A Par ELSE Build F Bre",
        ];
        let mut orders = PhaseOrders::default();
        orders.read(&variant, &position, france, lines);
        let refused: Vec<(&str, usize)> = orders
            .sender_only
            .iter()
            .map(|(_, text, e)| (text.as_str(), e.position))
            .collect();
        let caret = |line: &str, word: &str| format!("F1901M: {line}").find(word).expect("the word");
        assert_eq!(
            refused,
            [
                (
                    "F1901M: IF F Bre - Engg succeeds THEN F Eng - Bel",
                    caret(lines[1], "Engg")
                ),
                (
                    "F1901M: IF A Par - Bur succeeds in F1901M THEN A Bur - Mun",
                    caret(lines[2], "F1901M THEN")
                ),
                (
                    "F1901M: IF A Par - Bur ordered THEN A Par - Pic",
                    caret(lines[3], "ordered")
                ),
            ]
        );
        assert_eq!(orders.sender_only[0].2.suggestion.as_deref(), Some("Eng"));
        let kept: Vec<String> = orders
            .later
            .iter()
            .map(|l| format!("{}: {}", l.phase, l.text))
            .collect();
        assert_eq!(kept, [format!("F1901M: {}", lines[4]), format!("W1901A: {}", lines[6])]);
    }

    #[test]
    fn what_only_the_later_position_can_tell_is_left_for_then() {
        let variant = crate::variant::builtin("standard").expect("built in").expect("valid");
        let position = Position::initial(&variant);
        let russia = variant.map.power_by_name("Russia");
        let lines = [
            "F1901M:",
            "Stp - Fin",
            "F Stp - Bot",
            "IF F Sev - Bla succeeds THEN Bla - Con",
            "IF Bre->Eng fails THEN A Mos - Ukr",
            "IF Rum owned by Russia in S1901M THEN A War - Gal",
            "A Mos - Lon",
        ];
        let mut orders = PhaseOrders::default();
        orders.read(&variant, &position, russia, lines);
        let refused: Vec<&str> = orders.sender_only.iter().map(|(_, t, _)| t.as_str()).collect();
        assert_eq!(
            refused,
            [
                "F1901M: IF Rum owned by Russia in S1901M THEN A War - Gal",
                "F1901M: A Mos - Lon"
            ]
        );
        assert_eq!(orders.later.len(), 4, "{:?}", orders.later);
    }

    #[test]
    fn a_retreat_given_in_advance_with_then_is_no_conditional_order() {
        let variant = crate::variant::builtin("standard").expect("built in").expect("valid");
        let position = Position::initial(&variant);
        let austria = variant.map.power_by_name("Austria");
        let mut orders = PhaseOrders::default();
        orders.read(
            &variant,
            &position,
            austria,
            ["if dislodged by Russia: A Bud R Vie, then Tri"],
        );
        assert_eq!(orders.advance.len(), 1, "{orders:?}");
        assert!(orders.sender_only.is_empty(), "{:?}", orders.sender_only);
    }
}
