//! The commonest order lines read and checked against the position in one pass: `A Par - Bur`,
//! `F Lon H`, `A Mun S A Kie`, `A Mun S A Kie - Ruh`, `F Mao - Spa/nc` — unit types written as
//! `A`/`F`, places written as one word each that plainly names a province (perhaps with `/nc`),
//! a movement phase.
//!
//! [`direct_order`] gives the order that reading the line ([`quick_order`](super::quick) or
//! [`read_order`](super::syntax::read_order)) and checking it ([`resolve`](super::resolve))
//! would give, where that order is legal; it gives up (`None`) on everything else — another
//! notation, a word it is not sure of, a unit that is not there, a move or support that is not
//! plainly possible — and the line then takes the full way, with its errors. It exists for speed
//! alone: the tests in `game/reading.rs` compare both ways on random lines and positions.

use crate::ids::{Coast, LocationId, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::map::names::{packed, unpacked};
use crate::order::Order;
use crate::order::model::UnitRef;
use crate::order::syntax::{Keyword, RawAction, RawOrder, RawPlace, RawUnit, coast_phrase, coast_word, keyword};
use crate::phase::PhaseKind;
use crate::position::{Position, Unit};

/// The most tokens of a line read here (`F Bul/ec S F Con - Bul/sc` has eleven).
const MAX_TOKENS: usize = 12;

/// The single words that name a province plainly: its key (lower case, packed into a number as
/// the name index packs keys of up to eight bytes) is no keyword, coast, country or railroad.
/// Each comes with whether a name of more words starts with it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlainPlaces {
    by_key: WordTable,
    /// Whether `A` and `F` name no country, so that they are unit types before a supported unit.
    type_letters: bool,
    /// The coast words after `/` (packed) with the coasts they name, as the other readers read
    /// them.
    coasts: Vec<(u64, Coast)>,
    /// The words (packed) the readers take for `via` after a move, and for `convoy` after it.
    via: Vec<u64>,
    convoy: Vec<u64>,
}

/// The words read here for `via` and `convoy` after a move: those the full reader's keyword
/// table takes for them.
const VIA_WORDS: [&str; 4] = ["via", "by", "per", "mit"];
const CONVOY_WORDS: [&str; 7] = ["c", "convoy", "convoys", "k", "konvoi", "geleit", "geleiten"];

/// Plain place words by packed key, with the province each names and whether longer names
/// start with it: open addressing in a power-of-two table at most half full, found with one
/// multiplication and a short probe (faster than a general hash map for this hot lookup; the
/// table is built once per map and only read).
#[derive(Clone, Debug, Default)]
struct WordTable {
    /// Key (0: empty; a packed word is never 0), province, longer.
    slots: Vec<(u64, ProvinceId, bool)>,
    /// 64 less the number of bits of a slot index.
    shift: u32,
}

impl WordTable {
    fn new(words: &[(u64, (ProvinceId, bool))]) -> WordTable {
        let size = (2 * words.len()).next_power_of_two().max(16);
        let mut table = WordTable {
            slots: vec![(0, ProvinceId(0), false); size],
            shift: 64 - size.trailing_zeros(),
        };
        for &(key, (province, longer)) in words {
            let mut i = table.slot(key);
            while table.slots[i].0 != 0 && table.slots[i].0 != key {
                i = (i + 1) & (size - 1);
            }
            table.slots[i] = (key, province, longer);
        }
        table
    }

