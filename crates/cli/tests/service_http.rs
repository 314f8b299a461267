//! The judge service through HTTP: the real binary on a free loopback port, with SQLite in a
//! temporary folder (or PostgreSQL when SPIELLEITER_TEST_DATABASE_URL names one, as in CI).

mod support;

use serde_json::{Value, json};
use support::{Client, new_game, player, start_server};

const POWERS: [&str; 7] = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"];

#[test]
fn seven_players_play_two_years_through_http() {
    let server = start_server("year");
    let players: Vec<Client> = (0..7).map(|i| player(&server, &format!("player{i}"))).collect();
    let gm = &players[0];
    let game = gm.ok(
        "POST",
        "/api/games",
        Some(json!({"name": "Test 1901", "variant": "standard", "press": "full", "nmr_limit": 10})),
    );
    let id = game["id"].as_str().expect("game id").to_string();
    for (i, p) in players.iter().enumerate() {
        p.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [POWERS[i]]})),
        );
    }
    // Only the master starts; the lot's seed is published.
    let (status, _) = players[1].call("POST", &format!("/api/games/{id}/start"), None);
    assert_eq!(status, 403);
    let started = gm.ok("POST", &format!("/api/games/{id}/start"), None);
    assert!(started["lot_seed"].is_number());
    let power_of = |c: &Client| -> String {
        c.ok("GET", &format!("/api/games/{id}"), None)["my_power"]
            .as_str()
            .expect("a power")
            .to_string()
    };
    let by_power = |power: &str| players.iter().find(|c| power_of(c) == power).expect("someone plays it");
    for (i, p) in players.iter().enumerate() {
        assert_eq!(power_of(p), POWERS[i], "different wishes are all granted");
    }
    // Spring 1901: orders with the echo; one rejected line; Italy sends nothing (NMR).
    let france = by_power("FRANCE");
    let echo = france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur", "F Brest - Mid-Atlantic Ocean", "A Mar - Spian"]})),
    );
    assert_eq!(echo["orders"][0]["order"], "A PAR - BUR");
    assert_eq!(echo["orders"][1]["order"], "F BRE - MAO");
    assert_eq!(echo["orders"][2]["suggestion"], "Spain");
    assert_eq!(echo["errors"], 1);
    // Replacing orders until the deadline.
    let echo = france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur", "F Bre - Mao", "A Mar - Spa"]})),
    );
    assert_eq!(echo["errors"], 0);
    by_power("GERMANY").ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh", "A Ber - Kie", "F Kie - Den"]})),
    );
    by_power("ENGLAND").ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]})),
    );
    // Secrecy: a player sees only their own orders; nobody orders another power's units.
    let mine = by_power("GERMANY").ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(mine["power"], "GERMANY");
    assert_eq!(mine["orders"], json!(["A Mun - Ruh", "A Ber - Kie", "F Kie - Den"]));
    let foreign = by_power("AUSTRIA").ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["France: A Par - Pic", "A Par - Pic"]})),
    );
    assert_eq!(foreign["errors"], 2, "{foreign}");
    // An outsider can neither order nor read results.
    let outsider = player(&server, "outsider");
    let (status, body) = outsider.call(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur"]})),
    );
    assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));
    // The master adjudicates (the deadline scheduler is still to come).
    let (status, _) = france.call("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(status, 403);
    let spring = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(spring["phase"], "S1901M");
    assert!(
        spring["report"]
            .as_str()
            .is_some_and(|r| r.contains("France: Army Paris -> Burgundy."))
    );
    assert!(
        spring["report"]
            .as_str()
            .is_some_and(|r| r.contains("Italy: Army Rome, No Order Processed."))
    );
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["state"]["phase"], "F1901M");
    // Fall: France takes Spain and Portugal, Germany Denmark and Holland.
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["F Mao - Por", "A Bur - Bel", "A Spa H"]})),
    );
    by_power("GERMANY").ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Ruh - Hol", "F Den H"]})),
    );
    let fall = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(fall["result"]["phase"], "W1901A");
    assert_eq!(fall["result"]["builds"]["FRANCE"]["count"], 3);
    // Winter: builds; the results of every phase and the whole history are there for members.
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["Build A Par", "Build F Bre", "Build A Mar"]})),
    );
    let winter = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(winter["result"]["phase"], "S1902M");
    let phase = by_power("ITALY").ok("GET", &format!("/api/games/{id}/phases/S1901M"), None);
    assert!(
        phase["report_de"]
            .as_str()
            .is_some_and(|r| r.contains("Frankreich: Armee Paris -> Burgund."))
    );
    let history = by_power("TURKEY").ok("GET", &format!("/api/games/{id}/history"), None);
    let phases: Vec<&str> = history["phases"]
        .as_array()
        .expect("phases")
        .iter()
        .filter_map(|p| p["phase"].as_str())
        .collect();
    assert_eq!(phases, ["S1901M", "F1901M", "W1901A"]);
    let (status, _) = outsider.call("GET", &format!("/api/games/{id}/history"), None);
    assert_eq!(status, 403);

    // 1902: England and Germany agree in private press and dislodge France from Belgium.
    let england = by_power("ENGLAND");
    let germany = by_power("GERMANY");
    england.ok(
        "POST",
        &format!("/api/games/{id}/press"),
        Some(json!({"to": ["GERMANY"], "body": "My fleet in the North Sea supports you into Belgium."})),
    );
    let read = germany.ok("GET", &format!("/api/games/{id}/press"), None);
    assert_eq!(read["messages"][0]["from"], "ENGLAND");
    let unseen = france.ok("GET", &format!("/api/games/{id}/press"), None);
    assert_eq!(unseen["messages"], json!([]), "private press stays private");
    germany.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Hol - Bel"]})),
    );
    england.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["F Nth S German A Hol - Bel"]})),
    );
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Bel H"]})),
    );
    let spring = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(spring["result"]["phase"], "S1902R", "{spring}");
    assert!(
        spring["missing"]
            .as_array()
            .is_some_and(|m| m.contains(&json!("ITALY"))),
        "{spring}"
    );
    // The retreat, read and echoed like any order.
    let retreat = france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Bel - Picardy"]})),
    );
    assert_eq!(retreat["orders"][0]["order"], "A BEL R PIC", "{retreat}");
    let retreated = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(retreated["result"]["phase"], "F1902M", "{retreated}");
    assert!(retreated["result"]["units"]["FRANCE"].to_string().contains("A PIC"));
    // Fall: everyone holds; Germany keeps Belgium. Winter: France removes one, Germany builds.
    let fall = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(fall["result"]["phase"], "W1902A", "{fall}");
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["Remove A Pic"]})),
    );
    germany.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["Build A Ber", "Build A Mun"]})),
    );
    let winter = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(winter["result"]["phase"], "S1903M", "{winter}");
    let units = &winter["result"]["units"];
    assert!(!units["FRANCE"].to_string().contains("A PIC"), "{units}");
    assert!(units["GERMANY"].to_string().contains("A BER"), "{units}");

    // A draw needs every survivor; the last vote ends the game, shared by all seven.
    for power in &POWERS[..6] {
        let vote = by_power(power).ok("POST", &format!("/api/games/{id}/draw"), Some(json!({"vote": true})));
        assert_eq!(vote["drawn"], false, "{power} is not the last to vote");
    }
    let last = by_power("TURKEY").ok("POST", &format!("/api/games/{id}/draw"), Some(json!({"vote": true})));
    assert_eq!(last["drawn"], true, "{last}");
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"]["kind"], "draw");
    assert_eq!(game["result"]["powers"].as_array().map(Vec::len), Some(7));
}

