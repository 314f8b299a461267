//! Splitting an order line into words and signs, each with its byte position.

use crate::map::names::name_key;

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
    pub key: String,
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

/// Splits a line into tokens. Semicolons, exclamation marks and lone dots are dropped.
pub(crate) fn tokenize(line: &str) -> Result<Vec<Token<'_>>, BadChar> {
    let mut tokens = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        let single = |kind| Token {
            kind,
            text: &line[at..at + ch.len_utf8()],
            start: at,
            key: String::new(),
        };
        match ch {
            c if c.is_whitespace() || c == ';' || c == '!' || c == '"' => {}
            '-' | '–' | '—' | '=' | '→' | '>' => {
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
                tokens.push(Token {
                    kind: TokenKind::Dash,
                    text: &line[at..end],
                    start: at,
                    key: String::new(),
                });
            }
            '/' => tokens.push(single(TokenKind::Slash)),
            '(' | '[' => tokens.push(single(TokenKind::Open)),
            ')' | ']' => tokens.push(single(TokenKind::Close)),
            ':' => tokens.push(single(TokenKind::Colon)),
            ',' => tokens.push(single(TokenKind::Comma)),
            c if is_word_char(c) => {
                let mut end = at + c.len_utf8();
                while let Some(&(i, n)) = chars.peek() {
                    if !is_word_char(n) {
                        break;
                    }
                    chars.next();
                    end = i + n.len_utf8();
                }
                let text = &line[at..end];
                let key = name_key(text);
                if !key.is_empty() || text.contains('*') {
                    tokens.push(Token {
                        kind: TokenKind::Word,
                        text,
                        start: at,
                        key,
                    });
                }
            }
            _ => return Err(BadChar { ch, at }),
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(TokenKind, String)> {
        tokenize(line)
            .expect("tokenizes")
            .into_iter()
            .map(|t| (t.kind, t.text.to_string()))
            .collect()
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
        let toks = tokenize("A Mar – Spa").expect("tokenizes");
        assert_eq!(toks[3].start, "A Mar – ".len());
        assert_eq!(toks[3].key, "spa");
    }

    #[test]
    fn trailing_punctuation_is_dropped_and_odd_signs_rejected() {
        assert_eq!(kinds("A Par H.").len(), 3);
        assert_eq!(kinds("A Par H;").len(), 3);
        assert_eq!(tokenize("A Par # H"), Err(BadChar { ch: '#', at: 6 }));
        assert_eq!(tokenize("A Par = H"), Err(BadChar { ch: '=', at: 6 }));
    }
}
