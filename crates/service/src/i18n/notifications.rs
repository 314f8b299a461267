//! The notifications' subjects and texts in English and German.

use spielleiter_engine::report::Lang;

use crate::domain::{Notification, PhaseResult, PowerName, Speaker};

/// A notification's subject and text in the reader's language.
pub fn notification(n: &Notification, lang: Lang) -> (String, String) {
    let de = lang == Lang::De;
    match n {
        Notification::GraceStarted { game, minutes } => grace(game, *minutes, de),
        Notification::Drawn { game, powers } => ended(game, &Ending::Draw(&PowerName::list(powers, de)), de),
        Notification::Conceded { game, winner } => ended(game, &Ending::Concession(winner.in_lang(de)), de),
        Notification::Result(r) => result(r, lang),
        Notification::Press {
            game,
            from,
            to,
            phase,
            body,
        } => press(
            game,
            &named_speaker(from, lang),
            &PowerName::list(to, de),
            phase,
            body,
            de,
        ),
        Notification::AddressCode {
            account,
            code,
            link,
            first,
            hours,
        } => address_code(account, code, link.as_deref(), *first, *hours, de),
        Notification::AddressChanged { account, email } => address_changed(account, email),
        Notification::GameStarted {
            game,
            power,
            seed,
            first_deadline,
            retreats_with_moves,
            year_at_once,
        } => started(
            game,
            power.in_lang(de),
            *seed,
            first_deadline,
            (*retreats_with_moves, *year_at_once),
            de,
        ),
        Notification::DeadlineExtended {
            game,
            minutes,
            deadline,
        } => extended(game, *minutes, deadline, de),
        Notification::Paused { game } => paused(game, de),
        Notification::Resumed { game, deadline } => resumed(game, deadline, de),
        Notification::NewPlayer { game, player, power } => new_player(game, player, power.in_lang(de), de),
        Notification::ForYouAlone {
            game,
            phase,
            power,
            lines_en,
            lines_de,
        } => for_you_alone(game, phase, power.in_lang(de), if de { lines_de } else { lines_en }, de),
        Notification::OrdersMissing {
            game,
            phase,
            power,
            deadline,
        } => missing(game, phase, power.in_lang(de), deadline, de),
    }
}

fn grace(game: &str, minutes: i64, de: bool) -> (String, String) {
    if de {
        (
            format!("Befehle verspätet: {game}"),
            format!(
                "Die Abgabefrist von {game} ist ohne Ihre Befehle verstrichen. Während der Nachfrist von {minutes} Minuten werden sie noch angenommen.\n"
            ),
        )
    } else {
        (
            format!("Late orders: {game}"),
            format!(
                "The deadline of {game} has passed without your orders. They are still accepted during the grace period of {minutes} minutes.\n"
            ),
        )
    }
}

