//! Orders for neutral countries that players control (Hegemony 1.1.3, 1.1.4, 1.1.7) through the
//! JSON interchange: sent by the controller under his own key with the country's prefix,
//! published once under the country's name only, never showing who sent them (1.1.4.7, research
//! D-22); every other line for the country is told to its sender alone.

use std::collections::BTreeMap;

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, AdjudicationOutput, position_from_state};
use spielleiter_engine::report::{Lang, render};
use spielleiter_engine::{Variant, game::PhaseReport};

fn hegemony() -> Variant {
    spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads")
}

/// Adjudicates Bavaria's army alone on the board in `phase`, Bavaria controlled by `control`
/// (France and Spain having 3 PF each there), with `orders` and `pending` keyed by sender.
fn adjudicate(
    phase: &str,
    control: &[&str],
    orders: &[(&str, &[&str])],
    pending: &[(&str, &[&str])],
) -> (AdjudicationOutput, PhaseReport, Variant) {
    let v = hegemony();
    let keyed = |xs: &[(&str, &[&str])]| -> BTreeMap<String, Vec<String>> {
        xs.iter()
            .map(|(p, l)| (p.to_string(), l.iter().map(|x| x.to_string()).collect()))
            .collect()
    };
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": phase,
        "units": {"BAVARIA": ["A BAV"]},
        "centers": {"BAVARIA": ["BAV"], "FRANCE": ["PAR"], "SPAIN": ["MAD"]},
        "influence": {"BAVARIA": {"FRANCE": 3, "SPAIN": 3}},
        "control": {"BAVARIA": control},
        "orders": keyed(orders),
        "pending_orders": keyed(pending),
    }))
    .expect("input");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    (output, report, v)
}

fn assert_anonymous(v: &Variant, report: &PhaseReport) {
    for lang in [Lang::En, Lang::De] {
        let text = render(v, report, lang);
        for player in ["France", "Frankreich", "Spain", "Spanien"] {
            assert!(!text.contains(player), "{player} in\n{text}");
        }
    }
}

#[test]
fn identical_sets_of_joint_controllers_are_published_once_under_the_country_alone() {
    let (output, report, v) = adjudicate(
        "S1701M",
        &["FRANCE", "SPAIN"],
        &[
            ("FRANCE", &["Bavaria: A Bav - Boh"]),
            ("SPAIN", &["Bayern: A Bay - Böhmen"]),
        ],
        &[],
    );
    assert_eq!(output.next.units["BAVARIA"], vec!["A BOH"]);
    assert_eq!(
        output.accepted_orders,
        BTreeMap::from([("BAVARIA".to_string(), vec!["A BAV - BOH".to_string()])])
    );
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    assert_eq!(output.notices["SPAIN"][0].error, "carried out as Bavaria's order");
    let en = render(&v, &report, Lang::En);
    assert_eq!(en.matches("Bavaria: Army Bavaria -> Bohemia.").count(), 1, "{en}");
    assert_anonymous(&v, &report);
}

#[test]
fn sets_that_differ_are_told_to_their_senders_alone_and_the_army_holds() {
    let (output, report, v) = adjudicate(
        "S1701M",
        &["FRANCE", "SPAIN"],
        &[
            ("FRANCE", &["Bavaria: A Bav - Boh"]),
            ("SPAIN", &["Bavaria: A Bav - Tyr"]),
        ],
        &[],
    );
    assert_eq!(output.next.units["BAVARIA"], vec!["A BAV"]);
    assert!(output.accepted_orders.is_empty(), "{:?}", output.accepted_orders);
    for sender in ["FRANCE", "SPAIN"] {
        assert!(
            output.notices[sender][0].error.starts_with("not carried out"),
            "{output:?}"
        );
    }
    assert_anonymous(&v, &report);
}

