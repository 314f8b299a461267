//! Order notation: every example of SPEC S4 and the seed documents, the interchange notation,
//! German order words, errors with positions and suggestions, and round trips.

use proptest::prelude::*;
use spielleiter_engine::interchange::{GameState, position_from_state};
use spielleiter_engine::order::{OrderContext, OrderErrorKind, parse_order, parse_order_list};
use spielleiter_engine::{Order, PhaseKind, Position, Variant};

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("standard is built in")
        .expect("standard loads")
}

/// The standard variant and its legal orders, computed once for all property cases.
fn shared() -> &'static (Variant, Vec<Order>) {
    static SHARED: std::sync::OnceLock<(Variant, Vec<Order>)> = std::sync::OnceLock::new();
    SHARED.get_or_init(|| {
        let v = standard();
        let orders = legal_orders(&v);
        (v, orders)
    })
}

fn ctx(variant: &Variant, phase: PhaseKind) -> OrderContext<'_> {
    OrderContext {
        map: &variant.map,
        phase,
        position: None,
        default_power: None,
        leaders: &[],
    }
}

/// Reads `input` in a movement phase against the map alone and returns "POWER: ORDER" or "ORDER".
fn read(variant: &Variant, phase: PhaseKind, input: &str) -> String {
    match parse_order(&ctx(variant, phase), input) {
        Ok(o) => {
            let order = o.order.display(&variant.map).to_string();
            match o.power {
                Some(p) => format!("{}: {order}", variant.map.power(p).name),
                None => order,
            }
        }
        Err(e) => panic!("`{input}` was rejected: {e}"),
    }
}

fn error(variant: &Variant, phase: PhaseKind, input: &str) -> spielleiter_engine::OrderError {
    match parse_order(&ctx(variant, phase), input) {
        Ok(o) => panic!("`{input}` was accepted as {}", o.order.display(&variant.map)),
        Err(e) => e,
    }
}

#[test]
fn every_notation_of_spec_s4_reads() {
    let v = standard();
    let m = PhaseKind::Movement;
    let cases = [
        ("A Tyr - Mun", "A TYR - MUN"),
        ("A Tyr-Mun", "A TYR - MUN"),
        ("A Tyr -> Mun", "A TYR - MUN"),
        ("A Bur S A Tyr - Mun", "A BUR S A TYR - MUN"),
        ("F Nth C A Lon - Bel", "F NTH C A LON - BEL"),
        ("A Mar H", "A MAR H"),
        ("France: A Marseilles Hold", "France: A MAR H"),
        ("France: A Marseilles – Spain", "France: A MAR - SPA"),
        (
            "Austria: A Silesia Supports A Prussia – Warsaw",
            "Austria: A SIL S A PRU - WAR",
        ),
        (
            "Italy: F Western Mediterranean Convoys A Naples - Spain",
            "Italy: F WES C A NAP - SPA",
        ),
        ("F Gulf of Lyon – SpainSouthern", "F LYO - SPA/SC"),
        ("France: F Gulf of Lyon – SpainSouthern", "France: F LYO - SPA/SC"),
        ("F Lyo - Spa sc", "F LYO - SPA/SC"),
        ("F Lyo - Spa/sc", "F LYO - SPA/SC"),
        ("A Sil S Russian A War - Pru", "A SIL S A WAR - PRU"),
        ("a sil s russian a war - pru", "A SIL S A WAR - PRU"),
        ("A SILESIA SUPPORTS A PRUSSIA - WARSAW", "A SIL S A PRU - WAR"),
    ];
    for (input, expected) in cases {
        assert_eq!(read(&v, m, input), expected, "{input}");
    }
}

