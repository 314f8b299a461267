//! The words of the replies to mail, in English and German: each function gives one line (or
//! part of one) as (English, German); the mail session picks the reader's language.

use super::t;
use crate::domain::{GameStatus, PowerName, PressPolicy, Role};

/// One text in both languages: (English, German).
pub type Words = (String, String);

/// The text of `words` in German or English.
pub fn pick((en, de): Words, german: bool) -> String {
    if german { de } else { en }
}

/// A mail with no command in it.
pub fn no_commands() -> Words {
    t(
        "Your mail holds no commands. Send HELP for the list of commands.",
        "Ihre Nachricht enthält keine Befehle. Senden Sie HILFE für die Liste der Befehle.",
    )
}

/// The reply reached its size limit (`kb`) before `line`.
pub fn reply_full(kb: usize, line: usize) -> Words {
    (
        format!(
            "The reply has reached its limit (about {kb} KB): nothing from line {line} on was read or carried out."
        ),
        format!(
            "Die Antwort hat ihre Grenze erreicht (etwa {kb} KB): ab Zeile {line} wurde nichts gelesen oder ausgeführt."
        ),
    )
}

/// Only the first `most` items of a mail are read; `line` was the first left unread.
pub fn unread_from(most: usize, line: usize) -> Words {
    (
        format!(
            "Only the first {most} commands and order lines of a mail are read: nothing from line {line} on was read."
        ),
        format!(
            "Nur die ersten {most} Befehle und Befehlszeilen einer Nachricht werden gelesen: ab Zeile {line} wurde nichts gelesen."
        ),
    )
}

/// The closing line of a mail without errors.
pub fn all_read() -> Words {
    t(
        "All lines were read without errors.",
        "Alle Zeilen wurden fehlerfrei gelesen.",
    )
}

/// The closing line of a mail with `n` errors.
pub fn errors(n: usize) -> Words {
    (
        format!("{n} line(s) had errors; see above. Send HELP for the commands."),
        format!("{n} Zeile(n) mit Fehlern, siehe oben. HILFE listet die Befehle."),
    )
}

/// A mail stopped at a failed sign-on: nothing from `next` on was read.
pub fn halted(next: Option<usize>) -> Words {
    let (why_en, why_de) = (
        "a mail stops at its first failed sign-on",
        "eine Nachricht endet bei der ersten fehlgeschlagenen Anmeldung",
    );
    match next {
        Some(line) => (
            format!("  Nothing from line {line} on was read or carried out: {why_en}."),
            format!("  Ab Zeile {line} wurde nichts gelesen oder ausgeführt: {why_de}."),
        ),
        None => (format!("  ({why_en}.)"), format!("  ({why_de}.)")),
    }
}

/// An error line for the mail's `line` (for the `part`-th of several orders on it, if given).
pub fn error_line(line: usize, part: Option<usize>, (en, de): &Words) -> Words {
    match part {
        Some(k) => (
            format!("  ERROR (line {line}, order {k}): {en}"),
            format!("  FEHLER (Zeile {line}, Befehl {k}): {de}"),
        ),
        None => (
            format!("  ERROR (line {line}): {en}"),
            format!("  FEHLER (Zeile {line}): {de}"),
        ),
    }
}

/// The orders that stand for the phase after a submission (a unit without one holds in a
/// movement phase).
pub fn standing(orders: &[String]) -> Words {
    if orders.is_empty() {
        return t("Orders now standing: none.", "Jetzt gültige Befehle: keine.");
    }
    let list = orders.join("; ");
    (
        format!("Orders now standing: {list}."),
        format!("Jetzt gültige Befehle: {list}."),
    )
}

/// An order line before a sign-on with a power.
pub fn orders_need_sign_on() -> Words {
    t(
        "not a command, and orders need a SIGNON with a power first (HELP lists the commands)",
        "kein Befehl, und Befehle an Einheiten brauchen zuerst ANMELDEN mit einer Macht (HILFE listet die Befehle)",
    )
}

/// The hint after a refused order: the name the writer probably meant.
pub fn did_you_mean(name: &str) -> Words {
    (format!(" (did you mean {name}?)"), format!(" (meinten Sie {name}?)"))
}

