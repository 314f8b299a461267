//! A Hegemony winter through the JSON interchange and the report: its steps (4.4) in order,
//! declarations of friendship, a blocked overseas centre, a unit removed for want of supply with
//! the square that failed, the builds and removals, and nothing of the secret politics.

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, AdjudicationOutput, position_from_state};
use spielleiter_engine::report::{Lang, private_report, render};
use spielleiter_engine::{Variant, game::PhaseReport};

fn hegemony() -> Variant {
    spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads")
}

/// Winter 1701: England's F Ire with MID blocked by a French fleet, French fleets cutting and
/// threatening its other lines (research case 47); `orders` from France.
fn winter(orders: &[&str]) -> (AdjudicationOutput, PhaseReport, Variant) {
    let (v, input) = winter_input(orders);
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    (output, report, v)
}

/// The input of [`winter`].
fn winter_input(orders: &[&str]) -> (Variant, AdjudicationInput) {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "W1701A",
        "units": {"ENGLAND": ["F IRE", "F LON"], "FRANCE": ["F MAO", "F ENG", "F NTH", "F NAO"]},
        "centers": {"ENGLAND": ["LON", "MAO"], "FRANCE": ["BRE", "PAR", "MAR", "BEL"]},
        "political_factors": {"ENGLAND": 1},
        "orders": {"FRANCE": orders},
    }))
    .expect("input");
    (v, input)
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
    // A refused conditional line is told to its sender alone, with the position of the word.
    let (output, _, _) = winter(&["IF Xyz blocked THEN Friendly to England"]);
    assert!(output.rejected_orders.is_empty(), "{output:?}");
    let refused = &output.notices["FRANCE"][0];
    assert_eq!(
        (refused.position, refused.error.as_str()),
        (3, "unknown province `Xyz`")
    );
}

#[test]
fn a_conditional_line_speaks_for_its_sender_alone_and_a_misplaced_else_is_refused() {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "W1701A",
        "units": {"ENGLAND": ["F IRE", "F LON"], "FRANCE": ["F MAO"]},
        "centers": {"ENGLAND": ["LON", "MAO"], "FRANCE": ["BRE", "PAR"]},
        "orders": {"ENGLAND": [
            "IF MID not blocked THEN Waive ELSE France: Friendly to England",
            "IF MID blocked ELSE Waive THEN Waive",
            "PF 3 Bavaria, PF x Savoy",
        ]},
    }))
    .expect("input");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    assert!(
        output.friendly.is_empty(),
        "England cannot declare for France: {output:?}"
    );
    assert_eq!(output.overseas_blocked["ENGLAND"], "MAO");
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    let notices: Vec<&str> = output.notices["ENGLAND"].iter().map(|n| n.error.as_str()).collect();
    let told = |what: &str| notices.iter().any(|n| n.contains(what));
    assert!(told("for one's own country only, not for France"), "{notices:?}");
    assert!(told("`ELSE` (`SONST`) after `THEN`"), "{notices:?}");
    assert!(told("the number of political factors after `PF`"), "{notices:?}");
    let text = render(&v, &report, Lang::En);
    assert!(
        !text.contains("PF") && !text.contains("Savoy") && !text.contains("IF"),
        "{text}"
    );
}

#[test]
fn a_neutrals_builds_are_not_shown_lest_they_reveal_its_control() {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "F1701M",
        "units": {"PRUSSIA": ["A PRU"], "FRANCE": ["A PAR"]},
        "centers": {"PRUSSIA": ["BER", "PRU"], "FRANCE": ["PAR", "BRE"]},
        "influence": {"PRUSSIA": {"FRANCE": 4}},
        "control": {"PRUSSIA": ["FRANCE"]},
    }))
    .expect("input");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    assert_eq!(output.next.phase, "W1701A");
    assert!(!output.builds.contains_key("PRUSSIA"), "{:?}", output.builds);
    assert_eq!(output.builds["FRANCE"].count, 1);
    let text = render(&v, &report, Lang::En);
    let prussia = text.lines().find(|l| l.starts_with("Prussia")).unwrap_or_default();
    assert!(!prussia.contains("Builds"), "{text}");
}

#[test]
fn political_factors_beyond_any_game_are_refused() {
    let v = hegemony();
    let state: spielleiter_engine::interchange::GameState = serde_json::from_value(serde_json::json!({
        "phase": "W1701A",
        "influence": {"BAVARIA": {"FRANCE": 4_000_000_000u32, "SPAIN": 4_000_000_000u32}},
    }))
    .expect("state");
    let e = spielleiter_engine::interchange::position_from_state(&v, &state).expect_err("too many");
    assert!(e.to_string().contains("more than"), "{e}");
}

#[test]
fn overseas_centres_are_read_and_written_in_their_own_field() {
    let v = hegemony();
    let state: spielleiter_engine::interchange::GameState = serde_json::from_value(serde_json::json!({
        "phase": "S1702M",
        "units": {"ENGLAND": ["F LON"]},
        "centers": {"ENGLAND": ["LON"]},
        "overseas_centres": {"ENGLAND": "MAO"},
    }))
    .expect("state");
    let position = spielleiter_engine::interchange::position_from_state(&v, &state).expect("reads");
    let back = spielleiter_engine::interchange::state_from_position(&v, &position);
    assert_eq!(back.overseas_centres["ENGLAND"], "MAO");
    assert!(
        back.centers["ENGLAND"].contains(&"MAO".to_string()),
        "{:?}",
        back.centers
    );
    // Read back with MAO in both fields, it is one centre.
    let again = spielleiter_engine::interchange::position_from_state(&v, &back).expect("reads again");
    assert_eq!(
        again.centre_count(&v.map, v.map.power_by_name("England").expect("England")),
        2
    );
}

#[test]
fn each_player_alone_is_told_his_income_his_allocations_and_his_politics() {
    let (v, input) = winter_input(&["PF 2 Bavaria", "PF 1 Savoy"]);
    let before = position_from_state(&v, &input.state).expect("a position");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    let power = |name: &str| v.map.power_by_name(name).expect("a power");
    let france = private_report(&v, &before, &report, power("France"), Lang::En);
    // France's four centres give four PF; three of them went into Bavaria and Savoy.
    assert_eq!(output.next.political_factors["FRANCE"], 1);
    assert_eq!(
        france[..3],
        [
            "PF 2 Bavaria  (*political factors allocated*)".to_string(),
            "PF 1 Savoy  (*political factors allocated*)".to_string(),
            "Income this winter: 4 political factors (rule 1.1.9).".to_string(),
        ],
        "{france:?}"
    );
    assert!(
        france.iter().any(|l| l.starts_with("Influence: Bavaria 2, Savoy 1")),
        "{france:?}"
    );
    let england = private_report(&v, &before, &report, power("England"), Lang::De);
    assert_eq!(
        england,
        [
            "Einkommen dieses Winters: 1 politischer Faktor (Regel 1.1.9).",
            "Politische Faktoren im Vorrat: 2."
        ]
    );
    // A neutral country is told nothing, and nobody learns another's politics.
    assert!(private_report(&v, &before, &report, power("Bavaria"), Lang::En).is_empty());
    assert!(
        !england.iter().any(|l| l.contains("Bayern") || l.contains("Savoyen")),
        "{england:?}"
    );
}
