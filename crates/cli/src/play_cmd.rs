//! `spielleiter play`: a hot-seat game in the terminal. The board is shown at each phase; each
//! power in turn types its orders, each line read at once (the order as understood, or the error
//! with a suggestion; a refused line is not kept and may be typed again), and an empty line ends
//! them with a note of what they leave out; the judge adjudicates and prints the classic report.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use spielleiter_engine::Position;
use spielleiter_engine::completeness::gaps;
use spielleiter_engine::game::{LaterOrder, PhaseOrders, adjudicate_phase, powers_to_order, still_pending};
use spielleiter_engine::report::{Lang, board, error_de, gap_text, name_in, politics_summary, private_report, render};

/// Options of `spielleiter play`.
#[derive(Args)]
pub struct PlayArgs {
    /// Variant: a built-in name or a variant file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Language of the reports: en or de.
    #[arg(long, default_value = "en")]
    lang: Lang,
    /// Stop after this many adjudicated phases.
    #[arg(long)]
    phases: Option<usize>,
}

/// Runs the game until a power wins, the phase limit is reached, or input ends.
pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let variant = crate::variant_arg::load_playable(&args.variant)?;
    let map = &variant.map;
    let mut position = Position::initial(&variant);
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let de = args.lang == Lang::De;
    let mut played = 0usize;
    let mut pending: Vec<LaterOrder> = Vec::new();
    loop {
        if args.phases.is_some_and(|n| played >= n) {
            return Ok(ExitCode::SUCCESS);
        }
        writeln!(out, "=== {} ===", position.phase)?;
        write!(out, "{}", board(&variant, &position, args.lang))?;
        let mut orders = PhaseOrders::default();
        // Orders sent earlier for this phase (or still later ones, which stay pending).
        for later in pending.drain(..) {
            let heading = later.phase.to_string();
            orders.read(
                &variant,
                &position,
                later.power,
                [heading.as_str(), later.text.as_str()],
            );
        }
        let mut ended = false;
        for power in powers_to_order(&variant, &position) {
            if ended {
                break;
            }
            let name = if de {
                &map.power(power).name_de
            } else {
                &map.power(power).name
            };
            for line in politics_summary(&variant, &position, power, args.lang) {
                writeln!(out, "{name}: {line}")?;
            }
            writeln!(
                out,
                "{name}: {}",
                if de {
                    "Befehle (leere Zeile beendet):"
                } else {
                    "orders (an empty line ends them):"
                }
            )?;
            out.flush()?;
            let mut lines: Vec<String> = Vec::new();
            loop {
                match input.next() {
                    None => {
                        // End of input: this phase is adjudicated with the orders given so far.
                        ended = true;
                        break;
                    }
                    Some(line) => {
                        let line = line.context("reading standard input")?;
                        if line.trim().is_empty() {
                            break;
                        }
                        // Lines under a later phase's heading are read with it.
                        let heading = lines
                            .iter()
                            .rev()
                            .find(|l| spielleiter_engine::phase::read_phase_header(l.trim()).is_some());
                        let read = [heading.map(String::as_str), Some(line.as_str())];
                        if checked(
                            &mut out,
                            &variant,
                            &position,
                            power,
                            read.into_iter().flatten(),
                            args.lang,
                        )? {
                            lines.push(line);
                        }
                    }
                }
            }
            let before = orders.lines.len();
            orders.read(&variant, &position, Some(power), lines.iter().map(String::as_str));
            let mine = PhaseOrders {
                lines: orders.lines[before..].to_vec(),
                ..PhaseOrders::default()
            };
            for gap in gaps(&variant, &position, power, &mine) {
                let note = if de { "Hinweis" } else { "Note" };
                writeln!(out, "  {note}: {}", gap_text(&variant, &gap, args.lang))?;
            }
        }
        let report = adjudicate_phase(&variant, &position, orders);
        writeln!(out)?;
        write!(out, "{}", render(&variant, &report, args.lang))?;
        writeln!(out)?;
        write_private(&mut out, &variant, &position, &report, args.lang)?;
        played += 1;
        if report.end.is_some() {
            return Ok(ExitCode::SUCCESS);
        }
        if ended {
            writeln!(out, "{}", if de { "Eingabe beendet." } else { "End of input." })?;
            return Ok(ExitCode::SUCCESS);
        }
        pending = still_pending(&report).cloned().collect();
        position = report.next;
    }
}

/// Reads one typed line of `power` against the position and says how it was read: each order as
/// understood (`  = A PAR - BUR`), or why not (`  ! …`, with a suggestion). Whether to keep it: a
/// line with a refused order is not kept (the player types it again).
fn checked<'a>(
    out: &mut impl Write,
    variant: &spielleiter_engine::Variant,
    position: &Position,
    power: spielleiter_engine::PowerId,
    lines: impl IntoIterator<Item = &'a str>,
    lang: Lang,
) -> Result<bool> {
    let mut probe = PhaseOrders::default();
    probe.read(variant, position, Some(power), lines);
    let de = lang == Lang::De;
    let mut keep = true;
    let reason = |e: &spielleiter_engine::OrderError| {
        let why = if de { error_de(&e.kind) } else { e.kind.to_string() };
        let hint = e
            .suggestion
            .as_ref()
            .map(|s| name_in(variant, s, lang))
            .map(|s| match lang {
                Lang::En => format!(" (did you mean {s}?)"),
                Lang::De => format!(" (gemeint: {s}?)"),
            });
        format!("{why}{}", hint.unwrap_or_default())
    };
    for l in &probe.lines {
        match &l.result {
            Ok(o) => writeln!(out, "  = {}", o.display(&variant.map))?,
            Err(e) => {
                keep = false;
                writeln!(out, "  ! {}", reason(e))?;
            }
        }
    }
    for (_, _, e) in &probe.sender_only {
        keep = false;
        writeln!(out, "  ! {}", reason(e))?;
    }
    for later in &probe.later {
        let when = if de { "für" } else { "for" };
        writeln!(out, "  = {when} {}: {}", later.phase, later.text)?;
    }
    if !keep {
        let again = if de {
            "  (nicht übernommen; bitte neu eingeben)"
        } else {
            "  (not kept; type it again)"
        };
        writeln!(out, "{again}")?;
    }
    Ok(keep)
}

/// What each player alone is told of the phase (his orders not carried out, his allocations of
/// political factors, his provocations, his income), under his name: in a hot-seat game the players share
/// the screen, so it is printed after the report rather than kept.
fn write_private(
    out: &mut impl Write,
    variant: &spielleiter_engine::Variant,
    before: &spielleiter_engine::position::Position,
    report: &spielleiter_engine::game::PhaseReport,
    lang: Lang,
) -> Result<()> {
    for p in variant.map.powers() {
        let lines = private_report(variant, before, report, p.id, lang);
        if lines.is_empty() {
            continue;
        }
        let name = if lang == Lang::De { &p.name_de } else { &p.name };
        let heading = if lang == Lang::De { "nur für" } else { "for" };
        writeln!(out, "--- {heading} {name} ---")?;
        for line in lines {
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