#[test]
fn the_seeds_examples_read() {
    let v = standard();
    let m = PhaseKind::Movement;
    // Seed 000 §6–§9 and seed 001.
    for (input, expected) in [
        ("A Bur S A Tyr - Mun", "A BUR S A TYR - MUN"),
        ("Austria: A Tyr S a Boh - Mun", "Austria: A TYR S A BOH - MUN"),
        ("Russia:A Rum - Ser", "Russia: A RUM - SER"),
        ("Austria: A Ser H", "Austria: A SER H"),
        (
            "Italy: F Tyrrhenian Sea Convoys A Naples - Spain",
            "Italy: F TYS C A NAP - SPA",
        ),
        ("Italy: A Naples - Spain", "Italy: A NAP - SPA"),
        ("France: F Gulf of Lyon – SpainSouthern", "France: F LYO - SPA/SC"),
        ("F Spa nc - Gas", "F SPA/NC - GAS"),
        ("F Mar S F Gas - Spa nc", "F MAR S F GAS - SPA/NC"),
    ] {
        assert_eq!(read(&v, m, input), expected, "{input}");
    }
    // Several orders on one line, as seed 000 writes them.
    let c = ctx(&v, m);
    let list = parse_order_list(&c, "Russia: A Ber - Kie, F Skag - Den, F Bal S F Skag - Den");
    let read: Vec<String> = list
        .iter()
        .map(|(_, r)| {
            let o = r.as_ref().expect("each order reads");
            format!(
                "{}: {}",
                v.map.power(o.power.expect("power")).name,
                o.order.display(&v.map)
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            "Russia: A BER - KIE",
            "Russia: F SKA - DEN",
            "Russia: F BAL S F SKA - DEN"
        ]
    );
    let list = parse_order_list(&c, "Turkey: A Bul - Rum, Russia: A Rum - Bul");
    let powers: Vec<String> = list
        .iter()
        .map(|(_, r)| {
            v.map
                .power(r.as_ref().expect("reads").power.expect("power"))
                .name
                .clone()
        })
        .collect();
    assert_eq!(powers, ["Turkey", "Russia"]);
}

#[test]
fn the_interchange_notation_reads_and_prints_back() {
    let v = standard();
    for (phase, text) in [
        (PhaseKind::Movement, "A PAR - BUR"),
        (PhaseKind::Movement, "F STP/SC - BOT"),
        (PhaseKind::Movement, "A LON - BEL VIA"),
        (PhaseKind::Movement, "A PAR S A BRE"),
        (PhaseKind::Movement, "A PAR S A MAR - BUR"),
        (PhaseKind::Movement, "F NTH C A LON - NWY"),
        (PhaseKind::Movement, "A PAR H"),
        (PhaseKind::Retreat, "A PAR R BUR"),
        (PhaseKind::Retreat, "A PAR D"),
        (PhaseKind::Adjustment, "France: A PAR B"),
        (PhaseKind::Adjustment, "Russia: F STP/NC B"),
        (PhaseKind::Adjustment, "A PAR D"),
    ] {
        assert_eq!(read(&v, phase, text), text);
    }
    assert_eq!(
        read(&v, PhaseKind::Adjustment, "A PAR B"),
        "France: A PAR B",
        "a build's power is the home centre's"
    );
    assert_eq!(read(&v, PhaseKind::Adjustment, "France: WAIVE"), "France: WAIVE");
}

#[test]
fn german_order_words_and_names_read() {
    let v = standard();
    let m = PhaseKind::Movement;
    for (input, expected) in [
        ("A Mar Halten", "A MAR H"),
        ("Deutschland: A München hält", "Germany: A MUN H"),
        ("A Mun Unterstützt A Tyr - Boh", "A MUN S A TYR - BOH"),
        ("A Mun U A Tyr - Boh", "A MUN S A TYR - BOH"),
        ("F Nordsee Geleit A London - Belgien", "F NTH C A LON - BEL"),
        ("F Nth Konvoi A Lon - Bel", "F NTH C A LON - BEL"),
        ("F Nth K A Lon - Bel", "F NTH C A LON - BEL"),
        ("A München nach Tirol", "A MUN - TYR"),
        ("A Munchen - Bohmen", "A MUN - BOH"),
        ("A Muenchen - Boehmen", "A MUN - BOH"),
        (
            "Frankreich: F Golf von Lyon - Spanien Südküste",
            "France: F LYO - SPA/SC",
        ),
        (
            "Russland: F St. Petersburg Nordküste - Barentssee",
            "Russia: F STP/NC - BAR",
        ),
    ] {
        assert_eq!(read(&v, m, input), expected, "{input}");
    }
    let r = PhaseKind::Retreat;
    assert_eq!(read(&v, r, "Rückzug A Mun - Boh"), "A MUN R BOH");
    assert_eq!(read(&v, r, "A Mun Auflösen"), "A MUN D");
    let a = PhaseKind::Adjustment;
    assert_eq!(read(&v, a, "Bauen A Mun"), "Germany: A MUN B");
    assert_eq!(read(&v, a, "Aufbau F Kie"), "Germany: F KIE B");
    assert_eq!(read(&v, a, "Abbau A Mun"), "A MUN D");
    assert_eq!(read(&v, a, "Frankreich: Verzicht"), "France: WAIVE");
}

#[test]
fn spacing_case_dashes_and_punctuation_do_not_matter() {
    let v = standard();
    for input in [
        "A Tyr - Mun",
        "a tyr - mun",
        "  A   Tyr   -   Mun  ",
        "A Tyr – Mun",
        "A Tyr — Mun",
        "A Tyr → Mun",
        "A Tyr => Mun",
        "A Tyr to Mun",
        "A Tyr - Mun.",
        "A Tyr - Mun;",
        "A Tyr - Mun!",
        "Army Tyrolia moves to Munich",
        "A Tyrol - Munich",
    ] {
        assert_eq!(read(&v, PhaseKind::Movement, input), "A TYR - MUN", "{input}");
    }
    for input in [
        "F Spa(sc) - Wes",
        "F Spa (sc) - Wes",
        "F Spain (south coast) - Wes",
        "F spa/SC - wes",
        "F Spain south coast - Wes",
    ] {
        assert_eq!(read(&v, PhaseKind::Movement, input), "F SPA/SC - WES", "{input}");
    }
    assert_eq!(
        read(&v, PhaseKind::Movement, "F Mid-Atlantic Ocean - Brest"),
        "F MAO - BRE"
    );
    assert_eq!(read(&v, PhaseKind::Movement, "F Mid Atlantic - Brest"), "F MAO - BRE");
    assert_eq!(read(&v, PhaseKind::Movement, "A Lon - Nth - Bel"), "A LON - BEL VIA");
    assert_eq!(
        read(&v, PhaseKind::Movement, "A Lon - Bel via convoy"),
        "A LON - BEL VIA"
    );
    assert_eq!(
        read(&v, PhaseKind::Movement, "A Lon - Bel (via convoy)"),
        "A LON - BEL VIA"
    );
}

#[test]
fn readings_that_once_went_wrong_stay_right() {
    let v = standard();
    let m = PhaseKind::Movement;
    // A direction word after a split-coast province is its coast, though "East" also names a sea.
    assert_eq!(read(&v, m, "F Con - Bul East"), "F CON - BUL/EC");
    assert_eq!(read(&v, m, "F Bul East - Con"), "F BUL/EC - CON");
    // A coast written for a supported army is dropped (it would make the support miss the move).
    assert_eq!(read(&v, m, "F Mao S A Gas - Spa/nc"), "F MAO S A GAS - SPA");
    assert_eq!(read(&v, m, "F Mao S F Gas - Spa/nc"), "F MAO S F GAS - SPA/NC");
    // Only armies are convoyed, so the convoyed unit's type may be left out.
    assert_eq!(read(&v, m, "F Nth C Lon - Bel"), "F NTH C A LON - BEL");
    // A written convoy route must join up.
    assert!(matches!(
        error(&v, m, "A Lon - Mao - Bre").kind,
        OrderErrorKind::NoConvoyRoute { .. }
    ));
    assert_eq!(read(&v, m, "A Lon - Eng - Mao - Bre"), "A LON - BRE VIA");
    // A huge unknown word is rejected quickly and without a suggestion.
    let long = format!("A Par - {}", "x".repeat(100_000));
    let e = error(&v, m, &long);
    assert!(matches!(e.kind, OrderErrorKind::UnknownProvince(_)));
    assert_eq!(e.suggestion, None);
}

#[test]
fn misspelt_names_get_a_suggestion_and_the_position_of_the_word() {
    let v = standard();
    let e = error(&v, PhaseKind::Movement, "A Munic - Tyr");
    assert_eq!(e.kind, OrderErrorKind::UnknownProvince("Munic".into()));
    assert_eq!(e.position, 2);
    assert_eq!(e.suggestion.as_deref(), Some("Munich"));

    let e = error(&v, PhaseKind::Movement, "France: A Mar – Spian");
    assert_eq!(e.position, "France: A Mar – ".len());
    assert_eq!(e.suggestion.as_deref(), Some("Spain"));

    let e = error(&v, PhaseKind::Movement, "Germnay: A Mun H");
    assert_eq!(e.kind, OrderErrorKind::UnknownPower("Germnay".into()));
    assert_eq!(e.position, 0);
    assert_eq!(e.suggestion.as_deref(), Some("Germany"));

    let e = error(&v, PhaseKind::Movement, "A Xyzzy - Mun");
    assert_eq!(e.suggestion, None, "no guess when nothing is close");
}

#[test]
fn ambiguous_and_impossible_orders_are_errors_never_guesses() {
    let v = standard();
    let m = PhaseKind::Movement;
    let e = error(&v, m, "F Mao - Spa");
    assert!(matches!(e.kind, OrderErrorKind::AmbiguousCoast { .. }), "{e}");
    assert_eq!(e.position, "F Mao - ".len());
    // Only one coast is reachable: it is taken.
    assert_eq!(read(&v, m, "F Gas - Spa"), "F GAS - SPA/NC");
    assert_eq!(read(&v, m, "F Bla - Bul"), "F BLA - BUL/EC");
    assert!(matches!(
        error(&v, m, "F Gas - Spa/sc").kind,
        OrderErrorKind::WrongCoast { .. }
    ));
    assert!(matches!(
        error(&v, m, "F Spa - Gas").kind,
        OrderErrorKind::CoastNeeded(_)
    ));
    assert!(matches!(
        error(&v, m, "A Par - Mos").kind,
        OrderErrorKind::Unreachable { .. }
    ));
    assert!(matches!(
        error(&v, m, "F Rom - Ven").kind,
        OrderErrorKind::Unreachable { .. }
    ));
    assert_eq!(read(&v, m, "A Rom - Ven"), "A ROM - VEN");
    assert!(matches!(
        error(&v, m, "F Aeg - Bla").kind,
        OrderErrorKind::Unreachable { .. }
    ));
    assert!(matches!(
        error(&v, m, "F Par - Bur").kind,
        OrderErrorKind::ImpossibleUnit { .. }
    ));
    assert!(matches!(
        error(&v, m, "A Nth - Lon").kind,
        OrderErrorKind::ImpossibleUnit { .. }
    ));
    assert!(matches!(
        error(&v, m, "A Swi - Mun").kind,
        OrderErrorKind::ImpossibleUnit { .. }
    ));
    assert!(matches!(
        error(&v, m, "A Mun - Swi").kind,
        OrderErrorKind::Unreachable { .. }
    ));
    assert!(matches!(
        error(&v, m, "F Lon - Bel via convoy").kind,
        OrderErrorKind::FleetConvoyed
    ));
    assert!(matches!(
        error(&v, m, "A Bur S A Bur").kind,
        OrderErrorKind::SupportSelf(_)
    ));
    assert!(matches!(
        error(&v, m, "F Bre C A Par - Lon").kind,
        OrderErrorKind::CannotConvoy(_)
    ));
    assert!(matches!(
        error(&v, m, "A Par - Par").kind,
        OrderErrorKind::MoveToOwnProvince(_)
    ));
    assert!(matches!(
        error(&v, m, "A Mun S A Par - Pic").kind,
        OrderErrorKind::CannotSupport { .. }
    ));
    assert!(matches!(
        error(&v, m, "A Par R Bur").kind,
        OrderErrorKind::WrongPhase { .. }
    ));
    assert_eq!(read(&v, m, "A Tyr"), "A TYR H", "a unit without an order holds");
    // Army moves between coasts need a convoy and are legal on the map alone; inland ones are not.
    assert_eq!(read(&v, m, "A Lon - Nwy"), "A LON - NWY");
    assert!(matches!(
        error(&v, m, "A Gre - Sev").kind,
        OrderErrorKind::Unreachable { .. }
    ));
    let e = error(&v, m, "A Par # Bur");
    assert_eq!((e.kind, e.position), (OrderErrorKind::UnexpectedCharacter('#'), 6));
    assert!(matches!(
        error(&v, m, "A Tyr - Mun Boh").kind,
        OrderErrorKind::TrailingText(_)
    ));
    assert!(matches!(error(&v, m, "").kind, OrderErrorKind::Empty));
}

fn opening(variant: &Variant) -> Position {
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "F SPA/NC"], "ENGLAND": ["F LON", "F NTH", "A YOR"]},
            "centers": {"FRANCE": ["PAR"]}}"#,
    )
    .expect("state JSON");
    position_from_state(variant, &state).expect("state fits the map")
}

