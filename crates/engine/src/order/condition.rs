//! Conditional orders: `IF <condition> [AND <condition>…] THEN <order> [ELSE <order>]`, in German
//! `WENN … UND … DANN … SONST …` (seed 003 "bedingte Züge", seed 002 §4.4). docs/NOTATION.md
//! says what a condition may name and when it is evaluated.
//!
//! A condition names a published result or the board, never anyone's orders:
//! - `F Bre - Eng succeeds` / `gelingt`, `… fails` / `scheitert`: that move (or retreat) was
//!   carried out in the last movement phase before the order's phase (or in the phase named by
//!   `in S1901M` / `im S1901M`) and arrived (did not arrive);
//! - `A Mun dislodged` / `vertrieben`: the unit there was dislodged in that phase;
//! - `A Bur present` / `A Bur vorhanden`, `French A Bur present`, `Bur occupied` / `besetzt`,
//!   `Bur empty` / `leer`: what stands there when the order's phase begins;
//! - `Bel owned by France` / `Bel gehört Frankreich`: the centre's owner when the phase begins;
//! - (Hegemony 4.4, winters) `MID blocked` / `gesperrt`: the overseas centre in that sea is
//!   blocked this winter (step 2); `A Boh supplied` / `versorgt`, `unsupplied` / `unversorgt`: the
//!   unit there has (no) secure supply line (step 3);
//! - `not …` / `nicht …` before it, or `not` before the last word, turns it round.

use crate::history::phase_named;
use crate::ids::{PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::syntax::{find_power, read_place};
use crate::order::{OrderError, OrderErrorKind, PowerOrder};
use crate::phase::{Phase, PhaseKind};
use crate::position::Position;

/// What a condition tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    /// The overseas centre in this sea is blocked (Hegemony 2.2.3).
    Blocked(ProvinceId),
    /// The unit in this province has a secure supply line (Hegemony 2.1).
    Supplied(ProvinceId),
    /// The move (or retreat) `from` → `to` was carried out in the phase (none: the last movement
    /// phase before the order's) and arrived (`succeeded`) or did not.
    Moved {
        /// Where the unit stood.
        from: ProvinceId,
        /// Where it was ordered to.
        to: ProvinceId,
        /// Whether the test is for its arrival (else for its failure).
        succeeded: bool,
        /// The phase named, if one was.
        phase: Option<Phase>,
    },
    /// The unit in this province was dislodged in the phase (none: the last movement phase).
    Dislodged(ProvinceId, Option<Phase>),
    /// A unit (of this kind and power, where named) stands in the province.
    Present {
        /// Where.
        province: ProvinceId,
        /// Army or fleet, if named.
        kind: Option<UnitType>,
        /// Whose, if named.
        power: Option<PowerId>,
    },
    /// The province's centre is owned by this power.
    Owned(ProvinceId, PowerId),
}

impl Test {
    /// Whether the test names a winter's steps (Hegemony 4.4), decided only once the winter's
    /// declarations are known; every other test is decided when the order's phase begins.
    pub fn is_winter_step(&self) -> bool {
        matches!(self, Test::Blocked(_) | Test::Supplied(_))
    }
}

/// One condition: a test, perhaps negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    /// What is tested.
    pub test: Test,
    /// Whether the condition holds when the test fails.
    pub negated: bool,
}

impl Condition {
    /// Whether a condition that is no winter step holds when the phase of `position` begins:
    /// on the board and on the results kept with it ([`crate::history`]).
    pub fn holds_now(&self, map: &Map, position: &Position) -> bool {
        let facts = |phase| phase_named(&position.recent, position.phase, phase);
        let test = match self.test {
            Test::Moved {
                from,
                to,
                succeeded,
                phase,
            } => facts(phase)
                .and_then(|f| f.move_from(from, to))
                .is_some_and(|m| m.succeeded == succeeded),
            Test::Dislodged(p, phase) => facts(phase).is_some_and(|f| f.dislodged_in(map, p)),
            Test::Present { province, kind, power } => position
                .unit_in(map, province)
                .is_some_and(|u| kind.is_none_or(|k| k == u.kind) && power.is_none_or(|p| p == u.power)),
            Test::Owned(p, by) => position.owners[p.index()] == Some(by),
            Test::Blocked(_) | Test::Supplied(_) => false,
        };
        test != self.negated
    }
}

/// The parts of a conditional line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditional {
    /// Every condition must hold for the first order.
    pub conditions: Vec<Condition>,
    /// The order after `ELSE`, carried out when a condition does not hold.
    pub otherwise: Option<PowerOrder>,
}

