//! Hegemony 1701 through the real `spielleiter serve`: six players over two game years, by mail
//! (England in English, Sweden in German), on the web pages (Austria, France) and through the API
//! (Spain, Turkey). The first winter's allocations give Austria and France joint control of
//! Bavaria, whose orders they send alike; France provokes Savoy and then Bavaria; Marlborough
//! leads an English army into Bavaria against a French attack; the Bavarian army, its centre
//! lost, is removed for want of supply. Every report is checked for what it must say and for the
//! secrets it must not, and each player's mail "For you alone" for what only he may know.

mod support;

use serde_json::{Value, json};
use support::browser::Browser;
use support::{Client, Server, ingest_into, reply_to};

const GAME: &str = "europa1701";

/// The players: power, account name, language, and how each sends orders.
const CAST: [(&str, &str, &str); 6] = [
    ("AUSTRIA", "anton", "en"),
    ("ENGLAND", "edith", "en"),
    ("FRANCE", "felix", "en"),
    ("SPAIN", "sofia", "en"),
    ("SWEDEN", "sven", "de"),
    ("TURKEY", "tarik", "en"),
];

fn password(name: &str) -> String {
    format!("pw-{name}-2026")
}

fn address(name: &str) -> String {
    format!("{name}@example.org")
}

/// A confirmed account with a password without spaces (mail players write it).
fn account(server: &Server, name: &str, lang: &str) -> Client {
    let c = support::unconfirmed_player_with(server, name, lang, &password(name));
    support::confirm_address(server, &c, &address(name), lang);
    c
}

/// The web pages logged in as `name`.
fn web(server: &Server, name: &str) -> Browser {
    let mut b = Browser::new(&server.base);
    b.get("/");
    let csrf = b.csrf();
    let pw = password(name);
    let page = b.post("/login", &[("csrf", &csrf), ("name", name), ("password", &pw)], None);
    assert_eq!(page.status, 303, "{}", page.body);
    b
}

/// The game with its master and six players, started; the game's id and the master.
struct Table {
    server: Server,
    id: String,
    master: Client,
    api: Vec<Client>,
    austria: Browser,
    france: Browser,
    mails: usize,
}

impl Table {
    fn new() -> Table {
        let server = support::start_server("hegemony-service");
        let master = account(&server, "meister", "en");
        let game = json!({"name": GAME, "variant": "hegemony-1701", "press": "full", "movement_seconds": 86400});
        let id = master.ok("POST", "/api/games", Some(game))["id"]
            .as_str()
            .expect("an id")
            .to_string();
        let api: Vec<Client> = CAST
            .iter()
            .map(|&(power, name, lang)| {
                let c = account(&server, name, lang);
                c.ok(
                    "POST",
                    &format!("/api/games/{id}/join"),
                    Some(json!({"preferences": [power]})),
                );
                c
            })
            .collect();
        master.ok("POST", &format!("/api/games/{id}/start"), None);
        let (austria, france) = (web(&server, "anton"), web(&server, "felix"));
        Table {
            server,
            id,
            master,
            api,
            austria,
            france,
            mails: 0,
        }
    }

    fn client(&self, power: &str) -> &Client {
        let i = CAST.iter().position(|c| c.0 == power).expect("a power");
        &self.api[i]
    }

    /// Orders on the game page's form.
    fn on_the_web(browser: &mut Browser, id: &str, lines: &[&str]) {
        let page = browser.send(&format!("/games/{id}/orders"), &[("orders", &lines.join("\n"))]);
        assert_eq!(page.status, 303, "{}", page.body);
        let shown = browser.get(&format!("/games/{id}")).body;
        assert!(!shown.contains("ERROR"), "{shown}");
    }

    /// Orders by mail from `name`, signed on with `sign_on` (its words in the player's
    /// language); the judge's reply.
    fn by_mail(&mut self, name: &str, sign_on: &str, lines: &[&str]) -> String {
        self.mails += 1;
        let id = format!("orders-{}@example.org", self.mails);
        let body = format!("{sign_on} {GAME} {}\n{}\n", password(name), lines.join("\n"));
        let raw = format!(
            "From: {name} <{}>\r\nMessage-ID: <{id}>\r\nSubject: orders\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            address(name),
            body.replace('\n', "\r\n")
        );
        ingest_into(&self.server.dir, &raw);
        let reply = reply_to(&self.server.dir, &id);
        assert!(!reply.contains("ERROR"), "{reply}");
        reply
    }

