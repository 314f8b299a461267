//! `spielleiter adjudicate`: one state plus orders in (JSON), results and the next state out.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use spielleiter_engine::adjudication::adjudicate_json;
use spielleiter_engine::interchange::AdjudicationInput;

/// Options of `spielleiter adjudicate`.
#[derive(Args)]
pub struct AdjudicateArgs {
    /// Read one JSON state per line and write one result per line (batch use).
    #[arg(long)]
    jsonl: bool,
    /// Indent the JSON output (single-state mode).
    #[arg(long)]
    pretty: bool,
}

fn one(text: &str) -> Result<String, String> {
    let input: AdjudicationInput = serde_json::from_str(text).map_err(|e| format!("malformed input: {e}"))?;
    let output = adjudicate_json(&input).map_err(|e| e.to_string())?;
    serde_json::to_string(&output).map_err(|e| e.to_string())
}

/// Runs the command.
pub fn run(args: &AdjudicateArgs) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    if !args.jsonl {
        let mut text = String::new();
        stdin
            .lock()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return match one(&text) {
            Ok(json) => {
                if args.pretty {
                    let value: serde_json::Value = serde_json::from_str(&json)?;
                    writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
                } else {
                    writeln!(out, "{json}")?;
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("error: {e}");
                Ok(ExitCode::from(2))
            }
        };
    }
    let mut failed = 0usize;
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.context("reading standard input")?;
        if line.trim().is_empty() {
            continue;
        }
        match one(&line) {
            Ok(json) => writeln!(out, "{json}")?,
            Err(e) => {
                failed += 1;
                writeln!(out, "{}", serde_json::json!({ "line": n + 1, "error": e }))?;
            }
        }
    }
    if failed > 0 {
        eprintln!("error: {failed} line(s) could not be adjudicated");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}
