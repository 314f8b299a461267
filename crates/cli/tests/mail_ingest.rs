//! `spielleiter mail ingest`: one mail piped in by a mail server goes the same way as one taken
//! by SMTP, and the reply lands in the mail folder (no mail server needed).

mod support;

use support::{fresh_dir, run};

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
