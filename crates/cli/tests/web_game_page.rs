//! The game page as players use it, over plain HTTP (the browser tests are in `web_play.rs`):
//! its weight compressed, the echo's "did you mean" and completeness warnings.

mod support;

use spielleiter_engine::report::Lang;
use spielleiter_engine::report::vocabulary::words_in;
use support::browser::Browser;

/// A started standard game on the web: `master` plays France, `player` Germany.
fn started_game(server: &support::Server, master: &mut Browser, player: &mut Browser, minutes: &str) -> String {
    let created = master.send(
        "/games",
        &[
            ("name", "Page game"),
            ("variant", "standard"),
            ("press", "full"),
            ("minutes", minutes),
        ],
    );
    assert_eq!(created.status, 303, "{}", created.body);
    let game = created.location.expect("the game's page");
    for (b, wish) in [(&mut *master, "france"), (&mut *player, "germany")] {
        let page = b.send(&format!("{game}/join"), &[("wish1", wish)]);
        assert_eq!(page.status, 303, "{}", page.body);
    }
    assert_eq!(master.send(&format!("{game}/start"), &[]).status, 303);
    let _ = server;
    game
}

/// The size of a page as sent with `encoding`, and the encoding the server chose.
fn weight(b: &Browser, path: &str, encoding: &str) -> (usize, Option<String>) {
    let mut response = b
        .agent
        .get(format!("{}{path}", b.base))
        .header("Cookie", b.cookie_header())
        .header("Accept-Encoding", encoding)
        .call()
        .expect("an answer");
    let chosen = response
        .headers()
        .get("content-encoding")
        .map(|v| v.to_str().expect("text").to_string());
    let body = response.body_mut().read_to_vec().expect("a body");
    (body.len(), chosen)
}

#[test]
fn the_game_page_is_sent_compressed_and_weighs_under_150_kb() {
    let server = support::start_server("web-weight");
    let mut master = Browser::new(&server.base);
    master.sign_up("wilma");
    let mut player = Browser::new(&server.base);
    player.sign_up("xaver");
    let game = started_game(&server, &mut master, &mut player, "600");
    let (plain, none) = weight(&master, &game, "identity");
    assert_eq!(none, None);
    for encoding in ["gzip", "br"] {
        let (size, chosen) = weight(&master, &game, encoding);
        assert_eq!(chosen.as_deref(), Some(encoding));
        assert!(size < 150 * 1024, "{encoding}: {size} bytes");
        assert!(size * 3 < plain, "{encoding}: {size} of {plain} bytes");
    }
    // The script and the style sheet too.
    for path in ["/static/game.js", "/static/site.css"] {
        assert_eq!(weight(&master, path, "gzip").1.as_deref(), Some("gzip"), "{path}");
    }
}

