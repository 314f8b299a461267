//! The command language of mail bodies, in English and German, after the classic judges: each
//! command is a line that starts with its keyword; lines that are not commands are orders of the
//! power signed on last; press runs from its header line to `ENDPRESS`.
//!
//! | English | German | meaning |
//! |---|---|---|
//! | `SIGNON power game password` | `ANMELDEN macht partie passwort` | act as that power's player |
//! | `SIGNON game password` | `ANMELDEN partie passwort` | act as the account of this address |
//! | `REGISTER name password [en\|de]` | `REGISTRIEREN name passwort [en\|de]` | new account for this address |
//! | `CONFIRM code` | `BESTÄTIGEN code` (`BESTAETIGEN`) | confirm this address with the code mailed to it |
//! | `CREATE game password variant [option …]` | `ANLEGEN partie passwort variante [option …]` | a new game, the sender's account its master (options: [`crate::mail::options`]) |
//! | `JOIN game password [power …]` | `BEITRETEN partie passwort [macht …]` | join with preferences |
//! | `START game password` | `STARTEN partie passwort` | (master) start a forming game |
//! | `PRESS TO power …` / `PRESS TO ALL` / `BROADCAST` | `PRESSE AN macht …` / `PRESSE AN ALLE` / `RUNDSCHREIBEN` | press until `ENDPRESS` / `ENDE PRESSE` |
//! | `READY` | `FERTIG` | the orders (of this mail, else those sent before) are final |
//! | `DRAW` / `NODRAW` | `REMIS` / `KEIN REMIS` | draw vote |
//! | `CONCEDE power` / `CONCEDE NONE` | `AUFGEBEN macht` / `AUFGEBEN KEINE` | concession |
//! | `LIST [game]` | `LISTE [partie]` | games, or one game |
//! | `HISTORY [game] [phase]` | `VERLAUF [partie] [phase]` | reports of past phases |
//! | `HELP` | `HILFE` | the command list |
//! | `SIGNOFF` / `END` | `ABMELDEN` / `ENDE` | ignore the rest of the mail |
//!
//! At most [`MAX_ITEMS`] commands and order lines of a mail are read; the rest is not.

use crate::i18n::mail::{Usage, pick, usage};

/// One command of a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Act as a power's player (or as the sender's account) in a game.
    SignOn {
        /// The power; none: the account registered for the sender's address.
        power: Option<String>,
        /// The game's name.
        game: String,
        /// The account's password.
        password: String,
    },
    /// A new account for the sender's address.
    Register {
        /// The account name.
        name: String,
        /// Its password.
        password: String,
        /// `en` or `de`, if given.
        lang: Option<String>,
    },
    /// Confirm the sender's address with the code mailed to it.
    Confirm(String),
    /// A new game, mastered by the account of the sender's address.
    Create {
        /// The game's name.
        game: String,
        /// The password of the sender's account.
        password: String,
        /// The variant.
        variant: String,
        /// The game's options, as written (`press=grey`, `hours=48`, `year-at-once`, …).
        options: Vec<String>,
    },
    /// Start a forming game (its master).
    Start {
        /// The game's name.
        game: String,
        /// The password of the sender's account.
        password: String,
    },
    /// Join a forming game.
    Join {
        /// The game's name.
        game: String,
        /// The password of the sender's account.
        password: String,
        /// Powers in order of preference.
        preferences: Vec<String>,
    },
    /// An order line for the power signed on.
    Order(String),
    /// Press to some powers (empty: to all).
    Press {
        /// Recipient powers; empty for a broadcast.
        to: Vec<String>,
        /// The message.
        body: String,
    },
    /// The orders for the phase are final: those of this mail, else those sent before.
    Ready,
    /// A draw vote: yes or no.
    Draw(bool),
    /// A concession to a power; none withdraws it.
    Concede(Option<String>),
    /// The list of games, or one game.
    List(Option<String>),
    /// The reports of a game's phases (the game signed on if none), or of one phase.
    History {
        /// The game's name.
        game: Option<String>,
        /// One phase (`S1901M`).
        phase: Option<String>,
    },
    /// The command list.
    Help,
    /// The end of the commands.
    SignOff,
}

