//! The words that mark a report's language: words the English reports (and pages and mails)
//! use that German never does, and the other way round. Tests check that a text in one
//! language holds none of the other's.

use super::Lang;

/// Words of the English reports that German never uses.
pub const ENGLISH: &[&str] = &[
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
    "orders",
    "deadline",
    "the",
    "of",
    "and",
    "to",
];

/// Words of the German reports that English never uses (not `nach`: the English help shows
/// the German notation `Paris nach Burgund`).
pub const GERMAN: &[&str] = &[
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
    "befehle",
    "abgabeschluss",
    "der",
    "die",
    "das",
    "und",
    "keine",
    "nächste",
];

/// The words of `lang`'s vocabulary that `text` holds (whole words, any case).
pub fn words_in(text: &str, lang: Lang) -> Vec<&'static str> {
    let vocabulary = match lang {
        Lang::En => ENGLISH,
        Lang::De => GERMAN,
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_are_found_in_any_case() {
        assert_eq!(
            words_in("Army Paris HOLDS; the armistice", Lang::En),
            ["army", "holds", "the"]
        );
        assert_eq!(words_in("Die Armee hält.", Lang::De), ["armee", "hält", "die"]);
        assert_eq!(words_in("Die Armee hält.", Lang::En), [] as [&str; 0]);
    }
}
