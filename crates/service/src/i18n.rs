//! The judge's words in English and German for what the domain says: refusals
//! ([`DomainError`]) and notifications ([`Notification`]). One word per idea (civil disorder is
//! "Anarchie" everywhere). The web pages' own labels live in `web/text.rs`.

use spielleiter_engine::report::Lang;

use crate::domain::{DomainError, Notification, Speaker};

/// A refusal in English and German.
pub fn refusal(e: &DomainError) -> (String, String) {
    let (en, de): (String, String) = match e {
        DomainError::NoSuchGame => ("no such game".into(), "Diese Partie gibt es nicht".into()),
        DomainError::UnknownVariant(name) => (
            format!("unknown variant `{name}`"),
            format!("Unbekannte Variante `{name}`"),
        ),
        DomainError::NotRunning => ("the game is not running".into(), "Die Partie läuft nicht".into()),
        DomainError::NotStarted => (
            "the game has not started".into(),
            "Die Partie hat noch nicht begonnen".into(),
        ),
        DomainError::GameOver => ("the game is over".into(), "Die Partie ist beendet".into()),
        DomainError::OnlyPlayersVote => (
            "only the game's players vote".into(),
            "Nur die Spieler der Partie stimmen ab".into(),
        ),
        DomainError::OnlySurvivorsVote => (
            "only surviving powers vote".into(),
            "Nur überlebende Mächte stimmen ab".into(),
        ),
        DomainError::OnlyMembersSendPress => (
            "only the game's players and master send press".into(),
            "Nur die Spieler und die Spielleitung der Partie senden Presse".into(),
        ),
        DomainError::NoPress => (
            "this is a no-press game".into(),
            "In dieser Partie gibt es keine Presse".into(),
        ),
        DomainError::BadPressLength { max } => (
            format!("a message has 1 to {max} characters"),
            format!("Eine Nachricht hat 1 bis {max} Zeichen"),
        ),
        DomainError::UnknownPower(name) => (format!("unknown power `{name}`"), format!("Unbekannte Macht `{name}`")),
        DomainError::ConcedeToSelf => (
            "a power concedes to another power".into(),
            "Eine Macht gibt an eine andere Macht auf".into(),
        ),
        DomainError::Eliminated(power) => (
            format!("{power} has been eliminated"),
            format!("{power} ist ausgeschieden"),
        ),
        DomainError::Unreadable(what) => (
            format!("the judge could not read {what} as stored"),
            format!("Der Spielleiter konnte gespeicherte Daten ({what}) nicht lesen"),
        ),
        DomainError::Store => (
            "the judge could not store or read data".into(),
            "Der Spielleiter konnte Daten nicht speichern oder lesen".into(),
        ),
    };
    (en, de)
}

/// A notification's subject and text in the reader's language.
pub fn notification(n: &Notification, lang: Lang) -> (String, String) {
    let de = lang == Lang::De;
    match n {
        Notification::GraceStarted { game, minutes } if de => (
            format!("Befehle verspätet: {game}"),
            format!(
                "Die Abgabefrist von {game} ist ohne Ihre Befehle verstrichen. Während der Nachfrist von {minutes} Minuten werden sie noch angenommen.\n"
            ),
        ),
        Notification::GraceStarted { game, minutes } => (
            format!("Late orders: {game}"),
            format!(
                "The deadline of {game} has passed without your orders. They are still accepted during the grace period of {minutes} minutes.\n"
            ),
        ),
        Notification::Drawn { game, powers } if de => (
            format!("Diplomacy-Partie {game} ist beendet"),
            format!("Die Partie {game} endet remis zwischen {}.\n", powers.join(", ")),
        ),
        Notification::Drawn { game, powers } => (
            format!("Diplomacy game {game} is over"),
            format!("The game {game} ends in a draw shared by {}.\n", powers.join(", ")),
        ),
        Notification::Conceded { game, winner } if de => (
            format!("Diplomacy-Partie {game} ist beendet"),
            format!("Die anderen Überlebenden geben die Partie {game} an {winner} auf.\n"),
        ),
        Notification::Conceded { game, winner } => (
            format!("Diplomacy game {game} is over"),
            format!("The other survivors concede the game {game} to {winner}.\n"),
        ),
        Notification::Press {
            game,
            from,
            to,
            phase,
            body,
        } => press(game, &speaker(from, lang), to, phase, body, de),
    }
}

/// The name a message's sender is shown by.
pub fn speaker(s: &Speaker, lang: Lang) -> String {
    match (s, lang) {
        (Speaker::Master, Lang::De) => "Spielleitung".into(),
        (Speaker::Master, _) => "Game master".into(),
        (Speaker::Hidden, _) => "?".into(),
        (Speaker::Power(p), _) => p.clone(),
    }
}

/// The subject and text of a press mail.
fn press(game: &str, from: &str, to: &[String], phase: &str, body: &str, de: bool) -> (String, String) {
    let to_line = match (de, to.is_empty()) {
        (false, true) => "all".to_string(),
        (true, true) => "alle".to_string(),
        (_, false) => to.join(", "),
    };
    let subject = match (de, to.is_empty()) {
        (false, true) => format!("Diplomacy game {game}: press from {from} to all"),
        (false, false) => format!("Diplomacy game {game}: press from {from}"),
        (true, true) => format!("Diplomacy-Partie {game}: Presse von {from} an alle"),
        (true, false) => format!("Diplomacy-Partie {game}: Presse von {from}"),
    };
    let text = if de {
        format!("Von: {from}\nAn: {to_line}\nPhase: {phase}\n\n{}\n", body.trim())
    } else {
        format!("From: {from}\nTo: {to_line}\nPhase: {phase}\n\n{}\n", body.trim())
    };
    (subject, text)
}