/// What the orders standing leave out or overdo (a sentence already in the reader's language).
pub fn warning(text: &str) -> Words {
    (format!("Note: {text}"), format!("Hinweis: {text}"))
}

/// Orders stored for a phase.
pub fn orders_kept(power: &PowerName, phase: &str, count: usize) -> Words {
    let (en, de) = (&power.en, &power.de);
    (
        format!("Orders of {en} for {phase}: {count} line(s) kept; they replace any sent before."),
        format!("Befehle von {de} für {phase}: {count} Zeile(n) gespeichert; sie ersetzen frühere."),
    )
}

/// The phase was adjudicated as soon as these orders came in.
pub fn adjudicated_at_once() -> Words {
    t(
        "Every power's orders were final: the phase was adjudicated at once; the result follows by mail.",
        "Die Befehle aller Mächte waren endgültig: die Phase wurde sofort ausgewertet; das Ergebnis folgt per Mail.",
    )
}

/// The orders of `power` for `phase` are marked final (READY).
pub fn orders_final(power: &PowerName, phase: &str) -> Words {
    let (en, de) = (&power.en, &power.de);
    (
        format!("The orders of {en} for {phase} are final (ready); orders sent later without READY take it back."),
        format!(
            "Die Befehle von {de} für {phase} sind endgültig (fertig); später ohne FERTIG gesendete nehmen das zurück."
        ),
    )
}

/// HELP a second time in one mail.
pub fn help_above() -> Words {
    t(
        "  (The command list is above: it is given once per mail.)",
        "  (Die Liste der Befehle steht oben: sie kommt einmal je Nachricht.)",
    )
}

/// SIGNOFF.
pub fn rest_not_read() -> Words {
    t(
        "  The rest of the mail is not read.",
        "  Der Rest der Nachricht wird nicht gelesen.",
    )
}

/// Press read again from the same mail.
pub fn press_repeat() -> Words {
    t("  (sent already)", "  (bereits gesendet)")
}

/// Press sent to `to` (no one named: everyone).
pub fn press_sent(to: &[PowerName]) -> Words {
    let (en, de) = if to.is_empty() {
        ("all".to_string(), "alle".to_string())
    } else {
        (PowerName::list(to, false), PowerName::list(to, true))
    };
    (format!("  Press sent to {en}."), format!("  Presse gesendet an {de}."))
}

/// A draw vote: whether the game is drawn now, else whether the vote is for one.
pub fn draw_vote(yes: bool, drawn: bool) -> Words {
    match (yes, drawn) {
        (_, true) => t(
            "  Every survivor voted for a draw: the game ends in a draw.",
            "  Alle Überlebenden stimmten für Remis: die Partie endet remis.",
        ),
        (true, false) => t(
            "  Your vote for a draw is recorded.",
            "  Ihre Stimme für ein Remis ist gespeichert.",
        ),
        (false, false) => t("  You do not vote for a draw.", "  Sie stimmen nicht für ein Remis."),
    }
}

/// A concession to `to` (none: withdrawn): whether the game is conceded now.
pub fn concession(to: Option<&PowerName>, conceded: bool) -> Words {
    let (en, de) = to.map_or(("none", "keine"), |p| (p.en.as_str(), p.de.as_str()));
    if conceded {
        (
            format!("  The game is conceded to {en}."),
            format!("  Die Partie ist an {de} aufgegeben."),
        )
    } else {
        (format!("  Your concession: {en}."), format!("  Ihre Aufgabe: {de}."))
    }
}

/// A command that needs a sign-on before it.
pub fn sign_on_first() -> Words {
    t("SIGNON to a game first", "zuerst ANMELDEN bei einer Partie")
}

/// No game has this name.
pub fn no_such_game(name: &str) -> Words {
    (
        format!("there is no game `{name}` (LIST shows the games)"),
        format!("es gibt keine Partie `{name}` (LISTE zeigt die Partien)"),
    )
}

/// What came too late for a phase adjudicated after the mail arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Late {
    /// Orders.
    Orders,
    /// A draw vote.
    Vote,
    /// A concession.
    Concession,
}

