//! What an adjudication publishes: only the orders carried out (an order replaced by a later
//! one, in the same submission or a later submission for the phase, is never among them), and
//! the orders of the final submission that were rejected. Retreats ordered in advance that were
//! not used, and orders for phases that were not played, are told only to their sender.

use std::collections::BTreeMap;

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, AdjudicationOutput, GameState, position_from_state};
use spielleiter_engine::report::{Lang, private_report, render};
use spielleiter_engine::{Variant, game::PhaseReport};

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads")
}

/// French armies in Paris and Marseilles, a German army in Munich, an Italian army in Piedmont
/// and an Italian fleet in the Gulf of Lyon.
fn state(phase: &str) -> GameState {
    serde_json::from_value(serde_json::json!({
        "phase": phase,
        "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"], "ITALY": ["A PIE", "F LYO"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]}
    }))
    .expect("a state")
}

fn lines(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

fn adjudicate(
    phase: &str,
    orders: &[(&str, &[&str])],
    pending: &[(&str, &[&str])],
) -> (AdjudicationOutput, PhaseReport, Variant) {
    let v = standard();
    let map = |xs: &[(&str, &[&str])]| -> BTreeMap<String, Vec<String>> {
        xs.iter().map(|(p, l)| (p.to_string(), lines(l))).collect()
    };
    let input = AdjudicationInput {
        state: state(phase),
        orders: map(orders),
        pending_orders: map(pending),
        ..AdjudicationInput::default()
    };
    let (output, report) = adjudicate_with(&v, &input).expect("adjudicates");
    (output, report, v)
}

fn accepted(output: &AdjudicationOutput, power: &str) -> Vec<String> {
    output.accepted_orders.get(power).cloned().unwrap_or_default()
}

#[test]
fn orders_sent_now_replace_those_sent_in_advance_for_the_phase() {
    let (output, report, v) = adjudicate(
        "F1901M",
        &[("FRANCE", &["A PAR - PIC"])],
        &[("FRANCE", &["F1901M: A PAR - BUR", "F1901M: A MAR - SPA"])],
    );
    assert_eq!(accepted(&output, "FRANCE"), vec!["A PAR - PIC"]);
    let mut units = output.next.units["FRANCE"].clone();
    units.sort();
    assert_eq!(units, vec!["A MAR", "A PIC"], "A Mar holds: its order was replaced too");
    let text = render(&v, &report, Lang::En);
    assert!(!text.contains("Burgundy") && !text.contains("Marseilles ->"), "{text}");
}

#[test]
fn advance_orders_stand_when_the_new_orders_are_for_another_phase_only() {
    let (output, _, _) = adjudicate(
        "F1901M",
        &[("FRANCE", &["S1902M:", "A BUR - MUN"])],
        &[("FRANCE", &["F1901M: A PAR - BUR"])],
    );
    assert_eq!(accepted(&output, "FRANCE"), vec!["A PAR - BUR"]);
    assert_eq!(output.pending_orders["FRANCE"], vec!["S1902M: A BUR - MUN"]);
}

#[test]
fn a_later_phase_ordered_anew_replaces_what_was_sent_for_it_before() {
    let (output, _, _) = adjudicate(
        "S1901M",
        &[("FRANCE", &["A PAR H", "F1901M:", "A PAR - PIC"])],
        &[("FRANCE", &["F1901M: A PAR - BUR"])],
    );
    assert_eq!(output.pending_orders["FRANCE"], vec!["F1901M: A PAR - PIC"]);
}

#[test]
fn of_two_orders_for_one_unit_only_the_one_carried_out_is_published() {
    let (output, report, v) = adjudicate("S1901M", &[("FRANCE", &["A PAR - BUR", "A MAR H", "A PAR - PIC"])], &[]);
    assert_eq!(accepted(&output, "FRANCE"), vec!["A MAR H", "A PAR - PIC"]);
    let text = render(&v, &report, Lang::En);
    assert!(!text.contains("Burgundy"), "{text}");
}

#[test]
fn retreats_in_advance_for_a_unit_not_dislodged_are_told_only_to_their_sender() {
    // A Mar is dislodged (its retreat phase is open), A Par is not.
    let (output, report, v) = adjudicate(
        "S1901M",
        &[
            ("FRANCE", &["A PAR H", "A MAR H", "S1901R:", "A PAR R GAS"]),
            ("ITALY", &["A PIE - MAR", "F LYO S A PIE - MAR"]),
        ],
        &[],
    );
    assert_eq!(output.next.phase, "S1901R");
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    assert_eq!(output.notices["FRANCE"].len(), 1, "{:?}", output.notices);
    assert!(output.notices["FRANCE"][0].order.contains("A PAR R GAS"));
    for lang in [Lang::En, Lang::De] {
        let text = render(&v, &report, lang);
        assert!(!text.contains("R GAS") && !text.contains("not accepted"), "{text}");
    }
    let france = v.map.power_by_name("France").expect("France");
    let italy = v.map.power_by_name("Italy").expect("Italy");
    let before = position_from_state(&v, &state("S1901M")).expect("a position");
    let told = private_report(&v, &before, &report, france, Lang::De);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains("A PAR R GAS"), "{told:?}");
    assert!(private_report(&v, &before, &report, italy, Lang::En).is_empty());
}

