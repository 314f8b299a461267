//! The web pages in a real browser: Debian's headless Chromium driven through chromedriver
//! (WebDriver). Two players sign up, one creates a game, both join with wishes, the game starts,
//! both enter orders (with the echo shown as they type), press goes across, the deadline
//! passes, and both pages show the new phase on the map without being reloaded by hand; then
//! the history slider's first step and the German pages. Screenshots are kept in
//! `target/tmp/browser/` as test artifacts.
//!
//! Needs `chromium` and `chromium-driver` (Debian packages; `.ci/run` installs them).

mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> Driver {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            std::path::Path::new(tool).exists(),
            "{tool} is missing: install Debian's chromium and chromium-driver packages (CI does)"
        );
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    browser_sized(driver, profile, Screen::Desktop).await
}

/// The screens the pages are tried at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Screen {
    /// 1400 × 1100 (1000 for the play test's desktop player).
    Desktop,
    /// 1400 × 1000.
    Wide,
    /// A phone: 390 × 844 CSS pixels, touch, three device pixels per CSS pixel.
    Phone,
}

async fn browser_sized(driver: &Driver, profile: &std::path::Path, screen: Screen) -> Client {
    let size = match screen {
        Screen::Desktop => "--window-size=1400,1100",
        Screen::Wide => "--window-size=1400,1000",
        Screen::Phone => "--window-size=390,844",
    };
    let mut options = json!({
        "binary": CHROMIUM,
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", size, "--lang=en-GB",
            format!("--user-data-dir={}", profile.display()),
        ]
    });
    if screen == Screen::Phone {
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": true}
        });
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_string(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

struct Shots {
    dir: std::path::PathBuf,
    n: usize,
}

impl Shots {
    async fn take(&mut self, c: &Client, name: &str) {
        self.n += 1;
        let png = c.screenshot().await.expect("a screenshot");
        assert_eq!(&png[1..4], b"PNG");
        std::fs::write(self.dir.join(format!("{:02}-{name}.png", self.n)), png).unwrap();
    }
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap()
}

/// Waits until the element's text contains `want`.
async fn wait_text(c: &Client, css: &str, want: &str, seconds: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await
            && let Ok(t) = e.text().await
            && t.contains(want)
        {
            return t;
        }
        if Instant::now() > deadline {
            let source = c.source().await.unwrap_or_default();
            panic!("`{css}` never showed `{want}`; the page:\n{source}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn sign_up(c: &Client, base: &str, name: &str) {
    c.goto(base).await.unwrap();
    let form = c.form(Locator::Css("#signup-form")).await.unwrap();
    form.set_by_name("name", name).await.unwrap();
    form.set_by_name("email", &format!("{name}@example.org")).await.unwrap();
    form.set_by_name("password", "correct horse battery").await.unwrap();
    form.submit().await.unwrap();
    assert_eq!(wait_text(c, "#viewer", name, 10).await, name);
}

async fn join(c: &Client, base: &str, game: &str, wish: &str) {
    c.goto(&format!("{base}/games/{game}")).await.unwrap();
    c.find(Locator::Css("select[name=wish1]"))
        .await
        .unwrap()
        .select_by_value(wish)
        .await
        .unwrap();
    submit_form(c, "#join-form").await;
    wait_text(c, "#members", "", 10).await;
}

/// Submits the form `css` of the page.
async fn submit_form(c: &Client, css: &str) {
    c.form(Locator::Css(css)).await.unwrap().submit().await.unwrap();
}

async fn type_orders(c: &Client, lines: &str) {
    let area = c.find(Locator::Css("#orders-text")).await.unwrap();
    area.clear().await.unwrap();
    area.send_keys(lines).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_turn_in_the_browser() {
    let shots_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&shots_dir);
    std::fs::create_dir_all(&shots_dir).unwrap();
    let mut shots = Shots { dir: shots_dir, n: 0 };
    let server = support::start_server("web-play");
    let base = server.base.clone();
    let driver = start_driver();
    let profiles = support::fresh_dir("web-play-profiles");
    let alice = browser(&driver, &profiles.join("alice")).await;
    let bob = browser(&driver, &profiles.join("bob")).await;

    sign_up(&alice, &base, "alice").await;
    shots.take(&alice, "games-list").await;
    sign_up(&bob, &base, "bob").await;

    // Alice creates a game with one minute per phase.
    let form = alice.form(Locator::Css("#new-game")).await.unwrap();
    form.set_by_name("name", "Browser One").await.unwrap();
    form.set_by_name("minutes", "1").await.unwrap();
    form.submit().await.unwrap();
    assert_eq!(wait_text(&alice, "#game-name", "Browser One", 10).await, "Browser One");
    let url = alice.current_url().await.unwrap();
    let game = url.path().rsplit('/').next().unwrap().to_string();

    join(&alice, &base, &game, "france").await;
    // Bob finds the game in the list.
    bob.goto(&format!("{base}/games")).await.unwrap();
    bob.find(Locator::LinkText("Browser One"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&bob, "#game-name", "Browser One", 10).await;
    join(&bob, &base, &game, "germany").await;
    shots.take(&bob, "joined").await;

    alice.goto(&format!("{base}/games/{game}")).await.unwrap();
    submit_form(&alice, "#start-form").await;
    assert!(
        wait_text(&alice, "#phase", "Spring 1901", 10)
            .await
            .contains("movement")
    );
    assert_eq!(text_of(&alice, "#my-power").await, "France");
    // The map shows the opening position: 22 units, among them a French army in Paris.
    let svg = text_of(&alice, "#map").await;
    drop(svg);
    let units = alice.find_all(Locator::Css("#map g.unit")).await.unwrap();
    assert_eq!(units.len(), 22);
    alice
        .find(Locator::Css("#map g.unit[data-unit='A par']"))
        .await
        .unwrap();
    // Clicking a fleet, then Spain: Brest reaches no coast of Spain, so the bare province.
    assert_eq!(click_to_coast(&alice, "F bre", "spa", 0).await, "F bre - spa");
    // Without a mouse: France's units take the focus (Germany's do not); Enter on one writes it
    // and leaves the cursor in the orders box to finish the line.
    assert!(
        alice
            .find(Locator::Css("#map g.unit[data-unit='A mun'][tabindex]"))
            .await
            .is_err()
    );
    let paris = alice
        .find(Locator::Css("#map g.unit[data-unit='A par'][tabindex='0']"))
        .await
        .unwrap();
    paris.send_keys("\u{E007}").await.unwrap();
    let typed = alice
        .execute(
            r#"var text = document.getElementById("orders-text"), value = text.value;
            return [value, document.activeElement === text];"#,
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(typed, json!(["A par ", true]));
    alice.active_element().await.unwrap().send_keys("- bur").await.unwrap();
    wait_text(&alice, "#echo", "A PAR - BUR", 10).await;

    // Orders, with the echo as they are typed (before sending).
    type_orders(&alice, "A Par - Bur\nF Bre - Mao\nA Mar S A Par - Bur").await;
    wait_text(&alice, "#echo", "F BRE - MAO", 10).await;
    shots.take(&alice, "typing-orders").await;
    submit_form(&alice, "#orders-form").await;
    let echo = wait_text(&alice, "#echo", "A MAR S A PAR - BUR", 10).await;
    assert!(echo.contains("F BRE - MAO"), "{echo}");
    // Her orders are drawn on her map as arrows.
    alice.find(Locator::Css("#orders")).await.unwrap();

    bob.goto(&format!("{base}/games/{game}")).await.unwrap();
    assert_eq!(text_of(&bob, "#my-power").await, "Germany");
    type_orders(&bob, "A Mun - Bur\nA Ber - Kie\nF Kie - Den\nA Xyz - Abc").await;
    submit_form(&bob, "#orders-form").await;
    let echo = wait_text(&bob, "#echo", "F KIE - DEN", 10).await;
    assert!(echo.contains("A Xyz - Abc"), "the bad line is echoed: {echo}");
    assert_eq!(bob.find_all(Locator::Css("#echo tr.bad")).await.unwrap().len(), 1);

    // Press from Bob to France.
    let press = bob.form(Locator::Css("#press-form")).await.unwrap();
    bob.find(Locator::Css("#press-form input[value=france]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    bob.find(Locator::Css("#press-form textarea"))
        .await
        .unwrap()
        .send_keys("Burgundy is mine.")
        .await
        .unwrap();
    press.submit().await.unwrap();
    wait_text(&bob, "#press", "Burgundy is mine.", 10).await;
    shots.take(&bob, "orders-and-press").await;

    // Both pages stay open; the deadline passes and they show the new phase by themselves.
    alice.goto(&format!("{base}/games/{game}")).await.unwrap();
    wait_text(&alice, "#press", "Burgundy is mine.", 10).await;
    wait_text(&alice, "#phase", "Fall 1901", 120).await;
    wait_text(&bob, "#phase", "Fall 1901", 30).await;
    // Paris and Munich bounced in Burgundy? No: France had support, so Paris is in Burgundy.
    alice
        .find(Locator::Css("#map g.unit[data-unit='A bur']"))
        .await
        .unwrap();
    bob.find(Locator::Css("#map g.unit[data-unit='F den']")).await.unwrap();
    shots.take(&alice, "after-the-deadline").await;
    // The fleet in the Mid-Atlantic reaches both coasts of Spain: the one clicked is written.
    assert_eq!(click_to_coast(&alice, "F mao", "spa", 0).await, "F mao - spa/nc");
    assert_eq!(click_to_coast(&alice, "F mao", "spa", 1).await, "F mao - spa/sc");

    // The history slider's first step: the spring orders with their outcomes, and the report.
    alice.goto(&format!("{base}/games/{game}?step=0")).await.unwrap();
    let report = wait_text(&alice, "#report", "Movement results for Spring of 1901", 10).await;
    assert!(report.contains("Burgundy"), "{report}");
    assert!(
        !alice
            .find_all(Locator::Css("#map path.failed"))
            .await
            .unwrap()
            .is_empty(),
        "the bounced Munich army is crossed out"
    );
    shots.take(&alice, "history-first-step").await;

    // German pages.
    bob.find(Locator::LinkText("Deutsch"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&bob, "#phase", "Herbst 1901", 10).await;
    shots.take(&bob, "german").await;

    // The map as a PNG file.
    let png = ureq_png(&base, &alice, "").await;
    assert_eq!(&png[1..4], b"PNG");

    alice.close().await.unwrap();
    bob.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&profiles);
}

/// Submits the orders form and waits for the echo to show `want`.
async fn send_orders(c: &Client, lines: &str, want: &str) -> String {
    type_orders(c, lines).await;
    submit_form(c, "#orders-form").await;
    wait_text(c, "#echo", want, 10).await
}

/// The master adjudicates now from the page (confirming that orders are missing, if asked).
async fn adjudicate_now(c: &Client, base: &str, game: &str) {
    c.goto(&format!("{base}/games/{game}")).await.unwrap();
    if let Ok(confirm) = c.find(Locator::Css("#adjudicate-form input[name=confirm]")).await {
        confirm.click().await.unwrap();
    }
    submit_form(c, "#adjudicate-form").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hegemony_winter_and_a_neutrals_orders_are_entered_in_the_browser() {
    let shots_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-hegemony");
    let _ = std::fs::remove_dir_all(&shots_dir);
    std::fs::create_dir_all(&shots_dir).unwrap();
    let mut shots = Shots {
        dir: shots_dir.clone(),
        n: 0,
    };
    let server = support::start_server("web-play-hegemony");
    let base = server.base.clone();
    let driver = start_driver();
    let profiles = support::fresh_dir("web-play-hegemony-profiles");
    let hanna = browser(&driver, &profiles.join("hanna")).await;
    let ingo = browser(&driver, &profiles.join("ingo")).await;
    sign_up(&hanna, &base, "hanna").await;
    sign_up(&ingo, &base, "ingo").await;

    // Hanna creates a 1701 game, and both join: she plays Austria, he England.
    let form = hanna.form(Locator::Css("#new-game")).await.unwrap();
    form.set_by_name("name", "Europa im Browser").await.unwrap();
    hanna
        .find(Locator::Css("#new-game select[name=variant]"))
        .await
        .unwrap()
        .select_by_value("hegemony-1701")
        .await
        .unwrap();
    form.set_by_name("minutes", "600").await.unwrap();
    form.submit().await.unwrap();
    wait_text(&hanna, "#game-name", "Europa im Browser", 10).await;
    let url = hanna.current_url().await.unwrap();
    let game = url.path().rsplit('/').next().unwrap().to_string();
    join(&hanna, &base, &game, "austria").await;
    join(&ingo, &base, &game, "england").await;
    hanna.goto(&format!("{base}/games/{game}")).await.unwrap();
    submit_form(&hanna, "#start-form").await;
    wait_text(&hanna, "#phase", "Winter 1700", 10).await;

    // Winter 1700: her own political factors, an allocation and a build, echoed as read.
    assert!(
        text_of(&hanna, "#politics")
            .await
            .contains("Political factors in stock: 9.")
    );
    let echo = send_orders(&hanna, "PF 3 Bavaria\nBuild A Vie", "PF 3 BAVARIA").await;
    assert!(echo.contains("A VIE B"), "{echo}");
    ingo.goto(&format!("{base}/games/{game}")).await.unwrap();
    assert!(
        !text_of(&ingo, "#politics").await.contains("Bavaria"),
        "his page shows his own politics only"
    );
    send_orders(&ingo, "Choose L Net", "CHOOSE L NET").await;
    shots.take(&hanna, "winter-orders").await;
    adjudicate_now(&hanna, &base, &game).await;
    wait_text(&hanna, "#phase", "Spring 1701", 10).await;
    assert!(text_of(&hanna, "#politics").await.contains("Controls Bavaria alone"));

    // Spring 1701: Bavaria's army ordered like her own, with the country's prefix; Marlborough
    // leads the English army.
    let echo = send_orders(&hanna, "Bavaria: A Bav - Boh\nA Vie - Tyr", "A BAV - BOH").await;
    assert!(echo.contains("A VIE - TYR"), "{echo}");
    hanna
        .find(Locator::Css("#map g.leader"))
        .await
        .expect("Marlborough on the map");
    send_orders(&ingo, "LA Net - Wfa\nF Lon - Nth", "LA NET - WFA").await;
    adjudicate_now(&hanna, &base, &game).await;
    wait_text(&hanna, "#phase", "Fall 1701", 10).await;
    let moved = "#map g.unit[data-unit='A boh'][data-power='bavaria']";
    hanna.find(Locator::Css(moved)).await.expect("Bavaria's army moved");
    // The spring's map, Marlborough leading the English army, kept for docs/maps/.
    let png = ureq_png(&base, &hanna, "?step=1").await;
    assert_eq!(&png[1..4], b"PNG");
    std::fs::write(shots_dir.join("hegemony-1701-map.png"), png).unwrap();
    shots.take(&hanna, "spring-adjudicated").await;

    hanna.close().await.unwrap();
    ingo.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&profiles);
}

/// Clicks a unit on the map, then a split-coast province at the place of its `coast`-th coast;
/// returns the order line the clicks wrote (and clears the orders box).
async fn click_to_coast(c: &Client, unit: &str, province: &str, coast: usize) -> String {
    c.find(Locator::Css(&format!("#map g.unit[data-unit='{unit}'] > title + *")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let written = c
        .execute(
            r##"var province = document.querySelector("#map [data-province='" + arguments[0] + "']");
            var coast = province.getAttribute("data-coasts").split(";")[arguments[1]].split(" ");
            var svg = province.ownerSVGElement, point = svg.createSVGPoint();
            point.x = Number(coast[1]); point.y = Number(coast[2]);
            var at = point.matrixTransform(svg.getScreenCTM());
            province.dispatchEvent(new MouseEvent("click", {clientX: at.x, clientY: at.y, bubbles: true}));
            var text = document.getElementById("orders-text"), value = text.value;
            text.value = "";
            return value;"##,
            vec![province.into(), coast.into()],
        )
        .await
        .unwrap();
    written.as_str().unwrap_or_default().to_string()
}

/// Fetches the PNG map with the browser's session cookie.
/// The map of the browser's game as a PNG file (`query`: which step, or nothing for now).
async fn ureq_png(base: &str, c: &Client, query: &str) -> Vec<u8> {
    let cookie = c.get_named_cookie("sl_session").await.unwrap();
    let url = c.current_url().await.unwrap();
    let game = url.path().rsplit('/').next().unwrap().to_string();
    let agent = ureq::Agent::new_with_defaults();
    let mut response = agent
        .get(format!("{base}/games/{game}/map.png{query}"))
        .header("Cookie", format!("sl_session={}", cookie.value()))
        .call()
        .unwrap();
    assert_eq!(response.headers().get("content-type").unwrap(), "image/png");
    response.body_mut().read_to_vec().unwrap()
}

/// Clicks a unit of the map (its body: a fleet's sail stands out above it).
async fn click_unit(c: &Client, unit: &str) {
    c.find(Locator::Css(&format!("#map g.unit[data-unit='{unit}'] > title + *")))
        .await
        .unwrap_or_else(|e| panic!("{unit}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{unit}: {e}"));
}

/// Clicks a province of the map where its name is written, as a person does: the click goes to
/// whatever lies under that point (the province, or a unit standing there).
async fn click_place(c: &Client, province: &str) {
    let done = c
        .execute(
            r##"var label = document.querySelector("#map text[data-for='" + arguments[0] + "']");
            var svg = label.ownerSVGElement, point = svg.createSVGPoint();
            point.x = Number(label.getAttribute("x")); point.y = Number(label.getAttribute("y")) - 3;
            var at = point.matrixTransform(svg.getScreenCTM());
            label.scrollIntoView({block: "center"});
            at = point.matrixTransform(svg.getScreenCTM());
            var under = document.elementFromPoint(at.x, at.y);
            if (!under) return "nothing under " + arguments[0];
            under.dispatchEvent(new MouseEvent("click", {clientX: at.x, clientY: at.y, bubbles: true}));
            return "";"##,
            vec![province.into()],
        )
        .await
        .unwrap();
    assert_eq!(done, json!(""), "{province}");
}

/// Presses a button of the order bar.
async fn order_action(c: &Client, action: &str) {
    let Ok(button) = c
        .find(Locator::Css(&format!(
            "#builder-actions button[data-action='{action}']"
        )))
        .await
    else {
        let bar = text_of(c, "#order-builder").await;
        panic!(
            "no `{action}` in the order bar `{bar}`; orders: {:?}",
            order_lines(c).await
        );
    };
    button.click().await.unwrap();
}

/// The orders box's lines.
async fn order_lines(c: &Client) -> Vec<String> {
    let value = c
        .execute(r#"return document.getElementById("orders-text").value;"#, vec![])
        .await
        .unwrap();
    value
        .as_str()
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

/// Asserts the page is no wider than the screen (a phone's layout grows to what its content
/// needs, so the screen's own width is the measure), naming what sticks out.
async fn fits_the_screen(c: &Client, what: &str, screen: Screen) {
    let width = if screen == Screen::Phone { 390.0 } else { 0.0 };
    let found = c
        .execute(
            r##"var screen = arguments[0] || window.innerWidth;
            var wide = [];
            document.querySelectorAll("body *").forEach(function (e) {
              var r = e.getBoundingClientRect();
              if (r.right > screen + 1 && (e.parentElement.closest("svg") === null)) {
                var inner = e.tagName.toLowerCase() !== "svg" && Array.prototype.some.call(e.children, function (k) { return k.getBoundingClientRect().right > screen + 1; });
                if (!inner) wide.push(e.tagName + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + e.className : "") + " " + Math.round(r.right));
              }
            });
            document.querySelectorAll("body *").forEach(function (e) {
              var spills = e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible";
              if (spills && e.closest("svg") === null) wide.push(e.tagName + " spills " + e.scrollWidth + " > " + e.clientWidth);
            });
            return [document.documentElement.scrollWidth, screen, wide.slice(0, 8)];"##,
            vec![width.into()],
        )
        .await
        .unwrap();
    let (page, screen) = (found[0].as_f64().unwrap(), found[1].as_f64().unwrap());
    assert!(
        page <= screen + 0.5 && found[2].as_array().is_some_and(Vec::is_empty),
        "{what}: the page is {page} px wide on a {screen} px screen; too wide: {}",
        found[2]
    );
}

/// Sends the orders written and waits for the echo to show `want`.
async fn send_written(c: &Client, want: &str) {
    submit_form(c, "#orders-form").await;
    wait_text(c, "#echo", want, 10).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_year_is_played_with_the_mouse_on_a_desktop_and_a_phone() {
    let shots_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-mouse");
    let _ = std::fs::remove_dir_all(&shots_dir);
    std::fs::create_dir_all(&shots_dir).unwrap();
    let mut shots = Shots { dir: shots_dir, n: 0 };
    let server = support::start_server("web-mouse");
    let base = server.base.clone();
    let driver = start_driver();
    let profiles = support::fresh_dir("web-mouse-profiles");
    let anna = browser_sized(&driver, &profiles.join("anna"), Screen::Wide).await;
    let ben = browser_sized(&driver, &profiles.join("ben"), Screen::Phone).await;

    sign_up(&anna, &base, "anna").await;
    sign_up(&ben, &base, "ben").await;
    fits_the_screen(&ben, "the games list on a phone", Screen::Phone).await;
    let form = anna.form(Locator::Css("#new-game")).await.unwrap();
    form.set_by_name("name", "Mouse Year").await.unwrap();
    form.set_by_name("minutes", "600").await.unwrap();
    form.submit().await.unwrap();
    wait_text(&anna, "#game-name", "Mouse Year", 10).await;
    let game = anna
        .current_url()
        .await
        .unwrap()
        .path()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    join(&anna, &base, &game, "france").await;
    join(&ben, &base, &game, "germany").await;
    anna.goto(&format!("{base}/games/{game}")).await.unwrap();
    submit_form(&anna, "#start-form").await;
    wait_text(&anna, "#phase", "Spring 1901", 10).await;
    ben.goto(&format!("{base}/games/{game}")).await.unwrap();
    wait_text(&ben, "#phase", "Spring 1901", 10).await;

    // The countdown in the reader's time, and the phone page fits its screen.
    assert!(wait_text(&anna, "#countdown", "left", 10).await.contains("your time"));
    fits_the_screen(&ben, "the game page on a phone", Screen::Phone).await;
    fits_the_screen(&anna, "the game page on a desktop", Screen::Wide).await;
    shots.take(&ben, "phone-spring").await;

    // Spring, France: a hold (the unit clicked twice), a support to hold, a move.
    wait_text(&anna, "#builder-text", "Click one of your units", 10).await;
    click_unit(&anna, "A par").await;
    assert_eq!(text_of(&anna, "#builder-text").await, "A par – …");
    click_unit(&anna, "A par").await;
    click_unit(&anna, "F bre").await;
    order_action(&anna, "support").await;
    click_unit(&anna, "A par").await;
    assert_eq!(text_of(&anna, "#builder-text").await, "F bre S A par – …");
    click_place(&anna, "par").await;
    click_unit(&anna, "A mar").await;
    click_place(&anna, "gas").await;
    assert_eq!(order_lines(&anna).await, ["A par H", "F bre S A par", "A mar - gas"]);
    send_written(&anna, "A MAR - GAS").await;
    shots.take(&anna, "desktop-spring-orders").await;

    // Spring, Germany on the phone: moves, one onto a unit's place; the missing order is told.
    click_unit(&ben, "A mun").await;
    click_place(&ben, "bur").await;
    click_unit(&ben, "F kie").await;
    click_place(&ben, "hel").await;
    wait_text(&ben, "#gaps", "Army Berlin has no order: it holds.", 10).await;
    click_unit(&ben, "A ber").await;
    click_unit(&ben, "F kie").await;
    assert_eq!(order_lines(&ben).await, ["A mun - bur", "F kie - hel", "A ber - kie"]);
    send_written(&ben, "A BER - KIE").await;
    assert!(
        ben.find(Locator::Css("#gaps")).await.is_err(),
        "complete orders: no warning"
    );
    shots.take(&ben, "phone-spring-orders").await;
    // The master (France) sees that Germany sent; Germany sees its own state only.
    anna.goto(&format!("{base}/games/{game}")).await.unwrap();
    let powers = text_of(&anna, "#powers").await;
    let germany = powers.lines().find(|l| l.starts_with("Germany")).unwrap_or_default();
    assert!(germany.ends_with("sent"), "{powers}");
    submit_form(&anna, "#adjudicate-form").await;
    wait_text(&anna, "#phase", "Fall 1901", 10).await;
    assert!(
        wait_text(&anna, "#last-results", "Spring 1901", 10)
            .await
            .contains("Results")
    );

    // Fall, France: a move and a support to it that dislodge Germany's army in Burgundy.
    click_unit(&anna, "A par").await;
    click_place(&anna, "bur").await;
    click_unit(&anna, "A gas").await;
    order_action(&anna, "support").await;
    click_unit(&anna, "A par").await;
    click_place(&anna, "bur").await;
    click_unit(&anna, "F bre").await;
    order_action(&anna, "hold").await;
    assert_eq!(
        order_lines(&anna).await,
        ["A par - bur", "A gas S A par - bur", "F bre H"]
    );
    send_written(&anna, "A GAS S A PAR - BUR").await;
    // Fall, Germany: a convoy, the convoyed move, a hold.
    ben.goto(&format!("{base}/games/{game}")).await.unwrap();
    wait_text(&ben, "#phase", "Fall 1901", 10).await;
    fits_the_screen(&ben, "the page after an adjudication on a phone", Screen::Phone).await;
    click_unit(&ben, "F hel").await;
    order_action(&ben, "convoy").await;
    click_unit(&ben, "A kie").await;
    click_place(&ben, "hol").await;
    click_unit(&ben, "A kie").await;
    click_place(&ben, "hol").await;
    click_unit(&ben, "A bur").await;
    order_action(&ben, "hold").await;
    assert_eq!(
        order_lines(&ben).await,
        ["F hel C A kie - hol", "A kie - hol", "A bur H"]
    );
    send_written(&ben, "F HEL C A KIE - HOL").await;
    anna.goto(&format!("{base}/games/{game}")).await.unwrap();
    submit_form(&anna, "#adjudicate-form").await;
    wait_text(&anna, "#phase", "retreat", 10).await;

    // The retreat: disbanding first, then the retreat replaces it.
    ben.goto(&format!("{base}/games/{game}")).await.unwrap();
    wait_text(&ben, "#phase", "retreat", 10).await;
    click_unit(&ben, "A bur").await;
    order_action(&ben, "disband").await;
    assert_eq!(order_lines(&ben).await, ["A bur D"]);
    click_unit(&ben, "A bur").await;
    click_place(&ben, "ruh").await;
    assert_eq!(order_lines(&ben).await, ["A bur R ruh"]);
    send_written(&ben, "A BUR R RUH").await;
    anna.goto(&format!("{base}/games/{game}")).await.unwrap();
    submit_form(&anna, "#adjudicate-form").await;
    wait_text(&anna, "#phase", "Winter 1901", 10).await;

    // Winter, Germany (Holland won): one build, in a free home centre; a second is too many.
    ben.goto(&format!("{base}/games/{game}")).await.unwrap();
    assert!(
        wait_text(&ben, "#adjustment", "build 1 unit(s)", 10)
            .await
            .contains("Berlin, Kiel, Munich"),
        "the free home centres are named"
    );
    click_place(&ben, "kie").await;
    order_action(&ben, "build_fleet").await;
    click_place(&ben, "mun").await;
    order_action(&ben, "build_army").await;
    assert_eq!(order_lines(&ben).await, ["Build F kie", "Build A mun"]);
    wait_text(&ben, "#gaps", "2 builds ordered but only 1 allowed", 10).await;
    fits_the_screen(&ben, "a winter on a phone", Screen::Phone).await;
    shots.take(&ben, "phone-winter").await;

    anna.close().await.unwrap();
    ben.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&profiles);
}
