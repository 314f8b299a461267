//! A mail's text as its client meant it: the plain-text part (its declared charset honoured;
//! 8-bit text without one that is not UTF-8 read as Windows-1252, which old clients write),
//! `format=flowed` text (RFC 3676) joined into the lines its writer typed, and HTML-only mail
//! turned into lines by its block structure (`div`, `p`, `br`, `li`, `tr`; `blockquote` as
//! `> ` quotes) with `html2text`. Each line keeps the number of the line it starts on.

use mail_parser::{Message, MessagePart, MimeHeaders, PartType};

/// The lines of a mail's text, each with its line number (from 1).
pub type NumberedLines = Vec<(usize, String)>;

/// The lines of the mail's first text part (an HTML part when it has no plain one).
pub fn lines_of(message: &Message<'_>) -> NumberedLines {
    let Some(part) = message.text_part(0) else {
        return Vec::new();
    };
    match &part.body {
        PartType::Html(html) => html_lines(html),
        PartType::Text(text) => {
            let text = undeclared_8bit(message, part).unwrap_or_else(|| text.to_string());
            let content_type = part.content_type();
            let attribute = |name: &str| {
                content_type
                    .and_then(|c| c.attribute(name))
                    .is_some_and(|v| v.eq_ignore_ascii_case(if name == "format" { "flowed" } else { "yes" }))
            };
            if attribute("format") {
                unflow(&text, attribute("delsp"))
            } else {
                numbered(&text)
            }
        }
        _ => Vec::new(),
    }
}

/// Each line of `text` with its number.
fn numbered(text: &str) -> NumberedLines {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.to_string())).collect()
}

/// The text of a part that declares no charset and is not UTF-8, read as Windows-1252 (a
/// superset of Latin-1); none when the part declares its charset or is UTF-8 (the parser read
/// it right).
fn undeclared_8bit(message: &Message<'_>, part: &MessagePart<'_>) -> Option<String> {
    let declared = part.content_type().and_then(|c| c.attribute("charset")).is_some();
    let text = part.text_contents()?;
    if declared || !text.contains('\u{FFFD}') {
        return None;
    }
    let raw = message
        .raw_message()
        .get(part.raw_body_offset() as usize..part.raw_end_offset() as usize)?;
    let encoding = part
        .content_transfer_encoding()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let bytes = match encoding.as_str() {
        "base64" => mail_parser::decoders::base64::base64_decode(raw)?,
        "quoted-printable" => mail_parser::decoders::quoted_printable::quoted_printable_decode(raw)?,
        _ => raw.to_vec(),
    };
    if let Ok(text) = std::str::from_utf8(&bytes) {
        return Some(text.to_string());
    }
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&bytes);
    Some(text.into_owned())
}

/// `format=flowed` text (RFC 3676) as the lines its writer typed: a line that ends in a space
/// goes on in the next line of the same quote depth (with `delsp`, that space is dropped); a
/// space-stuffed line loses its first space; the signature separator `-- ` stays a line. Each
/// joined line has the number of its first line; quotes keep their `>` marks.
pub fn unflow(text: &str, delsp: bool) -> NumberedLines {
    let mut out: NumberedLines = Vec::new();
    // The line being joined: its number, quote depth and text so far.
    let mut open: Option<(usize, usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim_end_matches('\r');
        let depth = raw.chars().take_while(|&c| c == '>').count();
        let rest = &raw[depth..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let soft = rest.ends_with(' ') && rest != "-- ";
        let piece = if soft && delsp { &rest[..rest.len() - 1] } else { rest };
        if rest == "-- " {
            // The signature separator is a line of its own, even after a soft break.
            if let Some((n, d, joined)) = open.take() {
                out.push((n, quoted(d, &joined)));
            }
        }
        match open.take() {
            Some((n, d, mut joined)) if d == depth => {
                joined.push_str(piece);
                open = Some((n, d, joined));
            }
            Some((n, d, joined)) => {
                out.push((n, quoted(d, &joined)));
                open = Some((i + 1, depth, piece.to_string()));
            }
            None => open = Some((i + 1, depth, piece.to_string())),
        }
        if !soft && let Some((n, d, joined)) = open.take() {
            out.push((n, quoted(d, &joined)));
        }
    }
    if let Some((n, d, joined)) = open {
        out.push((n, quoted(d, &joined)));
    }
    out
}

/// A line at quote depth `depth`, with its `>` marks.
fn quoted(depth: usize, text: &str) -> String {
    if depth == 0 {
        text.to_string()
    } else {
        format!("{} {text}", ">".repeat(depth))
    }
}

/// The lines of an HTML body by its block structure; quoted blocks start with `> `, and the
/// bullets and numbers html2text gives list items are left out (an order in a list is an order).
fn html_lines(html: &str) -> NumberedLines {
    let text = html2text::config::plain_no_decorate()
        .raw_mode(true)
        .allow_width_overflow()
        .string_from_read(html.as_bytes(), 10_000)
        .unwrap_or_else(|e| {
            // Rendering does not fail with overflow allowed; should it, the tags are dropped
            // rather than the mail.
            eprintln!("reading an HTML mail: {e}");
            html.to_string()
        });
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, without_list_marker(line).to_string()))
        .collect()
}