#[test]
fn with_a_position_units_must_exist_and_belong_to_the_power() {
    let v = standard();
    let position = opening(&v);
    let c = OrderContext {
        map: &v.map,
        phase: PhaseKind::Movement,
        position: Some(&position),
        default_power: None,
        leaders: &[],
    };
    let ok = |s: &str| parse_order(&c, s).map(|o| o.order.display(&v.map).to_string());
    let err = |s: &str| parse_order(&c, s).expect_err(s).kind;
    assert_eq!(ok("F Spa - Gas").as_deref(), Ok("F SPA/NC - GAS"));
    assert_eq!(ok("Spa - Gas").as_deref(), Ok("F SPA/NC - GAS"));
    assert_eq!(ok("Par - Bur").as_deref(), Ok("A PAR - BUR"));
    assert!(matches!(err("A Mun H"), OrderErrorKind::NoUnit(_)));
    assert!(matches!(err("England: A Par H"), OrderErrorKind::NotYourUnit { .. }));
    assert!(matches!(err("F Par H"), OrderErrorKind::WrongUnitType { .. }));
    assert!(
        matches!(err("F Nth S F Yor"), OrderErrorKind::WrongUnitType { .. }),
        "the supported unit is an army"
    );
    // A convoy route needs fleets where they are now.
    assert_eq!(ok("A Yor - Nwy").as_deref(), Ok("A YOR - NWY"));
    assert!(matches!(err("A Yor - Bre"), OrderErrorKind::NoConvoyRoute { .. }));
    assert_eq!(
        parse_order(&c, "A Par - Bur").expect("reads").power,
        v.map.power_by_name("France"),
        "the power is the unit's owner"
    );
}

