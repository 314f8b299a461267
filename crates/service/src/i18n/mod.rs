//! The judge's words in English and German for what the domain says: refusals
//! ([`DomainError`]) and notifications ([`Notification`]). One word per idea (civil disorder is
//! "Anarchie" everywhere). The web pages' own labels live in `web/text.rs`.

mod notifications;

pub use notifications::{notification, speaker};

use crate::domain::DomainError;

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
        DomainError::AdjudicatedAlready(phase) => (
            format!("{phase} is adjudicated already"),
            format!("{phase} ist schon ausgewertet"),
        ),
        DomainError::NotDue(phase) => (
            format!("{phase} is not due: adjudicated already, extended or paused"),
            format!("{phase} ist nicht fällig: schon ausgewertet, verlängert oder angehalten"),
        ),
        DomainError::AdjudicationFailed => (
            "the judge could not adjudicate this phase".into(),
            "Der Spielleiter konnte diese Phase nicht auswerten".into(),
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
