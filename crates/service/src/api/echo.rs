//! Reading a submission of order lines, the same for the API, the web and mail: how each order
//! was read, on which line of the submission it stands (and which of several orders of a line
//! it is), and one order per unit: a second order for a unit is refused and not kept, the first
//! stands.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde::Serialize;
use spielleiter_engine::completeness::UnitMark;
use spielleiter_engine::game::{PhaseOrders, ReadLine};
use spielleiter_engine::report::Lang;
use spielleiter_engine::{OrderError, Position, PowerId, Variant};

use super::ApiResult;
use crate::error::ApiError;

/// How one order was read: the order in the interchange notation, or the error.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct Echo {
    /// The order as sent (one of several on a line: that one).
    pub(crate) input: String,
    /// The order read, in the interchange notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) order: Option<String>,
    /// Why the order was refused (or, Hegemony, not carried out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// The byte position of the offending word in `input`.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    /// A name the writer probably meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) suggestion: Option<String>,
    /// The line it stands on (from 1; in mail, the mail's line).
    pub(crate) line: usize,
    /// Which order of its line it is (from 1), where the line holds several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) part: Option<usize>,
}

/// Order lines as submitted, each with the number its writer sees it under (a mail's own line
/// numbers; else 1, 2, …).
#[derive(Debug, Clone)]
pub(crate) struct OrderLines {
    /// The lines.
    pub(crate) texts: Vec<String>,
    /// The number of each line.
    numbers: Vec<usize>,
    /// The power sent orders (or retreats) for this phase in an earlier one: they stand where
    /// these lines do not replace them, so what the lines leave out is not told as missing.
    in_advance: bool,
}

impl OrderLines {
    /// Lines numbered 1, 2, … (the API, the web).
    pub(crate) fn plain(texts: Vec<String>) -> OrderLines {
        let numbers = (1..=texts.len()).collect();
        OrderLines {
            texts,
            numbers,
            in_advance: false,
        }
    }

    /// The same lines of a power that sent orders for this phase in an earlier one (or not).
    pub(crate) fn with_orders_in_advance(mut self, in_advance: bool) -> OrderLines {
        self.in_advance = in_advance;
        self
    }

    /// Lines with their own numbers (a mail's).
    pub(crate) fn numbered(lines: &[(usize, String)]) -> OrderLines {
        OrderLines {
            texts: lines.iter().map(|(_, t)| t.clone()).collect(),
            numbers: lines.iter().map(|(n, _)| *n).collect(),
            in_advance: false,
        }
    }

    /// The number line `i` (from 0) is shown under.
    fn number(&self, i: usize) -> usize {
        self.numbers.get(i).copied().unwrap_or(i + 1)
    }
}

/// A submission as read: the orders (a second order for a unit left out), how each was read,
/// and the lines to keep (without the refused second orders).
pub(crate) struct Reading {
    /// The orders read.
    pub(crate) read: PhaseOrders,
    /// One echo per order read, in the order of the submission.
    pub(crate) echo: Vec<Echo>,
    /// The lines to store.
    pub(crate) kept: Vec<String>,
    /// What the orders for the current phase leave out or overdo (units without orders, builds
    /// or disbands not matching the count), in the reader's language; none when the submission
    /// has no lines for the current phase (the orders sent before stand).
    pub(crate) gaps: Vec<String>,
    /// Each unit that needs an order in the current phase, marked ordered, missing or refused;
    /// none when the submission has no lines for the current phase, as for `gaps`.
    pub(crate) marks: Vec<(spielleiter_engine::Unit, UnitMark)>,
}

/// Where each entry read stands: the input line the engine read it from, and the byte column it
/// starts at on that line (entries of one line found one after the other). An entry with no
/// input line is placed after every line.
fn places<'a>(lines: &[String], entries: impl IntoIterator<Item = (usize, &'a str)>) -> Vec<(usize, usize)> {
    let mut next: HashMap<usize, usize> = HashMap::new();
    let mut found = Vec::new();
    for (line, text) in entries {
        let Some(written) = lines.get(line) else {
            found.push((lines.len(), 0));
            continue;
        };
        let from = next.get(&line).copied().unwrap_or(0);
        let column = written
            .get(from..)
            .and_then(|rest| rest.find(text))
            .map_or(from, |k| from + k);
        next.insert(line, column + text.len());
        found.push((line, column));
    }
    found
}

