//! The service's turn discipline through HTTP: missed turns and civil disorder, the grace period,
//! the game master's controls, concession, mail in the outbox folder, and authorization.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Client, Server, new_game, player, player_in, start_server, two_player_game};

/// Waits until the mail folder holds a message whose text contains `needle`; returns the texts
/// of all such messages.
fn wait_for_mail(server: &Server, needle: &str) -> Vec<String> {
    wait_for_mails(server, needle, 1)
}

/// Waits until the mail folder holds at least `count` messages containing `needle`; returns the
/// texts of all such messages.
fn wait_for_mails(server: &Server, needle: &str, count: usize) -> Vec<String> {
    let found = support::wait_for_mails(&server.dir.join("mail"), count, |t| t.contains(needle));
    assert!(found.len() >= count, "no mail containing {needle:?}");
    found
}

fn member<'a>(game: &'a Value, name: &str) -> &'a Value {
    game["members"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == name))
        .unwrap_or_else(|| panic!("{name} is not a member: {game}"))
}

#[test]
fn a_missed_turn_leads_to_civil_disorder_and_the_master_replaces_the_player() {
    let server = start_server("nmr");
    let gm = player(&server, "nmr-master");
    let late = player(&server, "nmr-late");
    let id = two_player_game(&gm, &late, "Missed", json!({"nmr_limit": 1, "movement_seconds": 3600}));
    gm.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur"]})),
    );
    let started = wait_for_mails(&server, "Subject: Game started: Missed", 2);
    assert!(
        started
            .iter()
            .any(|m| m.contains("To: nmr-late") && m.contains("You play Germany."))
    );
    let result = gm.ok("POST", &format!("/api/games/{id}/adjudicate?phase=S1901M"), None);
    assert_eq!(result["missing"], json!(["GERMANY"]), "{result}");
    // A second click for the same phase does not adjudicate the next one.
    let (status, _) = gm.call("POST", &format!("/api/games/{id}/adjudicate?phase=S1901M"), None);
    assert_eq!(status, 409);
    assert_eq!(result["civil_disorder"], json!(["GERMANY"]), "{result}");
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(member(&game, "nmr-late")["civil_disorder"], true);
    assert_eq!(member(&game, "nmr-late")["missed_turns"], 1);
    assert_eq!(member(&game, "nmr-master")["missed_turns"], 0);
    // The result goes to every member by mail, naming the missing power.
    let mails = wait_for_mails(&server, "Subject: Diplomacy results Missed S1901M", 2);
    assert_eq!(mails.len(), 2, "one result for each member");
    assert!(mails.iter().all(|m| m.contains("No orders received from: Germany.")));
    assert!(mails.iter().any(|m| m.contains("To: nmr-late <nmr-late@example.org>")));

    // Only the master replaces players; the new player takes over the power, the old one is out.
    let fresh = player(&server, "nmr-fresh");
    let body = json!({"power": "Germany", "player": "nmr-fresh"});
    let (status, _) = late.call("POST", &format!("/api/games/{id}/replace"), Some(body.clone()));
    assert_eq!(status, 403);
    gm.ok("POST", &format!("/api/games/{id}/replace"), Some(body));
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(member(&game, "nmr-fresh")["power"], "GERMANY");
    assert_eq!(member(&game, "nmr-fresh")["civil_disorder"], false);
    let (status, _) = late.call(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    assert_eq!(status, 403, "the replaced player no longer orders");
    let sent = fresh.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    assert_eq!(sent["errors"], 0, "{sent}");
    let (status, _) = gm.call(
        "POST",
        &format!("/api/games/{id}/replace"),
        Some(json!({"power": "Germany", "player": "nmr-master"})),
    );
    assert_eq!(status, 409, "an account plays one power");
    // A power nobody played gets its first player.
    player(&server, "nmr-italy");
    gm.ok(
        "POST",
        &format!("/api/games/{id}/replace"),
        Some(json!({"power": "Italy", "player": "nmr-italy"})),
    );
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(member(&game, "nmr-italy")["power"], "ITALY");
}