/// The phase was adjudicated after the mail arrived: `what` is not taken.
pub fn too_late(what: Late) -> Words {
    let (en, de) = match what {
        Late::Orders => ("these orders are", "diese Befehle werden"),
        Late::Vote => ("the vote is", "die Stimme wird"),
        Late::Concession => ("the concession is", "die Aufgabe wird"),
    };
    (
        format!("the phase was adjudicated after this mail arrived: {en} not taken; read the result first"),
        format!(
            "die Phase wurde nach Eingang dieser Nachricht ausgewertet: {de} nicht angenommen; bitte zuerst das Ergebnis lesen"
        ),
    )
}

/// More password checks than a mail may make.
pub fn password_checks(most: usize) -> Words {
    (
        format!("at most {most} password checks per mail"),
        format!("höchstens {most} Passwortprüfungen je Nachricht"),
    )
}

/// A sign-on without a power from an address no member of the game has.
pub fn no_member_with_address(game: &str) -> Words {
    (
        format!("no member of {game} has this address; write SIGNON power game password"),
        format!("kein Mitglied von {game} hat diese Adresse; schreibe ANMELDEN Macht Partie Passwort"),
    )
}

/// A sign-on as a power nobody plays.
pub fn nobody_plays(power: &PowerName, game: &str) -> Words {
    (
        format!("nobody plays {} in {game}", power.en),
        format!("niemand spielt {} in {game}", power.de),
    )
}

/// What a signed-on account is in the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The player of this power.
    Power(PowerName),
    /// The game's master.
    Master,
    /// An observer.
    Observer,
}

/// A sign-on that worked.
pub fn signed_on(part: &Part, game: &str, phase: &str, deadline: &str) -> Words {
    let (en, de) = match part {
        Part::Power(power) => (power.en.clone(), power.de.clone()),
        Part::Master => ("master".to_string(), "Spielleitung".to_string()),
        Part::Observer => ("observer".to_string(), "Beobachter".to_string()),
    };
    (
        format!("  Signed on as {en} in {game}. Phase {phase}, deadline {deadline}."),
        format!("  Angemeldet als {de} in {game}. Phase {phase}, Abgabeschluss {deadline}."),
    )
}

/// A sign-on whose password or address did not match.
pub fn wrong_password() -> Words {
    t(
        "wrong password, or this is not the address registered for that player: signed on to nothing; the orders below are not taken",
        "falsches Passwort, oder dies ist nicht die für diesen Spieler eingetragene Adresse: nicht angemeldet; die folgenden Befehle werden nicht angenommen",
    )
}

/// A second REGISTER in one mail.
pub fn one_register() -> Words {
    t(
        "one REGISTER per mail: this one is not carried out",
        "ein REGISTRIEREN je Nachricht: dieses wird nicht ausgeführt",
    )
}

/// An account made by mail, and how to confirm its address with `code`.
pub fn account_created(name: &str, address: &str, code: &str) -> Words {
    (
        format!(
            "  Account {name} created for {address}. To confirm this address, send a mail from it with the line \
             CONFIRM {code} (the code holds 24 hours); until then the judge sends it nothing but replies."
        ),
        format!(
            "  Konto {name} für {address} angelegt. Um diese Adresse zu bestätigen, schicken Sie von ihr eine Mail \
             mit der Zeile BESTÄTIGEN {code} (der Code gilt 24 Stunden); bis dahin schickt der Spielleiter \
             ihr nur Antworten."
        ),
    )
}

/// CONFIRM from an address that waits for no code.
pub fn no_code_waits() -> Words {
    t(
        "no address waits for a code here: send CONFIRM from the address the code was mailed to",
        "hier wartet keine Adresse auf einen Code: BESTÄTIGEN wird von der Adresse gesendet, an die der Code ging",
    )
}

/// An address confirmed.
pub fn address_confirmed(address: &str) -> Words {
    (
        format!("  The address {address} is confirmed: mail about your games comes here."),
        format!("  Die Adresse {address} ist bestätigt: die Post zu Ihren Partien kommt hierher."),
    )
}

