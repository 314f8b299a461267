//! Orders marked final ("ready") through the real `spielleiter serve`: by mail (`READY` with the
//! orders, and alone for orders sent before) and on the web page (the box beside "Send orders");
//! early adjudication waits for every played power to be ready, and the page shows "n of 2 powers
//! ready" without names to a player and with names to the master.

mod support;

use serde_json::json;
use support::browser::Browser;
use support::{Client, Server};

fn account(server: &Server, name: &str) -> Client {
    let c = support::unconfirmed_player_with(server, name, "en", &format!("pw-{name}-2026"));
    support::confirm_address(server, &c, &format!("{name}@example.org"), "en");
    c
}

/// A mail from `name` with `lines`; the judge's reply.
fn mail(server: &support::Server, name: &str, key: &str, lines: &[&str]) -> String {
    support::mail_from(&server.dir, name, key, lines)
}

fn phase(client: &Client, id: &str) -> String {
    let game = client.ok("GET", &format!("/api/games/{id}"), None);
    game["state"]["phase"].as_str().unwrap_or_default().to_string()
}

#[test]
fn early_adjudication_waits_until_every_power_marked_its_orders_ready_by_mail_or_on_the_page() {
    let server = support::start_server("ready");
    let master = account(&server, "marta");
    let france = account(&server, "franz");
    let germany = account(&server, "greta");
    let settings = json!({"name": "bereit", "variant": "standard", "early": true, "movement_seconds": 86400});
    let id = master.ok("POST", "/api/games", Some(settings))["id"]
        .as_str()
        .expect("an id")
        .to_string();
    for (who, power) in [(&france, "FRANCE"), (&germany, "GERMANY")] {
        who.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    master.ok("POST", &format!("/api/games/{id}/start"), None);

    // Spring: France's mail says READY with its orders; Germany ticks the box on the page.
    let reply = mail(
        &server,
        "franz",
        "spring",
        &["SIGNON France bereit pw-franz-2026", "A Par - Bur", "READY"],
    );
    assert!(reply.contains("are final (ready)"), "{reply}");
    assert_eq!(phase(&master, &id), "S1901M");
    let mut web = Browser::new(&server.base);
    web.log_in("greta", "pw-greta-2026");
    let page = web.get(&format!("/games/{id}")).body;
    assert!(page.contains(r#"id="ready-count">1 of 2 powers ready<"#), "{page}");
    assert!(
        page.contains(r#"name="ready" id="orders-ready" value="1">"#),
        "not ticked: {page}"
    );
    let sent = web.send(
        &format!("/games/{id}/orders"),
        &[("orders", "A Mun - Ruh"), ("ready", "1")],
    );
    assert_eq!(sent.status, 303, "{}", sent.body);
    assert_eq!(phase(&master, &id), "F1901M", "both ready: adjudicated at once");

    // Fall: orders sent without the mark wait; READY alone marks the orders sent before.
    let reply = mail(
        &server,
        "franz",
        "fall",
        &["SIGNON France bereit pw-franz-2026", "A Bur - Mun"],
    );
    assert!(!reply.contains("final"), "{reply}");
    let sent = web.send(
        &format!("/games/{id}/orders"),
        &[("orders", "A Ruh - Hol"), ("ready", "1")],
    );
    assert_eq!(sent.status, 303, "{}", sent.body);
    assert_eq!(phase(&master, &id), "F1901M", "France's orders are not final");
    let page = web.get(&format!("/games/{id}")).body;
    assert!(page.contains(r#"id="ready-count">1 of 2 powers ready<"#), "{page}");
    assert!(
        page.contains(r#"id="orders-ready" value="1" checked>"#),
        "ticked: {page}"
    );
    let mut desk = Browser::new(&server.base);
    desk.log_in("marta", "pw-marta-2026");
    let page = desk.get(&format!("/games/{id}")).body;
    assert!(
        page.contains(r#"id="ready-count">1 of 2 powers ready: Germany<"#),
        "the master sees who: {page}"
    );
    let reply = mail(
        &server,
        "franz",
        "ready",
        &["SIGNON France bereit pw-franz-2026", "READY"],
    );
    assert!(reply.contains("The orders of France for F1901M are final"), "{reply}");
    assert!(reply.contains("adjudicated at once"), "{reply}");
    assert_eq!(phase(&master, &id), "W1901A");
}