/// Reads order lines of `power` against a position and tells how each order was read (errors
/// in `lang`). The one reading behind the API's answer, the web echo and mail.
pub(crate) fn echo(v: &Variant, position: &Position, power: PowerId, submitted: &OrderLines, lang: Lang) -> Reading {
    let lines = &submitted.texts;
    let mut read = PhaseOrders::default();
    read.read(v, position, Some(power), lines.iter().map(String::as_str));
    let origin = |origins: &[usize], i: usize| origins.get(i).copied().unwrap_or(usize::MAX);
    let at_lines = places(
        lines,
        read.lines
            .iter()
            .enumerate()
            .map(|(i, l)| (origin(&read.line_origins, i), l.text.as_str())),
    );
    let private = read.sender_only.iter().enumerate();
    let at_private = places(
        lines,
        private.map(|(i, (_, t, _))| (origin(&read.private_origins, i), t.as_str())),
    );
    let seconds = read.earlier_orders(v);
    let error = |e: &OrderError| match lang {
        Lang::En => e.kind.to_string(),
        Lang::De => spielleiter_engine::report::error_de(&e.kind),
    };
    let mut echoes: Vec<((usize, usize), Echo)> = Vec::new();
    for (i, l) in read.lines.iter().enumerate() {
        let mut e = match &l.result {
            Ok(o) => Echo::read(&l.text, o.display(&v.map).to_string()),
            Err(e) => Echo::refused(&l.text, error(e), e).named(v, lang),
        };
        if let Some(j) = seconds[i] {
            let (en, de) = crate::i18n::second_order(submitted.number(at_lines[j].0), &read.lines[j].text);
            (e.order, e.error) = (None, Some(if lang == Lang::De { de } else { en }));
        }
        echoes.push((at_lines[i], e));
    }
    for (k, (_, text, e)) in read.sender_only.iter().enumerate() {
        echoes.push((at_private[k], Echo::refused(text, error(e), e).named(v, lang)));
    }
    echoes.sort_by_key(|(at, _)| *at);
    let kept = kept_lines(v, power, lines, &read, &seconds, &at_lines);
    // The refused second orders leave the orders as read, with their origins.
    let mut second = seconds.iter().map(Option::is_some);
    read.lines.retain(|_| !second.next().unwrap_or(false));
    let mut second = seconds.iter().map(Option::is_some);
    read.line_origins.retain(|_| !second.next().unwrap_or(false));
    let gaps = gaps_of(v, position, power, submitted, &read, lang);
    let marks = marks_of(v, position, power, submitted, &read);
    Reading {
        read,
        echo: numbered(echoes, submitted),
        kept,
        gaps,
        marks,
    }
}

/// What `read`, the orders of a submission, leave out or overdo in the current phase, in `lang`:
/// nothing when the submission only orders later phases (the current phase's orders sent
/// before stand, and are not in `read`).
fn gaps_of(
    v: &Variant,
    position: &Position,
    power: PowerId,
    submitted: &OrderLines,
    read: &PhaseOrders,
    lang: Lang,
) -> Vec<String> {
    if !speaks_for_now(v, position, submitted) {
        return Vec::new();
    }
    spielleiter_engine::completeness::gaps(v, position, power, read)
        .iter()
        // Retreats given in advance stand beside a retreat phase's own lines.
        .filter(|g| !(submitted.in_advance && matches!(g, spielleiter_engine::completeness::Gap::NoRetreat(_))))
        .map(|g| spielleiter_engine::report::gap_text(v, g, lang))
        .collect()
}

/// The marks of the units that need an order now (see `completeness::unit_marks`), when the
/// submission speaks for the current phase; a dislodged unit is not marked as missing its order
/// where retreats were given in advance.
fn marks_of(
    v: &Variant,
    position: &Position,
    power: PowerId,
    submitted: &OrderLines,
    read: &PhaseOrders,
) -> Vec<(spielleiter_engine::Unit, UnitMark)> {
    if !speaks_for_now(v, position, submitted) {
        return Vec::new();
    }
    let retreats_in_advance = submitted.in_advance && position.phase.kind == spielleiter_engine::PhaseKind::Retreat;
    spielleiter_engine::completeness::unit_marks(v, position, power, read)
        .into_iter()
        .filter(|(_, m)| !(retreats_in_advance && *m == UnitMark::Missing))
        .collect()
}

/// Whether a submission's lines are the current phase's orders: they order it, or they order
/// no phase by name and no orders sent in advance stand for it (only later phases ordered, or
/// orders in advance left standing, say nothing of the current phase).
fn speaks_for_now(v: &Variant, position: &Position, submitted: &OrderLines) -> bool {
    let lines = submitted.texts.iter().map(String::as_str);
    let phases = spielleiter_engine::game::phases_ordered(v, position.phase, lines);
    phases.contains(&position.phase) || (phases.is_empty() && !submitted.in_advance)
}

