//! `spielleiter play`: a hot-seat game in the terminal. Each power in turn types its orders (an
//! empty line ends them); the judge adjudicates and prints the classic report.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use spielleiter_engine::Position;
use spielleiter_engine::game::{LaterOrder, PhaseOrders, adjudicate_phase, powers_to_order, still_pending};
use spielleiter_engine::report::{Lang, politics_summary, private_report, render};

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
            let mut lines = Vec::new();
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
                        lines.push(line);
                    }
                }
            }
            orders.read(&variant, &position, Some(power), lines.iter().map(String::as_str));
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
