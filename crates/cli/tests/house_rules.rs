//! The house rules of our documents through the real `spielleiter serve`: a standard game with
//! retreats only with the moves (seed 000 §10b), chosen when it is created, shown in the game and
//! the start mail, in which a dislodged unit without a retreat order is disbanded and no retreat
//! phase is held.

mod support;

use serde_json::json;
use support::{player, start_server, two_player_game};

#[test]
fn with_retreats_only_with_the_moves_a_unit_without_one_is_disbanded_and_no_retreat_phase_is_held() {
    let server = start_server("house-retreats");
    let (france, germany) = (player(&server, "fanny"), player(&server, "gerd"));
    let settings = json!({"movement_seconds": 3600, "retreats_with_moves": true});
    let id = two_player_game(&france, &germany, "Hausregel", settings);
    let game = france.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["retreats_with_moves"], true, "{game}");
    let started = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
        m.contains("Subject: Game started: Hausregel") && m.contains("<fanny@example.org>")
    });
    assert!(
        started[0].contains("House rule: retreats only with the moves."),
        "{}",
        started[0]
    );
    let mut web = support::browser::Browser::new(&server.base);
    web.log_in("fanny", "long enough");
    let page = web.get(&format!("/games/{id}")).body;
    assert!(
        page.contains(r#"id="rule-options""#) && page.contains("Retreats only with the moves"),
        "{page}"
    );

    let orders = |who: &support::Client, lines: &[&str]| {
        who.ok(
            "PUT",
            &format!("/api/games/{id}/orders"),
            Some(json!({ "orders": lines })),
        );
    };
    let adjudicate = |phase: &str| {
        let path = format!("/api/games/{id}/adjudicate?phase={phase}");
        france.ok("POST", &path, None)
    };
    orders(&germany, &["A Mun - Ruh", "A Ber - Mun", "F Kie H"]);
    orders(&france, &["A Par - Bur", "A Mar H", "F Bre H"]);
    adjudicate("S1901M");
    // Fall: the French army in Burgundy is dislodged; France sent no retreat with its moves.
    orders(&germany, &["A Ruh - Bur", "A Mun S A Ruh - Bur", "F Kie H"]);
    orders(&france, &["A Bur H", "A Mar H", "F Bre H"]);
    let fall = adjudicate("F1901M");
    assert_eq!(fall["result"]["phase"], "W1901A", "no retreat phase: {fall}");
    let report = fall["report"].as_str().unwrap_or_default();
    assert!(
        report.contains("France: Army Burgundy, no retreat order: destroyed."),
        "{report}"
    );
    let units = &fall["result"]["units"]["FRANCE"];
    assert_eq!(units, &json!(["F BRE", "A MAR"]), "{fall}");
    let now = france.ok("GET", &format!("/api/games/{id}"), None);
    assert!(now.to_string().contains("W1901A"), "{now}");
}

/// A confirmed account whose password has no spaces (a mail player writes it).
fn mail_account(server: &support::Server, name: &str, lang: &str) -> support::Client {
    let c = support::unconfirmed_player_with(server, name, lang, &format!("pw-{name}-2026"));
    support::confirm_address(server, &c, &format!("{name}@example.org"), lang);
    c
}

