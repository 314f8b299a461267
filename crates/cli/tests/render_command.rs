//! `spielleiter render` as a user runs it: the opening position as SVG, a result as PNG, and a
//! map imported from DPjudge (no shape file) drawn with a generated layout.

mod support;

use support::{fresh_dir, run};

fn ok(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_opening_is_drawn_as_svg_and_a_result_as_png() {
    let state = ok(&run(&["start"], ""));
    let svg = ok(&run(&["render"], &state));
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 22);
    let dir = fresh_dir("render-png");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("dislodged.png");
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/dislodged.json");
    ok(&run(&["render", example, "--after", "-o", png.to_str().unwrap()], ""));
    let bytes = std::fs::read(&png).expect("the picture was written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // Not to a terminal, and not from a broken state.
    let bad = run(&["render"], "{not json");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("JSON"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn an_imported_dpjudge_map_is_drawn_with_a_generated_layout() {
    let dir = fresh_dir("render-import");
    std::fs::create_dir_all(&dir).unwrap();
    let variant = dir.join("imported.toml");
    let map = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/fixtures/dpjudge/ancmed.map"
    );
    let variant_path = variant.to_str().unwrap();
    ok(&run(
        &["variant", "import", map, "--name", "imported", "--output", variant_path],
        "",
    ));
    let state = ok(&run(&["start", "--variant", variant_path], ""));
    let svg = ok(&run(&["render", "--variant", variant_path], &state));
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 15, "every unit drawn");
    assert!(svg.contains(r#"data-province="rom""#), "provinces drawn");
    let png = dir.join("imported.png");
    ok(&run(
        &["render", "--variant", variant_path, "-o", png.to_str().unwrap()],
        &state,
    ));
    assert!(std::fs::read(&png).expect("written").starts_with(b"\x89PNG"));
}
