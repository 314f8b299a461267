//! `spielleiter orders`: read order lines and echo how each was read.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use spielleiter_engine::Variant;
use spielleiter_engine::conditions::{LineOrder, read_order_line};
use spielleiter_engine::interchange::{GameState, position_from_state, variant_for_state};
use spielleiter_engine::order::{OrderContext, OrderError, read_power_header};
use spielleiter_engine::report::{Lang, error_de};
use spielleiter_engine::{Phase, PowerId};

/// Options of `spielleiter orders`.
#[derive(Args)]
pub struct OrdersArgs {
    /// Variant: a built-in name (see `spielleiter variants`) or a variant file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Phase the orders are for (S1901M, F1901R, W1901A); default: the state's phase, else the
    /// variant's first phase.
    #[arg(long)]
    phase: Option<Phase>,
    /// A game state (JSON interchange format) to check units and owners against.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Print one JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    /// Exit with code 1 when any order was rejected (for scripts).
    #[arg(long)]
    strict: bool,
    /// Language of the error messages: en or de.
    #[arg(long, default_value = "en")]
    lang: Lang,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    input: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    power: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<String>,
    /// For a line with conditions on a winter's steps: the order carried out when they fail
    /// (`""`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    otherwise: Option<String>,
}

/// Runs the command; with `--strict` the exit code is 1 when any order was rejected.
pub fn run(args: &OrdersArgs) -> Result<ExitCode> {
    let mut variant = crate::variant_arg::load(&args.variant)?;
    let position = match &args.state {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            let state: GameState =
                serde_json::from_str(&text).with_context(|| format!("{} is not a game state", path.display()))?;
            // Played with the calendar the state names (Colonial's original years).
            variant = variant_for_state(&variant, &state)
                .with_context(|| format!("in {}", path.display()))?
                .into_owned();
            Some(position_from_state(&variant, &state).with_context(|| format!("in {}", path.display()))?)
        }
    };
    let phase = args
        .phase
        .or(position.as_ref().map(|p| p.phase))
        .unwrap_or(variant.start);
    let map = &variant.map;
    let mut current_power: Option<PowerId> = None;
    let mut rejected = 0usize;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.context("reading standard input")?;
        let text = line.trim();
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        if let Some(p) = read_power_header(map, text) {
            current_power = Some(p);
            continue;
        }
        let ctx = OrderContext {
            map,
            phase: phase.kind,
            position: position.as_ref(),
            default_power: current_power,
            leaders: &variant.leaders,
        };
        for line in read_order_line(&variant, &ctx, text) {
            if line.result.is_err() {
                rejected += 1;
            }
            print_result(&mut out, &variant, &line, args.json, args.lang)?;
        }
    }
    Ok(if rejected > 0 && args.strict {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_result(out: &mut impl Write, variant: &Variant, line: &LineOrder, json: bool, lang: Lang) -> Result<()> {
    let map = &variant.map;
    let (text, result) = (line.text.as_str(), &line.result);
    let otherwise = line.undecided.as_ref().map(|o| match o {
        Some(o) => o.order.display(map).to_string(),
        None => String::new(),
    });
    let reason = |e: &OrderError| match lang {
        Lang::En => e.kind.to_string(),
        Lang::De => error_de(&e.kind),
    };
    if json {
        let line = match result {
            Ok(o) => JsonLine {
                input: text,
                power: o.power.map(|p| map.power(p).key.to_ascii_uppercase()),
                order: Some(o.order.display(map).to_string()),
                error: None,
                position: None,
                suggestion: None,
                otherwise,
            },
            Err(e) => JsonLine {
                input: text,
                power: None,
                order: None,
                error: Some(reason(e)),
                position: Some(e.position),
                suggestion: e.suggestion.clone(),
                otherwise: None,
            },
        };
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
        return Ok(());
    }
    match result {
        Ok(o) => {
            let power = o.power.map(|p| format!("{}: ", map.power(p).name)).unwrap_or_default();
            let when = match (&otherwise, lang) {
                (None, _) => String::new(),
                (Some(e), Lang::En) if e.is_empty() => " (if the winter's steps allow it; else nothing)".to_string(),
                (Some(e), Lang::En) => format!(" (if the winter's steps allow it; else {e})"),
                (Some(e), Lang::De) if e.is_empty() => {
                    " (wenn die Schritte des Winters es erlauben; sonst nichts)".to_string()
                }
                (Some(e), Lang::De) => format!(" (wenn die Schritte des Winters es erlauben; sonst {e})"),
            };
            writeln!(out, "{text:<50} => {power}{}{when}", o.order.display(map))?;
        }
        Err(e) => {
            let hint = e
                .suggestion
                .as_ref()
                .map(|s| spielleiter_engine::report::name_in(variant, s, lang))
                .map(|s| match lang {
                    Lang::En => format!(" (did you mean {s}?)"),
                    Lang::De => format!(" (gemeint: {s}?)"),
                })
                .unwrap_or_default();
            let word = if lang == Lang::De { "Fehler" } else { "error" };
            writeln!(out, "{text:<50} => {word}: {}{hint}", reason(e))?;
            writeln!(out, "{:width$}^", "", width = display_column(text, e.position))?;
        }
    }
    Ok(())
}

/// The column of a byte offset (counting characters, so the caret lines up under en dashes).
fn display_column(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|&(i, _)| i < byte).count()
}