/// CREATE made the game.
pub fn created(game: &str, variant: &str, options: &str) -> Words {
    (
        format!(
            "  The game {game} ({variant}{options}) is made; you are its master. Players join with JOIN {game} <their password> [power …]; start it with START {game} <your password>."
        ),
        format!(
            "  Die Partie {game} ({variant}{options}) ist angelegt; Sie leiten sie. Spieler treten mit BEITRETEN {game} <ihr Passwort> [Macht …] bei; starten Sie sie mit STARTEN {game} <Ihr Passwort>."
        ),
    )
}

/// START started the game.
pub fn started(game: &str, seed: i64) -> Words {
    (
        format!("  The game {game} has started (lot seed {seed}); each player is told his power by mail."),
        format!(
            "  Die Partie {game} hat begonnen (Startwert des Loses {seed}); jeder Spieler erfährt seine Macht per Mail."
        ),
    )
}

/// An option of CREATE that cannot be read.
pub fn bad_game_option(option: &str) -> Words {
    (
        format!(
            "the option `{option}` cannot be read: press=full|grey|none, hours=N, minutes=N, early, nmr=N, timezone=Europe/Berlin, at=HH:MM, retreats-with-moves, year-at-once, ready-names, calendar=NAME, control=standard|alternative, victory=1-5"
        ),
        format!(
            "die Option `{option}` ist nicht lesbar: presse=voll|grau|keine, stunden=N, minuten=N, vorzeitig, nmr=N, zeitzone=Europe/Berlin, um=HH:MM, rueckzuege-mit-zuegen, jahr-auf-einmal, fertig-namen, kalender=NAME, kontrolle=standard|alternativ, sieg=1-5"
        ),
    )
}

/// A game joined with these preferences.
pub fn joined(game: &str, preferences: &[PowerName]) -> Words {
    let (en, de) = match preferences {
        [] => ("none".to_string(), "keine".to_string()),
        _ => (PowerName::list(preferences, false), PowerName::list(preferences, true)),
    };
    (
        format!("  You joined {game}; preferences: {en}."),
        format!("  Sie sind {game} beigetreten; Wünsche: {de}."),
    )
}

/// JOIN with a password no account of the address has.
pub fn no_account_with_password() -> Words {
    t(
        "no account of this address has that password (REGISTER makes one)",
        "kein Konto dieser Adresse hat dieses Passwort (REGISTRIEREN legt eines an)",
    )
}

/// LIST with no games.
pub fn no_games() -> Words {
    t("  There are no games.", "  Es gibt keine Partien.")
}

/// The word after the number of players in LIST.
pub fn players() -> Words {
    t("players", "Spieler")
}

/// One game's line in `LIST game`.
pub fn game_line(name: &str, variant: &str, how: (GameStatus, PressPolicy), phase: &str, deadline: &str) -> Words {
    let (status, press) = (status_word(how.0), press_word(how.1));
    (
        format!(
            "  {name}: variant {variant}, {}, phase {phase}, deadline {deadline}, press {}.",
            status.0, press.0
        ),
        format!(
            "  {name}: Variante {variant}, {}, Phase {phase}, Abgabeschluss {deadline}, Presse {}.",
            status.1, press.1
        ),
    )
}

/// A game's status in a list.
pub fn status_word(status: GameStatus) -> Words {
    match status {
        GameStatus::Forming => t("forming", "in Bildung"),
        GameStatus::Active => t("running", "läuft"),
        GameStatus::Finished => t("finished", "beendet"),
    }
}

/// A game's press policy in a list.
pub fn press_word(press: PressPolicy) -> Words {
    match press {
        PressPolicy::Full => t("full", "offen"),
        PressPolicy::Grey => t("grey (senders hidden)", "grau (Absender verborgen)"),
        PressPolicy::None => t("none", "keine"),
    }
}

/// What a member without a power is.
pub fn role_word(role: Role) -> Words {
    match role {
        Role::Player => t("player", "Spieler"),
        Role::Observer => t("observer", "Beobachter"),
    }
}

/// The mark of a power in civil disorder.
pub fn civil_disorder() -> Words {
    t(" (civil disorder)", " (Anarchie)")
}

/// HISTORY without a game, before a sign-on.
pub fn which_game() -> Words {
    t(
        "which game? write HISTORY game, or SIGNON first",
        "welche Partie? schreibe VERLAUF Partie, oder zuerst ANMELDEN",
    )
}

