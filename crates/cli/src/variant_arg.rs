//! Finding the variant a command names: a built-in name or a path to a variant file.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use spielleiter_engine::Variant;
use spielleiter_engine::map::load_variant;
use spielleiter_engine::variant::{builtin, builtin_names};

/// Loads a built-in variant by name, or a variant file by path.
pub fn load(name_or_path: &str) -> Result<Variant> {
    if let Some(result) = builtin(name_or_path) {
        return Ok(result?);
    }
    let path = Path::new(name_or_path);
    if path.exists() {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        return Ok(load_variant(&path.display().to_string(), &text)?);
    }
    let known: Vec<_> = builtin_names().collect();
    bail!(
        "unknown variant `{name_or_path}`: built in are {}, or give the path of a variant file",
        known.join(", ")
    )
}

/// `spielleiter check-variant FILE`.
pub fn check_file(path: &Path) -> Result<ExitCode> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    match load_variant(&path.display().to_string(), &text) {
        Ok(v) => {
            println!(
                "{}: {} provinces, {} supply centres, {} powers: ok",
                v.name,
                v.map.provinces().len(),
                v.map.centres().count(),
                v.map.powers().len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            for e in &errors.0 {
                println!("{e}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
