//! Whole phases: retreats ordered in advance (seed 000 §10), the phase sequence with skipped
//! phases, centre ownership after fall, adjustments and victory.

use spielleiter_engine::adjudicate::retreat::RetreatOutcome;
use spielleiter_engine::game::{PhaseOrders, PhaseReport, adjudicate_phase, powers_to_order};
use spielleiter_engine::interchange::{GameState, position_from_state, state_from_position};
use spielleiter_engine::order::OrderErrorKind;
use spielleiter_engine::report::vocabulary::words_in;
use spielleiter_engine::report::{Lang, render};
use spielleiter_engine::{PhaseKind, Position, Variant};

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads")
}

fn position(v: &Variant, json: &str) -> Position {
    let state: GameState = serde_json::from_str(json).expect("state JSON");
    position_from_state(v, &state).expect("state fits")
}

fn play(v: &Variant, p: &Position, orders: &[(&str, &[&str])]) -> PhaseReport {
    let mut read = PhaseOrders::default();
    for (power, lines) in orders {
        let power = v.map.power_by_name(power).expect("power");
        read.read(v, p, Some(power), lines.iter().copied());
    }
    adjudicate_phase(v, p, read)
}

fn units_of(v: &Variant, p: &Position) -> Vec<String> {
    let state = state_from_position(v, p);
    let mut all: Vec<String> = state
        .units
        .iter()
        .flat_map(|(power, us)| us.iter().map(move |u| format!("{power} {u}")))
        .collect();
    all.sort();
    all
}

/// France's fleet in Brest is dislodged from the Channel side; Picardy and Gascony are free.
const BREST: &str = r#"{"phase": "S1901M", "units": {
    "FRANCE": ["F BRE"], "ENGLAND": ["F ENG", "F MAO"], "GERMANY": ["A PIC"]}}"#;

#[test]
fn a_priority_list_takes_the_first_legal_choice() {
    let v = standard();
    let p = position(&v, BREST);
    // English Channel is the attacker's origin and Picardy is occupied: Gascony is the first legal choice.
    let report = play(
        &v,
        &p,
        &[
            ("England", &["F Eng - Bre", "F Mao S F Eng - Bre"]),
            ("France", &["F Bre H", "F Bre R Eng, Pic, Gas, Par"]),
        ],
    );
    let retreats = report.retreats.as_ref().expect("applied in advance");
    assert_eq!(retreats.outcomes.len(), 1);
    assert!(matches!(retreats.outcomes[0], RetreatOutcome::Retreated(_)));
    assert!(retreats.in_advance[0]);
    assert_eq!(report.next.phase.to_string(), "F1901M", "the retreat phase is skipped");
    assert!(units_of(&v, &report.next).contains(&"FRANCE F GAS".to_string()));
    let text = render(&v, &report, Lang::En);
    assert!(
        text.contains("France: Fleet Brest -> Gascony.  (ordered in advance)"),
        "{text}"
    );
}

#[test]
fn a_condition_on_the_attacker_chooses_between_lists() {
    let v = standard();
    let p = position(&v, BREST);
    let lines: &[&str] = &[
        "if dislodged by Germany: F Bre R Pic",
        "if dislodged by England: F Bre R Gas",
        "F Bre R Par",
    ];
    let report = play(
        &v,
        &p,
        &[("England", &["F Eng - Bre", "F Mao S F Eng - Bre"]), ("France", lines)],
    );
    assert!(units_of(&v, &report.next).contains(&"FRANCE F GAS".to_string()));
    // German wording of the same condition.
    let report = play(
        &v,
        &p,
        &[
            ("England", &["F Eng - Bre", "F Mao S F Eng - Bre"]),
            ("France", &["falls von England vertrieben: F Bre R Gas"]),
        ],
    );
    assert!(units_of(&v, &report.next).contains(&"FRANCE F GAS".to_string()));
}

#[test]
fn a_power_wide_rule_prefers_supply_centres_then_the_alphabet() {
    let v = standard();
    // The army in Burgundy is dislodged from Munich; it may go to Belgium (centre), Gascony,
    // Marseilles (centre), Paris (centre), Picardy or Ruhr.
    let p = position(
        &v,
        r#"{"phase": "F1901M", "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}}"#,
    );
    let report = play(
        &v,
        &p,
        &[
            ("Germany", &["A Mun - Bur", "A Ruh S A Mun - Bur"]),
            ("France", &["retreats: supply centres first, then alphabetical"]),
        ],
    );
    assert!(
        units_of(&v, &report.next).contains(&"FRANCE A BEL".to_string()),
        "{:?}",
        units_of(&v, &report.next)
    );
    // The German wording.
    let report = play(
        &v,
        &p,
        &[
            ("Germany", &["A Mun - Bur", "A Ruh S A Mun - Bur"]),
            ("France", &["Rückzüge: zuerst Versorgungszentren, dann alphabetisch"]),
        ],
    );
    assert!(units_of(&v, &report.next).contains(&"FRANCE A BEL".to_string()));
}