#[test]
fn an_ancient_mediterranean_year_sent_at_once_with_conditional_orders_by_mail_and_api() {
    let server = start_server("house-year");
    let rome = mail_account(&server, "romulus", "de");
    let carthage = mail_account(&server, "hanno", "en");
    let settings = json!({"name": "antike", "variant": "ancmed", "movement_seconds": 86400, "year_at_once": true});
    let id = rome.ok("POST", "/api/games", Some(settings))["id"]
        .as_str()
        .expect("an id")
        .to_string();
    for (who, power) in [(&rome, "ROME"), (&carthage, "CARTHAGE")] {
        who.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    rome.ok("POST", &format!("/api/games/{id}/start"), None);
    let game = rome.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["year_at_once"], true, "{game}");
    let mail_dir = server.dir.join("mail");
    let started = support::wait_for_mails(&mail_dir, 1, |m| {
        m.contains("Subject: Partie begonnen: antike") && m.contains("<romulus@example.org>")
    });
    assert!(
        started[0].contains("Hausregel: ein Spieljahr auf einmal."),
        "{}",
        started[0]
    );

    // Rome sends the whole year by mail, in German: a spring move that fails (two armies into
    // Apulia), fall orders on the spring's results, and a winter build on the fall's.
    let body = [
        "ANMELDEN Rom antike pw-romulus-2026",
        "A Rom - Apu",
        "A Rav - Apu",
        "F Nea - Tyn",
        "F1M:",
        "WENN A Rom - Apu gelingt DANN A Apu - Nea SONST A Rom - Etr",
        "WENN F Nea - Tyn gelingt DANN F Tyn - Sic SONST F Nea - Sic",
        "A Rav H",
        "W1A:",
        "WENN F Tyn - Sic gelingt DANN Aufbau F Nea SONST Aufbau A Nea",
    ]
    .join("\r\n");
    let raw = format!(
        "From: romulus <romulus@example.org>\r\nMessage-ID: <rome-year@example.org>\r\nSubject: Befehle\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    );
    support::ingest_into(&server.dir, &raw);
    let reply = support::reply_to(&server.dir, "rome-year@example.org");
    assert!(!reply.contains("FEHLER") && !reply.contains("ERROR"), "{reply}");
    // Carthage sends its year through the API.
    let lines = [
        "F Tha - Pun",
        "A Cir - Num",
        "A Car H",
        "F1M:",
        "IF F Tha - Pun succeeds THEN F Pun - Sad ELSE F Tha - Pun",
        "W1A:",
        "IF A Cir - Num succeeds in S1M THEN Build A Cir ELSE Build A Tha",
        "Build F Tha",
    ];
    carthage.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({ "orders": lines })),
    );

    // One adjudication for the year: spring, fall and winter one after another.
    let done = rome.ok("POST", &format!("/api/games/{id}/adjudicate?phase=S1M"), None);
    assert_eq!(done["phase"], "S1M", "{done}");
    assert_eq!(done["then"], json!(["F1M", "W1A"]), "{done}");
    let spring = done["report"].as_str().unwrap_or_default();
    for secret in ["Sic", "Sad", "Etr", "WENN", "IF"] {
        assert!(!spring.contains(secret), "the spring report tells `{secret}`: {spring}");
    }
    let game = carthage.ok("GET", &format!("/api/games/{id}"), None);
    assert!(game.to_string().contains("S2M"), "{game}");
    let fall = carthage.ok("GET", &format!("/api/games/{id}/phases/F1M"), None);
    let fall_text = fall.to_string();
    // Rome's spring move failed: its fall order took the ELSE branch; the fleet's took THEN.
    assert!(
        fall_text.contains("A ROM - ETR") && fall_text.contains("F TYN - SIC"),
        "{fall}"
    );
    assert!(fall_text.contains("F PUN - SAD"), "{fall}");
    // Only the branches carried out are published: not the conditions, not the other branches.
    let carried = format!(
        "{} {} {}",
        fall["result"]["accepted_orders"], fall["report_en"], fall["report_de"]
    );
    for never in ["APU - NEA", "NEA - SIC", "THA - PUN", "Apulia", "WENN", "SONST", "IF "] {
        assert!(!carried.contains(never), "the fall tells `{never}`: {fall}");
    }
    let units = &game["state"]["units"];
    let mut rome_units: Vec<String> = serde_json::from_value(units["ROME"].clone()).expect("units");
    rome_units.sort();
    assert_eq!(rome_units, ["A ETR", "A RAV", "F NEA", "F SIC"], "{game}");
    let mut carthage_units: Vec<String> = serde_json::from_value(units["CARTHAGE"].clone()).expect("units");
    carthage_units.sort();
    assert_eq!(carthage_units, ["A CAR", "A CIR", "A NUM", "F SAD", "F THA"], "{game}");
    // Every phase's result went out by mail at once.
    for phase in ["S1M", "F1M", "W1A"] {
        let results = support::wait_for_mails(&mail_dir, 1, |m| {
            m.contains("<hanno@example.org>") && m.contains(&format!("Subject: Diplomacy results antike {phase}"))
        });
        assert_eq!(results.len(), 1, "{phase}");
    }
}

