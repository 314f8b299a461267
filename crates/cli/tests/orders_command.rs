//! The `spielleiter` binary, started as a user would start it.

mod support;

use std::process::Output;

use support::run;

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("`{l}` is not JSON: {e}")))
        .collect()
}

#[test]
fn orders_are_echoed_in_canonical_form() {
    let out = run(
        &["orders", "--variant", "standard"],
        "France: A Marseilles – Spain\nF Gulf of Lyon – SpainSouthern\nA Sil S Russian A War - Pru\n",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("=> France: A MAR - SPA"), "{text}");
    assert!(text.contains("=> F LYO - SPA/SC"), "{text}");
    assert!(text.contains("=> A SIL S A WAR - PRU"), "{text}");
}

#[test]
fn json_output_has_order_or_error_position_and_suggestion() {
    let out = run(&["orders", "--json"], "A PAR - BUR\nA Munic - Tyr\n");
    assert!(
        out.status.success(),
        "rejected orders are reported, not a failure of the command"
    );
    let strict = run(&["orders", "--json", "--strict"], "A PAR - BUR\nA Munic - Tyr\n");
    assert_eq!(
        strict.status.code(),
        Some(1),
        "with --strict a rejected order makes the exit code 1"
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["input"], "A PAR - BUR");
    assert_eq!(lines[0]["order"], "A PAR - BUR");
    assert_eq!(lines[1]["input"], "A Munic - Tyr");
    assert_eq!(lines[1]["position"], 2);
    assert_eq!(lines[1]["suggestion"], "Munich");
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("unknown province"))
    );
}

#[test]
fn a_state_file_checks_units_and_owners() {
    let dir = std::env::temp_dir().join(format!("spielleiter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let state = dir.join("state.json");
    std::fs::write(
        &state,
        r#"{"phase": "F1901M", "units": {"FRANCE": ["A PAR", "F SPA/NC"], "GERMANY": ["A MUN"]}, "centers": {}}"#,
    )
    .expect("write state");
    let out = run(
        &["orders", "--json", "--state", state.to_str().expect("utf-8 path")],
        "France:\nF Spa - Gas\nA Mun - Bur\nA Bur - Par\n",
    );
    let lines = json_lines(&out);
    assert_eq!(lines[0]["order"], "F SPA/NC - GAS");
    assert_eq!(lines[0]["power"], "FRANCE");
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("belongs to Germany")),
        "{:?}",
        lines[1]
    );
    assert!(
        lines[2]["error"].as_str().is_some_and(|e| e.contains("no unit")),
        "{:?}",
        lines[2]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_phase_decides_which_orders_are_taken() {
    let out = run(&["orders", "--json", "--phase", "W1901A"], "Build A Par\nA Par - Bur\n");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["order"], "A PAR B");
    assert_eq!(lines[0]["power"], "FRANCE");
    assert!(lines[1]["error"].as_str().is_some_and(|e| e.contains("adjustment")));
}

#[test]
fn bad_arguments_and_inputs_fail_cleanly() {
    let out = run(&["orders", "--variant", "nowhere"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant `nowhere`"));
    let out = run(&["orders", "--phase", "X1901"], "");
    assert!(!out.status.success());
    let out = run(&["orders", "--state", "/nonexistent/state.json"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["orders", "--strict"], "\u{0}\u{1}garbage ### \n");
    assert_eq!(out.status.code(), Some(1), "garbage is a rejected order, not a crash");
}

#[test]
fn check_variant_reports_file_and_line() {
    let dir = std::env::temp_dir().join(format!("spielleiter-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("broken.toml");
    std::fs::write(
        &file,
        "[variant]\nname = \"b\"\ntitle = \"B\"\nstart = \"S1901M\"\nvictory_centres = 1\n\n[[province]]\nid = \"aaa\"\nname = \"A\"\nterrain = \"land\"\ncentre = true\narmy = [\"bbb\"]\n",
    )
    .expect("write");
    let out = run(&["check-variant", file.to_str().expect("utf-8")], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("broken.toml:12: unknown province `bbb`"), "{text}");
    let out = run(&["check-variant", "../../variants/standard/variant.toml"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_can_be_explained_in_german() {
    let out = run(&["orders", "--lang", "de"], "A Munic - Tyr\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Fehler: unbekannte Provinz `Munic` (gemeint: München?)"),
        "{text}"
    );
}

#[test]
fn conditional_orders_are_decided_on_the_results_in_the_state() {
    let dir = std::env::temp_dir().join(format!("spielleiter-conditional-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let state = dir.join("state.json");
    let results = r#"{"phase":"F1901M","units":{"FRANCE":["F BRE","A BUR"]},"centers":{"FRANCE":["BRE","PAR","MAR"]},
        "last_results":[{"phase":"S1901M","succeeded":{"FRANCE":["A PAR - BUR"]},"failed":{"FRANCE":["F BRE - ENG"]}}]}"#;
    std::fs::write(&state, results).expect("state written");
    let path = state.to_str().expect("UTF-8");
    let out = run(
        &["orders", "--state", path, "--json"],
        "France: IF F Bre - Eng succeeds THEN F Eng - Bel ELSE F Bre - Pic\n\
         France: WENN A Par - Bur gelingt DANN A Bur - Mun\n\
         France: IF A Par - Burr succeeds THEN A Bur - Mun\n\
         France: IF German A Mun - Bur ordered THEN A Bur H\n",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["order"], "F BRE - PIC", "the ELSE branch: {}", lines[0]);
    assert_eq!(lines[1]["order"], "A BUR - MUN", "{}", lines[1]);
    let third = "France: IF A Par - Burr succeeds THEN A Bur - Mun";
    assert_eq!(
        lines[2]["position"],
        third.find("Burr").expect("the word"),
        "{}",
        lines[2]
    );
    assert_eq!(lines[2]["suggestion"], "Bur", "{}", lines[2]);
    assert!(
        lines[3]["error"].as_str().is_some_and(|e| e.contains("never orders")),
        "{}",
        lines[3]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
