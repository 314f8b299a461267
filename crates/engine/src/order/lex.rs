//! Splitting an order line into words and signs, each with its byte position.

use std::cell::Cell;
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
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tokens<'a> {
    /// The tokens.
    pub list: &'a [Token<'a>],
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

/// The buffers [`with_tokens`] reads into, kept per thread between lines.
#[derive(Default)]
struct Buffers {
    keys: String,
    list: Vec<Token<'static>>,
}

thread_local! {
    /// This thread's buffers (taken while a line is read: a line read meanwhile gets new ones).
    static BUFFERS: Cell<Option<Buffers>> = const { Cell::new(None) };
}

/// An empty list on the allocation of `list`, for tokens of another lifetime.
fn recycle<'b>(mut list: Vec<Token<'_>>) -> Vec<Token<'b>> {
    list.clear();
    // Nothing is left to map: collecting in place keeps the allocation.
    list.into_iter().map(|_| unreachable!("the list is empty")).collect()
}

/// Splits a line into tokens (see [`tokenize_into`]) and hands them to `read`, in buffers this
/// thread keeps, so that reading a line allocates nothing once a line as long was read.
pub(crate) fn with_tokens<R>(line: &str, read: impl FnOnce(Result<Tokens<'_>, BadChar>) -> R) -> R {
    let Buffers { mut keys, list } = BUFFERS.with(Cell::take).unwrap_or_default();
    let mut list = recycle(list);
    let out = match tokenize_into(line, &mut keys, &mut list) {
        Ok(keys) => read(Ok(Tokens { list: &list, keys })),
        Err(bad) => read(Err(bad)),
    };
    let list = recycle(list);
    BUFFERS.with(|b| b.set(Some(Buffers { keys, list })));
    out
}

/// Splits a line into tokens in `list`, folding each word's key into `keys` (which the tokens
/// then borrow, and which is returned). Semicolons, exclamation marks and lone dots are dropped.
fn tokenize_into<'a>(line: &'a str, keys: &'a mut String, list: &mut Vec<Token<'a>>) -> Result<&'a str, BadChar> {
    keys.clear();
    keys.reserve(line.len());
    list.clear();
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
    for token in list.iter_mut() {
        token.key = keys.get(token.keys.clone()).unwrap_or_default();
    }
    Ok(keys)
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

    /// The tokens of `line` as owned values (kind, text, key, start).
    fn tokens(line: &str) -> Result<Vec<(TokenKind, String, String, usize)>, BadChar> {
        with_tokens(line, |t| {
            t.map(|t| {
                t.list
                    .iter()
                    .map(|t| (t.kind, t.text.to_string(), t.key.to_string(), t.start))
                    .collect()
            })
        })
    }

    fn kinds(line: &str) -> Vec<(TokenKind, String)> {
        tokens(line)
            .expect("tokenizes")
            .into_iter()
            .map(|(kind, text, _, _)| (kind, text))
            .collect()
    }

    fn keys(line: &str) -> Vec<String> {
        tokens(line).expect("tokenizes").into_iter().map(|t| t.2).collect()
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
        tokens(line).err()
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
        let toks = tokens("A Mar – Spa").expect("tokenizes");
        assert_eq!(toks[3].3, "A Mar – ".len());
        assert_eq!(toks[3].2, "spa");
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
        with_tokens("F Mid-Atlantic Ocean - Spain (South Coast)", |tokens| {
            let tokens = tokens.expect("tokenizes");
            assert_eq!(tokens.keys, "fmidatlanticoceanspainsouthcoast");
            assert_eq!(tokens.run_key(1, 5), "midatlanticocean");
            assert_eq!(tokens.run_key(8, 10), "southcoast");
            assert_eq!(tokens.run_key(5, 5), "");
            assert_eq!(tokens.run_key(5, 99), "");
        });
    }

    #[test]
    fn a_line_read_while_another_is_gets_buffers_of_its_own() {
        let outer = with_tokens("A Par - Bur", |t| {
            let inner = keys("F Bre H");
            (t.expect("tokenizes").keys.to_string(), inner)
        });
        assert_eq!(outer.0, "aparbur");
        assert_eq!(outer.1, ["f", "bre", "h"]);
        // And the buffers serve the next line afresh.
        assert_eq!(keys("A Mun S A Kie - Ruh"), ["a", "mun", "s", "a", "kie", "", "ruh"]);
    }
}