/// A command with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The line number in the mail's text.
    pub line: usize,
    /// The line as it is shown in the reply (passwords hidden).
    pub shown: String,
    /// What it says, or why it cannot be read.
    pub command: Result<Command, String>,
}

/// The commands of a mail and whether its sender writes German.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// Every command and order line, in order.
    pub items: Vec<Item>,
    /// Whether the mail uses German keywords (the reply is then German for senders without an
    /// account).
    pub german: bool,
    /// The line from which nothing was read because the mail had more than [`MAX_ITEMS`]
    /// commands and order lines.
    pub unread_from: Option<usize>,
}

/// The most commands and order lines read from one mail (a press message is one): a mail of
/// thousands of lines must not make a reply of megabytes.
pub const MAX_ITEMS: usize = 200;

/// The keyword a line starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    SignOn,
    Register,
    Confirm,
    Create,
    Start,
    Join,
    Press,
    Broadcast,
    EndPress,
    Draw,
    NoDraw,
    Ready,
    Concede,
    List,
    History,
    Help,
    SignOff,
}

/// English and German words of each keyword (upper case, as compared).
const KEYWORDS: &[(&str, Keyword, bool)] = &[
    ("SIGNON", Keyword::SignOn, false),
    ("ANMELDEN", Keyword::SignOn, true),
    ("REGISTER", Keyword::Register, false),
    ("REGISTRIEREN", Keyword::Register, true),
    ("CONFIRM", Keyword::Confirm, false),
    ("BESTÄTIGEN", Keyword::Confirm, true),
    ("BESTAETIGEN", Keyword::Confirm, true),
    ("CREATE", Keyword::Create, false),
    ("ANLEGEN", Keyword::Create, true),
    ("START", Keyword::Start, false),
    ("STARTEN", Keyword::Start, true),
    ("JOIN", Keyword::Join, false),
    ("BEITRETEN", Keyword::Join, true),
    ("PRESS", Keyword::Press, false),
    ("PRESSE", Keyword::Press, true),
    ("BROADCAST", Keyword::Broadcast, false),
    ("RUNDSCHREIBEN", Keyword::Broadcast, true),
    ("ENDPRESS", Keyword::EndPress, false),
    ("PRESSEENDE", Keyword::EndPress, true),
    ("DRAW", Keyword::Draw, false),
    ("REMIS", Keyword::Draw, true),
    ("READY", Keyword::Ready, false),
    ("FERTIG", Keyword::Ready, true),
    ("NODRAW", Keyword::NoDraw, false),
    ("KEINREMIS", Keyword::NoDraw, true),
    ("CONCEDE", Keyword::Concede, false),
    ("AUFGEBEN", Keyword::Concede, true),
    ("LIST", Keyword::List, false),
    ("LISTE", Keyword::List, true),
    ("HISTORY", Keyword::History, false),
    ("VERLAUF", Keyword::History, true),
    ("HELP", Keyword::Help, false),
    ("HILFE", Keyword::Help, true),
    ("SIGNOFF", Keyword::SignOff, false),
    ("END", Keyword::SignOff, false),
    ("ABMELDEN", Keyword::SignOff, true),
    ("ENDE", Keyword::SignOff, true),
];

/// The keyword of a line (two-word forms `NO DRAW`, `KEIN REMIS`, `END PRESS`, `ENDE PRESSE`
/// included), whether it is German, and the words after it.
fn keyword(line: &str) -> Option<(Keyword, bool, Vec<&str>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first()?.to_uppercase();
    let second = words.get(1).map(|w| w.to_uppercase());
    let two = |k: Keyword, german: bool| Some((k, german, words[2..].to_vec()));
    match (first.as_str(), second.as_deref()) {
        ("NO", Some("DRAW")) => return two(Keyword::NoDraw, false),
        ("KEIN", Some("REMIS")) => return two(Keyword::NoDraw, true),
        ("END", Some("PRESS")) => return two(Keyword::EndPress, false),
        ("ENDE", Some("PRESSE")) => return two(Keyword::EndPress, true),
        _ => {}
    }
    KEYWORDS
        .iter()
        .find(|(word, _, _)| *word == first)
        .map(|&(_, k, german)| (k, german, words[1..].to_vec()))
}

