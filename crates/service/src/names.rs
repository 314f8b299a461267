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
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '_' || c == '-')
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
        for bad in ["", "a@b", "x\u{301}", "tab\there", &"a".repeat(41)] {
            assert!(!is_account_name(&shown_form(bad)), "{bad:?}");
        }
    }
}
