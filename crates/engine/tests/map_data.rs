//! The standard map's facts, and the loader's errors for broken variant files.

use spielleiter_engine::map::{MapProblem, Terrain, load_variant};
use spielleiter_engine::{Coast, Position, UnitType, Variant};

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("standard is built in")
        .expect("standard loads")
}

#[test]
fn the_standard_map_has_the_published_shape() {
    let v = standard();
    let map = &v.map;
    let passable = map
        .provinces()
        .iter()
        .filter(|p| p.terrain != Terrain::Impassable)
        .count();
    assert_eq!(passable, 75);
    assert_eq!(map.centres().count(), 34);
    assert_eq!(map.powers().len(), 7);
    let homes: usize = map.powers().iter().map(|p| p.home.len()).sum();
    assert_eq!(homes, 22);
    assert_eq!(
        map.provinces()
            .iter()
            .filter(|p| p.centre && p.home_of.is_none())
            .count(),
        12
    );
    let units: usize = map.powers().iter().map(|p| p.start_units.len()).sum();
    assert_eq!(units, 22);
    assert_eq!(v.victory_centres, 18);
    assert_eq!(v.start.to_string(), "S1901M");
    let split: Vec<&str> = map
        .provinces()
        .iter()
        .filter(|p| p.has_split_coast())
        .map(|p| p.abbreviation.as_str())
        .collect();
    assert_eq!(split, ["bul", "spa", "stp"]);
    let land = map.provinces().iter().filter(|p| p.terrain == Terrain::Land).count();
    let sea = map.provinces().iter().filter(|p| p.terrain == Terrain::Sea).count();
    let coast = map.provinces().iter().filter(|p| p.terrain == Terrain::Coast).count();
    assert_eq!((land, coast, sea), (14, 42, 19));
}

#[test]
fn special_geography_is_right() {
    let v = standard();
    let map = &v.map;
    let loc = |s: &str| map.location_by_abbreviation(s).unwrap_or_else(|| panic!("{s}"));
    let fleet = |a: &str, b: &str| map.is_adjacent(UnitType::Fleet, loc(a), loc(b));
    let army = |a: &str, b: &str| map.is_adjacent(UnitType::Army, loc(a), loc(b));
    // Canals through Kiel and Constantinople.
    assert!(fleet("hol", "kie") && fleet("kie", "bal") && fleet("hel", "kie") && fleet("kie", "ber"));
    assert!(fleet("aeg", "con") && fleet("con", "bla") && !fleet("aeg", "bla"));
    // Denmark–Sweden, by land and sea.
    assert!(army("den", "swe") && fleet("den", "swe"));
    // Switzerland is impassable.
    let swi = map.province_by_abbreviation("swi").expect("swi");
    assert_eq!(map.province(swi).terrain, Terrain::Impassable);
    assert!(map.neighbours(UnitType::Army, map.province(swi).main).is_empty());
    assert!(!army("mun", "swi"));
    // North Africa and Spain are not adjacent; Rome and Venice only by land.
    assert!(!army("naf", "spa") && !fleet("naf", "spa/sc"));
    assert!(army("rom", "ven") && !fleet("rom", "ven"));
    // Split coasts.
    assert!(fleet("gas", "spa/nc") && !fleet("gas", "spa/sc"));
    assert!(fleet("mar", "spa/sc") && fleet("lyo", "spa/sc") && !fleet("lyo", "spa/nc"));
    assert!(fleet("bar", "stp/nc") && fleet("bot", "stp/sc"));
    assert!(fleet("bla", "bul/ec") && fleet("aeg", "bul/sc"));
    let spa = map.province_by_abbreviation("spa").expect("spa");
    assert!(map.coast_of(spa, Coast::North).is_some() && map.coast_of(spa, Coast::East).is_none());
    // A fleet in Marseilles may support into Spain (any coast).
    assert!(map.can_reach_province(UnitType::Fleet, loc("mar"), spa));
    // Britain is the only island: armies cross to it only by convoy.
    assert!(map.convoy_possible(
        map.province_by_abbreviation("lon").expect("lon"),
        map.province_by_abbreviation("bel").expect("bel")
    ));
}