    fn by_api(&self, power: &str, lines: &[&str]) {
        self.client(power).ok(
            "PUT",
            &format!("/api/games/{}/orders", self.id),
            Some(json!({ "orders": lines })),
        );
    }

    /// The master adjudicates `phase`; every member and the master get its result by mail.
    fn adjudicate(&self, phase: &str) -> Value {
        self.master
            .ok("POST", &format!("/api/games/{}/adjudicate", self.id), None);
        let results = support::wait_for_mails(&self.server.dir.join("mail"), 7, |m| is_result(m, GAME, phase));
        assert_eq!(results.len(), 7, "{GAME} {phase}");
        assert_eq!(
            with_pictures(&self.server, phase),
            7,
            "each result of {phase} carries its maps"
        );
        self.client("SPAIN")
            .ok("GET", &format!("/api/games/{}/phases/{phase}", self.id), None)
    }

    /// The mails to `name` whose subject has `subject`.
    fn mails_to(&self, name: &str, subject: &str) -> Vec<String> {
        support::mails_in(&self.server.dir.join("mail"))
            .into_iter()
            .filter(|m| m.contains(&format!("<{}>", address(name))) && subject_has(m, subject))
            .collect()
    }

    /// The one mail "For you alone" (or "Nur für Sie") to `name` about `phase`.
    fn private(&self, name: &str, phase: &str) -> String {
        let found = support::wait_for_mails(&self.server.dir.join("mail"), 1, |m| {
            m.contains(&format!("<{}>", address(name)))
                && (subject_has(m, &format!("For you alone: {GAME} {phase}"))
                    || subject_has(m, &format!("Nur für Sie: {GAME} {phase}")))
        });
        assert_eq!(found.len(), 1, "{name} {phase}: {found:?}");
        found[0].clone()
    }
}

/// Whether a mail is the result of `phase` of the game `name`, in English or German.
fn is_result(mail: &str, name: &str, phase: &str) -> bool {
    subject_has(mail, &format!("Diplomacy results {name} {phase}"))
        || subject_has(mail, &format!("Diplomacy-Ergebnisse {name} {phase}"))
}

/// How many mail files of the results of `phase` carry a PNG map.
fn with_pictures(server: &Server, phase: &str) -> usize {
    let files = std::fs::read_dir(server.dir.join("mail")).expect("the mail folder");
    files
        .filter_map(Result::ok)
        .filter_map(|f| std::fs::read_to_string(f.path()).ok())
        .filter(|raw| raw.contains(&format!("{GAME} {phase}")) && raw.contains("Content-Type: image/png"))
        .filter(|raw| raw.contains("Subject: Diplomacy results") || raw.contains("Subject: Diplomacy-Ergebnisse"))
        .count()
}

fn subject_has(mail: &str, text: &str) -> bool {
    mail.lines().any(|l| l.starts_with("Subject:") && l.contains(text))
}

/// Both reports of a phase, English and German.
fn reports(phase: &Value) -> String {
    format!(
        "{}\n{}",
        phase["report_en"].as_str().unwrap_or_default(),
        phase["report_de"].as_str().unwrap_or_default()
    )
}

/// What no report, picture or result may ever show: allocations, influence and control.
fn assert_no_politics(text: &str) {
    for secret in [
        "PF 3",
        "3 PF",
        "PF 2",
        "jointly",
        "gemeinsam",
        "Influence",
        "Einfluss",
        "Controls",
        "Kontrolliert",
        "provoked",
        "provoziert",
    ] {
        assert!(!text.contains(secret), "`{secret}` in\n{text}");
    }
}

