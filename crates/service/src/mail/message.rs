//! A received mail as the judge reads it: who sent it, its Message-ID, and the lines of its text
//! (`body`) with quoted replies, forwarded messages and the signature left out (`quotes`). MIME
//! (multipart, quoted-printable, base64, declared charsets) is decoded by `mail-parser`.

use mail_parser::MessageParser;

/// A mail reduced to what the command reader needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Letter {
    /// The Message-ID without angle brackets, if the mail has one.
    pub message_id: Option<String>,
    /// The sender's address (`From`, else the SMTP envelope sender).
    pub from_email: String,
    /// The sender's display name, if given.
    pub from_name: Option<String>,
    /// The subject, decoded.
    pub subject: String,
    /// The lines to read, each with its line number in the mail's text (from 1).
    pub lines: Vec<(usize, String)>,
    /// Why the mail must not be answered, if it was sent by a program (a bounce, an
    /// auto-responder, a mailing list): answering could start a mail loop.
    pub automatic: Option<String>,
}

/// Why a mail cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnreadableMail {
    /// Not a mail message (no header block).
    #[error("this is not a mail message")]
    NotMail,
    /// Neither `From` nor the envelope names a sender to answer.
    #[error("the mail names no sender")]
    NoSender,
}

/// Reads a raw mail; `envelope_from` is the SMTP `MAIL FROM` address, if it came by SMTP.
pub fn read(raw: &[u8], envelope_from: Option<&str>) -> Result<Letter, UnreadableMail> {
    let message = MessageParser::default().parse(raw).ok_or(UnreadableMail::NotMail)?;
    if message.headers().is_empty() {
        return Err(UnreadableMail::NotMail);
    }
    let sender = message.from().and_then(|a| a.first());
    let from_email = sender
        .and_then(|a| a.address())
        .map(str::to_string)
        .or_else(|| envelope_from.filter(|e| e.contains('@')).map(str::to_string))
        .ok_or(UnreadableMail::NoSender)?;
    let from_name = sender.and_then(|a| a.name()).map(str::to_string);
    // The first text part as its client meant it (flowed, charset, HTML by its blocks).
    let text = super::body::lines_of(&message);
    let header = |name: &str| message.header_raw(name).map(|v| v.trim().to_ascii_lowercase());
    let local_part = from_email.split('@').next().unwrap_or_default().to_ascii_lowercase();
    let content_type = header("Content-Type").unwrap_or_default();
    let automatic = if envelope_from == Some("") {
        Some("it has the empty sender of a delivery report".to_string())
    } else if header("Auto-Submitted").is_some_and(|v| v != "no")
        || header("X-Autoreply").is_some()
        || header("X-Autorespond").is_some()
    {
        Some("it is an automatic reply".to_string())
    } else if content_type.starts_with("multipart/report") {
        Some("it is a delivery or read report".to_string())
    } else if header("Precedence").is_some_and(|v| ["bulk", "junk", "list", "auto_reply"].contains(&v.as_str())) {
        Some("it is bulk or list mail".to_string())
    } else if header("List-Id").is_some() {
        Some("it comes from a mailing list".to_string())
    } else if ["mailer-daemon", "postmaster"].contains(&local_part.as_str()) {
        Some("it is a delivery report".to_string())
    } else {
        None
    };
    Ok(Letter {
        automatic,
        message_id: message.message_id().map(str::to_string),
        from_email,
        from_name,
        subject: message.subject().unwrap_or_default().to_string(),
        lines: super::quotes::own_lines(&text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(letter: &Letter) -> Vec<&str> {
        letter
            .lines
            .iter()
            .map(|(_, l)| l.as_str())
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn plain_utf8_mail_is_read_with_line_numbers() {
        let raw = "From: Anna <anna@example.org>\r\nMessage-ID: <m1@example.org>\r\nSubject: Befehle\r\n\r\nSIGNON England game1 secret\r\nA Lon - Wal\r\n";
        let l = read(raw.as_bytes(), None).expect("reads");
        assert_eq!(l.message_id.as_deref(), Some("m1@example.org"));
        assert_eq!(l.from_email, "anna@example.org");
        assert_eq!(l.from_name.as_deref(), Some("Anna"));
        assert_eq!(l.lines[1], (2, "A Lon - Wal".to_string()));
    }

    #[test]
    fn quoted_printable_latin1_is_decoded() {
        let raw = "From: j@example.org\r\nSubject: =?ISO-8859-1?Q?Fr=FChjahr?=\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nA M=FCn - Kie\r\n";
        let l = read(raw.as_bytes(), None).expect("reads");
        assert_eq!(l.subject, "Frühjahr");
        assert_eq!(texts(&l), ["A Mün - Kie"]);
    }

    #[test]
    fn raw_latin1_bytes_are_decoded_by_their_charset() {
        let mut raw = b"From: j@example.org\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nA M".to_vec();
        raw.push(0xFC);
        raw.extend_from_slice(b"n H\r\n");
        let l = read(&raw, None).expect("reads");
        assert_eq!(texts(&l), ["A Mün H"]);
    }

    #[test]
    fn multipart_base64_and_html_only_mail_give_their_text() {
        let raw = "From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nRiBMb24gLSBOdGg=\r\n--XX\r\nContent-Type: text/html\r\n\r\n<p>F Lon - Nth</p>\r\n--XX--\r\n";
        assert_eq!(texts(&read(raw.as_bytes(), None).expect("reads")), ["F Lon - Nth"]);
        let html = "From: a@example.org\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>SIGNON England g pw</p><p>F Lon - Nth</p></body></html>\r\n";
        let lines = read(html.as_bytes(), None).expect("reads");
        assert_eq!(texts(&lines), ["SIGNON England g pw", "F Lon - Nth"]);
    }

    #[test]
    fn quotes_attributions_and_signatures_are_left_out() {
        let raw = "From: a@example.org\r\n\r\nF Lon - Nth\r\nOn Mon, 1 Jan 1901, Judge wrote:\r\n> old result\r\n> A Par - Bur\r\n\r\nA Lvp - Yor\r\n-- \r\nAnna\r\nA Wal H\r\n";
        let l = read(raw.as_bytes(), None).expect("reads");
        let lines: Vec<_> = l.lines.iter().filter(|(_, l)| !l.is_empty()).cloned().collect();
        assert_eq!(lines, [(1, "F Lon - Nth".to_string()), (6, "A Lvp - Yor".to_string())]);
    }

    #[test]
    fn bounces_and_auto_replies_are_recognised() {
        let auto = "From: a@example.org\r\nAuto-Submitted: auto-replied\r\n\r\nI am away.\r\n";
        assert!(read(auto.as_bytes(), None).expect("reads").automatic.is_some());
        let bounce = "From: MAILER-DAEMON@example.org\r\n\r\nUndeliverable\r\n";
        assert!(read(bounce.as_bytes(), None).expect("reads").automatic.is_some());
        let report = "From: a@example.org\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x--\r\n";
        assert!(read(report.as_bytes(), None).expect("reads").automatic.is_some());
        let null_sender = "From: a@example.org\r\n\r\nHELP\r\n";
        assert!(
            read(null_sender.as_bytes(), Some(""))
                .expect("reads")
                .automatic
                .is_some()
        );
        let person = "From: a@example.org\r\nAuto-Submitted: no\r\n\r\nHELP\r\n";
        assert_eq!(read(person.as_bytes(), None).expect("reads").automatic, None);
    }

    #[test]
    fn a_mail_without_a_sender_or_headers_is_unreadable() {
        assert_eq!(read(b"Subject: x\r\n\r\nbody\r\n", None), Err(UnreadableMail::NoSender));
        assert!(read(b"Subject: x\r\n\r\nbody\r\n", Some("env@example.org")).is_ok());
    }
}