#[test]
fn a_sole_controller_orders_under_a_heading_and_others_orders_for_the_country_stay_private() {
    let (output, report, v) = adjudicate(
        "S1701M",
        &["FRANCE"],
        &[
            ("FRANCE", &["Bavaria:", "A Bav - Boh"]),
            ("SPAIN", &["Bavaria: A Bav - Tyr", "Bavaria: A Bav - Xyz"]),
        ],
        &[],
    );
    assert_eq!(output.next.units["BAVARIA"], vec!["A BOH"]);
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    let spain: Vec<&str> = output.notices["SPAIN"].iter().map(|n| n.error.as_str()).collect();
    assert_eq!(spain.len(), 2, "{spain:?}");
    assert!(spain[0].contains("Spain cannot give orders for Bavaria"), "{spain:?}");
    assert_anonymous(&v, &report);
}

#[test]
fn orders_for_a_later_phase_stay_the_senders_and_are_read_as_his_when_it_comes() {
    let (output, _, _) = adjudicate(
        "S1701M",
        &["FRANCE"],
        &[("FRANCE", &["F1701M:", "Bavaria: A Bav - Boh"])],
        &[],
    );
    assert_eq!(output.pending_orders["FRANCE"], vec!["F1701M: Bavaria: A Bav - Boh"]);
    assert!(!output.pending_orders.contains_key("BAVARIA"));
    let pending = output.pending_orders["FRANCE"][0].as_str();
    let (output, _, _) = adjudicate("F1701M", &["FRANCE"], &[], &[("FRANCE", &[pending])]);
    assert_eq!(output.next.units["BAVARIA"], vec!["A BOH"]);
    // Sent by a power that no longer controls Bavaria, it is refused.
    let (output, _, _) = adjudicate("F1701M", &["SPAIN"], &[], &[("FRANCE", &[pending])]);
    assert_eq!(output.next.units["BAVARIA"], vec!["A BAV"]);
    assert!(
        output.notices["FRANCE"][0]
            .error
            .contains("cannot give orders for Bavaria")
    );
}

#[test]
fn a_provocation_is_told_to_the_provoker_alone_and_takes_his_influence_and_control() {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "S1701M",
        "units": {"BAVARIA": ["A BAV"], "FRANCE": ["A BUR"]},
        "centers": {"BAVARIA": ["BAV"], "FRANCE": ["PAR"], "SPAIN": ["MAD"]},
        "influence": {"BAVARIA": {"FRANCE": 3, "SPAIN": 2}},
        "control": {"BAVARIA": ["FRANCE"]},
        "orders": {"FRANCE": ["A Bur - Bav"]},
    }))
    .expect("input");
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    assert_eq!(
        output.notices["FRANCE"][0].error,
        "Army Burgundy provoked Bavaria: France's influence there (3 PF) is lost, and with it the control of Bavaria (rule 1.1.10)"
    );
    assert_eq!(output.notices["FRANCE"][0].order, "A BUR - BAV");
    assert_eq!(output.next.control["BAVARIA"], vec!["SPAIN"]);
    let france = v.map.power_by_name("France").expect("France");
    let before = position_from_state(&v, &input.state).expect("a position");
    let de = spielleiter_engine::report::private_report(&v, &before, &report, france, Lang::De);
    assert_eq!(
        de[..2],
        [
            "Armee Burgund hat Bayern provoziert: der Einfluss von Frankreich dort (3 PF) ist verloren und damit die Kontrolle über Bayern (Regel 1.1.10).",
            "Politische Faktoren im Vorrat: 0."
        ],
        "{de:?}"
    );
    assert!(!de.iter().any(|l| l.contains("Kontrolliert")), "{de:?}");
    // Spain, left with the most influence, learns that it now controls Bavaria, not why.
    let spain = v.map.power_by_name("Spain").expect("Spain");
    let spain = spielleiter_engine::report::private_report(&v, &before, &report, spain, Lang::En);
    assert_eq!(
        spain,
        [
            "Political factors in stock: 0.",
            "Influence: Bavaria 2.",
            "Controls Bavaria alone: orders for it read `Bavaria: A …`."
        ]
    );
    for lang in [Lang::En, Lang::De] {
        let text = render(&v, &report, lang);
        assert!(!text.contains("provo") && !text.contains("PF"), "{text}");
    }
}