/// The words of a line with their byte offsets.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// Whether `IF` or `WENN` (in any letter case) may stand in the line: the word can only be
/// written in ASCII letters, so a line without those letters in a row holds neither.
fn mentions_if(line: &str) -> bool {
    // `b | 0x20` is the lower case of an ASCII letter, and no other byte gives a letter so.
    let lower = |b: Option<&u8>| b.map_or(0, |&b| b | 0x20);
    let bytes = line.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| match b | 0x20 {
        b'i' => lower(bytes.get(i + 1)) == b'f',
        b'w' => lower(bytes.get(i + 1)) == b'e' && lower(bytes.get(i + 2)) == b'n' && lower(bytes.get(i + 3)) == b'n',
        _ => false,
    })
}

/// Whether `word` is one of `options` (lower case), in any letter case (`GEHÖRT` too).
fn is(word: &str, options: &[&str]) -> bool {
    if word.is_ascii() {
        // Lower-cased byte by byte: no allocation for the common case.
        let same =
            |o: &str| o.len() == word.len() && word.bytes().zip(o.bytes()).all(|(a, b)| a.to_ascii_lowercase() == b);
        return options.iter().any(|o| same(o));
    }
    let lower = word.to_lowercase();
    options.iter().any(|o| lower == *o)
}

/// A conditional line split into its condition text, order and else-order, with their byte
/// offsets; none if the line (after a `Power:` prefix) does not start with `IF` / `WENN`.
pub struct Parts<'a> {
    /// The `Power:` prefix, with its colon, if any.
    pub prefix: &'a str,
    /// The conditions, each with its offset.
    pub conditions: Vec<(usize, &'a str)>,
    /// The order after `THEN`, with its offset.
    pub then: (usize, &'a str),
    /// The order after `ELSE`, with its offset.
    pub otherwise: Option<(usize, &'a str)>,
}

/// Splits a line `[Power:] IF c AND c THEN order [ELSE order]`.
pub fn split(line: &str) -> Option<Result<Parts<'_>, OrderError>> {
    // Most lines are no conditional: tell so without looking at their words.
    if !mentions_if(line) {
        return None;
    }
    let ws = words(line);
    let first = ws.iter().position(|&(_, w)| is(w, &["if", "wenn"]))?;
    let prefix_end = ws[first].0;
    if first > 0 && !line[..prefix_end].trim_end().ends_with(':') {
        return None;
    }
    let prefix = line[..prefix_end].trim_end();
    let then = ws.iter().position(|&(_, w)| is(w, &["then", "dann"]));
    // `if dislodged by Russia: A Boh R Gal, then Sil` is a retreat given in advance, not this.
    if then.is_some_and(|t| line[prefix_end..ws[t].0].contains(':')) {
        return None;
    }
    let Some(then) = then.filter(|&t| t > first + 1) else {
        let at = ws.get(first + 1).map_or(line.len(), |w| w.0);
        return Some(Err(OrderError::new(
            OrderErrorKind::Expected {
                expected: "a condition, then `THEN` (`DANN`) and an order",
                found: line[at..].trim().to_string(),
            },
            at,
        )));
    };
    let otherwise = ws[then..]
        .iter()
        .position(|&(_, w)| is(w, &["else", "sonst"]))
        .map(|e| e + then);
    if ws[..then].iter().any(|&(_, w)| is(w, &["else", "sonst"])) {
        let at = ws[then].0;
        return Some(Err(OrderError::new(
            OrderErrorKind::Expected {
                expected: "`ELSE` (`SONST`) after `THEN` (`DANN`) and its order",
                found: line[at..].trim().to_string(),
            },
            at,
        )));
    }
    let then_end = otherwise.map_or(line.len(), |e| ws[e].0);
    let then_start = ws.get(then + 1).map_or(line.len(), |w| w.0);
    let mut conditions = Vec::new();
    let mut start = ws[first + 1].0;
    for &(at, w) in &ws[first + 1..then] {
        if is(w, &["and", "und"]) {
            conditions.push((start, line[start..at].trim_end()));
            start = at + w.len();
        }
    }
    conditions.push((start, line[start..ws[then].0].trim()));
    let conditions = conditions
        .into_iter()
        .map(|(at, text)| (at + (line[at..].len() - line[at..].trim_start().len()), text.trim()))
        .collect();
    let otherwise = otherwise.map(|e| {
        let at = ws.get(e + 1).map_or(line.len(), |w| w.0);
        (at, line[at..].trim())
    });
    Some(Ok(Parts {
        prefix,
        conditions,
        then: (then_start, line[then_start..then_end].trim()),
        otherwise,
    }))
}

/// What a condition may be, for the error that finds none (German: [`EXPECTED_DE`]).
pub const EXPECTED: &str = "a condition: `<move> succeeds` / `fails`, `<unit> dislodged`, `<unit> present`, \
`<place> empty`, `<centre> owned by <power>` (winters of Hegemony: `<sea> blocked`, `<unit> supplied`)";
/// [`EXPECTED`] in German.
pub const EXPECTED_DE: &str = "eine Bedingung: `<Zug> gelingt` / `scheitert`, `<Einheit> vertrieben`, \
`<Einheit> vorhanden`, `<Gebiet> leer`, `<Zentrum> gehört <Macht>` (in Wintern von Hegemony: `<Meer> gesperrt`, \
`<Einheit> versorgt`)";
/// What a move condition needs.
pub const EXPECTED_MOVE: &str = "a move before `succeeds` / `fails`: `F Bre - Eng`";
/// [`EXPECTED_MOVE`] in German.
pub const EXPECTED_MOVE_DE: &str = "ein Zug vor `gelingt` / `scheitert`: `F Bre - Eng`";
const SUCCEEDS: &[&str] = &["succeeds", "succeeded", "gelingt", "gelang", "gelungen", "erfolgreich"];
const FAILS: &[&str] = &["fails", "failed", "scheitert", "gescheitert"];
const DISLODGED: &[&str] = &["dislodged", "vertrieben"];
const PRESENT: &[&str] = &["present", "vorhanden"];
const OCCUPIED: &[&str] = &["occupied", "besetzt"];
const EMPTY: &[&str] = &["empty", "leer"];
const OWNED: &[&str] = &["owned", "gehört", "gehoert", "gehort"];
const ORDERS: &[&str] = &["ordered", "orders", "befohlen", "befiehlt"];
const NOT: &[&str] = &["not", "nicht"];
const UNIT_WORDS: &[&str] = &["a", "f", "army", "fleet", "armee", "flotte"];
const DASHES: &[&str] = &["->", "=>", "→", "–", "—", "-"];

/// The words of one condition, with offsets into its text, and the text's offset in the line.
struct Words<'a> {
    text: &'a str,
    at: usize,
}