#[test]
fn bad_requests_get_json_errors_with_stable_codes() {
    let server = start_server("errors");
    let c = Client::new(&server);
    let (status, body) = c.call(
        "POST",
        "/api/accounts",
        Some(json!({"name": "x", "email": "no-at", "password": "long enough"})),
    );
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_email")));
    let (status, body) = c.call(
        "POST",
        "/api/accounts",
        Some(json!({"name": "x", "email": "x@y", "password": "short"})),
    );
    assert_eq!((status, body["code"].as_str()), (400, Some("weak_password")));
    let (status, body) = c.call(
        "POST",
        "/api/sessions",
        Some(json!({"name": "nobody", "password": "whatever1"})),
    );
    assert_eq!((status, body["code"].as_str()), (401, Some("bad_login")));
    let (status, body) = c.call("POST", "/api/games", Some(json!({"name": "g"})));
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    let a = player(&server, "alice");
    let (status, body) = a.call("POST", "/api/games", Some(json!({"name": "g", "variant": "narnia"})));
    assert_eq!((status, body["code"].as_str()), (400, Some("unknown_variant")));
    let (status, body) = a.call("GET", "/api/games/nothing", None);
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    // Game options: refused where the variant has none or does not allow them, shown where chosen.
    let plain = json!({"name": "Plain options", "victory": 3});
    let (status, body) = a.call("POST", "/api/games", Some(plain));
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_option")), "{body}");
    let feudal = json!({"name": "Feudal", "variant": "hegemony-1701", "control_rule": "feudal"});
    let (status, body) = a.call("POST", "/api/games", Some(feudal));
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_option")), "{body}");
    let chosen = json!({"name": "Europa", "variant": "hegemony-1701", "control_rule": "alternative", "victory": 2});
    let id = a.ok("POST", "/api/games", Some(chosen))["id"]
        .as_str()
        .expect("id")
        .to_string();
    let shown = a.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(
        (shown["control_rule"].as_str(), shown["victory"].as_u64()),
        (Some("alternative"), Some(2))
    );
    let (status, _) = a.call(
        "POST",
        "/api/accounts",
        Some(json!({"name": "alice", "email": "a@b", "password": "long enough"})),
    );
    assert_eq!(status, 409, "the name is taken");
    // A body that is not the expected JSON, and a route that does not exist, answer JSON too.
    let (status, body) = a.call("POST", "/api/games", Some(json!({"variant": "standard"})));
    assert_eq!((status, body["code"].as_str()), (422, Some("bad_json")), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("name")), "{body}");
    let (status, body) = a.call("GET", "/api/nowhere", None);
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    // The OpenAPI document lists every route, and every route it lists exists.
    let doc = c.ok("GET", "/api/openapi.json", None);
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() >= 17, "{}", paths.len());
    for (path, operations) in paths {
        let concrete = path.replace("{id}", "x").replace("{phase}", "S1901M");
        for method in operations.as_object().expect("operations").keys() {
            let (status, body) = c.call(&method.to_uppercase(), &concrete, Some(json!({})));
            assert!(
                status != 404 && status != 405,
                "{method} {path} is documented but not routed: {status} {body}"
            );
        }
    }
    // Guessing passwords is slow: after ten attempts a minute the next ones are refused, even the
    // right one (an attempt comes back every six seconds, so a slow machine may get one more).
    let mut refused_after = None;
    for attempt in 0..15 {
        let (status, _) = c.call(
            "POST",
            "/api/sessions",
            Some(json!({"name": "alice", "password": "guess guess"})),
        );
        if status == 429 {
            refused_after = Some(attempt);
            break;
        }
        assert_eq!(status, 401);
    }
    let refused_after = refused_after.expect("guessing is cut off");
    assert!(refused_after >= 8, "only {refused_after} guesses were allowed");
    let (status, body) = c.call(
        "POST",
        "/api/sessions",
        Some(json!({"name": "alice", "password": "long enough"})),
    );
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
}