    /// Where a key's probe starts.
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn get(&self, key: u64) -> Option<(ProvinceId, bool)> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut i = self.slot(key);
        loop {
            let (k, province, longer) = *self.slots.get(i)?;
            if k == key {
                return Some((province, longer));
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

/// The coast words read here after `/`; what each names is asked of the full reader's table.
const COAST_WORDS: [&str; 12] = [
    "nc", "sc", "ec", "wc", "n", "s", "e", "w", "north", "south", "east", "west",
];

impl PlainPlaces {
    /// The plain place words of a map whose names are all known.
    pub(crate) fn new(map: &Map) -> PlainPlaces {
        let names = map.names();
        let plain = |key: &str| {
            key.bytes().all(|b| b.is_ascii_lowercase())
                && !matches!(key, "if" | "wenn")
                && keyword(key).is_none()
                && coast_word(key).is_none()
                && coast_phrase(key).is_none()
                && names.power(key).is_none()
                && map.railroad_by_key(key).is_none()
        };
        let words: Vec<_> = names
            .short_steps()
            .filter_map(|(number, (named, longer))| {
                let key = unpacked(number)?;
                let (province, _) = named?;
                plain(&key).then_some((number, (province, longer)))
            })
            .collect();
        let by_key = WordTable::new(&words);
        let coasts = COAST_WORDS
            .iter()
            .filter_map(|w| Some((packed(w)?, coast_phrase(w)?)))
            .collect();
        let words = |list: &[&str], wanted: Keyword| {
            list.iter()
                .filter(|w| keyword(w) == Some(wanted))
                .filter_map(|w| packed(w))
                .collect()
        };
        PlainPlaces {
            by_key,
            type_letters: names.power("a").is_none() && names.power("f").is_none(),
            coasts,
            via: words(&VIA_WORDS, Keyword::Via),
            convoy: words(&CONVOY_WORDS, Keyword::Convoy),
        }
    }

    /// The province a word names plainly, and whether longer names start with it.
    fn word(&self, token: Token) -> Option<(ProvinceId, bool)> {
        self.by_key.get(token)
    }

    /// The coast a word after `/` names.
    fn coast(&self, token: Token) -> Option<Coast> {
        self.coasts.iter().find(|(k, _)| *k == token).map(|&(_, coast)| coast)
    }

    /// The province that two words name together (with a dash between them), if any; `None`
    /// also where that cannot be told.
    fn joined(&self, map: &Map, first: Token, then: Token) -> Option<ProvinceId> {
        let letters = |word: Token| 8 - word.leading_zeros() / 8;
        if then <= SLASH {
            return None;
        }
        let (a, b) = (letters(first), letters(then));
        if a + b <= 8 {
            return map.names().short_province_step(first | then << (8 * a), 2).0;
        }
        let joined = unpacked(first)? + &unpacked(then)?;
        map.names().province_step(&joined, 2).0
    }
}

/// One token of a plain line: a word of up to eight letters (lower case, packed into a number
/// whose first byte is a letter), or [`DASH`] or [`SLASH`].
type Token = u64;

/// A dash between words.
const DASH: Token = 1;
/// A slash before a coast.
const SLASH: Token = 2;

const ARMY: Token = b'a' as u64;
const FLEET: Token = b'f' as u64;
const HOLD: Token = b'h' as u64;
const SUPPORT: Token = b's' as u64;
const CONVOY: Token = b'c' as u64;

/// Cuts a line of ASCII letters, blanks, dashes and slashes into at most [`MAX_TOKENS`] tokens
/// in `out`; how many.
fn tokens(line: &str, out: &mut [Token; MAX_TOKENS]) -> Option<usize> {
    let mut bytes = line.as_bytes();
    let mut n = 0;
    while let Some((&b, rest)) = bytes.split_first() {
        let token = match b {
            b' ' | b'\t' => {
                bytes = rest;
                continue;
            }
            b'-' => DASH,
            b'/' => SLASH,
            _ => {
                let (word, len) = word(bytes)?;
                bytes = &bytes[len - 1..];
                word
            }
        };
        bytes = &bytes[1..];
        *out.get_mut(n)? = token;
        n += 1;
    }
    Some(n)
}

/// The word of up to eight ASCII letters that `bytes` start with, packed in lower case, and its
/// length (at least one).
fn word(bytes: &[u8]) -> Option<(Token, usize)> {
    let (mut word, mut len) = (0u64, 0);
    for &c in bytes {
        if !c.is_ascii_alphabetic() {
            break;
        }
        if len == 8 {
            return None;
        }
        word |= u64::from(c | 0x20) << (8 * len);
        len += 1;
    }
    (len > 0).then_some((word, len))
}

/// A place as written: a province, perhaps with a coast after `/`.
#[derive(Clone, Copy)]
struct Place {
    province: ProvinceId,
    coast: Option<Coast>,
}

impl Place {
    /// The place as the readers give it (where it stands in the line is not kept: the line
    /// goes the full way when it has an error to point at).
    fn raw(self) -> RawPlace {
        RawPlace {
            province: self.province,
            coast: self.coast,
            position: 0,
        }
    }
}

/// What a plain line asks, its places read.
enum Plain {
    Hold,
    /// A move, and whether `via convoy` was written.
    Move(Place, bool),
    SupportHold(UnitType, Place),
    SupportMove(UnitType, Place, Place),
    Convoy(Place, Place),
}

/// What [`direct_order`] makes of a plain line.
#[derive(Debug, PartialEq)]
pub(crate) enum Direct {
    /// A legal order, with the power of the ordered unit.
    Order(PowerId, Order),
    /// The line read as the other readers read it, for the full check
    /// ([`resolve`](super::resolve)): a convoy, a move by convoy, a support of one, or anything
    /// not plainly legal (kept apart, so that the common answer stays small).
    Read(Box<RawOrder>),
}

/// Reads the tokens of a line one after another.
struct Cursor<'t> {
    tokens: &'t [Token],
    at: usize,
}

impl Cursor<'_> {
    fn next(&mut self) -> Option<Token> {
        let token = *self.tokens.get(self.at)?;
        self.at += 1;
        Some(token)
    }

    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.at).copied()
    }

    fn at_end(&self) -> bool {
        self.at == self.tokens.len()
    }

    /// The unit type written next (`A`, `F`).
    fn unit_type(&mut self) -> Option<UnitType> {
        match self.next()? {
            ARMY => Some(UnitType::Army),
            FLEET => Some(UnitType::Fleet),
            _ => None,
        }
    }

    /// A place: a plain word, perhaps `/` and a coast; not a word that the `- word` after it
    /// makes a longer name with (`Mid - Atlantic`), as the other readers take them then.
    fn place(&mut self, map: &Map) -> Option<Place> {
        let places = &map.plain_places;
        let word = self.next()?;
        let (province, longer) = places.word(word)?;
        let coast = match self.peek() {
            Some(SLASH) => {
                self.at += 1;
                Some(places.coast(self.next()?)?)
            }
            Some(DASH) if longer => {
                let then = self.tokens.get(self.at + 1).copied()?;
                places.joined(map, word, then).is_none().then_some(())?;
                None
            }
            // A word after one that starts longer names (`F StP H`): not one of them together.
            Some(then) if longer && then > SLASH => {
                places.joined(map, word, then).is_none().then_some(())?;
                None
            }
            _ => None,
        };
        Some(Place { province, coast })
    }

    /// `- place`, if a dash comes next.
    fn dash_place(&mut self, map: &Map) -> Option<Option<Place>> {
        if self.peek() != Some(DASH) {
            return Some(None);
        }
        self.at += 1;
        self.place(map).map(Some)
    }

    /// What the ordered unit is to do, up to the end of the line.
    fn action(&mut self, map: &Map) -> Option<Plain> {
        let plain = match self.peek() {
            None => Plain::Hold,
            Some(HOLD) => {
                self.at += 1;
                Plain::Hold
            }
            Some(DASH) => {
                let to = self.dash_place(map)??;
                Plain::Move(to, self.via(map))
            }
            Some(SUPPORT) if map.plain_places.type_letters => {
                self.at += 1;
                let kind = self.unit_type()?;
                let of = self.place(map)?;
                match self.dash_place(map)? {
                    Some(to) => {
                        self.via(map);
                        Plain::SupportMove(kind, of, to)
                    }
                    None => {
                        if self.peek() == Some(HOLD) {
                            self.at += 1;
                        }
                        Plain::SupportHold(kind, of)
                    }
                }
            }
            Some(CONVOY) if map.plain_places.type_letters => {
                self.at += 1;
                (self.unit_type()? == UnitType::Army).then_some(())?;
                let of = self.place(map)?;
                Plain::Convoy(of, self.dash_place(map)??)
            }
            _ => return None,
        };
        self.at_end().then_some(plain)
    }

    /// `via` (or another word the readers take for it), perhaps followed by `convoy`: whether
    /// it was written.
    fn via(&mut self, map: &Map) -> bool {
        let places = &map.plain_places;
        let written = self.peek().is_some_and(|t| places.via.contains(&t));
        if written {
            self.at += 1;
            if self.peek().is_some_and(|t| places.convoy.contains(&t)) {
                self.at += 1;
            }
        }
        written
    }
}

