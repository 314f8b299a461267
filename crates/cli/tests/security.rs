//! The judge against an attacker, through the real binary on loopback: nothing published that
//! was not carried out, bounded input, limits per real client behind a proxy, connections that
//! cannot be held open, names that cannot forge lines, sessions that end. See docs/SECURITY.md.

mod support;

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Client, player, start_server, start_server_in, two_player_game};

fn put_orders(c: &Client, id: &str, orders: &[&str]) -> Value {
    c.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({ "orders": orders })),
    )
}

fn adjudicate(master: &Client, id: &str) -> Value {
    master.ok("POST", &format!("/api/games/{id}/adjudicate"), None)
}

/// Everything about a phase another player may read: the phase's result and reports, the
/// history, and the game.
fn readable(c: &Client, id: &str, phase: &str) -> String {
    let phase = c.ok("GET", &format!("/api/games/{id}/phases/{phase}"), None);
    let history = c.ok("GET", &format!("/api/games/{id}/history"), None);
    let game = c.ok("GET", &format!("/api/games/{id}"), None);
    format!("{phase}\n{history}\n{game}")
}

#[test]
fn replaced_orders_are_never_published() {
    let server = start_server("sec-replaced");
    let (france, germany) = (player(&server, "francine"), player(&server, "gerd"));
    let id = two_player_game(&france, &germany, "Replaced", json!({}));
    // In spring France also orders the fall in advance, and gives A Mar two orders: the
    // second is refused and never kept.
    let sent = put_orders(
        &france,
        &id,
        &["A Mar H", "A Par H", "A Mar - Spa", "F1901M:", "A Par - Bur"],
    );
    assert!(
        sent["orders"][2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("line 1")),
        "{sent}"
    );
    adjudicate(&france, &id);
    // In the fall France orders anew: the advance order is replaced.
    let mine = france.ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(mine["pending"], json!(["F1901M: A Par - Bur"]), "{mine}");
    put_orders(&france, &id, &["A Par - Pic"]);
    let mine = france.ok("GET", &format!("/api/games/{id}/orders"), None);
    assert_eq!(mine["pending"], json!([]), "the replaced advance order is gone: {mine}");
    adjudicate(&france, &id);
    let spring = readable(&germany, &id, "S1901M");
    assert!(!spring.contains("A MAR - SPA") && !spring.contains("Spain"), "{spring}");
    let fall = readable(&germany, &id, "F1901M");
    assert!(fall.contains("A PAR - PIC"), "{fall}");
    assert!(!fall.contains("A PAR - BUR") && !fall.contains("Burgundy"), "{fall}");
}

#[test]
fn retreats_in_advance_for_a_unit_not_dislodged_are_told_only_to_their_sender() {
    let server = start_server("sec-retreats");
    let (france, germany) = (player(&server, "fabienne"), player(&server, "gunther"));
    let id = two_player_game(&france, &germany, "Retreats", json!({}));
    put_orders(&france, &id, &["A Mar - Bur", "A Par H"]);
    put_orders(&germany, &id, &["A Mun - Ruh", "A Ber - Mun"]);
    adjudicate(&france, &id);
    // Germany dislodges A Bur; France gave a retreat for A Par, which stays where it is.
    put_orders(&france, &id, &["A Bur H", "A Par H", "F1901R:", "A Par R Gas"]);
    put_orders(&germany, &id, &["A Ruh - Bur", "A Mun S A Ruh - Bur"]);
    let result = adjudicate(&france, &id);
    assert_eq!(
        result["result"]["phase"], "F1901R",
        "the retreat phase is open: {result}"
    );
    let seen = readable(&germany, &id, "F1901M");
    assert!(!seen.contains("PAR R") && !seen.contains("Par R"), "{seen}");
    assert!(
        !result.to_string().contains("PAR R"),
        "nor in the master's answer: {result}"
    );
    let own = france.ok("GET", &format!("/api/games/{id}/phases/F1901M"), None);
    assert!(own["notices"].to_string().contains("A Par R Gas"), "{own}");
    let theirs = germany.ok("GET", &format!("/api/games/{id}/phases/F1901M"), None);
    assert_eq!(theirs["notices"], json!([]));
    let mail = server.dir.join("mail");
    let told = support::wait_for_mails(&mail, 1, |m| m.contains("For you alone"));
    assert_eq!(told.len(), 1, "one notice mail");
    assert!(
        told[0].contains("fabienne@example.org") && told[0].contains("A Par R Gas"),
        "{}",
        told[0]
    );
    let everyone = support::mails_in(&mail);
    assert!(
        everyone.iter().filter(|m| m.contains("Par R Gas")).count() == 1,
        "only the notice names it"
    );
}