#[test]
fn two_preference_lists_into_one_place_disband_both() {
    let v = standard();
    // Two French armies are dislodged; both lists start with Gascony.
    let p = position(
        &v,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A PIC", "A PIE", "A SPA", "A BRE"]}}"#,
    );
    let report = play(
        &v,
        &p,
        &[
            (
                "Germany",
                &[
                    "A Bur - Par",
                    "A Pic S A Bur - Par",
                    "A Pie - Mar",
                    "A Spa S A Pie - Mar",
                ],
            ),
            ("France", &["A Par R Gas, Bur", "A Mar R Gas"]),
        ],
    );
    let r = report.retreats.as_ref().expect("retreats in advance");
    assert_eq!(r.outcomes, vec![RetreatOutcome::Bounced, RetreatOutcome::Bounced]);
    assert!(units_of(&v, &report.next).iter().all(|u| !u.starts_with("FRANCE")));
}

#[test]
fn conditions_on_other_units_retreats_are_refused() {
    let v = standard();
    let p = position(&v, BREST);
    let report = play(&v, &p, &[("France", &["if Russia retreats to Warsaw: F Bre R Gas"])]);
    let (_, _, e) = report.orders.sender_only.first().expect("refused");
    assert!(matches!(e.kind, OrderErrorKind::ConditionNotAllowed(_)), "{e}");
}

#[test]
fn uncovered_units_get_a_retreat_phase_and_covered_ones_keep_their_choice() {
    let v = standard();
    let p = position(
        &v,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["F BRE"], "ITALY": ["A VEN"],
            "ENGLAND": ["F ENG", "F MAO"], "AUSTRIA": ["A TRI", "A TYR"]}}"#,
    );
    let report = play(
        &v,
        &p,
        &[
            ("England", &["F Eng - Bre", "F Mao S F Eng - Bre"]),
            ("Austria", &["A Tri - Ven", "A Tyr S A Tri - Ven"]),
            ("France", &["F Bre R Pic"]),
        ],
    );
    assert_eq!(report.next.phase.kind, PhaseKind::Retreat);
    assert_eq!(report.next.pending_retreats.len(), 1);
    // Italy orders its retreat; France's advance order is used.
    let next = report.next.clone();
    let report = play(&v, &next, &[("Italy", &["A Ven R Pie"])]);
    let units = units_of(&v, &report.next);
    assert!(
        units.contains(&"FRANCE F PIC".to_string()) && units.contains(&"ITALY A PIE".to_string()),
        "{units:?}"
    );
    assert_eq!(report.next.phase.to_string(), "F1901M");
}

#[test]
fn fall_changes_ownership_then_adjustments_then_spring() {
    let v = standard();
    let mut p = Position::initial(&v);
    let spring = play(&v, &p, &[("France", &["A Par - Bur", "F Bre - Mao"])]);
    assert_eq!(spring.next.phase.to_string(), "F1901M");
    assert!(!spring.ownership_updated);
    p = spring.next;
    let fall = play(&v, &p, &[("France", &["F Mao - Por", "A Bur - Bel"])]);
    assert!(fall.ownership_updated);
    assert_eq!(fall.next.phase.to_string(), "W1901A");
    p = fall.next;
    let france = v.map.power_by_name("France").expect("france");
    assert_eq!(p.owners.iter().filter(|o| **o == Some(france)).count(), 5);
    let winter = play(&v, &p, &[("France", &["Build A Par", "Build F Bre", "Build A Mar"])]);
    let a = winter.adjustments.as_ref().expect("adjustments");
    assert_eq!(
        a.outcomes.len(),
        2,
        "the build in occupied Marseilles is rejected when read"
    );
    assert!(
        winter
            .orders
            .lines
            .iter()
            .any(|l| l.text == "Build A Mar" && l.result.is_err())
    );
    assert_eq!(winter.next.phase.to_string(), "S1902M");
    let french = winter.next.units.iter().filter(|u| u.power == france).count();
    assert_eq!(french, 5);
    // The German report names the adjustments.
    let text = render(&v, &winter, Lang::De);
    assert!(text.contains("Frankreich: baut eine Armee in Paris auf."), "{text}");
    assert!(
        text.contains("Die nächste Phase: Bewegungen im Frühjahr 1902."),
        "{text}"
    );
}

#[test]
fn a_fall_without_changes_skips_the_adjustments() {
    let v = standard();
    let p = Position::initial(&v);
    let spring = play(&v, &p, &[]);
    let fall = play(&v, &spring.next, &[]);
    assert_eq!(fall.next.phase.to_string(), "S1902M");
}

#[test]
fn reaching_the_victory_centres_ends_the_game() {
    let v = standard();
    // Russia holds 17 centres and takes an 18th in the fall.
    let p = position(
        &v,
        r#"{"phase": "F1905M",
            "units": {"RUSSIA": ["A WAR", "A MOS", "F SEV", "A STP", "A BER", "A MUN", "A KIE", "A VIE",
                                  "A BUD", "A TRI", "A RUM", "A SER", "A BUL", "A CON", "A ANK", "A SMY", "A DEN", "A SIL"]},
            "centers": {"RUSSIA": ["WAR", "MOS", "SEV", "STP", "BER", "MUN", "KIE", "VIE", "BUD", "TRI", "RUM",
                                   "SER", "BUL", "CON", "ANK", "SMY", "DEN"]}}"#,
    );
    let report = play(&v, &p, &[("Russia", &["A Sil - Boh", "A Den - Swe"])]);
    let russia = v.map.power_by_name("Russia").expect("russia");
    assert_eq!(report.winner, Some(russia));
    let text = render(&v, &report, Lang::En);
    assert!(
        text.contains("The game is over: Russia has won with 18 supply centers."),
        "{text}"
    );
    assert!(text.contains("(* VICTORY!! *)"), "{text}");
}

