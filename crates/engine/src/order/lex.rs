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
        match (self.list.get(from), to.checked_sub(1).and_then(|last| self.list.get(last))) {
            (Some(first), Some(last)) if from < to => &self.keys[first.keys.start..last.keys.end],
            _ => "",
        }
    }
}

/// A token whose key lies in the keys' buffer, before the buffer is complete.
struct Pending {
    kind: TokenKind,
    text: Range<usize>,
    keys: Range<usize>,
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
    let mut pending = Vec::with_capacity(line.len() / 3 + 1);
    let mut chars = line.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        let end = match ch {
            c if c.is_whitespace() || c == ';' || c == '!' || c == '"' => continue,
            '-' | '–' | '—' | '=' | '→' | '>' => arrow_end(line, at, ch, &mut chars)?,
            '/' | '(' | '[' | ')' | ']' | ':' | ',' => at + ch.len_utf8(),
            c if is_word_char(c) => {
                let mut end = at + c.len_utf8();
                while let Some(&(i, n)) = chars.peek().filter(|&&(_, n)| is_word_char(n)) {
                    chars.next();
                    end = i + n.len_utf8();
                }
                let from = keys.len();
                push_name_key(&line[at..end], keys);
                if keys.len() > from || line[at..end].contains('*') {
                    pending.push(Pending {
                        kind: TokenKind::Word,
                        text: at..end,
                        keys: from..keys.len(),
                    });
                }
                continue;
            }
            _ => return Err(BadChar { ch, at }),
        };
        let here = keys.len();
        pending.push(Pending {
            kind: sign_kind(ch),
            text: at..end,
            keys: here..here,
        });
    }
    let keys: &'a str = keys;
    let list = pending
        .into_iter()
        .map(|p| Token {
            kind: p.kind,
            text: &line[p.text.clone()],
            start: p.text.start,
            key: &keys[p.keys.clone()],
            keys: p.keys,
        })
        .collect();
    Ok(Tokens { list, keys })
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
fn arrow_end(
    line: &str,
    at: usize,
    ch: char,
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
) -> Result<usize, BadChar> {
    let mut end = at + ch.len_utf8();
    if matches!(ch, '-' | '=' | '–' | '—') {
        if let Some(&(i, '>')) = chars.peek() {
            chars.next();
            end = i + 1;
        }
    }
    if ch == '=' && end == at + 1 {
        return Err(BadChar { ch, at });
    }
    debug_assert!(line.is_char_boundary(end));
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
