//! Play by e-mail end to end: the real `spielleiter serve` with its SMTP listener, seven players
//! whose mail client is a real SMTP client and whose mailboxes are a real SMTP server (aiosmtpd),
//! orders in English and German with the seeds' notations and in several MIME encodings, the
//! deadline passing, and each player's mailbox receiving the result. A malformed mail, a wrong
//! password, a duplicate and an oversized mail each get their answer and change nothing else.

mod support;

use serde_json::json;
use support::mailboxes::{Mailboxes, send};
use support::{Client, Server, fresh_dir, start_server_in};

const GAME: &str = "maildip";

/// An account with a password without spaces (it is written in mails), logged in, its address
/// confirmed with the code mailed to it.
fn account(server: &Server, boxes: &Mailboxes, name: &str, lang: &str) -> Client {
    let mut c = Client::new(server);
    c.ok(
        "POST",
        "/api/accounts",
        Some(json!({"name": name, "email": format!("{name}@example.org"), "password": password(name), "lang": lang})),
    );
    let session = c.ok(
        "POST",
        "/api/sessions",
        Some(json!({"name": name, "password": password(name)})),
    );
    c.token = session["token"].as_str().map(str::to_string);
    let subject = if lang == "de" {
        "Diplomacy: Adresse bestätigen"
    } else {
        "Diplomacy: confirm your address"
    };
    let code = support::code_in(&boxes.wait_for(&address(name), subject, 1)[0].body).expect("a code");
    c.ok("POST", "/api/account/email", Some(json!({"code": code})));
    c
}

fn password(name: &str) -> String {
    format!("pw-{name}-2026")
}

fn address(name: &str) -> String {
    format!("{name}@example.org")
}

