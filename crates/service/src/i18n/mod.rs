//! The judge's words in English and German for what the domain says: refusals
//! ([`DomainError`]) and notifications ([`Notification`]). One word per idea (civil disorder is
//! "Anarchie" everywhere). The web pages' own labels live in `web/text.rs`.

pub mod mail;
mod notifications;

pub use notifications::{notification, speaker};

use crate::domain::account::AccountError;
use crate::domain::{DomainError, Limited, MasterAction, MasterError, SeatError, SettingError};

/// Words in English and German.
fn t(en: &str, de: &str) -> (String, String) {
    (en.to_string(), de.to_string())
}

/// A refusal in English and German.
pub fn refusal(e: &DomainError) -> (String, String) {
    match e {
        DomainError::NoSuchGame => t("no such game", "Diese Partie gibt es nicht"),
        DomainError::UnknownVariant(n) => (format!("unknown variant `{n}`"), format!("Unbekannte Variante `{n}`")),
        DomainError::NotRunning => t("the game is not running", "Die Partie läuft nicht"),
        DomainError::NotStarted => t("the game has not started", "Die Partie hat noch nicht begonnen"),
        DomainError::GameOver => t("the game is over", "Die Partie ist beendet"),
        DomainError::OnlyPlayersVote => t("only the game's players vote", "Nur die Spieler der Partie stimmen ab"),
        DomainError::OnlySurvivorsVote => t("only surviving powers vote", "Nur überlebende Mächte stimmen ab"),
        DomainError::OnlyMembersSendPress => t(
            "only the game's players and master send press",
            "Nur die Spieler und die Spielleitung der Partie senden Presse",
        ),
        DomainError::NoPress => t("this is a no-press game", "In dieser Partie gibt es keine Presse"),
        DomainError::BadPressLength { max: m } => (
            format!("a message has 1 to {m} characters"),
            format!("Eine Nachricht hat 1 bis {m} Zeichen"),
        ),
        DomainError::UnknownPower(name) => (format!("unknown power `{name}`"), format!("Unbekannte Macht `{name}`")),
        DomainError::NotPlayable(name) => (
            format!("`{name}` is a country no player plays: wish for one of the powers"),
            format!("`{name}` ist ein Land, das kein Spieler spielt: bitte eine der Mächte wünschen"),
        ),
        DomainError::ConcedeToSelf => t(
            "a power concedes to another power",
            "Eine Macht gibt an eine andere Macht auf",
        ),
        DomainError::Eliminated(p) => eliminated(p),
        DomainError::Setting(setting) => setting_refusal(setting),
        DomainError::Seat(seat) => seat_refusal(seat),
        DomainError::Master(master) => master_refusal(master),
        DomainError::OnlyPlayersHaveOrders => t(
            "only the game's players have orders",
            "Nur die Spieler der Partie haben Befehle",
        ),
        DomainError::OnlyMembersSeeResults => t(
            "only the game's members see its results",
            "Nur die Teilnehmer der Partie sehen ihre Ergebnisse",
        ),
        DomainError::NoSuchPhase => t("no such adjudicated phase", "Keine ausgewertete Phase dieses Namens"),
        DomainError::OnlyPlayersOrder => t(
            "only the game's players give orders",
            "Nur die Spieler der Partie geben Befehle",
        ),
        DomainError::PhaseClosed(phase) => (
            format!("{phase} was adjudicated while your orders arrived: read the result and order for the next phase"),
            format!(
                "{phase} wurde ausgewertet, während Ihre Befehle eintrafen: Ergebnis lesen und für die nächste Phase befehlen"
            ),
        ),
        DomainError::AdjudicatedAlready(p) => (
            format!("{p} is adjudicated already"),
            format!("{p} ist schon ausgewertet"),
        ),
        DomainError::NotDue(phase) => (
            format!("{phase} is not due: adjudicated already, extended or paused"),
            format!("{phase} ist nicht fällig: schon ausgewertet, verlängert oder angehalten"),
        ),
        DomainError::AdjudicationFailed => t(
            "the judge could not adjudicate this phase",
            "Der Spielleiter konnte diese Phase nicht auswerten",
        ),
        DomainError::Unreadable(what) => (
            format!("the judge could not read {what} as stored"),
            format!("Der Spielleiter konnte gespeicherte Daten ({what}) nicht lesen"),
        ),
        DomainError::Store => t(
            "the judge could not store or read data",
            "Der Spielleiter konnte Daten nicht speichern oder lesen",
        ),
        DomainError::NotLoggedIn => t(
            "log in first (Authorization: Bearer TOKEN)",
            "Bitte zuerst anmelden (Authorization: Bearer TOKEN)",
        ),
        DomainError::Account(e) => account_refusal(e),
        DomainError::RateLimited { what, wait_ms } => limit_refusal(*what, *wait_ms),
    }
}

