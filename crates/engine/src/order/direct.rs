//! The commonest order lines read and checked against the position in one pass: `A Par - Bur`,
//! `F Lon H`, `A Mun S A Kie`, `A Mun S A Kie - Ruh` — unit types written as `A`/`F`, places
//! written as one word each that plainly names a province without coasts, a movement phase.
//!
//! [`direct_order`] gives the order that reading the line ([`quick_order`](super::quick) or
//! [`read_order`](super::syntax::read_order)) and checking it ([`resolve`](super::resolve))
//! would give, where that order is legal; it gives up (`None`) on everything else — another
//! notation, a word it is not sure of, a unit that is not there, a move or support that is not
//! plainly possible — and the line then takes the full way, with its errors. It exists for speed
//! alone: the tests in `game/reading.rs` compare both ways on random lines and positions.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::ids::{LocationId, ProvinceId, UnitType};
use crate::map::Map;
use crate::map::names::KeyHasher;
use crate::order::Order;
use crate::order::model::UnitRef;
use crate::order::syntax::{coast_phrase, coast_word, keyword};
use crate::phase::PhaseKind;
use crate::position::{Position, Unit};

/// The most tokens of a line read here (`A Mun S A Kie - Ruh` has seven).
const MAX_TOKENS: usize = 7;

/// The single words that name a province plainly: its key (lower case, packed into a number as
/// the name index packs keys of up to eight bytes) is no keyword, coast, country or railroad.
/// Each comes with whether a name of more words starts with it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlainPlaces {
    by_key: HashMap<u64, (ProvinceId, bool), BuildHasherDefault<KeyHasher>>,
    /// Whether `A` and `F` name no country, so that they are unit types before a supported unit.
    type_letters: bool,
}

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
        let by_key = names
            .short_steps()
            .filter_map(|(number, (named, longer))| {
                let key = unpacked(number)?;
                let (province, _) = named?;
                plain(&key).then_some((number, (province, longer)))
            })
            .collect();
        PlainPlaces {
            by_key,
            type_letters: names.power("a").is_none() && names.power("f").is_none(),
        }
    }

    /// The province a word names plainly, and whether longer names start with it.
    fn word(&self, token: Token) -> Option<(ProvinceId, bool)> {
        match token {
            Token::Word(key) => self.by_key.get(&key).copied(),
            Token::Dash => None,
        }
    }

    /// The province a word names plainly where no word follows it.
    fn last(&self, token: Token) -> Option<ProvinceId> {
        self.word(token).map(|(province, _)| province)
    }

    /// The province a word names plainly where `- then` follows it: not when both words
    /// together name a province (`Mid - Atlantic`), as the other readers take them then.
    fn before_dash(&self, map: &Map, token: Token, then: Token) -> Option<ProvinceId> {
        let (province, longer) = self.word(token)?;
        if longer {
            let (Token::Word(first), Token::Word(second)) = (token, then) else {
                return None;
            };
            let joined = unpacked(first)? + &unpacked(second)?;
            if map.names().province_step(&joined, 2).0.is_some() {
                return None;
            }
        }
        Some(province)
    }
}

/// The text of a packed key.
fn unpacked(number: u64) -> Option<String> {
    let bytes: Vec<u8> = number.to_le_bytes().into_iter().take_while(|&b| b != 0).collect();
    String::from_utf8(bytes).ok()
}

/// One token of a plain line: a word of up to eight letters, lower case and packed, or a dash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Word(u64),
    Dash,
}

const ARMY: Token = Token::Word(b'a' as u64);
const FLEET: Token = Token::Word(b'f' as u64);
const HOLD: Token = Token::Word(b'h' as u64);
const SUPPORT: Token = Token::Word(b's' as u64);