#[test]
fn the_master_extends_pauses_and_resumes_within_limits() {
    let server = start_server("controls");
    let gm = player(&server, "ctl-master");
    let other = player(&server, "ctl-other");
    let id = two_player_game(&gm, &other, "Controlled", json!({"movement_seconds": 3600}));
    let before = gm.ok("GET", &format!("/api/games/{id}"), None)["deadline_ms"]
        .as_i64()
        .expect("a deadline");
    let (status, _) = other.call(
        "POST",
        &format!("/api/games/{id}/extend"),
        Some(json!({"seconds": 600})),
    );
    assert_eq!(status, 403, "players do not extend");
    let (status, error) = gm.call(
        "POST",
        &format!("/api/games/{id}/extend"),
        Some(json!({"seconds": 30 * 24 * 3600})),
    );
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_extension")));
    for n in 1..=3 {
        let extended = gm.ok(
            "POST",
            &format!("/api/games/{id}/extend"),
            Some(json!({"seconds": 600})),
        );
        assert_eq!(extended["deadline_ms"].as_i64(), Some(before + n * 600_000));
    }
    let (status, _) = gm.call(
        "POST",
        &format!("/api/games/{id}/extend"),
        Some(json!({"seconds": 600})),
    );
    assert_eq!(status, 409, "three extensions a phase");
    wait_for_mail(&server, "Subject: Deadline extended: Controlled");

    let paused = gm.ok("POST", &format!("/api/games/{id}/pause"), None);
    let remaining = paused["remaining_ms"].as_i64().expect("remaining");
    assert!(remaining > 3_500_000 && remaining <= 5_400_000, "{paused}");
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(
        (game["paused"].clone(), game["deadline_ms"].clone()),
        (json!(true), Value::Null)
    );
    let (status, _) = gm.call("POST", &format!("/api/games/{id}/pause"), None);
    assert_eq!(status, 409);
    let resumed = gm.ok("POST", &format!("/api/games/{id}/resume"), None);
    let deadline = resumed["deadline_ms"].as_i64().expect("a deadline again");
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["deadline_ms"].as_i64(), Some(deadline));
    assert_eq!(game["paused"], false);
    let (status, _) = gm.call("POST", &format!("/api/games/{id}/resume"), None);
    assert_eq!(status, 409, "not paused");
}

#[test]
fn a_late_power_gets_the_grace_period_once() {
    let server = start_server("grace");
    let gm = player(&server, "grace-master");
    let late = player(&server, "grace-late");
    let id = two_player_game(
        &gm,
        &late,
        "Graceful",
        json!({"movement_seconds": 1, "grace_seconds": 3600}),
    );
    gm.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur"]})),
    );
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let game = gm.ok("GET", &format!("/api/games/{id}"), None);
        if game["in_grace"] == true {
            assert_eq!(game["state"]["phase"], "S1901M", "not adjudicated during grace");
            break;
        }
        assert!(Instant::now() < until, "no grace period started: {game}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mails = wait_for_mail(&server, "Subject: Late orders: Graceful");
    assert_eq!(mails.len(), 1, "only the late player is told");
    assert!(mails[0].contains("To: grace-late"));
    // Late orders are still taken.
    let sent = late.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    assert_eq!(sent["errors"], 0);
}

