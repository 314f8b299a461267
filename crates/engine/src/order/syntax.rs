//! Step one of reading an order: text to a syntax tree whose names are looked up in the map's
//! name index, but not yet checked against geography or a position.

use crate::ids::{Coast, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::error::{OrderError, OrderErrorKind};
use crate::order::lex::{BadChar, Token, TokenKind, Tokens, with_tokens};

/// A place as written: a province, perhaps with a coast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPlace {
    /// The province named.
    pub province: ProvinceId,
    /// The coast named, if any.
    pub coast: Option<Coast>,
    /// Byte offset of its first word.
    pub position: usize,
}

/// A unit as written: an optional type and a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawUnit {
    /// `A` / `F`, if written.
    pub kind: Option<UnitType>,
    /// A leader was written (`L Vie`: the leader alone; `LA Vie`, `L A Vie`: an army with its
    /// leader; Hegemony 3.1).
    pub leader: bool,
    /// Where it is.
    pub place: RawPlace,
    /// The power adjective written before it ("Russian"), if any.
    pub power: Option<PowerId>,
}

/// `PF 3 Bavaria`, `3 PF Bayern`, `PF 3 to Bavaria`: political factors allocated to a country.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawAllocation {
    /// How many.
    pub pf: u32,
    /// To which country.
    pub country: PowerId,
    /// Where the country's name starts in the line.
    pub position: usize,
}

/// `Friendly to England`, `Freundlich gegenüber England`: a declaration of friendship for the
/// winter (Hegemony 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawDeclaration {
    /// Towards which country.
    pub country: PowerId,
    /// Where the country's name starts in the line.
    pub position: usize,
}

/// The places of a move as written: intermediate steps, then the destination.
pub type MovePath = smallvec::SmallVec<[RawPlace; 2]>;

/// What the order asks for, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawAction {
    /// `H`, or nothing at all.
    Hold,
    /// `- place` (with more `- place` steps for a route), perhaps `via convoy`.
    Move {
        /// The places after the unit: intermediate steps, then the destination (kept inline
        /// for the usual one or two).
        path: MovePath,
        /// `via` / `via convoy` / `by convoy` was written.
        via_convoy: bool,
        /// A railroad was named on the way (`A Mos-TSR-Irk`).
        railroad: bool,
    },
    /// `S unit` or `S unit - place`.
    Support {
        /// The supported unit.
        target: RawUnit,
        /// The supported move's destination.
        to: Option<RawPlace>,
    },
    /// `C A place - place`.
    Convoy {
        /// The convoyed army.
        target: RawUnit,
        /// Its destination.
        to: RawPlace,
    },
    /// `R place`.
    Retreat {
        /// The destination.
        to: RawPlace,
    },
    /// `D`, `Disband`, `Remove`, `Abbau`.
    Disband,
    /// `B`, `Build`, `Bauen`.
    Build,
    /// `Choose A Bre`, `Wähle L Net`: a choice of the scenario's first phase (Hegemony 5.1.7).
    Choose,
}

/// An order line read into its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawOrder {
    /// The power of a `Power:` prefix.
    pub power: Option<PowerId>,
    /// The ordered unit (none for a waive).
    pub unit: Option<RawUnit>,
    /// The action (meaningless for a waive).
    pub action: RawAction,
    /// `WAIVE` was written.
    pub waive: bool,
    /// `PF 3 Bavaria`: political factors allocated to a country (Hegemony 1.1.1).
    pub allocation: Option<RawAllocation>,
    /// `Friendly to England`: a declaration of friendship (Hegemony 1.2).
    pub declaration: Option<RawDeclaration>,
    /// `SC F Red - Med` after the order: leave for a fleet to pass the canal this unit holds.
    pub permission: Option<(RawUnit, RawPlace)>,
}

/// The keywords of the order grammar, each with its English and German words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    Army,
    Fleet,
    Hold,
    Support,
    Convoy,
    Retreat,
    Disband,
    Build,
    Waive,
    Choose,
    Pf,
    To,
    Via,
}