/// Too many attempts: try again after `wait_ms`.
fn limit_refusal(what: Limited, wait_ms: i64) -> (String, String) {
    let seconds = wait_ms / 1000 + 1;
    let what = match what {
        Limited::LogIns => "failed log-ins",
        Limited::SignUps => "sign-ups",
        Limited::Orders => "order submissions",
        Limited::Echoes => "order echoes",
    };
    (
        format!("too many {what}: try again in {seconds} seconds"),
        format!("Zu viele Versuche: in {seconds} Sekunden noch einmal"),
    )
}

/// A second order for a unit in one submission: the first, on `line`, stands.
pub fn second_order(line: usize, first: &str) -> (String, String) {
    (
        format!("a second order for the unit ordered on line {line} ({first}): not kept; the first one stands"),
        format!("ein zweiter Befehl für die Einheit aus Zeile {line} ({first}): nicht angenommen; der erste gilt"),
    )
}

/// A request about an account refused.
fn account_refusal(e: &AccountError) -> (String, String) {
    match e {
        AccountError::BadName => t(
            "a name has 1 to 40 letters, digits, spaces, _ or -",
            "Ein Name hat 1 bis 40 Buchstaben, Ziffern, Leerzeichen, _ oder -",
        ),
        AccountError::NameTaken(name) => (
            format!("the name `{name}` is taken"),
            format!("Der Name `{name}` ist vergeben"),
        ),
        AccountError::WeakPassword => t(
            "a password has at least 8 characters",
            "Ein Passwort hat mindestens 8 Zeichen",
        ),
        AccountError::UnusablePassword => t("this password cannot be used", "Dieses Passwort ist nicht verwendbar"),
        AccountError::BadEmail => t(
            "this is not one e-mail address (name@example.org)",
            "Das ist keine einzelne E-Mail-Adresse (name@example.org)",
        ),
        AccountError::BadLang => t("the language is en or de", "Die Sprache ist en oder de"),
        AccountError::WrongPassword => t("the password in use is wrong", "Das bisherige Passwort ist falsch"),
        AccountError::BadLogin => t(
            "unknown name or wrong password",
            "Unbekannter Name oder falsches Passwort",
        ),
        AccountError::ChangedMeanwhile => t(
            "the account changed meanwhile: try again",
            "Das Konto wurde inzwischen geändert: bitte noch einmal versuchen",
        ),
        AccountError::NoNewAddress => t(
            "no new address waits for a code",
            "Keine neue Adresse wartet auf einen Code",
        ),
        AccountError::CodeExpired => t(
            "the code has expired: enter the address again",
            "Der Code ist abgelaufen: bitte die Adresse noch einmal eingeben",
        ),
        AccountError::BadCode(email) => (
            format!("this is not the code mailed to {email}"),
            format!("Das ist nicht der Code, der an {email} ging"),
        ),
    }
}

/// A game's record as text: a heading, then each report.
pub fn record_text(r: &crate::app::results::Record, lang: spielleiter_engine::report::Lang) -> String {
    let title = match lang {
        spielleiter_engine::report::Lang::En => format!("Diplomacy game {} ({})", r.game.name, r.variant_title),
        spielleiter_engine::report::Lang::De => format!("Diplomacy-Partie {} ({})", r.game.name, r.variant_title),
    };
    let mut text = format!("{title}\n{}\n", "=".repeat(title.chars().count()));
    for (_, report) in &r.reports {
        text.push('\n');
        text.push_str(report.trim_end());
        text.push('\n');
    }
    text
}