/// The echoes with their line numbers, and the order's place on lines that hold several.
fn numbered(echoes: Vec<((usize, usize), Echo)>, submitted: &OrderLines) -> Vec<Echo> {
    let on_line = |i: usize| echoes.iter().filter(|((l, _), _)| *l == i).count();
    let mut out = Vec::with_capacity(echoes.len());
    let mut place = (usize::MAX, 0);
    for ((line, _), e) in &echoes {
        place = if place.0 == *line {
            (*line, place.1 + 1)
        } else {
            (*line, 1)
        };
        let part = (on_line(*line) > 1).then_some(place.1);
        out.push(Echo {
            line: submitted.number(*line),
            part,
            ..e.clone()
        });
    }
    out
}

/// The lines to store: a line that holds a refused second order is written again from its other
/// orders as read (each for another country than the sender's with that country's prefix), or
/// left out when none is left.
fn kept_lines(
    v: &Variant,
    sender: PowerId,
    lines: &[String],
    read: &PhaseOrders,
    seconds: &[Option<usize>],
    at_lines: &[(usize, usize)],
) -> Vec<String> {
    let refused_on = |i: usize| (0..seconds.len()).any(|k| seconds[k].is_some() && at_lines[k].0 == i);
    let mut kept = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if !refused_on(i) {
            kept.push(line.clone());
            continue;
        }
        let mut others: Vec<(usize, String)> = (0..read.lines.len())
            .filter(|&k| at_lines[k].0 == i && seconds[k].is_none())
            .map(|k| (at_lines[k].1, with_country(v, sender, &read.lines[k])))
            .collect();
        let private = read.private_origins.iter().enumerate().filter(|(_, o)| **o == i);
        others.extend(private.map(|(k, _)| (usize::MAX, read.sender_only[k].1.clone())));
        others.sort_by_key(|(column, _)| *column);
        if !others.is_empty() {
            kept.push(others.into_iter().map(|(_, t)| t).collect::<Vec<_>>().join(", "));
        }
    }
    kept
}

/// An order's text as it must be stored alone: with its country's prefix when it is for another
/// country than the sender's and does not name it already.
fn with_country(v: &Variant, sender: PowerId, line: &ReadLine) -> String {
    match line.power {
        Some(p) if p != sender && !line.text.contains(':') => format!("{}: {}", v.map.power(p).name, line.text),
        _ => line.text.to_string(),
    }
}

impl Echo {
    /// An order read.
    fn read(input: &str, order: String) -> Echo {
        Echo {
            input: input.to_string(),
            order: Some(order),
            error: None,
            position: None,
            suggestion: None,
            line: 0,
            part: None,
        }
    }

    /// The echo with its suggestion written in `lang` (`Spain` for a German reader: `Spanien`).
    fn named(mut self, v: &Variant, lang: Lang) -> Echo {
        self.suggestion = self
            .suggestion
            .map(|s| spielleiter_engine::report::name_in(v, &s, lang));
        self
    }

    /// An order refused.
    fn refused(input: &str, error: String, e: &OrderError) -> Echo {
        Echo {
            input: input.to_string(),
            order: None,
            error: Some(error),
            position: Some(e.position),
            suggestion: e.suggestion.clone(),
            line: 0,
            part: None,
        }
    }
}

/// The most lines one submission (or one echo) may have.
pub(crate) const MAX_LINES: usize = 500;
/// The most characters one line may have.
pub(crate) const MAX_LINE_CHARS: usize = 500;
/// The most text one submission may have in all, in bytes: far more than a year's orders of the
/// largest power, far less than what would keep a thread busy.
pub(crate) const MAX_TEXT_BYTES: usize = 32 * 1024;

/// Refuses a submission over [`MAX_LINES`], [`MAX_LINE_CHARS`] or [`MAX_TEXT_BYTES`].
pub(crate) fn check_size(lines: &[String]) -> ApiResult<()> {
    let total: usize = lines.iter().map(|l| l.len() + 1).sum();
    if lines.len() > MAX_LINES || total > MAX_TEXT_BYTES || lines.iter().any(|l| l.chars().count() > MAX_LINE_CHARS) {
        return Err(ApiError::bad_request(
            "too_long",
            format!(
                "at most {MAX_LINES} lines of at most {MAX_LINE_CHARS} characters, {} KB in all",
                MAX_TEXT_BYTES / 1024
            ),
        )
        .de(format!(
            "Höchstens {MAX_LINES} Zeilen mit höchstens {MAX_LINE_CHARS} Zeichen, {} KB insgesamt",
            MAX_TEXT_BYTES / 1024
        )));
    }
    Ok(())
}