#[test]
fn six_players_play_two_years_of_1701_by_mail_web_and_api_and_each_learns_only_his_own_politics() {
    let mut t = Table::new();
    let id = t.id.clone();

    // Winter 1700: Austria and France put 3 PF each into Bavaria (joint control), France 2 into
    // Savoy (sole control); England takes Marlborough instead of the Irish fleet.
    Table::on_the_web(&mut t.austria, &id, &["PF 3 Bavaria", "Build A Vie"]);
    Table::on_the_web(&mut t.france, &id, &["PF 3 Bavaria", "PF 2 Savoy"]);
    let reply = t.by_mail("edith", "SIGNON England", &["Choose L Net"]);
    assert!(reply.contains("CHOOSE L NET"), "{reply}");
    let reply = t.by_mail("sven", "ANMELDEN Schweden", &["4 PF an Preußen"]);
    assert!(reply.contains("PF 4 PRUSSIA"), "{reply}");
    t.by_api("SPAIN", &["PF 2 Portugal"]);
    t.by_api("TURKEY", &["PF 2 Venice"]);
    let winter = t.adjudicate("W1700A");
    let text = reports(&winter);
    assert!(text.contains("Marlborough"), "{text}");
    assert!(text.contains("Austria: Builds an army in Vienna."), "{text}");
    assert_no_politics(&text);
    assert_no_politics(&winter["result"].to_string());
    let austria = t.private("anton", "W1700A");
    assert!(
        austria.contains("PF 3 Bavaria  (*political factors allocated*)"),
        "{austria}"
    );
    assert!(austria.contains("Controls Bavaria jointly"), "{austria}");
    let france = t.private("felix", "W1700A");
    assert!(
        france.contains("Controls Bavaria jointly") && france.contains("Controls Savoy alone"),
        "{france}"
    );
    let sweden = t.private("sven", "W1700A");
    assert!(
        sweden.contains("4 PF an Preußen  (*zugeteilt*)") && sweden.contains("Kontrolliert Preußen allein"),
        "{sweden}"
    );
    for (_, name, _) in CAST {
        let mine = t.private(name, "W1700A");
        if name != "anton" && name != "felix" {
            assert!(!mine.contains("Bavaria") && !mine.contains("Bayern"), "{name}: {mine}");
        }
    }

    // Spring 1701: the joint controllers send the same order for Bavaria; France provokes
    // Savoy; Marlborough leads the army out of the Netherlands.
    Table::on_the_web(
        &mut t.austria,
        &id,
        &["Bavaria: A Bav - Boh", "A Vie - Gal", "A Tra - Rum"],
    );
    Table::on_the_web(
        &mut t.france,
        &id,
        &["Bavaria: A Bav - Boh", "A Mar - Sav", "A Par - Bur", "F Bre - Eng"],
    );
    t.by_mail("edith", "SIGNON England", &["LA Net - Wfa", "F Lon - Nth"]);
    t.by_mail("sven", "ANMELDEN Schweden", &["A Sax H"]);
    let spring = t.adjudicate("S1701M");
    let text = reports(&spring);
    assert!(text.contains("Bavaria: Army Bavaria -> Bohemia."), "{text}");
    assert!(text.contains("Marlborough"), "{text}");
    assert_no_politics(&text);
    let france = t.private("felix", "S1701M");
    assert!(
        france.contains("provoked Savoy") && france.contains("control of Savoy"),
        "{france}"
    );
    for (_, name, _) in CAST.iter().filter(|c| c.1 != "felix") {
        assert!(
            t.mails_to(name, &format!("{GAME} S1701M"))
                .iter()
                .all(|m| !m.contains("Savoy") || !m.contains("provok"))
        );
    }

    // Fall 1701: Marlborough's army (strength 2) and a French army meet in Bavaria, empty since
    // its army left; France provokes Bavaria and leaves Austria its sole controller.
    Table::on_the_web(&mut t.france, &id, &["A Bur - Bav", "A Bel - Wfa"]);
    t.by_mail("edith", "SIGNON England", &["LA Wfa - Bav"]);
    let fall = t.adjudicate("F1701M");
    let text = reports(&fall);
    assert!(text.contains("England: Army Westphalia (led) -> Bavaria."), "{text}");
    assert!(
        text.contains("England: Marlborough (Westphalia) goes to Bavaria."),
        "{text}"
    );
    assert!(text.contains("France: Army Burgundy -> Bavaria.  (*bounce*)"), "{text}");
    assert_no_politics(&text);
    let austria = t.private("anton", "F1701M");
    assert!(austria.contains("Controls Bavaria alone"), "{austria}");
    let france = t.private("felix", "F1701M");
    assert!(france.contains("provoked Bavaria"), "{france}");

    // Winter 1701: Bavaria has lost its only centre; its army is removed for want of supply,
    // with the reason, in every report. England and France build; everyone has an income.
    t.by_mail("edith", "SIGNON England", &["Build F Lon"]);
    Table::on_the_web(&mut t.france, &id, &["Build A Par"]);
    let winter = t.adjudicate("W1701A");
    let text = reports(&winter);
    assert!(
        text.contains("Removes the army in Bohemia: no secure supply line"),
        "{text}"
    );
    assert!(
        text.contains("baut die Armee in Böhmen ab: keine sichere Versorgungslinie"),
        "{text}"
    );
    assert_no_politics(&text);
    assert_eq!(
        winter["result"]["supply_removals"]["BAVARIA"]["A BOH"],
        "no line to a centre of its country"
    );
    for (_, name, lang) in CAST {
        let mine = t.private(name, "W1701A");
        let income = if lang == "de" {
            "Einkommen dieses Winters:"
        } else {
            "Income this winter:"
        };
        assert!(mine.contains(income), "{name}: {mine}");
    }

    // 1702: a year of holds and a Swedish move, adjudicated to its winter.
    t.by_mail("sven", "ANMELDEN Schweden", &["A Fin - Stp"]);
    t.adjudicate("S1702M");
    t.adjudicate("F1702M");
    let last = t.adjudicate("W1702A");
    assert_eq!(last["result"]["phase"], "S1703M", "{last}");
    // The map shows Marlborough beside his army in Bavaria.
    let map = t.austria.get(&format!("/games/{id}/map.svg"));
    assert!(
        map.body.contains("Marlborough"),
        "{}",
        &map.body[..map.body.len().min(400)]
    );
}

