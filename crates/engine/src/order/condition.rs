//! Conditional orders: `IF <condition> [AND <condition>…] THEN <order> [ELSE <order>]`, in German
//! `WENN … UND … DANN … SONST …` (Hegemony 4.4: a winter order may depend on earlier steps of
//! the same winter). docs/NOTATION.md says what a condition may name and when it is evaluated.
//!
//! A condition names a result of the winter's steps, never another player's orders:
//! - `MID blocked` / `MID gesperrt`: the overseas centre in that sea is blocked this winter
//!   (step 2);
//! - `A Boh supplied` / `A Böhmen versorgt`, `A Boh unsupplied` / `unversorgt`: the unit there has
//!   (no) secure supply line (step 3);
//! - `not …` / `nicht …` before it, or `not` before the last word, turns it round.

use crate::ids::ProvinceId;
use crate::map::Map;
use crate::order::syntax::read_place;
use crate::order::{OrderError, OrderErrorKind, PowerOrder};
use crate::position::Position;

/// What a condition tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    /// The overseas centre in this sea is blocked (Hegemony 2.2.3).
    Blocked(ProvinceId),
    /// The unit in this province has a secure supply line (Hegemony 2.1).
    Supplied(ProvinceId),
}

/// One condition: a test, perhaps negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    /// What is tested.
    pub test: Test,
    /// Whether the condition holds when the test fails.
    pub negated: bool,
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

fn is(word: &str, options: &[&str]) -> bool {
    options.iter().any(|o| word.eq_ignore_ascii_case(o))
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
    let ws = words(line);
    let first = ws.iter().position(|&(_, w)| is(w, &["if", "wenn"]))?;
    let prefix_end = ws[first].0;
    if first > 0 && !line[..prefix_end].trim_end().ends_with(':') {
        return None;
    }
    let prefix = line[..prefix_end].trim_end();
    let then = ws.iter().position(|&(_, w)| is(w, &["then", "dann"]));
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

/// Reads one condition (`MID blocked`, `A Boh not supplied`, `nicht F Irland versorgt`) at
/// byte `at` of the line, against the position: `blocked` needs an overseas centre (a sea owned
/// as a centre), `supplied` a unit.
pub fn read_condition(map: &Map, position: &Position, text: &str, at: usize) -> Result<Condition, OrderError> {
    let ws = words(text);
    let mut negated = false;
    let mut ws: &[(usize, &str)] = &ws;
    if let Some(((_, w), rest)) = ws.split_first() {
        if is(w, &["not", "nicht"]) {
            negated = true;
            ws = rest;
        }
    }
    let expected = |found: &str, offset: usize| {
        OrderError::new(
            OrderErrorKind::Expected {
                expected: "a condition: `<sea> blocked` or `<unit> supplied` / `unsupplied`",
                found: found.to_string(),
            },
            at + offset,
        )
    };
    let Some(((last_at, last), rest)) = ws.split_last() else {
        return Err(expected(text, 0));
    };
    let blocked = is(last, &["blocked", "gesperrt"]);
    let flip = if blocked || is(last, &["supplied", "versorgt"]) {
        false
    } else if is(last, &["unsupplied", "unversorgt"]) {
        true
    } else {
        return Err(expected(last, *last_at));
    };
    negated ^= flip;
    let mut rest: &[(usize, &str)] = rest;
    if let Some(((_, w), before)) = rest.split_last() {
        if is(w, &["not", "nicht"]) {
            negated = !negated;
            rest = before;
        }
    }
    // A unit is named by its place; `A`, `F`, `Army`, `Flotte` before it may be written.
    if let Some(((_, w), after)) = rest.split_first() {
        let unit_word = is(w, &["a", "f", "army", "fleet", "armee", "flotte"]);
        if unit_word && !blocked && !after.is_empty() {
            rest = after;
        }
    }
    let Some(&(place_at, _)) = rest.first() else {
        return Err(expected(last, *last_at));
    };
    let place_end = rest.last().map_or(place_at, |&(a, w)| a + w.len());
    let place = read_place(map, &text[place_at..place_end]).map_err(|mut e| {
        e.position += at + place_at;
        e
    })?;
    let p = place.province;
    let name = || map.province(p).name.clone();
    let (test, wrong) = if blocked {
        let overseas = position.owners[p.index()].is_some() && !map.province(p).centre;
        (
            Test::Blocked(p),
            (!overseas).then(|| OrderErrorKind::NoOverseasCentre(name())),
        )
    } else {
        let unit = position.unit_in(map, p).is_some();
        (Test::Supplied(p), (!unit).then(|| OrderErrorKind::NoUnit(name())))
    };
    match wrong {
        Some(kind) => Err(OrderError::new(kind, at)),
        None => Ok(Condition { test, negated }),
    }
}
