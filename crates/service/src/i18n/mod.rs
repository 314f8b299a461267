//! The judge's words in English and German for what the domain says: refusals
//! ([`DomainError`]) and notifications ([`Notification`]). One word per idea (civil disorder is
//! "Anarchie" everywhere). The web pages' own labels live in `web/text.rs`.

mod notifications;

pub use notifications::{notification, speaker};

use crate::domain::{DomainError, MasterAction};

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
        DomainError::OnlyMaster(action) => {
            let what = match action {
                MasterAction::Start => "starts the game",
                MasterAction::Adjudicate => "adjudicates before the deadline",
                MasterAction::Extend => "extends deadlines",
                MasterAction::Pause => "pauses the game",
                MasterAction::Resume => "resumes the game",
                MasterAction::Replace => "replaces players",
            };
            (
                format!("only the game master {what}"),
                "Nur die Spielleitung darf das".into(),
            )
        }
        DomainError::BadExtension => (
            "an extension is 1 second to 7 days".into(),
            "Eine Verlängerung ist 1 Sekunde bis 7 Tage lang".into(),
        ),
        DomainError::Paused => (
            "the game is paused: resume it first".into(),
            "Die Partie ruht: erst fortsetzen".into(),
        ),
        DomainError::ExtensionsUsed(max) => (
            format!("a phase's deadline is extended at most {max} times, and only while it runs"),
            format!("Die Abgabefrist einer Phase wird höchstens {max}-mal verlängert, und nur solange sie läuft"),
        ),
        DomainError::PausedAlready => (
            "the game is paused already, or its phase has just been adjudicated".into(),
            "Die Partie ruht schon, oder ihre Phase wurde gerade ausgewertet".into(),
        ),
        DomainError::NotPaused => ("the game is not paused".into(), "Die Partie ruht nicht".into()),
        DomainError::NoSuchAccount => ("no such account".into(), "Dieses Konto gibt es nicht".into()),
        DomainError::PlaysAlready => (
            "that account plays in this game already".into(),
            "Dieses Konto spielt schon in dieser Partie".into(),
        ),
        DomainError::OnlyPlayersOrder => (
            "only the game's players give orders".into(),
            "Nur die Spieler der Partie geben Befehle".into(),
        ),
        DomainError::PhaseClosed(phase) => (
            format!("{phase} was adjudicated while your orders arrived: read the result and order for the next phase"),
            format!(
                "{phase} wurde ausgewertet, während Ihre Befehle eintrafen: Ergebnis lesen und für die nächste Phase befehlen"
            ),
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
