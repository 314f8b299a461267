//! Carries out the commands of one mail and writes the reply: every line is echoed with what
//! was done or why not (with its line number). Commands go through the same functions as the
//! HTTP API, so a mail can do exactly what a request can, with the same checks.

use super::commands::{Command, Item, Script};
use super::message::Letter;
use crate::api::{self, AppState};
use crate::auth::verify_or_dummy;
use crate::domain::DomainError;
use crate::error::ApiError;
use crate::limits::Source;
use crate::sql::SqlUnit;
use crate::sql::reads;
use spielleiter_engine::report::Lang;

/// The reply to a mail.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The address it goes to (the sender's).
    pub to_email: String,
    /// The sender's name, or the address.
    pub to_name: String,
    /// `Re: ` and the mail's subject.
    pub subject: String,
    /// What was read and done.
    pub body: String,
    /// The game the mail was about, if it signed on to one.
    pub game_id: Option<String>,
}

/// Who the mail acts as after a successful sign-on.
struct Signed {
    game_id: String,
    account: String,
    power: Option<String>,
}

struct Session<'a> {
    state: &'a AppState,
    from: String,
    german: bool,
    /// A stable name for this mail, so that press sent by it is recognised when it is read again.
    mail_key: String,
    /// When the mail arrived: orders and votes count only if the game has not moved on since.
    received_ms: i64,
    /// Password checks made for this mail (at most [`MAX_PASSWORD_CHECKS`]).
    password_checks: usize,
    /// The attempts on accounts whose password (or address) did not match in the sign-on or
    /// join at hand: counted as failed log-ins unless another account of the sender matches.
    mismatched: Vec<crate::limits::Attempt>,
    /// A check of a password or code failed: nothing after this line is read.
    halted: bool,
    /// Whether the command list is in the reply already (it is given once per mail).
    help_given: bool,
    /// Whether the mail asked for an account already (one REGISTER per mail).
    registered: bool,
    out: Vec<String>,
    signed: Option<Signed>,
    /// Order lines waiting for the next command or the end of the mail: (line number, text).
    orders: Vec<(usize, String)>,
    errors: usize,
}

/// Most password checks one mail may cause (each is an Argon2 hash, and a guess).
const MAX_PASSWORD_CHECKS: usize = 3;

/// The largest reply, in bytes: a mail (whose sender may be forged) is never answered with more.
const MAX_REPLY_BYTES: usize = 256 * 1024;

/// Once the reply is this long, no further command is carried out (the longest answer of one
/// command, a few reports of HISTORY, stays well under the rest).
const REPLY_BUDGET: usize = MAX_REPLY_BYTES - 64 * 1024;

/// Carries out a mail's commands and writes its reply; `received_ms` is when it arrived.
pub async fn answer(state: &AppState, letter: &Letter, mail_key: &str, received_ms: i64) -> Reply {
    let script = super::commands::read(&letter.lines);
    let from = letter.from_email.clone();
    // The sender's language, if an account has the address (unknown: the mail's own language).
    let account_lang = reads::lang_of_address(&state.store.pool, &from).await.ok().flatten();
    let german = script.german || account_lang == Some(spielleiter_engine::report::Lang::De);
    let mut session = Session {
        state,
        from: from.clone(),
        german,
        mail_key: mail_key.to_string(),
        received_ms,
        password_checks: 0,
        mismatched: Vec::new(),
        halted: false,
        help_given: false,
        registered: false,
        out: Vec::new(),
        signed: None,
        orders: Vec::new(),
        errors: 0,
    };
    session.run(&script).await;
    let subject = if letter.subject.trim().is_empty() {
        if german {
            "Re: Ihre Nachricht an den Spielleiter".to_string()
        } else {
            "Re: your mail to the judge".to_string()
        }
    } else if letter.subject.to_lowercase().starts_with("re:") {
        letter.subject.clone()
    } else {
        format!("Re: {}", letter.subject)
    };
    Reply {
        to_name: letter.from_name.clone().unwrap_or_else(|| from.clone()),
        to_email: from,
        subject,
        body: capped(session.out.join("\n") + "\n", german),
        game_id: session.signed.as_ref().map(|s| s.game_id.clone()),
    }
}

/// A reply cut to [`MAX_REPLY_BYTES`] at a line's end, saying so, if it is longer.
fn capped(mut body: String, german: bool) -> String {
    if body.len() <= MAX_REPLY_BYTES {
        return body;
    }
    let note = if german {
        "\n(Die Antwort ist hier gekürzt: sie wäre länger als 256 KB.)\n"
    } else {
        "\n(The reply is cut here: it would be longer than 256 KB.)\n"
    };
    let mut end = MAX_REPLY_BYTES - note.len();
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let end = body[..end].rfind('\n').map_or(end, |i| i + 1);
    body.truncate(end);
    body.push_str(note);
    body
}

