//! Folding names to lookup keys: lower case, umlauts spelt out, accents and punctuation dropped.

/// Folds a name to its lookup key: lower case, German umlauts spelt out (ä → ae, ß → ss), accents
/// dropped, and everything but letters and digits removed ("St. Petersburg" → "stpetersburg").
pub fn name_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    push_name_key(text, &mut key);
    key
}

/// Appends the folded key of `text` (see [`name_key`]) to `key`.
pub fn push_name_key(text: &str, key: &mut String) {
    key.reserve(text.len());
    fold(text, |c| key.push(c));
}

/// Hands the characters of `text`'s folded key to `out` one by one: ASCII letters and digits
/// byte by byte (the common case), other characters through their lower case.
fn fold(text: &str, mut out: impl FnMut(char)) {
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        for b in rest[..ascii].bytes() {
            if b.is_ascii_alphanumeric() {
                out(char::from(b.to_ascii_lowercase()));
            }
        }
        rest = &rest[ascii..];
        let mut chars = rest.chars();
        if let Some(ch) = chars.next() {
            push_folded(ch, &mut out);
            rest = chars.as_str();
        }
    }
}

/// Hands the folded form of one character to `out`.
fn push_folded(ch: char, out: &mut impl FnMut(char)) {
    for lower in ch.to_lowercase() {
        match lower {
            'ä' => "ae".chars().for_each(&mut *out),
            'ö' => "oe".chars().for_each(&mut *out),
            'ü' => "ue".chars().for_each(&mut *out),
            'ß' => "ss".chars().for_each(&mut *out),
            'à' | 'á' | 'â' | 'å' => out('a'),
            'è' | 'é' | 'ê' | 'ë' => out('e'),
            'ì' | 'í' | 'î' | 'ï' => out('i'),
            'ò' | 'ó' | 'ô' => out('o'),
            'ù' | 'ú' | 'û' => out('u'),
            'ç' => out('c'),
            c if c.is_alphanumeric() => out(c),
            _ => {}
        }
    }
}

/// The folded key of a short word, kept without allocating: for comparing a word with fixed
/// keywords, none of which is longer than [`ShortKey::CAPACITY`] bytes.
#[derive(Clone, Copy, Debug)]
pub struct ShortKey {
    bytes: [u8; ShortKey::CAPACITY],
    len: usize,
    too_long: bool,
}

impl ShortKey {
    /// The longest key kept.
    pub const CAPACITY: usize = 32;

    /// Folds `text` (see [`name_key`]).
    pub fn new(text: &str) -> ShortKey {
        let mut key = ShortKey {
            bytes: [0; ShortKey::CAPACITY],
            len: 0,
            too_long: false,
        };
        fold(text, |c| {
            let mut utf8 = [0; 4];
            let encoded = c.encode_utf8(&mut utf8).as_bytes();
            match key.bytes.get_mut(key.len..key.len + encoded.len()) {
                Some(room) => {
                    room.copy_from_slice(encoded);
                    key.len += encoded.len();
                }
                None => key.too_long = true,
            }
        });
        key
    }

    /// The key, or an empty key when it was longer than [`ShortKey::CAPACITY`] (which no
    /// keyword is, and which compares equal to no keyword).
    pub fn as_str(&self) -> &str {
        if self.too_long {
            return "";
        }
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }

    /// Whether the text was too long to keep.
    pub fn too_long(&self) -> bool {
        self.too_long
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fold one character at a time, as `name_key` was first written.
    fn slow_key(text: &str) -> String {
        let mut key = String::new();
        text.chars().for_each(|c| push_folded(c, &mut |f| key.push(f)));
        key
    }

    proptest::proptest! {
        #[test]
        fn the_ascii_shortcut_folds_as_every_character_does(text in "[A-Za-z0-9 .'äöüÄÖÜßéÉçİ\\-–]{0,24}") {
            proptest::prop_assert_eq!(name_key(&text), slow_key(&text));
            let (short, slow) = (ShortKey::new(&text), slow_key(&text));
            proptest::prop_assert_eq!(short.too_long(), slow.len() > ShortKey::CAPACITY);
            if !short.too_long() {
                proptest::prop_assert_eq!(short.as_str(), slow.as_str());
            }
        }
    }

    #[test]
    fn short_keys_fold_without_allocating() {
        assert_eq!(ShortKey::new("Frühjahr").as_str(), "fruehjahr");
        assert_eq!(ShortKey::new("IF").as_str(), "if");
        let long = ShortKey::new("abcdefghijklmnopqrstuvwxyz0123456789");
        assert!(long.too_long());
        assert_eq!(long.as_str(), "");
        assert_eq!(ShortKey::new(&"ä".repeat(16)).as_str(), "ae".repeat(16));
    }
}