impl Words<'_> {
    fn error(&self, kind: OrderErrorKind, offset: usize) -> OrderError {
        OrderError::new(kind, self.at + offset)
    }

    fn expected(&self, found: &str, offset: usize) -> OrderError {
        self.error(
            OrderErrorKind::Expected {
                expected: EXPECTED,
                found: found.to_string(),
            },
            offset,
        )
    }

    /// The place written from byte `start` to `end` of the condition.
    fn place(&self, map: &Map, start: usize, end: usize) -> Result<ProvinceId, OrderError> {
        let span = &self.text[start..end];
        let shift = self.at + start + (span.len() - span.trim_start().len());
        read_place(map, span.trim()).map(|p| p.province).map_err(|mut e| {
            e.position += shift;
            e
        })
    }

    /// The place of the words `ws` (a unit type word before it is skipped) and the unit type.
    fn unit(&self, map: &Map, ws: &[(usize, &str)]) -> Result<(Option<UnitType>, ProvinceId), OrderError> {
        let (kind, ws) = match ws.split_first() {
            Some(((_, w), rest)) if !rest.is_empty() && is(w, UNIT_WORDS) => (Some(unit_type(w)), rest),
            _ => (None, ws),
        };
        let (Some(&(start, _)), Some(&(last, w))) = (ws.first(), ws.last()) else {
            return Err(self.expected(self.text, 0));
        };
        Ok((kind, self.place(map, start, last + w.len())?))
    }
}

fn unit_type(word: &str) -> UnitType {
    if is(word, &["f", "fleet", "flotte"]) {
        UnitType::Fleet
    } else {
        UnitType::Army
    }
}