/// A line without the bullet (`* `) or number (`3. `) html2text gives a list item.
fn without_list_marker(line: &str) -> &str {
    let (quote, rest) = line.split_at(line.len() - line.trim_start_matches(['>', ' ']).len());
    if !quote.is_empty() {
        return line;
    }
    if let Some(item) = rest.strip_prefix("* ") {
        return item;
    }
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    match rest[digits..].strip_prefix(". ") {
        Some(item) if digits > 0 => item,
        _ => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(raw: &str) -> Vec<String> {
        let message = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .expect("a mail");
        lines_of(&message)
            .into_iter()
            .map(|(_, l)| l)
            .filter(|l| !l.trim().is_empty())
            .collect()
    }

    #[test]
    fn flowed_lines_are_joined_and_delsp_drops_the_soft_space() {
        let text = "SIGNON England g pw\r\nA Lon - \r\nWal\r\n> quoted \r\n> more\r\n-- \r\nme\r\n";
        let joined = unflow(text, false);
        assert_eq!(
            joined,
            [
                (1, "SIGNON England g pw".to_string()),
                (2, "A Lon - Wal".into()),
                (4, "> quoted more".into()),
                (6, "-- ".into()),
                (7, "me".into())
            ]
        );
        assert_eq!(unflow("F Lon - Nt \r\nh\r\n", true), [(1, "F Lon - Nth".to_string())]);
        assert_eq!(unflow("  stuffed\r\n", false), [(1, " stuffed".to_string())]);
        assert_eq!(
            unflow("Thanks \r\n-- \r\nAnna\r\n", false),
            [(1, "Thanks ".to_string()), (2, "-- ".into()), (3, "Anna".into())]
        );
    }

    #[test]
    fn a_flowed_mail_is_read_as_typed() {
        let raw = "From: a@b.de\r\nContent-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n\r\nA M\u{fc}n - Ti \r\nr\r\n";
        assert_eq!(lines(raw), ["A Mün - Tir"]);
    }

    #[test]
    fn undeclared_8bit_text_that_is_not_utf8_is_read_as_windows_1252() {
        let mut raw = b"From: a@b.de\r\nContent-Transfer-Encoding: 8bit\r\n\r\nA M".to_vec();
        raw.extend_from_slice(&[0xFC]);
        raw.extend_from_slice(b"nchen - Tirol\r\n");
        let message = mail_parser::MessageParser::default().parse(&raw).expect("a mail");
        assert_eq!(lines_of(&message), [(1, "A München - Tirol".to_string())]);
        let qp = "From: a@b.de\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nA M=FCnchen H\r\n";
        assert_eq!(lines(qp), ["A München H"]);
        // UTF-8 without a declared charset stays UTF-8.
        assert_eq!(lines("From: a@b.de\r\n\r\nA München H\r\n"), ["A München H"]);
    }

    #[test]
    fn html_blocks_become_lines_and_blockquotes_quotes() {
        let raw = "From: a@b.de\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
            <div dir=\"ltr\"><div>SIGNON England g pw</div><div>A Lon - Wal<br>F Edi - Nth</div>\
            <ul><li>F Lon - Eng</li></ul><ol><li>A Lvp H</li></ol>\
            <blockquote>A Lon H</blockquote></div>\r\n";
        assert_eq!(
            lines(raw),
            [
                "SIGNON England g pw",
                "A Lon - Wal",
                "F Edi - Nth",
                "F Lon - Eng",
                "A Lvp H",
                "> A Lon H"
            ]
        );
    }
}