/// Reads the lines of a mail into commands.
pub fn read(lines: &[(usize, String)]) -> Script {
    let mut script = Script::default();
    let mut i = 0;
    while i < lines.len() {
        let (number, line) = (lines[i].0, lines[i].1.as_str());
        i += 1;
        if line.is_empty() {
            continue;
        }
        if script.items.len() == MAX_ITEMS {
            script.unread_from = Some(number);
            break;
        }
        let Some((k, german, args)) = keyword(line) else {
            script.items.push(Item {
                line: number,
                shown: line.to_string(),
                command: Ok(Command::Order(line.to_string())),
            });
            continue;
        };
        script.german |= german;
        let said = Said { line, args, german };
        let (command, shown) = command(k, &said, lines, &mut i);
        script.items.push(Item {
            line: number,
            shown,
            command,
        });
        if k == Keyword::SignOff {
            break;
        }
    }
    script
}

/// A command line as written: the whole line, the words after its keyword, and its language.
struct Said<'a> {
    line: &'a str,
    args: Vec<&'a str>,
    german: bool,
}

impl Said<'_> {
    /// A refusal with how to write the command, in the line's language.
    fn usage(&self, u: Usage) -> Result<Command, String> {
        Err(pick(usage(u), self.german))
    }

    /// The line as written.
    fn shown(&self) -> String {
        self.line.to_string()
    }
}

/// A command read, with its line as shown back (passwords and codes hidden); press takes the
/// lines after it up to `ENDPRESS` (`i` moves past them).
fn command(k: Keyword, said: &Said, lines: &[(usize, String)], i: &mut usize) -> (Result<Command, String>, String) {
    match k {
        Keyword::Press | Keyword::Broadcast => {
            let (body, closed) = press_body(lines, i);
            (press(said, k == Keyword::Broadcast, &body, closed), said.shown())
        }
        Keyword::SignOn => sign_on(said),
        Keyword::Register => register(said),
        Keyword::Confirm => (confirm(said), hide_from(said.line, 1)),
        Keyword::Join => join(said),
        Keyword::Create => create(said),
        Keyword::Start => start(said),
        Keyword::EndPress => (said.usage(Usage::EndPressAlone), said.shown()),
        Keyword::Draw | Keyword::NoDraw => (draw(said, k == Keyword::Draw), said.shown()),
        Keyword::Ready if said.args.is_empty() => (Ok(Command::Ready), said.shown()),
        Keyword::Ready => (said.usage(Usage::Ready), said.shown()),
        Keyword::Concede => (concede(said), said.shown()),
        Keyword::List => (list(said), said.shown()),
        Keyword::History => (history(said), said.shown()),
        Keyword::Help => (Ok(Command::Help), said.shown()),
        Keyword::SignOff => (Ok(Command::SignOff), said.shown()),
    }
}

fn sign_on(said: &Said) -> (Result<Command, String>, String) {
    let command = match said.args.as_slice() {
        [power, game, password] => Ok(Command::SignOn {
            power: Some(power.to_string()),
            game: game.to_string(),
            password: password.to_string(),
        }),
        [game, password] => Ok(Command::SignOn {
            power: None,
            game: game.to_string(),
            password: password.to_string(),
        }),
        _ => said.usage(Usage::SignOn),
    };
    let shown = match &command {
        Ok(_) => hide_from(said.line, said.args.len()),
        Err(_) => hide_from(said.line, 1),
    };
    (command, shown)
}