/// The keyword a folded word is, if any.
pub(crate) fn keyword(key: &str) -> Option<Keyword> {
    use Keyword::*;
    Some(match key {
        "a" | "army" | "armee" => Army,
        "f" | "fleet" | "flotte" => Fleet,
        "h" | "hold" | "holds" | "halt" | "halten" | "haelt" | "stand" | "stands" => Hold,
        "s" | "support" | "supports" | "u" | "unterstuetzt" | "unterstuetzen" | "unterstuetzung" => Support,
        "c" | "convoy" | "convoys" | "k" | "konvoi" | "konvoiert" | "konvoieren" | "geleit" | "geleitet"
        | "geleiten" => Convoy,
        "r" | "retreat" | "retreats" | "rueckzug" => Retreat,
        "d" | "disband" | "disbands" | "remove" | "removes" | "aufloesen" | "aufloesung" | "abbau" | "abbauen"
        | "loese" | "loes" => Disband,
        "b" | "build" | "builds" | "bauen" | "baut" | "baue" | "bau" | "aufbau" | "aufbauen" => Build,
        "waive" | "waives" | "verzicht" | "verzichten" | "verzichtet" => Waive,
        "choose" | "chooses" | "choice" | "wahl" | "waehle" | "waehlt" | "waehlen" => Choose,
        "pf" => Pf,
        "to" | "nach" | "move" | "moves" | "m" => To,
        "via" | "by" | "per" | "mit" => Via,
        _ => return None,
    })
}

/// Coast words that may stand alone after a province (`spa sc`, `spa nordküste`).
pub(crate) fn coast_word(key: &str) -> Option<Coast> {
    Some(match key {
        "nc" | "northcoast" | "northerncoast" | "nordkueste" => Coast::North,
        "sc" | "southcoast" | "southerncoast" | "suedkueste" => Coast::South,
        "ec" | "eastcoast" | "easterncoast" | "ostkueste" => Coast::East,
        "wc" | "westcoast" | "westerncoast" | "westkueste" => Coast::West,
        _ => return None,
    })
}

/// Coast words after `/` or inside parentheses, or glued to a name (`SpainSouthern`).
pub(crate) fn coast_phrase(key: &str) -> Option<Coast> {
    if let Some(c) = coast_word(key) {
        return Some(c);
    }
    Some(match key {
        "n" | "north" | "northern" | "nord" => Coast::North,
        "s" | "south" | "southern" | "sued" => Coast::South,
        "e" | "east" | "eastern" | "ost" => Coast::East,
        "w" | "west" | "western" => Coast::West,
        _ => return None,
    })
}

const GLUED_COAST_SUFFIXES: [&str; 20] = [
    "northcoast",
    "southcoast",
    "eastcoast",
    "westcoast",
    "nordkueste",
    "suedkueste",
    "ostkueste",
    "westkueste",
    "northern",
    "southern",
    "eastern",
    "western",
    "north",
    "south",
    "east",
    "west",
    "nc",
    "sc",
    "ec",
    "wc",
];

struct Reader<'t, 'm> {
    tokens: Tokens<'t>,
    at: usize,
    map: &'m Map,
    line_end: usize,
}

