//! `spielleiter start`, `adjudicate`, `play` and `bench`, started as a user would start them; and a
//! whole game from 1901 to a solo victory played through `adjudicate` calls only.

mod support;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use spielleiter_engine::{Map, ProvinceId, UnitType};
use support::{distances, run};

fn start() -> Value {
    let out = run(&["start"], "");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).expect("opening state is JSON")
}

fn adjudicate(state: &Value, orders: Value) -> Value {
    let mut input = state.clone();
    input["orders"] = orders;
    let out = run(&["adjudicate"], &input.to_string());
    assert!(
        out.status.success(),
        "adjudicate failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("output is JSON")
}

#[test]
fn adjudicate_answers_results_reasons_and_the_next_state() {
    let state = start();
    assert_eq!(state["phase"], "S1901M");
    let out = adjudicate(
        &state,
        json!({"FRANCE": ["A Par - Bur", "A Mar - Bur", "F Bre - Mao", "A Paris - Moscow"], "GERMANY": ["A Mun - Bur"]}),
    );
    assert_eq!(out["adjudicated_phase"], "S1901M");
    assert_eq!(out["phase"], "F1901M");
    assert_eq!(out["results"]["A PAR"], json!(["bounce"]));
    assert_eq!(out["results"]["F BRE"], json!([]));
    assert!(
        out["reasons"]["A MUN"]
            .as_str()
            .is_some_and(|r| r.starts_with("bounced"))
    );
    assert_eq!(
        out["accepted_orders"]["FRANCE"],
        json!(["A PAR - BUR", "A MAR - BUR", "F BRE - MAO"])
    );
    assert_eq!(out["rejected_orders"]["FRANCE"][0]["order"], "A Paris - Moscow");
    assert!(
        out["units"]["FRANCE"]
            .as_array()
            .is_some_and(|u| u.contains(&json!("F MAO")))
    );
    assert_eq!(out["winner"], Value::Null);
}

#[test]
fn legal_lists_every_order_a_power_may_send_and_each_is_accepted() {
    let state = start();
    let out = run(&["legal", "--power", "France", "--json"], &state.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let france = listed["FRANCE"].as_object().expect("France's locations");
    assert_eq!(france.keys().collect::<Vec<_>>(), ["BRE", "MAR", "PAR"]);
    let paris: Vec<&str> = france["PAR"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for order in [
        "A PAR H",
        "A PAR - BUR",
        "A PAR - PIC",
        "A PAR S A MAR - BUR",
        "A PAR S F BRE",
    ] {
        assert!(paris.contains(&order), "{order}: {paris:?}");
    }
    assert!(!paris.contains(&"A PAR - MUN"), "{paris:?}");
    // Every listed order is carried out when sent: none is refused.
    let all: Vec<&str> = france
        .values()
        .flat_map(|v| v.as_array().unwrap())
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(all.len(), 30, "{all:?}");
    for order in all {
        let result = adjudicate(&state, json!({ "FRANCE": [order] }));
        let rejected = result.get("rejected_orders");
        assert!(rejected.is_none_or(|r| r == &json!({})), "{order}: {rejected:?}");
    }
    // The text listing names the power and each location; a bad power is refused.
    let text = run(&["legal"], &state.to_string());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("TURKEY\n") && text.contains("  SMY: A SMY H | "),
        "{text}"
    );
    let bad = run(&["legal", "--power", "Atlantis"], &state.to_string());
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown power `Atlantis`"));
}

#[test]
fn a_dislodged_unit_shows_its_retreats_and_the_retreat_phase_follows() {
    let state = json!({"phase": "S1901M", "units": {"FRANCE": ["F BRE"], "ENGLAND": ["F ENG", "F MAO"], "GERMANY": ["A PIC"]},
                       "centers": {"FRANCE": ["BRE"]}});
    let out = adjudicate(&state, json!({"ENGLAND": ["F Eng - Bre", "F Mao S F Eng - Bre"]}));
    assert_eq!(out["phase"], "S1901R");
    assert_eq!(out["results"]["F BRE"], json!(["dislodged"]));
    assert_eq!(out["retreats"]["FRANCE"]["F BRE"], json!(["GAS"]));
    assert!(
        out["units"]["FRANCE"]
            .as_array()
            .is_some_and(|u| u.contains(&json!("*F BRE")))
    );
    let next = adjudicate(&out, json!({"FRANCE": ["F BRE R GAS"]}));
    assert_eq!(next["phase"], "F1901M");
    assert_eq!(next["units"]["FRANCE"], json!(["F GAS"]));
}

#[test]
fn orders_for_several_phases_in_one_message_are_used_when_their_phase_comes() {
    let state = start();
    let out = adjudicate(
        &state,
        json!({"FRANCE": [
            "A Par - Bur", "F Bre - Mao",
            "Fall 1901:", "A Bur - Bel", "F Mao - Por",
            "Winter 1901:", "Build A Par", "Build F Bre"
        ]}),
    );
    assert_eq!(out["phase"], "F1901M");
    assert_eq!(
        out["pending_orders"]["FRANCE"],
        json!([
            "F1901M: A Bur - Bel",
            "F1901M: F Mao - Por",
            "W1901A: Build A Par",
            "W1901A: Build F Bre"
        ])
    );
    // The fall: nothing new is sent, the orders given in spring are carried out.
    let fall = adjudicate(&out, json!({}));
    assert_eq!(fall["accepted_orders"]["FRANCE"], json!(["A BUR - BEL", "F MAO - POR"]));
    assert_eq!(fall["phase"], "W1901A");
    assert_eq!(
        fall["pending_orders"]["FRANCE"],
        json!(["W1901A: Build A Par", "W1901A: Build F Bre"])
    );
    let winter = adjudicate(&fall, json!({}));
    assert_eq!(winter["accepted_orders"]["FRANCE"], json!(["A PAR B", "F BRE B"]));
    assert_eq!(winter["phase"], "S1902M");
    assert!(winter.get("pending_orders").is_none());
}

#[test]
fn retreat_orders_sent_with_the_moves_skip_the_retreat_phase() {
    let state = json!({"phase": "S1901M", "units": {"FRANCE": ["F BRE"], "ENGLAND": ["F ENG", "F MAO"], "GERMANY": ["A PIC"]},
                       "centers": {"FRANCE": ["BRE"]}});
    let out = adjudicate(
        &state,
        json!({"ENGLAND": ["F Eng - Bre", "F Mao S F Eng - Bre"], "FRANCE": ["F Bre H", "Spring 1901 retreats:", "F Bre - Gas"]}),
    );
    assert_eq!(out["phase"], "F1901M", "the retreat phase is skipped");
    assert_eq!(out["units"]["FRANCE"], json!(["F GAS"]));
}

#[test]
fn bad_input_gets_a_clear_error_and_a_non_zero_exit() {
    for (input, message) in [
        ("{not json", "malformed input"),
        (r#"{"phase": "X1901M"}"#, "is not a phase"),
        (
            r#"{"phase": "S1901M", "units": {"NARNIA": ["A PAR"]}}"#,
            "unknown power `NARNIA`",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}"#,
            "unknown location",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}"#,
            "two units",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}}"#,
            "a fleet cannot stand in `PAR`",
        ),
        (r#"{"variant": "nowhere", "phase": "S1901M"}"#, "unknown variant"),
        (r#"{"phase": "COMPLETED"}"#, "the game is over"),
        (
            r#"{"phase": "S1901M", "orders": {"NARNIA": ["A PAR H"]}}"#,
            "unknown power",
        ),
    ] {
        let out = run(&["adjudicate"], input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{input}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_draw_includes_every_survivor_and_a_concession_names_the_winner() {
    let state = json!({"phase": "S1905M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
                       "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ITALY": ["ROM"]}});
    let mut input = state.clone();
    input["draw"] = json!(true);
    let out = run(&["adjudicate"], &input.to_string());
    assert!(out.status.success());
    let out: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(out["phase"], "COMPLETED");
    assert_eq!(
        out["result"],
        json!({"kind": "draw", "powers": ["FRANCE", "GERMANY", "ITALY"]})
    );
    let mut input = state.clone();
    input["concede_to"] = json!("GERMANY");
    let out: Value = serde_json::from_slice(&run(&["adjudicate"], &input.to_string()).stdout).expect("JSON");
    assert_eq!(out["result"], json!({"kind": "concession", "powers": ["GERMANY"]}));
    let mut input = state;
    input["concede_to"] = json!("RUSSIA");
    let out = run(&["adjudicate"], &input.to_string());
    assert_eq!(out.status.code(), Some(2), "Russia is out of the game");
}

#[test]
fn jsonl_adjudicates_one_state_per_line() {
    let state = start();
    let mut good = state.clone();
    good["orders"] = json!({"FRANCE": ["A Par - Bur"]});
    let input = format!("{}\n{{broken\n{}\n", good, good);
    let out = run(&["adjudicate", "--jsonl"], &input);
    assert_eq!(out.status.code(), Some(2), "one line failed");
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["phase"], "F1901M");
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().is_some());
    assert_eq!(lines[2]["phase"], "F1901M");
}

#[test]
fn play_prints_the_classic_report_in_german() {
    // Austria, England, France each answer in turn; the other powers get no orders (input ends).
    let script = "A Vie - Gal\nA Bud - Ser\n\n\nA Par - Bur\nF Bre - Mao\n\n";
    let out = run(&["play", "--lang", "de", "--phases", "1"], script);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Ergebnisse der Bewegungen im Frühjahr 1901."), "{text}");
    assert!(text.contains("Österreich: Armee Wien -> Galizien."), "{text}");
    assert!(text.contains("Frankreich: Flotte Brest -> Mittelatlantik."), "{text}");
    assert!(text.contains("Russland: Armee Warschau, kein Befehl."), "{text}");
    assert!(text.contains("Die nächste Phase: Bewegungen im Herbst 1901."), "{text}");
}

/// A simple attacker: every unit goes for the nearest centre Russia does not own, attacking with
/// support where the centre is held; Russia builds armies wherever it can.
fn russian_orders(map: &Map, state: &Value) -> Vec<String> {
    let phase = state["phase"].as_str().expect("phase");
    let owned: BTreeSet<String> = state["centers"]["RUSSIA"]
        .as_array()
        .map(|c| c.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let mut occupant: BTreeMap<ProvinceId, (String, UnitType, String)> = BTreeMap::new();
    for (power, units) in state["units"].as_object().expect("units") {
        for u in units.as_array().expect("list") {
            let text = u.as_str().expect("unit");
            if text.starts_with('*') {
                continue;
            }
            let (kind, place) = text.split_once(' ').expect("unit text");
            let loc = map.location_by_abbreviation(place).expect("location");
            let kind = if kind == "A" { UnitType::Army } else { UnitType::Fleet };
            occupant.insert(map.province_of(loc), (power.clone(), kind, place.to_string()));
        }
    }
    if phase.ends_with('A') {
        let count = state["builds"]["RUSSIA"]["count"].as_i64().unwrap_or(0);
        let homes = state["builds"]["RUSSIA"]["homes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        return homes
            .iter()
            .take(count.max(0) as usize)
            .filter_map(|h| h.as_str())
            .map(|h| format!("Build A {h}"))
            .collect();
    }
    if !phase.ends_with('M') {
        return Vec::new();
    }
    let goals: BTreeSet<ProvinceId> = map
        .centres()
        .filter(|c| !owned.contains(&map.province(*c).abbreviation.to_uppercase()))
        .collect();
    let mine: Vec<(ProvinceId, UnitType, String)> = occupant
        .iter()
        .filter(|(_, (p, _, _))| p == "RUSSIA")
        .map(|(prov, (_, k, place))| (*prov, *k, place.clone()))
        .collect();
    let mut orders = Vec::new();
    let mut busy: BTreeSet<ProvinceId> = BTreeSet::new();
    let mut claimed: BTreeSet<ProvinceId> = BTreeSet::new();
    let reach = |kind: UnitType, place: &str, target: ProvinceId| {
        let loc = map.location_by_abbreviation(place).expect("location");
        map.can_reach_province(kind, loc, target)
    };
    // Attacks on adjacent centres, supported where the centre is held by a foreign unit.
    for &target in &goals {
        let Some(attacker) = mine
            .iter()
            .find(|(p, k, place)| !busy.contains(p) && reach(*k, place, target))
        else {
            continue;
        };
        let held = occupant.get(&target).is_some_and(|(p, _, _)| p != "RUSSIA");
        if occupant.get(&target).is_some_and(|(p, _, _)| p == "RUSSIA") {
            continue;
        }
        let supporter = mine
            .iter()
            .find(|(p, k, place)| *p != attacker.0 && !busy.contains(p) && reach(*k, place, target));
        if held && supporter.is_none() {
            continue;
        }
        let target_name = map.province(target).abbreviation.to_uppercase();
        let kind = if attacker.1 == UnitType::Army { "A" } else { "F" };
        let target_loc = if attacker.1 == UnitType::Fleet && map.province(target).has_split_coast() {
            let from = map.location_by_abbreviation(&attacker.2).expect("location");
            map.fleet_targets_in(from, target)
                .next()
                .map(|l| map.location_abbreviation(l).to_uppercase())
                .unwrap_or(target_name.clone())
        } else {
            target_name.clone()
        };
        orders.push(format!("{kind} {} - {target_loc}", attacker.2));
        busy.insert(attacker.0);
        claimed.insert(target);
        if let Some(s) = supporter.filter(|_| held) {
            let skind = if s.1 == UnitType::Army { "A" } else { "F" };
            orders.push(format!("{skind} {} S {kind} {} - {target_name}", s.2, attacker.2));
            busy.insert(s.0);
        }
    }
    // Everyone else walks towards the nearest centre still to take.
    for (prov, kind, place) in &mine {
        if busy.contains(prov) {
            continue;
        }
        let d = distances(map, *kind, &goals, &|_| true);
        let loc = map.location_by_abbreviation(place).expect("location");
        let best = map
            .neighbours(*kind, loc)
            .iter()
            .copied()
            .filter(|&n| {
                let q = map.province_of(n);
                !claimed.contains(&q) && !occupant.contains_key(&q) && d[q.index()] < d[prov.index()]
            })
            .min_by_key(|&n| d[map.province_of(n).index()]);
        if let Some(n) = best {
            claimed.insert(map.province_of(n));
            let k = if *kind == UnitType::Army { "A" } else { "F" };
            orders.push(format!("{k} {place} - {}", map.location_abbreviation(n).to_uppercase()));
        }
    }
    orders
}

#[test]
fn a_whole_game_from_1901_to_a_solo_victory_through_adjudicate_calls() {
    let variant = spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads");
    let map = &variant.map;
    let mut state = start();
    let mut corpus = String::new();
    let mut phases = Vec::new();
    for _ in 0..200 {
        let orders = russian_orders(map, &state);
        let out = adjudicate(&state, json!({ "RUSSIA": orders }));
        assert!(
            out.get("rejected_orders").is_none(),
            "the bot wrote an order the judge rejected: {}",
            out["rejected_orders"]
        );
        phases.push(out["adjudicated_phase"].as_str().unwrap_or_default().to_string());
        let mut before = state.clone();
        before.as_object_mut().map(|o| o.remove("orders"));
        corpus
            .push_str(&json!({"before": before, "accepted_orders": out["accepted_orders"], "after": out}).to_string());
        corpus.push('\n');
        if !out["winner"].is_null() {
            assert_eq!(out["winner"], "RUSSIA");
            assert_eq!(out["result"], json!({"kind": "victory", "powers": ["RUSSIA"]}));
            assert_eq!(out["phase"], "COMPLETED");
            let centres = out["centers"]["RUSSIA"].as_array().map_or(0, Vec::len);
            assert!(centres >= 18, "{centres} centres");
            // The recorded game is a corpus for the benchmark, which must agree with itself.
            let dir = std::env::temp_dir().join(format!("spielleiter-game-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let file = dir.join("game.jsonl");
            std::fs::write(&file, &corpus).expect("write corpus");
            let bench = run(
                &[
                    "bench",
                    "--corpus",
                    file.to_str().expect("utf-8"),
                    "--json",
                    "--rounds",
                    "1",
                ],
                "",
            );
            assert!(bench.status.success(), "{}", String::from_utf8_lossy(&bench.stderr));
            let figures: Value = serde_json::from_slice(&bench.stdout).expect("bench JSON");
            assert_eq!(figures["agree_with_after"], json!(phases.len()), "{figures}");
            assert!(figures["phases_per_second"].as_f64().is_some_and(|f| f > 0.0));
            std::fs::remove_dir_all(&dir).ok();
            // Phases followed the calendar: spring and fall moves, winters only when needed.
            assert_eq!(phases[0], "S1901M");
            assert!(phases.iter().any(|p| p.starts_with('W')));
            return;
        }
        state = out;
    }
    panic!("no solo victory after 200 phases: {:?}", phases.last());
}

#[test]
fn the_ancient_mediterranean_plays_through_adjudicate_and_play() {
    let out = run(&["start", "--variant", "ancmed"], "");
    let mut state: Value = serde_json::from_slice(&out.stdout).expect("opening state");
    assert_eq!(state["phase"], "S1M");
    assert_eq!(state["variant"], "ancmed");
    state["orders"] = json!({"ROME": ["A Rav - Ven"], "CARTHAGE": ["A Cir - Numidia"], "EGYPT": ["F Ale - Sin"]});
    let out = run(&["adjudicate"], &state.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let next: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(next["phase"], "F1M");
    assert_eq!(next["accepted_orders"]["EGYPT"], json!(["F ALE - SIN"]));
    let play = run(&["play", "--variant", "ancmed", "--phases", "1"], "A Rav - Ven\n\n");
    let text = String::from_utf8_lossy(&play.stdout);
    assert!(text.contains("Rome: Army Ravenna -> Venetia."), "{text}");
}

#[test]
fn colonial_plays_with_its_railroad_canal_and_two_year_turns() {
    let out = run(&["start", "--variant", "colonial"], "");
    let mut state: Value = serde_json::from_slice(&out.stdout).expect("opening state");
    assert_eq!(state["phase"], "S1870M");
    // The Russian army in Moscow rides the railroad past Perm and the Russian army in Omsk to
    // Krasnoyarsk in one move.
    state["orders"] = json!({"RUSSIA": ["A Mos-TSR-Kra"]});
    let out = run(&["adjudicate"], &state.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let next: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(next["accepted_orders"]["RUSSIA"], json!(["A MOS - TSR - KRA"]));
    assert!(
        next["units"]["RUSSIA"]
            .as_array()
            .is_some_and(|u| u.contains(&json!("A KRA"))),
        "{}",
        next["units"]
    );
    assert_eq!(next["phase"], "S1872M", "one movement turn every two years");
    let play = run(&["play", "--variant", "colonial", "--phases", "1"], "");
    assert!(String::from_utf8_lossy(&play.stdout).contains("Movement results for Turn of 1870."));
}

#[test]
fn an_incomplete_hegemony_scenario_is_listed_as_such_cannot_be_started_but_adjudicates_a_given_position() {
    let out = run(&["variants"], "");
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.lines().any(|l| l == "hegemony-1701"), "{list}");
    assert!(
        list.lines()
            .any(|l| l.starts_with("hegemony-1741  (incomplete: the rules give only its neutral countries")),
        "{list}"
    );
    let out = run(&["start", "--variant", "hegemony-1741"], "");
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(
        error.contains("no game can be started on `hegemony-1741` yet"),
        "{error}"
    );
    let play = run(&["play", "--variant", "hegemony-1805", "--phases", "1"], "");
    assert!(!play.status.success());
    // The Russian defence is on in 1741: the two Russian armies support each other.
    let state = json!({"variant": "hegemony-1741", "phase": "S1741M",
        "units": {"RUSSIA": ["A STP", "A MOS"], "PRUSSIA": ["A UKR", "A WAR"]},
        "centers": {"RUSSIA": ["STP", "MOS"]}, "options": {"special_rules": ["5.1.6"]},
        "orders": {"PRUSSIA": ["A UKR - MOS", "A WAR S A UKR - MOS"]}});
    let next = adjudicate(&state, state["orders"].clone());
    assert_eq!(next["results"]["A UKR"], json!(["bounce"]), "{next}");
    assert_eq!(
        next["reasons"]["A STP"], "support given (order given by rule 5.1.6)",
        "{next}"
    );
}

#[test]
fn output_piped_into_a_reader_that_stops_early_ends_quietly() {
    use std::io::Read as _;
    let state = run(&["start", "--variant", "hegemony-1701"], "");
    // A picture is far larger than a pipe's buffer, so writing it meets the closed pipe.
    let mut child = support::spawn(&["render"], &state.stdout);
    let mut first = [0u8; 1];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("a first byte");
    // The pipe's reader is gone now, as with `spielleiter render | head -c 1`.
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{stderr}");
}

#[test]
fn play_shows_the_board_reads_each_line_at_once_and_tells_what_is_missing() {
    // Austria: a misspelt line (refused, not kept, typed again), then the line right; England
    // sends nothing; France one order; input ends.
    let script = "A Vie - Galicai\nA Vie - Gal\n\n\nA Par - Bur\n\n";
    let out = run(&["play", "--phases", "1"], script);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("The board, Spring of 1901:"), "{text}");
    assert!(
        text.contains("Austria: 3 supply centres; Army Budapest, Army Vienna, Fleet Trieste."),
        "{text}"
    );
    assert!(
        text.contains("  ! unknown province `Galicai` (did you mean Galicia?)\n  (not kept; type it again)"),
        "{text}"
    );
    assert!(text.contains("  = A VIE - GAL\n"), "{text}");
    assert!(text.contains("  Note: Army Budapest has no order: it holds."), "{text}");
    assert!(!text.contains("  Note: Army Vienna has no order"), "{text}");
    assert!(
        text.contains("Austria: Army Vienna -> Galicia."),
        "the line typed again is carried out: {text}"
    );
    // In German, the board and the notes too.
    let out = run(&["play", "--lang", "de", "--phases", "1"], "A Vie - Gal\n\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Das Brett, im Frühjahr 1901:"), "{text}");
    assert!(
        text.contains("  Hinweis: Armee Budapest hat keinen Befehl: sie hält."),
        "{text}"
    );
}