/// A master's action refused.
fn master_refusal(e: &MasterError) -> (String, String) {
    match e {
        MasterError::OnlyMaster(action) => (format!("only the game master {}", master_action(*action)), de_master()),
        MasterError::BadExtension => t(
            "an extension is 1 second to 7 days",
            "Eine Verlängerung ist 1 Sekunde bis 7 Tage lang",
        ),
        MasterError::Paused => t(
            "the game is paused: resume it first",
            "Die Partie ruht: erst fortsetzen",
        ),
        MasterError::ExtensionsUsed(max) => (
            format!("a phase's deadline is extended at most {max} times, and only while it runs"),
            format!("Die Abgabefrist einer Phase wird höchstens {max}-mal verlängert, und nur solange sie läuft"),
        ),
        MasterError::PausedAlready => t(
            "the game is paused already, or its phase has just been adjudicated",
            "Die Partie ruht schon, oder ihre Phase wurde gerade ausgewertet",
        ),
        MasterError::NotPaused => t("the game is not paused", "Die Partie ruht nicht"),
        MasterError::NoSuchAccount => t("no such account", "Dieses Konto gibt es nicht"),
        MasterError::PlaysAlready => t(
            "that account plays in this game already",
            "Dieses Konto spielt schon in dieser Partie",
        ),
    }
}

/// A setting out of its bounds.
fn setting_refusal(e: &SettingError) -> (String, String) {
    match e {
        SettingError::BadPressPolicy => t("press is full, grey or none", "Presse ist full, grey oder none"),
        SettingError::BadPhaseLength => t(
            "deadlines are 1 second to 60 days",
            "Abgabefristen sind 1 Sekunde bis 60 Tage lang",
        ),
        SettingError::BadNmrLimit => t(
            "civil disorder comes after 1 to 10 missed turns",
            "Anarchie folgt nach 1 bis 10 versäumten Zügen",
        ),
        SettingError::BadGrace => t(
            "a grace period is 0 seconds to 7 days",
            "Eine Nachfrist ist 0 Sekunden bis 7 Tage lang",
        ),
        SettingError::BadReminder => t(
            "reminders come 0 (none) to 336 hours before a deadline",
            "Erinnerungen kommen 0 (keine) bis 336 Stunden vor einer Abgabefrist",
        ),
        SettingError::BadDeadlineRule(why) => (why.clone(), why.clone()),
        SettingError::BadRuleOption(why) => (
            format!("a game option this variant does not allow: {why}"),
            format!("Eine Spieloption, die diese Variante nicht erlaubt: {why}"),
        ),
        SettingError::BadGameName => t(
            "a game's name has 1 to 40 visible characters (no line breaks, control or direction marks)",
            "Der Name einer Partie hat 1 bis 40 sichtbare Zeichen (keine Zeilenumbrüche, Steuer- oder Richtungszeichen)",
        ),
        SettingError::GameNameTaken(n) => (
            format!("a game `{n}` exists"),
            format!("Eine Partie `{n}` gibt es schon"),
        ),
    }
}

/// Why a member cannot join, or the game cannot start.
fn seat_refusal(e: &SeatError) -> (String, String) {
    match e {
        SeatError::JoinAsObserver => t(
            "the game has started: join as an observer",
            "Die Partie hat begonnen: als Beobachter beitreten",
        ),
        SeatError::GameFull => t("the game is full", "Die Partie ist voll"),
        SeatError::MemberAlready => t("you are in this game already", "Sie sind schon in dieser Partie"),
        SeatError::StartedAlready => t("the game has started already", "Die Partie hat schon begonnen"),
        SeatError::NotJoined => t(
            "you have not joined this game as a player",
            "Sie sind dieser Partie nicht als Spieler beigetreten",
        ),
        SeatError::PlayerCount(max) => (
            format!("a game of this variant needs 2 to {max} players"),
            format!("Eine Partie dieser Variante braucht 2 bis {max} Spieler"),
        ),
    }
}

/// What only the master does, in English (the German refusal names no action).
fn master_action(action: MasterAction) -> &'static str {
    match action {
        MasterAction::Start => "starts the game",
        MasterAction::Adjudicate => "adjudicates before the deadline",
        MasterAction::Extend => "extends deadlines",
        MasterAction::Pause => "pauses the game",
        MasterAction::Resume => "resumes the game",
        MasterAction::Replace => "replaces players",
    }
}

/// The German refusal of a master's action to anyone else.
fn de_master() -> String {
    "Nur die Spielleitung darf das".to_string()
}
/// A concession to an eliminated power, named in both languages.
fn eliminated(p: &crate::domain::PowerName) -> (String, String) {
    (
        format!("{} has been eliminated", p.en),
        format!("{} ist ausgeschieden", p.de),
    )
}
