//! What in a mail's text its sender did not write now: quoted lines, the attribution line
//! above a quote, the header block of the message replied to or forwarded (with everything
//! below it), and the signature. The markers of the common mail programs in English and
//! German are listed in docs/MAIL.md; each is tested here.

/// Lines that end the sender's own text: a forwarded or replied-to message starts here (what
/// follows is not marked with `>`). Compared case-insensitively with the trimmed line's start.
const ENDS_OWN_TEXT: &[&str] = &[
    // Forwards: Thunderbird, Gmail, Apple Mail, Outlook.
    "-------- forwarded message --------",
    "---------- forwarded message ---------",
    "begin forwarded message:",
    "-------- weitergeleitete nachricht --------",
    "---------- weitergeleitete nachricht ---------",
    "anfang der weitergeleiteten nachricht:",
    // The message replied to: Outlook (old), Thunderbird (old).
    "-----original message-----",
    "-----ursprüngliche nachricht-----",
    "-------- original message --------",
    "-------- ursprüngliche nachricht --------",
];

/// The signatures phones and mail apps add: a short line (at most [`SIGNATURE_CHARS`]) that
/// starts with the first text and ends with the second (if given), case-insensitively; the
/// signature and everything after it are not read.
const SIGNATURES: &[(&str, &str)] = &[
    ("sent from my ", ""),
    ("von meinem ", " gesendet"),
    ("gesendet von meinem ", ""),
    ("get outlook for ", ""),
    ("outlook für ", " beziehen"),
    ("sent from outlook", ""),
    ("gesendet von outlook", ""),
    ("sent from mail for windows", ""),
    ("von mail für windows gesendet", ""),
    ("sent from yahoo mail", ""),
    ("sent with proton mail", ""),
];

/// The longest line read as a signature of [`SIGNATURES`].
const SIGNATURE_CHARS: usize = 60;

/// The first field of the header block Outlook writes above the message replied to.
const HEADER_FROM: &[&str] = &["from:", "von:"];

/// The other fields of that block, one of which follows within [`HEADER_REACH`] lines.
const HEADER_FIELDS: &[&str] = &[
    "sent:",
    "gesendet:",
    "date:",
    "datum:",
    "to:",
    "an:",
    "subject:",
    "betreff:",
    "cc:",
];

/// How many lines after `From:` another header field is looked for.
const HEADER_REACH: usize = 4;

/// The lines the sender wrote, with their numbers: quoted lines (`>`), the attribution line (or
/// two) above a quote, and everything from a forward, reply header or signature marker on are
/// left out.
pub fn own_lines(lines: &[(usize, String)]) -> Vec<(usize, String)> {
    let texts: Vec<&str> = lines.iter().map(|(_, l)| l.trim()).collect();
    let quoted = |i: usize| texts.get(i).is_some_and(|l| l.starts_with('>'));
    // Whether a quote follows line `i` (blank lines between, as Gmail writes them).
    let quote_after = |i: usize| {
        let next = (i + 1..texts.len()).find(|&j| !texts[j].is_empty());
        next.is_some_and(quoted)
    };
    let mut kept = Vec::new();
    for (i, (number, _)) in lines.iter().enumerate() {
        let line = texts[i];
        if ends_own_text(&texts, i) {
            break;
        }
        if quoted(i) {
            continue;
        }
        // "On … wrote:" above a quote, also when the program wrapped it over two lines.
        let lower = line.to_lowercase();
        let first_half = (lower.starts_with("on ") || lower.starts_with("am "))
            && texts.get(i + 1).is_some_and(|next| is_attribution(next))
            && quote_after(i + 1);
        if first_half || (is_attribution(line) && quote_after(i)) {
            continue;
        }
        // A drawn rule (an HTML `<hr>`) is no line of text.
        if !line.is_empty() && line.chars().all(|c| c == '─') {
            continue;
        }
        kept.push((*number, line.to_string()));
    }
    kept
}

/// Whether line `i` ends the sender's own text (see [`ENDS_OWN_TEXT`], the signature separator
/// `-- `, and the header block of a message replied to).
fn ends_own_text(texts: &[&str], i: usize) -> bool {
    let line = texts[i];
    let lower = line.to_lowercase();
    if line == "--" || ENDS_OWN_TEXT.iter().any(|m| lower.starts_with(m)) {
        return true;
    }
    let short = line.chars().count() <= SIGNATURE_CHARS;
    if short
        && SIGNATURES
            .iter()
            .any(|(start, end)| lower.starts_with(start) && lower.ends_with(end))
    {
        return true;
    }
    // Outlook: a line of underscores, then the header block.
    if line.len() >= 10 && line.chars().all(|c| c == '_') {
        return (i + 1..texts.len().min(i + 3)).any(|j| starts_header(texts, j));
    }
    starts_header(texts, i)
}