#[test]
fn builds_are_checked_against_home_centres_ownership_and_occupation() {
    let v = standard();
    let a = PhaseKind::Adjustment;
    assert!(matches!(
        error(&v, a, "Build A Bur").kind,
        OrderErrorKind::BadBuild { .. }
    ));
    assert!(matches!(
        error(&v, a, "Build F Par").kind,
        OrderErrorKind::ImpossibleUnit { .. }
    ));
    assert!(matches!(
        error(&v, a, "Build F StP").kind,
        OrderErrorKind::CoastNeeded(_)
    ));
    assert!(matches!(
        error(&v, a, "England: Build A Par").kind,
        OrderErrorKind::BadBuild { .. }
    ));
    assert!(matches!(error(&v, a, "WAIVE").kind, OrderErrorKind::PowerNeeded));
    let mut position = opening(&v);
    position.phase = "W1901A".parse().expect("phase");
    let c = OrderContext {
        map: &v.map,
        phase: a,
        position: Some(&position),
        default_power: None,
        leaders: &[],
    };
    assert!(matches!(
        parse_order(&c, "France: Build A Par").expect_err("occupied").kind,
        OrderErrorKind::BadBuild { .. }
    ));
    assert!(matches!(
        parse_order(&c, "France: Build F Bre").expect_err("not owned").kind,
        OrderErrorKind::BadBuild { .. }
    ));
}

