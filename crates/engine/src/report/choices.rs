//! The report's lines about the choices of a scenario's first phase (Hegemony 5.1.7): what a
//! country chose, or that it chose nothing and its first set stands.

use std::fmt::Write as _;

use super::{Lang, Words};
use crate::choice::ChoiceMade;
use crate::scenario::{Choice, Piece};
use crate::variant::Variant;

/// One piece in the report's language: `Fleet Ireland`, `Marlborough (Netherlands)`, `the
/// overseas centre Mid-Atlantic Ocean`.
pub(super) fn piece_text(w: &Words, variant: &Variant, piece: Piece) -> String {
    let de = w.lang == Lang::De;
    match piece {
        Piece::Unit(kind, at) => format!("{} {}", w.unit(kind), w.place(variant, at)),
        Piece::Leader(leader, at) => {
            let name = variant
                .leaders
                .get(leader.index())
                .map_or_else(String::new, |x| if de { x.name_de.clone() } else { x.name.clone() });
            format!("{name} ({})", w.place(variant, at))
        }
        Piece::Overseas(p) => {
            let place = w.place(variant, variant.map.province(p).main);
            if de {
                format!("Überseezentrum {place}")
            } else {
                format!("the overseas centre {place}")
            }
        }
    }
}

/// The pieces of one set, joined.
fn set_text(w: &Words, variant: &Variant, set: &[Piece]) -> String {
    let and = if w.lang == Lang::De { " und " } else { " and " };
    let texts: Vec<String> = set.iter().map(|&p| piece_text(w, variant, p)).collect();
    texts.join(and)
}

/// One line per choice nobody ordered (5.1.7.4) or whose chosen set could not be placed: the
/// first set stands.
pub(super) fn unchosen_lines(w: &Words, variant: &Variant, made: &[ChoiceMade], out: &mut String) {
    let choices: &[Choice] = variant.scenario.as_ref().map_or(&[], |s| &s.choices);
    for m in made.iter().filter(|m| !m.ordered || m.blocked) {
        let Some(choice) = choices.get(m.choice) else {
            continue;
        };
        let Some(set) = choice.options.get(m.option) else {
            continue;
        };
        let power = w.power(variant, m.power);
        let pieces = set_text(w, variant, set);
        let _ = match (w.lang, m.blocked) {
            (Lang::De, false) => writeln!(out, "{power}: keine Wahl getroffen; es bleiben: {pieces}."),
            (Lang::De, true) => writeln!(
                out,
                "{power}: die Wahl lässt sich nicht ausführen; es bleiben: {pieces}."
            ),
            (Lang::En, false) => writeln!(out, "{power}: No choice made; {pieces} stay."),
            (Lang::En, true) => writeln!(out, "{power}: The chosen pieces cannot be placed; {pieces} stay."),
        };
    }
}

/// The line of a `Choose` order: the whole set the piece belongs to.
pub(super) fn chosen_text(
    w: &Words,
    variant: &Variant,
    made: &[ChoiceMade],
    power: Option<crate::ids::PowerId>,
    piece: Piece,
) -> String {
    let choices: &[Choice] = variant.scenario.as_ref().map_or(&[], |s| &s.choices);
    let set = made
        .iter()
        .filter_map(|m| choices.get(m.choice))
        .filter(|c| Some(c.power) == power)
        .find_map(|c| crate::choice::option_of(variant, c, piece).map(|k| &c.options[k]));
    let pieces = match set {
        Some(set) => set_text(w, variant, set),
        None => piece_text(w, variant, piece),
    };
    if w.lang == Lang::De {
        format!("wählt {pieces}.")
    } else {
        format!("Chooses {pieces}.")
    }
}
