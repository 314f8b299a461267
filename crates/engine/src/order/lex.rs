//! Splitting an order line into words and signs, each with its byte position.

use std::ops::Range;

use crate::map::names::push_name_key;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A word: letters, digits, dots and apostrophes.
    Word,
    /// A move arrow: `-`, `–`, `—`, `->`, `=>`, `→`, `>`.
    Dash,
    /// `/` (between a province and its coast).
    Slash,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `:` (after a power name).
    Colon,
    /// `,`.
    Comma,
}

/// One token of an order line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind,
    /// The text as written.
    pub text: &'a str,
    /// Byte offset in the line.
    pub start: usize,
    /// The folded key of a word (empty for signs).
    pub key: &'a str,
    /// Where `key` lies in the line's keys ([`Tokens::keys`]): the keys of the tokens follow one
    /// another there, so the key of a run of tokens is one slice.
    pub keys: Range<usize>,
}

/// The tokens of a line, and their folded keys one after another.
#[derive(Clone, Debug)]
pub(crate) struct Tokens<'a> {
    /// The tokens.
    pub list: Vec<Token<'a>>,
    /// Every token's key, in order, with nothing between them.
    pub keys: &'a str,
}

impl<'a> Tokens<'a> {
    /// The keys of `tokens[from..to]` run together (empty when the range is).
    pub fn run_key(&self, from: usize, to: usize) -> &'a str {
        match (
            self.list.get(from),
            to.checked_sub(1).and_then(|last| self.list.get(last)),
        ) {
            (Some(first), Some(last)) if from < to => &self.keys[first.keys.start..last.keys.end],
            _ => "",
        }
    }
}

/// A character that no order may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadChar {
    pub ch: char,
    pub at: usize,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\'' || c == '’' || c == '*'
}

/// Splits a line into tokens, folding each word's key into `keys` (which the tokens then
/// borrow). Semicolons, exclamation marks and lone dots are dropped.
pub(crate) fn tokenize<'a>(line: &'a str, keys: &'a mut String) -> Result<Tokens<'a>, BadChar> {
    keys.clear();
    keys.reserve(line.len());
    let mut list = Vec::with_capacity(line.len() / 3 + 1);
    let mut at = 0;
    while let Some(ch) = char_at(line, at) {
        let kind = match ch {
            c if c.is_whitespace() || c == ';' || c == '!' || c == '"' => {
                at += c.len_utf8();
                continue;
            }
            '-' | '–' | '—' | '=' | '→' | '>' => TokenKind::Dash,
            '/' | '(' | '[' | ')' | ']' | ':' | ',' => sign_kind(ch),
            c if is_word_char(c) => TokenKind::Word,
            _ => return Err(BadChar { ch, at }),
        };
        let from = keys.len();
        let end = match kind {
            TokenKind::Dash => arrow_end(line, at, ch)?,
            TokenKind::Word => word_end(line, at, keys),
            _ => at + ch.len_utf8(),
        };
        let text = &line[at..end];
        let start = at;
        at = end;
        if kind == TokenKind::Word && keys.len() == from && !text.contains('*') {
            continue;
        }
        list.push(Token {
            kind,
            text,
            start,
            // Filled in below, once every key is in.
            key: "",
            keys: from..keys.len(),
        });
    }
    let keys: &'a str = keys;
    for token in &mut list {
        token.key = keys.get(token.keys.clone()).unwrap_or_default();
    }
    Ok(Tokens { list, keys })
}

/// The character at byte `at`, if any.
fn char_at(line: &str, at: usize) -> Option<char> {
    match line.as_bytes().get(at) {
        Some(&b) if b.is_ascii() => Some(char::from(b)),
        _ => line.get(at..)?.chars().next(),
    }
}