#[test]
fn the_echo_suggests_names_and_tells_what_the_orders_leave_out() {
    let server = support::start_server("web-gaps");
    let mut master = Browser::new(&server.base);
    master.sign_up("yvonne");
    let mut player = Browser::new(&server.base);
    player.sign_up("zeno");
    let game = started_game(&server, &mut master, &mut player, "600");

    // The live echo: a misspelt name with its likely meaning, and the units left without orders.
    let echo = master.send(&format!("{game}/echo"), &[("orders", "A Par - Pickardy\nA Mar H")]);
    assert_eq!(echo.status, 200, "{}", echo.body);
    assert!(
        echo.body.contains("did you mean <strong>Picardy</strong>?"),
        "{}",
        echo.body
    );
    // Names in the message in quotation marks, not Markdown's backticks.
    assert!(echo.body.contains("unknown province “Pickardy”"), "{}", echo.body);
    assert!(echo.body.contains(r#"id="gaps""#), "{}", echo.body);
    for unit in [
        "Army Paris has no order: it holds.",
        "Fleet Brest has no order: it holds.",
    ] {
        assert!(echo.body.contains(unit), "{unit}: {}", echo.body);
    }
    assert!(!echo.body.contains("Army Marseilles has no order"), "{}", echo.body);

    // Sent: the page shows the same to France alone (what orders hold is secret, also from the
    // master, who plays France here: the secrecy twins in `secrecy.rs` check the master's view).
    let sent = master.send(&format!("{game}/orders"), &[("orders", "A Par - Bur\nA Mar H")]);
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = master.get(&game).body;
    assert!(page.contains("Fleet Brest has no order: it holds."), "{page}");
    assert!(!player.get(&game).body.contains("Fleet Brest has no order"));
    // The map marks each own unit: ordered, or not yet; the other player's units carry no mark.
    let marks = |page: &str, class: &str| page.matches(&format!(r#"class="mark {class}""#)).count();
    assert_eq!((marks(&page, "ordered"), marks(&page, "missing")), (2, 1), "{page}");
    assert!(page.contains(r#"class="mark missing" data-location="bre""#), "{page}");
    let theirs = player.get(&game).body;
    assert_eq!(
        marks(&theirs, "ordered") + marks(&theirs, "missing"),
        3,
        "Germany's own three"
    );
    assert!(!theirs.contains(r#"data-location="bre" pointer-events"#), "{theirs}");
    // A move Marseilles cannot make: its unit is marked refused (the line is kept, shown with
    // its error, and the unit holds).
    master.send(&format!("{game}/orders"), &[("orders", "A Par - Bur\nA Mar - Mun")]);
    let page = master.get(&game).body;
    assert!(page.contains(r#"class="mark refused" data-location="mar""#), "{page}");
    assert_eq!((marks(&page, "ordered"), marks(&page, "missing")), (1, 1), "{page}");

    // Complete orders: no warning left; in German the warning is German.
    master.send(
        &format!("{game}/orders"),
        &[("orders", "A Par - Bur\nA Mar H\nF Bre - Mao")],
    );
    let page = master.get(&game).body;
    assert!(!page.contains(r#"id="gaps""#), "{page}");
    player.get("/lang?to=de");
    let echo = player.send(&format!("{game}/echo"), &[("orders", "A Ber - Kie")]);
    assert!(
        echo.body.contains("Armee München hat keinen Befehl: sie hält."),
        "{}",
        echo.body
    );
}

#[test]
fn a_game_link_logged_out_leads_through_the_login_back_to_the_game() {
    let server = support::start_server("web-next");
    let mut master = Browser::new(&server.base);
    master.sign_up("anja");
    let mut player = Browser::new(&server.base);
    player.sign_up("bodo");
    let game = started_game(&server, &mut master, &mut player, "600");

    let mut stranger = Browser::new(&server.base);
    let page = stranger.get(&game);
    assert_eq!(page.status, 401);
    assert!(page.body.contains(r#"id="login-form""#), "{}", page.body);
    assert!(
        page.body.contains(&format!(r#"name="next" value="{game}""#)),
        "{}",
        page.body
    );
    // A wrong password: the home page again, the name and the way back kept.
    let csrf = stranger.csrf();
    let refused = stranger.post(
        "/login",
        &[
            ("csrf", &csrf),
            ("name", "bodo"),
            ("password", "wrong one"),
            ("next", &game),
        ],
        None,
    );
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(refused.body.contains(r#"id="refusal""#), "{}", refused.body);
    assert!(refused.body.contains(r#"value="bodo""#), "{}", refused.body);
    assert!(refused.body.contains(&format!(r#"name="next" value="{game}""#)));
    let done = stranger.post(
        "/login",
        &[
            ("csrf", &csrf),
            ("name", "bodo"),
            ("password", "long enough"),
            ("next", &game),
        ],
        None,
    );
    assert_eq!((done.status, done.location.as_deref()), (303, Some(game.as_str())));
    // Another site is never where a login leads.
    let mut other = Browser::new(&server.base);
    other.get("/");
    let csrf = other.csrf();
    for next in ["//evil.example/x", "https://evil.example/", "/\\evil.example"] {
        let done = other.post(
            "/login",
            &[
                ("csrf", &csrf),
                ("name", "anja"),
                ("password", "long enough"),
                ("next", next),
            ],
            None,
        );
        assert_eq!((done.status, done.location.as_deref()), (303, Some("/games")), "{next}");
    }
}

/// The powers table's row of `power` on a page, as text without tags.
fn row_of(page: &str, power: &str) -> String {
    let table = &page[page.find(r#"id="powers""#).expect("the powers table")..];
    let start = table
        .find(&format!("</span>{power}</td>"))
        .unwrap_or_else(|| panic!("{power}: {table}"));
    let row = &table[start..start + table[start..].find("</tr>").expect("a row's end")];
    let mut text = String::new();
    let mut tag = false;
    for c in row.chars() {
        match c {
            '<' => tag = true,
            '>' => {
                tag = false;
                if !text.ends_with('|') {
                    text.push('|');
                }
            }
            c if !tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn the_page_shows_each_powers_state_the_last_results_and_the_winter_builds() {
    let server = support::start_server("web-states");
    let mut master = Browser::new(&server.base);
    master.sign_up("carl");
    let mut player = Browser::new(&server.base);
    player.sign_up("dana");
    let game = started_game(&server, &mut master, &mut player, "600");

    // The games list: Germany's orders are needed, with the deadline to count down.
    let list = player.get("/games").body;
    assert!(list.contains("your orders are needed"), "{list}");
    assert!(list.contains(r#"<time class="countdown" datetime=""#), "{list}");
    let page = player.get(&game).body;
    assert!(page.contains(r#"<time id="countdown" datetime=""#), "{page}");
    assert!(
        row_of(&page, "Germany").contains("|dana|3|3|not yet|"),
        "{}",
        row_of(&page, "Germany")
    );

    // Germany sends: its own row says so, the list no longer asks; France's row tells Germany
    // nothing, while the master (France's player) sees Germany's state.
    player.send(&format!("{game}/orders"), &[("orders", "A Mun - Ruh")]);
    assert!(!player.get("/games").body.contains("your orders are needed"));
    let page = player.get(&game).body;
    assert!(
        row_of(&page, "Germany").contains("|sent|"),
        "{}",
        row_of(&page, "Germany")
    );
    assert!(
        row_of(&page, "France").ends_with("|3|3|"),
        "{}",
        row_of(&page, "France")
    );
    assert!(row_of(&master.get(&game).body, "Germany").contains("|sent|"));

    // Spring: France takes Spain's way and the sea; Germany misses nothing. Fall: France takes
    // Spain and Portugal, Germany misses its turn.
    master.send(
        &format!("{game}/orders"),
        &[("orders", "A Mar - Spa\nF Bre - Mao\nA Par H")],
    );
    let adjudicate = |b: &mut Browser, phase: &str| {
        let done = b.send(&format!("{game}/adjudicate"), &[("phase", phase), ("confirm", "1")]);
        assert_eq!(done.status, 303, "{}", done.body);
    };
    adjudicate(&mut master, "S1901M");
    let page = player.get(&game).body;
    assert!(
        page.contains(r#"id="last-results""#) && page.contains("Results: Spring 1901"),
        "{page}"
    );
    master.send(
        &format!("{game}/orders"),
        &[("orders", "F Mao - Por\nA Spa H\nA Par H")],
    );
    adjudicate(&mut master, "F1901M");
    let page = master.get(&game).body;
    assert!(
        page.contains("This winter you may build 2 unit(s), in a free home centre: Brest, Marseilles."),
        "{page}"
    );
    assert!(
        row_of(&page, "France").contains("|5|3 |(+2)|"),
        "{}",
        row_of(&page, "France")
    );
    assert!(
        row_of(&page, "Germany").contains("missed turns: 1"),
        "{}",
        row_of(&page, "Germany")
    );
    let page = player.get(&game).body;
    assert!(
        page.contains("This winter you have nothing to build or disband."),
        "{page}"
    );
    assert!(
        row_of(&page, "Germany").contains("nothing to order · missed turns: 1"),
        "{}",
        row_of(&page, "Germany")
    );
}

#[test]
fn the_new_game_form_sets_every_clock_setting_and_keeps_what_was_typed_when_refused() {
    let server = support::start_server("web-new-game");
    let mut b = Browser::new(&server.base);
    b.sign_up("emma");
    let form = b.get("/games").body;
    for field in [
        "retreat_minutes",
        "build_minutes",
        "time_zone",
        "deadline_at",
        "early",
        "grace_minutes",
        "nmr_limit",
        "reminder_hours",
    ] {
        assert!(form.contains(&format!(r#"name="{field}""#)), "{field}");
    }
    // Refused (a time zone that does not exist): the form again with what was typed.
    let fields = [
        ("name", "Clocked"),
        ("variant", "ancmed"),
        ("press", "grey"),
        ("minutes", "90"),
        ("retreat_minutes", "10"),
        ("build_minutes", "15"),
        ("early", "1"),
        ("grace_minutes", "30"),
        ("nmr_limit", "3"),
        ("reminder_hours", "6"),
        ("time_zone", "Mars/Olympus"),
        ("deadline_at", "20:00"),
    ];
    let refused = b.send("/games", &fields);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains(r#"id="new-game-refusal""#), "{}", refused.body);
    for kept in [
        r#"value="Clocked""#,
        r#"<option value="ancmed" selected>"#,
        r#"<option value="grey" selected>"#,
        r#"name="retreat_minutes" inputmode="decimal" value="10""#,
        r#"value="Mars/Olympus""#,
        r#"name="early" value="1" checked"#,
    ] {
        assert!(refused.body.contains(kept), "{kept}: {}", refused.body);
    }
    // Mended: made with every setting, as the API tells.
    let mut fields = fields.to_vec();
    fields.retain(|(k, _)| *k != "time_zone");
    fields.push(("time_zone", "Europe/Berlin"));
    let made = b.send("/games", &fields);
    assert_eq!(made.status, 303, "{}", made.body);
    let id = made
        .location
        .expect("the game")
        .trim_start_matches("/games/")
        .to_string();
    let mut api = support::Client::new(&server);
    let session = api.ok(
        "POST",
        "/api/sessions",
        Some(serde_json::json!({"name": "emma", "password": "long enough"})),
    );
    api.token = session["token"].as_str().map(str::to_string);
    let game = api.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["deadlines"]["movement_seconds"], 5400, "{game}");
    assert_eq!(game["deadlines"]["retreat_seconds"], 600, "{game}");
    assert_eq!(game["deadlines"]["adjustment_seconds"], 900, "{game}");
    assert_eq!(
        (&game["early"], &game["nmr_limit"], &game["grace_seconds"]),
        (
            &serde_json::json!(true),
            &serde_json::json!(3),
            &serde_json::json!(1800)
        ),
        "{game}"
    );
    assert_eq!(
        (&game["time_zone"], &game["deadline_at"]),
        (&serde_json::json!("Europe/Berlin"), &serde_json::json!("20:00"))
    );
}

#[test]
fn press_shows_when_it_was_sent_marks_what_is_new_and_offers_no_letter_to_oneself() {
    let server = support::start_server("web-press");
    let mut master = Browser::new(&server.base);
    master.sign_up("fritz");
    let mut player = Browser::new(&server.base);
    player.sign_up("gerda");
    let game = started_game(&server, &mut master, &mut player, "600");

    let page = player.get(&game).body;
    let form = &page[page.find(r#"id="press-form""#).expect("the press form")..];
    let form = &form[..form.find("</form>").expect("the form's end")];
    assert!(
        form.contains(r#"value="france""#) && !form.contains(r#"value="germany""#),
        "{form}"
    );
    // Press comes before the members on the page.
    assert!(page.find(r#"id="press""#) < page.find(r#"id="members""#));

    master.send(
        &format!("{game}/press"),
        &[("body", "Hello, Germany."), ("to", "germany")],
    );
    let page = player.get(&game).body;
    assert!(page.contains(r#"id="press-new">(1 new)"#), "{page}");
    assert!(
        page.contains(r#"<li class="new">"#) && page.contains(r#"<time class="local" datetime="20"#),
        "{page}"
    );
    assert!(page.contains(" UTC</time>"), "{page}");
    // Seen once, no longer new; one's own message is never new.
    player.send(
        &format!("{game}/press"),
        &[("body", "Hello, France."), ("to", "france")],
    );
    let page = player.get(&game).body;
    assert!(
        !page.contains(r#"class="new""#) && !page.contains(r#"id="press-new""#),
        "{page}"
    );
    let page = master.get(&game).body;
    assert!(page.contains(r#"id="press-new">(1 new)"#), "{page}");
}

#[test]
fn a_player_sees_the_own_wishes_changes_them_or_leaves_before_the_start() {
    let server = support::start_server("web-join");
    let mut master = Browser::new(&server.base);
    master.sign_up("hilde");
    let mut player = Browser::new(&server.base);
    player.sign_up("ingo");
    let created = master.send(
        "/games",
        &[("name", "Forming"), ("variant", "standard"), ("minutes", "60")],
    );
    let game = created.location.expect("the game");
    // The list names the master and how many of the seven seats are taken.
    let list = player.get("/games").body;
    assert!(list.contains("<td>0 / 7</td><td>hilde</td>"), "{list}");

    let joined = player.send(&format!("{game}/join"), &[("wish1", "italy"), ("wish2", "austria")]);
    assert_eq!(joined.location.as_deref(), Some(format!("{game}#joined").as_str()));
    let page = player.get(&game).body;
    assert!(page.contains("your wishes: Italy, Austria."), "{page}");
    assert!(page.contains(r#"<option value="italy" selected>"#), "{page}");
    assert!(!page.contains(r#"id="join-form""#));
    assert!(player.get("/games").body.contains("<td>1 / 7</td>"));

    // Changed: the new wishes stand; a power that is none is refused, the old ones kept.
    assert_eq!(
        player.send(&format!("{game}/wishes"), &[("wish1", "turkey")]).status,
        303
    );
    assert!(player.get(&game).body.contains("your wishes: Turkey."));
    let refused = player.send(&format!("{game}/wishes"), &[("wish1", "atlantis")]);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(player.get(&game).body.contains("your wishes: Turkey."));
    // The master cannot change wishes he has not; an outsider cannot leave.
    assert_eq!(
        master.send(&format!("{game}/wishes"), &[("wish1", "france")]).status,
        409
    );
    assert_eq!(master.send(&format!("{game}/leave"), &[]).status, 409);

    // Left: the seat is free again, the join form back.
    assert_eq!(player.send(&format!("{game}/leave"), &[]).status, 303);
    assert!(player.get(&game).body.contains(r#"id="join-form""#));
    assert!(player.get("/games").body.contains("<td>0 / 7</td>"));

    // After the start nobody leaves, and the page names the lot's seed.
    player.send(&format!("{game}/join"), &[("wish1", "germany")]);
    master.send(&format!("{game}/join"), &[("wish1", "france")]);
    assert_eq!(master.send(&format!("{game}/start"), &[]).status, 303);
    assert_eq!(player.send(&format!("{game}/leave"), &[]).status, 409);
    assert!(player.get(&game).body.contains(r#"id="lot-seed">Seed of the lot"#));
}

/// What a reader reads of a mail: its subject and text (the other headers are for machines);
/// a page as it is.
fn mail_words(text: &str) -> String {
    match text.split_once("\n\n") {
        Some((head, body)) if head.starts_with("From:") => {
            let subject = head.lines().find(|l| l.starts_with("Subject:")).unwrap_or_default();
            format!("{}\n{body}", subject.trim_start_matches("Subject:"))
        }
        _ => text.to_string(),
    }
}

/// The words of `lang`'s report vocabulary in a page's or mail's text (tags and their
/// attributes left out).
fn vocabulary_in(text: &str, lang: Lang) -> Vec<&'static str> {
    let mut plain = String::new();
    let mut tag = false;
    for c in text.chars() {
        match c {
            '<' => tag = true,
            '>' => {
                tag = false;
                plain.push(' ');
            }
            c if !tag => plain.push(c),
            _ => {}
        }
    }
    words_in(&plain, lang)
}

/// The power names of `lang` that `text` holds as words; in either language also the power keys
/// (`FRANCE`), which are for machines, never for readers.
fn power_names_in(text: &str, lang: Lang) -> Vec<&'static str> {
    let names: &[&str] = match lang {
        Lang::En => &["France", "Germany", "Austria", "Russia", "Turkey", "Italy"],
        Lang::De => &[
            "Frankreich",
            "Deutschland",
            "Österreich",
            "Russland",
            "Türkei",
            "Italien",
        ],
    };
    let keys = ["FRANCE", "GERMANY", "AUSTRIA", "ENGLAND", "RUSSIA", "TURKEY", "ITALY"];
    let words: Vec<&str> = text.split(|c: char| !c.is_alphabetic()).collect();
    names
        .iter()
        .chain(keys.iter())
        .copied()
        .filter(|n| words.contains(n))
        .collect()
}

#[test]
fn german_readers_read_no_english_report_words_and_english_readers_no_german_ones() {
    let server = support::start_server("web-words");
    let gm = support::player_in(&server, "jonas", "de");
    let other = support::player_in(&server, "kate", "en");
    let id = support::two_player_game(&gm, &other, "Words", serde_json::json!({}));
    gm.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(serde_json::json!({"orders": ["A Par - Bur", "A Mar - Bur", "F Bre - Mao"]})),
    );
    other.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(serde_json::json!({"orders": ["A Mun - Ruh", "F Kie - Hol", "A Ber - Kie"]})),
    );
    for (from, to) in [(&gm, "GERMANY"), (&other, "FRANCE")] {
        from.ok(
            "POST",
            &format!("/api/games/{id}/press"),
            Some(serde_json::json!({"to": [to], "body": "Munich?"})),
        );
    }
    gm.ok(
        "POST",
        &format!("/api/games/{id}/adjudicate"),
        Some(serde_json::json!({"phase": "S1901M"})),
    );
    let game = format!("/games/{id}");
    for (name, own, foreign) in [("jonas", Lang::De, Lang::En), ("kate", Lang::En, Lang::De)] {
        let mut b = Browser::new(&server.base);
        b.log_in(name, "long enough");
        let page = b.get(&game).body;
        let echo = b
            .send(&format!("{game}/echo"), &[("orders", "A Bur - Spainx\nF Mao H")])
            .body;
        let list = b.get("/games").body;
        let mails = support::wait_for_mails_in(&[server.dir.join("mail")], 3, |m| {
            m.contains(&format!("<{name}@example.org>")) && !m.contains("Subject: Diplomacy: ")
        });
        for (what, text) in [("game page", &page), ("echo", &echo), ("games list", &list)]
            .into_iter()
            .chain(mails.iter().map(|m| ("mail", m)))
            .map(|(what, text)| (what, mail_words(text)))
        {
            assert_eq!(
                vocabulary_in(&text, foreign),
                [] as [&str; 0],
                "{name}, {what}:\n{text}"
            );
            // A press mail is the sender's words under three lines of ours.
            let press = text.contains("Presse von") || text.contains("press from");
            assert!(press || vocabulary_in(&text, own).len() >= 2, "{name}, {what}:\n{text}");
            assert_eq!(
                power_names_in(&text, foreign),
                [] as [&str; 0],
                "{name}, {what}:\n{text}"
            );
        }
        let named = mails.iter().filter(|m| !power_names_in(m, own).is_empty()).count();
        assert!(named >= 1, "{name}: no mail names a power in the reader's language");
    }
}
