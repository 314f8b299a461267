//! Several `serve` processes over one database (PostgreSQL in CI, or one SQLite file): their
//! schedulers race for every deadline, yet each phase is adjudicated once and each result is
//! delivered once.

mod support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{Client, fresh_dir, player, start_server_in, two_player_game};

/// Result mails by subject, over several mail folders.
fn result_mails(dirs: &[std::path::PathBuf]) -> BTreeMap<String, usize> {
    let mut count = BTreeMap::new();
    for dir in dirs {
        for text in support::mails_in(dir) {
            if let Some(subject) = text.lines().find_map(|l| l.strip_prefix("Subject: Diplomacy results ")) {
                *count.entry(subject.to_string()).or_insert(0) += 1;
            }
        }
    }
    count
}

#[test]
fn two_processes_adjudicate_each_phase_once_and_send_each_result_once() {
    let dir = fresh_dir("processes");
    let mail_a = dir.join("mail-a");
    let mail_b = dir.join("mail-b");
    let a = start_server_in(dir.clone(), &["--mail-dir", &mail_a.to_string_lossy()]);
    let b = start_server_in(dir.clone(), &["--mail-dir", &mail_b.to_string_lossy()]);
    let france = player(&a, "proc-france");
    let mut germany = player(&a, "proc-germany");
    germany.base = b.base.clone();
    let id = two_player_game(
        &france,
        &germany,
        "Raced",
        json!({"movement_seconds": 1, "retreat_seconds": 1, "adjustment_seconds": 1}),
    );
    // Orders through one process, the other may adjudicate them.
    germany.ok(
        "PUT",
        &format!("/api/games/{id}/orders"),
        Some(json!({"orders": ["A Mun - Ruh"]})),
    );
    let history = |c: &Client| -> Vec<String> {
        c.ok("GET", &format!("/api/games/{id}/history"), None)["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .filter_map(|p| p["phase"].as_str().map(str::to_string))
            .collect()
    };
    let until = Instant::now() + Duration::from_secs(40);
    while history(&france).len() < 4 {
        assert!(Instant::now() < until, "the deadlines passed without adjudications");
        std::thread::sleep(Duration::from_millis(200));
    }
    let phases = history(&germany);
    let mut unique = phases.clone();
    unique.dedup();
    assert_eq!(phases, unique, "no phase twice");
    assert_eq!(&phases[..2], ["S1901M", "F1901M"]);
    let first = france.ok("GET", &format!("/api/games/{id}/phases/S1901M"), None);
    assert!(first["result"]["units"]["GERMANY"].to_string().contains("A RUH"));
    // Every adjudicated phase's result reaches both players exactly once, from either process.
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let mails = result_mails(&[mail_a.clone(), mail_b.clone()]);
        let complete = phases
            .iter()
            .all(|p| mails.get(&format!("Raced {p}")).is_some_and(|&n| n >= 2));
        if complete {
            for p in &phases {
                assert_eq!(mails[&format!("Raced {p}")], 2, "{p}: {mails:?}");
            }
            break;
        }
        assert!(Instant::now() < until, "results missing: {mails:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(b);
}