#[test]
fn reports_list_rejected_orders_with_their_reason_in_both_languages() {
    let v = standard();
    let p = Position::initial(&v);
    let report = play(&v, &p, &[("France", &["A Par - Mos", "F Bre - Mao"])]);
    let en = render(&v, &report, Lang::En);
    assert!(en.contains("Orders that were not accepted:"), "{en}");
    assert!(en.contains("France: A Par - Mos  (*A Par cannot reach Mos*)"), "{en}");
    assert!(en.contains("France: Fleet Brest -> Mid-Atlantic Ocean."), "{en}");
    let de = render(&v, &report, Lang::De);
    assert!(
        de.contains("Frankreich: A Par - Mos  (*A Par kann Mos nicht erreichen*)"),
        "{de}"
    );
    assert!(de.contains("Frankreich: Flotte Brest -> Mittelatlantik."), "{de}");
    assert!(de.contains("Ergebnisse der Bewegungen im Frühjahr 1901."), "{de}");
}

#[test]
fn retreat_options_in_a_state_are_checked() {
    let v = standard();
    for (json, fragment) in [
        (
            r#"{"phase": "S1901R", "units": {"FRANCE": ["*F MAO"]}, "retreats": {"FRANCE": {"F MAO": ["SPA"]}}}"#,
            "name the coast",
        ),
        (
            r#"{"phase": "S1901R", "units": {"FRANCE": ["*F MAO"]}, "retreats": {"FRANCE": {"F MAO": ["PAR"]}}}"#,
            "cannot move there",
        ),
        (
            r#"{"phase": "S1901R", "units": {"FRANCE": ["*F MAO"]}, "retreats": {"FRANCE": {"F MAO": ["XYZ"]}}}"#,
            "unknown place",
        ),
    ] {
        let state: GameState = serde_json::from_str(json).expect("JSON");
        let e = position_from_state(&v, &state).expect_err(json);
        assert!(e.to_string().contains(fragment), "{e}");
    }
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1901R", "units": {"FRANCE": ["*F GAS"]}, "retreats": {"FRANCE": {"F GAS": ["SPA", "BRE"]}}}"#,
    )
    .expect("JSON");
    let p = position_from_state(&v, &state).expect("valid");
    let options: Vec<String> = p.dislodged[0]
        .retreats
        .iter()
        .map(|&l| v.map.location_abbreviation(l))
        .collect();
    assert_eq!(options, ["spa/nc", "bre"], "the one reachable coast is filled in");
}

#[test]
fn a_centre_that_does_not_count_for_a_power_gives_it_no_build() {
    // The Hong Kong rule of Colonial, tried on the standard map: Belgium counts for nobody French.
    let text = include_str!("../../../variants/standard/variant.toml").replace(
        "id = \"bel\"\nname = \"Belgium\"",
        "id = \"bel\"\nname = \"Belgium\"\nnot_centre_for = [\"france\"]",
    );
    let v = spielleiter_engine::map::load_variant("hk.toml", &text).expect("valid");
    let france = v.map.power_by_name("France").expect("france");
    let germany = v.map.power_by_name("Germany").expect("germany");
    // France (Paris and a unit in Picardy) takes Belgium: it owns two centres but counts one,
    // so it may not build.
    let p = position(
        &v,
        r#"{"phase": "F1901M", "units": {"FRANCE": ["A PIC"]}, "centers": {"FRANCE": ["PAR"]}}"#,
    );
    let french = play(&v, &p, &[("FRANCE", &["A Pic - Bel"])]);
    assert_eq!(
        french.next.owners[v.map.province_by_name("bel").expect("bel").index()],
        Some(france)
    );
    assert_eq!(
        french.next.centre_count(&v.map, france),
        1,
        "Belgium is owned but not counted"
    );
    assert_eq!(french.next.phase.to_string(), "S1902M", "no build for France");
    // Germany doing the same counts both and builds in Berlin.
    let p = position(
        &v,
        r#"{"phase": "F1901M", "units": {"GERMANY": ["A PIC"]}, "centers": {"GERMANY": ["BER"]}}"#,
    );
    let german = play(&v, &p, &[("GERMANY", &["A Pic - Bel"])]);
    assert_eq!(german.next.centre_count(&v.map, germany), 2);
    assert_eq!(german.next.phase.to_string(), "W1901A");
}

fn hegemony_1701() -> Variant {
    spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads")
}

fn colonial() -> Variant {
    spielleiter_engine::variant::builtin("colonial")
        .expect("built in")
        .expect("loads")
}

