//! A quick reader for the plainest order lines, the ones nearly every game and program sends:
//! `A Par - Bur`, `F Lon H`, `A Mun S A Kie - Ruh`, `F Nth C A Lon - Nwy`, `F Mao - Spa/nc`,
//! `A Lon - Nwy via convoy` — ASCII letters, spaces, `-` and `/` only, the unit type written,
//! one-word place names.
//!
//! It reads such a line into the same [`RawOrder`] as [`read_order`](super::syntax::read_order)
//! and gives up (`None`) on anything else, or on anything it is not sure of (a word that may
//! start a longer name, a coast written as a word, a power's adjective, a leader, a railroad, a
//! keyword where a place stands): the full reader then reads the line, with its errors and
//! every other notation. A line it reads is also no heading, condition or retreat given in
//! advance (those need a colon, a digit, `if`/`wenn`, or `R`). The tests compare both readers.

use crate::ids::{Coast, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::syntax::{Keyword, RawAction, RawOrder, RawPlace, RawUnit, coast_phrase, coast_word, keyword};

/// The longest line read here (longer ones go to the full reader).
const MAX_LINE: usize = 64;
/// The most pieces such a line has (`F Nth C A Lon - Nwy/nc` has nine).
const MAX_PIECES: usize = 12;

/// One piece of a plain line: a word (its byte range) or a sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Word { start: u8, end: u8 },
    Dash,
    Slash,
}

/// A plain line cut into pieces, with its lower-case copy (same byte positions) for keys.
struct Plain {
    lower: [u8; MAX_LINE],
    pieces: [Piece; MAX_PIECES],
    len: usize,
}

impl Plain {
    /// Cuts `line` into pieces, if it holds only ASCII letters, spaces, `-` and `/`, is short
    /// enough and does not mention `if` or `wenn` (a conditional order's words).
    fn cut(line: &str) -> Option<Plain> {
        let bytes = line.as_bytes();
        if bytes.len() > MAX_LINE {
            return None;
        }
        let mut plain = Plain {
            lower: [0; MAX_LINE],
            pieces: [Piece::Dash; MAX_PIECES],
            len: 0,
        };
        let mut at = 0;
        while at < bytes.len() {
            let piece = match bytes[at] {
                b' ' | b'\t' => {
                    at += 1;
                    continue;
                }
                b'-' => Piece::Dash,
                b'/' => Piece::Slash,
                b if b.is_ascii_alphabetic() => {
                    let start = at;
                    while at < bytes.len() && bytes[at].is_ascii_alphabetic() {
                        plain.lower[at] = bytes[at].to_ascii_lowercase();
                        at += 1;
                    }
                    let word = &plain.lower[start..at];
                    if word == b"if" || word == b"wenn" {
                        return None;
                    }
                    plain.push(Piece::Word {
                        start: start as u8,
                        end: at as u8,
                    })?;
                    continue;
                }
                _ => return None,
            };
            // `->` is an arrow too, but `>` is not read here.
            plain.push(piece)?;
            at += 1;
        }
        Some(plain)
    }

    fn push(&mut self, piece: Piece) -> Option<()> {
        *self.pieces.get_mut(self.len)? = piece;
        self.len += 1;
        Some(())
    }

    fn get(&self, i: usize) -> Option<Piece> {
        self.pieces[..self.len].get(i).copied()
    }
}

/// The keys of a run of words, one after another (a name of several words).
struct Run {
    bytes: [u8; MAX_LINE],
    len: usize,
}

impl Run {
    fn new() -> Run {
        Run {
            bytes: [0; MAX_LINE],
            len: 0,
        }
    }

    fn push(&mut self, key: &str) -> Option<()> {
        let end = self.len + key.len();
        self.bytes.get_mut(self.len..end)?.copy_from_slice(key.as_bytes());
        self.len = end;
        Some(())
    }

    fn key(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes[..self.len]).ok()
    }
}

/// Reads the pieces of a plain line from `at` on.
struct Cursor<'p, 'm> {
    plain: &'p Plain,
    /// The line in lower case.
    lower: &'p str,
    map: &'m Map,
    at: usize,
}