/// A position with its units found by province at a glance, for reading many lines against it.
pub(crate) struct Board<'p> {
    position: &'p Position,
    /// For each province (up to 256), the index of its first unit (up to 254), or [`NO_UNIT`];
    /// empty where the map or the army is larger (then units are looked for one by one).
    first: Option<[u8; 256]>,
}

/// No unit in the province.
const NO_UNIT: u8 = u8::MAX;

impl<'p> Board<'p> {
    /// The units of `position` by province.
    pub(crate) fn new(map: &Map, position: &'p Position) -> Board<'p> {
        let small = map.provinces().len() <= 256 && position.units.len() < usize::from(NO_UNIT);
        let first = small.then(|| {
            let mut first = [NO_UNIT; 256];
            for (i, unit) in position.units.iter().enumerate().rev() {
                first[map.province_of(unit.location).index()] = i as u8;
            }
            first
        });
        Board { position, first }
    }

    /// The board for reading lines against a position: in a movement phase (the only one whose
    /// lines are read here).
    pub(crate) fn for_reading(map: &Map, position: &'p Position) -> Option<Board<'p>> {
        (position.phase.kind == PhaseKind::Movement).then(|| Board::new(map, position))
    }

    /// The unit in a province, as [`Position::unit_in`] finds it.
    fn unit_in(&self, map: &Map, province: ProvinceId) -> Option<&'p Unit> {
        match &self.first {
            Some(first) => self.position.units.get(usize::from(first[province.index()])),
            None => self.position.unit_in(map, province),
        }
    }
}

/// What a plain line gives in a movement phase: its order where it is plainly legal, else the
/// line read for the full check; `None` wherever the full way must read the line (see the
/// module's text).
pub(crate) fn direct_order(map: &Map, board: &Board<'_>, line: &str) -> Option<Direct> {
    let position = board.position;
    if position.phase.kind != PhaseKind::Movement {
        return None;
    }
    let mut cut = [0; MAX_TOKENS];
    let n = tokens(line, &mut cut)?;
    let mut cursor = Cursor {
        tokens: &cut[..n],
        at: 0,
    };
    let kind = cursor.unit_type()?;
    let at = cursor.place(map)?;
    let plain = cursor.action(map)?;
    // A garrison in its home province only holds (Hegemony 5.1.4): left to the full way.
    if !matches!(plain, Plain::Hold) && !position.rules.garrisons().is_empty() {
        return None;
    }
    Some(match plainly_legal(map, board, kind, at.province, &plain) {
        Some((power, order)) => Direct::Order(power, order),
        None => Direct::Read(Box::new(raw_order(kind, at, plain))),
    })
}

/// The order of a plain line where it is plainly legal, with the power of the ordered unit (a
/// coast written for the unit's own place is ignored: it is where it is).
fn plainly_legal(
    map: &Map,
    board: &Board<'_>,
    kind: UnitType,
    at: ProvinceId,
    plain: &Plain,
) -> Option<(PowerId, Order)> {
    let own = board.unit_in(map, at).filter(|u| u.kind == kind)?;
    let unit = UnitRef::new(own.kind, own.location);
    let order = match *plain {
        Plain::Hold => Order::Hold { unit },
        Plain::Move(to, false) => Order::Move {
            unit,
            to: plain_step(map, own, to)?,
            via_convoy: false,
        },
        Plain::SupportHold(kind, of) => {
            let supported = supported(map, board, kind, of.province, at)?;
            map.can_reach_province(own.kind, own.location, of.province)
                .then_some(())?;
            Order::SupportHold { unit, supported }
        }
        Plain::SupportMove(kind, of, to) => {
            let supported = supported(map, board, kind, of.province, at)?;
            let reach = to.province != at
                && !map.province(to.province).shut
                && map.can_reach_province(own.kind, own.location, to.province);
            reach.then_some(())?;
            Order::SupportMove {
                unit,
                supported,
                to: supported_move(map, supported, to)?,
            }
        }
        Plain::Move(_, true) | Plain::Convoy(..) => return None,
    };
    Some((own.power, order))
}

/// A plain line as the other readers read it.
fn raw_order(kind: UnitType, at: Place, plain: Plain) -> RawOrder {
    let unit = |kind: UnitType, place: Place| RawUnit {
        kind: Some(kind),
        leader: false,
        place: place.raw(),
        power: None,
    };
    let action = match plain {
        Plain::Hold => RawAction::Hold,
        Plain::Move(to, via_convoy) => RawAction::Move {
            path: smallvec::smallvec![to.raw()],
            via_convoy,
            railroad: false,
        },
        Plain::SupportHold(kind, of) => RawAction::Support {
            target: unit(kind, of),
            to: None,
        },
        Plain::SupportMove(kind, of, to) => RawAction::Support {
            target: unit(kind, of),
            to: Some(to.raw()),
        },
        Plain::Convoy(of, to) => RawAction::Convoy {
            target: unit(UnitType::Army, of),
            to: to.raw(),
        },
    };
    RawOrder {
        power: None,
        unit: Some(unit(kind, at)),
        action,
        waive: false,
        allocation: None,
        declaration: None,
        permission: None,
    }
}

/// The place a unit moves to in one plain step: an adjacent province that is not shut, where a
/// unit of its type may stand; for a fleet, the coast written of a province with coasts of its
/// own, and one without them otherwise (an army's coast is ignored).
fn plain_step(map: &Map, unit: &Unit, to: Place) -> Option<LocationId> {
    let target = map.province(to.province);
    let location = match unit.kind {
        UnitType::Army => map.location(target.main).army.then_some(target.main)?,
        UnitType::Fleet if target.has_split_coast() => map.coast_of(to.province, to.coast?)?,
        UnitType::Fleet => target.main,
    };
    (map.province_of(unit.location) != to.province
        && !target.shut
        && map.is_adjacent(unit.kind, unit.location, location))
    .then_some(location)
}

/// Where a supported unit moves to, where it plainly can: a province it reaches in one step, not
/// its own; the coast written, for a fleet, where the province has coasts of its own.
fn supported_move(map: &Map, supported: UnitRef, to: Place) -> Option<LocationId> {
    let target = map.province(to.province);
    let from = supported.location;
    let stands = map.location(from).allows(supported.kind);
    let possible =
        map.province_of(from) != to.province && stands && map.can_reach_province(supported.kind, from, to.province);
    let location = match supported.kind {
        UnitType::Army => map.location(target.main).army.then_some(target.main)?,
        UnitType::Fleet => match to.coast.and_then(|c| map.coast_of(to.province, c)) {
            Some(coast) => map.is_adjacent(UnitType::Fleet, from, coast).then_some(coast)?,
            None if to.coast.is_some() && target.has_split_coast() => return None,
            None => target.main,
        },
    };
    possible.then_some(location)
}

/// The supported unit, which must stand in its province with the type written (and not be the
/// supporting unit itself); a coast written for it is ignored.
fn supported(map: &Map, board: &Board<'_>, kind: UnitType, at: ProvinceId, own: ProvinceId) -> Option<UnitRef> {
    if at == own {
        return None;
    }
    let unit = board.unit_in(map, at).filter(|u| u.kind == kind)?;
    Some(UnitRef::new(unit.kind, unit.location))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::standard;

    #[test]
    fn a_line_is_cut_into_packed_words_dashes_and_slashes() {
        let mut cut = [0; MAX_TOKENS];
        assert_eq!(tokens("A Par-BUR", &mut cut), Some(4));
        assert_eq!(
            cut[..4],
            [
                ARMY,
                packed("par").unwrap(),
                DASH,
                u64::from_le_bytes(*b"bur\0\0\0\0\0")
            ]
        );
        assert_eq!(tokens("F Spa/nc", &mut cut), Some(4));
        assert_eq!(cut[2], SLASH);
        for odd in [
            "A Par: Bur",
            "A Pär - Bur",
            "A Abcdefghi",
            "A B C D E F G H I J K L M",
            "A Par - Bur 1",
        ] {
            assert!(tokens(odd, &mut cut).is_none(), "{odd}");
        }
    }

    #[test]
    fn the_board_finds_the_unit_of_a_province_as_the_position_does() {
        let variant = standard();
        let map = &variant.map;
        let mut position = Position::initial(&variant);
        // Two units in one province (as a test may set up): the first one counts.
        let stp = map.province_by_abbreviation("stp").expect("stp");
        let nc = map.province(stp).coasts[0];
        let extra = Unit {
            location: nc,
            ..position.units[0]
        };
        position.units.push(extra);
        let board = Board::new(map, &position);
        for p in map.provinces() {
            assert_eq!(board.unit_in(map, p.id), position.unit_in(map, p.id), "{}", p.name);
        }
        assert!(board.unit_in(map, stp).is_some());
        assert!(
            board
                .unit_in(map, map.province_by_abbreviation("bur").expect("bur"))
                .is_none()
        );
    }

    #[test]
    fn the_word_table_finds_every_word_it_holds_and_no_other() {
        // Three letters packed as the reader packs them, from a number below 26³.
        let word = |n: usize| {
            (0..3).fold(0u64, |w, i| {
                w | u64::from(b'a' + (n / 26usize.pow(i) % 26) as u8) << (8 * i)
            })
        };
        // Multiples of 7 are held; numbers one more than one are not.
        let words: Vec<(u64, (ProvinceId, bool))> = (0..600)
            .map(|i| (word(7 * i), (ProvinceId(i as u16), i % 3 == 0)))
            .collect();
        let table = WordTable::new(&words);
        for &(key, found) in &words {
            assert_eq!(table.get(key), Some(found));
        }
        for i in 0..2000 {
            assert_eq!(table.get(word(7 * i + 1)), None);
        }
        assert_eq!(WordTable::default().get(1), None);
    }

    #[test]
    fn only_plain_names_are_plain_places() {
        let variant = standard();
        let places = &variant.map.plain_places;
        for plain in ["par", "bur", "lon", "nth", "mao", "paris", "spa"] {
            assert!(places.word(packed(plain).unwrap()).is_some(), "{plain}");
        }
        // The start of a longer name, a keyword, a coast, no place.
        for not in ["north", "s", "nc", "xyz"] {
            assert!(places.word(packed(not).unwrap()).is_none(), "{not}");
        }
    }

    #[test]
    fn plain_legal_orders_are_read_and_the_rest_left_to_the_full_way() {
        let variant = standard();
        let start = Position::initial(&variant);
        let map = &variant.map;
        let taken_at_once = [
            "A Par - Bur",
            "F Lon H",
            "a mun",
            "A Mun S A Ber",
            "A Mun S A Ber - Kie",
            "A Mar - Spa",
            "F Tri - Adr",
            "F StP H",
            "F StP/sc H",
            "F StP/sc - Bot",
            "F StP/nc - Fin",
            "A Mos S F StP/sc - Lvn",
            "F Sev S F Ank - Bla",
            "F Bre S A Par - Pic via",
        ];
        // Plain but not plainly legal: read for the full check.
        let read_for_the_check = [
            "A Par - Mun",
            "A Bur - Par",
            "F Par H",
            "A Mun S A Mun",
            "A Mun S F Ber",
            "A Par - Pic via convoy",
            "F StP - Nwy",
            "F StP/sc - Bar",
            "A Mar - Spa via convoy",
            "A Mar - Spa by convoy",
            "F Kie S A Ber - Mun",
            "F Bre C A Par - Pic",
        ];
        let left = [
            "F Lon - Nth, A Lvp - Yor",
            "F StP/xc - Bot",
            "F Mid - Atlantic",
            "F Bre C F Par - Pic",
            "A Par - Pic via via",
        ];
        let cases = [
            (Some(true), &taken_at_once[..]),
            (Some(false), &read_for_the_check),
            (None, &left),
        ];
        for (expected, lines) in cases {
            for line in lines {
                assert_eq!(taken(map, &start, line), expected, "{line}");
            }
        }
    }

    /// Whether a line is taken at once (`true`), read for the full check (`false`), or left.
    fn taken(map: &Map, position: &Position, line: &str) -> Option<bool> {
        direct_order(map, &Board::new(map, position), line).map(|d| matches!(d, Direct::Order(..)))
    }

    #[test]
    fn a_convoy_line_is_read_as_the_other_readers_read_it() {
        let variant = standard();
        let start = Position::initial(&variant);
        let map = &variant.map;
        for line in [
            "F Bre C A Par - Pic",
            "A Par - Pic via convoy",
            "A Mun S A Par - Pic by convoy",
        ] {
            let Some(Direct::Read(mut raw)) = direct_order(map, &Board::new(map, &start), line) else {
                panic!("{line}: not read");
            };
            let mut quick = crate::order::quick::quick_order(map, line).expect("quick");
            // Only where the words stand differs.
            for order in [&mut *raw, &mut quick] {
                order.unit.as_mut().expect("unit").place.position = 0;
                match &mut order.action {
                    RawAction::Move { path, .. } => path[0].position = 0,
                    RawAction::Support { target, to } => {
                        target.place.position = 0;
                        to.as_mut().expect("to").position = 0;
                    }
                    RawAction::Convoy { target, to } => {
                        target.place.position = 0;
                        to.position = 0;
                    }
                    _ => {}
                }
            }
            assert_eq!(*raw, quick, "{line}");
        }
    }

    #[test]
    fn two_plain_words_that_together_name_a_province_are_left_to_the_full_way() {
        // A map where `Par Bur` (or `Par-Bur`) is another name of Picardy.
        let text = include_str!("../../../../variants/standard/variant.toml")
            .replace("name = \"Picardy\"\n", "name = \"Picardy\"\naliases = [\"Par Bur\"]\n");
        let variant = crate::map::load::load_variant("par-bur.toml", &text).expect("valid");
        let start = Position::initial(&variant);
        assert_eq!(
            direct_order(&variant.map, &Board::new(&variant.map, &start), "A Par - Bur"),
            None
        );
        let order = crate::order::parse_order(
            &crate::order::OrderContext {
                map: &variant.map,
                phase: PhaseKind::Movement,
                position: Some(&start),
                default_power: None,
                leaders: &[],
            },
            "A Par - Bur",
        );
        assert!(order.is_err(), "read as `A Picardy`: {order:?}");
        assert!(direct_order(&variant.map, &Board::new(&variant.map, &start), "A Par - Pic").is_some());
    }
}
