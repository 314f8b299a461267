//! Carries out the commands of one mail and writes the reply: every line is echoed with what
//! was done or why not (with its line number). Commands go through the same functions as the
//! HTTP API, so a mail can do exactly what a request can, with the same checks.

use super::commands::{Command, Item, Script};
use super::message::Letter;
use crate::api::{self, AppState};
use crate::auth::verify_or_dummy;
use crate::domain::{DomainError, PowerName};
use crate::error::ApiError;
use crate::i18n::mail::{self as words, Late, Part, Words, pick};
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
    power: Option<PowerName>,
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
    /// The line of a READY said since the sign-on: the orders of this sign-on (else those sent
    /// before) are final.
    ready: Option<usize>,
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
        ready: None,
        errors: 0,
    };
    session.run(&script).await;
    let subject = if letter.subject.trim().is_empty() {
        pick(words::subject(), german)
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
    let note = pick(words::reply_cut(), german);
    let mut end = MAX_REPLY_BYTES - note.len();
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let end = body[..end].rfind('\n').map_or(end, |i| i + 1);
    body.truncate(end);
    body.push_str(&note);
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

    /// Adds a line to the reply, in the reader's language.
    fn say(&mut self, words: Words) {
        self.out.push(pick(words, self.german));
    }

    /// Adds an error line for the mail's `line` and counts it.
    fn fail(&mut self, line: usize, words: Words) {
        self.fail_at(line, None, words);
    }

    /// Adds an error line for the `part`-th order of the mail's `line` (none: the line) and
    /// counts it.
    fn fail_at(&mut self, line: usize, part: Option<usize>, words: Words) {
        self.errors += 1;
        self.say(words::error_line(line, part, &words));
    }

    /// The reader's language.
    fn lang(&self) -> Lang {
        if self.german { Lang::De } else { Lang::En }
    }

    /// An error of the service, in the reader's language where the service has it in German.
    fn refused(&mut self, line: usize, e: &ApiError) {
        let de = e.message_in(Lang::De).to_string();
        self.fail(line, (e.message.clone(), de));
    }

    async fn run(&mut self, script: &Script) {
        if script.items.is_empty() {
            self.errors += 1;
            self.say(words::no_commands());
        }
        for (i, item) in script.items.iter().enumerate() {
            if self.reply_bytes() > REPLY_BUDGET {
                self.say(words::reply_full(MAX_REPLY_BYTES / 1024, item.line));
                break;
            }
            if let Ok(Command::Order(text)) = &item.command {
                self.order_line(item, text);
                continue;
            }
            // A mail's order lines are one submission per sign-on, whatever commands stand
            // between them: a second block of orders does not replace the first.
            if matches!(item.command, Ok(Command::SignOn { .. } | Command::SignOff)) {
                self.flush_orders().await;
            }
            self.out.push(format!("> {}", item.shown));
            match &item.command {
                Err(e) => self.fail(item.line, (e.to_string(), e.to_string())),
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
            self.say(words::unread_from(super::commands::MAX_ITEMS, line));
        }
        self.out.push(String::new());
        if self.errors == 0 {
            self.say(words::all_read());
        } else {
            self.say(words::errors(self.errors));
        }
    }

    /// Ends the mail after a failed sign-on (or check of a password or code): what follows from
    /// `next` on is neither read nor carried out, so a mail makes one guess at most.
    fn halt(&mut self, next: Option<usize>) {
        self.say(words::halted(next));
    }

    fn order_line(&mut self, item: &Item, text: &str) {
        if self.signed.as_ref().is_some_and(|s| s.power.is_some()) {
            self.orders.push((item.line, text.to_string()));
        } else {
            self.out.push(format!("> {}", item.shown));
            self.fail(item.line, words::orders_need_sign_on());
        }
    }

    /// Submits the order lines collected since the sign-on, as one set (replacing the power's
    /// earlier orders for the phase), and echoes how each line was read.
    async fn flush_orders(&mut self) {
        let ready_line = self.ready.take();
        let ready = ready_line.is_some();
        if self.orders.is_empty() {
            if let Some(line) = ready_line {
                self.mark_ready(line).await;
            }
            return;
        }
        let lines = std::mem::take(&mut self.orders);
        let Some(signed) = &self.signed else { return };
        let (account, game_id, first_line) = (signed.account.clone(), signed.game_id.clone(), lines[0].0);
        if self.moved_on(&game_id).await {
            for (_, t) in &lines {
                self.out.push(format!("> {t}"));
            }
            return self.too_late(first_line, Late::Orders);
        }
        let submitted = api::orders::OrderLines::numbered(&lines);
        let result = api::orders::submit(self.state, &account, &game_id, &submitted, ready, self.lang()).await;
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
        for echo in &submission.orders {
            self.out.push(format!("> {}", echo.input));
            if let Some(order) = &echo.order {
                self.out.push(format!("  {order}"));
            } else {
                let error = echo.error.as_deref().unwrap_or_default();
                let (en, de) = echo.suggestion.as_deref().map(words::did_you_mean).unwrap_or_default();
                let said = (format!("{error}{en}"), format!("{error}{de}"));
                self.fail_at(echo.line, echo.part, said);
            }
        }
        let phase = &submission.phase;
        let power = self.signed_name(&submission.power);
        self.say(words::orders_kept(&power, phase, submission.kept_lines));
        self.say(words::standing(&submission.standing));
        for warning in &submission.warnings {
            self.say(words::warning(warning));
        }
        if ready {
            self.say(words::orders_final(&power, phase));
        }
        if submission.adjudicated {
            self.say(words::adjudicated_at_once());
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
            Command::Create {
                game,
                password,
                variant,
                options,
            } => self.create(line, game, password, variant, options).await,
            Command::Start { game, password } => self.start(line, game, password).await,
            Command::Press { to, body } => self.press(line, to, body).await,
            Command::Draw(yes) => self.draw(line, *yes).await,
            Command::Ready => self.ready_said(line),
            Command::Concede(to) => self.concede(line, to.as_deref()).await,
            Command::List(None) => self.list_games(line).await,
            Command::List(Some(game)) => self.list_game(line, game).await,
            Command::History { game, phase } => self.history(line, game.as_deref(), phase.as_deref()).await,
            Command::Help if self.help_given => self.say(words::help_above()),
            Command::Help => {
                self.help_given = true;
                let text = pick(words::help(), self.german);
                self.out.extend(text.lines().map(str::to_string));
            }
            Command::SignOff => self.say(words::rest_not_read()),
            Command::Order(_) => {}
        }
    }

    async fn press(&mut self, line: usize, to: &[String], body: &str) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        let press_id = format!("{}-{line}", self.mail_key);
        match api::press::send(self.state, &account, &game_id, to, body, Some(press_id)).await {
            Ok(v) if v.repeat => self.say(words::press_repeat()),
            Ok(v) => {
                let to = self.named(&game_id, &v.to).await;
                self.say(words::press_sent(&to))
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// READY: the orders of this sign-on are final (marked when they are submitted).
    fn ready_said(&mut self, line: usize) {
        if self.signed.as_ref().is_some_and(|s| s.power.is_some()) {
            self.ready = Some(line);
        } else {
            self.fail(line, words::orders_need_sign_on());
        }
    }

    /// Marks the orders sent before as final (READY in a mail without orders).
    async fn mark_ready(&mut self, line: usize) {
        let Some(signed) = &self.signed else { return };
        let (account, game_id) = (signed.account.clone(), signed.game_id.clone());
        if self.moved_on(&game_id).await {
            return self.too_late(line, Late::Orders);
        }
        match api::orders::set_ready(self.state, &account, &game_id, true).await {
            Ok(marked) => {
                let power = self.signed_name(&marked.power);
                self.say(words::orders_final(&power, &marked.phase));
                if marked.adjudicated {
                    self.say(words::adjudicated_at_once());
                }
            }
            Err(e) => self.refused(line, &e),
        }
    }

    async fn draw(&mut self, line: usize, yes: bool) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        if self.moved_on(&game_id).await {
            return self.too_late(line, Late::Vote);
        }
        match api::endgame::vote(self.state, &account, &game_id, yes).await {
            Ok(v) => self.say(words::draw_vote(yes, v.drawn)),
            Err(e) => self.refused(line, &e),
        }
    }

    async fn concede(&mut self, line: usize, to: Option<&str>) {
        let Some((account, game_id)) = self.signed_account(line) else {
            return;
        };
        if self.moved_on(&game_id).await {
            return self.too_late(line, Late::Concession);
        }
        match api::endgame::concede_to(self.state, &account, &game_id, to).await {
            Ok(v) => {
                let to = self.named(&game_id, v.concede_to.as_slice()).await;
                self.say(words::concession(to.first(), v.conceded))
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// The account and game signed on to, or an error for the line.
    fn signed_account(&mut self, line: usize) -> Option<(String, String)> {
        match &self.signed {
            Some(s) => Some((s.account.clone(), s.game_id.clone())),
            None => {
                self.fail(line, words::sign_on_first());
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
                self.fail(line, words::no_such_game(name));
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
    fn too_late(&mut self, line: usize, what: Late) {
        self.fail(line, words::too_late(what));
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
            self.fail(line, words::password_checks(MAX_PASSWORD_CHECKS));
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
            self.fail(line, words::no_member_with_address(game_name));
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

    /// The player of `power` in the game: the account and the power's names; None when there is
    /// none (told).
    async fn player_of(
        &mut self,
        line: usize,
        g: &api::Game,
        game_name: &str,
        power: &str,
    ) -> Option<(String, PowerName)> {
        let name = match crate::variants::of_game(g)
            .map_err(ApiError::from)
            .and_then(|v| Ok(crate::variants::power_name(&v, &api::power_key(&v, power)?)))
        {
            Ok(name) => name,
            Err(e) => {
                self.refused(line, &e);
                return None;
            }
        };
        match reads::player_of(&self.state.store.pool, &g.id, &name.key).await {
            Ok(Some(account)) => Some((account, name)),
            Ok(None) => {
                self.fail(line, words::nobody_plays(&name, game_name));
                None
            }
            Err(e) => {
                self.refused(line, &e.into());
                None
            }
        }
    }

    /// Powers `keys` of game `game_id` as readers see them.
    async fn named(&self, game_id: &str, keys: &[String]) -> Vec<PowerName> {
        match api::game(self.state, game_id).await {
            Ok(g) => keys.iter().map(|k| name_in(&g, k)).collect(),
            Err(_) => keys.iter().map(|k| PowerName::bare(k)).collect(),
        }
    }

    /// Power `key` named as the signed-on power is (its key alone if it is another).
    fn signed_name(&self, key: &str) -> PowerName {
        match self.signed.as_ref().and_then(|s| s.power.as_ref()) {
            Some(name) if name.key.eq_ignore_ascii_case(key) => name.clone(),
            _ => PowerName::bare(key),
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
        let (account, power_name) = match power {
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
                Some((account, key)) => (account, key.map(|k| name_in(&g, &k))),
                None => return,
            },
        };
        let deadline = g
            .deadline_ms
            .map(|ms| g.deadline_rule().describe(ms))
            .unwrap_or_else(|| "-".into());
        let phase = g.phase.clone().unwrap_or_else(|| "-".into());
        let part = match &power_name {
            Some(power) => Part::Power(power.clone()),
            None if g.master == account => Part::Master,
            None => Part::Observer,
        };
        self.say(words::signed_on(&part, &game_name, &phase, &deadline));
        self.signed = Some(Signed {
            game_id,
            account,
            power: power_name,
        });
    }

    /// Refuses a sign-on or join whose password (or address) did not match (each account it was
    /// checked against has counted a failed log-in).
    async fn wrong_password(&mut self, line: usize) {
        self.mismatched.clear();
        self.fail(line, words::wrong_password());
    }

    /// A new account for the sender's address; the reply (to that address) carries the code
    /// that confirms it.
    async fn register(&mut self, line: usize, name: &str, password: &str, lang: Option<&str>) {
        if std::mem::replace(&mut self.registered, true) {
            self.fail(line, words::one_register());
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
            Ok(crate::app::accounts::Created { code, .. }) => {
                let said = words::account_created(name, &self.from, &code);
                self.say(said);
            }
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
            return self.fail(line, words::no_code_waits());
        };
        match api::accounts::confirm_address(self.state, &self.source(), &account, code).await {
            Ok(_) => {
                let said = words::address_confirmed(&self.from);
                self.say(said);
            }
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
                let wishes = self.named(&game_id, &v.preferences).await;
                self.say(words::joined(&game_name, &wishes));
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// CREATE: a new game with the options written, mastered by the sender's account.
    async fn create(&mut self, line: usize, game: &str, password: &str, variant: &str, options: &[String]) {
        self.mismatched.clear();
        let mut new = api::games::NewGame::named(game, variant);
        for option in options {
            if let Err(word) = crate::mail::options::apply(&mut new, option) {
                return self.fail(line, words::bad_game_option(&word));
            }
        }
        let Some(account) = self.account_of_address(line, password).await else {
            return;
        };
        match api::games::create(self.state, &account, &new).await {
            Ok(created) => {
                let options: String = options.iter().map(|o| format!(", {o}")).collect();
                self.say(words::created(&created.name, &created.variant, &options));
            }
            Err(e) => self.refused(line, &e),
        }
    }

    /// START: the game's master starts it.
    async fn start(&mut self, line: usize, game: &str, password: &str) {
        self.mismatched.clear();
        let Some((game_id, game_name)) = self.find_game(line, game).await else {
            return;
        };
        let Some(account) = self.account_of_address(line, password).await else {
            return;
        };
        match api::games::start(self.state, &account, &game_id).await {
            Ok(started) => self.say(words::started(&game_name, started.lot_seed)),
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
        self.fail(line, words::no_account_with_password());
        None
    }

    async fn list_games(&mut self, line: usize) {
        let games = match reads::game_lines(&self.state.store.pool).await {
            Ok(games) => games,
            Err(e) => return self.refused(line, &e.into()),
        };
        if games.is_empty() {
            self.say(words::no_games());
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
            let status = pick(words::status_word(status), self.german);
            self.out.push(format!(
                "  {:<20} {:<10} {status:<9} {:<9} {} {} {deadline}",
                g.name,
                g.variant,
                g.phase.unwrap_or_else(|| "-".into()),
                g.players,
                pick(words::players(), self.german)
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
        self.say(words::game_line(
            &g.name,
            &g.variant,
            (g.status, g.press),
            &phase,
            &deadline,
        ));
        let members = match reads::member_lines(&self.state.store.pool, &game_id).await {
            Ok(members) => members,
            Err(e) => return self.refused(line, &e.into()),
        };
        for m in members {
            let name = m.name;
            let what = match &m.power {
                Some(key) => name_in(&g, key).in_lang(self.german).to_string(),
                None => pick(words::role_word(m.role), self.german),
            };
            let disorder = if m.civil_disorder {
                pick(words::civil_disorder(), self.german)
            } else {
                String::new()
            };
            self.out.push(format!("  {what:<10} {name}{disorder}"));
        }
    }

    async fn history(&mut self, line: usize, game: Option<&str>, phase: Option<&str>) {
        let game_id = match (game, &self.signed) {
            (None, Some(s)) => s.game_id.clone(),
            (None, None) => {
                return self.fail(line, words::which_game());
            }
            (Some(name), _) => match self.find_game(line, name).await {
                Some((id, _)) => id,
                None => return,
            },
        };
        // The signed-on account reads what it may read on the web: its games, and ended ones.
        let account = self.signed.as_ref().map_or("", |s| s.account.as_str()).to_string();
        let lang = self.lang();
        let record = match SqlUnit::begin(&self.state.store).await {
            Ok(mut unit) => crate::app::results::record(&mut unit, &account, &game_id, lang).await,
            Err(e) => Err(e.into()),
        };
        let record = match record {
            Ok(record) => record,
            Err(DomainError::OnlyMembersSeeResults) => {
                let name = game.unwrap_or_default();
                return self.fail(line, words::reports_for_members(name));
            }
            Err(e) => return self.refused(line, &e.into()),
        };
        let mut reports: Vec<(String, String)> = record
            .reports
            .into_iter()
            .filter(|(p, _)| phase.is_none_or(|want| p.eq_ignore_ascii_case(want)))
            .collect();
        if reports.is_empty() {
            return self.fail(line, words::no_phase_matches());
        }
        const MOST: usize = 12;
        if reports.len() > MOST {
            let skipped = reports.len() - MOST;
            reports.drain(..skipped);
            self.say(words::last_phases(MOST, skipped));
        }
        for (_, report) in reports {
            self.out.push(String::new());
            self.out.extend(report.lines().map(str::to_string));
        }
    }
}

/// Power `key` of game `g` as readers see it (by its key alone if the game's variant is unknown).
fn name_in(g: &api::Game, key: &str) -> PowerName {
    match crate::variants::of_game(g) {
        Ok(v) => crate::variants::power_name(&v, key),
        Err(_) => PowerName::bare(key),
    }
}

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
