//! How account and game names are compared: two names are one name when they read the same,
//! whatever their letter case, their Unicode composition (`É` as one character or as `E` and a
//! combining accent) or compatibility forms (fullwidth `Ｅｍｉｌｅ`, ligatures such as `ﬁ`).

use unicode_normalization::UnicodeNormalization as _;

/// The form a name is compared in (stored as `name_key`, unique): trimmed, Unicode NFKC, lower
/// case, and NFKC again (lower-casing may leave a string that is not normalised).
pub fn name_key(name: &str) -> String {
    let folded: String = name.trim().nfkc().collect::<String>().to_lowercase();
    folded.nfkc().collect()
}

/// A name as it is stored and shown: trimmed, in Unicode NFC (an accent typed as a combining
/// mark is joined to its letter, as most keyboards write it).
pub fn shown_form(name: &str) -> String {
    name.trim().nfc().collect()
}

/// Whether a name may name an account: 1 to 40 characters, each (in compatibility form, so
/// fullwidth letters and accents count) a letter, digit, space, `_` or `-`.
pub fn is_account_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=40).contains(&count)
        && name
            .nfkc()
            .all(|c| shows_as_itself(c) && (c.is_alphanumeric() || c == ' ' || c == '_' || c == '-'))
}

/// Whether a name may name a game: 1 to 40 characters, each visible as itself.
pub fn is_game_name(name: &str) -> bool {
    (1..=40).contains(&name.chars().count()) && name.chars().all(shows_as_itself)
}

/// Whether a character of a name shows as itself wherever the name is printed: not a control
/// character (line breaks forge lines in mails), not an invisible format character, not a mark
/// that turns the direction of the text around it, not a character drawn as nothing (tags,
/// variation selectors, the Hangul fillers, the combining grapheme joiner).
fn shows_as_itself(c: char) -> bool {
    !c.is_control()
        && !matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
        && (c == ' ' || !c.is_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_composition_and_width_do_not_make_another_name() {
        let composed = "\u{c9}mile";
        let decomposed = "E\u{301}mile";
        let key = name_key("émile");
        for same in [composed, decomposed, " ÉMILE ", "Ｅ\u{301}ｍｉｌｅ", "ÉmIlE"] {
            assert_eq!(name_key(same), key, "{same:?}");
        }
        assert_eq!(name_key("ﬁnn"), name_key("Finn"));
        assert_ne!(name_key("Emile"), key, "an accent still makes another name");
        assert_ne!(name_key("Anna"), name_key("Anna2"));
    }

    #[test]
    fn names_are_kept_composed_and_may_hold_accents_typed_apart() {
        assert_eq!(shown_form(" E\u{301}mile "), "\u{c9}mile");
        for good in ["Émile", "E\u{301}mile", "Ｅ\u{301}ｍｉｌｅ", "Anna_2-b c"] {
            assert!(is_account_name(&shown_form(good)), "{good:?}");
        }
        for bad in [
            "",
            "a@b",
            "x\u{301}",
            "tab\there",
            &"a".repeat(41),
            "\u{3164}",
            "anna\u{3164}",
            "ann\u{FE0F}a",
        ] {
            assert!(!is_account_name(&shown_form(bad)), "{bad:?}");
        }
    }

    #[test]
    fn line_breaks_controls_and_direction_marks_are_not_part_of_names() {
        for c in [
            '\n',
            '\r',
            '\t',
            '\u{7}',
            '\u{202E}',
            '\u{2066}',
            '\u{200B}',
            '\u{FEFF}',
            '\u{2028}',
            '\u{85}',
            '\u{3000}',
            '\u{E0041}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{3164}',
            '\u{FFA0}',
            '\u{115F}',
            '\u{034F}',
        ] {
            assert!(!shows_as_itself(c), "{:?}", c);
        }
        for c in "Herbst 1901: Ärger & Co. – 東京 #2".chars() {
            assert!(shows_as_itself(c), "{c:?}");
        }
    }

    #[test]
    fn game_names_are_short_and_visible() {
        assert!(is_game_name("Ärger – 1901") && !is_game_name("") && !is_game_name(&"x".repeat(41)));
        assert!(!is_game_name("Evil\nYou play GERMANY."));
    }
}