#[test]
fn a_canal_keeper_permits_one_passage_and_a_replaced_order_permits_none() {
    let v = colonial();
    let p = position(
        &v,
        r#"{"phase": "S1870M", "units": {"TURKEY": ["A EGY"], "RUSSIA": ["F MED"], "BRITAIN": ["F ADE"]}}"#,
    );
    // Two permissions from the same unit: only the last counts.
    let report = play(
        &v,
        &p,
        &[
            ("Turkey", &["A Egy H SC F Med - Red", "A Egy H SC F Red - Med"]),
            ("Russia", &["F Med - Red"]),
        ],
    );
    assert!(
        units_of(&v, &report.next).contains(&"RUSSIA F MED".to_string()),
        "the first permission was replaced"
    );
    // A permission given with an order that a later order replaces is gone with it.
    let report = play(
        &v,
        &p,
        &[
            ("Turkey", &["A Egy H SC F Med - Red", "A Egy H"]),
            ("Russia", &["F Med - Red"]),
        ],
    );
    assert!(units_of(&v, &report.next).contains(&"RUSSIA F MED".to_string()));
    let report = play(
        &v,
        &p,
        &[("Turkey", &["A Egy H SC F Med - Red"]), ("Russia", &["F Med - Red"])],
    );
    assert!(units_of(&v, &report.next).contains(&"RUSSIA F RED".to_string()));
}

#[test]
fn a_circle_next_to_a_blocked_railroad_still_moves() {
    let v = colonial();
    let p = position(
        &v,
        r#"{"phase": "S1870M", "units": {"RUSSIA": ["A MOS"], "BRITAIN": ["A PRM"], "CHINA": ["A OMS", "A AKM", "A ORE", "A KRA"]},
            "centers": {"RUSSIA": ["MOS", "OMS", "VLA"]}}"#,
    );
    // Once this recursed without end: the train, the circle and a support into the line.
    let report = play(
        &v,
        &p,
        &[
            ("Russia", &["A Mos-TSR-Vla"]),
            ("Britain", &["A Prm S A Ore - Oms"]),
            (
                "China",
                &["A Oms - Akm", "A Akm - Ore", "A Ore - Oms", "A Kra S A Ore - Oms"],
            ),
        ],
    );
    let m = report.movement.as_ref().expect("movement");
    let moved = m
        .results
        .iter()
        .filter(|r| r.outcome == spielleiter_engine::adjudicate::Outcome::Moved)
        .count();
    assert_eq!(moved, 3, "the Chinese circle moves: {:?}", m.results);
}

#[test]
fn orders_for_other_powers_and_for_impossible_phases_are_refused() {
    let v = standard();
    let p = Position::initial(&v);
    let report = play(
        &v,
        &p,
        &[(
            "France",
            &[
                "England: F Lon - Nth",
                "Germany:",
                "A Par - Bur",
                "Fall 1900:",
                "A Mar - Spa",
                "Winter 1901 retreats:",
                "A Mar - Spa",
            ],
        )],
    );
    // Orders for another power's units are told to their sender alone, never published.
    let private: Vec<_> = report
        .orders
        .sender_only
        .iter()
        .map(|(_, text, e)| (text.as_str(), e.kind.clone()))
        .collect();
    assert!(
        matches!(
            private[0],
            ("England: F Lon - Nth", OrderErrorKind::NotYourOrder { .. })
        ),
        "{private:?}"
    );
    assert!(
        matches!(private[1], ("Germany:", OrderErrorKind::NotYourOrder { .. })),
        "{private:?}"
    );
    let text = render(&v, &report, Lang::En);
    assert!(
        !text.contains("Lon - Nth") && !text.contains("cannot give orders"),
        "{text}"
    );
    let errors: Vec<_> = report
        .orders
        .lines
        .iter()
        .filter_map(|l| l.result.as_ref().err().map(|e| (l.text.as_str(), e.kind.clone())))
        .collect();
    assert!(matches!(errors[0], (_, OrderErrorKind::PhaseOver(_))), "{errors:?}");
    assert!(matches!(errors[1], (_, OrderErrorKind::NoSuchPhase(_))), "{errors:?}");
    assert!(report.orders.later.is_empty());
    // France's own order after the refused heading still counts.
    assert!(units_of(&v, &report.next).contains(&"FRANCE A BUR".to_string()));
}

#[test]
fn a_led_move_is_reported_with_its_leader_in_both_languages_and_the_leader_follows_in_the_state() {
    let v = hegemony_1701();
    let p = position(
        &v,
        r#"{"phase": "S1701M", "units": {"FRANCE": ["A PAR", "A GAS"], "AUSTRIA": ["A BUR"]},
            "leaders": {"FRANCE": {"NAPOLEON": "PAR"}}}"#,
    );
    let report = play(&v, &p, &[("France", &["LA Par - Bur", "A Gas S LA Par - Bur"])]);
    let en = render(&v, &report, Lang::En);
    assert!(en.contains("France: Army Paris (led) -> Burgundy."), "{en}");
    assert!(en.contains("SUPPORT Army Paris (led) -> Burgundy"), "{en}");
    assert!(en.contains("France: Napoleon (Paris) goes to Burgundy."), "{en}");
    let de = render(&v, &report, Lang::De);
    assert!(de.contains("Napoleon (Paris) zieht nach Burgund."), "{de}");
    let state = serde_json::to_value(state_from_position(&v, &report.next)).expect("JSON");
    assert_eq!(state["leaders"]["FRANCE"]["NAPOLEON"], "BUR", "{state}");
}