/// Every order that is legal on the standard map (against the map alone), once.
fn legal_orders(v: &Variant) -> Vec<Order> {
    use spielleiter_engine::UnitType;
    use spielleiter_engine::order::UnitRef;
    let map = &v.map;
    let c = ctx(v, PhaseKind::Movement);
    let mut candidates: Vec<String> = Vec::new();
    let units: Vec<UnitRef> = map
        .locations()
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            let location = spielleiter_engine::LocationId(i as u16);
            [UnitType::Army, UnitType::Fleet]
                .into_iter()
                .filter(move |&k| l.allows(k))
                .map(move |kind| UnitRef::new(kind, location))
        })
        .collect();
    let name = |u: &UnitRef| format!("{} {}", u.kind.letter(), map.location_abbreviation(u.location));
    for u in &units {
        candidates.push(format!("{} H", name(u)));
        for l in 0..map.locations().len() {
            let to = map.location_abbreviation(spielleiter_engine::LocationId(l as u16));
            candidates.push(format!("{} - {to}", name(u)));
        }
        for other in &units {
            if map.province_of(other.location) == map.province_of(u.location) {
                continue;
            }
            if !map.can_reach_province(u.kind, u.location, map.province_of(other.location)) {
                // Supports of moves into a province the supporter reaches.
                for &n in map.neighbours(other.kind, other.location) {
                    let target = map.province_of(n);
                    if map.can_reach_province(u.kind, u.location, target) {
                        candidates.push(format!(
                            "{} S {} - {}",
                            name(u),
                            name(other),
                            map.location_abbreviation(n)
                        ));
                    }
                }
                continue;
            }
            candidates.push(format!("{} S {}", name(u), name(other)));
        }
    }
    let mut orders: Vec<Order> = candidates
        .iter()
        .filter_map(|text| parse_order(&c, text).ok().map(|o| o.order))
        .collect();
    orders.sort_by_key(|o| format!("{o:?}"));
    orders.dedup();
    orders
}

