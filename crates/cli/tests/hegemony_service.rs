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
    b.log_in(name, &password(name));
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

    /// The one mail "For you alone" (or "Nur für Sie") to `name` about `phase`.
    fn private(&self, name: &str, phase: &str) -> String {
        private_mail(&self.server, GAME, name, phase)
    }
}

/// The one mail "For you alone" (or "Nur für Sie") to `name` about `phase` of the game `game`,
/// waited for.
fn private_mail(server: &Server, game: &str, name: &str, phase: &str) -> String {
    let found = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
        m.contains(&format!("<{}>", address(name)))
            && (subject_has(m, &format!("For you alone: {game} {phase}"))
                || subject_has(m, &format!("Nur für Sie: {game} {phase}")))
    });
    assert_eq!(found.len(), 1, "{name} {phase}: {found:?}");
    found[0].clone()
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
        "provo",
    ] {
        assert!(!text.contains(secret), "`{secret}` in\n{text}");
    }
}

/// A phase as everyone may read it: both reports and the published result without politics.
fn assert_published_without_politics(phase: &Value) {
    assert_no_politics(&reports(phase));
    let result = &phase["result"];
    assert_no_politics(&result.to_string());
    for field in ["political_factors", "influence", "control"] {
        assert!(result.get(field).is_none(), "`{field}` published: {result}");
    }
}

/// The notices `power` reads with a phase's result (what the API tells that power alone).
fn notices_of(t: &Table, power: &str, phase: &str) -> String {
    let view = t
        .client(power)
        .ok("GET", &format!("/api/games/{}/phases/{phase}", t.id), None);
    view["notices"].to_string()
}

/// Winter 1700: Austria and France put 3 PF each into Bavaria (joint control), France 2 into
/// Savoy (sole control); England takes Marlborough instead of the Irish fleet.
fn winter_1700(t: &mut Table) {
    let id = t.id.clone();
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
    assert_published_without_politics(&winter);
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
        // No income in the scenario's first winter (research D-6).
        assert!(
            !mine.contains("Income") && !mine.contains("Einkommen"),
            "{name}: {mine}"
        );
        if name != "anton" && name != "felix" {
            assert!(!mine.contains("Bavaria") && !mine.contains("Bayern"), "{name}: {mine}");
        }
    }
}

/// Spring 1701: the joint controllers send the same order for Bavaria; France provokes Savoy;
/// Marlborough leads the army out of the Netherlands.
fn spring_1701(t: &mut Table) {
    let id = t.id.clone();
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
    assert_published_without_politics(&spring);
    let france = t.private("felix", "S1701M");
    assert!(
        france.contains("provoked Savoy") && france.contains("control of Savoy"),
        "{france}"
    );
    for (power, _, _) in CAST.iter().filter(|c| c.0 != "FRANCE") {
        let told = notices_of(t, power, "S1701M");
        assert!(!told.contains("provo") && !told.contains("Savoy"), "{power}: {told}");
    }
}

/// Fall 1701: Marlborough's army (strength 2) and a French army meet in Bavaria, empty since its
/// army left; France provokes Bavaria and leaves Austria its sole controller. England, without
/// influence there, provokes nothing.
fn fall_1701(t: &mut Table) {
    let id = t.id.clone();
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
    assert_published_without_politics(&fall);
    let austria = t.private("anton", "F1701M");
    assert!(
        austria.contains("Controls Bavaria alone") && !austria.contains("provo"),
        "{austria}"
    );
    let france = t.private("felix", "F1701M");
    assert!(france.contains("provoked Bavaria"), "{france}");
    let england = notices_of(t, "ENGLAND", "F1701M");
    assert_eq!(england, "[]", "England lost nothing in Bavaria");
}

/// Winter 1701: Bavaria has lost its only centre; its army is removed for want of supply, with
/// the reason, in every report. England and France build; everyone has an income.
fn winter_1701(t: &mut Table) {
    let id = t.id.clone();
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
    assert_published_without_politics(&winter);
    let removed = &winter["result"]["supply_removals"]["BAVARIA"]["A BOH"];
    assert_eq!(removed, "no line to a centre of its country");
    for (_, name, lang) in CAST {
        let mine = t.private(name, "W1701A");
        let income = if lang == "de" {
            "Einkommen dieses Winters:"
        } else {
            "Income this winter:"
        };
        assert!(mine.contains(income), "{name}: {mine}");
    }
}

