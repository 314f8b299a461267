//! The board in words, power by power: its supply centres and units, and its dislodged units
//! with where they may retreat — what a player at a terminal sees between phases.

use std::fmt::Write as _;

use super::{Lang, Words};
use crate::position::Position;
use crate::variant::Variant;

/// The board of `position` in `lang`, one line per power with units or centres.
pub fn board(variant: &Variant, position: &Position, lang: Lang) -> String {
    let w = Words { lang };
    let map = &variant.map;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}:",
        if lang == Lang::De { "Das Brett," } else { "The board," },
        w.when(variant, position.phase)
    );
    for power in map.powers() {
        let centres = position.centre_count(map, power.id);
        let units: Vec<String> = position
            .units
            .iter()
            .filter(|u| u.power == power.id)
            .map(|u| format!("{} {}", w.unit(u.kind), w.place(variant, u.location)))
            .collect();
        if centres == 0 && units.is_empty() {
            continue;
        }
        let (centres_word, none) = match lang {
            Lang::En => ("supply centres", "no units"),
            Lang::De => ("Versorgungszentren", "keine Einheiten"),
        };
        let units = if units.is_empty() {
            none.to_string()
        } else {
            units.join(", ")
        };
        let _ = writeln!(
            out,
            "{}: {centres} {centres_word}; {units}.",
            w.power(variant, power.id)
        );
    }
    for d in &position.dislodged {
        let options: Vec<String> = d.retreats.iter().map(|&l| w.place(variant, l)).collect();
        let who = format!("{} {}", w.unit(d.unit.kind), w.place(variant, d.unit.location));
        let power = w.power(variant, d.unit.power);
        let line = match (lang, options.is_empty()) {
            (Lang::En, false) => format!(
                "{power}: {who} dislodged, may retreat to {}.",
                super::join_or(&options, lang)
            ),
            (Lang::En, true) => format!("{power}: {who} dislodged, with nowhere to retreat."),
            (Lang::De, false) => format!(
                "{power}: {who} vertrieben, Rückzug nach {}.",
                super::join_or(&options, lang)
            ),
            (Lang::De, true) => format!("{power}: {who} vertrieben, ohne Rückzugsort."),
        };
        let _ = writeln!(out, "{line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_board_lists_each_power_in_either_language() {
        let v = crate::variant::builtin("standard").expect("built in").expect("valid");
        let p = Position::initial(&v);
        let en = board(&v, &p, Lang::En);
        assert!(en.starts_with("The board, Spring of 1901:"), "{en}");
        assert!(
            en.contains("France: 3 supply centres; Fleet Brest, Army Marseilles, Army Paris."),
            "{en}"
        );
        let de = board(&v, &p, Lang::De);
        assert!(de.contains("Russland: 4 Versorgungszentren; "), "{de}");
        assert!(de.contains("Flotte St. Petersburg (Südküste)"), "{de}");
    }
}
