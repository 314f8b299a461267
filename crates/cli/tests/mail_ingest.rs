//! `spielleiter mail ingest`: one mail piped in by a mail server goes the same way as one taken
//! by SMTP, and the reply lands in the mail folder (no mail server needed).

mod support;

use support::{fresh_dir, ingest_into, reply_to, run};

/// The (subject, text) of every mail in the folder's `mail/`, sorted.
fn mails(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = support::mails_in(&dir.join("mail"))
        .iter()
        .map(|text| {
            let (head, body) = text.split_once("\n\n").unwrap_or((text, ""));
            let subject = head
                .lines()
                .find_map(|l| l.strip_prefix("Subject: "))
                .unwrap_or_default();
            (subject.to_string(), body.to_string())
        })
        .collect();
    found.sort();
    found
}

#[test]
fn a_piped_mail_is_answered_once_and_bad_ones_are_refused() {
    let dir = fresh_dir("ingest");
    let data = dir.to_str().expect("a UTF-8 path");
    let database = support::database_args(&dir);
    let ingest = |stdin: &str| {
        let mut args = vec!["mail", "ingest", "--data", data];
        args.extend(database.iter().map(String::as_str));
        run(&args, stdin)
    };
    let help =
        "From: Neu <neu@example.org>\r\nMessage-ID: <help-1@example.org>\r\nSubject: Hallo\r\n\r\nHILFE\r\nLISTE\r\n";
    let first = ingest(help);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(String::from_utf8_lossy(&first.stdout).contains("1 message(s) sent"));
    let answered = mails(&dir);
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].0, "Re: Hallo");
    assert!(
        answered[0].1.contains("ANMELDEN Macht Partie Passwort"),
        "{}",
        answered[0].1
    );
    assert!(answered[0].1.contains("Es gibt keine Partien."), "{}", answered[0].1);

    // The same mail again: recognised by its Message-ID, not answered twice.
    let again = ingest(help);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("duplicate"));
    assert_eq!(mails(&dir).len(), 1);

    // Too large: exit status 65, so the mail server bounces it with the reason.
    let huge = format!(
        "From: neu@example.org\r\nSubject: big\r\n\r\n{}\r\n",
        "x".repeat(1_100_000)
    );
    let refused = ingest(&huge);
    assert_eq!(refused.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("at most"));

    // Not a mail with a sender: refused too, nothing sent.
    let nobody = ingest("Subject: who am I\r\n\r\nHELP\r\n");
    assert_eq!(
        nobody.status.code(),
        Some(65),
        "{}",
        String::from_utf8_lossy(&nobody.stdout)
    );
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("no sender"));
    assert_eq!(mails(&dir).len(), 1);

    // An auto-reply (or a bounce) is taken but never answered: no mail loop.
    let away = "From: neu@example.org\r\nMessage-ID: <away-1@example.org>\r\nAuto-Submitted: auto-replied\r\nSubject: Abwesend\r\n\r\nIch bin im Urlaub.\r\n";
    let ignored = ingest(away);
    assert!(ignored.status.success());
    assert!(String::from_utf8_lossy(&ignored.stdout).contains("not answered"));
    assert_eq!(mails(&dir).len(), 1);

    // A registration by mail makes an account that can log in on the web.
    let register = "From: neu@example.org\r\nMessage-ID: <reg-1@example.org>\r\nSubject: join\r\n\r\nREGISTER Neu geheim-2026 de\r\n";
    assert!(ingest(register).status.success());
    let replies = mails(&dir);
    let reply = replies.iter().find(|(s, _)| s == "Re: join").expect("a reply");
    assert!(reply.1.contains("Account Neu created"), "{}", reply.1);
    assert!(!reply.1.contains("geheim-2026"), "{}", reply.1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plain mail from `from` with Message-ID `<ID>`.
fn mail(from: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nMessage-ID: <{id}>\r\nSubject: orders\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

#[test]
fn a_mail_of_thousands_of_help_lines_gets_one_short_reply() {
    let dir = fresh_dir("ingest-flood");
    let flood = mail("flood@example.org", "flood-1@example.org", &"HELP\n".repeat(20_000));
    let out = ingest_into(&dir, &flood);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 message(s) sent"));
    let reply = reply_to(&dir, "flood-1@example.org");
    assert!(reply.len() < 64 * 1024, "a reply of {} bytes", reply.len());
    assert_eq!(
        reply.matches("REGISTER name password").count(),
        1,
        "the command list once"
    );
    assert!(reply.contains("it is given once per mail"), "{reply}");
    assert!(
        reply.contains(
            "Only the first 200 commands and order lines of a mail are read: nothing from line 201 on was read."
        ),
        "{}",
        &reply[reply.len().saturating_sub(2000)..]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_message_id_with_other_content_is_another_mail() {
    let dir = fresh_dir("ingest-dedup");
    let first = mail("anna@example.org", "same@example.org", "LIST\n");
    ingest_into(&dir, &first);
    reply_to(&dir, "same@example.org");
    // The same mail delivered again through another relay: a duplicate.
    let relayed = format!("Received: from relay.example.net\r\n{first}");
    let again = ingest_into(&dir, &relayed);
    assert!(String::from_utf8_lossy(&again.stdout).contains("duplicate"));
    // The Message-ID again with another text, or from another sender: read and answered.
    for (from, body) in [("anna@example.org", "HELP\n"), ("eve@example.net", "LIST\n")] {
        let other = ingest_into(&dir, &mail(from, "same@example.org", body));
        let said = String::from_utf8_lossy(&other.stdout).to_string();
        assert!(said.contains("1 message(s) sent"), "{from}: {said}");
    }
    let replies = support::wait_for_mails(&dir.join("mail"), 3, |m| m.contains("In-Reply-To: <same@example.org>"));
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert!(replies.iter().any(|r| r.contains("To: eve@example.net")), "{replies:?}");
    assert!(
        replies.iter().any(|r| r.contains("SIGNON power game password")),
        "{replies:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game `name` whose master plays France and whose other player, `NAME@example.org` with the
/// password `right-horse-1`, plays Germany; the other player's client.
fn game_with_player(server: &support::Server, game: &str, player: &str) -> (support::Client, String) {
    let gm = support::player(server, &format!("{player}-master"));
    let other = support::unconfirmed_player_with(server, player, "en", "right-horse-1");
    support::confirm_address(server, &other, &format!("{player}@example.org"), "en");
    let id = support::two_player_game(&gm, &other, game, serde_json::json!({"movement_seconds": 3600}));
    (other, id)
}

#[test]
fn password_guesses_by_mail_are_counted_over_every_ingest_and_then_refused() {
    let server = support::start_server("ingest-guessing");
    let (bert, game) = game_with_player(&server, "Guessed", "bert");
    let sign_on = |n: usize, password: &str| {
        let id = format!("guess-{n}@example.org");
        let body = format!("SIGNON Germany Guessed {password}\nA Mun - Ruh\n");
        ingest_into(&server.dir, &mail("bert@example.org", &id, &body));
        reply_to(&server.dir, &id)
    };
    for n in 0..10 {
        let reply = sign_on(n, &format!("wrong-guess-{n}"));
        assert!(reply.contains("wrong password"), "{reply}");
    }
    // Eleven mails later, even the right password is refused: the failures are in the database.
    let refused = sign_on(10, "right-horse-1");
    assert!(refused.contains("too many failed log-ins"), "{refused}");
    assert!(!refused.contains("Signed on"), "{refused}");
    let orders = bert.ok("GET", &format!("/api/games/{game}/orders"), None);
    assert_eq!(orders["orders"], serde_json::json!([]), "{orders}");
    // The web and the API are another source: there the account still logs in, until its own
    // failures from this client address reach the cap.
    let client = support::Client::new(&server);
    let login = |password: &str| {
        let body = serde_json::json!({"name": "bert", "password": password});
        client.call("POST", "/api/sessions", Some(body))
    };
    assert_eq!(login("right-horse-1").0, 200);
    for _ in 0..10 {
        assert_eq!(login("wrong-guess").0, 401);
    }
    let (status, body) = login("right-horse-1");
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
}

#[test]
fn a_mail_stops_at_its_first_failed_sign_on() {
    let server = support::start_server("ingest-first-failure");
    let (carl, game) = game_with_player(&server, "Stopped", "carl");
    let body = "SIGNON Germany Stopped wrong-guess\nPRESS TO ALL\nWhich one was it?\nENDPRESS\n\
                SIGNON Germany Stopped other-guess\nSIGNON Germany Stopped right-horse-1\nA Mun - Ruh\nPRESS TO ALL\nThis one.\nENDPRESS\n";
    ingest_into(&server.dir, &mail("carl@example.org", "stop-1@example.org", body));
    let reply = reply_to(&server.dir, "stop-1@example.org");
    assert!(reply.contains("wrong password"), "{reply}");
    assert!(
        reply.contains("Nothing from line 2 on was read or carried out: a mail stops at its first failed sign-on."),
        "{reply}"
    );
    assert!(!reply.contains("Signed on") && !reply.contains("Press sent"), "{reply}");
    assert_eq!(reply.matches("ERROR").count(), 1, "{reply}");
    let orders = carl.ok("GET", &format!("/api/games/{game}/orders"), None);
    assert_eq!(orders["orders"], serde_json::json!([]), "{orders}");
    let press = carl.ok("GET", &format!("/api/games/{game}/press"), None);
    assert!(!press.to_string().contains("This one."), "{press}");
    // The right password first: everything is carried out.
    let good = "SIGNON Germany Stopped right-horse-1\nA Mun - Ruh\n";
    ingest_into(&server.dir, &mail("carl@example.org", "stop-2@example.org", good));
    let reply = reply_to(&server.dir, "stop-2@example.org");
    assert!(reply.contains("Signed on as Germany"), "{reply}");
    let orders = carl.ok("GET", &format!("/api/games/{game}/orders"), None);
    assert_eq!(orders["orders"], serde_json::json!(["A Mun - Ruh"]), "{orders}");
}

#[test]
fn an_account_registered_by_mail_confirms_its_address_by_mail() {
    let server = support::start_server("ingest-confirm");
    let register = "REGISTRIEREN Dora geheim-2026 de\n";
    ingest_into(&server.dir, &mail("dora@example.org", "reg-dora@example.org", register));
    let reply = reply_to(&server.dir, "reg-dora@example.org");
    assert!(reply.contains("Konto Dora für dora@example.org angelegt"), "{reply}");
    let code = support::code_in(reply.split_once("angelegt").map_or("", |(_, rest)| rest)).expect("a code");
    // The account works on the web meanwhile; its address is not confirmed yet.
    let mut dora = support::Client::new(&server);
    let session = dora.ok(
        "POST",
        "/api/sessions",
        Some(serde_json::json!({"name": "dora", "password": "geheim-2026"})),
    );
    dora.token = session["token"].as_str().map(str::to_string);
    assert_eq!(dora.ok("GET", "/api/account", None)["email_confirmed"], false);
    // A wrong code from the address: refused, and the rest of the mail is not read.
    let wrong = "BESTÄTIGEN AAAA-AAAA\nBESTÄTIGEN {code}\n".replace("{code}", &code);
    ingest_into(&server.dir, &mail("dora@example.org", "confirm-0@example.org", &wrong));
    let reply = reply_to(&server.dir, "confirm-0@example.org");
    assert!(
        reply.contains("Das ist nicht der Code") && reply.contains("Ab Zeile 2"),
        "{reply}"
    );
    assert_eq!(dora.ok("GET", "/api/account", None)["email_confirmed"], false);
    ingest_into(
        &server.dir,
        &mail(
            "dora@example.org",
            "confirm-1@example.org",
            &format!("BESTÄTIGEN {code}\n"),
        ),
    );
    let reply = reply_to(&server.dir, "confirm-1@example.org");
    assert!(reply.contains("Die Adresse dora@example.org ist bestätigt"), "{reply}");
    let shown = dora.ok("GET", "/api/account", None);
    assert_eq!(
        (shown["email_confirmed"].as_bool(), &shown["pending_email"]),
        (Some(true), &serde_json::Value::Null)
    );
}

#[test]
fn a_mail_makes_one_account_and_an_unconfirmed_address_signs_on_to_nothing() {
    let server = support::start_server("ingest-unconfirmed");
    let gm = support::player(&server, "erna-master");
    let game = support::new_game(&gm, "Waiting", serde_json::json!({"movement_seconds": 3600}));
    let twice = "REGISTER Erna geheim-2026\nREGISTER Erna2 geheim-2026\n";
    ingest_into(&server.dir, &mail("erna@example.org", "reg-erna@example.org", twice));
    let reply = reply_to(&server.dir, "reg-erna@example.org");
    assert!(reply.contains("Account Erna created"), "{reply}");
    assert!(reply.contains("one REGISTER per mail"), "{reply}");
    let client = support::Client::new(&server);
    let login = |name: &str| {
        let body = serde_json::json!({"name": name, "password": "geheim-2026"});
        client.call("POST", "/api/sessions", Some(body)).0
    };
    assert_eq!((login("erna"), login("erna2")), (200, 401), "one account made");
    // The address is not confirmed: a mail from it (whose From anybody can write) joins nothing.
    let join = "JOIN Waiting geheim-2026\n";
    ingest_into(&server.dir, &mail("erna@example.org", "join-0@example.org", join));
    let reply = reply_to(&server.dir, "join-0@example.org");
    assert!(
        reply.contains("no account of this address has that password"),
        "{reply}"
    );
    let code = support::code_in(
        reply_to(&server.dir, "reg-erna@example.org")
            .split_once("created")
            .map_or("", |(_, rest)| rest),
    )
    .expect("a code");
    let confirm = format!("CONFIRM {code}\nJOIN Waiting geheim-2026\n");
    ingest_into(&server.dir, &mail("erna@example.org", "join-1@example.org", &confirm));
    let reply = reply_to(&server.dir, "join-1@example.org");
    assert!(reply.contains("You joined Waiting"), "{reply}");
    let members = gm.ok("GET", &format!("/api/games/{game}"), None);
    assert!(members.to_string().contains("Erna"), "{members}");
}
