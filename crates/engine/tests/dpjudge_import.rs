//! Importing DPjudge `.map` files gives the same map graph as our own variant files.

use std::collections::BTreeSet;
use std::path::Path;

use spielleiter_engine::map::dpjudge::import_dpjudge;
use spielleiter_engine::map::load_variant;
use spielleiter_engine::{UnitType, Variant};

fn fixture(name: &str) -> Option<String> {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dpjudge")
            .join(name),
    )
    .ok()
}

fn import(file: &str, name: &str) -> Variant {
    let text = fixture(file).expect("fixture");
    let imported = import_dpjudge(file, &text, name, &mut |f| fixture(f)).expect("imports");
    load_variant(file, &imported.toml).unwrap_or_else(|e| panic!("imported {file} does not load:\n{e}"))
}

/// Everything about a map but its names: provinces, terrain, centres, convoying, adjacency per
/// unit type, powers with home centres and starting units, start and victory.
fn graph(v: &Variant) -> BTreeSet<String> {
    let map = &v.map;
    let mut facts = BTreeSet::new();
    facts.insert(format!("start {} victory {}", v.start, v.victory_centres));
    for p in map.provinces() {
        facts.insert(format!(
            "province {} {:?} centre={} convoys={} coasts={}",
            p.abbreviation,
            p.terrain,
            p.centre,
            p.convoys,
            p.coasts.len()
        ));
    }
    for (i, _) in map.locations().iter().enumerate() {
        let from = spielleiter_engine::LocationId(i as u16);
        for kind in [UnitType::Army, UnitType::Fleet] {
            for &to in map.neighbours(kind, from) {
                facts.insert(format!(
                    "{kind:?} {} - {}",
                    map.location_abbreviation(from),
                    map.location_abbreviation(to)
                ));
            }
        }
    }
    for p in map.powers() {
        let mut homes: Vec<String> = p.home.iter().map(|&h| map.province(h).abbreviation.clone()).collect();
        homes.sort();
        let mut units: Vec<String> = p
            .start_units
            .iter()
            .map(|&(k, l)| format!("{} {}", k.letter(), map.location_abbreviation(l)))
            .collect();
        units.sort();
        facts.insert(format!("power {} homes {homes:?} units {units:?}", p.key));
    }
    facts
}

fn assert_same(ours: &Variant, imported: &Variant) {
    let a = graph(ours);
    let b = graph(imported);
    let only_ours: Vec<_> = a.difference(&b).collect();
    let only_imported: Vec<_> = b.difference(&a).collect();
    assert!(
        only_ours.is_empty() && only_imported.is_empty(),
        "only in ours: {only_ours:#?}\nonly imported: {only_imported:#?}"
    );
}

#[test]
fn the_imported_standard_map_is_our_standard_map() {
    let ours = spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads");
    let imported = import("standard.map", "standard");
    assert_same(&ours, &imported);
    // Names come along too.
    assert!(imported.map.province_by_name("Mid-Atlantic Ocean").is_some());
    assert!(imported.map.power_by_name("English").is_some());
}

#[test]
fn broken_map_files_are_reported_with_file_and_line() {
    let e = import_dpjudge("bad.map", "WATER NTH ABUTS XYZ\n", "bad", &mut |_| None).expect_err("unknown place");
    assert!(e[0].message.contains("unknown place `XYZ`"), "{e:?}");
    let e = import_dpjudge("bad.map", "USE missing.geography\n", "bad", &mut |_| None).expect_err("missing file");
    assert_eq!(
        (e[0].line, e[0].message.as_str()),
        (1, "cannot read `missing.geography`")
    );
    let e = import_dpjudge("bad.map", "Oops what is this\n", "bad", &mut |_| None).expect_err("nonsense");
    assert!(e[0].to_string().starts_with("bad.map:1:"), "{e:?}");
}

#[test]
fn the_imported_ancient_mediterranean_is_our_ancient_mediterranean() {
    let ours = spielleiter_engine::variant::builtin("ancmed")
        .expect("built in")
        .expect("loads");
    let imported = import("ancmed.map", "ancmed");
    assert_same(&ours, &imported);
}

#[test]
fn drop_forgets_a_place_everywhere_and_files_are_read_once() {
    let mut include = |f: &str| fixture(f);
    let text = "USE standard.map\nUSE standard.map\nDROP NTH\n";
    let imported = import_dpjudge("nonth.map", text, "nonth", &mut include).expect("imports");
    assert!(
        imported.warnings.iter().any(|w| w.contains("read already")),
        "{:?}",
        imported.warnings
    );
    let v = load_variant("nonth.map", &imported.toml).expect("loads");
    assert!(v.map.province_by_abbreviation("nth").is_none());
    let lon = v.map.location_by_abbreviation("lon").expect("lon");
    assert!(
        v.map
            .neighbours(UnitType::Fleet, lon)
            .iter()
            .all(|&l| v.map.location_abbreviation(l) != "nth")
    );
    // A map that includes itself does not loop.
    let looped =
        import_dpjudge("s.map", "USE s.map\n", "s", &mut |_| Some("USE s.map\n".to_string())).expect("imports");
    assert!(
        looped.warnings.iter().any(|w| w.contains("`s.map` was read already")),
        "{:?}",
        looped.warnings
    );
    // Unsupported directives are reported, not read as powers.
    let imported = import_dpjudge("u.map", "UNITS\nOWNS LON\nWATER NTH\n", "u", &mut |_| None).expect("imports");
    assert!(imported.warnings.iter().any(|w| w.contains("`OWNS` is not imported")));
    assert!(!imported.toml.contains("[[power]]"));
}