/// The twins of the Hegemony secrecy test: the plain game and the busy one, where France also
/// joins Austria's control of Bavaria, takes Savoy, declares a friendship whose condition fails,
/// and sends Bavaria's orders as its co-controller.
const PLAIN: &str = "twin1701a";
const BUSY: &str = "twin1701b";

/// A started 1701 game of the cast, with `master`.
fn twin(master: &Client, players: &[Client], name: &str) -> String {
    let game = json!({"name": name, "variant": "hegemony-1701", "press": "full", "movement_seconds": 86400});
    let id = master.ok("POST", "/api/games", Some(game))["id"]
        .as_str()
        .expect("an id")
        .to_string();
    for (c, (power, _, _)) in players.iter().zip(CAST) {
        c.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"preferences": [power]})),
        );
    }
    master.ok("POST", &format!("/api/games/{id}/start"), None);
    id
}

/// What each viewer but France and Austria (its co-controller, who by the rules learns that his
/// control of Bavaria is joint) reads of the twins: identical.
fn compare_twins(server: &Server, viewers: &[(&str, &Client)], ids: (&str, &str), when: &str) {
    use support::twins::{everything, first_difference, mails, normalized};
    const PHASES: &[&str] = &["W1700A", "S1701M"];
    for (who, viewer) in viewers {
        let plain = everything(server, viewer, ids.0, true, PHASES);
        let busy = everything(server, viewer, ids.1, true, PHASES);
        for ((path, a), (_, b)) in plain.iter().zip(&busy) {
            let (a, b) = (normalized(a, ids.0, PLAIN), normalized(b, ids.1, BUSY));
            assert!(
                a == b,
                "{when}: {who} reads {path} differently:\n{}",
                first_difference(&a, &b)
            );
        }
        let read = |name: &str, id: &str| -> Vec<String> {
            let mut all: Vec<String> = mails(server, &address(who), name)
                .iter()
                .map(|m| normalized(m, id, name))
                .collect();
            all.sort();
            all
        };
        let (a, b) = (read(PLAIN, ids.0), read(BUSY, ids.1));
        assert!(
            a == b,
            "{when}: {who}'s mail differs:\n{}",
            first_difference(&a.join("\n----\n"), &b.join("\n----\n"))
        );
    }
}