/// Cuts a line of ASCII letters, blanks and dashes into at most [`MAX_TOKENS`] tokens.
fn tokens(line: &str) -> Option<([Token; MAX_TOKENS], usize)> {
    let mut out = [Token::Dash; MAX_TOKENS];
    let (mut n, mut word, mut letters) = (0, 0u64, 0u32);
    for b in line.bytes().chain(std::iter::once(b' ')) {
        if b.is_ascii_alphabetic() {
            if letters == 8 {
                return None;
            }
            word |= u64::from(b | 0x20) << (8 * letters);
            letters += 1;
            continue;
        }
        if letters > 0 {
            *out.get_mut(n)? = Token::Word(word);
            (n, word, letters) = (n + 1, 0, 0);
        }
        match b {
            b' ' | b'\t' => {}
            b'-' => {
                *out.get_mut(n)? = Token::Dash;
                n += 1;
            }
            _ => return None,
        }
    }
    Some((out, n))
}

/// What a plain line asks, its places read.
enum Plain {
    Hold,
    Move(ProvinceId),
    SupportHold(UnitType, ProvinceId),
    SupportMove(UnitType, ProvinceId, ProvinceId),
}

/// The unit type a token writes.
fn unit_type(token: Token) -> Option<UnitType> {
    match token {
        ARMY => Some(UnitType::Army),
        FLEET => Some(UnitType::Fleet),
        _ => None,
    }
}

