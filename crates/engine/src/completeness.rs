//! What a power's orders for a phase leave out or overdo, told before the deadline: units
//! without an order (they hold, or are disbanded in a retreat phase), builds left unused or
//! ordered beyond the count, disbands owed but not ordered (the judge then chooses), and
//! builds where disbands are owed or the other way round. None of these refuses an order: the
//! rules say what becomes of each; the player is told so while he can still change it.

use crate::game::{PhaseOrders, Piece, ordered_pieces};
use crate::ids::PowerId;
use crate::order::Order;
use crate::phase::PhaseKind;
use crate::position::{Position, Unit};
use crate::variant::Variant;

/// One thing a power's orders leave out or overdo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gap {
    /// A unit with no order in a movement phase: it holds.
    NoOrder(Unit),
    /// A dislodged unit with no retreat order: it is disbanded.
    NoRetreat(Unit),
    /// Builds the power may still make that were neither ordered nor waived: they are waived.
    BuildsLeft(u32),
    /// More builds (and waives) ordered than allowed: the ones beyond are not carried out.
    TooManyBuilds {
        /// The builds the power may make.
        allowed: u32,
        /// The builds and waives ordered.
        ordered: u32,
    },
    /// Fewer disbands ordered than owed: the judge removes the rest by the civil disorder rule.
    DisbandsMissing {
        /// The disbands owed.
        owed: u32,
        /// The disbands ordered.
        ordered: u32,
    },
    /// More disbands ordered than owed: the ones beyond are not carried out.
    TooManyDisbands {
        /// The disbands owed.
        owed: u32,
        /// The disbands ordered.
        ordered: u32,
    },
    /// Builds ordered by a power that owes disbands or has nothing to adjust.
    BuildsNotAllowed,
    /// Disbands ordered by a power that may build or has nothing to adjust.
    DisbandsNotOwed,
}

/// What `power`'s orders in `orders` (read against `position`, one per unit as carried out)
/// leave out or overdo in the position's phase.
pub fn gaps(variant: &Variant, position: &Position, power: PowerId, orders: &PhaseOrders) -> Vec<Gap> {
    let kind = position.phase.kind;
    let carried = orders.carried_out(variant, kind);
    let mine: Vec<&Order> = orders
        .lines
        .iter()
        .zip(&carried)
        // A conditional winter order is decided by the winter's steps: not counted either way.
        .filter(|(l, c)| **c && l.power == Some(power) && l.condition.is_none())
        .filter_map(|(l, _)| l.result.as_ref().ok())
        .collect();
    let pieces = carried_pieces(variant, orders, &carried);
    let ordered = |unit: &Unit| pieces.contains(&Piece::Unit(variant.map.province_of(unit.location)));
    match kind {
        PhaseKind::Movement => own_units(&position.units, power)
            .filter(|u| !ordered(u))
            .map(|u| Gap::NoOrder(*u))
            .collect(),
        PhaseKind::Retreat => position
            .dislodged
            .iter()
            .map(|d| &d.unit)
            .filter(|u| u.power == power && !ordered(u))
            .map(|u| Gap::NoRetreat(*u))
            .collect(),
        PhaseKind::Adjustment => {
            let count = crate::game::expected_counts(variant, position)
                .get(power.index())
                .copied()
                .unwrap_or(0);
            adjustment_gaps(variant, position, power, count, &mine)
        }
    }
}

/// Where a unit stands with its orders, shown on the map while orders are entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitMark {
    /// An order for it will be carried out.
    Ordered,
    /// No line orders it.
    Missing,
    /// No order for it will be carried out, and a line naming it was refused.
    Refused,
}

/// The mark of each of `power`'s units that needs an order in the position's phase (its units
/// in a movement phase, its dislodged units in a retreat phase; none in a winter, whose orders
/// are counts, see [`gaps`]): ordered, missing, or refused (a line that names the unit as the
/// one it orders was refused).
pub fn unit_marks(
    variant: &Variant,
    position: &Position,
    power: PowerId,
    orders: &PhaseOrders,
) -> Vec<(Unit, UnitMark)> {
    let carried = orders.carried_out(variant, position.phase.kind);
    let pieces = carried_pieces(variant, orders, &carried);
    let refused: Vec<crate::ids::ProvinceId> = (orders.lines.iter())
        .filter(|l| l.result.is_err() && l.power.is_none_or(|p| p == power))
        .filter_map(|l| unit_named(&variant.map, &l.text))
        .collect();
    let units: Vec<&Unit> = match position.phase.kind {
        PhaseKind::Movement => own_units(&position.units, power).collect(),
        PhaseKind::Retreat => (position.dislodged.iter().map(|d| &d.unit))
            .filter(|u| u.power == power)
            .collect(),
        PhaseKind::Adjustment => Vec::new(),
    };
    let mark = |u: &Unit| {
        let province = variant.map.province_of(u.location);
        if pieces.contains(&Piece::Unit(province)) {
            UnitMark::Ordered
        } else if refused.contains(&province) {
            UnitMark::Refused
        } else {
            UnitMark::Missing
        }
    };
    units.into_iter().map(|u| (*u, mark(u))).collect()
}

