//! Helpers of the binary's tests: `spielleiter` run to its end, and the real `spielleiter serve` on a free loopback port, with
//! SQLite in a temporary folder (or PostgreSQL when SPIELLEITER_TEST_DATABASE_URL names one, as in
//! CI), and a small JSON client.
#![allow(dead_code)]

pub mod browser;
pub mod mailboxes;
pub mod twins;

use std::io::Write as _;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};

use serde_json::{Value, json};

/// A running server; killed and its folder removed when dropped.
pub struct Server {
    pub child: Child,
    pub base: String,
    /// `host:port` of the SMTP listener, when the server was started with `--smtp`.
    pub smtp: Option<String>,
    pub dir: std::path::PathBuf,
    /// The server's standard error, line by line (also copied to the test's).
    pub stderr: Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Server {
    /// Kills the process with SIGKILL (no chance to clean up) and returns its data folder.
    pub fn kill_hard(mut self) -> std::path::PathBuf {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::mem::take(&mut self.dir)
    }
}

/// An empty data folder for a test server (and, on PostgreSQL, an empty database of its own).
pub fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spielleiter-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(url) = postgres_url() {
        psql(&url, &format!("DROP DATABASE IF EXISTS {}", database_name(&dir)));
        psql(&url, &format!("CREATE DATABASE {}", database_name(&dir)));
    }
    dir
}