/// Reads one condition (`F Bre - Eng succeeds`, `nicht A München vertrieben im S1901M`, `Bel
/// owned by France`, `MID blocked`) at byte `at` of the line of an order for phase `now`,
/// against the position of that phase: the results it names must be kept and of an earlier
/// phase, `blocked` needs an overseas centre (a sea owned as a centre), `supplied` a unit,
/// `owned by` a centre. Without the position (a line sent for a later phase, checked when it is
/// sent) only what the map and the phase tell is checked.
pub fn read_condition(
    map: &Map,
    position: Option<&Position>,
    now: Phase,
    text: &str,
    at: usize,
) -> Result<Condition, OrderError> {
    let cond = Words { text, at };
    let all = words(text);
    let mut ws: &[(usize, &str)] = &all;
    let mut negated = false;
    if let Some(((_, w), rest)) = ws.split_first() {
        if is(w, NOT) {
            negated = true;
            ws = rest;
        }
    }
    if let Some(&(o, _)) = ws.iter().find(|(_, w)| is(w, ORDERS)) {
        return Err(cond.error(OrderErrorKind::ConditionOnOrders, o));
    }
    if let Some(i) = ws.iter().position(|(_, w)| is(w, OWNED)) {
        return read_owner(map, position, &cond, ws, i, negated);
    }
    let mut phase = None;
    if let [.., (_, word), (phase_at, p)] = ws {
        if is(word, &["in", "im"]) {
            let named: Phase = p.parse().map_err(|_| cond.expected(p, *phase_at))?;
            phase = Some((named, *phase_at));
            ws = &ws[..ws.len() - 2];
        }
    }
    let Some(((last_at, last), rest)) = ws.split_last() else {
        return Err(cond.expected(text, 0));
    };
    let mut rest: &[(usize, &str)] = rest;
    if let Some(((_, w), before)) = rest.split_last() {
        if is(w, NOT) {
            negated = !negated;
            rest = before;
        }
    }
    let test = match *last {
        w if is(w, &["blocked", "gesperrt"]) => blocked(map, position, &cond, rest)?,
        w if is(w, &["supplied", "versorgt", "unsupplied", "unversorgt"]) => {
            negated ^= is(w, &["unsupplied", "unversorgt"]);
            let (_, p) = cond.unit(map, rest)?;
            if position.is_some_and(|position| position.unit_in(map, p).is_none()) {
                return Err(cond.error(OrderErrorKind::NoUnit(map.province(p).name.clone()), 0));
            }
            Test::Supplied(p)
        }
        w if is(w, SUCCEEDS) || is(w, FAILS) => {
            let (from, to) = read_move(map, &cond, rest)?;
            let succeeded = is(w, SUCCEEDS);
            let phase = checked_phase(position, now, &cond, phase)?;
            Test::Moved {
                from,
                to,
                succeeded,
                phase,
            }
        }
        w if is(w, DISLODGED) => {
            let (_, p) = cond.unit(map, rest)?;
            Test::Dislodged(p, checked_phase(position, now, &cond, phase)?)
        }
        w if is(w, PRESENT) || is(w, OCCUPIED) || is(w, EMPTY) => {
            negated ^= is(w, EMPTY);
            read_present(map, &cond, rest)?
        }
        w => return Err(cond.expected(w, *last_at)),
    };
    if let (Some((_, phase_at)), false) = (phase, matches!(test, Test::Moved { .. } | Test::Dislodged(..))) {
        return Err(cond.expected(&text[phase_at..], phase_at));
    }
    Ok(Condition { test, negated })
}

/// `MID blocked`: the sea must be an overseas centre.
fn blocked(map: &Map, position: Option<&Position>, cond: &Words, rest: &[(usize, &str)]) -> Result<Test, OrderError> {
    let (Some(&(start, _)), Some(&(last, w))) = (rest.first(), rest.last()) else {
        return Err(cond.expected(cond.text, 0));
    };
    let p = cond.place(map, start, last + w.len())?;
    let owned = position.is_none_or(|position| position.owners[p.index()].is_some());
    if !owned || map.province(p).centre {
        return Err(cond.error(OrderErrorKind::NoOverseasCentre(map.province(p).name.clone()), 0));
    }
    Ok(Test::Blocked(p))
}

/// `[French] [A] Bur present` / `Bur occupied` / `Bur empty`.
fn read_present(map: &Map, cond: &Words, rest: &[(usize, &str)]) -> Result<Test, OrderError> {
    let unit_word = rest.iter().position(|(_, w)| is(w, UNIT_WORDS));
    let (power, rest) = match unit_word {
        Some(k) if k > 0 && k + 1 < rest.len() => {
            let (start, end) = (rest[0].0, rest[k - 1].0 + rest[k - 1].1.len());
            let power =
                find_power(map, &cond.text[start..end]).ok_or_else(|| cond.expected(&cond.text[start..end], start))?;
            (Some(power), &rest[k..])
        }
        _ => (None, rest),
    };
    let (kind, province) = cond.unit(map, rest)?;
    Ok(Test::Present { province, kind, power })
}

