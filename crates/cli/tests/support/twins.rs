//! The twins of the secrecy tests: two games played alike but for what one power also sends,
//! and everything a viewer can read of each (API, pages, pictures, downloads, mail), with what
//! differs for reasons other than the play (ids, names, moments, tokens) written alike.

use super::{Client, Server};

/// A text with what differs between the twins for reasons other than the play (ids, names,
/// moments, random tokens and seeds) written the same way.
pub fn normalized(text: &str, id: &str, name: &str) -> String {
    let text = text.replace(id, "GAME").replace(name, "NAME");
    let rules = [
        (r#""([a-z_]*_ms|lot_seed)":\s*-?\d+"#, r#""$1":0"#),
        (
            r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?( ?[A-Z]{2,5}|Z|[+-]\d{2}:?\d{2})?",
            "MOMENT",
        ),
        (r#"name="csrf" value="[^"]*""#, r#"name="csrf" value="""#),
        (r"(seed|Los|lot|Startwert)( [a-z]+)?:? \d+", "$1 SEED"),
        (r#"data-(version|deadline)="[^"]*""#, r#"data-$1="""#),
        (r#"(id="lot-seed">[^<:]*: )\d+"#, "${1}SEED"),
    ];
    rules.iter().fold(text, |t, (pattern, with)| {
        regex::Regex::new(pattern)
            .expect("a pattern")
            .replace_all(&t, *with)
            .into_owned()
    })
}

/// Everything a viewer can read of a game: API answers (with the result of each of `phases`) and
/// web pages with their pictures.
pub fn everything(
    server: &Server,
    viewer: &Client,
    id: &str,
    with_press: bool,
    phases: &[&str],
) -> Vec<(String, String)> {
    let mut read: Vec<(String, String)> = Vec::new();
    let mut api = |path: String| {
        let (status, value) = viewer.call("GET", &path, None);
        read.push((path, format!("{status} {value}")));
    };
    api(format!("/api/games/{id}"));
    api(format!("/api/games/{id}/orders"));
    api(format!("/api/games/{id}/history"));
    if with_press {
        api(format!("/api/games/{id}/press"));
    }
    for phase in phases {
        api(format!("/api/games/{id}/phases/{phase}"));
    }
    let token = viewer.token.clone().unwrap_or_default();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut page = |path: String| {
        let answer = agent
            .get(format!("{}{path}", server.base))
            .header("Cookie", format!("sl_session={token}"))
            .call()
            .map(|mut r| format!("{} {}", r.status(), r.body_mut().read_to_string().unwrap_or_default()))
            .unwrap_or_else(|e| format!("error {e}"));
        read.push((path, answer));
    };
    if with_press {
        page(format!("/games/{id}"));
    }
    for step in 0..4 {
        page(format!("/games/{id}/map.svg?step={step}"));
    }
    page(format!("/games/{id}/record.txt"));
    page(format!("/games/{id}/history.json"));
    read
}

/// The mails a viewer got about a game: subject and text, sorted (file names say nothing of
/// the order they were written in).
pub fn mails(server: &Server, address: &str, name: &str) -> Vec<String> {
    let all: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(server.dir.join("mail"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| super::mail_text(&p).map(|t| (p, t)))
        .collect();
    let mut mails: Vec<String> = all
        .into_iter()
        .map(|(_, text)| text)
        .filter(|t| t.lines().any(|l| l.starts_with("To:") && l.contains(address)) && t.contains(name))
        .map(|t| {
            let subject = t
                .lines()
                .find(|l| l.starts_with("Subject:"))
                .unwrap_or_default()
                .to_string();
            let body = t.split_once("\n\n").map(|(_, b)| b).unwrap_or_default();
            format!("{subject}\n{body}")
        })
        .collect();
    mails.sort();
    mails
}

/// Where two texts part, with a little before (split at lines and tags).
pub fn first_difference(a: &str, b: &str) -> String {
    let split = |t: &str| -> Vec<String> { t.replace("><", ">\n<").lines().map(str::to_string).collect() };
    let (a, b) = (split(a), split(b));
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(3);
    format!(
        "plain game:\n{}\nbusy game:\n{}",
        a[from..(at + 2).min(a.len())].join("\n"),
        b[from..(at + 2).min(b.len())].join("\n")
    )
}
