//! The reports in English and German keep to their language: a phase of every kind (bounces,
//! cut and void supports, dislodgements, retreats, builds, a waive, a removal) rendered
//! in both, and no word of the one report vocabulary in the other's text.

use spielleiter_engine::game::{PhaseOrders, PhaseReport, adjudicate_phase};
use spielleiter_engine::interchange::{GameState, position_from_state};
use spielleiter_engine::report::{Lang, render};
use spielleiter_engine::{Position, Variant};

/// Words of the English report that German never uses.
const ENGLISH: &[&str] = &[
    "army",
    "fleet",
    "bounce",
    "bounced",
    "dislodged",
    "cut",
    "void",
    "disband",
    "disbanded",
    "build",
    "builds",
    "retreat",
    "retreats",
    "spring",
    "fall",
    "movement",
    "results",
    "support",
    "supports",
    "hold",
    "holds",
    "convoy",
    "removes",
    "next",
    "the",
    "of",
    "and",
    "to",
    "no",
];

/// Words of the German report that English never uses.
const GERMAN: &[&str] = &[
    "armee",
    "flotte",
    "abgeprallt",
    "verdrängt",
    "abgeschnitten",
    "ungenutzt",
    "aufgelöst",
    "baut",
    "rückzug",
    "rückzüge",
    "frühjahr",
    "herbst",
    "bewegungen",
    "ergebnisse",
    "unterstützt",
    "hält",
    "der",
    "die",
    "das",
    "und",
    "nach",
    "keine",
    "nächste",
];

fn standard() -> Variant {
    spielleiter_engine::variant::builtin("standard")
        .expect("built in")
        .expect("loads")
}

fn play(v: &Variant, p: &Position, orders: &[(&str, &[&str])]) -> PhaseReport {
    let mut read = PhaseOrders::default();
    for (power, lines) in orders {
        let power = v.map.power_by_name(power).expect("power");
        read.read(v, p, Some(power), lines.iter().copied());
    }
    adjudicate_phase(v, p, read)
}

/// The words of `text` that are in `vocabulary` (whole words, any case).
fn words_of<'a>(text: &str, vocabulary: &[&'a str]) -> Vec<&'a str> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    vocabulary
        .iter()
        .copied()
        .filter(|v| words.iter().any(|w| w == v))
        .collect()
}

#[test]
fn a_year_of_reports_keeps_to_each_language() {
    let v = standard();
    let state: GameState = serde_json::from_str(
        r#"{"phase": "F1901M", "units": {
            "FRANCE": ["A BUR", "A PIC", "F MAO"],
            "GERMANY": ["A BEL", "A RUH", "A MUN", "A SIL", "A PRU"],
            "ENGLAND": ["F ENG", "F NTH"]},
          "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN", "BEL"],
            "ENGLAND": ["LON", "EDI", "LVP"]}}"#,
    )
    .expect("a state");
    let fall = position_from_state(&v, &state).expect("a position");
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
        assert_eq!(words_of(&de, ENGLISH), [] as [&str; 0], "{name}, German:\n{de}");
        assert_eq!(words_of(&en, GERMAN), [] as [&str; 0], "{name}, English:\n{en}");
        // Each report speaks its own language at all.
        assert!(words_of(&en, ENGLISH).len() >= 3, "{name}, English:\n{en}");
        assert!(words_of(&de, GERMAN).len() >= 3, "{name}, German:\n{de}");
    }
    let de = render(&v, &moves, Lang::De);
    for word in ["abgeprallt", "verdrängt", "abgeschnitten"] {
        assert!(de.contains(word), "{word}:\n{de}");
    }
}