/// The PostgreSQL server to test on, if any (CI sets SPIELLEITER_TEST_DATABASE_URL).
fn postgres_url() -> Option<String> {
    std::env::var("SPIELLEITER_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

/// Each test server has its own database, as it has its own folder: servers sharing one
/// database would share the work (and the mail) of all of them.
fn database_name(dir: &std::path::Path) -> String {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

fn psql(url: &str, sql: &str) {
    let status = Command::new("psql")
        .args([url, "-q", "-c", sql])
        .status()
        .expect("psql runs");
    assert!(status.success(), "psql: {sql}");
}

/// `--database URL` for a command on the data folder `dir` when the tests run on PostgreSQL;
/// nothing on SQLite (the folder's own database).
pub fn database_args(dir: &std::path::Path) -> Vec<String> {
    match postgres_url() {
        Some(url) => {
            let (server, _) = url.rsplit_once('/').expect("a database URL ends in /DATABASE");
            vec!["--database".into(), format!("{server}/{}", database_name(dir))]
        }
        None => Vec::new(),
    }
}

/// Every mail in a mail folder (`*.eml`), as [`mail_text`] reads it; none if there is no folder.
pub fn mails_in(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .filter_map(|e| mail_text(&e.path()))
        .collect()
}

/// The mails in a mail folder that `wanted` picks, waiting up to 30 s until there are at least
/// `count` of them (mail leaves through the outbox, a moment after the request that wrote it).
pub fn wait_for_mails(dir: &std::path::Path, count: usize, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    wait_for_mails_in(&[dir.to_path_buf()], count, wanted)
}

/// As [`wait_for_mails`], over several mail folders.
pub fn wait_for_mails_in(dirs: &[std::path::PathBuf], count: usize, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let found: Vec<String> = dirs
            .iter()
            .flat_map(|dir| mails_in(dir))
            .filter(|m| wanted(m))
            .collect();
        if found.len() >= count || std::time::Instant::now() >= until {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The confirmation code in a mail's text: a line such as `ABCD-EFGH`, or the word after
/// `CONFIRM` in a reply.
pub fn code_in(text: &str) -> Option<String> {
    let is_code =
        |w: &str| w.len() == 9 && w.as_bytes()[4] == b'-' && w.chars().all(|c| c == '-' || c.is_ascii_alphanumeric());
    text.split_whitespace().find(|w| is_code(w)).map(str::to_string)
}

/// The confirmation code in the one mail to `address` with `subject`, in any mail folder of the
/// server's data folder (`mail/`, or those given to it with `--mail-dir` there).
pub fn code_mailed_to(server: &Server, address: &str, subject: &str) -> String {
    let dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&server.dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    let mails = wait_for_mails_in(&dirs, 1, |m| {
        m.contains(&format!("<{address}>")) && m.contains(&format!("Subject: {subject}\n"))
    });
    assert_eq!(mails.len(), 1, "one code mailed to {address}: {mails:?}");
    let body = mails[0].split_once("\n\n").map_or("", |(_, body)| body);
    code_in(body).unwrap_or_else(|| panic!("a code in {}", mails[0]))
}

/// Confirms the address of a new account logged in as `client` with the code mailed to it:
/// until then the judge sends that address no mail but the code.
pub fn confirm_address(server: &Server, client: &Client, address: &str, lang: &str) {
    let subject = if lang == "de" {
        "Diplomacy: Adresse bestätigen"
    } else {
        "Diplomacy: confirm your address"
    };
    let code = code_mailed_to(server, address, subject);
    let shown = client.ok("POST", "/api/account/email", Some(json!({"code": code})));
    assert_eq!(shown["email_confirmed"], true, "{shown}");
}

/// A mail file as a test reads it: the header lines (the subject decoded) and the decoded text.
pub fn mail_text(path: &std::path::Path) -> Option<String> {
    let raw = std::fs::read(path).ok()?;
    let message = mail_parser::MessageParser::default().parse(&raw)?;
    let text = String::from_utf8_lossy(&raw);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    let mut out: Vec<String> = head
        .lines()
        .map(|line| match line.strip_prefix("Subject:") {
            Some(_) => format!("Subject: {}", message.subject().unwrap_or_default()),
            None => line.to_string(),
        })
        .collect();
    out.push(String::new());
    out.push(
        message
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
    );
    Some(out.join("\n"))
}

/// A server with a fresh data folder.
pub fn start_server(name: &str) -> Server {
    start_server_in(fresh_dir(name), &[])
}

/// A server on the data folder `dir` (SQLite and mail there), or on the PostgreSQL server CI
/// starts when SPIELLEITER_TEST_DATABASE_URL is set (mail still in `dir`).
pub fn start_server_in(dir: std::path::PathBuf, extra: &[&str]) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_spielleiter"));
    command.args(["serve", "--listen", "127.0.0.1:0", "--data"]).arg(&dir);
    command.args(database_args(&dir));
    // Tests make many accounts from loopback; the ones about the sign-up limit set it themselves.
    if !extra.contains(&"--sign-ups-per-source") {
        command.args(["--sign-ups-per-source", "1000"]);
    }
    let mut child = command
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let (send, receive) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("server: {line}");
            let _ = send.send(line);
        }
    });
    let mut stdout = BufReader::new(stdout);
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the server says where it listens");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();
    let smtp = extra.contains(&"--smtp").then(|| {
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the server says where it takes mail");
        line.trim()
            .strip_prefix("taking mail on smtp://")
            .unwrap_or_else(|| panic!("unexpected second line: {line}"))
            .to_string()
    });
    Server {
        child,
        base,
        smtp,
        dir,
        stderr: receive,
    }
}

/// A client with an optional session token.
pub struct Client {
    pub agent: ureq::Agent,
    pub base: String,
    pub token: Option<String>,
}

impl Client {
    pub fn new(server: &Server) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        Client {
            agent,
            base: server.base.clone(),
            token: None,
        }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let auth = self.token.as_ref().map(|t| format!("Bearer {t}"));
        let response = match method {
            "GET" | "DELETE" => {
                let mut r = if method == "GET" {
                    self.agent.get(&url)
                } else {
                    self.agent.delete(&url)
                };
                if let Some(a) = &auth {
                    r = r.header("authorization", a);
                }
                r.call()
            }
            _ => {
                let mut r = match method {
                    "POST" => self.agent.post(&url),
                    "PATCH" => self.agent.patch(&url),
                    _ => self.agent.put(&url),
                };
                if let Some(a) = &auth {
                    r = r.header("authorization", a);
                }
                r.send_json(body.unwrap_or(json!({})))
            }
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let value = response.body_mut().read_json::<Value>().unwrap_or(Value::Null);
        (status, value)
    }

    pub fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, value) = self.call(method, path, body);
        assert!((200..300).contains(&status), "{method} {path}: {status} {value}");
        value
    }
}

/// A logged-in account that reads English.
pub fn player(server: &Server, name: &str) -> Client {
    player_in(server, name, "en")
}

/// A logged-in account that reads `lang` (`en` or `de`), its address `NAME@example.org`
/// confirmed with the code mailed to it.
pub fn player_in(server: &Server, name: &str, lang: &str) -> Client {
    let c = unconfirmed_player(server, name, lang);
    confirm_address(server, &c, &format!("{name}@example.org"), lang);
    c
}

/// A logged-in account that reads `lang`, whose address `NAME@example.org` waits for its code.
pub fn unconfirmed_player(server: &Server, name: &str, lang: &str) -> Client {
    unconfirmed_player_with(server, name, lang, "long enough")
}