#[test]
fn whether_france_allocates_declares_or_joins_a_joint_control_reaches_nobody_else() {
    let server = support::start_server("hegemony-twins");
    let master = account(&server, "meister", "en");
    let players: Vec<Client> = CAST
        .iter()
        .map(|&(_, name, lang)| account(&server, name, lang))
        .collect();
    let observer = account(&server, "olga", "en");
    let stranger = account(&server, "stan", "en");
    let ids = (twin(&master, &players, PLAIN), twin(&master, &players, BUSY));
    for id in [&ids.0, &ids.1] {
        observer.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"observer": true})),
        );
    }
    let power = |p: &str| &players[CAST.iter().position(|c| c.0 == p).expect("a power")];
    let orders = |who: &Client, id: &str, lines: &[&str]| {
        who.ok(
            "PUT",
            &format!("/api/games/{id}/orders"),
            Some(json!({ "orders": lines })),
        );
    };
    let both = |who: &str, lines: &[&str]| {
        orders(power(who), &ids.0, lines);
        orders(power(who), &ids.1, lines);
    };
    let adjudicate = |phase: &str| {
        for (id, name) in [(&ids.0, PLAIN), (&ids.1, BUSY)] {
            master.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
            // Six players, the observer and the master (Sweden in German).
            let sent = support::wait_for_mails(&server.dir.join("mail"), 8, |m| is_result(m, name, phase));
            assert_eq!(sent.len(), 8, "{name} {phase}");
        }
    };
    let viewers: Vec<(&str, &Client)> = vec![
        ("edith", power("ENGLAND")),
        ("sofia", power("SPAIN")),
        ("sven", power("SWEDEN")),
        ("tarik", power("TURKEY")),
        ("olga", &observer),
        ("meister", &master),
        ("stan", &stranger),
    ];

    // Winter 1700: France sends a set in both games (whether a power has sent orders is no
    // secret); in the busy one it allocates, joins Bavaria's control and declares on a condition.
    both("AUSTRIA", &["PF 3 Bavaria", "Build A Vie"]);
    both("ENGLAND", &["Choose L Net"]);
    orders(power("FRANCE"), &ids.0, &[]);
    orders(
        power("FRANCE"),
        &ids.1,
        &["PF 3 Bavaria", "IF MID blocked THEN Friendly to England", "PF 2 Savoy"],
    );
    compare_twins(&server, &viewers, (&ids.0, &ids.1), "winter orders in");
    adjudicate("W1700A");
    compare_twins(&server, &viewers, (&ids.0, &ids.1), "winter adjudicated");
    let joint = power("AUSTRIA").ok("GET", &format!("/api/games/{}/orders", ids.1), None);
    assert!(
        joint.to_string().contains("jointly"),
        "Austria knows his control is joint: {joint}"
    );

    // Spring 1701: Bavaria's orders from Austria alone, or from both co-controllers alike.
    both("AUSTRIA", &["Bavaria: A Bav - Boh", "A Vie - Gal"]);
    orders(power("FRANCE"), &ids.0, &["A Par - Bur"]);
    orders(power("FRANCE"), &ids.1, &["A Par - Bur", "Bavaria: A Bav - Boh"]);
    compare_twins(&server, &viewers, (&ids.0, &ids.1), "spring orders in");
    adjudicate("S1701M");
    compare_twins(&server, &viewers, (&ids.0, &ids.1), "spring adjudicated");
    let spring = master.ok("GET", &format!("/api/games/{}/phases/S1701M", ids.1), None);
    assert!(
        spring["report_en"]
            .as_str()
            .unwrap_or_default()
            .contains("Bavaria: Army Bavaria -> Bohemia."),
        "{spring}"
    );
}