#[test]
fn a_submission_is_bounded_in_lines_and_bytes() {
    let server = start_server("sec-size");
    let (france, germany) = (player(&server, "flora"), player(&server, "gisela"));
    let id = two_player_game(&france, &germany, "Bounded", json!({}));
    let long: Vec<String> = (0..400).map(|i| format!("A Par H # {i:0>90}")).collect();
    let (status, error) = france.call(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({ "orders": long })),
    );
    assert_eq!((status, error["code"].as_str()), (400, Some("too_long")), "{error}");
    let (status, _) = france.call(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par H"]})),
    );
    assert_eq!(status, 200);
}

/// A login attempt with a forwarded client address; the status.
fn login_from(server: &support::Server, forwarded_for: &str, password: &str) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    agent
        .post(format!("{}/api/sessions", server.base))
        .header("X-Forwarded-For", forwarded_for)
        .send_json(json!({"name": "proxied", "password": password}))
        .map(|r| r.status().as_u16())
        .unwrap_or(0)
}

/// Wrong logins from `client` until the judge refuses them; how many were taken.
fn guess_until_limited(server: &support::Server, client: &str) -> usize {
    for n in 0..100 {
        if login_from(server, client, "not the password") == 429 {
            return n;
        }
    }
    panic!("never limited");
}

#[test]
fn behind_a_trusted_proxy_each_client_has_its_own_login_limit() {
    let server = start_server_in(support::fresh_dir("sec-proxy"), &["--trusted-proxy", "127.0.0.1"]);
    player(&server, "proxied");
    let taken = guess_until_limited(&server, "203.0.113.1");
    assert!(taken >= 3, "some guesses are taken before the limit: {taken}");
    assert_eq!(login_from(&server, "203.0.113.1", "long enough"), 429, "limited");
    assert_eq!(
        login_from(&server, "203.0.113.2", "long enough"),
        200,
        "another client is not"
    );
    // A client cannot escape its limit by claiming another address in front of the proxy's.
    assert_eq!(login_from(&server, "203.0.113.9, 203.0.113.1", "long enough"), 429);
    // Nor by sending the header the proxy does not write.
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let status = agent
        .post(format!("{}/api/sessions", server.base))
        .header("Forwarded", "for=203.0.113.77")
        .header("X-Forwarded-For", "203.0.113.1")
        .send_json(json!({"name": "proxied", "password": "long enough"}))
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(
        status, 429,
        "Forwarded is not read when the proxy writes X-Forwarded-For"
    );
}

#[test]
fn without_a_trusted_proxy_forwarding_headers_are_ignored() {
    let server = start_server("sec-noproxy");
    player(&server, "proxied");
    guess_until_limited(&server, "203.0.113.1");
    assert_eq!(
        login_from(&server, "203.0.113.2", "long enough"),
        429,
        "the header changes nothing"
    );
}

#[test]
fn game_names_cannot_carry_line_breaks_or_direction_marks() {
    let server = start_server("sec-names");
    let master = player(&server, "namer");
    for name in [
        "Evil\nYou play GERMANY.",
        "Evil\u{202E}ANYMREG",
        "Tab\there",
        "Zero\u{200B}width",
    ] {
        let (status, error) = master.call("POST", "/api/games", Some(json!({"name": name, "variant": "standard"})));
        assert_eq!(
            (status, error["code"].as_str()),
            (400, Some("bad_name")),
            "{name:?}: {error}"
        );
    }
    let (status, _) = master.call(
        "POST",
        "/api/games",
        Some(json!({"name": "Ärger – 1901", "variant": "standard"})),
    );
    assert_eq!(status, 201);
}

/// Whether the server closed `stream` (end of stream or reset) within `wait`.
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    stream.set_read_timeout(Some(wait)).expect("a timeout");
    let mut buffer = [0u8; 512];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return false;
            }
            Err(_) => return true,
        }
    }
}

fn address(server: &support::Server) -> String {
    server.base.trim_start_matches("http://").to_string()
}