/// Whether a header block starts at line `i`: `From:` / `Von:` with an address (`@` or `<`)
/// and another field soon after, or with two other fields soon after (a letter that starts
/// "Von: Deutschland / An: Frankreich" is the writer's own).
fn starts_header(texts: &[&str], i: usize) -> bool {
    let field = |line: &str, names: &[&str]| {
        let lower = line.to_lowercase();
        names.iter().any(|n| lower.starts_with(n))
    };
    if !field(texts[i], HEADER_FROM) {
        return false;
    }
    let fields = texts
        .iter()
        .skip(i + 1)
        .take(HEADER_REACH)
        .filter(|l| field(l, HEADER_FIELDS))
        .count();
    let address = texts[i].contains('@') || texts[i].contains('<');
    fields >= 2 || (address && fields >= 1)
}

/// Whether a line reads like the attribution above a quote: "On … wrote:", "Am … schrieb …:".
fn is_attribution(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.ends_with(':') && (lower.contains("wrote") || lower.contains("schrieb"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(text: &str) -> Vec<String> {
        let lines: Vec<(usize, String)> = text.lines().enumerate().map(|(i, l)| (i + 1, l.to_string())).collect();
        own_lines(&lines)
            .into_iter()
            .map(|(_, l)| l)
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn every_end_marker_ends_the_own_text() {
        for marker in ENDS_OWN_TEXT {
            let written = format!("A Par - Bur\n{}\nA Par H\n", marker.to_uppercase());
            assert_eq!(own(&written), ["A Par - Bur"], "{marker}");
        }
        for (start, end) in SIGNATURES {
            let written = format!("A Par - Bur\n{}Galaxy{}\nA Par H\n", start.to_uppercase(), end);
            assert_eq!(own(&written), ["A Par - Bur"], "{start}");
        }
        // Press that starts like a signature is the writer's own.
        let press = "Von meinem Standpunkt aus ist Belgien französisch.\nA Par H\n";
        assert_eq!(own(press).len(), 2);
        assert_eq!(
            own("Sent from my heart, for you: I will not attack you this year.\nA Par H\n").len(),
            2
        );
        assert_eq!(own("A Par - Bur\n-- \nAnna\n"), ["A Par - Bur"]);
        assert_eq!(own("A Par - Bur\n--\nAnna\n"), ["A Par - Bur"]);
    }

    #[test]
    fn outlook_reply_headers_in_english_and_german_end_the_own_text() {
        let en = "A Par - Bur\n________________________________\nFrom: Judge <j@x.org>\nSent: Monday\nTo: anna\nSubject: Re\n\nA Par H\n";
        assert_eq!(own(en), ["A Par - Bur"]);
        let de = "A Par - Bur\n\nVon: Spielleiter <j@x.org>\nGesendet: Montag, 1. Juni 2026 10:00\nAn: anna\nBetreff: AW\nA Par H\n";
        assert_eq!(own(de), ["A Par - Bur"]);
        // Outlook on the web: the rule is drawn, then the block.
        let web = "A Par - Bur\n────────\nFrom: Judge <j@x.org>\nSent: Monday\nA Par H\n";
        assert_eq!(own(web), ["A Par - Bur"]);
    }

    #[test]
    fn a_from_line_alone_and_a_line_of_underscores_alone_stay() {
        assert_eq!(own("From: me\nA Par - Bur\n"), ["From: me", "A Par - Bur"]);
        // A letter in press: "Von: Deutschland / An: Frankreich" names no address.
        let letter = "Von: Deutschland\nAn: Frankreich\nBelgien ist Ihres.\n";
        assert_eq!(own(letter).len(), 3);
        // Outlook without an address in From, but the whole block.
        let block = "A Par H\nFrom: Judge\nSent: Monday\nTo: anna\nSubject: x\nA Mar H\n";
        assert_eq!(own(block), ["A Par H"]);
        assert_eq!(own("__________\nA Par - Bur\n"), ["__________", "A Par - Bur"]);
    }

    #[test]
    fn quotes_and_their_attributions_are_left_out_and_text_below_them_is_read() {
        let reply = "A Par - Bur\nOn Mon, 1 Jun 2026, Judge <j@x.org> wrote:\n> A Par H\n> F Bre H\nF Bre - Mao\n";
        assert_eq!(own(reply), ["A Par - Bur", "F Bre - Mao"]);
        let wrapped = "A Par - Bur\nOn Mon, 1 Jun 2026 at 10:00, Judge <\nj@x.org> wrote:\n> A Par H\n";
        assert_eq!(own(wrapped), ["A Par - Bur"]);
        let gmail = "A Par - Bur\n\nOn Mon, 1 Jun 2026 at 10:00, Judge <j@x.org> wrote:\n\n> A Par H\n";
        assert_eq!(own(gmail), ["A Par - Bur"]);
        let german = "A Par - Bur\nAm 01.06.2026 um 10:00 schrieb Spielleiter:\n> A Par H\n";
        assert_eq!(own(german), ["A Par - Bur"]);
        // A line ending in "wrote:" with no quote after it is the writer's own.
        assert_eq!(own("I wrote:\nA Par - Bur\n"), ["I wrote:", "A Par - Bur"]);
    }
}