#[test]
fn the_game_options_travel_with_the_state_and_bad_ones_are_refused() {
    let v = hegemony();
    let state = |options: serde_json::Value| -> spielleiter_engine::interchange::GameState {
        serde_json::from_value(serde_json::json!({"phase": "W1700A", "options": options})).expect("state")
    };
    let good = state(serde_json::json!({"control_rule": "alternative", "victory": 2}));
    let position = spielleiter_engine::interchange::position_from_state(&v, &good).expect("reads");
    let back = spielleiter_engine::interchange::state_from_position(&v, &position);
    assert_eq!(back.options.control_rule.as_deref(), Some("alternative"));
    assert_eq!(back.options.victory, Some(2));
    for (bad, why) in [
        (
            serde_json::json!({"control_rule": "majority"}),
            "neither `standard` nor `alternative`",
        ),
        (serde_json::json!({"victory": 6}), "not one of the conditions 1 to 5"),
    ] {
        let e = spielleiter_engine::interchange::position_from_state(&v, &state(bad)).expect_err("refused");
        assert!(e.to_string().contains(why), "{e}");
    }
    let standard = spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads");
    let e = spielleiter_engine::interchange::position_from_state(
        &standard,
        &serde_json::from_value(serde_json::json!({"phase": "S1901M", "options": {"victory": 1}})).expect("state"),
    )
    .expect_err("no politics in the standard game");
    assert!(e.to_string().contains("variants with political factors"), "{e}");
}

#[test]
fn a_move_into_a_neutral_without_influence_there_costs_nothing_and_is_not_told() {
    let v = hegemony();
    let input: AdjudicationInput = serde_json::from_value(serde_json::json!({
        "phase": "S1701M",
        "units": {"BAVARIA": ["A BAV"], "FRANCE": ["A BUR"]},
        "centers": {"BAVARIA": ["BAV"], "FRANCE": ["PAR"], "SPAIN": ["MAD"]},
        "influence": {"BAVARIA": {"SPAIN": 2}},
        "control": {"BAVARIA": ["SPAIN"]},
        "orders": {"FRANCE": ["A Bur - Bav"]},
    }))
    .expect("input");
    let (output, _) = adjudicate_with(&v, &input).expect("adjudicates");
    assert!(output.notices.is_empty(), "{:?}", output.notices);
    assert_eq!(output.next.influence["BAVARIA"]["SPAIN"], 2);
}

#[test]
fn a_second_order_for_a_unit_or_its_leader_names_the_first_and_only_the_last_is_carried_out() {
    let v = hegemony();
    let state: spielleiter_engine::interchange::GameState = serde_json::from_value(serde_json::json!({
        "phase": "S1701M",
        "units": {"ENGLAND": ["A NET", "F LON"]},
        "centers": {"ENGLAND": ["LON", "NET"]},
        "leaders": {"ENGLAND": {"MARLBOROUGH": "NET"}},
    }))
    .expect("a state");
    let position = position_from_state(&v, &state).expect("a position");
    let england = v.map.power_by_name("England");
    let mut orders = spielleiter_engine::game::PhaseOrders::default();
    let lines = ["LA Net - Wfa", "F Lon H", "L Net - Bel", "A Net H"];
    orders.read(&v, &position, england, lines);
    // `LA Net - Wfa` orders the army and Marlborough at once: a later order for either of them
    // contradicts it, and the last one for each piece is carried out.
    assert_eq!(orders.earlier_orders(&v), [None, None, Some(0), Some(0)]);
    let carried = orders.carried_out(&v, spielleiter_engine::PhaseKind::Movement);
    assert_eq!(carried, [false, true, true, true]);
}
