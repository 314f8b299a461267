//! A game state (JSON interchange) given to a command as a file or on standard input, with the
//! variant it is played on.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use spielleiter_engine::Variant;
use spielleiter_engine::interchange::AdjudicationInput;

use crate::variant_arg;

/// Reads the state from `file` (`-` or none: standard input).
pub fn read(file: Option<&Path>) -> Result<AdjudicationInput> {
    let mut text = String::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        }
        _ => {
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading standard input")?;
        }
    }
    serde_json::from_str(&text).context("the state is not valid JSON interchange")
}

/// The variant the state is played on: `chosen` (a built-in name or a file), else the state's
/// own `variant`, else standard; with the calendar the state names (Colonial's original years).
pub fn variant(chosen: Option<&str>, input: &AdjudicationInput) -> Result<Variant> {
    let name = chosen
        .map(str::to_string)
        .or_else(|| input.variant.clone())
        .unwrap_or_else(|| "standard".to_string());
    let variant = variant_arg::load(&name)?;
    Ok(spielleiter_engine::interchange::variant_for_state(&variant, &input.state)?.into_owned())
}