fn register(said: &Said) -> (Result<Command, String>, String) {
    let command = match said.args.as_slice() {
        [name, password] | [name, password, _] => Ok(Command::Register {
            name: name.to_string(),
            password: password.to_string(),
            lang: said.args.get(2).map(|l| l.to_lowercase()),
        }),
        _ => said.usage(Usage::Register),
    };
    let shown = match (&command, said.args.get(2)) {
        (Ok(_), Some(lang)) => format!("{} {lang}", hide_from(said.line, 2)),
        (Ok(_), None) => hide_from(said.line, 2),
        (Err(_), _) => hide_from(said.line, 1),
    };
    (command, shown)
}

fn confirm(said: &Said) -> Result<Command, String> {
    match said.args.as_slice() {
        [] => said.usage(Usage::Confirm),
        code => Ok(Command::Confirm(code.concat())),
    }
}

/// `KEYWORD game password rest…` as shown back: the password hidden, the rest as written.
fn password_hidden(said: &Said) -> String {
    match said.args.as_slice() {
        [_, _, rest @ ..] => format!(
            "{}{}",
            hide_from(said.line, 2),
            rest.iter().map(|r| format!(" {r}")).collect::<String>()
        ),
        _ => hide_from(said.line, 1),
    }
}

fn create(said: &Said) -> (Result<Command, String>, String) {
    let command = match said.args.as_slice() {
        [game, password, variant, options @ ..] => Ok(Command::Create {
            game: game.to_string(),
            password: password.to_string(),
            variant: variant.to_string(),
            options: options.iter().map(|o| o.to_string()).collect(),
        }),
        _ => said.usage(Usage::Create),
    };
    (command, password_hidden(said))
}

fn start(said: &Said) -> (Result<Command, String>, String) {
    let command = match said.args.as_slice() {
        [game, password] => Ok(Command::Start {
            game: game.to_string(),
            password: password.to_string(),
        }),
        _ => said.usage(Usage::Start),
    };
    (command, hide_from(said.line, 2))
}

fn join(said: &Said) -> (Result<Command, String>, String) {
    let command = match said.args.as_slice() {
        [game, password, preferences @ ..] => Ok(Command::Join {
            game: game.to_string(),
            password: password.to_string(),
            preferences: preferences
                .iter()
                .flat_map(|p| p.split(','))
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        }),
        _ => said.usage(Usage::Join),
    };
    (command, password_hidden(said))
}

/// The lines of a press message after its header, up to `ENDPRESS` (moving `i` past it), and
/// whether `ENDPRESS` came.
fn press_body(lines: &[(usize, String)], i: &mut usize) -> (String, bool) {
    let mut body = Vec::new();
    while *i < lines.len() {
        let text = &lines[*i].1;
        *i += 1;
        if keyword(text).is_some_and(|(k, _, _)| k == Keyword::EndPress) {
            return (body.join("\n").trim().to_string(), true);
        }
        body.push(text.as_str());
    }
    (body.join("\n").trim().to_string(), false)
}

fn press(said: &Said, broadcast: bool, body: &str, closed: bool) -> Result<Command, String> {
    let to = if broadcast {
        Ok(Vec::new())
    } else {
        press_recipients(&said.args, said.german)
    };
    match to {
        Err(e) => Err(e),
        Ok(_) if !closed => said.usage(Usage::PressUnclosed),
        Ok(_) if body.is_empty() => said.usage(Usage::PressEmpty),
        Ok(to) => Ok(Command::Press {
            to,
            body: body.to_string(),
        }),
    }
}

fn draw(said: &Said, yes: bool) -> Result<Command, String> {
    if said.args.is_empty() {
        Ok(Command::Draw(yes))
    } else {
        said.usage(Usage::Draw)
    }
}

fn concede(said: &Said) -> Result<Command, String> {
    match said.args.as_slice() {
        [none] if ["NONE", "KEINE", "NIEMAND"].contains(&none.to_uppercase().as_str()) => Ok(Command::Concede(None)),
        [power] => Ok(Command::Concede(Some(power.to_string()))),
        _ => said.usage(Usage::Concede),
    }
}

