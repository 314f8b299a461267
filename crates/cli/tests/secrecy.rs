//! The comparison test of secrecy: two games played identically, except that in one of them
//! France also sends orders in advance and replaces them, gives two orders to one unit, orders
//! a retreat in advance for a unit that is not dislodged, and sends private press to Germany.
//! Every read route (API, web pages, map pictures, downloads, mail) gives every other viewer
//! the same answers in both games, before and after each adjudication: nothing France sent
//! reaches anyone before it is carried out, and what was replaced or never carried out never
//! does.

mod support;

use serde_json::json;
use support::twins::{everything, first_difference, mails, normalized};
use support::{Client, Server, player, start_server};

/// The two games: the plain one and the one where France does more.
struct Twins {
    plain: String,
    busy: String,
}

const PLAIN: &str = "Twin Alpha";
const BUSY: &str = "Twin Bravo";

/// The phases whose results are read.
const PHASES: &[&str] = &["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"];

/// The accounts: the master, France, Germany (France's press goes to her), England, an
/// observer and a stranger to both games.
struct Cast {
    master: Client,
    france: Client,
    germany: Client,
    england: Client,
    observer: Client,
    stranger: Client,
}

fn cast(server: &Server) -> Cast {
    Cast {
        master: player(server, "mira"),
        france: player(server, "fritz"),
        germany: player(server, "gabi"),
        england: player(server, "emil"),
        observer: player(server, "otto"),
        stranger: player(server, "stan"),
    }
}

fn new_game(c: &Cast, name: &str) -> String {
    let game = c.master.ok(
        "POST",
        "/api/games",
        Some(json!({"name": name, "variant": "standard", "press": "full", "movement_seconds": 86400})),
    );
    let id = game["id"].as_str().expect("an id").to_string();
    for (who, power) in [(&c.france, "FRANCE"), (&c.germany, "GERMANY"), (&c.england, "ENGLAND")] {
        who.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    c.observer.ok(
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"observer": true})),
    );
    c.master.ok("POST", &format!("/api/games/{id}/start"), None);
    id
}

fn orders(c: &Client, id: &str, lines: &[&str]) {
    c.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({ "orders": lines })),
    );
}

/// Compares what every viewer but France reads of the twins.
fn compare(server: &Server, c: &Cast, twins: &Twins, when: &str) {
    let viewers = [
        ("gabi", &c.germany, false),
        ("emil", &c.england, true),
        ("otto", &c.observer, true),
        ("mira", &c.master, true),
        ("stan", &c.stranger, true),
    ];
    for (who, viewer, with_press) in viewers {
        let plain = everything(server, viewer, &twins.plain, with_press, PHASES);
        let busy = everything(server, viewer, &twins.busy, with_press, PHASES);
        for ((path, a), (_, b)) in plain.iter().zip(&busy) {
            let (a, b) = (normalized(a, &twins.plain, PLAIN), normalized(b, &twins.busy, BUSY));
            assert!(
                a == b,
                "{when}: {who} reads {path} differently:\n{}",
                first_difference(&a, &b)
            );
        }
        let address = format!("{who}@example.org");
        let read = |name: &str, id: &str| -> Vec<String> {
            let mut all: Vec<String> = mails(server, &address, name)
                .iter()
                .map(|m| normalized(m, id, name))
                .filter(|m| with_press || !m.contains("press from France"))
                .collect();
            all.sort();
            all
        };
        let (plain_mail, busy_mail) = (read(PLAIN, &twins.plain), read(BUSY, &twins.busy));
        assert!(
            plain_mail == busy_mail,
            "{when}: {who}'s mail differs:\n{}",
            first_difference(&plain_mail.join("\n----\n"), &busy_mail.join("\n----\n"))
        );
    }
}

/// Adjudicates `phase` of both games, and waits until both results have been mailed to the
/// five members of each.
fn adjudicate(server: &Server, c: &Cast, twins: &Twins, phase: &str) {
    for (id, name) in [(&twins.plain, PLAIN), (&twins.busy, BUSY)] {
        c.master.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
        let subject = format!("Diplomacy results {name} {phase}");
        let sent = support::wait_for_mails(&server.dir.join("mail"), 5, |m| m.contains(&subject));
        assert_eq!(sent.len(), 5, "{subject}");
    }
}

#[test]
fn what_france_sent_in_advance_replaced_or_never_carried_out_reaches_nobody_else() {
    let server = start_server("secrecy-twins");
    let c = cast(&server);
    let twins = Twins {
        plain: new_game(&c, PLAIN),
        busy: new_game(&c, BUSY),
    };
    let both = |who: &Client, lines: &[&str]| {
        orders(who, &twins.plain, lines);
        orders(who, &twins.busy, lines);
    };

    // Spring 1901.
    both(&c.germany, &["A Mun - Ruh", "A Ber - Mun", "F Kie H"]);
    both(&c.england, &["F Lon H", "F Edi H", "A Lvp H"]);
    orders(&c.france, &twins.plain, &["A Mar - Bur", "A Par H", "F Bre - Mao"]);
    orders(&c.france, &twins.busy, &["A Mar - Gas", "F1901M:", "A Par - Pic"]);
    orders(
        &c.france,
        &twins.busy,
        &[
            // A second order for a unit in one submission is refused and never kept.
            "A Mar - Bur",
            "A Mar - Spa",
            "A Par H",
            "F Bre - Mao",
            "F1901M:",
            "A Bur - Mun",
            "A Par - Pic",
        ],
    );
    c.france.ok(
        "POST",
        &format!("/api/games/{}/press", twins.busy),
        Some(json!({"to": ["GERMANY"], "body": "I will take Munich in the fall."})),
    );
    compare(&server, &c, &twins, "spring orders in");
    adjudicate(&server, &c, &twins, "S1901M");
    // Whether a power has orders in place for a phase is no secret (the master sees whom the
    // judge waits for): in the plain game France sends early what the busy one sent in advance.
    orders(&c.france, &twins.plain, &["A Bur - Mun", "A Par - Pic"]);
    compare(&server, &c, &twins, "spring adjudicated");

    // Fall 1901: Germany dislodges A Bur; in the busy game France's advance orders are
    // replaced, and its retreat for A Par (not dislodged) is never used.
    both(&c.germany, &["A Ruh - Bur", "A Mun S A Ruh - Bur", "F Kie H"]);
    both(&c.england, &["F Lon H", "F Edi H", "A Lvp H"]);
    orders(&c.france, &twins.plain, &["A Bur H", "A Par H", "F Mao H"]);
    orders(
        &c.france,
        &twins.busy,
        &["A Bur H", "A Par H", "F Mao H", "F Mao - Por", "F1901R:", "A Par R Gas"],
    );
    compare(&server, &c, &twins, "fall orders in");
    adjudicate(&server, &c, &twins, "F1901M");
    compare(&server, &c, &twins, "fall adjudicated, retreats open");
    let state = c.master.ok("GET", &format!("/api/games/{}", twins.busy), None);
    assert!(state.to_string().contains("F1901R"), "a retreat phase: {state}");

    // The retreat in both games is the same.
    orders(&c.france, &twins.plain, &["A Bur R Pic"]);
    orders(&c.france, &twins.busy, &["A Bur R Pic", "A Bur R Bel"]);
    compare(&server, &c, &twins, "retreats in");
    adjudicate(&server, &c, &twins, "F1901R");
    compare(&server, &c, &twins, "retreats adjudicated");
}
