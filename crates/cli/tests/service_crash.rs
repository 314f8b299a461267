//! Crash safety: the process is killed with SIGKILL while an adjudication's transaction is open.
//! After a restart no accepted order is lost, the phase is adjudicated once, and each member gets
//! its result exactly once.

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{Server, fresh_dir, player, start_server_in, two_player_game};

fn result_mails(dir: &std::path::Path, subject: &str) -> usize {
    support::mails_in(&dir.join("mail"))
        .iter()
        .filter(|t| t.contains(subject))
        .count()
}

fn wait_for_line(server: &Server, needle: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        if let Ok(line) = server.stderr.recv_timeout(Duration::from_millis(200)) {
            if line.contains(needle) {
                return;
            }
        }
    }
    panic!("the server never said {needle:?}");
}

#[test]
fn a_kill_during_adjudication_loses_no_order_and_sends_no_result_twice() {
    let dir = fresh_dir("crash");
    let server = start_server_in(dir.clone(), &["--adjudication-delay-ms", "5000"]);
    let mut france = player(&server, "crash-france");
    let mut germany = player(&server, "crash-germany");
    let id = two_player_game(&france, &germany, "Crashed", json!({"movement_seconds": 3600}));
    france.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Par - Bur", "A Mar S A Par - Bur"]})),
    );
    germany.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    // The master's adjudication runs into the delay; the process dies inside the transaction.
    let agent_token = france.token.clone().expect("a session");
    let base = server.base.clone();
    let game_id = id.clone();
    let adjudication = std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        // The connection breaks when the process dies: there is no answer to check.
        let _ = agent
            .post(&format!("{base}/api/games/{game_id}/adjudicate"))
            .header("authorization", &format!("Bearer {agent_token}"))
            .send_empty();
    });
    wait_for_line(&server, "adjudicating Crashed S1901M: holding the transaction open");
    let dir = server.kill_hard();
    let _ = adjudication.join();

    // After the restart: the phase is still open and both powers' orders are there.
    let server = start_server_in(dir.clone(), &[]);
    france.base = server.base.clone();
    germany.base = server.base.clone();
    let game = france.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(game["state"]["phase"], "S1901M", "the killed adjudication left nothing");
    let (status, _) = france.call("GET", &format!("/api/games/{id}/phases/S1901M"), None);
    assert_eq!(status, 404);
    assert_eq!(
        france.ok("GET", &format!("/api/games/{id}/orders"), None)["orders"],
        json!(["A Par - Bur", "A Mar S A Par - Bur"])
    );
    assert_eq!(
        germany.ok("GET", &format!("/api/games/{id}/orders"), None)["orders"],
        json!(["A Mun - Ruh"])
    );
    let subject = "Subject: Diplomacy results Crashed S1901M";
    assert_eq!(result_mails(&dir, subject), 0, "no result was published");

    // Adjudicated now, with every order, once.
    let result = france.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
    let units = &result["result"]["units"];
    assert!(units["FRANCE"].to_string().contains("A BUR"), "{units}");
    assert!(units["GERMANY"].to_string().contains("A RUH"), "{units}");
    let until = Instant::now() + Duration::from_secs(20);
    while result_mails(&dir, subject) < 2 {
        assert!(Instant::now() < until, "the results were not delivered");
        std::thread::sleep(Duration::from_millis(200));
    }
    // A second restart delivers nothing again.
    let dir = server.kill_hard();
    let server = start_server_in(dir.clone(), &[]);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(result_mails(&dir, subject), 2, "one result for each member, once");
    france.base = server.base.clone();
    let history = france.ok("GET", &format!("/api/games/{id}/history"), None);
    let phases: Vec<_> = history["phases"]
        .as_array()
        .expect("phases")
        .iter()
        .map(|p| p["phase"].clone())
        .collect();
    assert_eq!(phases, vec![json!("S1901M")]);
}
