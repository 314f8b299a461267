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