#[test]
fn the_other_survivors_concede_the_game() {
    let server = start_server("concede");
    let players: Vec<Client> = (0..3).map(|i| player(&server, &format!("con{i}"))).collect();
    let id = new_game(&players[0], "Conceded", json!({}));
    for (p, power) in players.iter().zip(["ENGLAND", "FRANCE", "GERMANY"]) {
        p.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    players[0].ok("POST", &format!("/api/games/{id}/start"), None);
    let (status, error) = players[0].call(
        "POST",
        &format!("/api/games/{id}/concede"),
        Some(json!({"to": "England"})),
    );
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_concession")));
    // A concession is for the position it was given in: an adjudication withdraws it.
    players[1].ok(
        "POST",
        &format!("/api/games/{id}/concede"),
        Some(json!({"to": "England"})),
    );
    players[0].ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let stale = players[2].ok(
        "POST",
        &format!("/api/games/{id}/concede"),
        Some(json!({"to": "England"})),
    );
    assert_eq!(stale["conceded"], false, "France's concession was for spring");
    let first = players[1].ok(
        "POST",
        &format!("/api/games/{id}/concede"),
        Some(json!({"to": "England"})),
    );
    assert_eq!(first["conceded"], true, "{first}");
    let game = players[0].ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], json!({"kind": "concession", "powers": ["ENGLAND"]}));
    wait_for_mail(&server, "concede the game Conceded to England");
    let (status, _) = players[0].call(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["F Lon - Nth"]})),
    );
    assert_eq!(status, 409, "the game is over");
}

#[test]
fn no_route_lets_a_player_read_or_act_for_another_power() {
    let server = start_server("secrecy");
    let france = player(&server, "sec-france");
    let germany = player(&server, "sec-germany");
    let outsider = player(&server, "sec-outsider");
    let id = two_player_game(&france, &germany, "Secret", json!({"movement_seconds": 3600}));
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur"]})),
    );
    // Orders for another power's units are refused and not carried out.
    let foreign = germany.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Pic", "A Mun - Ruh"]})),
    );
    assert_eq!(foreign["errors"], 1, "{foreign}");
    // Each player sees only the own orders; outsiders see none; nothing is published early.
    let mine = germany.ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(mine["power"], "GERMANY");
    assert!(!mine.to_string().contains("Bur"), "{mine}");
    for (method, path) in [
        ("GET", format!("/api/games/{id}/orders")),
        ("GET", format!("/api/games/{id}/history")),
        ("GET", format!("/api/games/{id}/press")),
        ("GET", format!("/api/games/{id}/phases/S1901M")),
    ] {
        let (status, _) = outsider.call(method, &path, None);
        assert_eq!(status, 403, "{method} {path} for an outsider");
    }
    let (status, _) = germany.call("GET", &format!("/api/games/{id}/phases/S1901M"), None);
    assert_eq!(status, 404, "no result before adjudication");
    let history = germany.ok("GET", &format!("/api/games/{id}/history"), None);
    assert_eq!(history["phases"], json!([]));
    // Acting for a power that is not one's own, or as master, is refused.
    for (path, body) in [
        (format!("/api/games/{id}/orders"), json!({"orders": ["A Par - Bur"]})),
        (format!("/api/games/{id}/draw"), json!({"vote": true})),
        (format!("/api/games/{id}/concede"), json!({"to": "FRANCE"})),
    ] {
        let method = if path.ends_with("orders") { "PUT" } else { "POST" };
        let (status, _) = outsider.call(method, &path, Some(body));
        assert_eq!(status, 403, "{path} by an outsider");
    }
    for path in ["adjudicate", "pause", "resume", "extend", "replace", "start"] {
        let body = json!({"seconds": 60, "power": "FRANCE", "player": "sec-germany"});
        let (status, _) = germany.call("POST", &format!("/api/games/{id}/{path}"), Some(body));
        assert!(status == 403 || status == 409, "{path} by a player: {status}");
    }
    let result = france.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let units = &result["result"]["units"];
    assert!(units["FRANCE"].to_string().contains("A BUR"), "{units}");
    assert!(units["GERMANY"].to_string().contains("A RUH"), "{units}");
    assert!(!units["FRANCE"].to_string().contains("A PIC"), "{units}");
}