#[test]
fn names_resolve_in_english_german_and_abbreviations() {
    let v = standard();
    let map = &v.map;
    for (name, abbreviation) in [
        ("Munich", "mun"),
        ("München", "mun"),
        ("muenchen", "mun"),
        ("St. Petersburg", "stp"),
        ("Gulf of Lyon", "lyo"),
        ("Golf von Lyon", "lyo"),
        ("Mid-Atlantic Ocean", "mao"),
        ("North Sea", "nth"),
        ("Nordsee", "nth"),
        ("Tirol", "tyr"),
        ("Skag", "ska"),
    ] {
        let p = map.province_by_name(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(map.province(p).abbreviation, abbreviation, "{name}");
    }
    for (name, key) in [
        ("France", "france"),
        ("Frankreich", "france"),
        ("Russian", "russia"),
        ("türkisch", "turkey"),
    ] {
        let p = map.power_by_name(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(map.power(p).key, key);
    }
}

#[test]
fn the_opening_position_has_every_unit_in_its_home() {
    let v = standard();
    let position = Position::initial(&v);
    assert_eq!(position.units.len(), 22);
    assert_eq!(position.owners.iter().filter(|o| o.is_some()).count(), 22);
    let stp = v.map.location_by_abbreviation("stp/sc").expect("stp/sc");
    assert!(
        position
            .units
            .iter()
            .any(|u| u.location == stp && u.kind == UnitType::Fleet)
    );
}

const SMALL: &str = r#"
[variant]
name = "tiny"
title = "Tiny"
start = "S1901M"
victory_centres = 2

[[power]]
id = "red"
name = "Red"
adjective = "Red"
home = ["aaa"]
units = ["A aaa"]

[[province]]
id = "aaa"
name = "Aland"
terrain = "coast"
centre = true
army = ["bbb"]
fleet = ["sea"]

[[province]]
id = "bbb"
name = "Bland"
terrain = "land"
centre = true
army = ["aaa"]

[[province]]
id = "sea"
name = "Sea"
terrain = "sea"
fleet = ["aaa"]
"#;

fn problems(text: &str) -> Vec<(usize, MapProblem)> {
    match load_variant("tiny.toml", text) {
        Ok(_) => Vec::new(),
        Err(e) => e.0.into_iter().map(|e| (e.line, e.problem)).collect(),
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).expect("needle") + 1
}

#[test]
fn a_small_valid_variant_loads() {
    let v = load_variant("tiny.toml", SMALL).expect("valid");
    assert_eq!(v.map.provinces().len(), 3);
    assert_eq!(v.victory_centres, 2);
}

#[test]
fn an_asymmetric_adjacency_is_reported_with_its_line() {
    let text = SMALL.replace("army = [\"aaa\"]", "army = []");
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, line_of(&text, "army = [\"bbb\"]"));
    assert!(
        matches!(&found[0].1, MapProblem::AsymmetricAdjacency { unit: "army", from, to } if from == "aaa" && to == "bbb")
    );
    let e = load_variant("tiny.toml", &text).expect_err("broken");
    assert!(e.to_string().starts_with(&format!("tiny.toml:{}:", found[0].0)), "{e}");
}

#[test]
fn an_unknown_province_is_reported_with_its_line() {
    let text = SMALL.replace("army = [\"bbb\"]", "army = [\"bbb\", \"zzz\"]");
    let found = problems(&text);
    assert_eq!(
        found,
        vec![(line_of(&text, "\"zzz\""), MapProblem::UnknownProvince("zzz".into()))]
    );
}

#[test]
fn a_home_centre_that_is_no_centre_is_reported() {
    let text = SMALL.replace("home = [\"aaa\"]", "home = [\"aaa\", \"sea\"]");
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(matches!(&found[0].1, MapProblem::HomeNotCentre { province, .. } if province == "sea"));
    assert_eq!(found[0].0, line_of(&text, "home = "));
}

#[test]
fn other_mistakes_are_reported() {
    let dup = SMALL.replace("id = \"bbb\"", "id = \"aaa\"");
    assert!(
        problems(&dup)
            .iter()
            .any(|(_, p)| matches!(p, MapProblem::DuplicateProvince(_)))
    );
    let bad_unit = SMALL.replace("units = [\"A aaa\"]", "units = [\"F bbb\"]");
    assert!(
        problems(&bad_unit)
            .iter()
            .any(|(_, p)| matches!(p, MapProblem::BadUnit(..)))
    );
    let terrain = SMALL.replace("terrain = \"land\"", "terrain = \"swamp\"");
    let found = problems(&terrain);
    assert!(
        matches!(found.as_slice(), [(_, MapProblem::UnknownTerrain(_))]),
        "only the terrain is reported: {found:?}"
    );
    let fleet_inland = SMALL.replace(
        "army = [\"bbb\"]\nfleet = [\"sea\"]",
        "army = [\"bbb\"]\nfleet = [\"sea\", \"bbb\"]",
    );
    assert!(
        problems(&fleet_inland)
            .iter()
            .any(|(_, p)| matches!(p, MapProblem::TerrainMismatch { .. }))
    );
    let victory = SMALL.replace("victory_centres = 2", "victory_centres = 9");
    assert!(
        problems(&victory)
            .iter()
            .any(|(_, p)| matches!(p, MapProblem::BadVictory { .. }))
    );
    let clash = SMALL.replace("name = \"Bland\"", "name = \"Aland\"");
    assert!(
        problems(&clash)
            .iter()
            .any(|(_, p)| matches!(p, MapProblem::NameClash { .. }))
    );
    let syntax = SMALL.replace("[[province]]\nid = \"sea\"", "[[province]\nid = \"sea\"");
    let found = problems(&syntax);
    let broken_line = syntax.lines().position(|l| l == "[[province]").expect("broken header") + 1;
    assert!(
        matches!(found.as_slice(), [(line, MapProblem::Syntax(_))] if *line == broken_line),
        "{found:?}"
    );
    let unknown_field = SMALL.replace(
        "centre = true\narmy = [\"aaa\"]",
        "centre = true\nmountain = 3\narmy = [\"aaa\"]",
    );
    let found = problems(&unknown_field);
    assert!(
        matches!(found.as_slice(), [(line, MapProblem::Syntax(_))] if *line == line_of(&unknown_field, "mountain")),
        "{found:?}"
    );
}

#[test]
fn bordering_pairs_cover_every_unit_and_coast_once() {
    let v = standard();
    let map = &v.map;
    let id = |a: &str| map.province_by_abbreviation(a).unwrap();
    let pairs = map.bordering_pairs();
    let borders = |a: &str, b: &str| {
        let (p, q) = (id(a), id(b));
        pairs.contains(&(p.min(q), p.max(q)))
    };
    // By army, by fleet only, by a split coast; not across the board, not impassable Switzerland.
    assert!(borders("par", "bur") && borders("nth", "nwg") && borders("mao", "spa") && borders("bot", "stp"));
    assert!(!borders("par", "mun") && borders("lon", "yor"));
    assert!(pairs.iter().all(|&(p, q)| p < q && p != id("swi") && q != id("swi")));
}

#[test]
fn a_variant_names_its_rules_and_map_data_needs_its_rule() {
    use spielleiter_engine::rules::RuleName;
    assert!(load_variant("tiny.toml", SMALL).expect("valid").rules.is_empty());
    let named = SMALL.replace(
        "victory_centres = 2",
        "victory_centres = 2\nrules = [\"railroad\", \"canal\", \"canal\"]",
    );
    let v = load_variant("tiny.toml", &named).expect("valid");
    assert_eq!(
        v.rules,
        vec![RuleName::Canal, RuleName::Railroad],
        "each once, in pipeline order"
    );
    let unknown = SMALL.replace(
        "victory_centres = 2",
        "victory_centres = 2\nrules = [\"garrisons\", \"canals\"]",
    );
    let found = problems(&unknown);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(matches!(&found[1].1, MapProblem::UnknownRule(name) if name == "canals"));
    assert_eq!(found[1].0, line_of(&unknown, "rules ="));
    let message = load_variant("tiny.toml", &unknown).expect_err("unknown").to_string();
    assert!(
        message.contains("known rules are canal, railroad, leaders, scenario_rules"),
        "{message}"
    );
    // Colonial's canal and railroad data are refused without the rules that act on them.
    let colonial = include_str!("../../../variants/colonial/variant.toml");
    let unnamed = colonial.replace("rules = [\"canal\", \"railroad\"]", "");
    let found = problems(&unnamed);
    let needed: Vec<_> = found
        .iter()
        .filter_map(|(_, p)| match p {
            MapProblem::RuleNotNamed { rule, .. } => Some(*rule),
            _ => None,
        })
        .collect();
    assert_eq!(needed, vec![RuleName::Canal, RuleName::Railroad], "{found:?}");
    // Hegemony's leaders and scenario special rules likewise need their rules.
    let hegemony = include_str!("../../../variants/hegemony/variant.toml");
    let unnamed = hegemony.replacen(
        "rules = [\"leaders\", \"scenario_rules\", \"neutrals\", \"politics\", \"supply_lines\"]",
        "",
        1,
    );
    let found = problems(&unnamed);
    for needed in [RuleName::Leaders, RuleName::ScenarioRules, RuleName::Politics] {
        assert!(
            found
                .iter()
                .any(|(_, p)| matches!(p, MapProblem::RuleNotNamed { rule, .. } if *rule == needed)),
            "{needed}: {found:?}"
        );
    }
    assert!(
        found.iter().any(|(_, p)| matches!(
            p,
            MapProblem::RuleNotNamed {
                what: "`[special_rule]`",
                ..
            }
        )),
        "{found:?}"
    );
}