#[test]
fn printing_then_reading_gives_the_same_order_for_every_legal_order() {
    let (v, orders) = shared();
    assert!(orders.len() > 2000, "only {} legal orders enumerated", orders.len());
    let c = ctx(v, PhaseKind::Movement);
    for order in orders {
        let text = order.display(&v.map).to_string();
        let back = parse_order(&c, &text).unwrap_or_else(|e| panic!("`{text}` does not read back: {e}"));
        assert_eq!(back.order, *order, "{text}");
    }
}

/// Writes an order the way a person might: names or abbreviations, German or English, any case,
/// any dash.
fn humanise(v: &Variant, order: &Order, style: &[u8; 4]) -> String {
    let map = &v.map;
    let canonical = order.display(map).to_string();
    let dash = ["-", "–", "->", "to"][usize::from(style[1] % 4)];
    let mut out = Vec::new();
    for word in canonical.split(' ') {
        let w = match word {
            "-" => dash.to_string(),
            "S" => ["S", "supports", "Unterstützt", "U"][usize::from(style[2] % 4)].to_string(),
            "C" => ["C", "convoys", "Konvoi", "Geleit"][usize::from(style[2] % 4)].to_string(),
            "H" => ["H", "hold", "halten", "Holds"][usize::from(style[2] % 4)].to_string(),
            "VIA" => "via convoy".to_string(),
            "A" | "F" => word.to_string(),
            place => {
                let (prov, coast) = place.split_once('/').unwrap_or((place, ""));
                let p = map.province(map.province_by_abbreviation(prov).expect("province"));
                let base = match style[0] % 3 {
                    0 => p.abbreviation.clone(),
                    1 => p.name.clone(),
                    _ => p.name_de.clone(),
                };
                if coast.is_empty() {
                    base
                } else {
                    format!("{base}/{}", coast.to_lowercase())
                }
            }
        };
        out.push(w);
    }
    let text = out.join(" ");
    if style[3] % 2 == 0 {
        text.to_uppercase()
    } else {
        text.to_lowercase()
    }
}

