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
    let known: Vec<_> = builtin_names()
        .chain(spielleiter_engine::variant::incomplete_builtin_names())
        .collect();
    bail!(
        "unknown variant `{name_or_path}`: built in are {}, or give the path of a variant file",
        known.join(", ")
    )
}

/// Loads a variant to start a game on: refused where its data lacks the starting position.
pub fn load_playable(name_or_path: &str) -> Result<Variant> {
    let variant = load(name_or_path)?;
    if let Some(missing) = variant.incomplete() {
        bail!(
            "no game can be started on `{}` yet: {missing}; its map and rules adjudicate any position given as JSON (`spielleiter adjudicate`)",
            variant.name
        );
    }
    Ok(variant)
}

/// Prints the built-in variants: those that can be played, then the incomplete ones with what
/// they lack.
pub fn list() -> Result<ExitCode> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    for name in builtin_names() {
        writeln!(out, "{name}")?;
    }
    for name in spielleiter_engine::variant::incomplete_builtin_names() {
        let variant = load(name)?;
        let missing = variant.incomplete().unwrap_or("see its file");
        writeln!(out, "{name}  (incomplete: {missing})")?;
    }
    Ok(ExitCode::SUCCESS)
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

/// `spielleiter variant import FILE.map`: converts, checks the result, prints or writes it.
pub fn import(path: &Path, name: Option<String>, output: Option<std::path::PathBuf>) -> Result<ExitCode> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_else(|| "imported".to_string())
    });
    let mut include = |file: &str| std::fs::read_to_string(folder.join(file)).ok();
    let file_name = path.display().to_string();
    let imported = match spielleiter_engine::map::dpjudge::import_dpjudge(&file_name, &text, &name, &mut include) {
        Ok(i) => i,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    // The result must load as a variant of ours.
    if let Err(errors) = load_variant(&format!("{name} (imported)"), &imported.toml) {
        for e in &errors.0 {
            eprintln!("{e}");
        }
        bail!("the imported map does not make a valid variant");
    }
    match output {
        Some(out) => {
            std::fs::write(&out, &imported.toml).with_context(|| format!("writing {}", out.display()))?;
            eprintln!("wrote {}", out.display());
        }
        None => print!("{}", imported.toml),
    }
    Ok(ExitCode::SUCCESS)
}