/// HISTORY of a running game by a non-member.
pub fn reports_for_members(game: &str) -> Words {
    (
        format!("the reports of a running game are for its members: SIGNON to {game} first"),
        format!("die Berichte einer laufenden Partie sind für ihre Mitglieder: zuerst ANMELDEN bei {game}"),
    )
}

/// HISTORY of a phase that is not adjudicated.
pub fn no_phase_matches() -> Words {
    t("no adjudicated phase matches", "keine ausgewertete Phase passt")
}

/// HISTORY shows only the last `most` phases.
pub fn last_phases(most: usize, skipped: usize) -> Words {
    (
        format!("  (the last {most} phases; {skipped} earlier ones with HISTORY game phase)"),
        format!("  (die letzten {most} Phasen; {skipped} frühere mit VERLAUF Partie Phase)"),
    )
}

/// The reply's subject when the mail had none.
pub fn subject() -> Words {
    t("Re: your mail to the judge", "Re: Ihre Nachricht an den Spielleiter")
}

/// The note at the end of a reply cut to its size limit.
pub fn reply_cut() -> Words {
    t(
        "\n(The reply is cut here: it would be longer than 256 KB.)\n",
        "\n(Die Antwort ist hier gekürzt: sie wäre länger als 256 KB.)\n",
    )
}

/// A command written wrongly: how to write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Usage {
    /// ENDPRESS with no PRESS before it.
    EndPressAlone,
    /// SIGNON.
    SignOn,
    /// REGISTER.
    Register,
    /// CONFIRM.
    Confirm,
    /// JOIN.
    Join,
    /// CREATE.
    Create,
    /// START.
    Start,
    /// Press without its closing line.
    PressUnclosed,
    /// Press with no text.
    PressEmpty,
    /// DRAW and NODRAW.
    Draw,
    /// READY.
    Ready,
    /// CONCEDE.
    Concede,
    /// LIST.
    List,
    /// HISTORY.
    History,
    /// PRESS followed by neither TO nor ALL.
    PressTo,
    /// PRESS TO with no power.
    PressToWhom,
}

/// How to write a command written wrongly.
pub fn usage(u: Usage) -> Words {
    match u {
        Usage::EndPressAlone => t("ENDPRESS without PRESS", "ENDE PRESSE ohne PRESSE"),
        Usage::SignOn => t(
            "write SIGNON power game password",
            "schreibe ANMELDEN Macht Partie Passwort",
        ),
        Usage::Register => t(
            "write REGISTER name password [en|de]",
            "schreibe REGISTRIEREN Name Passwort [en|de]",
        ),
        Usage::Confirm => t(
            "write CONFIRM and the code mailed to this address",
            "schreibe BESTÄTIGEN und den Code, der an diese Adresse ging",
        ),
        Usage::Join => t(
            "write JOIN game password [power …]",
            "schreibe BEITRETEN Partie Passwort [Macht …]",
        ),
        Usage::Create => t(
            "write CREATE game password variant [option …]",
            "schreibe ANLEGEN Partie Passwort Variante [Option …]",
        ),
        Usage::Start => t("write START game password", "schreibe STARTEN Partie Passwort"),
        Usage::PressUnclosed => t(
            "press ends with a line ENDPRESS; nothing was sent",
            "Presse endet mit einer Zeile ENDE PRESSE; nichts wurde gesendet",
        ),
        Usage::PressEmpty => t("the press message is empty", "die Pressenachricht ist leer"),
        Usage::Draw => t(
            "DRAW and NODRAW take no words after them",
            "REMIS und KEIN REMIS stehen allein",
        ),
        Usage::Ready => t("READY takes no words after it", "FERTIG steht allein"),
        Usage::Concede => t(
            "write CONCEDE power (or CONCEDE NONE)",
            "schreibe AUFGEBEN Macht (oder AUFGEBEN KEINE)",
        ),
        Usage::List => t("write LIST or LIST game", "schreibe LISTE oder LISTE Partie"),
        Usage::History => t(
            "write HISTORY [game] [phase such as S1901M]",
            "schreibe VERLAUF [Partie] [Phase wie S1901M]",
        ),
        Usage::PressTo => t(
            "write PRESS TO power … or PRESS TO ALL",
            "schreibe PRESSE AN Macht … oder PRESSE AN ALLE",
        ),
        Usage::PressToWhom => t(
            "to whom? write PRESS TO power … or PRESS TO ALL",
            "an wen? schreibe PRESSE AN Macht … oder PRESSE AN ALLE",
        ),
    }
}

