//! Mails as mail programs write them (`tests/mail_clients/*.eml`, see its README): each is fed
//! through `spielleiter mail ingest` into a running game in which its sender plays Germany, and
//! the orders stored and the reply are checked against the file's `X-Test-` lines. Either the
//! writer's orders are stored, or the reply says which line was not taken and why.

mod support;

/// What a fixture says must come of it.
#[derive(Debug, Default)]
struct Expected {
    /// The order lines stored for Germany afterwards.
    stored: Vec<String>,
    /// Texts the reply contains.
    reply: Vec<String>,
    /// Texts the reply does not contain.
    not_in_reply: Vec<String>,
    /// Whether the file's bytes are sent as they are (else with CRLF line ends).
    raw: bool,
}

/// The `X-Test-` lines of a fixture's header.
fn expected(bytes: &[u8]) -> Expected {
    // A fixture in Latin-1 (an old client's) says what it expects in Latin-1 too.
    let text: String = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    let mut e = Expected::default();
    for line in text.lines().take_while(|l| !l.trim().is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        match name {
            "X-Test-Stored" if value == "-" => {}
            "X-Test-Stored" => e.stored = value.split(" | ").map(str::to_string).collect(),
            "X-Test-Reply" => e.reply.push(value),
            "X-Test-Not-In-Reply" => e.not_in_reply.push(value),
            "X-Test-Raw" => e.raw = value == "yes",
            _ => {}
        }
    }
    e
}

/// A fixture with its placeholders filled in, as bytes to send.
fn filled(bytes: &[u8], game: &str, id: &str, raw: bool) -> Vec<u8> {
    // Placeholders are ASCII, so bytes in another charset stay as they are.
    let mut out = bytes.to_vec();
    for (from, to) in [
        ("{FROM}", "bert@example.org"),
        ("{GAME}", game),
        ("{PASSWORD}", "right-horse-1"),
        ("{ID}", id),
    ] {
        out = replace(&out, from.as_bytes(), to.as_bytes());
    }
    if raw {
        return out;
    }
    let text = String::from_utf8(out).expect("a UTF-8 fixture");
    text.replace("\r\n", "\n").replace('\n', "\r\n").into_bytes()
}

/// `bytes` with every `from` replaced by `to`.
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn mails_written_by_each_client_family_are_read_as_their_writer_meant() {
    let server = support::start_server("mail-clients");
    let gm = support::player(&server, "clients-master");
    let bert = support::unconfirmed_player_with(&server, "bert", "en", "right-horse-1");
    support::confirm_address(&server, &bert, "bert@example.org", "en");
    let settings = serde_json::json!({"movement_seconds": 3600});
    let game = support::two_player_game(&gm, &bert, "Clients", settings);
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail_clients");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("the fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "the fixtures are there: {files:?}");
    let data = server.dir.to_str().expect("a UTF-8 path").to_string();
    let database = support::database_args(&server.dir);
    for (n, path) in files.iter().enumerate() {
        let name = path.file_name().expect("a name").to_string_lossy().to_string();
        let bytes = std::fs::read(path).expect("a fixture");
        let want = expected(&bytes);
        let id = format!("client-{n}@example.org");
        let mut args = vec!["mail", "ingest", "--data", data.as_str()];
        args.extend(database.iter().map(String::as_str));
        let out = support::spawn(&args, &filled(&bytes, "Clients", &id, want.raw))
            .wait_with_output()
            .expect("ingest ends");
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let replies = support::wait_for_mails(&server.dir.join("mail"), 1, |m| {
            m.contains(&format!("In-Reply-To: <{id}>"))
        });
        assert_eq!(replies.len(), 1, "{name}: one reply");
        let reply = &replies[0];
        for text in &want.reply {
            assert!(
                reply.contains(text.as_str()),
                "{name}: the reply says {text:?}:\n{reply}"
            );
        }
        for text in &want.not_in_reply {
            assert!(
                !reply.contains(text.as_str()),
                "{name}: the reply does not say {text:?}:\n{reply}"
            );
        }
        let stored = bert.ok("GET", &format!("/api/games/{game}/orders"), None);
        assert_eq!(stored["orders"], serde_json::json!(want.stored), "{name}:\n{reply}");
    }
}