/// Where the word starting at `at` ends, with its folded key appended to `keys`: ASCII letters
/// and digits are folded as they are met, the rest of a word with other letters as a whole.
fn word_end(line: &str, mut at: usize, keys: &mut String) -> usize {
    let bytes = line.as_bytes();
    while let Some(&b) = bytes.get(at) {
        match b {
            b'a'..=b'z' | b'0'..=b'9' => keys.push(char::from(b)),
            b'A'..=b'Z' => keys.push(char::from(b.to_ascii_lowercase())),
            b'.' | b'\'' | b'*' => {}
            _ if b.is_ascii() => return at,
            _ => break,
        }
        at += 1;
    }
    let rest = at;
    while let Some(c) = char_at(line, at).filter(|&c| is_word_char(c)) {
        at += c.len_utf8();
    }
    push_name_key(&line[rest..at], keys);
    at
}

/// The kind of a sign (not a word).
fn sign_kind(ch: char) -> TokenKind {
    match ch {
        '/' => TokenKind::Slash,
        '(' | '[' => TokenKind::Open,
        ')' | ']' => TokenKind::Close,
        ':' => TokenKind::Colon,
        ',' => TokenKind::Comma,
        _ => TokenKind::Dash,
    }
}

/// Where a move arrow starting with `ch` at `at` ends (`->`, `=>` are one arrow; `=` alone is
/// no sign).
fn arrow_end(line: &str, at: usize, ch: char) -> Result<usize, BadChar> {
    let end = at + ch.len_utf8();
    if matches!(ch, '-' | '=' | '–' | '—') && line.as_bytes().get(end) == Some(&b'>') {
        return Ok(end + 1);
    }
    if ch == '=' {
        return Err(BadChar { ch, at });
    }
    Ok(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(TokenKind, String)> {
        let mut keys = String::new();
        tokenize(line, &mut keys)
            .expect("tokenizes")
            .list
            .into_iter()
            .map(|t| (t.kind, t.text.to_string()))
            .collect()
    }

    fn keys(line: &str) -> Vec<String> {
        let mut keys = String::new();
        let tokens = tokenize(line, &mut keys).expect("tokenizes");
        tokens.list.iter().map(|t| t.key.to_string()).collect()
    }

    #[test]
    fn words_fold_as_names_do() {
        for word in [
            "Par",
            "MÜNCHEN",
            "St.Petersburg",
            "Spain’s",
            "x*y",
            "Ärmelkanal",
            "rOMé1",
        ] {
            assert_eq!(keys(word), [crate::map::names::name_key(word)], "{word}");
        }
        assert_eq!(keys("A Mün-Tyr"), ["a", "muen", "", "tyr"]);
    }

    fn bad(line: &str) -> Option<BadChar> {
        tokenize(line, &mut String::new()).err()
    }

    #[test]
    fn arrows_of_every_kind_are_one_token() {
        for arrow in ["-", "–", "—", "->", "=>", "→", ">"] {
            let line = format!("A Tyr {arrow} Mun");
            let toks = kinds(&line);
            assert_eq!(toks.len(), 4, "{line}");
            assert_eq!(toks[2], (TokenKind::Dash, arrow.to_string()));
        }
    }

    #[test]
    fn positions_are_byte_offsets() {
        let mut keys = String::new();
        let toks = tokenize("A Mar – Spa", &mut keys).expect("tokenizes").list;
        assert_eq!(toks[3].start, "A Mar – ".len());
        assert_eq!(toks[3].key, "spa");
    }

    #[test]
    fn trailing_punctuation_is_dropped_and_odd_signs_rejected() {
        assert_eq!(kinds("A Par H.").len(), 3);
        assert_eq!(kinds("A Par H;").len(), 3);
        assert_eq!(bad("A Par # H"), Some(BadChar { ch: '#', at: 6 }));
        assert_eq!(bad("A Par = H"), Some(BadChar { ch: '=', at: 6 }));
    }

    #[test]
    fn keys_of_runs_of_tokens_are_one_slice() {
        let mut keys = String::new();
        let tokens = tokenize("F Mid-Atlantic Ocean - Spain (South Coast)", &mut keys).expect("tokenizes");
        assert_eq!(tokens.keys, "fmidatlanticoceanspainsouthcoast");
        assert_eq!(tokens.run_key(1, 5), "midatlanticocean");
        assert_eq!(tokens.run_key(8, 10), "southcoast");
        assert_eq!(tokens.run_key(5, 5), "");
        assert_eq!(tokens.run_key(5, 99), "");
    }
}