/// The pieces the lines carried out (`carried`, one flag per line) give orders to.
fn carried_pieces(variant: &Variant, orders: &PhaseOrders, carried: &[bool]) -> std::collections::HashSet<Piece> {
    (orders.lines.iter().zip(carried))
        .filter(|(_, c)| **c)
        .flat_map(|(l, _)| ordered_pieces(&variant.map, l))
        .collect()
}

/// The province of the unit a line names as the one it orders: the whole line read, or else
/// (a misspelt destination, say) its first words (`F Brest`, `Bavaria: A Munich`).
fn unit_named(map: &crate::map::Map, text: &str) -> Option<crate::ids::ProvinceId> {
    let read = |t: &str| {
        crate::order::syntax::read_order(map, t)
            .ok()?
            .unit
            .map(|u| u.place.province)
    };
    read(text).or_else(|| {
        let ends = text.char_indices().filter(|(_, c)| c.is_whitespace()).map(|(i, _)| i);
        ends.take(6).find_map(|end| read(&text[..end]))
    })
}

fn own_units(units: &[Unit], power: PowerId) -> impl Iterator<Item = &Unit> {
    units.iter().filter(move |u| u.power == power)
}

/// The gaps of a winter's orders for a power with `count` builds (positive) or disbands
/// (negative).
fn adjustment_gaps(variant: &Variant, position: &Position, power: PowerId, count: i32, mine: &[&Order]) -> Vec<Gap> {
    let tally = |f: fn(&Order) -> bool| mine.iter().filter(|o| f(o)).count() as u32;
    let built = tally(|o| matches!(o, Order::Build { .. }));
    let waived = tally(|o| matches!(o, Order::Waive));
    let builds = built + waived;
    let disbands = tally(|o| matches!(o, Order::Disband { .. }));
    let mut gaps = Vec::new();
    if count <= 0 && builds > 0 {
        gaps.push(Gap::BuildsNotAllowed);
    }
    if count >= 0 && disbands > 0 {
        gaps.push(Gap::DisbandsNotOwed);
    }
    if count > 0 {
        let allowed = count as u32;
        // Builds beyond the free home centres cannot be used: they are not "left"; a waive
        // gives up a build, not a site.
        let sites = position.free_home_centres(&variant.map, power).count() as u32;
        let usable = (allowed - waived.min(allowed)).min(sites);
        if builds > allowed {
            gaps.push(Gap::TooManyBuilds {
                allowed,
                ordered: builds,
            });
        } else if built < usable {
            gaps.push(Gap::BuildsLeft(usable - built));
        }
    } else if count < 0 {
        let owed = count.unsigned_abs();
        if disbands < owed {
            gaps.push(Gap::DisbandsMissing {
                owed,
                ordered: disbands,
            });
        } else if disbands > owed {
            gaps.push(Gap::TooManyDisbands {
                owed,
                ordered: disbands,
            });
        }
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interchange::{GameState, position_from_state};

    fn standard() -> Variant {
        crate::variant::builtin("standard").expect("built in").expect("valid")
    }

    fn read(v: &Variant, position: &Position, power: PowerId, lines: &[&str]) -> PhaseOrders {
        let mut orders = PhaseOrders::default();
        orders.read(v, position, Some(power), lines.iter().copied());
        orders
    }

    #[test]
    fn units_without_orders_are_named_and_a_second_order_fills_no_gap() {
        let v = standard();
        let position = Position::initial(&v);
        let france = v.map.power_by_name("France").expect("France");
        let orders = read(&v, &position, france, &["A Par - Bur", "A Par H"]);
        let places: Vec<String> = gaps(&v, &position, france, &orders)
            .iter()
            .map(|g| match g {
                Gap::NoOrder(u) => v.map.location_abbreviation(u.location),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(places, ["bre", "mar"]);
        let all = read(&v, &position, france, &["A Par - Bur", "A Mar H", "F Bre - Mao"]);
        assert_eq!(gaps(&v, &position, france, &all), []);
    }

    #[test]
    fn each_unit_is_marked_ordered_missing_or_refused() {
        let v = standard();
        let position = Position::initial(&v);
        let france = v.map.power_by_name("France").expect("France");
        // Paris ordered; Marseilles's move is impossible and Brest's destination misspelt: both
        // refused.
        let orders = read(
            &v,
            &position,
            france,
            &["A Par - Bur", "A Mar - Mun", "F Brest to nowhere"],
        );
        let mut marks: Vec<(String, UnitMark)> = unit_marks(&v, &position, france, &orders)
            .into_iter()
            .map(|(u, m)| (v.map.location_abbreviation(u.location), m))
            .collect();
        let expected = [
            ("bre", UnitMark::Refused),
            ("mar", UnitMark::Refused),
            ("par", UnitMark::Ordered),
        ];
        marks.sort();
        let expected: Vec<(String, UnitMark)> = expected.iter().map(|(l, m)| (l.to_string(), *m)).collect();
        assert_eq!(marks, expected);
        // A line naming no unit marks none refused; a refused line for a unit that another
        // line orders leaves it ordered.
        let none = read(&v, &position, france, &["Hello there"]);
        assert!(
            unit_marks(&v, &position, france, &none)
                .iter()
                .all(|(_, m)| *m == UnitMark::Missing)
        );
        let orders = read(&v, &position, france, &["A Mar - Mun", "A Mar - Bur"]);
        let mar = unit_marks(&v, &position, france, &orders);
        assert!(
            mar.iter()
                .any(|(u, m)| v.map.location_abbreviation(u.location) == "mar" && *m == UnitMark::Ordered)
        );
    }

    #[test]
    fn a_winter_says_what_the_builds_and_disbands_leave_out_or_overdo() {
        let v = standard();
        // France: seven centres, five units, Paris and Brest free: two builds. Germany: two
        // centres, four units: two disbands.
        let state = r#"{"name":"t","phase":"W1901A",
            "units":{"FRANCE":["A BUR","F MAO","A MAR","A SPA","F POR"],"GERMANY":["A BER","F HEL","A RUH","A BOH"],
              "ENGLAND":["F LON","F EDI","A LVP"],"ITALY":["A VEN","A ROM","F NAP"],"AUSTRIA":["A VIE","A BUD","F TRI"],
              "RUSSIA":["A MOS","A WAR","F SEV","F STP/SC"],"TURKEY":["A CON","A SMY","F ANK"]},
            "centers":{"FRANCE":["PAR","BRE","MAR","SPA","POR","MUN","BEL"],"GERMANY":["BER","KIE"],
              "ENGLAND":["LON","EDI","LVP"],"ITALY":["VEN","ROM","NAP"],"AUSTRIA":["VIE","BUD","TRI"],
              "RUSSIA":["MOS","WAR","SEV","STP"],"TURKEY":["CON","SMY","ANK"]}}"#;
        let state: GameState = serde_json::from_str(state).expect("a state");
        let position = position_from_state(&v, &state).expect("a position");
        let france = v.map.power_by_name("France").expect("France");
        let germany = v.map.power_by_name("Germany").expect("Germany");
        let gaps_of = |p, lines: &[&str]| gaps(&v, &position, p, &read(&v, &position, p, lines));
        assert_eq!(gaps_of(france, &[]), [Gap::BuildsLeft(2)]);
        assert_eq!(gaps_of(france, &["Build A Par"]), [Gap::BuildsLeft(1)]);
        assert_eq!(gaps_of(france, &["Build A Par", "Waive"]), []);
        assert_eq!(gaps_of(france, &["Waive"]), [Gap::BuildsLeft(1)]);
        assert_eq!(gaps_of(france, &["Waive", "Waive"]), []);
        assert_eq!(
            gaps_of(france, &["Build A Par", "Build F Bre", "Waive"]),
            [Gap::TooManyBuilds { allowed: 2, ordered: 3 }]
        );
        assert_eq!(gaps_of(germany, &[]), [Gap::DisbandsMissing { owed: 2, ordered: 0 }]);
        assert_eq!(
            gaps_of(germany, &["Remove A Boh", "Build F Kie"]),
            [Gap::BuildsNotAllowed, Gap::DisbandsMissing { owed: 2, ordered: 1 }]
        );
        assert_eq!(gaps_of(germany, &["Remove A Boh", "Remove A Ruh"]), []);
        assert_eq!(
            gaps_of(germany, &["Remove A Boh", "Remove A Ruh", "Remove F Hel"]),
            [Gap::TooManyDisbands { owed: 2, ordered: 3 }]
        );
    }

    #[test]
    fn a_dislodged_unit_without_a_retreat_order_is_named() {
        let v = standard();
        let state = r#"{"name":"t","phase":"S1901R",
            "units":{"FRANCE":["A PAR","F BRE","A MAR","*A BEL"],"GERMANY":["A BEL","F KIE","A MUN"],
              "ENGLAND":["F LON","F EDI","A LVP"],"ITALY":["A VEN","A ROM","F NAP"],"AUSTRIA":["A VIE","A BUD","F TRI"],
              "RUSSIA":["A MOS","A WAR","F SEV","F STP/SC"],"TURKEY":["A CON","A SMY","F ANK"]},
            "retreats":{"FRANCE":{"A BEL":["PIC","HOL"]}},
            "centers":{}}"#;
        let state: GameState = serde_json::from_str(state).expect("a state");
        let position = position_from_state(&v, &state).expect("a position");
        let france = v.map.power_by_name("France").expect("France");
        assert!(matches!(
            gaps(&v, &position, france, &read(&v, &position, france, &[]))[..],
            [Gap::NoRetreat(_)]
        ));
        assert_eq!(
            gaps(&v, &position, france, &read(&v, &position, france, &["A Bel R Pic"])),
            []
        );
    }
}