impl<'t> Reader<'t, '_> {
    fn peek(&self) -> Option<&Token<'t>> {
        self.tokens.list.get(self.at)
    }

    fn peek_keyword(&self) -> Option<Keyword> {
        self.peek()
            .filter(|t| t.kind == TokenKind::Word)
            .and_then(|t| keyword(t.key))
    }

    fn position(&self) -> usize {
        self.peek().map_or(self.line_end, |t| t.start)
    }

    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "the end of the order".to_string(), |t| format!("`{}`", t.text))
    }

    fn expected(&self, expected: &'static str) -> OrderError {
        OrderError::new(
            OrderErrorKind::Expected {
                expected,
                found: self.found(),
            },
            self.position(),
        )
    }

    fn eat_kind(&mut self, kind: TokenKind) -> bool {
        if self.peek().is_some_and(|t| t.kind == kind) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_keyword(&mut self, kw: Keyword) -> bool {
        if self.peek_keyword() == Some(kw) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Reads a province name of one or more words (dashes allowed inside, as in Mid-Atlantic),
    /// taking the longest name the map knows. Returns the province and the token count used.
    fn match_province(&self, from: usize) -> Option<(ProvinceId, usize, Option<Coast>)> {
        let first = self.tokens.list.get(from).filter(|t| t.kind == TokenKind::Word)?;
        let max_words = self.map.names().longest_province_name().max(1);
        let (found, mut longer) = self.map.names().province_step(first.key, 1);
        let mut best = found.map(|p| (p, 1, None));
        let mut i = from + 1;
        let mut words = 1;
        // Only as long as some name of more words starts so.
        while longer && words < max_words {
            let mut j = i;
            if self.tokens.list.get(j).is_some_and(|t| t.kind == TokenKind::Dash) {
                j += 1;
            }
            let Some(next) = self.tokens.list.get(j).filter(|t| t.kind == TokenKind::Word) else {
                break;
            };
            if keyword(next.key).is_some() && j == i {
                break;
            }
            words += 1;
            i = j + 1;
            let (found, more) = self.map.names().province_step(self.tokens.run_key(from, i), words);
            if let Some(p) = found {
                best = Some((p, i - from, None));
            }
            longer = more;
        }
        if best.is_none() {
            // A coast glued to the name: "SpainSouthern", "spasc".
            for suffix in GLUED_COAST_SUFFIXES {
                if let Some(stem) = first.key.strip_suffix(suffix) {
                    if let Some(p) = self.map.names().province(stem) {
                        return Some((p, 1, coast_phrase(suffix)));
                    }
                }
            }
        }
        best
    }

    fn unknown_place(&self) -> OrderError {
        let Some(tok) = self.peek().filter(|t| t.kind == TokenKind::Word) else {
            return self.expected("a province");
        };
        // Suggest for the first word alone, then for the first two or three words run together.
        let mut key = String::new();
        let mut suggestion = None;
        for t in self.tokens.list[self.at..].iter().take(3) {
            if t.kind != TokenKind::Word || (!key.is_empty() && keyword(t.key).is_some()) {
                break;
            }
            key.push_str(t.key);
            if let Some((name, _)) = self.map.names().suggest_province(&key) {
                suggestion = Some(name.to_string());
                break;
            }
        }
        OrderError::new(OrderErrorKind::UnknownProvince(tok.text.to_string()), tok.start).with_suggestion(suggestion)
    }

    fn place(&mut self) -> Result<RawPlace, OrderError> {
        let position = self.position();
        let Some((province, used, glued)) = self.match_province(self.at) else {
            return Err(self.unknown_place());
        };
        self.at += used;
        let coast = match glued {
            Some(c) => Some(c),
            None => self.coast(province)?,
        };
        Ok(RawPlace {
            province,
            coast,
            position,
        })
    }

    /// Reads an optional coast after a province: `/nc`, `(sc)`, `(south coast)`, `nc`, `north coast`.
    fn coast(&mut self, province: ProvinceId) -> Result<Option<Coast>, OrderError> {
        let Some(tok) = self.peek() else { return Ok(None) };
        match tok.kind {
            TokenKind::Slash => {
                self.at += 1;
                let Some(word) = self.peek().filter(|t| t.kind == TokenKind::Word) else {
                    return Err(self.expected("a coast after `/`"));
                };
                let (start, text, key) = (word.start, word.text, word.key);
                self.at += 1;
                let coast = if self
                    .peek()
                    .is_some_and(|t| t.kind == TokenKind::Word && matches!(t.key, "coast" | "kueste"))
                {
                    self.at += 1;
                    coast_phrase(&format!("{key}coast"))
                } else {
                    coast_phrase(key)
                };
                coast
                    .map(Some)
                    .ok_or_else(|| OrderError::new(OrderErrorKind::UnknownCoast(text.to_string()), start))
            }
            TokenKind::Open => {
                let start = tok.start;
                let save = self.at;
                self.at += 1;
                let from = self.at;
                while self.peek().is_some_and(|t| t.kind == TokenKind::Word) {
                    self.at += 1;
                }
                let key = self.tokens.run_key(from, self.at);
                if !self.eat_kind(TokenKind::Close) {
                    // Not a coast in parentheses (perhaps "(via convoy)"): leave it for later.
                    self.at = save;
                    return Ok(None);
                }
                match coast_phrase(key) {
                    Some(c) => Ok(Some(c)),
                    None if key == "via" || key == "viaconvoy" || key == "byconvoy" => {
                        self.at = save;
                        Ok(None)
                    }
                    None => Err(OrderError::new(OrderErrorKind::UnknownCoast(key.to_string()), start)),
                }
            }
            TokenKind::Word => {
                let key = tok.key;
                let split = self.map.province(province).has_split_coast();
                if let Some(c) = coast_word(key).filter(|_| split) {
                    self.at += 1;
                    return Ok(Some(c));
                }
                if let Some(c) = coast_phrase(key).filter(|_| split && key.len() > 1) {
                    // A place is never followed directly by another place, so "Bul East" is
                    // the east coast even though "East" also names a sea.
                    if self.map.coast_of(province, c).is_some() {
                        self.at += 1;
                        if self
                            .peek()
                            .is_some_and(|t| t.kind == TokenKind::Word && matches!(t.key, "coast" | "kueste"))
                        {
                            self.at += 1;
                        }
                        return Ok(Some(c));
                    }
                    let next = self.tokens.list.get(self.at + 1);
                    if next.is_some_and(|t| t.kind == TokenKind::Word && matches!(t.key, "coast" | "kueste")) {
                        self.at += 2;
                        return Ok(Some(c));
                    }
                    if self.match_province(self.at).is_none() {
                        self.at += 1;
                        return Ok(Some(c));
                    }
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// Skips a railroad's name (`TSR`) if one stands here.
    fn eat_railroad(&mut self) -> bool {
        let named = self
            .peek()
            .is_some_and(|t| t.kind == TokenKind::Word && self.map.railroad_by_key(t.key).is_some());
        if named {
            self.at += 1;
        }
        named
    }

    /// A leader's letters before a unit: `L`, `LA`, `LF`, `L A`, `Leader`, `Anführer`. Read as
    /// such only when a place or a unit type follows, so a province called `La` stays one.
    fn leader(&mut self) -> (bool, Option<UnitType>) {
        let Some(tok) = self.peek().filter(|t| t.kind == TokenKind::Word) else {
            return (false, None);
        };
        let kind = match tok.key {
            "l" | "leader" | "anfuehrer" | "fuehrer" => None,
            "la" => Some(UnitType::Army),
            "lf" => Some(UnitType::Fleet),
            _ => return (false, None),
        };
        let next_is_kind = kind.is_none()
            && self.tokens.list.get(self.at + 1).is_some_and(|t| {
                t.kind == TokenKind::Word && matches!(keyword(t.key), Some(Keyword::Army | Keyword::Fleet))
            });
        if !next_is_kind && self.match_province(self.at + 1).is_none() {
            return (false, None);
        }
        self.at += 1;
        (true, kind)
    }

    fn unit_kind(&mut self) -> Option<UnitType> {
        match self.peek_keyword() {
            Some(Keyword::Army) => {
                self.at += 1;
                Some(UnitType::Army)
            }
            Some(Keyword::Fleet) => {
                self.at += 1;
                Some(UnitType::Fleet)
            }
            _ => None,
        }
    }

    /// An optional power name or adjective before a supported or convoyed unit ("Russian").
    fn power_adjective(&mut self) -> Option<PowerId> {
        let tok = self.peek().filter(|t| t.kind == TokenKind::Word)?;
        let power = self.map.names().power(tok.key)?;
        let next = self.tokens.list.get(self.at + 1);
        let next_is_unit = next.is_some_and(|t| {
            t.kind == TokenKind::Word && matches!(keyword(t.key), Some(Keyword::Army | Keyword::Fleet))
        });
        if next_is_unit || self.match_province(self.at + 1).is_some() {
            self.at += 1;
            Some(power)
        } else {
            None
        }
    }

    fn unit(&mut self, allow_power: bool) -> Result<RawUnit, OrderError> {
        let power = if allow_power { self.power_adjective() } else { None };
        let (leader, led_kind) = self.leader();
        let kind = match led_kind {
            Some(k) => Some(k),
            None => self.unit_kind(),
        };
        if self.peek().is_none() {
            return Err(self.expected("a unit (e.g. `A Par`)"));
        }
        let place = self.place()?;
        Ok(RawUnit {
            kind,
            leader,
            place,
            power,
        })
    }

    fn via(&mut self) -> bool {
        let save = self.at;
        let paren = self.eat_kind(TokenKind::Open);
        if self.eat_keyword(Keyword::Via) {
            let _ = self.eat_keyword(Keyword::Convoy);
            if !paren || self.eat_kind(TokenKind::Close) {
                return true;
            }
        }
        self.at = save;
        false
    }

    /// An optional canal permission after the order: `SC F Red - Med`.
    fn permission(&mut self) -> Result<Option<(RawUnit, RawPlace)>, OrderError> {
        if !self.peek().is_some_and(|t| t.kind == TokenKind::Word && t.key == "sc") {
            return Ok(None);
        }
        self.at += 1;
        let fleet = self.unit(false)?;
        if !self.is_arrow() {
            return Err(self.expected("`-` and where the fleet passes to"));
        }
        self.at += 1;
        let to = self.place()?;
        Ok(Some((fleet, to)))
    }

    fn end(&mut self) -> Result<(), OrderError> {
        // The separable German verb's particle: `Löse Armee Rom auf`.
        if self.peek().is_some_and(|t| t.kind == TokenKind::Word && t.key == "auf")
            && self.tokens.list.len() == self.at + 1
        {
            self.at += 1;
        }
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(OrderError::new(
                OrderErrorKind::TrailingText(t.text.to_string()),
                t.start,
            )),
        }
    }

    /// `PF 3 Bavaria` or `3 PF Bavaria` (a `to`/`an` before the country is allowed), if the
    /// order is an allocation of political factors.
    fn allocation(&mut self) -> Result<Option<RawAllocation>, OrderError> {
        let number = |t: Option<&Token<'_>>| t.and_then(|t| t.text.parse::<u32>().ok());
        let pf_first = self.peek_keyword() == Some(Keyword::Pf);
        let pf_second = self
            .tokens
            .list
            .get(self.at + 1)
            .is_some_and(|t| t.kind == TokenKind::Word && keyword(t.key) == Some(Keyword::Pf));
        let count = match (pf_first, pf_second) {
            (true, _) => number(self.tokens.list.get(self.at + 1)),
            (false, true) => number(self.peek()),
            _ => return Ok(None),
        };
        if pf_first && count.is_none() {
            self.at += 1;
            return Err(self.expected("the number of political factors after `PF`"));
        }
        let Some(pf) = count else { return Ok(None) };
        self.at += 2;
        let _ = self.eat_keyword(Keyword::To) || self.eat_word(&["an", "fuer", "for"]);
        let (country, position) = self.country_to_end("the country that gets the political factors")?;
        Ok(Some(RawAllocation { pf, country, position }))
    }

    /// `Friendly to England`, `Friendship England`, `Freundlich gegenüber England`, `Freundlich zu
    /// England`, after an optional `Declare` / `Erkläre`.
    fn declaration(&mut self) -> Result<Option<RawDeclaration>, OrderError> {
        let start = self.at;
        let _ = self.eat_word(&["declare", "declares", "erklaere", "erklaert", "erklaeren"]);
        if !self.eat_word(&["friendly", "friendship", "friend", "freundlich", "freundschaft"]) {
            self.at = start;
            return Ok(None);
        }
        let _ = self.eat_keyword(Keyword::To)
            || self.eat_word(&[
                "towards",
                "toward",
                "with",
                "zu",
                "gegenueber",
                "mit",
                "an",
                "fuer",
                "for",
            ]);
        let (country, position) = self.country_to_end("the country declared friendly")?;
        Ok(Some(RawDeclaration { country, position }))
    }

    /// The rest of the line as a country's name, with where it starts.
    fn country_to_end(&mut self, what: &'static str) -> Result<(PowerId, usize), OrderError> {
        let Some(first) = self.peek().cloned() else {
            return Err(self.expected(what));
        };
        let key = self.tokens.run_key(self.at, self.tokens.list.len());
        match self.map.names().power(key) {
            Some(country) => {
                self.at = self.tokens.list.len();
                Ok((country, first.start))
            }
            None => {
                let text = self.tokens.list[self.at..]
                    .iter()
                    .map(|t| t.text)
                    .collect::<Vec<_>>()
                    .join(" ");
                let suggestion = self.map.names().suggest_power(key).map(|(n, _)| n.to_string());
                Err(OrderError::new(OrderErrorKind::UnknownPower(text), first.start).with_suggestion(suggestion))
            }
        }
    }

    /// Skips one of these words (folded keys), if it comes next.
    fn eat_word(&mut self, words: &[&str]) -> bool {
        if self.peek().is_some_and(|t| words.contains(&t.key)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn is_arrow(&self) -> bool {
        self.peek().is_some_and(|t| t.kind == TokenKind::Dash) || self.peek_keyword() == Some(Keyword::To)
    }

    fn body(&mut self) -> Result<(Option<RawUnit>, RawAction, bool), OrderError> {
        match self.peek_keyword() {
            Some(Keyword::Waive) => {
                self.at += 1;
                return Ok((None, RawAction::Hold, true));
            }
            Some(kw @ (Keyword::Build | Keyword::Disband | Keyword::Choose)) => {
                self.at += 1;
                let unit = self.unit(false)?;
                let action = match kw {
                    Keyword::Build => RawAction::Build,
                    Keyword::Disband => RawAction::Disband,
                    _ => RawAction::Choose,
                };
                return Ok((Some(unit), action, false));
            }
            Some(Keyword::Retreat) => {
                self.at += 1;
                let unit = self.unit(false)?;
                if !self.is_arrow() {
                    return Err(self.expected("`-` and the retreat destination"));
                }
                self.at += 1;
                let to = self.place()?;
                return Ok((Some(unit), RawAction::Retreat { to }, false));
            }
            _ => {}
        }
        let unit = self.unit(false)?;
        let action = match self.peek_keyword() {
            _ if self.peek().is_none() => RawAction::Hold,
            _ if self.is_arrow() => {
                let mut path = MovePath::new();
                let mut railroad = false;
                while self.is_arrow() {
                    self.at += 1;
                    // "moves to", "- to"
                    let _ = self.eat_keyword(Keyword::To);
                    if self.eat_railroad() {
                        railroad = true;
                        continue;
                    }
                    path.push(self.place()?);
                }
                let via_convoy = self.via();
                RawAction::Move {
                    path,
                    via_convoy,
                    railroad,
                }
            }
            Some(Keyword::Hold) => {
                self.at += 1;
                RawAction::Hold
            }
            Some(Keyword::Support) => {
                self.at += 1;
                let target = self.unit(true)?;
                let to = if self.is_arrow() {
                    self.at += 1;
                    if self.eat_railroad() && self.is_arrow() {
                        self.at += 1;
                    }
                    let to = self.place()?;
                    let _ = self.via();
                    Some(to)
                } else {
                    let _ = self.eat_keyword(Keyword::Hold);
                    None
                };
                RawAction::Support { target, to }
            }
            Some(Keyword::Convoy) => {
                self.at += 1;
                let target = self.unit(true)?;
                if !self.is_arrow() {
                    return Err(self.expected("`-` and the convoyed army's destination"));
                }
                self.at += 1;
                let to = self.place()?;
                RawAction::Convoy { target, to }
            }
            Some(Keyword::Retreat) => {
                self.at += 1;
                if self.is_arrow() {
                    self.at += 1;
                }
                RawAction::Retreat { to: self.place()? }
            }
            Some(Keyword::Disband) => {
                self.at += 1;
                RawAction::Disband
            }
            Some(Keyword::Build) => {
                self.at += 1;
                RawAction::Build
            }
            _ => return Err(self.expected("an order: H, -, S, C, R, D or B")),
        };
        Ok((Some(unit), action, false))
    }
}

/// Finds the power of a `Power:` prefix; returns it and the index of the first token after the colon.
fn power_prefix(map: &Map, all: &Tokens<'_>) -> Result<(Option<PowerId>, usize), OrderError> {
    let tokens = &all.list;
    let Some(colon) = tokens.iter().position(|t| t.kind == TokenKind::Colon) else {
        return Ok((None, 0));
    };
    let words = &tokens[..colon];
    let Some(first) = words.first() else {
        return Err(OrderError::new(
            OrderErrorKind::Expected {
                expected: "a power name before `:`",
                found: "`:`".to_string(),
            },
            tokens[colon].start,
        ));
    };
    let key = all.run_key(0, colon);
    match map.names().power(key) {
        Some(p) => Ok((Some(p), colon + 1)),
        None => {
            let text = words.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
            let suggestion = map.names().suggest_power(key).map(|(n, _)| n.to_string());
            Err(OrderError::new(OrderErrorKind::UnknownPower(text), first.start).with_suggestion(suggestion))
        }
    }
}

/// Reads a `Power:` line that stands alone (a header for the order lines below it).
pub fn read_power_header(map: &Map, line: &str) -> Option<PowerId> {
    if !line.contains(':') {
        return None;
    }
    with_tokens(line, |tokens| {
        let tokens = tokens.ok()?;
        let (power, next) = power_prefix(map, &tokens).ok()?;
        if next == tokens.list.len() { power } else { None }
    })
}

/// The power a line's `Power:` prefix names, also when the order after it cannot be read.
pub fn read_power_prefix(map: &Map, line: &str) -> Option<PowerId> {
    let colon = line.find(':')?;
    read_power_header(map, &line[..=colon])
}

/// Reads one order line into its parts, looking names up in the map.
pub fn read_order(map: &Map, line: &str) -> Result<RawOrder, OrderError> {
    with_tokens(line, |tokens| read_tokens(map, line.len(), tokens?))
}

/// A character no order may contain, as an error.
impl From<BadChar> for OrderError {
    fn from(bad: BadChar) -> OrderError {
        OrderError::new(OrderErrorKind::UnexpectedCharacter(bad.ch), bad.at)
    }
}

/// Reads the tokens of an order line `line_end` bytes long.
fn read_tokens(map: &Map, line_end: usize, tokens: Tokens<'_>) -> Result<RawOrder, OrderError> {
    if tokens.list.is_empty() {
        return Err(OrderError::new(OrderErrorKind::Empty, 0));
    }
    let (power, start) = power_prefix(map, &tokens)?;
    let mut reader = Reader {
        tokens,
        at: start,
        map,
        line_end,
    };
    if reader.peek().is_none() {
        return Err(reader.expected("an order after the power"));
    }
    if let Some(allocation) = reader.allocation()? {
        return Ok(RawOrder {
            power,
            unit: None,
            action: RawAction::Hold,
            waive: false,
            allocation: Some(allocation),
            declaration: None,
            permission: None,
        });
    }
    if let Some(declaration) = reader.declaration()? {
        return Ok(RawOrder {
            power,
            unit: None,
            action: RawAction::Hold,
            waive: false,
            allocation: None,
            declaration: Some(declaration),
            permission: None,
        });
    }
    let (unit, action, waive) = reader.body()?;
    let permission = reader.permission()?;
    reader.end()?;
    Ok(RawOrder {
        power,
        unit,
        action,
        waive,
        allocation: None,
        declaration: None,
        permission,
    })
}

/// Reads a single place (`Eng`, `Spain (south coast)`, `stp/nc`); error positions count from the
/// start of `text`.
pub(crate) fn read_place(map: &Map, text: &str) -> Result<RawPlace, OrderError> {
    with_tokens(text, |tokens| {
        let mut reader = Reader {
            tokens: tokens?,
            at: 0,
            map,
            line_end: text.len(),
        };
        let place = reader.place()?;
        reader.end()?;
        Ok(place)
    })
}

/// The power named by the words of `text` (a name, adjective or alias), if any word run is one.
pub(crate) fn find_power(map: &Map, text: &str) -> Option<PowerId> {
    with_tokens(text, |tokens| {
        let tokens = tokens.ok()?;
        for start in 0..tokens.list.len() {
            for (end, t) in tokens.list.iter().enumerate().skip(start) {
                if t.kind != TokenKind::Word {
                    break;
                }
                if let Some(p) = map.names().power(tokens.run_key(start, end + 1)) {
                    return Some(p);
                }
            }
        }
        None
    })
}