/// Reads the line's tokens: the ordered unit's type and province, and what it is to do.
fn plain_order(map: &Map, tokens: &[Token]) -> Option<(UnitType, ProvinceId, Plain)> {
    let places = &map.plain_places;
    let (kind, at, rest) = match *tokens {
        [kind, at, ref rest @ ..] => (unit_type(kind)?, at, rest),
        _ => return None,
    };
    let plain = match *rest {
        [] | [HOLD] => Plain::Hold,
        [Token::Dash, to] => {
            return Some((kind, places.before_dash(map, at, to)?, Plain::Move(places.last(to)?)));
        }
        [SUPPORT, other, of, ref after @ ..] if places.type_letters => {
            let other = unit_type(other)?;
            match *after {
                [] | [HOLD] => Plain::SupportHold(other, places.last(of)?),
                [Token::Dash, to] => Plain::SupportMove(other, places.before_dash(map, of, to)?, places.last(to)?),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((kind, places.last(at)?, plain))
}

/// The order a plain, legal line gives in a movement phase, with the power of the ordered unit;
/// `None` wherever the full way must read or judge the line (see the module's text).
pub(crate) fn direct_order(map: &Map, position: &Position, line: &str) -> Option<(crate::ids::PowerId, Order)> {
    if position.phase.kind != PhaseKind::Movement {
        return None;
    }
    let (tokens, n) = tokens(line)?;
    let (kind, at, plain) = plain_order(map, &tokens[..n])?;
    let own = position.unit_in(map, at).filter(|u| u.kind == kind)?;
    let unit = UnitRef::new(own.kind, own.location);
    // A garrison in its home province only holds (Hegemony 5.1.4): left to the full way.
    if !matches!(plain, Plain::Hold) && !position.rules.garrisons().is_empty() {
        return None;
    }
    let order = match plain {
        Plain::Hold => Order::Hold { unit },
        Plain::Move(to) => Order::Move {
            unit,
            to: plain_step(map, own, to)?,
            via_convoy: false,
        },
        Plain::SupportHold(kind, of) => {
            let supported = supported(map, position, kind, of, at)?;
            map.can_reach_province(own.kind, own.location, of).then_some(())?;
            Order::SupportHold { unit, supported }
        }
        Plain::SupportMove(kind, of, to) => {
            let supported = supported(map, position, kind, of, at)?;
            let reach = to != at && !map.province(to).shut && map.can_reach_province(own.kind, own.location, to);
            let possible = to != of && map.can_reach_province(supported.kind, supported.location, to);
            let army_may_stand = supported.kind == UnitType::Fleet || map.location(map.province(to).main).army;
            (reach && possible && army_may_stand && map.location(supported.location).allows(supported.kind))
                .then_some(())?;
            Order::SupportMove {
                unit,
                supported,
                to: map.province(to).main,
            }
        }
    };
    Some((own.power, order))
}

/// The place a unit moves to in one plain step: an adjacent province that is not shut, where a
/// unit of its type may stand (for a fleet, one without coasts of its own).
fn plain_step(map: &Map, unit: &Unit, to: ProvinceId) -> Option<LocationId> {
    let target = map.province(to);
    let fits = match unit.kind {
        UnitType::Army => map.location(target.main).army,
        UnitType::Fleet => !target.has_split_coast(),
    };
    (map.province_of(unit.location) != to
        && !target.shut
        && fits
        && map.is_adjacent(unit.kind, unit.location, target.main))
    .then_some(target.main)
}

/// The supported unit, which must stand in its province with the type written (and not be the
/// supporting unit itself).
fn supported(map: &Map, position: &Position, kind: UnitType, at: ProvinceId, own: ProvinceId) -> Option<UnitRef> {
    if at == own {
        return None;
    }
    let unit = position.unit_in(map, at).filter(|u| u.kind == kind)?;
    Some(UnitRef::new(unit.kind, unit.location))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::standard;

    #[test]
    fn a_line_is_cut_into_packed_words_and_dashes() {
        let (cut, n) = tokens("A Par-BUR").expect("plain");
        assert_eq!(n, 4);
        assert_eq!(cut[0], ARMY);
        assert_eq!(cut[2], Token::Dash);
        assert_eq!(cut[3], Token::Word(u64::from_le_bytes(*b"bur\0\0\0\0\0")));
        for odd in [
            "A Par - Bur/nc",
            "A Par: Bur",
            "A Pär - Bur",
            "A Abcdefghi",
            "A B C D E F G H",
        ] {
            assert!(tokens(odd).is_none(), "{odd}");
        }
    }

    #[test]
    fn only_plain_names_are_plain_places() {
        let variant = standard();
        let places = &variant.map.plain_places;
        let word = |w: &str| Token::Word(u64::from_le_bytes(format!("{w:\0<8}").as_bytes().try_into().unwrap()));
        for plain in ["par", "bur", "lon", "nth", "mao", "paris", "spa"] {
            assert!(places.word(word(plain)).is_some(), "{plain}");
        }
        // The start of a longer name, a keyword, a coast, no place.
        for not in ["north", "s", "nc", "xyz"] {
            assert!(places.word(word(not)).is_none(), "{not}");
        }
    }

    #[test]
    fn plain_legal_orders_are_read_and_the_rest_left_to_the_full_way() {
        let variant = standard();
        let start = Position::initial(&variant);
        let map = &variant.map;
        for line in [
            "A Par - Bur",
            "F Lon H",
            "a mun",
            "A Mun S A Ber",
            "A Mun S A Ber - Kie",
            "A Mar - Spa",
            "F Tri - Adr",
            "F StP H",
        ] {
            assert!(direct_order(map, &start, line).is_some(), "{line}");
        }
        for line in [
            "A Par - Mun",
            "A Bur - Par",
            "F Par H",
            "A Mun S A Mun",
            "A Mun S F Ber",
            "F Lon - Nth, A Lvp - Yor",
            "A Par - Pic via convoy",
            "F Stp/sc - Bot",
            "F Mao - Spa",
            "F Mid - Atlantic",
            "A Mar - Spa via convoy",
            "F Kie S A Ber - Mun",
        ] {
            assert!(direct_order(map, &start, line).is_none(), "{line}");
        }
    }

    #[test]
    fn two_plain_words_that_together_name_a_province_are_left_to_the_full_way() {
        // A map where `Par Bur` (or `Par-Bur`) is another name of Picardy.
        let text = include_str!("../../../../variants/standard/variant.toml")
            .replace("name = \"Picardy\"\n", "name = \"Picardy\"\naliases = [\"Par Bur\"]\n");
        let variant = crate::map::load::load_variant("par-bur.toml", &text).expect("valid");
        let start = Position::initial(&variant);
        assert_eq!(direct_order(&variant.map, &start, "A Par - Bur"), None);
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
        assert!(direct_order(&variant.map, &start, "A Par - Pic").is_some());
    }
}