/// A plain UTF-8 mail.
fn plain(name: &str, id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {name} <{}>\r\nTo: judge@spielleiter.test\r\nMessage-ID: <{id}@example.org>\r\nSubject: {subject}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        address(name),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Every mail to the judge carries its reply subject; the test waits for the replies.
const REPLY: &str = "Re: ";

#[test]
fn seven_players_play_a_turn_by_mail() {
    let boxes = Mailboxes::start("turn");
    let relay = format!("smtp://127.0.0.1:{}", boxes.port);
    let server = start_server_in(
        fresh_dir("mail-play"),
        &[
            "--smtp",
            "127.0.0.1:0",
            "--smtp-relay",
            &relay,
            "--mail-from",
            "Spielleiter <judge@spielleiter.test>",
        ],
    );
    let smtp = server.smtp.clone().expect("the SMTP listener runs");

    // Seven players (Germany and Austria read German) and a master, set up on the web API.
    let gm = account(&server, &boxes, "gm", "en");
    let players = [
        ("anna", "ENGLAND", "en"),
        ("bert", "FRANCE", "en"),
        ("carl", "GERMANY", "de"),
        ("dora", "ITALY", "en"),
        ("emil", "AUSTRIA", "de"),
        ("fritz", "RUSSIA", "en"),
        ("gina", "TURKEY", "en"),
    ];
    let game_id = gm.ok(
        "POST",
        "/api/games",
        Some(json!({"name": GAME, "movement_seconds": 80, "reminder_hours": 1})),
    )["id"]
        .as_str()
        .expect("an id")
        .to_string();
    let clients: Vec<Client> = players
        .iter()
        .map(|(name, power, lang)| {
            let c = account(&server, &boxes, name, lang);
            c.ok(
                "POST",
                &format!("/api/games/{game_id}/join"),
                Some(json!({"preferences": [power]})),
            );
            c
        })
        .collect();
    gm.ok("POST", &format!("/api/games/{game_id}/start"), None);

    // Half a phase before the deadline (the phase is shorter than the hour the game asks for),
    // nobody has ordered: every player is reminded by mail, in the player's language.
    for (name, _, lang) in players {
        let subject = if lang == "de" {
            "Befehle für S1901M fehlen"
        } else {
            "orders for S1901M missing"
        };
        boxes.wait_for(&address(name), subject, 1);
    }

    // The orders, one mail per player, in the encodings mail programs use.
    let england = plain(
        "anna",
        "england-1",
        "orders",
        "SIGNON England maildip pw-anna-2026\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\nF1901M:\nF Nth - Nwy\nPRESS TO France, Germany\nHello from London.\nENDPRESS\n\n-- \nAnna\nA Lvp - Wal\n",
    );
    let france_text = "SIGNON France maildip pw-bert-2026\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n";
    let france = format!(
        "From: bert@example.org\r\nMessage-ID: <france-1@example.org>\r\nSubject: France\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>ignored</p>\r\n--b1--\r\n",
        base64_lines(france_text.replace('\n', "\r\n").as_bytes())
    );
    // German words and umlauts in Latin-1, quoted-printable.
    let germany = "From: carl@example.org\r\nMessage-ID: <germany-1@example.org>\r\nSubject: =?ISO-8859-1?Q?Z=FCge?=\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nANMELDEN Deutschland maildip pw-carl-2026\r\nA M=FCnchen nach Tirol\r\nF Kiel - Holland\r\nA Berlin - Kiel\r\nR=FCckzug A M=FCnchen nach B=F6hmen, Schlesien\r\n";
    // HTML only.
    let italy = "From: dora@example.org\r\nMessage-ID: <italy-1@example.org>\r\nSubject: Italia\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>SIGNON Italy maildip pw-dora-2026</p><p>A Ven H</p><p>A Rom - Apu</p><p>F Nap - Ion</p></body></html>\r\n";
    // German, answering an earlier mail: the quote and the signature are not read.
    let austria = plain(
        "emil",
        "austria-1",
        "AW: Diplomacy",
        "ANMELDEN Österreich maildip pw-emil-2026\nA Wien - Galizien\nA Bud - Ser\nF Triest - Albanien\n\nAm Montag schrieb der Spielleiter:\n> A Vie H\n> F Tri H\n\n-- \nEmil\n",
    );
    // The seed's notation for a foreign unit's support, and a draw vote.
    let russia = plain(
        "fritz",
        "russia-1",
        "orders",
        "SIGNON Russia maildip pw-fritz-2026\nA War - Ukr\nA Mos S Russian A War - Ukr\nF Sev - Bla\nF StP/sc - Bot\nDRAW\n",
    );
    let turkey = plain(
        "gina",
        "turkey-1",
        "orders",
        "SIGNON Turkey maildip pw-gina-2026\nF Ank - Bla\nA Con - Bul\nA Smy - Arm\n",
    );
    let mails: [(&str, Vec<u8>); 7] = [
        ("anna", england.clone()),
        ("bert", france.into_bytes()),
        ("carl", germany.as_bytes().to_vec()),
        ("dora", italy.as_bytes().to_vec()),
        ("emil", austria),
        ("fritz", russia),
        ("gina", turkey),
    ];
    for (name, raw) in &mails {
        let answer = send(&smtp, &address(name), raw).unwrap_or_else(|e| panic!("{name}'s mail: {e}"));
        assert!(answer.contains("queued"), "{answer}");
    }
    for (name, _) in &mails {
        let reply = &boxes.wait_for(&address(name), REPLY, 1)[0];
        let clean = if ["carl", "emil"].contains(name) {
            "Alle Zeilen wurden fehlerfrei gelesen."
        } else {
            "All lines were read without errors."
        };
        assert!(reply.body.contains(clean), "{name}'s reply:\n{}", reply.body);
        assert!(reply.in_reply_to.is_some(), "a reply names the mail it answers");
    }
    let england_reply = &boxes.to(&address("anna"), REPLY)[0].body;
    assert!(
        england_reply.contains("Press sent to France, Germany"),
        "{england_reply}"
    );
    assert!(
        !england_reply.contains("pw-anna-2026"),
        "the password is not repeated: {england_reply}"
    );
    assert!(
        !england_reply.contains("Wal"),
        "nothing after the signature is read: {england_reply}"
    );
    let austria_reply = &boxes.to(&address("emil"), REPLY)[0].body;
    assert!(
        !austria_reply.contains("A Vie H"),
        "the quote is not read: {austria_reply}"
    );
    assert!(austria_reply.contains("Angemeldet als Österreich"), "{austria_reply}");
    // The press reached its recipients, in their languages.
    boxes.wait_for(&address("bert"), "press from England", 1);
    let press = &boxes.wait_for(&address("carl"), "Presse von England", 1)[0];
    assert!(press.body.contains("Hello from London."), "{}", press.body);
    assert!(
        boxes.to(&address("dora"), "ENGLAND").is_empty(),
        "private press stays private"
    );

    let england_orders = || clients[0].ok("GET", &format!("/api/games/{game_id}/orders"), None)["orders"].clone();
    let before = england_orders();
    assert_eq!(
        before,
        json!(["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor", "F1901M:", "F Nth - Nwy"])
    );

    // A wrong password: the reply says so, and England's orders stay as they were.
    let wrong = plain(
        "anna",
        "england-2",
        "orders",
        "SIGNON England maildip not-my-password\nF Lon - Eng\n",
    );
    send(&smtp, &address("anna"), &wrong).expect("taken");
    let replies = boxes.wait_for(&address("anna"), REPLY, 2);
    assert!(replies[1].body.contains("wrong password"), "{}", replies[1].body);
    assert!(
        replies[1].body.contains("line 2"),
        "the order line is named: {}",
        replies[1].body
    );
    // The same mail again (same Message-ID): taken by SMTP, but not read or answered again.
    let again = send(&smtp, &address("anna"), &england).expect("taken");
    assert!(again.contains("duplicate"), "{again}");
    // An oversized mail is refused in the SMTP dialogue itself.
    let huge = plain(
        "anna",
        "england-3",
        "orders",
        &format!(
            "SIGNON England maildip pw-anna-2026\nF Lon - Eng\n{}",
            "x".repeat(1_200_000)
        ),
    );
    let refused = send(&smtp, &address("anna"), &huge).expect_err("too large");
    assert!(refused.contains("552") || refused.contains("too large"), "{refused}");
    // A malformed mail from a stranger: no commands, a broken SIGNON; the reply lists the lines.
    let stranger = "From: stranger@example.net\r\nMessage-ID: <junk-1@example.net>\r\nSubject: hallo\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n!!! not base64 at all !!!\r\n\r\nSIGNON England\r\n";
    send(&smtp, "stranger@example.net", stranger.as_bytes()).expect("taken");
    let junk = &boxes.wait_for("stranger@example.net", REPLY, 1)[0];
    assert!(junk.body.contains("ERROR"), "{}", junk.body);
    // A German mail with a mistake: the reply is German and names the line.
    let typo = "From: carl@example.org\r\nMessage-ID: <germany-2@example.org>\r\nSubject: Hilfe\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHILFE\r\nLISTE\r\n";
    send(&smtp, &address("carl"), typo.as_bytes()).expect("taken");
    let help = &boxes.wait_for(&address("carl"), REPLY, 2)[1];
    assert!(
        help.body.contains("ANMELDEN Macht Partie Passwort") && help.body.contains(GAME),
        "{}",
        help.body
    );

    assert_eq!(england_orders(), before, "nothing changed England's orders");
    assert_eq!(
        boxes.to(&address("anna"), REPLY).len(),
        2,
        "one reply each to the first mail and the wrong password"
    );

    // The deadline passes: every player's mailbox receives the result, in the player's language.
    for (name, _, lang) in players {
        let subject = if lang == "de" {
            "Diplomacy-Ergebnisse maildip S1901M"
        } else {
            "Diplomacy results maildip S1901M"
        };
        let result = &boxes.wait_for(&address(name), subject, 1)[0];
        assert!(!result.body.trim().is_empty());
    }
    let english_mail = &boxes.to(&address("anna"), "Diplomacy results")[0];
    let english = &english_mail.body;
    assert!(english.contains("North Sea") || english.contains("NTH"), "{english}");
    let german_mail = &boxes.to(&address("carl"), "Diplomacy-Ergebnisse")[0];
    let german = &german_mail.body;
    assert!(german.contains("Frühjahr") || german.contains("Frühling"), "{german}");
    // Each result carries two maps as PNG, titled in the reader's language: the orders with
    // their outcomes, and the position they led to.
    let map = |mail: &support::mailboxes::Mail| -> Vec<Vec<u8>> {
        let names: Vec<(&str, &str)> = mail
            .attachments
            .iter()
            .map(|(name, kind, _)| (name.as_str(), kind.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("maildip-s1901m-orders.png", "image/png"),
                ("maildip-f1901m.png", "image/png")
            ],
            "in {:?}",
            mail.subject
        );
        mail.attachments
            .iter()
            .map(|(_, _, bytes)| {
                assert!(
                    bytes.len() > 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
                    "a PNG file"
                );
                let width = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
                assert!(width >= 800, "a map of readable size, not {width} pixels wide");
                bytes.clone()
            })
            .collect()
    };
    let (english_maps, german_maps) = (map(english_mail), map(german_mail));
    assert_ne!(english_maps[0], english_maps[1], "two different pictures");
    assert_ne!(english_maps, german_maps, "the pictures differ in their language");
    // England's order for the fall waits for its phase.
    let waiting = clients[0].ok("GET", &format!("/api/games/{game_id}/orders"), None);
    assert_eq!(waiting["phase"], "F1901M");
    assert!(waiting["pending"].to_string().contains("Nwy"), "{waiting}");
    // The orders sent by mail were the ones adjudicated.
    let state = gm.ok("GET", &format!("/api/games/{game_id}"), None);
    let units = state.to_string();
    assert!(
        units.contains("F NTH") && units.contains("A BUR") && units.contains("A KIE"),
        "{state}"
    );
    // Past reports by mail: for the game's players; others wait for the end.
    let history = plain(
        "anna",
        "england-4",
        "history",
        "SIGNON England maildip pw-anna-2026\nHISTORY\n",
    );
    send(&smtp, &address("anna"), &history).expect("taken");
    let replies = boxes.wait_for(&address("anna"), REPLY, 3);
    assert!(
        replies
            .iter()
            .any(|r| r.body.contains("Movement results for Spring of 1901")),
        "{replies:?}"
    );
    let curious = "From: stranger@example.net\r\nMessage-ID: <junk-2@example.net>\r\nSubject: past\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHISTORY maildip\r\n";
    send(&smtp, "stranger@example.net", curious.as_bytes()).expect("taken");
    let replies = boxes.wait_for("stranger@example.net", REPLY, 2);
    assert!(
        replies
            .iter()
            .any(|r| r.body.contains("the reports of a running game are for its members")),
        "{replies:?}"
    );
}

/// Base64 in lines of 76 characters, as mail programs write it.
fn base64_lines(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\r\n")
}

/// The SMTP dialogue itself: commands out of order, unknown ones and a declared size over the
/// limit are refused with the codes RFC 5321 gives them, and the connection stays usable.
#[test]
fn the_smtp_listener_refuses_what_is_out_of_order() {
    use std::io::{BufRead as _, BufReader, Write as _};
    let server = start_server_in(fresh_dir("smtp-dialogue"), &["--smtp", "127.0.0.1:0"]);
    let stream = std::net::TcpStream::connect(server.smtp.as_deref().expect("SMTP")).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .expect("a timeout");
    let mut reader = BufReader::new(stream.try_clone().expect("a second handle"));
    let mut writer = stream;
    // The reply to a command: every line up to the last (`250 ` after `250-` lines).
    let mut say = |command: &str| -> String {
        if !command.is_empty() {
            writer.write_all(format!("{command}\r\n").as_bytes()).expect("writes");
        }
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("reads");
            reply.push_str(&line);
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                return reply;
            }
        }
    };
    assert!(say("").starts_with("220 "));
    let ehlo = say("EHLO client.example.org");
    assert!(ehlo.contains("SIZE 1048576") && ehlo.contains("8BITMIME"), "{ehlo}");
    assert!(say("RCPT TO:<judge@spielleiter.test>").starts_with("503 5.5.1"));
    assert!(say("DATA").starts_with("503 5.5.1"));
    assert!(say("FROBNICATE").starts_with("500 5.5.1"));
    assert!(say("MAIL FROM:<a@example.org> SIZE=99999999").starts_with("552 5.3.4"));
    assert!(say("MAIL FROM:<a@example.org>").starts_with("250 "));
    assert!(
        say("MAIL FROM:<b@example.org>").starts_with("503 "),
        "one mail at a time"
    );
    assert!(say("RCPT TO:<judge@spielleiter.test>").starts_with("250 "));
    assert!(say("DATA").starts_with("354 "));
    // An empty mail ends at its lone dot (and is stored: it has nobody to answer).
    assert!(say(".").starts_with("250 "));
    let long = format!("NOOP {}", "x".repeat(40_000));
    let refused = say(&long);
    assert!(
        refused.starts_with("500 5.5.6"),
        "an overlong line is refused once: {refused}"
    );
    assert!(say("NOOP").starts_with("250 "), "and the dialogue goes on");
    assert!(say("MAIL FROM:<a@example.org>").starts_with("250 "));
    assert!(say("RCPT TO:<judge@spielleiter.test>").starts_with("250 "));
    assert!(say("DATA").starts_with("354 "));
    let stored = say("From: a@example.org\r\nMessage-ID: <dialogue@example.org>\r\n\r\nHELP\r\n.");
    assert!(stored.starts_with("250 2.0.0 queued"), "{stored}");
    assert!(say("QUIT").starts_with("221 "));
}