/// Napoleon alone in Picardy, an Austrian army next to him in Belgium.
fn napoleon_alone_in_picardy(v: &Variant) -> Position {
    position(
        v,
        r#"{"phase": "S1701M", "units": {"AUSTRIA": ["A BEL"], "FRANCE": ["A PAR"]},
            "leaders": {"FRANCE": {"NAPOLEON": "PIC"}}}"#,
    )
}

#[test]
fn a_displaced_leader_retreats_in_the_retreat_phase_and_is_reported_in_both_languages() {
    let v = hegemony_1701();
    let p = napoleon_alone_in_picardy(&v);
    let report = play(&v, &p, &[("Austria", &["A Bel - Pic"])]);
    let en = render(&v, &report, Lang::En);
    assert!(
        en.contains("France: Napoleon (Picardy) is displaced by a foreign unit and must retreat."),
        "{en}"
    );
    assert!(
        en.contains("Napoleon (France) in Picardy can retreat to Brest or Burgundy or Paris."),
        "{en}"
    );
    let de = render(&v, &report, Lang::De);
    assert!(
        de.contains("Napoleon (Frankreich) in Picardie kann sich zurückziehen nach"),
        "{de}"
    );
    let retreat = report.next.clone();
    assert_eq!(retreat.phase.to_string(), "S1701R");
    let france = v.map.power_by_name("France").expect("France");
    assert_eq!(
        powers_to_order(&v, &retreat),
        [france],
        "only France has a retreat to order"
    );
    let report = play(&v, &retreat, &[("France", &["L Pic R Par"])]);
    let en = render(&v, &report, Lang::En);
    assert!(en.contains("France: Napoleon (Picardy) retreats to Paris."), "{en}");
    let de = render(&v, &report, Lang::De);
    assert!(
        de.contains("Frankreich: Napoleon (Picardie) zieht sich nach Paris zurück."),
        "{de}"
    );
    let state = serde_json::to_value(state_from_position(&v, &report.next)).expect("JSON");
    assert_eq!(state["leaders"]["FRANCE"]["NAPOLEON"], "PAR", "{state}");
    assert_eq!(report.next.phase.to_string(), "F1701M");
}

#[test]
fn a_leader_retreat_sent_with_the_moves_skips_the_retreat_phase() {
    let v = hegemony_1701();
    let p = napoleon_alone_in_picardy(&v);
    let report = play(
        &v,
        &p,
        &[("Austria", &["A Bel - Pic"]), ("France", &["S1701R:", "L Pic R Bur"])],
    );
    assert_eq!(report.next.phase.to_string(), "F1701M", "nothing left to order");
    let en = render(&v, &report, Lang::En);
    assert!(
        en.contains("France: Napoleon (Picardy) retreats to Burgundy.  (ordered in advance)"),
        "{en}"
    );
    assert_eq!(report.next.rules.leaders().len(), 1);
}

#[test]
fn an_order_a_scenario_rule_gave_or_changed_is_marked_with_the_rule_in_both_languages() {
    let v = hegemony_1701();
    let p = position(
        &v,
        r#"{"phase": "S1701M", "options": {"special_rules": ["5.1.2"]},
            "units": {"NETHERLANDS": ["A NET"], "FRANCE": ["A BUR"], "ENGLAND": ["A PIC"]}}"#,
    );
    let report = play(
        &v,
        &p,
        &[("France", &["A Bur - Bel"]), ("England", &["A Pic S A Net - Bel"])],
    );
    let en = render(&v, &report, Lang::En);
    assert!(
        en.contains("Netherlands: Army Netherlands -> Belgium.  (*rule 5.1.2, bounce*)"),
        "{en}"
    );
    assert!(en.contains("England: Army Picardy HOLD.  (*rule 5.1.2*)"), "{en}");
    assert!(en.contains("France: Army Burgundy -> Belgium.  (*bounce*)"), "{en}");
    let de = render(&v, &report, Lang::De);
    assert!(de.contains("(*Regel 5.1.2, abgeprallt*)"), "{de}");
    let m = report.movement.as_ref().expect("a movement phase");
    let by_rule: Vec<_> = m.by_rule.iter().flatten().copied().collect();
    assert_eq!(by_rule, ["5.1.2", "5.1.2"]);
}

/// Hegemony 1701 with Russia a player (a later scenario's situation, research §5.10 case 68).
fn hegemony_with_russia_playing() -> Variant {
    let text = include_str!("../../../variants/hegemony/variant.toml");
    let players = r#"players = ["austria", "england", "france", "spain", "sweden", "turkey"]"#;
    assert!(text.contains(players), "the 1701 players line");
    let text = text.replace(
        players,
        r#"players = ["austria", "england", "france", "spain", "sweden", "turkey", "russia"]"#,
    );
    spielleiter_engine::map::load::load_scenario("variant.toml", &text, Some("1701")).expect("loads")
}