proptest! {
    #[test]
    fn any_legal_order_written_by_hand_reads_as_itself(index in 0usize..100_000, style in any::<[u8; 4]>()) {
        let (v, orders) = shared();
        let order = orders[index % orders.len()];
        let text = humanise(v, &order, &style);
        let read = parse_order(&ctx(v, PhaseKind::Movement), &text);
        prop_assert_eq!(read.map(|o| o.order), Ok(order), "{}", text);
    }

    #[test]
    fn no_input_makes_the_reader_panic(line in "\\PC{0,60}") {
        let (v, _) = shared();
        for phase in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            let _ = parse_order_list(&ctx(v, phase), &line);
        }
    }

    #[test]
    fn no_order_like_input_makes_the_reader_panic(
        words in proptest::collection::vec(
            prop_oneof![
                Just("A"), Just("F"), Just("S"), Just("C"), Just("H"), Just("-"), Just("/"), Just("("), Just(")"),
                Just("nc"), Just("sc"), Just("Spa"), Just("StP"), Just("Bul"), Just("via"), Just("convoy"),
                Just("France:"), Just("Russian"), Just("Mid-Atlantic"), Just("Ocean"), Just("Gulf"), Just("of"),
                Just("Lyon"), Just("Build"), Just("WAIVE"), Just("R"), Just("D"), Just(","), Just("north"), Just("coast"),
            ],
            0..12,
        )
    ) {
        let (v, _) = shared();
        let line = words.join(" ");
        for phase in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            let _ = parse_order_list(&ctx(v, phase), &line);
        }
    }
}

#[test]
fn leader_orders_read_in_every_spelling_and_print_back() {
    let v = standard();
    let m = PhaseKind::Movement;
    let cases = [
        ("LA Par - Bur", "LA PAR - BUR"),
        ("L A Par - Bur", "LA PAR - BUR"),
        ("Anführer A Paris nach Burgund", "LA PAR - BUR"),
        ("LF Bre - Eng", "LF BRE - ENG"),
        ("LA Bur H", "LA BUR H"),
        ("L Par - Bur", "L PAR - BUR"),
        ("Leader Paris holds", "L PAR H"),
        ("A Mar S LA Par - Bur", "A MAR S LA PAR - BUR"),
        ("F Eng C LA Bel - Lon", "F ENG C LA BEL - LON"),
        ("F Eng C L Bel - Lon", "F ENG C L BEL - LON"),
    ];
    for (input, expected) in cases {
        assert_eq!(read(&v, m, input), expected, "{input}");
    }
    // A leader alone neither supports nor convoys, and no one supports him (3.1.4).
    for input in ["L Par S A Bur", "L Bre C A Par - Lon", "A Mar S L Par - Bur"] {
        assert!(
            matches!(error(&v, m, input).kind, OrderErrorKind::LeaderCannot(_)),
            "{input}"
        );
    }
    // A leader is never built, and leader orders belong to movement phases.
    assert!(matches!(
        error(&v, PhaseKind::Adjustment, "Build L Par").kind,
        OrderErrorKind::BadBuild { .. }
    ));
    assert!(matches!(
        error(&v, PhaseKind::Retreat, "LA Par - Bur").kind,
        OrderErrorKind::WrongPhase { .. }
    ));
}