#[test]
fn deadlines_fall_on_the_local_time_of_day_the_game_names() {
    let server = start_server("zones");
    let gm = player(&server, "zone-master");
    let other = player_in(&server, "zone-other", "de");
    let (status, error) = gm.call(
        "POST",
        "/api/games",
        Some(json!({"name": "Nowhere", "time_zone": "Mars/Olympus"})),
    );
    assert_eq!((status, error["code"].as_str()), (400, Some("bad_deadline")));
    let (status, _) = gm.call(
        "POST",
        "/api/games",
        Some(json!({"name": "Never", "time_zone": "UTC", "deadline_at": "24:30"})),
    );
    assert_eq!(status, 400);
    let id = two_player_game(
        &gm,
        &other,
        "Evening",
        json!({"time_zone": "Europe/Berlin", "deadline_at": "20:00", "movement_seconds": 3600}),
    );
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    let local = game["deadline_local"].as_str().expect("a local deadline");
    assert!(local.ends_with("20:00 CET") || local.ends_with("20:00 CEST"), "{local}");
    let deadline = game["deadline_ms"].as_i64().expect("a deadline");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    assert!(
        deadline >= now + 3_500_000 && deadline <= now + 3_600_000 + 86_400_000,
        "{deadline}"
    );
    gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let mails = wait_for_mail(&server, "Subject: Diplomacy results Evening S1901M");
    assert_eq!(mails.len(), 1, "the German reader gets the German result");
    assert!(mails[0].contains("To: zone-master"), "{}", mails[0]);
    assert!(mails[0].contains("The deadline for F1901M is "), "{}", mails[0]);
    assert!(mails[0].contains(" 20:00 CE"), "{}", mails[0]);
    let german = wait_for_mail(&server, "Subject: Diplomacy-Ergebnisse Evening S1901M");
    assert!(german[0].contains("To: zone-other"), "{}", german[0]);
    assert!(german[0].contains("Frankreich: Armee Paris"), "{}", german[0]);
    assert!(
        german[0].contains("Die Abgabefrist für F1901M endet am "),
        "{}",
        german[0]
    );
}

#[test]
fn orders_for_a_later_phase_wait_for_it_and_count_as_sent() {
    let server = start_server("later");
    let france = player(&server, "later-france");
    let germany = player(&server, "later-germany");
    let id = two_player_game(&france, &germany, "Ahead", json!({"movement_seconds": 3600}));
    let echo = france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur", "Fall 1901:", "A Bur - Bel"]})),
    );
    assert_eq!(
        (echo["errors"].clone(), echo["later_phases"].clone()),
        (json!(0), json!(1)),
        "{echo}"
    );
    france.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let mine = france.ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(mine["phase"], "F1901M");
    assert_eq!(mine["orders"], json!([]));
    assert_eq!(mine["pending"], json!(["F1901M: A Bur - Bel"]), "{mine}");
    let theirs = germany.ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(
        theirs["pending"],
        json!([]),
        "nobody sees another power's waiting orders"
    );
    // France sends nothing in the fall: the orders sent in spring are carried out, and France
    // has not missed the turn.
    let fall = france.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert!(
        fall["result"]["units"]["FRANCE"].to_string().contains("A BEL"),
        "{fall}"
    );
    assert_eq!(fall["missing"], json!(["GERMANY"]), "{fall}");
}

#[test]
fn an_early_game_whose_players_are_all_in_civil_disorder_waits_for_its_deadline() {
    let server = start_server("idle");
    let gm = player(&server, "idle-master");
    let other = player(&server, "idle-other");
    let id = two_player_game(
        &gm,
        &other,
        "Idle",
        json!({"early": true, "nmr_limit": 1, "movement_seconds": 3600}),
    );
    let result = gm.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    assert_eq!(result["civil_disorder"], json!(["FRANCE", "GERMANY"]), "{result}");
    // Nobody is awaited any more, but that is no reason to adjudicate again and again.
    std::thread::sleep(Duration::from_millis(1500));
    let game = gm.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["state"]["phase"], "F1901M", "{}", game["state"]);
}