#[test]
fn russia_builds_a_fleet_in_azov_only_once_it_owns_azov() {
    let v = hegemony_with_russia_playing();
    let owning = position(
        &v,
        r#"{"phase": "W1701A", "units": {"RUSSIA": ["A STP"]},
            "centers": {"RUSSIA": ["STP", "MOS", "AZO"]}}"#,
    );
    let report = play(&v, &owning, &[("Russia", &["Build F Azo"])]);
    assert_eq!(
        units_of(&v, &report.next),
        ["RUSSIA A STP", "RUSSIA F AZO"],
        "Moscow stays empty"
    );
    let army = play(&v, &owning, &[("Russia", &["Build A Azo"])]);
    let error = army.orders.lines[0].result.as_ref().expect_err("an army in Azov");
    assert!(error.to_string().contains("only a fleet may be built here"), "{error}");
    let not_owning = position(
        &v,
        r#"{"phase": "W1701A", "units": {"RUSSIA": ["A STP"]},
            "centers": {"RUSSIA": ["STP", "MOS"], "TURKEY": ["AZO"]}}"#,
    );
    let report = play(&v, &not_owning, &[("Russia", &["Build F Azo"])]);
    let error = report.orders.lines[0].result.as_ref().expect_err("Azov is Turkish");
    assert!(error.to_string().contains("does not own it"), "{error}");
    assert_eq!(units_of(&v, &report.next), ["RUSSIA A STP"]);
}

#[test]
fn england_chooses_marlborough_in_the_first_winter_and_the_report_says_so_in_both_languages() {
    let v = hegemony_1701();
    let start = Position::initial(&v);
    let state = serde_json::to_value(state_from_position(&v, &start)).expect("JSON");
    assert_eq!(
        state["units"]["ENGLAND"],
        serde_json::json!(["F LON", "F EDI", "A NET", "F IRE"])
    );
    assert_eq!(
        state["centers"]["ENGLAND"],
        serde_json::json!(["EDI", "LON", "MAO", "NET"])
    );
    assert!(
        state.get("leaders").is_none_or(|l| l.get("ENGLAND").is_none()),
        "{state}"
    );
    // The state read back keeps the overseas centre and the open choice.
    let read = position(&v, &state.to_string());
    assert_eq!(read.rules.open_choices().len(), 1);
    let england = v.map.power_by_name("England").expect("England");
    assert!(
        powers_to_order(&v, &read).contains(&england),
        "England has a choice to make"
    );
    let report = play(&v, &read, &[("England", &["Choose L Net"])]);
    let en = render(&v, &report, Lang::En);
    assert!(en.contains("England: Chooses Marlborough (Netherlands)."), "{en}");
    let de = render(&v, &report, Lang::De);
    assert!(de.contains("England: wählt Marlborough (Niederlande)."), "{de}");
    let next = serde_json::to_value(state_from_position(&v, &report.next)).expect("JSON");
    assert_eq!(next["leaders"]["ENGLAND"]["MARLBOROUGH"], "NET", "{next}");
    assert_eq!(next["centers"]["ENGLAND"], serde_json::json!(["EDI", "LON", "NET"]));
    assert!(
        report.next.rules.open_choices().is_empty(),
        "the choice is closed after the first phase"
    );
    let unchosen = play(&v, &read, &[]);
    let de = render(&v, &unchosen, Lang::De);
    assert!(
        de.contains("England: keine Wahl getroffen; es bleiben: Flotte Irland und Überseezentrum Mittelatlantik."),
        "{de}"
    );
}

#[test]
fn a_choice_unit_is_an_army_unless_its_country_chooses_a_fleet_in_the_first_phase() {
    let text = include_str!("../../../variants/hegemony/variant.toml");
    let french = r#"units = ["A bel", "F bre", "A mar", "A par"]"#;
    assert!(text.contains(french), "France's 1689 units");
    let text = text.replacen(french, r#"units = ["A bel", "C bre", "A mar", "A par"]"#, 1);
    let v = spielleiter_engine::map::load::load_scenario("variant.toml", &text, Some("1689")).expect("loads");
    let start = Position::initial(&v);
    assert!(
        units_of(&v, &start).contains(&"FRANCE A BRE".to_string()),
        "an army by default (5.1.7.4)"
    );
    let chosen = play(&v, &start, &[("France", &["Choose F Bre"])]);
    assert!(units_of(&v, &chosen.next).contains(&"FRANCE F BRE".to_string()));
    let unchosen = play(&v, &start, &[]);
    assert!(units_of(&v, &unchosen.next).contains(&"FRANCE A BRE".to_string()));
    let ambiguous = play(&v, &start, &[("France", &["Choose Bre"])]);
    assert!(ambiguous.orders.lines[0].result.is_err(), "army or fleet must be said");
}

#[test]
fn an_order_for_the_dutch_army_itself_is_no_attack_that_starts_its_defence() {
    let v = hegemony_1701();
    let p = position(
        &v,
        r#"{"phase": "S1701M", "options": {"special_rules": ["5.1.2"]},
            "units": {"NETHERLANDS": ["A NET"], "ENGLAND": ["A PIC"]}}"#,
    );
    let report = play(
        &v,
        &p,
        &[("Netherlands", &["A Net - Bel"]), ("England", &["A Pic S A Net - Bel"])],
    );
    let m = report.movement.as_ref().expect("a movement phase");
    assert!(m.by_rule.iter().all(Option::is_none), "{:?}", m.by_rule);
    assert_eq!(units_of(&v, &report.next), ["ENGLAND A PIC", "NETHERLANDS A BEL"]);
}