fn list(said: &Said) -> Result<Command, String> {
    match said.args.as_slice() {
        [] => Ok(Command::List(None)),
        [game] => Ok(Command::List(Some(game.to_string()))),
        _ => said.usage(Usage::List),
    }
}

/// Whether a word names a phase (`S1901M`, `F1902R`, `W1901A`).
fn is_phase(w: &str) -> bool {
    let w = w.to_ascii_uppercase();
    w.len() >= 6
        && matches!(w.as_bytes()[0], b'S' | b'F' | b'W')
        && matches!(w.as_bytes()[w.len() - 1], b'M' | b'R' | b'A')
        && w[1..w.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

fn history(said: &Said) -> Result<Command, String> {
    let history = |game: Option<&&str>, phase: Option<&&str>| {
        Ok(Command::History {
            game: game.map(|g| g.to_string()),
            phase: phase.map(|p| p.to_ascii_uppercase()),
        })
    };
    match said.args.as_slice() {
        [] => history(None, None),
        [p] if is_phase(p) => history(None, Some(p)),
        [game] => history(Some(game), None),
        [game, p] if is_phase(p) => history(Some(game), Some(p)),
        _ => said.usage(Usage::History),
    }
}

/// The recipients after `PRESS`: `TO` / `AN` and then powers (separated by spaces or commas), or
/// `ALL` / `ALLE`; none at all is a broadcast.
fn press_recipients(args: &[&str], german: bool) -> Result<Vec<String>, String> {
    let names: Vec<String> = match args.first().map(|w| w.to_uppercase()) {
        Some(w) if w == "TO" || w == "AN" => args[1..]
            .iter()
            .flat_map(|a| a.split(','))
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
        Some(_) => {
            return Err(pick(usage(Usage::PressTo), german));
        }
    };
    if names.is_empty() && !args.is_empty() {
        return Err(pick(usage(Usage::PressToWhom), german));
    }
    if names
        .iter()
        .any(|n| ["ALL", "ALLE"].contains(&n.to_uppercase().as_str()))
    {
        return Ok(Vec::new());
    }
    Ok(names)
}

/// The line's first `keep` words, then one `********` for the rest (a password, or words that
/// may be one): a reply never repeats a password.
fn hide_from(line: &str, keep: usize) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut shown = words[..keep.min(words.len())].join(" ");
    if words.len() > keep {
        shown.push_str(" ********");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(text: &str) -> Script {
        let lines: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim().to_string()))
            .collect();
        read(&lines)
    }

    fn commands(text: &str) -> Vec<Result<Command, String>> {
        script(text).items.into_iter().map(|i| i.command).collect()
    }

    #[test]
    fn sign_on_orders_and_press_in_english() {
        let s = script(
            "SIGNON England game1 s3cret\nF Lon - Nth\nA Lvp - Yor\nPRESS TO France, Germany\nHello there.\nSecond line.\nENDPRESS\nDRAW\n",
        );
        assert!(!s.german);
        let c: Vec<_> = s.items.iter().map(|i| i.command.clone()).collect();
        assert_eq!(
            c,
            [
                Ok(Command::SignOn {
                    power: Some("England".into()),
                    game: "game1".into(),
                    password: "s3cret".into()
                }),
                Ok(Command::Order("F Lon - Nth".into())),
                Ok(Command::Order("A Lvp - Yor".into())),
                Ok(Command::Press {
                    to: vec!["France".into(), "Germany".into()],
                    body: "Hello there.\nSecond line.".into()
                }),
                Ok(Command::Draw(true)),
            ]
        );
        assert_eq!(s.items[0].shown, "SIGNON England game1 ********");
        assert_eq!(s.items[3].line, 4);
        assert_eq!(s.items[4].line, 8);
    }

    #[test]
    fn german_keywords_are_read_and_noticed() {
        let s = script(
            "ANMELDEN Deutschland partie geheim\nA Mün - Kie\nPRESSE AN ALLE\nGuten Tag!\nENDE PRESSE\nKEIN REMIS\nVERLAUF partie F1901M\nENDE\nA Ber H\n",
        );
        assert!(s.german);
        let c: Vec<_> = s.items.into_iter().map(|i| i.command).collect();
        assert_eq!(
            c[2],
            Ok(Command::Press {
                to: vec![],
                body: "Guten Tag!".into()
            })
        );
        assert_eq!(c[3], Ok(Command::Draw(false)));
        assert_eq!(
            c[4],
            Ok(Command::History {
                game: Some("partie".into()),
                phase: Some("F1901M".into())
            })
        );
        assert_eq!(c[5], Ok(Command::SignOff));
        assert_eq!(c.len(), 6, "nothing after ENDE is read");
    }

    #[test]
    fn mistakes_are_told_with_usage() {
        let c = commands("SIGNON England\nPRESS TO France\nno end\nREGISTER x\nCONCEDE a b\nHISTORY a b c\n");
        assert!(c[0].as_ref().is_err_and(|e| e.contains("SIGNON power game password")));
        assert!(c[1].as_ref().is_err_and(|e| e.contains("ENDPRESS")), "{c:?}");
        // Everything after an unclosed PRESS was press text, so nothing else is read.
        assert_eq!(c.len(), 2);
        let c = commands("PRESS France\nx\nENDPRESS\nBROADCAST\n\nENDPRESS\nCONCEDE a b\nHISTORY a b c\nENDPRESS\n");
        assert!(c[0].as_ref().is_err_and(|e| e.contains("PRESS TO")));
        assert!(c[1].as_ref().is_err_and(|e| e.contains("empty")));
        assert!(c[2].is_err() && c[3].is_err() && c[4].is_err(), "{c:?}");
    }

    #[test]
    fn a_mistaken_sign_on_repeats_no_word_that_may_be_a_password() {
        let s = script("SIGNON England game1 my secret\nREGISTER hunter22\nJOIN game1\n");
        let shown: Vec<_> = s.items.iter().map(|i| i.shown.as_str()).collect();
        assert_eq!(shown, ["SIGNON ********", "REGISTER ********", "JOIN ********"]);
    }

    #[test]
    fn confirm_takes_the_code_in_either_language_and_hides_it() {
        let s = script("CONFIRM abcd-efgh\nBestätigen ABCD EFGH\nBESTAETIGEN\n");
        let c: Vec<_> = s.items.iter().map(|i| i.command.clone()).collect();
        assert_eq!(c[0], Ok(Command::Confirm("abcd-efgh".into())));
        assert_eq!(c[1], Ok(Command::Confirm("ABCDEFGH".into())));
        assert!(c[2].as_ref().is_err_and(|e| e.contains("BESTÄTIGEN")), "{c:?}");
        assert!(s.german);
        assert_eq!(s.items[0].shown, "CONFIRM ********");
    }

    #[test]
    fn only_so_many_lines_of_a_mail_are_read() {
        let text = "HELP\n\n".repeat(MAX_ITEMS + 50);
        let s = script(&text);
        assert_eq!(s.items.len(), MAX_ITEMS);
        assert_eq!(s.unread_from, Some(2 * MAX_ITEMS + 1));
        assert_eq!(script("HELP\n".repeat(MAX_ITEMS).as_str()).unread_from, None);
    }

    #[test]
    fn register_and_join_hide_passwords() {
        let s = script("REGISTER Anna hunter22 de\nJOIN game1 hunter22 England,France Italy\nSIGNON game1 hunter22\n");
        let shown: Vec<_> = s.items.iter().map(|i| i.shown.as_str()).collect();
        assert_eq!(
            shown,
            [
                "REGISTER Anna ******** de",
                "JOIN game1 ******** England,France Italy",
                "SIGNON game1 ********"
            ]
        );
        assert_eq!(
            s.items[1].command,
            Ok(Command::Join {
                game: "game1".into(),
                password: "hunter22".into(),
                preferences: vec!["England".into(), "France".into(), "Italy".into()]
            })
        );
    }
}