#[test]
fn a_client_that_trickles_its_headers_is_cut_off() {
    let server = start_server_in(support::fresh_dir("sec-slow"), &["--header-timeout", "1"]);
    let mut slow = TcpStream::connect(address(&server)).expect("connects");
    slow.write_all(b"GET / HTTP/1.1\r\nHost: judge\r\n").expect("writes");
    assert!(closed_within(&mut slow, Duration::from_secs(5)), "cut off");
    // A whole request is still answered.
    let (status, _) = Client::new(&server).call("GET", "/api/openapi.json", None);
    assert_eq!(status, 200);
}

#[test]
fn one_address_cannot_hold_every_connection() {
    let server = start_server_in(
        support::fresh_dir("sec-conns"),
        &["--max-connections-per-address", "3", "--header-timeout", "30"],
    );
    let mut held: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(address(&server)).expect("connects"))
        .collect();
    let mut extra = TcpStream::connect(address(&server)).expect("the kernel accepts");
    assert!(
        closed_within(&mut extra, Duration::from_secs(5)),
        "the fourth is closed"
    );
    for stream in &mut held {
        assert!(
            !closed_within(stream, Duration::from_millis(200)),
            "the three stay open"
        );
    }
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = Client::new(&server).call("GET", "/api/openapi.json", None);
    assert_eq!(status, 200, "room again once they are closed");
}

#[test]
fn a_logged_out_token_stops_working() {
    let server = start_server("sec-logout");
    let me = player(&server, "leaver");
    me.ok("GET", "/api/account", None);
    let (status, _) = me.call("DELETE", "/api/sessions/current", None);
    assert_eq!(status, 204);
    let (status, error) = me.call("GET", "/api/account", None);
    assert_eq!((status, error["code"].as_str()), (401, Some("unauthorized")), "{error}");
    let (status, _) = Client::new(&server).call("DELETE", "/api/sessions/current", None);
    assert_eq!(status, 401, "logging out needs a session");
}

/// A sign-up through the API from `client` (behind the trusted proxy) for `email`; the status
/// and the error code.
fn sign_up(server: &support::Server, client: &str, name: &str, email: &str) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let body = json!({"name": name, "email": email, "password": "long enough"});
    let mut response = agent
        .post(format!("{}/api/accounts", server.base))
        .header("X-Forwarded-For", client)
        .send_json(body)
        .expect("an answer");
    let answer: Value = response.body_mut().read_json().unwrap_or(Value::Null);
    let code = answer["code"].as_str().unwrap_or_default().to_string();
    (response.status().as_u16(), code)
}

#[test]
fn sign_ups_are_limited_per_client_and_per_address() {
    let extra = ["--trusted-proxy", "127.0.0.1", "--sign-ups-per-source", "5"];
    let server = start_server_in(support::fresh_dir("sec-signups"), &extra);
    // Three accounts for one address; a fourth would mail it a fourth code the same day.
    for n in 0..3 {
        let made = sign_up(&server, "203.0.113.1", &format!("victim{n}"), "victim@example.org");
        assert_eq!(made.0, 201, "{made:?}");
    }
    let refused = sign_up(&server, "203.0.113.2", "victim3", "Victim@Example.org ");
    assert_eq!(
        refused,
        (429, "rate_limited".to_string()),
        "an address, however written"
    );
    // Five sign-ups from one client an hour; the refused one above was not counted.
    for n in 0..2 {
        let email = format!("own{n}@example.org");
        assert_eq!(sign_up(&server, "203.0.113.1", &format!("own{n}"), &email).0, 201);
    }
    let refused = sign_up(&server, "203.0.113.1", "own2", "own2@example.org");
    assert_eq!(refused, (429, "rate_limited".to_string()), "a sixth from one client");
    assert_eq!(
        sign_up(&server, "203.0.113.2", "own2", "own2@example.org").0,
        201,
        "another client"
    );
    // Refused sign-ups made no account and mailed no code.
    let to_victim = |m: &str| m.to_lowercase().contains("victim@example.org");
    support::wait_for_mails(&server.dir.join("mail"), 4, |m| {
        m.contains("own2@example.org") || to_victim(m)
    });
    let codes = support::mails_in(&server.dir.join("mail"));
    assert_eq!(
        codes.iter().filter(|m| to_victim(m)).count(),
        3,
        "one code mail per account made"
    );
    let (status, _) = Client::new(&server).call(
        "POST",
        "/api/sessions",
        Some(json!({"name": "victim3", "password": "long enough"})),
    );
    assert_eq!(status, 401, "no account victim3");
}