#[test]
fn an_order_a_rule_replaced_is_published_as_carried_out_and_its_sender_alone_is_told() {
    let input: spielleiter_engine::interchange::AdjudicationInput = serde_json::from_str(
        r#"{"variant": "hegemony-1701", "phase": "S1701M", "options": {"special_rules": ["5.1.2"]},
            "units": {"NETHERLANDS": ["A NET"], "ENGLAND": ["A PIC"], "FRANCE": ["A BUR"]},
            "orders": {"ENGLAND": ["A Pic S A Net - Bel"], "FRANCE": ["A Bur - Bel"]}}"#,
    )
    .expect("input");
    let output = spielleiter_engine::adjudication::adjudicate_json(&input).expect("adjudicates");
    assert_eq!(output.accepted_orders["ENGLAND"], ["A PIC H"]);
    let told = &output.notices["ENGLAND"];
    assert_eq!(told[0].order, "A Pic S A Net - Bel");
    assert!(told[0].error.contains("rule 5.1.2"), "{}", told[0].error);
    assert!(!output.notices.contains_key("FRANCE"));
}

#[test]
fn a_choice_whose_first_set_is_gone_cannot_be_carried_out_and_the_report_says_so() {
    let v = hegemony_1701();
    let p = position(
        &v,
        r#"{"phase": "W1700A", "units": {"ENGLAND": ["F LON", "F EDI", "A NET"]},
            "centers": {"ENGLAND": ["EDI", "LON", "NET", "MAO"]}}"#,
    );
    let report = play(&v, &p, &[("England", &["Choose L Net"])]);
    let a = report.adjustments.as_ref().expect("adjustments");
    assert_eq!(
        a.outcomes,
        [spielleiter_engine::adjudicate::adjustment::AdjustmentOutcome::ChoiceBlocked]
    );
    assert!(report.next.rules.leaders().is_empty(), "Marlborough does not come");
    let en = render(&v, &report, Lang::En);
    assert!(
        en.contains("England: The chosen pieces cannot be placed; Fleet Ireland and the overseas centre Mid-Atlantic Ocean stay."),
        "{en}"
    );
}

#[test]
fn one_fleet_a_winter_may_be_built_outside_the_home_centres() {
    let text = include_str!("../../../variants/hegemony/variant.toml");
    let albania = "id = \"alb\"\nname = \"Albania\"";
    assert!(text.contains(albania), "Albania's table");
    let text = text.replacen(albania, &format!("{albania}\nfleet_build_for = [\"austria\"]"), 1);
    let v = spielleiter_engine::map::load::load_scenario("variant.toml", &text, Some("1701")).expect("loads");
    let p = position(
        &v,
        r#"{"phase": "W1701A", "units": {"AUSTRIA": ["A BUD", "A SIL", "A TRA"]},
            "centers": {"AUSTRIA": ["BUD", "SIL", "TRA", "VIE", "VEN"]}}"#,
    );
    let report = play(&v, &p, &[("Austria", &["Build F Dal", "Build F Alb"])]);
    use spielleiter_engine::adjudicate::adjustment::AdjustmentOutcome as O;
    let a = report.adjustments.as_ref().expect("adjustments");
    assert_eq!(a.outcomes, [O::Built, O::SecondSiteBuild]);
}

#[test]
fn political_factors_stay_secret_their_sender_learns_the_outcome_and_the_state_carries_them() {
    let input: spielleiter_engine::interchange::AdjudicationInput = serde_json::from_str(
        r#"{"variant": "hegemony-1689", "phase": "W1688A",
            "units": {"FRANCE": ["A PAR"], "BAVARIA": ["A BAV"]},
            "centers": {"FRANCE": ["PAR"], "SPAIN": ["MAD"], "BAVARIA": ["BAV"]},
            "political_factors": {"FRANCE": 7, "SPAIN": 2},
            "orders": {"FRANCE": ["PF 3 Bavaria"], "SPAIN": ["PF 3 Bayern"]}}"#,
    )
    .expect("input");
    let output = spielleiter_engine::adjudication::adjudicate_json(&input).expect("adjudicates");
    assert!(output.accepted_orders.is_empty(), "{:?}", output.accepted_orders);
    assert!(
        output.results.keys().all(|k| !k.is_empty() && !k.contains("PF")),
        "{:?}",
        output.results
    );
    assert_eq!(output.notices["FRANCE"][0].error, "political factors allocated");
    assert!(
        output.notices["SPAIN"][0]
            .error
            .contains("more political factors than are in stock")
    );
    let next = serde_json::to_value(&output.next).expect("JSON");
    assert_eq!(next["political_factors"], serde_json::json!({"FRANCE": 4, "SPAIN": 2}));
    assert_eq!(next["influence"], serde_json::json!({"BAVARIA": {"FRANCE": 3}}));
    assert_eq!(next["control"], serde_json::json!({"BAVARIA": ["FRANCE"]}));
    let public = serde_json::to_value(output.next.clone().without_secrets()).expect("JSON");
    for secret in ["political_factors", "influence", "control"] {
        assert!(public.get(secret).is_none(), "{secret}: {public}");
    }
    // The state reads back, and a bad one is refused with its reason.
    let v = spielleiter_engine::variant::builtin("hegemony-1689")
        .expect("built in")
        .expect("loads");
    let back = spielleiter_engine::interchange::position_from_state(&v, &output.next).expect("reads back");
    let bavaria = v.map.country_by_key("bavaria").expect("Bavaria");
    assert_eq!(back.rules.politics().controllers(bavaria).len(), 1);
    let mut bad = output.next.clone();
    bad.influence
        .insert("POLAND".into(), [("FRANCE".to_string(), 1)].into());
    let e = spielleiter_engine::interchange::position_from_state(&v, &bad).expect_err("Poland has no threshold");
    assert!(e.to_string().contains("no influence of France in Poland"), "{e}");
}