/// The list of commands (HELP).
pub fn help() -> Words {
    t(HELP_EN, HELP_DE)
}

const HELP_EN: &str = "Commands (one per line; orders follow SIGNON, one per line, in any usual notation):
  SIGNON power game password   act as that power's player (password of the player's account;
                               the mail must come from the account's registered address)
  SIGNON game password         act as your account (master or observer)
  REGISTER name password [en|de]   a new account for this address
  CONFIRM code                 confirm this address with the code mailed to it
  CREATE game password variant [option ...]   a new game you master; options press=grey,
                               hours=48, early, year-at-once, retreats-with-moves, ready-names,
                               calendar=original, nmr=3, timezone=Europe/Berlin, at=20:00
  JOIN game password [power ...]   join a forming game with your preferred powers
  START game password          (master) start a forming game: powers by wishes and a lot
  PRESS TO power [power ...]   press to those powers, until a line ENDPRESS
  PRESS TO ALL  or  BROADCAST  press to everyone, until a line ENDPRESS
  READY                        your orders (of this mail, else those sent before) are final;
                               early adjudication waits for every power to be ready
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
Hegemony: in winter PF 3 Bavaria, Friendly to England, Choose L Net (first winter only),
IF MID blocked THEN Friendly to England ELSE PF 1 Bavaria; a neutral you control is ordered under
its name (Bavaria: A Bav - Boh); leaders LA Vie - Boh, L Vie - Boh, L Pic R Par.
Orders in a mail replace those sent before.";

const HELP_DE: &str = "Befehle (einer je Zeile; Befehle an Einheiten folgen auf ANMELDEN, einer je Zeile, in jeder üblichen Schreibweise):
  ANMELDEN Macht Partie Passwort   als Spieler dieser Macht handeln (Passwort des Kontos des Spielers;
                                   die Nachricht muss von der eingetragenen Adresse kommen)
  ANMELDEN Partie Passwort         als eigenes Konto handeln (Spielleiter oder Beobachter)
  REGISTRIEREN Name Passwort [de|en]   ein neues Konto für diese Adresse
  BESTÄTIGEN Code                  diese Adresse mit dem Code bestätigen, der an sie ging
  ANLEGEN Partie Passwort Variante [Option ...]   eine neue Partie unter Ihrer Leitung; Optionen
                                   presse=grau, stunden=48, vorzeitig, jahr-auf-einmal,
                                   rueckzuege-mit-zuegen, fertig-namen, kalender=original, nmr=3,
                                   zeitzone=Europe/Berlin, um=20:00
  BEITRETEN Partie Passwort [Macht ...]   einer Partie mit Wunschmächten beitreten
  STARTEN Partie Passwort          (Spielleitung) eine Partie starten: Mächte nach Wünschen und Los
  PRESSE AN Macht [Macht ...]      Presse an diese Mächte, bis zu einer Zeile ENDE PRESSE
  PRESSE AN ALLE  oder  RUNDSCHREIBEN   Presse an alle, bis zu einer Zeile ENDE PRESSE
  FERTIG                           Ihre Befehle (dieser Nachricht, sonst die zuvor gesendeten) sind
                                   endgültig; die vorzeitige Auswertung wartet, bis alle fertig sind
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
Hegemony: im Winter 3 PF an Bayern, Freundlich gegenüber England, Wähle L Net (nur im ersten Winter),
WENN MID gesperrt DANN Freundlich gegenüber England SONST 1 PF an Bayern; ein neutrales Land unter
eigener Kontrolle mit seinem Namen (Bayern: A Bay - Böhmen); Anführer LA Wien - Böhmen,
L Wien - Böhmen, L Pic R Par.
Befehle einer Nachricht ersetzen die vorher gesendeten.";