impl<'p> Cursor<'p, '_> {
    /// The key (lower-case text) and start of the word at `i`, if a word stands there.
    fn word(&self, i: usize) -> Option<(&'p str, usize)> {
        match self.plain.get(i)? {
            Piece::Word { start, end } => {
                let (start, end) = (usize::from(start), usize::from(end));
                Some((self.lower.get(start..end)?, start))
            }
            _ => None,
        }
    }

    fn keyword(&self, i: usize) -> Option<Keyword> {
        self.word(i).and_then(|(key, _)| keyword(key))
    }

    fn at_end(&self) -> bool {
        self.at == self.plain.len
    }

    fn eat(&mut self, piece: Piece) -> bool {
        let here = self.plain.get(self.at) == Some(piece);
        self.at += usize::from(here);
        here
    }

    fn eat_keyword(&mut self, wanted: Keyword) -> bool {
        let here = self.keyword(self.at) == Some(wanted);
        self.at += usize::from(here);
        here
    }

    /// A province name of one or more words, the longest the map knows, as the full reader
    /// takes it (dashes may stand inside a name: `Mid-Atlantic`); with a coast after `/`.
    fn place(&mut self) -> Option<RawPlace> {
        let (first, position) = self.word(self.at)?;
        let (found, longer) = self.map.names().province_step(first, 1);
        let mut best = found.map(|p| (p, 1));
        if longer {
            self.longer_name(first, &mut best)?;
        }
        // No name at all: perhaps a coast glued to it (`spasc`), which the full reader reads.
        let (province, used) = best?;
        self.at += used;
        let coast = self.coast(province)?;
        Some(RawPlace {
            province,
            coast,
            position,
        })
    }

    /// Tries names of more words that start with `first` (at the cursor), as the full reader
    /// does, keeping in `best` the longest found and the count of pieces it takes.
    fn longer_name(&self, first: &str, best: &mut Option<(ProvinceId, usize)>) -> Option<()> {
        let names = self.map.names();
        let mut run = Run::new();
        run.push(first)?;
        let (mut i, mut words, mut longer) = (self.at + 1, 1, true);
        while longer && words < names.longest_province_name() {
            let dash = self.plain.get(i) == Some(Piece::Dash);
            let j = i + usize::from(dash);
            let Some((next, _)) = self.word(j) else { break };
            if !dash && keyword(next).is_some() {
                break;
            }
            run.push(next)?;
            (i, words) = (j + 1, words + 1);
            let (found, more) = names.province_step(run.key()?, words);
            if let Some(p) = found {
                *best = Some((p, i - self.at));
            }
            longer = more;
        }
        Some(())
    }

    /// The coast after a place: `/nc` (not `/north coast`); `None` (give up) where the full
    /// reader might read a coast word (after a province with coasts) or fail.
    fn coast(&mut self, province: ProvinceId) -> Option<Option<Coast>> {
        if self.eat(Piece::Slash) {
            let (key, _) = self.word(self.at)?;
            if self
                .word(self.at + 1)
                .is_some_and(|(next, _)| matches!(next, "coast" | "kueste"))
            {
                return None;
            }
            self.at += 1;
            return coast_phrase(key).map(Some);
        }
        if let Some((key, _)) = self.word(self.at) {
            let split = self.map.province(province).has_split_coast();
            if split && (coast_word(key).is_some() || (coast_phrase(key).is_some() && key.len() > 1)) {
                return None;
            }
        }
        Some(None)
    }

    /// A unit with its type written (`A Par`), no leader, and (for a supported or convoyed
    /// unit) no power adjective; or, for those, a place alone (`S Par - Bur`).
    fn unit(&mut self, type_needed: bool) -> Option<RawUnit> {
        let (key, _) = self.word(self.at)?;
        if matches!(key, "l" | "leader" | "anfuehrer" | "fuehrer" | "la" | "lf") {
            return None;
        }
        if !type_needed && self.map.names().power(key).is_some() {
            return None;
        }
        let kind = match keyword(key) {
            Some(Keyword::Army) => Some(UnitType::Army),
            Some(Keyword::Fleet) => Some(UnitType::Fleet),
            _ if type_needed => return None,
            _ => None,
        };
        self.at += usize::from(kind.is_some());
        let place = self.place()?;
        Some(RawUnit {
            kind,
            leader: false,
            place,
            power: None,
        })
    }

    /// A dash and a place after it, where no railroad's name or `to` comes between.
    fn dash_place(&mut self) -> Option<RawPlace> {
        if !self.eat(Piece::Dash) {
            return None;
        }
        let (key, _) = self.word(self.at)?;
        if self.map.railroad_by_key(key).is_some() || keyword(key).is_some() {
            return None;
        }
        self.place()
    }

    /// Whether the full reader would take the next piece as a move arrow.
    fn arrow_next(&self) -> bool {
        self.plain.get(self.at) == Some(Piece::Dash) || self.keyword(self.at) == Some(Keyword::To)
    }

    /// `via` (`by`, `per`, `mit`), perhaps followed by `convoy`, after a move: whether it was
    /// written.
    fn via(&mut self) -> bool {
        let via = self.eat_keyword(Keyword::Via);
        if via {
            let _ = self.eat_keyword(Keyword::Convoy);
        }
        via
    }

    /// What the unit is ordered to do.
    fn action(&mut self) -> Option<RawAction> {
        if self.at_end() {
            return Some(RawAction::Hold);
        }
        if self.arrow_next() {
            let to = self.dash_place()?;
            return Some(RawAction::Move {
                path: smallvec::smallvec![to],
                via_convoy: self.via(),
                railroad: false,
            });
        }
        match self.keyword(self.at)? {
            Keyword::Hold => {
                self.at += 1;
                Some(RawAction::Hold)
            }
            // (Not `R`: in a movement phase that is a retreat given in advance.)
            Keyword::Disband => {
                self.at += 1;
                Some(RawAction::Disband)
            }
            Keyword::Build => {
                self.at += 1;
                Some(RawAction::Build)
            }
            Keyword::Support => {
                self.at += 1;
                let target = self.unit(false)?;
                let to = if self.arrow_next() {
                    let to = self.dash_place()?;
                    let _ = self.via();
                    Some(to)
                } else {
                    let _ = self.eat_keyword(Keyword::Hold);
                    None
                };
                Some(RawAction::Support { target, to })
            }
            Keyword::Convoy => {
                self.at += 1;
                let target = self.unit(false)?;
                let to = self.dash_place()?;
                Some(RawAction::Convoy { target, to })
            }
            _ => None,
        }
    }
}