#[test]
fn press_is_private_grey_press_hides_the_sender_and_a_draw_needs_every_survivor() {
    let server = start_server("press");
    let players: Vec<Client> = (0..3).map(|i| player(&server, &format!("p{i}"))).collect();
    let id = new_game(&players[0], "Grey", json!({"press": "grey"}));
    for (p, power) in players.iter().zip(["FRANCE", "ENGLAND", "GERMANY"]) {
        p.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    players[0].ok("POST", &format!("/api/games/{id}/start"), None);
    let (france, england, germany) = (&players[0], &players[1], &players[2]);
    france.ok(
        "POST",
        &format!("/api/games/{id}/press"),
        Some(json!({"to": ["England"], "body": "Channel stays empty?"})),
    );
    germany.ok(
        "POST",
        &format!("/api/games/{id}/press"),
        Some(json!({"body": "Peace to all."})),
    );
    let english = england.ok("GET", &format!("/api/games/{id}/press"), None);
    let messages = english["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["body"], "Channel stays empty?");
    assert_eq!(messages[0]["from"], Value::Null, "grey press hides the sender");
    let german = germany.ok("GET", &format!("/api/games/{id}/press"), None);
    assert_eq!(
        german["messages"].as_array().map(Vec::len),
        Some(1),
        "private press stays private: {german}"
    );
    let own = france.ok("GET", &format!("/api/games/{id}/press"), None);
    assert_eq!(own["messages"][0]["from"], "FRANCE", "the sender sees their own name");
    // The last few, or what came after a moment (for polling); a bad window is a JSON error.
    let latest = england.ok("GET", &format!("/api/games/{id}/press?last=1"), None);
    assert_eq!(latest["messages"].as_array().map(Vec::len), Some(1), "{latest}");
    assert_eq!(
        (latest["messages"][0]["body"].as_str(), latest["earlier"].as_u64()),
        (Some("Peace to all."), Some(1))
    );
    let first_ms = messages[0]["sent_ms"].as_i64().expect("sent_ms");
    let last_ms = messages[1]["sent_ms"].as_i64().expect("sent_ms");
    let after = |ms: i64| {
        let read = england.ok("GET", &format!("/api/games/{id}/press?since_ms={ms}"), None);
        read["messages"].as_array().map_or(0, Vec::len)
    };
    assert_eq!((after(first_ms - 1), after(last_ms)), (2, 0));
    let (status, error) = england.call("GET", &format!("/api/games/{id}/press?last=many"), None);
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_query")), "{error}");
    // A draw: every survivor with a player must vote for it.
    let vote = france.ok("POST", &format!("/api/games/{id}/draw"), Some(json!({"vote": true})));
    assert_eq!(vote["drawn"], false);
    england.ok("POST", &format!("/api/games/{id}/draw"), Some(json!({"vote": true})));
    let last = germany.ok("POST", &format!("/api/games/{id}/draw"), Some(json!({"vote": true})));
    assert_eq!(last["drawn"], true);
    let game = france.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"]["kind"], "draw");
    assert_eq!(
        game["result"]["powers"].as_array().map(Vec::len),
        Some(7),
        "all survivors share the draw"
    );
    // No-press games refuse press.
    let quiet = new_game(&players[1], "Quiet", json!({"press": "none"}));
    players[1].ok("POST", &format!("/api/games/{quiet}/join"), Some(json!({})));
    players[2].ok("POST", &format!("/api/games/{quiet}/join"), Some(json!({})));
    players[1].ok("POST", &format!("/api/games/{quiet}/start"), None);
    let (status, body) = players[2].call(
        "POST",
        &format!("/api/games/{quiet}/press"),
        Some(json!({"body": "hello"})),
    );
    assert_eq!(
        (status, body["message"].as_str()),
        (403, Some("this is a no-press game"))
    );
}

#[test]
fn deadlines_and_early_adjudication_need_no_game_master() {
    let server = start_server("deadline");
    let players: Vec<Client> = (0..2).map(|i| player(&server, &format!("d{i}"))).collect();
    // A one-second deadline: the scheduler adjudicates with what is there (no orders: holds).
    let id = new_game(
        &players[0],
        "Fast",
        json!({"movement_seconds": 1, "retreat_seconds": 1, "adjustment_seconds": 1}),
    );
    for p in &players {
        p.ok("POST", &format!("/api/games/{id}/join"), Some(json!({})));
    }
    players[0].ok("POST", &format!("/api/games/{id}/start"), None);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let game = players[1].ok("GET", &format!("/api/games/{id}"), None);
        if game["state"]["phase"] != "S1901M" {
            assert_eq!(
                game["state"]["phase"]
                    .as_str()
                    .map(|p| p.starts_with('F') || p.starts_with('S')),
                Some(true)
            );
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the deadline passed without adjudication"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Early adjudication: when every power that has something to order has sent orders.
    let solo = player(&server, "solo");
    let other = player(&server, "other");
    let early = new_game(&solo, "Early", json!({"early": true}));
    solo.ok(
        "POST",
        &format!("/api/games/{early}/join"),
        Some(json!({"preferences": ["FRANCE"]})),
    );
    other.ok(
        "POST",
        &format!("/api/games/{early}/join"),
        Some(json!({"preferences": ["GERMANY"]})),
    );
    solo.ok("POST", &format!("/api/games/{early}/start"), None);
    let first = solo.ok(
        "PUT",
        &format!("/api/games/{early}/orders"),
        Some(json!({"orders": ["A Par - Bur"], "ready": true})),
    );
    assert_eq!(first["adjudicated"], false, "Germany has not ordered yet");
    assert_eq!(first["ready"], true, "{first}");
    // Powers without a player are in civil disorder: they are not waited for. Orders sent are
    // not final until marked ready.
    let second = other.ok(
        "PUT",
        &format!("/api/games/{early}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    assert_eq!(second["adjudicated"], false, "{second}");
    // Everyone sees how many are ready, not who; the master sees who.
    let seen = other.ok("GET", &format!("/api/games/{early}"), None);
    assert_eq!(seen["ready"], json!({"ready": 1, "of": 2}), "{seen}");
    let master = solo.ok("GET", &format!("/api/games/{early}"), None);
    assert_eq!(master["ready"]["powers"], json!(["FRANCE"]), "{master}");
    assert_eq!(master["ready"]["sent"], json!(["GERMANY"]), "{master}");
    assert_eq!(master["ready"]["awaited"], json!([]), "{master}");
    let mine = other.ok("GET", &format!("/api/games/{early}/orders"), None);
    assert_eq!(mine["ready"], false, "{mine}");
    let marked = other.ok(
        "PUT",
        &format!("/api/games/{early}/ready"),
        Some(json!({"ready": true})),
    );
    assert_eq!(marked["adjudicated"], true, "{marked}");
    let game = solo.ok("GET", &format!("/api/games/{early}"), None);
    assert_eq!(game["state"]["phase"], "F1901M");
    assert_eq!(
        game["ready"],
        json!({"ready": 0, "of": 2, "powers": [], "sent": [], "awaited": ["FRANCE", "GERMANY"]}),
        "{game}"
    );
}

/// The subjects of the mails to `address` in the server's mail folder.
fn subjects_to(server: &support::Server, address: &str) -> Vec<String> {
    let mut found: Vec<String> = support::mails_in(&server.dir.join("mail"))
        .iter()
        .filter(|m| m.contains(&format!("<{address}>")))
        .filter_map(|m| m.lines().find_map(|l| l.strip_prefix("Subject: ")).map(str::to_string))
        .collect();
    found.sort();
    found
}

#[test]
fn an_unconfirmed_address_gets_only_its_code_until_it_is_confirmed() {
    let server = start_server("unconfirmed");
    let gm = player(&server, "uc-master");
    let newbie = support::unconfirmed_player(&server, "uc-newbie", "en");
    let shown = newbie.ok("GET", "/api/account", None);
    assert_eq!(
        (shown["email_confirmed"].as_bool(), shown["pending_email"].as_str()),
        (Some(false), Some("uc-newbie@example.org")),
        "{shown}"
    );
    // The account plays meanwhile, but the game's mail does not go to its address.
    let id = support::two_player_game(&gm, &newbie, "Unconfirmed", json!({"movement_seconds": 3600}));
    newbie.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    gm.ok("POST", &format!("/api/games/{id}/adjudicate?phase=S1901M"), None);
    let results = |phase: &str, address: &str| {
        let subject = format!("Subject: Diplomacy results Unconfirmed {phase}");
        let address = format!("<{address}>");
        support::wait_for_mails(&server.dir.join("mail"), 1, move |m| {
            m.contains(&subject) && m.contains(&address)
        })
    };
    assert_eq!(results("S1901M", "uc-master@example.org").len(), 1);
    assert_eq!(
        subjects_to(&server, "uc-newbie@example.org"),
        ["Diplomacy: confirm your address"]
    );
    // Confirmed with the code mailed to it, the address receives the game's mail.
    support::confirm_address(&server, &newbie, "uc-newbie@example.org", "en");
    gm.ok("POST", &format!("/api/games/{id}/adjudicate?phase=F1901M"), None);
    assert_eq!(results("F1901M", "uc-newbie@example.org").len(), 1);
    assert!(
        !subjects_to(&server, "uc-newbie@example.org")
            .iter()
            .any(|s| s.contains("S1901M")),
        "mail from before stays unsent"
    );
}

#[test]
fn names_are_one_name_whatever_their_case_composition_or_width() {
    let server = start_server("unicode-names");
    let c = Client::new(&server);
    let make = |name: &str| {
        let body = json!({"name": name, "email": "names@example.org", "password": "long enough"});
        c.call("POST", "/api/accounts", Some(body))
    };
    let (status, emile) = make("Émile");
    assert_eq!(status, 201, "{emile}");
    // Lower case, the accent as a combining mark, fullwidth letters: the same name.
    for same in ["émile", "E\u{301}MILE", "Ｅ\u{301}ｍｉｌｅ"] {
        let (status, body) = make(same);
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("conflict")),
            "{same:?}: {body}"
        );
    }
    assert_eq!(make("Emile").0, 201, "without the accent it is another name");
    // Log-in works with every spelling, into the one account.
    for spelling in ["émile", "ÉMILE", "E\u{301}mile", "Ｅ\u{301}ｍｉｌｅ"] {
        let body = json!({"name": spelling, "password": "long enough"});
        let (status, session) = c.call("POST", "/api/sessions", Some(body));
        assert_eq!(
            (status, &session["account"]),
            (200, &emile["id"]),
            "{spelling:?}: {session}"
        );
    }
    // A game's name likewise; and a power goes to the player by any spelling of the name.
    let gm = player(&server, "names-master");
    let other = player(&server, "names-other");
    let id = support::two_player_game(&gm, &other, "Café", json!({"movement_seconds": 3600}));
    let (status, body) = gm.call(
        "POST",
        "/api/games",
        Some(json!({"name": "ＣＡＦÉ", "variant": "standard"})),
    );
    assert_eq!(status, 409, "{body}");
    gm.ok(
        "POST",
        &format!("/api/games/{id}/replace"),
        Some(json!({"power": "GERMANY", "player": "e\u{301}mile"})),
    );
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert!(game.to_string().contains("Émile"), "{game}");
}