#[test]
fn retreats_in_advance_are_dropped_unpublished_when_nobody_is_dislodged() {
    let (output, report, v) = adjudicate("S1901M", &[("FRANCE", &["A PAR H", "S1901R:", "A PAR R GAS"])], &[]);
    assert!(output.rejected_orders.is_empty() && output.pending_orders.is_empty());
    assert!(!render(&v, &report, Lang::En).contains("R GAS"));
}

#[test]
fn priority_lists_that_cannot_be_read_are_not_published() {
    let (output, report, v) = adjudicate(
        "S1901M",
        &[("FRANCE", &["A PAR H", "if dislodged by Italy: A PAR R Xyz"])],
        &[],
    );
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    assert!(output.notices.contains_key("FRANCE"), "{:?}", output.notices);
    assert!(!render(&v, &report, Lang::En).contains("Xyz"));
}

#[test]
fn orders_for_a_phase_that_was_not_played_are_told_only_to_their_sender() {
    // Sent for the winter of 1901, which was skipped: the game is in spring 1902.
    let (output, report, v) = adjudicate("S1902M", &[], &[("FRANCE", &["W1901A: A BRE B"])]);
    assert!(output.rejected_orders.is_empty(), "{:?}", output.rejected_orders);
    assert_eq!(output.notices["FRANCE"].len(), 1, "{:?}", output.notices);
    assert!(!render(&v, &report, Lang::En).contains("BRE"));
}

#[test]
fn rejected_orders_of_the_final_submission_stay_in_the_report() {
    let (output, report, v) = adjudicate("S1901M", &[("FRANCE", &["A PAR - MOS"])], &[]);
    assert_eq!(output.rejected_orders["FRANCE"].len(), 1);
    assert!(render(&v, &report, Lang::En).contains("A PAR - MOS"));
}

#[test]
fn a_retreat_sent_with_the_moves_for_another_powers_unit_is_refused_and_told_to_its_sender() {
    // Italy dislodges A Mar; Germany names a retreat for the French army under the retreat
    // phase's heading. It is not carried out: France's army gets its own retreat phase.
    let (output, report, v) = adjudicate(
        "S1901M",
        &[
            ("GERMANY", &["A MUN H", "S1901R:", "France: A MAR R GAS"]),
            ("ITALY", &["A PIE - MAR", "F LYO S A PIE - MAR"]),
        ],
        &[],
    );
    assert_eq!(output.next.phase, "S1901R", "France retreats in its own phase");
    assert!(
        output.notices["GERMANY"][0].error.contains("retreats of France"),
        "{output:?}"
    );
    assert!(!render(&v, &report, Lang::En).contains("R GAS"));
}