/// How a game ended by agreement.
enum Ending<'a> {
    Draw(&'a str),
    Concession(&'a str),
}

fn ended(game: &str, how: &Ending, de: bool) -> (String, String) {
    let subject = if de {
        format!("Diplomacy-Partie {game} ist beendet")
    } else {
        format!("Diplomacy game {game} is over")
    };
    let body = match (how, de) {
        (Ending::Draw(powers), true) => format!("Die Partie {game} endet remis zwischen {powers}.\n"),
        (Ending::Draw(powers), false) => format!("The game {game} ends in a draw shared by {powers}.\n"),
        (Ending::Concession(winner), true) => {
            format!("Die anderen Überlebenden geben die Partie {game} an {winner} auf.\n")
        }
        (Ending::Concession(winner), false) => format!("The other survivors concede the game {game} to {winner}.\n"),
    };
    (subject, body)
}

/// The name a message's sender is shown by (a power by its key).
pub fn speaker(s: &Speaker, lang: Lang) -> String {
    match s {
        Speaker::Master => master_name(lang),
        Speaker::Hidden => "?".into(),
        Speaker::Power(key) => key.clone(),
    }
}

/// The name a press mail's sender is shown by, in the reader's language.
fn named_speaker(s: &Speaker<PowerName>, lang: Lang) -> String {
    match s {
        Speaker::Master => master_name(lang),
        Speaker::Hidden => "?".into(),
        Speaker::Power(p) => p.in_lang(lang == Lang::De).to_string(),
    }
}

/// The game master, as a sender.
fn master_name(lang: Lang) -> String {
    match lang {
        Lang::De => "Spielleitung".into(),
        _ => "Game master".into(),
    }
}

/// The subject and text of a press mail.
fn press(game: &str, from: &str, to: &str, phase: &str, body: &str, de: bool) -> (String, String) {
    let to_line = match (de, to.is_empty()) {
        (false, true) => "all",
        (true, true) => "alle",
        (_, false) => to,
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

/// English or German.
fn pick(de: bool, en: (String, String), german: (String, String)) -> (String, String) {
    if de { german } else { en }
}

/// The start mail; `house` tells which house rules are in force (retreats only with the moves,
/// a year's orders at once).
fn started(
    game: &str,
    power: &str,
    seed: i64,
    first_deadline: &str,
    house: (bool, bool),
    de: bool,
) -> (String, String) {
    let (with_moves, year_at_once) = house;
    let (subject, mut body) = pick(
        de,
        (
            format!("Game started: {game}"),
            format!(
                "The game {game} has started. You play {power}.\nThe lot that settled equal wishes used the seed {seed}.\nThe first deadline is {first_deadline}.\n"
            ),
        ),
        (
            format!("Partie begonnen: {game}"),
            format!(
                "Die Partie {game} hat begonnen. Sie spielen {power}.\nDas Los für gleiche Wünsche benutzte den Startwert {seed}.\nDie erste Abgabefrist endet am {first_deadline}.\n"
            ),
        ),
    );
    if with_moves {
        body.push_str(if de {
            "\nHausregel: Rückzüge nur mit den Zügen. Es gibt keine Rückzugsphase: schicken Sie Rückzüge mit den Bewegungsbefehlen (A Par R Gas, Rangfolgen wie F Bre R Eng, Pic, Gas, Bedingungen wie falls von Russland vertrieben: …). Eine vertriebene Einheit ohne solchen Befehl wird aufgelöst.\n"
        } else {
            "\nHouse rule: retreats only with the moves. No retreat phase is held: send retreats with your movement orders (A Par R Gas, priority lists such as F Bre R Eng, Pic, Gas, conditions such as if dislodged by Russia: …). A dislodged unit without one is disbanded.\n"
        });
    }
    if year_at_once {
        body.push_str(if de {
            "\nHausregel: ein Spieljahr auf einmal. Die Abgabefrist gilt für das ganze Jahr: schicken Sie die Befehle für Frühjahr, Rückzüge, Herbst, Rückzüge und Winter zusammen, jede spätere Phase unter ihrer Überschrift (F1901M:, W1901A:), gern bedingt (WENN F Bre - Eng gelingt DANN … SONST …). Zur Frist werden die Phasen des Jahres nacheinander ausgewertet.\n"
        } else {
            "\nHouse rule: a year's orders at once. The deadline is for the whole year: send the orders for spring, its retreats, fall, its retreats and winter together, each later phase under its heading (F1901M:, W1901A:), conditional if you like (IF F Bre - Eng succeeds THEN … ELSE …). At the deadline the year's phases are adjudicated one after another.\n"
        });
    }
    (subject, body)
}

fn extended(game: &str, minutes: i64, deadline: &str, de: bool) -> (String, String) {
    pick(
        de,
        (
            format!("Deadline extended: {game}"),
            format!("The game master has extended the deadline of {game} by {minutes} minutes, to {deadline}.\n"),
        ),
        (
            format!("Abgabefrist verlängert: {game}"),
            format!(
                "Die Spielleitung hat die Abgabefrist von {game} um {minutes} Minuten verlängert, bis {deadline}.\n"
            ),
        ),
    )
}

fn paused(game: &str, de: bool) -> (String, String) {
    pick(
        de,
        (
            format!("Game paused: {game}"),
            format!("The game master has paused {game}. The clock stands still until it resumes.\n"),
        ),
        (
            format!("Partie angehalten: {game}"),
            format!("Die Spielleitung hat {game} angehalten. Die Uhr steht still, bis sie fortgesetzt wird.\n"),
        ),
    )
}

fn resumed(game: &str, deadline: &str, de: bool) -> (String, String) {
    pick(
        de,
        (
            format!("Game resumed: {game}"),
            format!("The game master has resumed {game}. The deadline is {deadline}.\n"),
        ),
        (
            format!("Partie fortgesetzt: {game}"),
            format!("Die Spielleitung hat {game} fortgesetzt. Die Abgabefrist endet am {deadline}.\n"),
        ),
    )
}

fn new_player(game: &str, player: &str, power: &str, de: bool) -> (String, String) {
    pick(
        de,
        (
            format!("New player: {game}"),
            format!("{player} now plays {power} in {game}.\n"),
        ),
        (
            format!("Neuer Spieler: {game}"),
            format!("{player} spielt jetzt {power} in {game}.\n"),
        ),
    )
}

fn for_you_alone(game: &str, phase: &str, power: &str, lines: &[String], de: bool) -> (String, String) {
    let lines = lines.join("\n");
    if de {
        (
            format!("Nur für Sie: {game} {phase}"),
            format!(
                "Was die Auswertung von {phase} nur {power} mitteilt. Kein anderer Spieler erfährt davon:\n\n{lines}\n"
            ),
        )
    } else {
        (
            format!("For you alone: {game} {phase}"),
            format!(
                "What the adjudication of {phase} tells {power} alone. No other player is told of it:\n\n{lines}\n"
            ),
        )
    }
}

fn missing(game: &str, phase: &str, power: &str, deadline: &str, de: bool) -> (String, String) {
    if de {
        (
            format!("Diplomacy-Partie {game}: Befehle für {phase} fehlen"),
            format!(
                "Der Spielleiter hat noch keine Befehle von {power} für {phase} in der Partie {game}.\n\
                 Abgabeschluss: {deadline}.\n\n\
                 Senden Sie sie per Mail (ANMELDEN {power} {game} Passwort, darunter die Befehle) oder auf der Webseite.\n"
            ),
        )
    } else {
        (
            format!("Diplomacy game {game}: orders for {phase} missing"),
            format!(
                "The judge has no orders from {power} for {phase} in game {game} yet.\n\
                 Deadline: {deadline}.\n\n\
                 Send them by mail (SIGNON {power} {game} password, then the orders) or on the web.\n"
            ),
        )
    }
}

/// A phase's result mail: the report, who sent nothing, who is in civil disorder, the deadline.
fn result(r: &PhaseResult, lang: Lang) -> (String, String) {
    let (subject, mut body, missing, disorder, deadline, verb) = match lang {
        Lang::En => (
            format!("Diplomacy results {} {}", r.game, r.phase),
            r.report_en.clone(),
            "No orders received from",
            "In civil disorder",
            "The deadline for",
            "is",
        ),
        Lang::De => (
            format!("Diplomacy-Ergebnisse {} {}", r.game, r.phase),
            r.report_de.clone(),
            "Keine Befehle erhalten von",
            "In Anarchie",
            "Die Abgabefrist für",
            "endet am",
        ),
    };
    if !r.missing.is_empty() {
        body.push_str(&format!(
            "\n{missing}: {}.\n",
            PowerName::list(&r.missing, lang == Lang::De)
        ));
    }
    if !r.disorder.is_empty() {
        body.push_str(&format!(
            "{disorder}: {}.\n",
            PowerName::list(&r.disorder, lang == Lang::De)
        ));
    }
    if let Some(at) = &r.deadline {
        body.push_str(&format!("\n{deadline} {} {verb} {at}.\n", r.next_phase));
    }
    (subject, body)
}

/// The notice to an address that the account's address was changed: sent where the reader's
/// language is not known, so in both.
fn address_changed(account: &str, email: &str) -> (String, String) {
    (
        "Diplomacy: address changed / Adresse geändert".to_string(),
        format!(
            "The e-mail address of the Diplomacy account {account} was changed to {email}. If this was not you, \
             log in and change your password and address.\n\n\
             Die E-Mail-Adresse des Diplomacy-Kontos {account} wurde auf {email} geändert. Falls Sie das nicht waren, \
             melden Sie sich an und ändern Sie Passwort und Adresse.\n"
        ),
    )
}

/// The mail that brings an address its code. `first`: the address of a new account, which
/// receives no other mail until then; else a new address, while mail still goes to the one in
/// use.
fn address_code(name: &str, code: &str, link: Option<&str>, first: bool, hours: i64, de: bool) -> (String, String) {
    let link = link.map(|url| format!("\n\n{url}\n")).unwrap_or_default();
    let (subject, why, until) = match (de, first) {
        (true, true) => (
            "Diplomacy: Adresse bestätigen",
            format!("Das Diplomacy-Konto {name} wurde mit dieser Adresse angelegt. Um sie zu bestätigen"),
            "bis dahin schickt der Spielleiter keine Post an diese Adresse (keine Ergebnisse, keine Presse)",
        ),
        (true, false) => (
            "Diplomacy: neue Adresse bestätigen",
            format!("Damit das Diplomacy-Konto {name} seine Post an diese Adresse bekommt"),
            "bis dahin geht die Post an die bisherige Adresse",
        ),
        (false, true) => (
            "Diplomacy: confirm your address",
            format!("The Diplomacy account {name} was made with this address. To confirm it"),
            "until then the judge sends no mail to this address (no results, no press)",
        ),
        (false, false) => (
            "Diplomacy: confirm your new address",
            format!("To have the mail of the Diplomacy account {name} sent to this address"),
            "until then mail goes to the address in use",
        ),
    };
    let body = if de {
        format!(
            "{why}, geben Sie auf der Kontoseite diesen Code ein (oder schicken Sie dem Spielleiter \
             von dieser Adresse eine Mail mit der Zeile BESTÄTIGEN und dem Code):\n\n    {code}\n{link}\n\
             Der Code gilt {hours} Stunden; {until}. Falls Sie das nicht veranlasst haben, \
             beachten Sie diese Mail nicht.\n"
        )
    } else {
        format!(
            "{why}, enter this code on the account page (or send the judge a mail from this address \
             with the line CONFIRM and the code):\n\n    {code}\n{link}\n\
             The code holds for {hours} hours; {until}. If you did not ask for this, ignore \
             this mail.\n"
        )
    };
    (subject.to_string(), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(key: &str, en: &str, de: &str) -> PowerName {
        PowerName {
            key: key.into(),
            en: en.into(),
            de: de.into(),
        }
    }

    fn samples() -> Vec<Notification> {
        let game = || "Zugspitze".to_string();
        let france = || named("FRANCE", "France", "Frankreich");
        let italy = || named("ITALY", "Italy", "Italien");
        vec![
            Notification::GraceStarted {
                game: game(),
                minutes: 10,
            },
            Notification::Drawn {
                game: game(),
                powers: vec![france(), named("TURKEY", "Turkey", "Türkei")],
            },
            Notification::Conceded {
                game: game(),
                winner: france(),
            },
            Notification::GameStarted {
                game: game(),
                power: france(),
                seed: 7,
                first_deadline: "Mon 20:00".into(),
                retreats_with_moves: true,
                year_at_once: true,
            },
            Notification::DeadlineExtended {
                game: game(),
                minutes: 60,
                deadline: "Mon 21:00".into(),
            },
            Notification::Paused { game: game() },
            Notification::Resumed {
                game: game(),
                deadline: "Tue 20:00".into(),
            },
            Notification::NewPlayer {
                game: game(),
                player: "ida".into(),
                power: italy(),
            },
            Notification::Result(Box::new(PhaseResult {
                game: game(),
                phase: "S1901M".into(),
                next_phase: "F1901M".into(),
                report_en: "report".into(),
                report_de: "Bericht".into(),
                missing: vec![italy()],
                disorder: vec![italy()],
                deadline: Some("Wed 20:00".into()),
            })),
            Notification::ForYouAlone {
                game: game(),
                phase: "S1901M".into(),
                power: france(),
                lines_en: vec!["A Par R Bur: not used".into()],
                lines_de: vec!["A Par R Bur: nicht verwendet".into()],
            },
            Notification::OrdersMissing {
                game: game(),
                phase: "S1901M".into(),
                power: france(),
                deadline: "Mon 20:00".into(),
            },
            Notification::AddressCode {
                account: "ida".into(),
                code: "ABCD-EFGH".into(),
                link: None,
                first: true,
                hours: 24,
            },
            Notification::Press {
                game: game(),
                from: Speaker::Power(italy()),
                to: vec![france()],
                phase: "S1901M".into(),
                body: "Hello".into(),
            },
        ]
    }

    #[test]
    fn every_notification_has_its_own_english_and_german_words() {
        for n in samples() {
            let (en, de) = (notification(&n, Lang::En), notification(&n, Lang::De));
            assert!(!en.0.is_empty() && en.1.ends_with('\n'), "{n:?}");
            assert_ne!(en, de, "{n:?}");
            assert!(!en.1.contains("Notification") && !de.1.contains("{"), "{n:?}");
        }
    }

    #[test]
    fn civil_disorder_is_one_word_per_language() {
        let result = &samples()[8];
        assert!(notification(result, Lang::De).1.contains("In Anarchie: Italien."));
        assert!(notification(result, Lang::En).1.contains("In civil disorder: Italy."));
        assert!(
            notification(result, Lang::De)
                .1
                .contains("Die Abgabefrist für F1901M endet am Wed 20:00.")
        );
    }

    #[test]
    fn powers_are_named_in_the_readers_language_never_by_their_key() {
        for n in samples() {
            let (en, de) = (notification(&n, Lang::En), notification(&n, Lang::De));
            for key in ["FRANCE", "ITALY", "TURKEY"] {
                assert!(!en.1.contains(key) && !de.1.contains(key), "{n:?}");
            }
            let names = |text: &str, words: &[&str]| words.iter().any(|w| text.contains(w));
            if names(&en.1, &["France", "Italy"]) {
                assert!(names(&de.1, &["Frankreich", "Italien"]), "{n:?}");
                assert!(!names(&de.1, &["France", "Italy"]), "{n:?}");
            }
        }
        let started = notification(&samples()[3], Lang::De).1;
        assert!(started.contains("Sie spielen Frankreich."), "{started}");
        let press = notification(&samples()[samples().len() - 1], Lang::De);
        assert!(
            press.0.contains("Presse von Italien") && press.1.contains("An: Frankreich"),
            "{press:?}"
        );
    }

    #[test]
    fn a_changed_address_is_told_in_both_languages() {
        let n = Notification::AddressChanged {
            account: "ida".into(),
            email: "new@example.org".into(),
        };
        let (subject, body) = notification(&n, Lang::En);
        assert!(subject.contains("address changed") && subject.contains("Adresse geändert"));
        assert!(body.contains("was changed to new@example.org") && body.contains("wurde auf new@example.org"));
        assert_eq!(notification(&n, Lang::De), (subject, body));
    }
}