/// As [`unconfirmed_player`], with the password `password`.
pub fn unconfirmed_player_with(server: &Server, name: &str, lang: &str, password: &str) -> Client {
    let mut c = Client::new(server);
    c.ok(
        "POST",
        "/api/accounts",
        Some(json!({"name": name, "email": format!("{name}@example.org"), "password": password, "lang": lang})),
    );
    let session = c.ok(
        "POST",
        "/api/sessions",
        Some(json!({"name": name, "password": password})),
    );
    c.token = session["token"].as_str().map(str::to_string);
    c
}

pub fn new_game(gm: &Client, name: &str, settings: Value) -> String {
    let mut body = json!({"name": name, "variant": "standard"});
    if let (Some(b), Some(extra)) = (body.as_object_mut(), settings.as_object()) {
        for (k, v) in extra {
            b.insert(k.clone(), v.clone());
        }
    }
    gm.ok("POST", "/api/games", Some(body))["id"]
        .as_str()
        .expect("id")
        .to_string()
}

/// A started game of `name` with the master `gm` playing France and `other` Germany.
pub fn two_player_game(gm: &Client, other: &Client, name: &str, settings: Value) -> String {
    let id = new_game(gm, name, settings);
    gm.ok(
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"preferences": ["FRANCE"]})),
    );
    other.ok(
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"preferences": ["GERMANY"]})),
    );
    gm.ok("POST", &format!("/api/games/{id}/start"), None);
    id
}

/// Runs the `spielleiter` binary with `args` and `stdin`, to its end.
pub fn run(args: &[&str], stdin: &str) -> Output {
    spawn(args, stdin.as_bytes())
        .wait_with_output()
        .expect("the binary ends")
}

/// Starts the `spielleiter` binary with `args`, writes `stdin` to it and closes it; its output
/// waits in pipes.
pub fn spawn(args: &[&str], stdin: &[u8]) -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spielleiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child
}

/// Steps from every province to the nearest of `goals` for one unit type, through provinces
/// that are `passable`.
pub fn distances(
    map: &spielleiter_engine::Map,
    kind: spielleiter_engine::UnitType,
    goals: &std::collections::BTreeSet<spielleiter_engine::ProvinceId>,
    passable: &dyn Fn(spielleiter_engine::ProvinceId) -> bool,
) -> Vec<u32> {
    let mut d = vec![u32::MAX; map.provinces().len()];
    let mut queue: std::collections::VecDeque<spielleiter_engine::ProvinceId> = goals.iter().copied().collect();
    for g in goals {
        d[g.index()] = 0;
    }
    while let Some(p) = queue.pop_front() {
        let province = map.province(p);
        for l in std::iter::once(province.main).chain(province.coasts.iter().copied()) {
            for &n in map.neighbours(kind, l) {
                let q = map.province_of(n);
                if d[q.index()] == u32::MAX && passable(q) {
                    d[q.index()] = d[p.index()] + 1;
                    queue.push_back(q);
                }
            }
        }
    }
    d
}

/// Runs `spielleiter mail ingest` on the data folder `dir` with `raw` as the mail.
pub fn ingest_into(dir: &std::path::Path, raw: &str) -> std::process::Output {
    let data = dir.to_str().expect("a UTF-8 path");
    let database = database_args(dir);
    let mut args = vec!["mail", "ingest", "--data", data];
    args.extend(database.iter().map(String::as_str));
    let out = run(&args, raw);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The text of the one reply to the mail with Message-ID `id` (waiting for it a while).
pub fn reply_to(dir: &std::path::Path, id: &str) -> String {
    let replies = wait_for_mails(&dir.join("mail"), 1, |m| m.contains(&format!("In-Reply-To: <{id}>")));
    assert_eq!(replies.len(), 1, "one reply to {id}: {replies:?}");
    replies[0].clone()
}

/// Mails `lines` from `name` (at `name@example.org`) to the judge of the server in `dir`, as the
/// message `key@example.org`; the judge's reply.
pub fn mail_from(dir: &std::path::Path, name: &str, key: &str, lines: &[&str]) -> String {
    let id = format!("{key}@example.org");
    let raw = format!(
        "From: {name} <{name}@example.org>\r\nMessage-ID: <{id}>\r\nSubject: orders\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        lines.join("\r\n")
    );
    ingest_into(dir, &raw);
    reply_to(dir, &id)
}