/// `[A] Bre - Eng` (also `Bre-Eng`, `Bre to Eng`, `Brest nach Ärmelkanal`).
fn read_move(map: &Map, cond: &Words, rest: &[(usize, &str)]) -> Result<(ProvinceId, ProvinceId), OrderError> {
    let rest = match rest.split_first() {
        Some(((_, w), after)) if after.len() > 1 && is(w, UNIT_WORDS) => after,
        _ => rest,
    };
    let (Some(&(start, _)), Some(&(last, w))) = (rest.first(), rest.last()) else {
        return Err(cond.expected(cond.text, 0));
    };
    let end = last + w.len();
    let dash_word = rest
        .iter()
        .find(|(_, w)| DASHES.contains(w) || is(w, &["to", "nach"]))
        .map(|&(o, w)| (o, o + w.len()));
    let dash_inside = || {
        let span = &cond.text[start..end];
        DASHES
            .iter()
            .filter_map(|d| span.find(d).map(|i| (start + i, start + i + d.len())))
            .min_by_key(|&(at, end)| (at, std::cmp::Reverse(end)))
    };
    let Some((dash, after)) = dash_word.or_else(dash_inside) else {
        return Err(cond.error(
            OrderErrorKind::Expected {
                expected: EXPECTED_MOVE,
                found: cond.text[start..end].to_string(),
            },
            start,
        ));
    };
    Ok((cond.place(map, start, dash)?, cond.place(map, after, end)?))
}

/// `Bel owned by France`, `Belgien gehört Frankreich`; `not` before `owned` turns it round.
fn read_owner(
    map: &Map,
    position: Option<&Position>,
    cond: &Words,
    ws: &[(usize, &str)],
    owned: usize,
    mut negated: bool,
) -> Result<Condition, OrderError> {
    let mut place = &ws[..owned];
    if let Some(((_, w), before)) = place.split_last() {
        if is(w, NOT) {
            negated = !negated;
            place = before;
        }
    }
    let mut after = &ws[owned + 1..];
    if let Some(((_, w), rest)) = after.split_first() {
        if is(w, &["by", "von"]) {
            after = rest;
        }
    }
    let (Some(&(start, _)), Some(&(last, w))) = (place.first(), place.last()) else {
        return Err(cond.expected(cond.text, 0));
    };
    let p = cond.place(map, start, last + w.len())?;
    let Some(&(power_at, _)) = after.first() else {
        return Err(cond.expected("", cond.text.len()));
    };
    let named = cond.text[power_at..].trim();
    let power = map
        .power_by_name(named)
        .ok_or_else(|| cond.error(OrderErrorKind::UnknownPower(named.to_string()), power_at))?;
    let overseas = position.is_none_or(|position| position.owners[p.index()].is_some());
    if !map.province(p).centre && !overseas {
        return Err(cond.error(OrderErrorKind::NotACentre(map.province(p).name.clone()), start));
    }
    Ok(Condition {
        test: Test::Owned(p, power),
        negated,
    })
}

/// The phase whose results a condition on an order for `now` names: one that is over and whose
/// results are kept (`named`), or the last movement phase before the order's (whether results
/// are kept is known only with the position).
fn checked_phase(
    position: Option<&Position>,
    now: Phase,
    cond: &Words,
    named: Option<(Phase, usize)>,
) -> Result<Option<Phase>, OrderError> {
    let kept = |p: Option<Phase>| position.is_none_or(|position| phase_named(&position.recent, now, p).is_some());
    match named {
        Some((p, at)) if p >= now => Err(cond.error(OrderErrorKind::ConditionOnLaterPhase(p.to_string()), at)),
        Some((p, at)) if p.kind == PhaseKind::Adjustment || !kept(Some(p)) => {
            Err(cond.error(OrderErrorKind::ResultsNotKept(p.to_string()), at))
        }
        None if !kept(None) => Err(cond.error(OrderErrorKind::NoEarlierResults, 0)),
        _ => Ok(named.map(|(p, _)| p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_compared_in_any_letter_case() {
        assert!(is("IF", &["if", "wenn"]));
        assert!(is("Wenn", &["if", "wenn"]));
        assert!(!is("IFF", &["if", "wenn"]));
        assert!(is("GEHÖRT", &["gehört"]));
        assert!(!is("GEHORT", &["gehört"]));
    }

    #[test]
    fn lines_without_if_are_told_at_once() {
        assert!(!mentions_if("A Par - Bur"));
        assert!(mentions_if("France: iF Bur empty THEN A Par - Bur"));
        assert!(mentions_if("WENN"));
        assert!(!mentions_if("wen"));
        assert!(!mentions_if(""));
    }

    #[test]
    fn only_lines_with_if_are_split() {
        assert!(split("A Par - Bur").is_none());
        assert!(split("A Wenner - Bur").is_none());
        assert!(split("France: IF Bur empty THEN A Par - Bur").is_some_and(|p| p.is_ok()));
        assert!(split("wenn Bur leer").is_some_and(|p| p.is_err()));
    }
}
