//! The game page as players use it, over plain HTTP (the browser tests are in `web_play.rs`):
//! its weight compressed, the echo's "did you mean" and completeness warnings, what the master
//! sees of incomplete orders.

mod support;

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
    assert!(echo.body.contains(r#"id="gaps""#), "{}", echo.body);
    for unit in [
        "Army Paris has no order: it holds.",
        "Fleet Brest has no order: it holds.",
    ] {
        assert!(echo.body.contains(unit), "{unit}: {}", echo.body);
    }
    assert!(!echo.body.contains("Army Marseilles has no order"), "{}", echo.body);

    // Sent: the page shows the same; the master sees whose orders are incomplete.
    let sent = master.send(&format!("{game}/orders"), &[("orders", "A Par - Bur\nA Mar H")]);
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = master.get(&game).body;
    assert!(page.contains("Fleet Brest has no order: it holds."), "{page}");
    assert!(
        page.contains(r#"id="incomplete""#) && page.contains("<strong>France</strong>: Fleet Brest"),
        "{page}"
    );
    assert!(!player.get(&game).body.contains(r#"id="incomplete""#));

    // Complete orders: no warning left; in German the warning is German.
    master.send(
        &format!("{game}/orders"),
        &[("orders", "A Par - Bur\nA Mar H\nF Bre - Mao")],
    );
    let page = master.get(&game).body;
    assert!(
        !page.contains(r#"id="gaps""#) && !page.contains(r#"id="incomplete""#),
        "{page}"
    );
    player.get("/lang?to=de");
    let echo = player.send(&format!("{game}/echo"), &[("orders", "A Ber - Kie")]);
    assert!(
        echo.body.contains("Armee München hat keinen Befehl: sie hält."),
        "{}",
        echo.body
    );
}