/// [`echo`] after [`check_size`], on a blocking thread: reading many lines takes a while, and the
/// async threads serve everyone else meanwhile.
pub(crate) async fn echo_checked(
    v: std::sync::Arc<Variant>,
    position: Position,
    power: PowerId,
    lines: OrderLines,
    lang: Lang,
) -> ApiResult<Reading> {
    check_size(&lines.texts)?;
    tokio::task::spawn_blocking(move || echo(&v, &position, power, &lines, lang))
        .await
        .map_err(|e| {
            eprintln!("reading orders: {e}");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the orders could not be read",
            )
            .de("Die Befehle konnten nicht gelesen werden")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> (std::sync::Arc<Variant>, Position, PowerId) {
        let v = crate::variants::variant("standard").expect("standard");
        let position = Position::initial(&v);
        let france = v.map.power_by_name("France").expect("France");
        (v, position, france)
    }

    fn submit(lines: &[&str]) -> Reading {
        let (v, position, france) = standard();
        let lines = OrderLines::plain(lines.iter().map(|l| l.to_string()).collect());
        echo(&v, &position, france, &lines, Lang::En)
    }

    #[test]
    fn units_left_without_orders_are_told_unless_only_later_phases_are_ordered() {
        assert_eq!(
            submit(&["A Par - Bur", "A Mar H"]).gaps,
            ["Fleet Brest has no order: it holds."]
        );
        assert_eq!(submit(&["F1901M:", "A Par - Bur"]).gaps, [] as [String; 0]);
        assert_eq!(submit(&[]).gaps.len(), 3);
        // Orders sent for this phase in an earlier one stand: nothing told as missing.
        let (v, position, france) = standard();
        let none = OrderLines::plain(Vec::new()).with_orders_in_advance(true);
        assert_eq!(echo(&v, &position, france, &none, Lang::En).gaps, [] as [String; 0]);
    }

    #[test]
    fn each_order_names_its_line_and_its_place_on_a_line_of_several() {
        let r = submit(&["", "A Par - Bur, A Mar - Spa, F Bre - Xyz", "A Par H"]);
        let places: Vec<(usize, Option<usize>, bool)> =
            r.echo.iter().map(|e| (e.line, e.part, e.error.is_some())).collect();
        assert_eq!(
            places,
            [
                (2, Some(1), false),
                (2, Some(2), false),
                (2, Some(3), true),
                (3, None, true)
            ]
        );
    }

    #[test]
    fn a_second_order_for_a_unit_is_refused_and_not_kept_and_the_first_stands() {
        let r = submit(&["A Par - Bur", "A Mar - Spa, A Par - Pic", "A Par H"]);
        let second = r.echo[2].error.clone().expect("refused");
        assert!(second.contains("line 1") && second.contains("A Par - Bur"), "{second}");
        assert!(r.echo[3].error.as_deref().is_some_and(|e| e.contains("line 1")));
        assert_eq!(r.kept, ["A Par - Bur", "A Mar - Spa"]);
        assert_eq!(r.read.lines.len(), 2, "the first order and Marseilles' stand");
    }

    #[test]
    fn a_comment_that_names_an_order_is_not_taken_for_it() {
        let r = submit(&["A Par H", "# or A Par - Bur?", "A Par - Bur"]);
        let second = r.echo.iter().find(|e| e.error.is_some()).expect("refused");
        assert_eq!((second.line, second.input.as_str()), (3, "A Par - Bur"));
        assert_eq!(
            r.kept,
            ["A Par H", "# or A Par - Bur?"],
            "the refused order is not stored"
        );
    }

    fn lines(count: usize, line: &str) -> Vec<String> {
        vec![line.to_string(); count]
    }

    #[test]
    fn a_submission_is_bounded_in_lines_in_line_length_and_in_bytes() {
        assert!(check_size(&lines(MAX_LINES, "A Par H")).is_ok());
        let too_many = check_size(&lines(MAX_LINES + 1, "A Par H")).expect_err("too many lines");
        assert_eq!(too_many.code, "too_long");
        let long_line = format!("A Par H # {}", "x".repeat(MAX_LINE_CHARS));
        assert!(check_size(&[long_line]).is_err(), "one line too long");
        // Characters, not bytes, per line: 500 umlauts are 1000 bytes and still one line.
        assert!(check_size(&["ä".repeat(MAX_LINE_CHARS)]).is_ok());
        let big = lines(MAX_TEXT_BYTES / 400 + 1, &"y".repeat(399));
        assert!(big.len() < MAX_LINES && check_size(&big).is_err(), "too many bytes");
    }
}
