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
}