#[test]
fn a_colonial_game_is_played_with_the_original_calendar_when_its_master_chooses_it() {
    let server = start_server("colonial-calendar");
    let (master, other) = (player(&server, "claudia"), player(&server, "conrad"));
    // A calendar the variant does not have is refused when the game is created.
    let (status, refused) = master.call(
        "POST",
        "/api/games",
        Some(json!({"name": "Falsch", "variant": "standard", "calendar": "original"})),
    );
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["code"], "bad_option", "{refused}");
    // Created on the web page, with the calendar chosen there.
    let mut web = support::browser::Browser::new(&server.base);
    web.log_in("claudia", "long enough");
    let form = web.get("/games").body;
    assert!(form.contains(r#"<option value="original">"#), "{form}");
    let made = web.send(
        "/games",
        &[
            ("name", "Kolonial"),
            ("variant", "colonial"),
            ("press", "full"),
            ("minutes", "60"),
            ("calendar", "original"),
        ],
    );
    assert_eq!(made.status, 303, "{}", made.body);
    let location = made.location.clone().unwrap_or_default();
    let id = location
        .strip_prefix("/games/")
        .expect("the new game's page")
        .to_string();
    for (who, power) in [(&master, "BRITAIN"), (&other, "CHINA")] {
        who.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    master.ok("POST", &format!("/api/games/{id}/start"), None);
    let game = master.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["calendar"], "original", "{game}");
    let page = web.get(&format!("/games/{id}")).body;
    assert!(page.contains("Calendar: The original calendar"), "{page}");
    assert!(
        page.contains(r#"<span id="phase">Spring 1870, movement</span>"#),
        "{page}"
    );
    // Spring is followed by fall of the same year (the seed's calendar goes on to 1872).
    let done = master.ok("POST", &format!("/api/games/{id}/adjudicate?phase=S1870M"), None);
    assert_eq!(done["result"]["phase"], "F1870M", "{done}");
    let report = done["report"].as_str().unwrap_or_default();
    assert!(report.starts_with("Movement results for Spring of 1870."), "{report}");
}

/// A mail from `name` with `lines`; the judge's reply.
fn mail(server: &support::Server, name: &str, key: &str, lines: &[&str]) -> String {
    support::mail_from(&server.dir, name, key, lines)
}

#[test]
fn a_game_with_house_rules_is_created_joined_and_started_by_mail() {
    let server = start_server("house-mail");
    mail_account(&server, "hugo", "de");
    let other = mail_account(&server, "ida", "en");
    // An option that cannot be read refuses the command; nothing is made.
    let reply = mail(
        &server,
        "hugo",
        "bad",
        &["ANLEGEN hausspiel pw-hugo-2026 standard presse=laut"],
    );
    assert!(reply.contains("die Option `presse=laut` ist nicht lesbar"), "{reply}");
    let reply = mail(
        &server,
        "hugo",
        "create",
        &[
            "ANLEGEN hausspiel pw-hugo-2026 standard presse=grau stunden=48 jahr-auf-einmal rueckzuege-mit-zuegen fertig-namen",
        ],
    );
    assert!(reply.contains("Die Partie hausspiel (standard"), "{reply}");
    assert!(!reply.contains("pw-hugo-2026"), "the password is not shown: {reply}");
    let reply = mail(
        &server,
        "hugo",
        "join-1",
        &["BEITRETEN hausspiel pw-hugo-2026 Frankreich"],
    );
    assert!(reply.contains("beigetreten"), "{reply}");
    let reply = mail(&server, "ida", "join-2", &["JOIN hausspiel pw-ida-2026 Germany"]);
    assert!(reply.contains("You joined hausspiel"), "{reply}");
    // Only the master starts it.
    let reply = mail(&server, "ida", "start-1", &["START hausspiel pw-ida-2026"]);
    assert!(reply.contains("only the game master"), "{reply}");
    let reply = mail(&server, "hugo", "start-2", &["STARTEN hausspiel pw-hugo-2026"]);
    assert!(reply.contains("Die Partie hausspiel hat begonnen"), "{reply}");
    let started = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
        m.contains("Subject: Partie begonnen: hausspiel")
    });
    assert!(
        started[0].contains("Hausregel: ein Spieljahr auf einmal."),
        "{}",
        started[0]
    );
    assert!(
        started[0].contains("Hausregel: Rückzüge nur mit den Zügen."),
        "{}",
        started[0]
    );
    // The game as the API shows it: the options the mail gave.
    let mut web = support::browser::Browser::new(&server.base);
    web.log_in("ida", "pw-ida-2026");
    let list = web.get("/games").body;
    let link = list
        .find(">hausspiel<")
        .and_then(|end| list[..end].rfind("/games/").map(|start| &list[start + 7..end]));
    let id = link
        .map(|l| l.trim_end_matches('"').to_string())
        .expect("the game in the list");
    let game = other.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["press"], "grey", "{game}");
    assert_eq!(game["deadlines"]["movement_seconds"], 48 * 3600, "{game}");
    assert_eq!(
        (&game["year_at_once"], &game["retreats_with_moves"]),
        (&json!(true), &json!(true)),
        "{game}"
    );
    assert_eq!(game["status"], "active", "{game}");
    // `fertig-namen`: every member sees who is ready, not only the master.
    assert_eq!(game["ready"], json!({"ready": 0, "of": 2, "powers": []}), "{game}");
}