#[test]
fn six_players_play_two_years_of_1701_by_mail_web_and_api_and_each_learns_only_his_own_politics() {
    let mut t = Table::new();
    winter_1700(&mut t);
    spring_1701(&mut t);
    fall_1701(&mut t);
    winter_1701(&mut t);
    // 1702: a year of holds and a Swedish move, adjudicated to its winter.
    t.by_mail("sven", "ANMELDEN Schweden", &["A Fin - Stp"]);
    t.adjudicate("S1702M");
    t.adjudicate("F1702M");
    let last = t.adjudicate("W1702A");
    assert_eq!(last["result"]["phase"], "S1703M", "{last}");
    // The map shows Marlborough beside his army in Bavaria.
    let map = t.austria.get(&format!("/games/{}/map.svg", t.id));
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

/// The two games, their master, players, an observer of both and a stranger to both.
struct Twins {
    server: Server,
    master: Client,
    players: Vec<Client>,
    observer: Client,
    stranger: Client,
    plain: String,
    busy: String,
}

impl Twins {
    fn new() -> Twins {
        let server = support::start_server("hegemony-twins");
        let master = account(&server, "meister", "en");
        let players: Vec<Client> = CAST
            .iter()
            .map(|&(_, name, lang)| account(&server, name, lang))
            .collect();
        let (observer, stranger) = (account(&server, "olga", "en"), account(&server, "stan", "en"));
        let (plain, busy) = (twin(&master, &players, PLAIN), twin(&master, &players, BUSY));
        for id in [&plain, &busy] {
            let path = format!("/api/games/{id}/join");
            observer.ok("POST", &path, Some(json!({"observer": true})));
        }
        Twins {
            server,
            master,
            players,
            observer,
            stranger,
            plain,
            busy,
        }
    }

    fn power(&self, p: &str) -> &Client {
        &self.players[CAST.iter().position(|c| c.0 == p).expect("a power")]
    }

    fn orders(&self, power: &str, id: &str, lines: &[&str]) {
        let path = format!("/api/games/{id}/orders");
        self.power(power).ok("PUT", &path, Some(json!({ "orders": lines })));
    }

    fn both(&self, power: &str, lines: &[&str]) {
        self.orders(power, &self.plain, lines);
        self.orders(power, &self.busy, lines);
    }

    /// Adjudicates `phase` of both games and waits for its result mails (six players, the
    /// observer and the master) and, in winter, every player's mail "For you alone".
    fn adjudicate(&self, phase: &str) {
        for (id, name) in [(&self.plain, PLAIN), (&self.busy, BUSY)] {
            self.master.ok("POST", &format!("/api/games/{id}/adjudicate"), None);
            let sent = support::wait_for_mails(&self.server.dir.join("mail"), 8, |m| is_result(m, name, phase));
            assert_eq!(sent.len(), 8, "{name} {phase}");
            if phase.ends_with('A') {
                for (_, player, _) in CAST {
                    private_mail(&self.server, name, player, phase);
                }
            }
        }
    }

    /// What each viewer but France and Austria (its co-controller, who by the rules learns that
    /// his control of Bavaria is joint) reads of the twins: identical.
    fn compare(&self, when: &str) {
        use support::twins::{everything, first_difference, mails, normalized};
        const PHASES: &[&str] = &["W1700A", "S1701M"];
        let viewers = [
            ("edith", self.power("ENGLAND")),
            ("sofia", self.power("SPAIN")),
            ("sven", self.power("SWEDEN")),
            ("tarik", self.power("TURKEY")),
            ("olga", &self.observer),
            ("meister", &self.master),
            ("stan", &self.stranger),
        ];
        let server = &self.server;
        for (who, viewer) in viewers {
            let plain = everything(server, viewer, &self.plain, true, PHASES);
            let busy = everything(server, viewer, &self.busy, true, PHASES);
            for ((path, a), (_, b)) in plain.iter().zip(&busy) {
                let (a, b) = (normalized(a, &self.plain, PLAIN), normalized(b, &self.busy, BUSY));
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
            let (a, b) = (read(PLAIN, &self.plain), read(BUSY, &self.busy));
            let (a, b) = (a.join("\n----\n"), b.join("\n----\n"));
            assert!(a == b, "{when}: {who}'s mail differs:\n{}", first_difference(&a, &b));
        }
    }
}

#[test]
fn whether_france_allocates_declares_or_joins_a_joint_control_reaches_nobody_else() {
    let t = Twins::new();
    // Winter 1700: France sends a set in both games (whether a power has sent orders is no
    // secret); in the busy one it allocates, joins Bavaria's control and declares on a condition.
    t.both("AUSTRIA", &["PF 3 Bavaria", "Build A Vie"]);
    t.both("ENGLAND", &["Choose L Net"]);
    t.orders("FRANCE", &t.plain, &[]);
    let busy = ["PF 3 Bavaria", "IF MID blocked THEN Friendly to England", "PF 2 Savoy"];
    t.orders("FRANCE", &t.busy, &busy);
    t.compare("winter orders in");
    t.adjudicate("W1700A");
    t.compare("winter adjudicated");
    let joint = t
        .power("AUSTRIA")
        .ok("GET", &format!("/api/games/{}/orders", t.busy), None);
    assert!(
        joint.to_string().contains("jointly"),
        "Austria knows his control is joint: {joint}"
    );

    // Spring 1701: Bavaria's orders from Austria alone, or from both co-controllers alike.
    t.both("AUSTRIA", &["Bavaria: A Bav - Boh", "A Vie - Gal"]);
    t.orders("FRANCE", &t.plain, &["A Par - Bur"]);
    t.orders("FRANCE", &t.busy, &["A Par - Bur", "Bavaria: A Bav - Boh"]);
    t.compare("spring orders in");
    t.adjudicate("S1701M");
    t.compare("spring adjudicated");
    let spring = t
        .master
        .ok("GET", &format!("/api/games/{}/phases/S1701M", t.busy), None);
    let report = spring["report_en"].as_str().unwrap_or_default();
    assert!(report.contains("Bavaria: Army Bavaria -> Bohemia."), "{spring}");
}
