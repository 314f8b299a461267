//! A Hegemony winter through the JSON interchange and the report: its steps (4.4) in order,
//! declarations of friendship, a blocked overseas centre, a unit removed for want of supply with
//! the square that failed, the builds and removals, and nothing of the secret politics.

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, AdjudicationOutput};
use spielleiter_engine::report::{Lang, render};
use spielleiter_engine::{Variant, game::PhaseReport};

fn hegemony() -> Variant {
    spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads")
}

/// Winter 1701: England's F Ire with MID blocked by a French fleet, French fleets cutting and
/// threatening its other lines (research case 47); `orders` from France.
fn winter(orders: &[&str]) -> (AdjudicationOutput, PhaseReport, Variant) {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "W1701A",
        "units": {"ENGLAND": ["F IRE", "F LON"], "FRANCE": ["F MAO", "F ENG", "F NTH", "F NAO"]},
        "centers": {"ENGLAND": ["LON", "MAO"], "FRANCE": ["BRE", "PAR", "MAR", "BEL"]},
        "political_factors": {"ENGLAND": 1},
        "orders": {"FRANCE": orders},
    }))
    .expect("input");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    (output, report, v)
}

#[test]
fn a_blocked_overseas_centre_and_a_unit_without_supply_are_in_the_result() {
    let (output, report, v) = winter(&[]);
    assert_eq!(output.overseas_blocked["ENGLAND"], "MAO");
    let why = &output.supply_removals["ENGLAND"]["F IRE"];
    assert!(why.starts_with("cut in ") || why.starts_with("threatened in "), "{why}");
    assert_eq!(output.results["F IRE"], vec!["disband"]);
    assert!(
        output.reasons["F IRE"].contains("no secure supply line"),
        "{:?}",
        output.reasons
    );
    assert_eq!(output.next.units["ENGLAND"], vec!["F LON"]);
    // Two centres less the blocked one: one unit after the removal; no further removal.
    assert_eq!(output.centre_values["ENGLAND"], 1);
    assert!(!output.adjustments.contains_key("ENGLAND"), "{:?}", output.adjustments);
    // England's income: one PF (the blocked MID gives none), on top of its stock of 1.
    assert_eq!(output.next.political_factors["ENGLAND"], 2);
    let en = render(&v, &report, Lang::En);
    let steps = [
        "1. Declarations of friendship:",
        "2. Overseas centres:",
        "Mid-Atlantic Ocean (England) is blocked this winter by the French fleet.",
        "3. Supply lines:",
        "England: Removes the fleet in Ireland: no secure supply line (",
        "4. Builds and removals:",
        "5. New political factors: each player learns his own alone.",
        "6. Adjustment orders for Winter of 1701.",
        "7. Allocation of political factors and 8. control of the neutral countries: secret.",
    ];
    let mut at = 0;
    for step in steps {
        let found = en[at..]
            .find(step)
            .unwrap_or_else(|| panic!("`{step}` after {at} in\n{en}"));
        at += found + step.len();
    }
    let de = render(&v, &report, Lang::De);
    assert!(
        de.contains("Mittelatlantik (England) ist in diesem Winter gesperrt durch die französische Flotte."),
        "{de}"
    );
    assert!(
        de.contains("England: baut die Flotte in Irland ab: keine sichere Versorgungslinie ("),
        "{de}"
    );
}

#[test]
fn a_declaration_of_friendship_unblocks_the_centre_and_is_published_as_the_first_step() {
    let (output, report, v) = winter(&["Friendly to England"]);
    assert!(
        output.overseas_blocked.is_empty() && output.supply_removals.is_empty(),
        "{output:?}"
    );
    assert_eq!(output.friendly["FRANCE"], vec!["ENGLAND"]);
    assert_eq!(output.centre_values["ENGLAND"], 2);
    assert_eq!(output.next.political_factors["ENGLAND"], 3);
    let en = render(&v, &report, Lang::En);
    assert!(
        en.contains("1. Declarations of friendship:\nFrance: friendly to England."),
        "{en}"
    );
    assert!(
        en.contains("None blocked.") && en.contains("Every unit supplied."),
        "{en}"
    );
    let de = render(&v, &report, Lang::De);
    assert!(de.contains("Frankreich: freundlich gegenüber England."), "{de}");
}

#[test]
fn a_conditional_order_is_published_as_the_order_carried_out_and_its_condition_never() {
    let (output, report, v) = winter(&["IF MID blocked THEN Friendly to England ELSE PF 1 Bavaria"]);
    assert_eq!(output.accepted_orders["FRANCE"], vec!["FRIENDLY ENGLAND"]);
    assert!(output.overseas_blocked.is_empty(), "{output:?}");
    for lang in [Lang::En, Lang::De] {
        let text = render(&v, &report, lang);
        assert!(
            !text.contains("IF") && !text.contains("Bavaria") && !text.contains("Bayern"),
            "{text}"
        );
    }
    let (output, _, _) = winter(&["WENN MID nicht gesperrt DANN Freundlich gegenüber England"]);
    assert!(output.accepted_orders.is_empty(), "{output:?}");
    assert_eq!(
        output.notices["FRANCE"][0].error,
        "not carried out: its condition did not hold"
    );
    assert_eq!(output.overseas_blocked["ENGLAND"], "MAO");
    let (output, _, _) = winter(&["IF Xyz blocked THEN Friendly to England"]);
    let refused = &output.rejected_orders["FRANCE"][0];
    assert_eq!(
        (refused.position, refused.error.as_str()),
        (3, "unknown province `Xyz`")
    );
}