#[test]
fn colonial_is_played_with_the_seeds_two_year_turns_or_the_original_calendar_as_the_state_says() {
    use spielleiter_engine::adjudication::adjudicate_with;
    use spielleiter_engine::interchange::AdjudicationInput;
    let colonial = spielleiter_engine::variant::builtin("colonial")
        .expect("built in")
        .expect("loads");
    let start = state_from_position(&colonial, &Position::initial(&colonial));
    let adjudicate = |state: GameState| {
        let input = AdjudicationInput {
            state,
            ..AdjudicationInput::default()
        };
        adjudicate_with(&colonial, &input).expect("adjudicated")
    };
    // The seed's calendar: one turn every two years, named "Turn" (not spring).
    let (seed, report) = adjudicate(start.clone());
    assert_eq!(seed.next.phase, "S1872M");
    assert_eq!(seed.next.options.calendar, None);
    let text = render(&colonial, &report, Lang::En);
    assert!(text.starts_with("Movement results for Turn of 1870."), "{text}");
    assert!(render(&colonial, &report, Lang::De).starts_with("Ergebnisse der Bewegungen im Zug 1870."));
    // The original calendar: spring and fall every year; the option travels with the state.
    let mut original = start.clone();
    original.options.calendar = Some("original".into());
    let (spring, report) = adjudicate(original);
    assert_eq!(spring.next.phase, "F1870M");
    assert_eq!(spring.next.options.calendar.as_deref(), Some("original"));
    let played = colonial.with_calendar("original").expect("the original calendar");
    assert!(render(&played, &report, Lang::En).starts_with("Movement results for Spring of 1870."));
    let (fall, _) = adjudicate(spring.next.clone());
    assert_eq!(fall.next.phase, "S1871M", "no centre changed: no winter");
    // A calendar the variant does not have is refused.
    let mut unknown = start;
    unknown.options.calendar = Some("julian".into());
    let input = AdjudicationInput {
        state: unknown,
        ..AdjudicationInput::default()
    };
    let refused = adjudicate_with(&colonial, &input).expect_err("refused");
    assert!(refused.to_string().contains("only original"), "{refused}");
}

/// The reports in English and German keep to their language: a phase of every kind (bounces,
/// cut and void supports, dislodgements, retreats, builds, a waive, a removal) rendered in both,
/// and no word of the one report vocabulary in the other's text.
#[test]
fn a_year_of_reports_keeps_to_each_language() {
    let v = standard();
    let fall = position(
        &v,
        r#"{"phase": "F1901M", "units": {
            "FRANCE": ["A BUR", "A PIC", "F MAO"],
            "GERMANY": ["A BEL", "A RUH", "A MUN", "A SIL", "A PRU"],
            "ENGLAND": ["F ENG", "F NTH"]},
          "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN", "BEL"],
            "ENGLAND": ["LON", "EDI", "LVP"]}}"#,
    );
    let moves = play(
        &v,
        &fall,
        &[
            ("France", &["A Pic - Bel", "A Bur S A Pic - Bel", "F Mao - Bre"]),
            (
                "Germany",
                &[
                    "A Ruh - Bur",
                    "A Bel H",
                    "A Mun S A Ruh - Bur",
                    "A Sil S A Pru - War",
                    "A Pru - Sil",
                ],
            ),
            ("England", &["F Eng S A Pic - Bel", "F Nth C A Lon - Bel"]),
        ],
    );
    let retreats = play(
        &v,
        &moves.next,
        &[("France", &["A Bur R Pic"]), ("Germany", &["A Bel R Ruh"])],
    );
    let winter = play(
        &v,
        &retreats.next,
        &[
            ("France", &["Build A Par"]),
            ("Germany", &["Remove A Pru"]),
            ("England", &["Waive"]),
        ],
    );
    for (name, report) in [("moves", &moves), ("retreats", &retreats), ("winter", &winter)] {
        let (en, de) = (render(&v, report, Lang::En), render(&v, report, Lang::De));
        assert_eq!(words_in(&de, Lang::En), [] as [&str; 0], "{name}, German:\n{de}");
        assert_eq!(words_in(&en, Lang::De), [] as [&str; 0], "{name}, English:\n{en}");
        // Each report speaks its own language at all.
        assert!(words_in(&en, Lang::En).len() >= 3, "{name}, English:\n{en}");
        assert!(words_in(&de, Lang::De).len() >= 3, "{name}, German:\n{de}");
    }
    let de = render(&v, &moves, Lang::De);
    for word in ["abgeprallt", "verdrängt", "abgeschnitten"] {
        assert!(de.contains(word), "{word}:\n{de}");
    }
}