#[test]
fn leader_retreats_read_against_a_retreat_phase() {
    let v = spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads");
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1701R", "units": {"AUSTRIA": ["A PIC"], "FRANCE": ["A PAR"]},
            "leaders": {"FRANCE": {"NAPOLEON": "PIC"}},
            "leader_retreats": {"FRANCE": {"NAPOLEON": ["BUR", "PAR"]}}}"#,
    )
    .expect("state");
    let position = position_from_state(&v, &state).expect("position");
    let c = OrderContext {
        map: &v.map,
        phase: PhaseKind::Retreat,
        position: Some(&position),
        default_power: None,
        leaders: &v.leaders,
    };
    for (input, expected) in [
        ("L Pic R Par", "L PIC R PAR"),
        ("L Pic - Bur", "L PIC R BUR"),
        ("Anführer Picardie Rückzug Paris", "L PIC R PAR"),
    ] {
        let order = parse_order(&c, input).expect(input);
        assert_eq!(order.order.display(&v.map).to_string(), expected, "{input}");
        assert_eq!(order.power, v.map.power_by_name("France"), "{input}");
    }
    let reject = |input: &str| parse_order(&c, input).expect_err(input).kind;
    assert!(
        matches!(reject("L Pic R Bre"), OrderErrorKind::BadRetreat { .. }),
        "not an option"
    );
    assert!(matches!(
        reject("L Pic R Eng"),
        OrderErrorKind::LeaderCannot("retreat into a sea")
    ));
    assert!(matches!(
        reject("L Pic D"),
        OrderErrorKind::LeaderCannot("be disbanded")
    ));
    assert!(matches!(reject("L Gas R Bre"), OrderErrorKind::NoLeader(p) if p == "Gas"));
    assert!(matches!(reject("England: L Pic R Par"), OrderErrorKind::NoLeader(_)));
}

#[test]
fn leader_orders_against_a_position_need_the_leader_there() {
    let v = spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads");
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1701M", "units": {"FRANCE": ["A PAR", "A BUR"], "ENGLAND": ["F ENG"]},
            "leaders": {"FRANCE": {"NAPOLEON": "PAR"}, "ENGLAND": {"MARLBOROUGH": "ENG"}}}"#,
    )
    .expect("state");
    let position = position_from_state(&v, &state).expect("position");
    let c = OrderContext {
        map: &v.map,
        phase: PhaseKind::Movement,
        position: Some(&position),
        default_power: None,
        leaders: &v.leaders,
    };
    let reject = |input: &str| parse_order(&c, input).expect_err(input).kind;
    assert!(matches!(reject("LA Bur - Pic"), OrderErrorKind::NoLeader(p) if p == "Bur"));
    assert!(matches!(
        reject("England: LA Par - Pic"),
        OrderErrorKind::NotYourUnit { .. }
    ));
    assert!(matches!(
        reject("LF Eng - Nth"),
        OrderErrorKind::CannotLead { leader, leads: "armies" } if leader == "Marlborough"
    ));
    assert!(matches!(reject("L Par - Eng"), OrderErrorKind::Unreachable { .. }));
    assert!(matches!(
        reject("France: L Par - Mao"),
        OrderErrorKind::Unreachable { .. }
    ));
    let state: GameState = serde_json::from_str(
        r#"{"phase": "S1701M", "units": {"ENGLAND": ["F ENG"]}, "leaders": {"FRANCE": {"NAPOLEON": "BRE"}}}"#,
    )
    .expect("state");
    let at_brest = position_from_state(&v, &state).expect("position");
    let c_brest = OrderContext {
        position: Some(&at_brest),
        ..c
    };
    let foreign_fleet = parse_order(&c_brest, "L Bre - Eng").expect_err("foreign fleet").kind;
    assert!(matches!(foreign_fleet, OrderErrorKind::LeaderAtSea(p) if p == "Eng"));
    let led = parse_order(&c, "LA Par - Pic").expect("legal");
    assert_eq!(led.power, v.map.power_by_name("France"));
    let alone = parse_order(&c, "L Par - Gas").expect("legal");
    assert_eq!(alone.order.display(&v.map).to_string(), "L PAR - GAS");
}
