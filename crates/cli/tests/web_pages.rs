//! The web pages over plain HTTP (no browser): cookies and their marks, CSRF refusals, escaped
//! output, error pages, and the map files.

mod support;

use support::browser::Browser;

use serde_json::{Value, json};

#[test]
fn cookies_are_http_only_same_site_and_secure() {
    let server = support::start_server("web-cookies");
    let mut b = Browser::new(&server.base);
    b.sign_up("carla");
    let session = b
        .set_cookies
        .iter()
        .find(|c| c.starts_with("sl_session="))
        .expect("a session cookie");
    for mark in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
        assert!(session.contains(mark), "{session}");
    }
    let csrf = b
        .set_cookies
        .iter()
        .find(|c| c.starts_with("sl_csrf="))
        .expect("a CSRF cookie");
    assert!(csrf.contains("SameSite=Lax") && csrf.contains("HttpOnly"), "{csrf}");
    let games = b.get("/games");
    assert_eq!(games.status, 200);
    assert!(games.body.contains(r#"<strong id="viewer">carla</strong>"#));
    // Logging out ends the session in the database, not only in the browser.
    let stolen = b.cookies.clone();
    let csrf = b.csrf();
    assert_eq!(b.post("/logout", &[("csrf", &csrf)], None).status, 303);
    b.cookies = stolen;
    assert_eq!(b.get("/games").status, 401);
}

#[test]
fn forms_without_the_token_or_from_another_site_are_refused() {
    let server = support::start_server("web-csrf");
    let mut b = Browser::new(&server.base);
    b.sign_up("dora");
    // No token, a wrong token, or a foreign origin: refused, nothing created.
    let csrf = b.csrf();
    let wrong = "x".repeat(csrf.len());
    for (fields, origin) in [
        (vec![("name", "Evil")], None),
        (vec![("csrf", wrong.as_str()), ("name", "Evil")], None),
        (
            vec![("csrf", csrf.as_str()), ("name", "Evil")],
            Some("http://evil.example"),
        ),
    ] {
        let mut f = fields.clone();
        f.extend([("variant", "standard"), ("press", "full"), ("minutes", "60")]);
        let page = b.post("/games", &f, origin);
        assert_eq!(page.status, 403, "{}", page.body);
        assert!(page.body.contains("another site"), "{}", page.body);
    }
    assert!(!b.get("/games").body.contains("Evil"));
    // The account and game forms are guarded alike.
    for path in [
        "/account",
        "/account/email",
        "/games/any/pause",
        "/games/any/adjudicate",
        "/games/any/draw",
    ] {
        let page = b.post(
            path,
            &[("current_password", "long enough"), ("email", "evil@example.net")],
            None,
        );
        assert_eq!(page.status, 403, "{path}: {}", page.body);
    }
    assert!(b.get("/account").body.contains("dora@example.org"));
    // With the token from this site it works.
    let same_origin = server.base.clone();
    let page = b.post(
        "/games",
        &[
            ("csrf", &csrf),
            ("name", "Fair"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "60"),
        ],
        Some(&same_origin),
    );
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(page.location.unwrap().starts_with("/games/"));
}

#[test]
fn output_is_escaped_and_errors_are_pages() {
    let server = support::start_server("web-escape");
    let mut b = Browser::new(&server.base);
    b.sign_up("erik");
    let csrf = b.csrf();
    let page = b.post(
        "/games",
        &[
            ("csrf", &csrf),
            ("name", "<script>alert(1)</script>"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "60"),
        ],
        None,
    );
    assert_eq!(page.status, 303);
    let game = b.get(page.location.as_deref().unwrap());
    assert!(
        game.body
            .contains(r#"<h1 id="game-name">&#60;script&#62;alert(1)&#60;/script&#62;</h1>"#)
    );
    assert!(!game.body.contains("<script>alert(1)"));
    // The map of a game that has not started: the opening position.
    let svg = b.get(&format!("{}/map.svg", page.location.as_deref().unwrap()));
    assert_eq!(svg.status, 200);
    assert_eq!(svg.body.matches(r#"<g class="unit""#).count(), 22);
    // A malformed address is answered with the error page, not a bare text.
    let game_path = page.location.as_deref().unwrap();
    for path in [format!("{game_path}?step=abc"), format!("{game_path}/map.png?step=-1")] {
        let odd = b.get(&path);
        assert_eq!(odd.status, 400, "{path}");
        assert!(
            odd.body.contains("the address of this page is malformed") && odd.body.contains("<html"),
            "{}",
            odd.body
        );
    }
    // A refusal of the service is shown in words, with the way back.
    let bad = b.post(
        "/games",
        &[
            ("csrf", &csrf),
            ("name", "x"),
            ("variant", "nonsense"),
            ("press", "full"),
            ("minutes", "60"),
        ],
        None,
    );
    assert_eq!(bad.status, 400);
    assert!(
        bad.body.contains("unknown variant “nonsense”") && bad.body.contains(r#"href="/games""#),
        "{}",
        bad.body
    );
    let wrong = b.post(
        "/login",
        &[("csrf", &csrf), ("name", "erik"), ("password", "wrong password")],
        None,
    );
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("unknown name or wrong password"));
    // Unknown pages are HTML, unknown API routes JSON.
    let missing = b.get("/nowhere");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("<h1>Not found</h1>"));
    let api = support::Client::new(&server).call("GET", "/api/nowhere", None);
    assert_eq!(api.0, 404);
    assert_eq!(api.1["code"], json!("not_found"));
}

#[test]
fn pages_follow_the_language_chosen() {
    let server = support::start_server("web-lang");
    let mut b = Browser::new(&server.base);
    let english = b.get("/");
    assert!(english.body.contains("<html lang=\"en\">") && english.body.contains("Sign up"));
    assert_eq!(b.get("/lang?to=de").status, 303);
    let german = b.get("/");
    assert!(
        german.body.contains("<html lang=\"de\">") && german.body.contains("Registrieren"),
        "{}",
        german.body
    );
    // Refusals are German too.
    b.sign_up("jana");
    let csrf = b.csrf();
    let refused = b.post(
        "/games",
        &[
            ("csrf", &csrf),
            ("name", ""),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "60"),
        ],
        None,
    );
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .body
            .contains("Der Name einer Partie hat 1 bis 40 sichtbare Zeichen"),
        "{}",
        refused.body
    );
    let refused = b.post("/games/nothing-here/start", &[("csrf", &csrf)], None);
    assert_eq!(refused.status, 404);
    assert!(refused.body.contains("Diese Partie gibt es nicht"), "{}", refused.body);
}

#[test]
fn every_variant_has_its_rules_page_with_its_map_in_both_languages() {
    let server = support::start_server("web-rules");
    let mut b = Browser::new(&server.base);
    // Open to visitors who are not logged in; `/rules` is the standard game's.
    assert_eq!(b.get("/rules").location.as_deref(), Some("/rules/standard"));
    for (variant, words) in [
        ("standard", "Convoy"),
        ("ancmed", "Baleares"),
        ("colonial", "Trans-Siberian"),
        ("hegemony-1689", "Political factors"),
        ("hegemony-1701", "Marlborough"),
    ] {
        let page = b.get(&format!("/rules/{variant}"));
        assert_eq!(page.status, 200, "{variant}: {}", page.body);
        assert!(page.body.contains(words), "{variant}: `{words}`");
        assert!(
            page.body.contains("<h2>") && page.body.contains("<table>"),
            "{variant}: Markdown as HTML"
        );
        assert!(page.body.contains(r#"<div id="rules-map"><svg"#), "{variant}: its map");
        // Every other variant is a link away.
        let nav = page
            .body
            .split(r#"id="rules-variants""#)
            .nth(1)
            .and_then(|n| n.split("</nav>").next());
        assert_eq!(
            nav.map(|n| n.matches(r#"<a href="/rules/"#).count()),
            Some(4),
            "{variant}"
        );
    }
    b.get("/lang?to=de");
    let german = b.get("/rules/hegemony-1701");
    assert!(
        german.body.contains("Politische Faktoren") && german.body.contains("Regeln"),
        "{}",
        german.body
    );
    let none = b.get("/rules/chess");
    assert_eq!(none.status, 404);
    assert!(
        none.body.contains("Zu dieser Variante gibt es keine Regelseite"),
        "{}",
        none.body
    );
}

#[test]
fn behind_a_proxy_forms_come_from_the_public_address_and_results_link_to_it() {
    let public = "https://diplomacy.example.org";
    let server = support::start_server_in(support::fresh_dir("web-proxy"), &["--public-url", public]);
    let mut b = Browser::new(&server.base);
    b.sign_up("erna");
    let csrf = b.csrf();
    let post = |b: &mut Browser, name: &str, origin: &str| {
        let fields = [
            ("csrf", csrf.as_str()),
            ("name", name),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "60"),
        ];
        b.post("/games", &fields, Some(origin))
    };
    // The address the proxy forwards to is not where players' forms come from.
    let direct = server.base.clone();
    assert_eq!(post(&mut b, "Direct", &direct).status, 403);
    let page = post(&mut b, "Proxied", public);
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(!b.get("/games").body.contains("Direct"));

    // Mail about the game ends with a signature naming its page at the public address.
    let gm = support::player(&server, "proxy-master");
    let other = support::player(&server, "proxy-other");
    let id = support::two_player_game(&gm, &other, "Linked", json!({"movement_seconds": 3600}));
    // Erna's list shows her own game first, the others' after it.
    let list = b.get("/games").body;
    let at = |text: &str| list.find(text).unwrap_or_else(|| panic!("{text} in {list}"));
    assert!(at(r#"id="my-games""#) < at(">Proxied<") && at(">Proxied<") < at(r#"id="other-games""#));
    assert!(at(r#"id="other-games""#) < at(">Linked<"));
    gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let link = format!("\n-- \n{public}/games/{id}\n");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let mails = support::mails_in(&server.dir.join("mail"));
        let results: Vec<&String> = mails
            .iter()
            .filter(|m| m.contains("Diplomacy results Linked"))
            .collect();
        if results.len() == 2 {
            assert!(results.iter().all(|m| m.contains(&link)), "{results:?}");
            // So does every other mail about it (the start), and only those.
            let about: Vec<&String> = mails.iter().filter(|m| m.contains("Linked")).collect();
            assert!(about.len() > 2 && about.iter().all(|m| m.contains(&link)), "{about:?}");
            assert!(!mails.iter().any(|m| !m.contains("Linked") && m.contains("\n-- \n")));
            break;
        }
        assert!(std::time::Instant::now() < until, "two result mails: {results:?}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

#[test]
fn the_master_runs_the_clock_and_players_vote_for_a_draw_from_the_page() {
    let server = support::start_server("web-master");
    let mut master = Browser::new(&server.base);
    master.sign_up("greta");
    let mut player = Browser::new(&server.base);
    player.sign_up("hanno");
    let post = |b: &mut Browser, path: &str, fields: &[(&str, &str)]| {
        let page = b.send(path, fields);
        assert_eq!(page.status, 303, "{path}: {}", page.body);
        page
    };
    let created = post(
        &mut master,
        "/games",
        &[
            ("name", "Clockwork"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "600"),
        ],
    );
    let game = created.location.unwrap();
    post(&mut master, &format!("{game}/join"), &[("wish1", "france")]);
    post(&mut player, &format!("{game}/join"), &[("wish1", "germany")]);
    // Before the start there is nothing to control.
    assert!(!master.get(&game).body.contains(r#"id="master""#));
    post(&mut master, &format!("{game}/start"), &[]);

    // Each sees its part in the game in its list.
    assert!(master.get("/games").body.contains("<td>France, Game master</td>"));
    assert!(player.get("/games").body.contains("<td>Germany</td>"));

    // The page shows the latest 50 messages, and all of them when asked; messages new to the
    // reader all, the first time, so none counts as seen unshown.
    for n in 1..=52 {
        post(
            &mut master,
            &format!("{game}/press"),
            &[("body", &format!("Note {n}."))],
        );
    }
    let page = player.get(&game).body;
    assert!(page.contains("Note 52.") && page.contains("Note 1.") && !page.contains(r#"id="earlier-press">"#));
    let page = player.get(&game).body;
    assert!(page.contains("Note 52.") && page.contains("Note 3.") && !page.contains("Note 2."));
    assert!(
        page.contains(r#"id="earlier-press">"#) && page.contains("(2)</a>"),
        "{page}"
    );
    let page = player.get(&format!("{game}?press=all")).body;
    assert!(page.contains("Note 1.") && page.contains("Note 52.") && !page.contains(r#"id="earlier-press""#));

    // Only the master sees the controls; only players see the draw vote.
    let page = master.get(&game).body;
    assert!(
        page.contains(r#"id="master""#) && page.contains(r#"id="draw""#),
        "{page}"
    );
    assert!(!player.get(&game).body.contains(r#"id="master""#));
    let deadline = |b: &mut Browser| {
        let page = b.get(&game).body;
        let start = page.find(r#"id="deadline">"#).map(|i| i + 15);
        start.map(|s| page[s..s + page[s..].find('<').unwrap()].to_string())
    };
    let before = deadline(&mut master).expect("a deadline");
    post(&mut master, &format!("{game}/extend"), &[("hours", "2")]);
    let after = deadline(&mut master).expect("a deadline");
    assert_ne!(before, after, "the deadline moved");
    // A player cannot use the master's controls; a bad number is refused.
    let csrf = player.csrf();
    let refused = player.post(&format!("{game}/pause"), &[("csrf", &csrf)], None);
    assert_eq!(refused.status, 403, "{}", refused.body);
    // Nor learn from the adjudicate button whose orders are awaited.
    let refused = player.post(&format!("{game}/adjudicate"), &[("csrf", &csrf)], None);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(!refused.body.contains("awaited"), "{}", refused.body);
    let csrf = master.csrf();
    let refused = master.post(&format!("{game}/extend"), &[("csrf", &csrf), ("hours", "lots")], None);
    assert_eq!(refused.status, 400, "{}", refused.body);
    let refused = master.post(&format!("{game}/extend"), &[("csrf", &csrf), ("hours", "1000")], None);
    assert_eq!(refused.status, 400, "{}", refused.body);

    post(&mut master, &format!("{game}/pause"), &[]);
    let page = master.get(&game).body;
    assert!(
        page.contains(r#"id="paused""#) && page.contains(r#"id="resume-form""#),
        "{page}"
    );
    assert!(deadline(&mut master).is_none(), "a paused game has no deadline");
    post(&mut master, &format!("{game}/resume"), &[]);
    assert!(!master.get(&game).body.contains(r#"id="paused""#));
    assert!(deadline(&mut master).is_some());

    // Adjudicating the phase the page showed; the same click again is refused, not a second phase.
    // Nobody has ordered yet: the master sees it, and must confirm to adjudicate without them.
    assert!(
        master
            .get(&game)
            .body
            .contains("Orders still awaited from: France, Germany")
    );
    let csrf = master.csrf();
    let unconfirmed = master.post(
        &format!("{game}/adjudicate"),
        &[("csrf", &csrf), ("phase", "S1901M")],
        None,
    );
    assert_eq!(unconfirmed.status, 409, "{}", unconfirmed.body);
    assert!(master.get(&game).body.contains("Spring 1901"));
    post(
        &mut master,
        &format!("{game}/adjudicate"),
        &[("phase", "S1901M"), ("confirm", "1")],
    );
    assert!(master.get(&game).body.contains("Fall 1901"));
    let csrf = master.csrf();
    let again = master.post(
        &format!("{game}/adjudicate"),
        &[("csrf", &csrf), ("phase", "S1901M"), ("confirm", "1")],
        None,
    );
    assert_eq!(again.status, 409, "{}", again.body);
    assert!(master.get(&game).body.contains("Fall 1901"));

    // The game record: every report so far for the members, in their language; others wait for
    // the end.
    assert!(player.get(&game).body.contains(r#"id="record-text""#));
    let record = player.get(&format!("{game}/record.txt"));
    assert_eq!(record.status, 200, "{}", record.body);
    assert!(
        record.body.starts_with("Diplomacy game Clockwork (")
            && record.body.contains("Movement results for Spring of 1901."),
        "{}",
        record.body
    );
    let history: Value = serde_json::from_str(&player.get(&format!("{game}/history.json")).body).expect("JSON");
    // The map of an adjudicated phase may be kept by the browser; the map of now may not.
    let kept = player.get(&format!("{game}/map.svg?step=0"));
    assert!(kept.body.contains("<svg") && kept.cache_control.as_deref().is_some_and(|c| c.contains("immutable")));
    assert_eq!(
        player.get(&format!("{game}/map.svg")).cache_control.as_deref(),
        Some("no-store")
    );
    assert_eq!(history["phases"].as_array().map(Vec::len), Some(1), "{history}");
    let mut lena = Browser::new(&server.base);
    lena.sign_up("lena");
    assert_eq!(lena.get(&format!("{game}/record.txt")).status, 403);

    // A draw vote, withdrawn and given again.
    post(&mut player, &format!("{game}/draw"), &[("vote", "yes")]);
    assert!(player.get(&game).body.contains("You have voted for a draw"));
    post(&mut player, &format!("{game}/draw"), &[("vote", "no")]);
    assert!(!player.get(&game).body.contains("You have voted for a draw"));
    post(&mut player, &format!("{game}/draw"), &[("vote", "yes")]);

    // The master gives Germany to a new player (whose vote starts afresh).
    let mut kurt = Browser::new(&server.base);
    kurt.sign_up("kurt");
    post(
        &mut master,
        &format!("{game}/replace"),
        &[("power", "germany"), ("player", "kurt")],
    );
    assert!(kurt.get(&game).body.contains(r#"id="my-power""#));
    assert!(!player.get(&game).body.contains(r#"id="my-power""#));
    post(&mut master, &format!("{game}/draw"), &[("vote", "yes")]);
    assert!(
        !master.get(&game).body.contains(r#"class="result""#),
        "Germany's new player has not voted"
    );

    // Germany concedes to France: the game is over.
    post(&mut kurt, &format!("{game}/concede"), &[("to", "france")]);
    let page = master.get(&game).body;
    assert!(
        page.contains(r#"class="result""#) && page.contains("Won by concession: France"),
        "{page}"
    );
    assert!(!page.contains(r#"id="master""#), "a finished game has no controls");
    // After the end, anyone may read the record.
    let record = lena.get(&format!("{game}/record.txt"));
    assert_eq!(record.status, 200, "{}", record.body);
    assert!(record.body.contains("Spring of 1901"), "{}", record.body);
}

#[test]
fn a_hegemony_game_is_made_with_its_options_and_each_player_sees_only_the_own_politics() {
    let server = support::start_server("web-hegemony");
    let mut master = Browser::new(&server.base);
    master.sign_up("hedda");
    let mut player = Browser::new(&server.base);
    player.sign_up("ingo");
    let created = master.send(
        "/games",
        &[
            ("name", "Europa 1701"),
            ("variant", "hegemony-1701"),
            ("press", "full"),
            ("minutes", "600"),
            ("control_rule", "alternative"),
            ("victory", "3"),
        ],
    );
    assert_eq!(created.status, 303, "{}", created.body);
    let game = created.location.unwrap();
    // A standard game with a Hegemony option is refused with the reason.
    let refused = master.send(
        "/games",
        &[
            ("name", "Plain"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "60"),
            ("victory", "3"),
        ],
    );
    assert!(refused.body.contains("political factors"), "{}", refused.body);
    master.send(&format!("{game}/join"), &[("wish1", "austria")]);
    player.send(&format!("{game}/join"), &[("wish1", "england")]);
    master.send(&format!("{game}/start"), &[]);
    let mine = master.get(&game).body;
    assert!(
        mine.contains(r#"id="rule-options""#) && mine.contains("alternative (1.1.11)"),
        "{mine}"
    );
    assert!(
        mine.contains(r#"<a href="/rules/hegemony-1701" id="game-rules">"#),
        "{mine}"
    );
    assert!(
        mine.contains(r#"id="politics""#) && mine.contains("Political factors in stock:"),
        "{mine}"
    );
    // One panel each, for the viewer's own power only.
    let theirs = player.get(&game).body;
    assert_eq!(theirs.matches(r#"id="politics""#).count(), 1, "{theirs}");
    assert_eq!(mine.matches(r#"id="politics""#).count(), 1);
    let observer_view = Browser::new(&server.base).get(&game).body;
    assert!(!observer_view.contains(r#"id="politics""#));
}

#[test]
fn an_account_changes_its_address_language_and_password_with_the_password_in_use() {
    let server = support::start_server("web-account");
    let mut b = Browser::new(&server.base);
    b.sign_up("ida");
    let page = b.get("/account").body;
    assert!(page.contains(r#"value="ida@example.org""#), "{page}");
    // A new account's address waits for the code mailed to it (there is no other to keep).
    assert!(
        page.contains(r#"id="pending-address""#) && !page.contains(r#"id="withdraw-form""#),
        "{page}"
    );
    let code = support::code_mailed_to(&server, "ida@example.org", "Diplomacy: confirm your address");
    let csrf = b.csrf();
    let confirmed = b.post("/account/email", &[("csrf", &csrf), ("code", &code)], None);
    assert_eq!(confirmed.status, 303, "{}", confirmed.body);
    assert!(!b.get("/account").body.contains(r#"id="pending-address""#));
    // A second browser of the same account.
    let mut other = Browser::new(&server.base);
    other.get("/");
    let csrf = other.csrf();
    let login = other.post(
        "/login",
        &[("csrf", &csrf), ("name", "ida"), ("password", "long enough")],
        None,
    );
    assert_eq!(login.status, 303);

    // The wrong password changes nothing.
    let csrf = b.csrf();
    let refused = b.post(
        "/account",
        &[
            ("csrf", &csrf),
            ("email", "evil@example.net"),
            ("lang", "de"),
            ("current_password", "wrong one"),
        ],
        None,
    );
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(b.get("/account").body.contains("ida@example.org"));
    let done = b.post(
        "/account",
        &[
            ("csrf", &csrf),
            ("email", "ida@example.com"),
            ("lang", "de"),
            ("current_password", "long enough"),
        ],
        None,
    );
    assert_eq!(done.status, 303, "{}", done.body);
    // The language changed at once; the new address waits for the code mailed to it.
    let page = b.get(done.location.as_deref().unwrap()).body;
    assert!(
        page.contains("Bisheriges Passwort")
            && page.contains("Gespeichert.")
            && page.contains(r#"id="pending-address""#),
        "{page}"
    );
    assert!(page.contains(r#"value="ida@example.org""#), "{page}");
    let code = support::code_mailed_to(&server, "ida@example.com", "Diplomacy: neue Adresse bestätigen");
    // The mail's code, typed in lower case, or carried by its link into the form.
    let linked = b.get(&format!("/account?code={code}")).body;
    assert!(linked.contains(&format!(r#"value="{code}""#)), "{linked}");
    let confirmed = b.post(
        "/account/email",
        &[("csrf", &csrf), ("code", &code.to_lowercase())],
        None,
    );
    assert_eq!(confirmed.status, 303, "{}", confirmed.body);
    let page = b.get("/account").body;
    assert!(
        page.contains(r#"value="ida@example.com""#) && !page.contains(r#"id="pending-address""#),
        "{page}"
    );
    // The old address is told of the change.
    let notices = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
        m.contains("<ida@example.org>") && m.contains("Subject: Diplomacy: address changed")
    });
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("ida@example.com"), "{}", notices[0]);

    // A new password: it must be typed twice alike; then this browser gets a new session, the
    // other is logged out.
    let csrf = b.csrf();
    let mismatch = b.post(
        "/account",
        &[
            ("csrf", &csrf),
            ("change", "password"),
            ("current_password", "long enough"),
            ("new_password", "even longer now"),
            ("new_password_again", "even longer noW"),
        ],
        None,
    );
    assert_eq!(mismatch.status, 400, "{}", mismatch.body);
    let done = b.post(
        "/account",
        &[
            ("csrf", &csrf),
            ("change", "password"),
            ("current_password", "long enough"),
            ("new_password", "even longer now"),
            ("new_password_again", "even longer now"),
        ],
        None,
    );
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(b.get("/games").status, 200);
    assert_eq!(other.get("/games").status, 401);

    // The API sees the same account and takes the new password only.
    let client = support::Client::new(&server);
    let (status, _) = client.call(
        "POST",
        "/api/sessions",
        Some(json!({"name": "ida", "password": "long enough"})),
    );
    assert_eq!(status, 401);
    let (status, session) = client.call(
        "POST",
        "/api/sessions",
        Some(json!({"name": "ida", "password": "even longer now"})),
    );
    assert_eq!(status, 200, "{session}");
    let client = support::Client {
        token: session["token"].as_str().map(str::to_string),
        ..support::Client::new(&server)
    };
    let shown = client.ok("GET", "/api/account", None);
    assert_eq!(
        (shown["email"].as_str(), shown["lang"].as_str()),
        (Some("ida@example.com"), Some("de"))
    );
    // A new password through the API ends every session and answers with a new token.
    let changed = client.ok(
        "PATCH",
        "/api/account",
        Some(json!({"current_password": "even longer now", "lang": "en", "new_password": "the third one"})),
    );
    assert_eq!(
        (changed["lang"].as_str(), changed["password_changed"].as_bool()),
        (Some("en"), Some(true))
    );
    assert_eq!(client.call("GET", "/api/account", None).0, 401);
    let renewed = support::Client {
        token: changed["token"].as_str().map(str::to_string),
        ..support::Client::new(&server)
    };
    assert_eq!(renewed.ok("GET", "/api/account", None)["name"], "ida");
    assert_eq!(b.get("/games").status, 401);
}

/// Every attempt at a code counts as a login: this test has a server (and rate limit) of its own.
#[test]
fn a_new_address_through_the_api_waits_for_its_code() {
    let server = support::start_server("api-address");
    let client = support::player(&server, "jon");
    let before = client.ok("GET", "/api/account", None);
    // A list of addresses is not an address.
    let (status, error) = client.call(
        "PATCH",
        "/api/account",
        Some(json!({"current_password": "long enough", "email": "a@example.org, b@example.org"})),
    );
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_email")), "{error}");
    // Through the API, too, a new address waits for its code.
    let changed = client.ok(
        "PATCH",
        "/api/account",
        Some(json!({"current_password": "long enough", "email": "jon@example.net"})),
    );
    assert_eq!(
        (changed["email"].as_str(), changed["pending_email"].as_str()),
        (before["email"].as_str(), Some("jon@example.net"))
    );
    let code = support::code_mailed_to(&server, "jon@example.net", "Diplomacy: confirm your new address");
    let (status, error) = client.call("POST", "/api/account/email", Some(json!({"code": "AAAA-AAAA"})));
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_code")), "{error}");
    let confirmed = client.ok("POST", "/api/account/email", Some(json!({"code": code})));
    assert_eq!(
        (confirmed["email"].as_str(), confirmed["pending_email"].as_str()),
        (Some("jon@example.net"), None)
    );
    let (status, error) = client.call("POST", "/api/account/email", Some(json!({"code": code})));
    assert_eq!(
        (status, error["code"].as_str()),
        (400, Some("no_new_address")),
        "{error}"
    );
    let told = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
        m.contains("<jon@example.org>") && m.contains("Subject: Diplomacy: address changed")
    });
    assert_eq!(told.len(), 1, "{told:?}");
    // A new address is withdrawn by request, or by a new password.
    let pending = |body: Value| {
        let shown = client.ok("PATCH", "/api/account", Some(body));
        shown["pending_email"].as_str().map(str::to_string)
    };
    let new_address = json!({"current_password": "long enough", "email": "jon@example.com"});
    assert_eq!(pending(new_address.clone()).as_deref(), Some("jon@example.com"));
    let withdrawn = client.ok("DELETE", "/api/account/email", None);
    assert_eq!(
        (withdrawn["email"].as_str(), &withdrawn["pending_email"]),
        (Some("jon@example.net"), &Value::Null)
    );
    assert!(pending(new_address).is_some());
    let renewed = client.ok(
        "PATCH",
        "/api/account",
        Some(json!({"current_password": "long enough", "new_password": "another one"})),
    );
    assert_eq!(renewed["pending_email"], Value::Null, "{renewed}");
}

#[test]
fn a_plain_http_public_address_elsewhere_needs_insecure_cookies() {
    let dir = support::fresh_dir("web-plain-http");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_spielleiter"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--public-url",
            "http://diplomacy.example.org",
            "--data",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if std::time::Instant::now() > until {
            let _ = child.kill();
            panic!("the judge started although browsers would drop its log-in cookie");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let mut why = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut why).expect("reads");
    assert!(!status.success());
    assert!(why.contains("--insecure-cookies"), "{why}");
}

#[test]
fn the_live_echo_is_bounded_and_limited_and_pages_run_only_their_own_scripts() {
    let server = support::start_server("web-echo");
    let mut master = Browser::new(&server.base);
    master.sign_up("ernst");
    let mut other = Browser::new(&server.base);
    other.sign_up("erika");
    let created = master.send(
        "/games",
        &[
            ("name", "Echoes"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", "600"),
        ],
    );
    let game = created.location.expect("the new game's page");
    master.send(&format!("{game}/join"), &[("wish1", "france")]);
    other.send(&format!("{game}/join"), &[("wish1", "germany")]);
    master.send(&format!("{game}/start"), &[]);
    let page = master.get(&game);
    let policy = page.policy.expect("a policy");
    assert!(
        policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"),
        "{policy}"
    );

    let echo = master.send(&format!("{game}/echo"), &[("orders", "A Par - Bur")]);
    assert_eq!(echo.status, 200, "{}", echo.body);
    assert!(echo.body.contains("A PAR - BUR"), "{}", echo.body);
    let huge = "A Par H\n".repeat(5000);
    let refused = master.send(&format!("{game}/echo"), &[("orders", &huge)]);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("at most 500 lines"), "{}", refused.body);
    let limited = (0..200)
        .map(|_| master.send(&format!("{game}/echo"), &[("orders", "A Par H")]).status)
        .find(|s| *s != 200);
    assert_eq!(limited, Some(429), "the echo is rate-limited");
}