impl Session<'_> {
    /// The source of this mail's log-in attempts: its sender.
    fn source(&self) -> Source {
        Source::Mail(self.from.clone())
    }

    /// The reply's length so far, in bytes.
    fn reply_bytes(&self) -> usize {
        self.out.iter().map(|l| l.len() + 1).sum()
    }

    fn say(&mut self, en: impl Into<String>, de: impl Into<String>) {
        self.out.push(if self.german { de.into() } else { en.into() });
    }

    fn fail(&mut self, line: usize, en: impl std::fmt::Display, de: impl std::fmt::Display) {
        self.errors += 1;
        self.say(
            format!("  ERROR (line {line}): {en}"),
            format!("  FEHLER (Zeile {line}): {de}"),
        );
    }

    /// An error of the service, in the reader's language where the service has it in German.
    fn refused(&mut self, line: usize, e: &ApiError) {
        self.fail(line, &e.message, e.message_in(spielleiter_engine::report::Lang::De));
    }

    async fn run(&mut self, script: &Script) {
        if script.items.is_empty() {
            self.errors += 1;
            self.say(
                "Your mail holds no commands. Send HELP for the list of commands.",
                "Ihre Nachricht enthält keine Befehle. Senden Sie HILFE für die Liste der Befehle.",
            );
        }
        for (i, item) in script.items.iter().enumerate() {
            if self.reply_bytes() > REPLY_BUDGET {
                let kb = MAX_REPLY_BYTES / 1024;
                self.say(
                    format!("The reply has reached its limit (about {kb} KB): nothing from line {} on was read or carried out.", item.line),
                    format!("Die Antwort hat ihre Grenze erreicht (etwa {kb} KB): ab Zeile {} wurde nichts gelesen oder ausgeführt.", item.line),
                );
                break;
            }
            if let Ok(Command::Order(text)) = &item.command {
                self.order_line(item, text);
                continue;
            }
            self.flush_orders().await;
            self.out.push(format!("> {}", item.shown));
            match &item.command {
                Err(e) => self.fail(item.line, e, e),
                Ok(command) => self.command(item.line, command).await,
            }
            let signed_on = !matches!(item.command, Ok(Command::SignOn { .. })) || self.signed.is_some();
            if self.halted || !signed_on {
                self.halt(script.items.get(i + 1).map(|next| next.line));
                break;
            }
        }
        self.flush_orders().await;
        if let Some(line) = script.unread_from {
            let most = super::commands::MAX_ITEMS;
            self.say(
                format!("Only the first {most} commands and order lines of a mail are read: nothing from line {line} on was read."),
                format!("Nur die ersten {most} Befehle und Befehlszeilen einer Nachricht werden gelesen: ab Zeile {line} wurde nichts gelesen."),
            );
        }
        self.out.push(String::new());
        if self.errors == 0 {
            self.say(
                "All lines were read without errors.",
                "Alle Zeilen wurden fehlerfrei gelesen.",
            );
        } else {
            let n = self.errors;
            self.say(
                format!("{n} line(s) had errors; see above. Send HELP for the commands."),
                format!("{n} Zeile(n) mit Fehlern, siehe oben. HILFE listet die Befehle."),
            );
        }
    }

    /// Ends the mail after a failed sign-on (or check of a password or code): what follows from
    /// `next` on is neither read nor carried out, so a mail makes one guess at most.
    fn halt(&mut self, next: Option<usize>) {
        let why_en = "a mail stops at its first failed sign-on";
        let why_de = "eine Nachricht endet bei der ersten fehlgeschlagenen Anmeldung";
        match next {
            Some(line) => self.say(
                format!("  Nothing from line {line} on was read or carried out: {why_en}."),
                format!("  Ab Zeile {line} wurde nichts gelesen oder ausgeführt: {why_de}."),
            ),
            None => self.say(format!("  ({why_en}.)"), format!("  ({why_de}.)")),
        }
    }

    fn order_line(&mut self, item: &Item, text: &str) {
        if self.signed.as_ref().is_some_and(|s| s.power.is_some()) {
            self.orders.push((item.line, text.to_string()));
        } else {
            self.out.push(format!("> {}", item.shown));
            self.fail(
                item.line,
                "not a command, and orders need a SIGNON with a power first (HELP lists the commands)",
                "kein Befehl, und Befehle an Einheiten brauchen zuerst ANMELDEN mit einer Macht (HILFE listet die Befehle)",
            );
        }
    }

    /// Submits the order lines collected since the last command, as one set (replacing the
    /// power's earlier orders for the phase), and echoes how each line was read.
    async fn flush_orders(&mut self) {
        if self.orders.is_empty() {
            return;
        }
        let lines = std::mem::take(&mut self.orders);
        let Some(signed) = &self.signed else { return };
        let (account, game_id, first_line) = (signed.account.clone(), signed.game_id.clone(), lines[0].0);
        let texts: Vec<String> = lines.iter().map(|(_, t)| t.clone()).collect();
        if self.moved_on(&game_id).await {
            for (_, t) in &lines {
                self.out.push(format!("> {t}"));
            }
            return self.too_late(first_line, "these orders are", "diese Befehle werden");
        }
        let result = api::orders::submit(self.state, &account, &game_id, &texts).await;
        let submission = match result {
            Ok(v) => v,
            Err(e) => {
                for (_, t) in &lines {
                    self.out.push(format!("> {t}"));
                }
                self.refused(first_line, &e);
                return;
            }
        };
        let mut unused: Vec<(usize, String)> = lines.clone();
        for echo in &submission.orders {
            let input = echo.input.as_str();
            let line = unused
                .iter()
                .position(|(_, t)| t.trim() == input.trim())
                .map(|i| unused.remove(i).0)
                .unwrap_or(first_line);
            self.out.push(format!("> {input}"));
            if let Some(order) = &echo.order {
                self.out.push(format!("  {order}"));
            } else {
                let error = echo.error.as_deref().unwrap_or_default();
                let hint = echo
                    .suggestion
                    .as_ref()
                    .map(|s| {
                        if self.german {
                            format!(" (meinten Sie {s}?)")
                        } else {
                            format!(" (did you mean {s}?)")
                        }
                    })
                    .unwrap_or_default();
                self.fail(line, format!("{error}{hint}"), format!("{error}{hint}"));
            }
        }
        let (phase, power) = (&submission.phase, &submission.power);
        let count = texts.len();
        self.say(
            format!("Orders of {power} for {phase}: {count} line(s) kept; they replace any sent before."),
            format!("Befehle von {power} für {phase}: {count} Zeile(n) gespeichert; sie ersetzen frühere."),
        );
        if submission.adjudicated {
            self.say(
                "Every power had ordered: the phase was adjudicated at once; the result follows by mail.",
                "Alle Mächte hatten befohlen: die Phase wurde sofort ausgewertet; das Ergebnis folgt per Mail.",
            );
        }
    }

    async fn command(&mut self, line: usize, command: &Command) {
        match command {
            Command::SignOn { power, game, password } => self.sign_on(line, power.as_deref(), game, password).await,
            Command::Register { name, password, lang } => self.register(line, name, password, lang.as_deref()).await,
            Command::Confirm(code) => self.confirm(line, code).await,
            Command::Join {
                game,
                password,
                preferences,
            } => self.join(line, game, password, preferences).await,
            Command::Press { to, body } => self.press(line, to, body).await,
            Command::Draw(yes) => self.draw(line, *yes).await,
            Command::Concede(to) => self.concede(line, to.as_deref()).await,
            Command::List(None) => self.list_games(line).await,
            Command::List(Some(game)) => self.list_game(line, game).await,
            Command::History { game, phase } => self.history(line, game.as_deref(), phase.as_deref()).await,
            Command::Help if self.help_given => self.say(
                "  (The command list is above: it is given once per mail.)",
                "  (Die Liste der Befehle steht oben: sie kommt einmal je Nachricht.)",
            ),
            Command::Help => {
                self.help_given = true;
                let text = if self.german { HELP_DE } else { HELP_EN };
                self.out.extend(text.lines().map(str::to_string));
            }
            Command::SignOff => self.say(
                "  The rest of the mail is not read.",
                "  Der Rest der Nachricht wird nicht gelesen.",
            ),
            Command::Order(_) => {}
        }
    }

    async fn press(&mut self, line: usize, to: &[String], body: &str) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        let press_id = format!("{}-{line}", self.mail_key);
        match api::press::send(self.state, &account, &game_id, to, body, Some(press_id)).await {
            Ok(v) if v.repeat => {
                self.say("  (sent already)", "  (bereits gesendet)");
            }
            Ok(v) => {
                let to = if v.to.is_empty() {
                    (if self.german { "alle" } else { "all" }).to_string()
                } else {
                    v.to.join(", ")
                };
                self.say(format!("  Press sent to {to}."), format!("  Presse gesendet an {to}."));
            }
            Err(e) => self.refused(line, &e),
        }
    }

    async fn draw(&mut self, line: usize, yes: bool) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        if self.moved_on(&game_id).await {
            return self.too_late(line, "the vote is", "die Stimme wird");
        }
        match api::endgame::vote(self.state, &account, &game_id, yes).await {
            Ok(v) => match (yes, v.drawn) {
                (_, true) => self.say(
                    "  Every survivor voted for a draw: the game ends in a draw.",
                    "  Alle Überlebenden stimmten für Remis: die Partie endet remis.",
                ),
                (true, false) => self.say(
                    "  Your vote for a draw is recorded.",
                    "  Ihre Stimme für ein Remis ist gespeichert.",
                ),
                (false, false) => self.say("  You do not vote for a draw.", "  Sie stimmen nicht für ein Remis."),
            },
            Err(e) => self.refused(line, &e),
        }
    }

    async fn concede(&mut self, line: usize, to: Option<&str>) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        if self.moved_on(&game_id).await {
            return self.too_late(line, "the concession is", "die Aufgabe wird");
        }
        match api::endgame::concede_to(self.state, &account, &game_id, to).await {
            Ok(v) => {
                let to = v.concede_to.clone().unwrap_or_else(|| "-".to_string());
                if v.conceded {
                    self.say(
                        format!("  The game is conceded to {to}."),
                        format!("  Die Partie ist an {to} aufgegeben."),
                    );
                } else {
                    self.say(format!("  Your concession: {to}."), format!("  Ihre Aufgabe: {to}."));
                }
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// The account and game signed on to, or an error for the line.
    fn signed_account(&mut self, line: usize) -> Option<(String, String)> {
        match &self.signed {
            Some(s) => Some((s.account.clone(), s.game_id.clone())),
            None => {
                self.fail(line, "SIGNON to a game first", "zuerst ANMELDEN bei einer Partie");
                None
            }
        }
    }

    /// A game by its name (or id).
    async fn find_game(&mut self, line: usize, name: &str) -> Option<(String, String)> {
        // By its id, its exact name, or its name as names are compared.
        match reads::game_named(&self.state.store.pool, name).await {
            Ok(Some(found)) => Some(found),
            Ok(None) => {
                self.fail(
                    line,
                    format!("there is no game `{name}` (LIST shows the games)"),
                    format!("es gibt keine Partie `{name}` (LISTE zeigt die Partien)"),
                );
                None
            }
            Err(e) => {
                self.refused(line, &e.into());
                None
            }
        }
    }

    /// Whether the game was adjudicated after the mail arrived (a mail read late, or again after a
    /// crash, must not act on a position its sender did not see).
    async fn moved_on(&self, game_id: &str) -> bool {
        // A failed read counts as moved on: the mail then acts on nothing.
        match reads::last_adjudicated_ms(&self.state.store.pool, game_id).await {
            Ok(last) => last.is_some_and(|last| last > self.received_ms),
            Err(_) => true,
        }
    }

    /// Refuses what a line asked for because the game was adjudicated after the mail arrived.
    fn too_late(&mut self, line: usize, what_en: &str, what_de: &str) {
        self.fail(
            line,
            format!("the phase was adjudicated after this mail arrived: {what_en} not taken; read the result first"),
            format!("die Phase wurde nach Eingang dieser Nachricht ausgewertet: {what_de} nicht angenommen; bitte zuerst das Ergebnis lesen"),
        );
    }

    /// Checks a password against an account and that the mail comes from the account's
    /// registered address; a mismatch is counted as a failed log-in (taken back if another
    /// account of the sender matches in the same sign-on or join). Refused (None, told, and the
    /// mail stops) beyond [`MAX_PASSWORD_CHECKS`] per mail or after too many failed log-ins of
    /// the account ([`crate::limits`]).
    async fn password_matches(&mut self, line: usize, account: &str, password: &str) -> Option<bool> {
        if self.password_checks >= MAX_PASSWORD_CHECKS {
            self.mismatched.clear();
            self.halted = true;
            self.fail(
                line,
                format!("at most {MAX_PASSWORD_CHECKS} password checks per mail"),
                format!("höchstens {MAX_PASSWORD_CHECKS} Passwortprüfungen je Nachricht"),
            );
            return None;
        }
        self.password_checks += 1;
        match self.check_password(account, password).await {
            Ok(matched) => Some(matched),
            Err(refusal) => {
                self.mismatched.clear();
                self.halted = true;
                self.refused(line, &refusal);
                None
            }
        }
    }

    /// The first of `accounts` whose password (and address) match, by [`Session::password_matches`];
    /// None when none does, or when a check was refused (then the mail is halted and told).
    async fn first_match(&mut self, line: usize, accounts: &[String], password: &str) -> Option<usize> {
        for (i, account) in accounts.iter().enumerate() {
            match self.password_matches(line, account, password).await {
                Some(true) => return Some(i),
                Some(false) => {}
                None => return None,
            }
        }
        None
    }

    /// One password check of [`Session::password_matches`]: whether it matched, or why it was
    /// refused.
    async fn check_password(&mut self, account: &str, password: &str) -> Result<bool, ApiError> {
        let store = &self.state.store;
        let account = reads::credentials(&store.pool, account)
            .await?
            .ok_or_else(|| ApiError::not_found("account", "Dieses Konto gibt es nicht"))?;
        let attempt = self
            .state
            .limits
            .login_attempt(store, &account.name_key, &self.source())
            .await?;
        let ok = self.verify(password, account.password_hash).await;
        // The password is the secret; the registered address must match as well, and be
        // confirmed, so that a password alone, sent from anywhere, is not enough.
        if !(ok && account.confirmed && account.email.trim().eq_ignore_ascii_case(self.from.trim())) {
            self.mismatched.push(attempt);
            return Ok(false);
        }
        attempt.succeeded(store).await?;
        // The sender is who they say: mismatches with their other accounts were no guesses.
        for other in std::mem::take(&mut self.mismatched) {
            other.succeeded(store).await?;
        }
        Ok(true)
    }

    /// Checks a password against a stored hash (the dummy hash without one) on a blocking thread.
    async fn verify(&self, password: &str, stored: Option<String>) -> bool {
        let password = password.to_string();
        tokio::task::spawn_blocking(move || verify_or_dummy(&password, stored.as_deref()))
            .await
            .unwrap_or(false)
    }

    /// The account of the sender's address that is a member (or the master) of the game and has
    /// this password, with its power; None when there is none (told).
    async fn member_of_address(
        &mut self,
        line: usize,
        g: &api::Game,
        game_name: &str,
        password: &str,
    ) -> Option<(String, Option<String>)> {
        let rows = match reads::members_of_address(&self.state.store.pool, g, &self.from).await {
            Ok(rows) => rows,
            Err(e) => {
                self.refused(line, &e.into());
                return None;
            }
        };
        if rows.is_empty() {
            self.fail(
                line,
                format!("no member of {game_name} has this address; write SIGNON power game password"),
                format!("kein Mitglied von {game_name} hat diese Adresse; schreibe ANMELDEN Macht Partie Passwort"),
            );
            return None;
        }
        let accounts: Vec<String> = rows.iter().map(|(a, _)| a.clone()).collect();
        if let Some(i) = self.first_match(line, &accounts, password).await {
            return Some(rows[i].clone());
        }
        if !self.halted {
            self.wrong_password(line).await;
        }
        None
    }

    /// The player of `power` in the game: the account and the power's key; None when there is
    /// none (told).
    async fn player_of(
        &mut self,
        line: usize,
        g: &api::Game,
        game_name: &str,
        power: &str,
    ) -> Option<(String, String)> {
        let key = match api::variant(&g.variant)
            .map_err(ApiError::from)
            .and_then(|v| api::power_key(&v, power))
        {
            Ok(k) => k,
            Err(e) => {
                self.refused(line, &e);
                return None;
            }
        };
        match reads::player_of(&self.state.store.pool, &g.id, &key).await {
            Ok(Some(account)) => Some((account, key)),
            Ok(None) => {
                self.fail(
                    line,
                    format!("nobody plays {key} in {game_name}"),
                    format!("niemand spielt {key} in {game_name}"),
                );
                None
            }
            Err(e) => {
                self.refused(line, &e.into());
                None
            }
        }
    }

    async fn sign_on(&mut self, line: usize, power: Option<&str>, game: &str, password: &str) {
        self.signed = None;
        self.mismatched.clear();
        let Some((game_id, game_name)) = self.find_game(line, game).await else {
            return;
        };
        let g = match api::game(self.state, &game_id).await {
            Ok(g) => g,
            Err(e) => return self.refused(line, &e),
        };
        let (account, power_key) = match power {
            Some(name) => {
                let Some((account, key)) = self.player_of(line, &g, &game_name, name).await else {
                    return;
                };
                match self.password_matches(line, &account, password).await {
                    Some(true) => (account, Some(key)),
                    Some(false) => return self.wrong_password(line).await,
                    None => return,
                }
            }
            None => match self.member_of_address(line, &g, &game_name, password).await {
                Some(found) => found,
                None => return,
            },
        };
        let deadline = g
            .deadline_ms
            .map(|ms| g.deadline_rule().describe(ms))
            .unwrap_or_else(|| "-".into());
        let phase = g.phase.clone().unwrap_or_else(|| "-".into());
        let who = power_key.clone().unwrap_or_else(|| {
            if g.master == account {
                "master".into()
            } else {
                "observer".into()
            }
        });
        self.say(
            format!("  Signed on as {who} in {game_name}. Phase {phase}, deadline {deadline}."),
            format!("  Angemeldet als {who} in {game_name}. Phase {phase}, Abgabeschluss {deadline}."),
        );
        self.signed = Some(Signed {
            game_id,
            account,
            power: power_key,
        });
    }

    /// Refuses a sign-on or join whose password (or address) did not match (each account it was
    /// checked against has counted a failed log-in).
    async fn wrong_password(&mut self, line: usize) {
        self.mismatched.clear();
        self.fail(
            line,
            "wrong password, or this is not the address registered for that player: signed on to nothing; the orders below are not taken",
            "falsches Passwort, oder dies ist nicht die für diesen Spieler eingetragene Adresse: nicht angemeldet; die folgenden Befehle werden nicht angenommen",
        );
    }

    /// A new account for the sender's address; the reply (to that address) carries the code
    /// that confirms it.
    async fn register(&mut self, line: usize, name: &str, password: &str, lang: Option<&str>) {
        if std::mem::replace(&mut self.registered, true) {
            self.fail(
                line,
                "one REGISTER per mail: this one is not carried out",
                "ein REGISTRIEREN je Nachricht: dieses wird nicht ausgeführt",
            );
            return;
        }
        let lang = lang.unwrap_or(if self.german { "de" } else { "en" }).to_string();
        let account = api::accounts::NewAccount {
            name: name.to_string(),
            email: self.from.clone(),
            password: password.to_string(),
            lang,
        };
        match api::accounts::create(self.state, &self.source(), &account, api::accounts::CodeBy::Reply).await {
            Ok(crate::app::accounts::Created { code, .. }) => self.say(
                format!(
                    "  Account {name} created for {}. To confirm this address, send a mail from it with the line \
                     CONFIRM {code} (the code holds 24 hours); until then the judge sends it nothing but replies.",
                    self.from
                ),
                format!(
                    "  Konto {name} für {} angelegt. Um diese Adresse zu bestätigen, schicken Sie von ihr eine Mail \
                     mit der Zeile BESTÄTIGEN {code} (der Code gilt 24 Stunden); bis dahin schickt der Spielleiter \
                     ihr nur Antworten.",
                    self.from
                ),
            ),
            Err(e) => self.refused(line, &e),
        }
    }

    /// Confirms the sender's address with the code mailed to it, for the account whose first or
    /// new address it is. A wrong code counts as a failed log-in, and the mail stops.
    async fn confirm(&mut self, line: usize, code: &str) {
        let rows = match reads::pending_codes(&self.state.store.pool, &self.from).await {
            Ok(rows) => rows,
            Err(e) => return self.refused(line, &e.into()),
        };
        let typed = crate::auth::code_hash(code);
        let account = rows
            .iter()
            .find(|(_, hash)| hash.as_deref() == Some(typed.as_str()))
            .or(rows.first())
            .map(|(id, _)| id.clone());
        let Some(account) = account else {
            return self.fail(
                line,
                "no address waits for a code here: send CONFIRM from the address the code was mailed to",
                "hier wartet keine Adresse auf einen Code: BESTÄTIGEN wird von der Adresse gesendet, an die der Code ging",
            );
        };
        match api::accounts::confirm_address(self.state, &self.source(), &account, code).await {
            Ok(_) => self.say(
                format!(
                    "  The address {} is confirmed: mail about your games comes here.",
                    self.from
                ),
                format!(
                    "  Die Adresse {} ist bestätigt: die Post zu Ihren Partien kommt hierher.",
                    self.from
                ),
            ),
            Err(e) => {
                self.halted = true;
                self.refused(line, &e);
            }
        }
    }

    async fn join(&mut self, line: usize, game: &str, password: &str, preferences: &[String]) {
        self.mismatched.clear();
        let Some((game_id, game_name)) = self.find_game(line, game).await else {
            return;
        };
        let Some(account) = self.account_of_address(line, password).await else {
            return;
        };
        match api::games::join(self.state, &account, &game_id, preferences, false).await {
            Ok(v) => {
                let prefs = v.preferences.join(", ");
                self.say(
                    format!("  You joined {game_name}; preferences: {prefs}."),
                    format!("  Sie sind {game_name} beigetreten; Wünsche: {prefs}."),
                );
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// The account of the sender's address with this password; None when there is none (told,
    /// counted as a failed log-in, and the mail stops).
    async fn account_of_address(&mut self, line: usize, password: &str) -> Option<String> {
        let accounts = match reads::accounts_of_address(&self.state.store.pool, &self.from).await {
            Ok(accounts) => accounts,
            Err(e) => {
                self.refused(line, &e.into());
                return None;
            }
        };
        if accounts.is_empty() {
            // As long as a check against an account: the time does not tell whether one exists.
            self.verify(password, None).await;
        }
        if let Some(i) = self.first_match(line, &accounts, password).await {
            return Some(accounts[i].clone());
        }
        if self.halted {
            return None;
        }
        self.mismatched.clear();
        self.halted = true;
        self.fail(
            line,
            "no account of this address has that password (REGISTER makes one)",
            "kein Konto dieser Adresse hat dieses Passwort (REGISTRIEREN legt eines an)",
        );
        None
    }

    async fn list_games(&mut self, line: usize) {
        let games = match reads::game_lines(&self.state.store.pool).await {
            Ok(games) => games,
            Err(e) => return self.refused(line, &e.into()),
        };
        if games.is_empty() {
            self.say("  There are no games.", "  Es gibt keine Partien.");
        }
        for g in games {
            let status = match g.status() {
                Ok(status) => status,
                Err(e) => return self.refused(line, &e.into()),
            };
            let deadline = g
                .deadline_ms
                .map(|ms| crate::deadlines::DeadlineRule::stored(&g.time_zone, g.deadline_at.as_deref()).describe(ms))
                .unwrap_or_else(|| "-".into());
            self.out.push(format!(
                "  {:<20} {:<10} {status:<9} {:<9} {} {} {deadline}",
                g.name,
                g.variant,
                g.phase.unwrap_or_else(|| "-".into()),
                g.players,
                if self.german { "Spieler" } else { "players" }
            ));
        }
    }

    async fn list_game(&mut self, line: usize, game: &str) {
        let Some((game_id, _)) = self.find_game(line, game).await else {
            return;
        };
        let g = match api::game(self.state, &game_id).await {
            Ok(g) => g,
            Err(e) => return self.refused(line, &e),
        };
        let deadline = g
            .deadline_ms
            .map(|ms| g.deadline_rule().describe(ms))
            .unwrap_or_else(|| "-".into());
        let phase = g.phase.clone().unwrap_or_else(|| "-".into());
        self.say(
            format!(
                "  {}: variant {}, {}, phase {phase}, deadline {deadline}, press {}.",
                g.name, g.variant, g.status, g.press
            ),
            format!(
                "  {}: Variante {}, {}, Phase {phase}, Abgabeschluss {deadline}, Presse {}.",
                g.name, g.variant, g.status, g.press
            ),
        );
        let members = match reads::member_lines(&self.state.store.pool, &game_id).await {
            Ok(members) => members,
            Err(e) => return self.refused(line, &e.into()),
        };
        for m in members {
            let name = m.name;
            let what = m.power.unwrap_or_else(|| m.role.to_string());
            let disorder = match (m.civil_disorder, self.german) {
                (true, false) => " (civil disorder)",
                (true, true) => " (Anarchie)",
                _ => "",
            };
            self.out.push(format!("  {what:<10} {name}{disorder}"));
        }
    }

    async fn history(&mut self, line: usize, game: Option<&str>, phase: Option<&str>) {
        let game_id = match (game, &self.signed) {
            (None, Some(s)) => s.game_id.clone(),
            (None, None) => {
                return self.fail(
                    line,
                    "which game? write HISTORY game, or SIGNON first",
                    "welche Partie? schreibe VERLAUF Partie, oder zuerst ANMELDEN",
                );
            }
            (Some(name), _) => match self.find_game(line, name).await {
                Some((id, _)) => id,
                None => return,
            },
        };
        // The signed-on account reads what it may read on the web: its games, and ended ones.
        let account = self.signed.as_ref().map_or("", |s| s.account.as_str()).to_string();
        let lang = if self.german { Lang::De } else { Lang::En };
        let record = match SqlUnit::begin(&self.state.store).await {
            Ok(mut unit) => crate::app::results::record(&mut unit, &account, &game_id, lang).await,
            Err(e) => Err(e.into()),
        };
        let record = match record {
            Ok(record) => record,
            Err(DomainError::OnlyMembersSeeResults) => {
                let name = game.unwrap_or_default();
                return self.fail(
                    line,
                    format!("the reports of a running game are for its members: SIGNON to {name} first"),
                    format!("die Berichte einer laufenden Partie sind für ihre Mitglieder: zuerst ANMELDEN bei {name}"),
                );
            }
            Err(e) => return self.refused(line, &e.into()),
        };
        let mut reports: Vec<(String, String)> = record
            .reports
            .into_iter()
            .filter(|(p, _)| phase.is_none_or(|want| p.eq_ignore_ascii_case(want)))
            .collect();
        if reports.is_empty() {
            return self.fail(line, "no adjudicated phase matches", "keine ausgewertete Phase passt");
        }
        const MOST: usize = 12;
        if reports.len() > MOST {
            let skipped = reports.len() - MOST;
            reports.drain(..skipped);
            self.say(
                format!("  (the last {MOST} phases; {skipped} earlier ones with HISTORY game phase)"),
                format!("  (die letzten {MOST} Phasen; {skipped} frühere mit VERLAUF Partie Phase)"),
            );
        }
        for (_, report) in reports {
            self.out.push(String::new());
            self.out.extend(report.lines().map(str::to_string));
        }
    }
}

const HELP_EN: &str = "Commands (one per line; orders follow SIGNON, one per line, in any usual notation):
  SIGNON power game password   act as that power's player (password of the player's account;
                               the mail must come from the account's registered address)
  SIGNON game password         act as your account (master or observer)
  REGISTER name password [en|de]   a new account for this address
  CONFIRM code                 confirm this address with the code mailed to it
  JOIN game password [power ...]   join a forming game with your preferred powers
  PRESS TO power [power ...]   press to those powers, until a line ENDPRESS
  PRESS TO ALL  or  BROADCAST  press to everyone, until a line ENDPRESS
  DRAW / NODRAW                vote for a draw of all survivors / withdraw the vote
  CONCEDE power / CONCEDE NONE concede the game to a power / withdraw
  LIST  /  LIST game           the games / one game's players and deadline
  HISTORY [game] [phase]       the reports of past phases
  HELP                         this list
  SIGNOFF                      ignore the rest of the mail
A mail stops at its first failed SIGNON; at most 200 lines of commands and orders are read.
Orders: A Lon - Wal, F Nth C A Lon - Nor, A Par S A Mar - Bur, A Mun H; retreats A Bur R Pic,
disband A Bur D, in advance with the moves F Bre R Eng, Pic, Gas; builds BUILD A Par, removals
REMOVE F Kie; later phases under a heading F1901M:; German words work too (A München nach Tirol).
Orders in a mail replace those sent before.";

const HELP_DE: &str = "Befehle (einer je Zeile; Befehle an Einheiten folgen auf ANMELDEN, einer je Zeile, in jeder üblichen Schreibweise):
  ANMELDEN Macht Partie Passwort   als Spieler dieser Macht handeln (Passwort des Kontos des Spielers;
                                   die Nachricht muss von der eingetragenen Adresse kommen)
  ANMELDEN Partie Passwort         als eigenes Konto handeln (Spielleiter oder Beobachter)
  REGISTRIEREN Name Passwort [de|en]   ein neues Konto für diese Adresse
  BESTÄTIGEN Code                  diese Adresse mit dem Code bestätigen, der an sie ging
  BEITRETEN Partie Passwort [Macht ...]   einer Partie mit Wunschmächten beitreten
  PRESSE AN Macht [Macht ...]      Presse an diese Mächte, bis zu einer Zeile ENDE PRESSE
  PRESSE AN ALLE  oder  RUNDSCHREIBEN   Presse an alle, bis zu einer Zeile ENDE PRESSE
  REMIS / KEIN REMIS               für ein Remis aller Überlebenden stimmen / Stimme zurückziehen
  AUFGEBEN Macht / AUFGEBEN KEINE  die Partie an eine Macht aufgeben / zurückziehen
  LISTE  /  LISTE Partie           die Partien / Spieler und Abgabeschluss einer Partie
  VERLAUF [Partie] [Phase]         die Berichte vergangener Phasen
  HILFE                            diese Liste
  ABMELDEN                         den Rest der Nachricht nicht lesen
Eine Nachricht endet beim ersten fehlgeschlagenen ANMELDEN; höchstens 200 Zeilen werden gelesen.
Befehle: A München nach Tirol, F Nordsee U A Yor - Edi, A Par H; Rückzüge A Bur R Pic, im Voraus
mit den Zügen: Rückzug F Bre nach Eng, Pic, Gas; Bauen A Par; spätere Phasen unter einer Überschrift
F1901M:; englische Schreibweise geht ebenso.
Befehle einer Nachricht ersetzen die vorher gesendeten.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_over_the_limit_is_cut_at_a_line_and_says_so() {
        let short = "> HELP\nok\n".to_string();
        assert_eq!(capped(short.clone(), false), short);
        let long = "ä line of some length\n".repeat(20_000);
        let cut = capped(long.clone(), false);
        assert!(cut.len() <= MAX_REPLY_BYTES, "{}", cut.len());
        assert!(cut.ends_with("(The reply is cut here: it would be longer than 256 KB.)\n"));
        let kept = cut.split("\n(The reply").next().unwrap_or_default();
        assert!(kept.ends_with('\n') && long.starts_with(kept));
        assert!(capped(long, true).contains("Die Antwort ist hier gekürzt"));
    }
}