/// Reads a plain order line (see the module's text) as [`read_order`](super::syntax::read_order)
/// does, or gives up with `None`.
pub(crate) fn quick_order(map: &Map, line: &str) -> Option<RawOrder> {
    let plain = Plain::cut(line)?;
    let lower = std::str::from_utf8(&plain.lower[..line.len()]).ok()?;
    let mut cursor = Cursor {
        plain: &plain,
        lower,
        map,
        at: 0,
    };
    let unit = cursor.unit(true)?;
    let action = cursor.action()?;
    if !cursor.at_end() {
        return None;
    }
    Some(RawOrder {
        power: None,
        unit: Some(unit),
        action,
        waive: false,
        allocation: None,
        declaration: None,
        permission: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::syntax::read_order;
    use crate::test_support::{Rng, standard};

    #[test]
    fn the_plainest_lines_are_read_as_the_full_reader_reads_them() {
        let variant = standard();
        for line in [
            "A Par - Bur",
            "a par-bur",
            "F LON H",
            "A PAR",
            "A MUN S A KIE - RUH",
            "A Mun S Kie - Ruh",
            "A Mun S A Kie",
            "A Mun S A Kie H",
            "F NTH C A LON - NWY",
            "F MAO - SPA/NC",
            "F Bul/ec - Con",
            "F Spa/sc S F Mao - Por",
            "A Par D",
            "F Kie B",
            "F Mid-Atlantic Ocean - Spain/nc",
            "A Tyr - Ven",
        ] {
            let quick = quick_order(&variant.map, line);
            assert!(quick.is_some(), "{line} is read quickly");
            assert_eq!(quick.map(Ok), Some(read_order(&variant.map, line)), "{line}");
        }
    }

    /// The ways a place of `map` is written: abbreviations, names (several words too), aliases,
    /// with and without coasts, and some that are no place.
    fn place_spellings(map: &Map) -> Vec<String> {
        let mut places = vec!["Xyz".to_string(), "St".to_string(), "North".to_string()];
        for p in map.provinces() {
            places.extend([p.abbreviation.clone(), p.name.clone(), p.name_de.clone()]);
            places.extend(p.aliases.iter().cloned());
            for coast in ["/nc", "/sc", "/ec", "/n", " nc", " sc", "/north coast", "(nc)", "/xc"] {
                places.push(format!("{}{coast}", p.abbreviation));
            }
        }
        places
    }

    /// A random order-like line: mostly well formed, sometimes with odd words, other cases and
    /// signs; each word drawn from what the full reader knows or stumbles over.
    fn random_line(rng: &mut Rng, places: &[String], others: &[&str]) -> String {
        let kinds = ["A", "F", "a", "f", "Army", "Fleet", "Flotte", "", "L", "LA", "Fleet"];
        let actions = ["", "H", "-", "- ", "-", "S", "S", "C", "R", "D", "B", "to", "->", " - "];
        let place = |rng: &mut Rng| places[rng.below(places.len())].clone();
        let mut words = vec![rng.pick(&kinds).to_string(), place(rng)];
        match rng.pick(&actions) {
            a @ ("S" | "C") => {
                words.extend([a.to_string(), rng.pick(&kinds).to_string(), place(rng)]);
                if rng.below(3) > 0 {
                    words.extend(["-".to_string(), place(rng)]);
                }
            }
            a @ ("-" | "- " | " - " | "to" | "->" | "R") => {
                words.extend([a.to_string(), place(rng)]);
            }
            a => words.push(a.to_string()),
        }
        if rng.below(5) == 0 {
            let via = [
                "via",
                "VIA",
                "via convoy",
                "by convoy",
                "per",
                "mit",
                "(via convoy)",
                "via c",
            ];
            words.push(rng.pick(&via).to_string());
        }
        if rng.below(6) == 0 {
            let at = rng.below(words.len() + 1);
            words.insert(at, rng.pick(others).to_string());
        }
        let mut line = words.join(if rng.below(8) == 0 { "  " } else { " " });
        if rng.below(4) == 0 {
            line = line.to_uppercase();
        } else if rng.below(4) == 0 {
            line = line.to_lowercase();
        }
        line
    }

    #[test]
    fn on_random_lines_of_every_variant_both_readers_agree_where_the_quick_one_reads() {
        for name in crate::variant::builtin_names() {
            let variant = crate::variant::builtin(name).expect("built in").expect("loads");
            let map = &variant.map;
            let places = place_spellings(map);
            let mut others: Vec<&str> = vec![
                "if", "wenn", "via", "convoy", "coast", "sc", "auf", "pf", "h", "s", "-", "/", "L", "Leader", "to",
                "move", "m", "Russian", "England", "France", "TSR", "tsr", "by", "3",
            ];
            // Every country, the neutrals too (Hegemony's share names with provinces).
            others.extend(map.countries().iter().map(|p| p.name.as_str()));
            let mut rng = Rng(0x5EED_0001 ^ name.len() as u64);
            let (mut quick, mut total) = (0, 0);
            for _ in 0..20_000 {
                let line = random_line(&mut rng, &places, &others);
                total += 1;
                if let Some(raw) = quick_order(map, &line) {
                    quick += 1;
                    assert_eq!(Ok(raw), read_order(map, &line), "{name}: {line}");
                }
            }
            // The comparison means something only if the quick reader reads many of them.
            assert!(quick * 10 > total, "{name}: only {quick} of {total} lines read quickly");
        }
    }

    #[test]
    fn anything_less_plain_is_left_to_the_full_reader() {
        let variant = standard();
        for line in [
            "A Par - Bur, A Mar - Spa",
            "France: A Par - Bur",
            "Par - Bur",
            "A Par moves to Bur",
            "A Par -> Bur",
            "A Lon - Nth - Nwy",
            "F Spa nc - Mao",
            "F Stp north coast - Bot",
            "A Mun S Russian A Sil - Ber",
            "A Par R Pic",
            "Build A Par",
            "if A Mun - Boh then A Tyr - Vie",
            "A Par - Xyz",
            "A Par H extra",
            "A Par - Bur 1",
            "A Pär - Bur",
        ] {
            assert_eq!(quick_order(&variant.map, line), None, "{line}");
        }
    }
}
