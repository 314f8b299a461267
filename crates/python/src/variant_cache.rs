//! Variants: the built-in ones read once per process and shared, or one from TOML text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use spielleiter_engine::Variant;
use spielleiter_engine::map::load_variant;
use spielleiter_engine::variant::{builtin, builtin_names, incomplete_builtin_names};

/// Why a variant could not be had.
#[derive(Debug, thiserror::Error)]
pub enum VariantProblem {
    /// No built-in variant of that name.
    #[error("unknown variant `{name}`: built in are {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The built-in names.
        known: String,
    },
    /// The data does not load.
    #[error("{0}")]
    Data(String),
    /// The variant lacks what a game needs to start.
    #[error("no game can be started on `{name}` yet: {missing}")]
    Incomplete {
        /// The variant.
        name: String,
        /// What it lacks.
        missing: String,
    },
    /// A calendar the variant does not have.
    #[error("{name} has no calendar `{calendar}`")]
    NoCalendar {
        /// The variant.
        name: String,
        /// The calendar asked for.
        calendar: String,
    },
}

fn cache() -> &'static Mutex<HashMap<String, Arc<Variant>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Variant>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The built-in variant of this name (any case), loaded on first use.
pub fn by_name(name: &str) -> Result<Arc<Variant>, VariantProblem> {
    let key = name.to_ascii_lowercase();
    if let Some(v) = cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(v);
    }
    let loaded = builtin(&key).ok_or_else(|| VariantProblem::Unknown {
        name: name.to_string(),
        known: names().join(", "),
    })?;
    let variant = Arc::new(loaded.map_err(|e| VariantProblem::Data(e.to_string()))?);
    if let Ok(mut c) = cache().lock() {
        c.insert(key, variant.clone());
    }
    Ok(variant)
}

/// A variant from the text of a variant file (`variants/<name>/variant.toml` format).
pub fn from_toml(text: &str) -> Result<Arc<Variant>, VariantProblem> {
    load_variant("variant.toml", text)
        .map(Arc::new)
        .map_err(|e| VariantProblem::Data(e.to_string()))
}

/// The variant played with another of its calendars (Colonial's `original`).
pub fn with_calendar(variant: &Arc<Variant>, calendar: &str) -> Result<Arc<Variant>, VariantProblem> {
    variant
        .with_calendar(calendar)
        .map(Arc::new)
        .ok_or_else(|| VariantProblem::NoCalendar {
            name: variant.name.clone(),
            calendar: calendar.to_string(),
        })
}

/// Refuses a variant whose data lacks the starting position.
pub fn playable(variant: &Variant) -> Result<(), VariantProblem> {
    match variant.incomplete() {
        Some(missing) => Err(VariantProblem::Incomplete {
            name: variant.name.clone(),
            missing: missing.to_string(),
        }),
        None => Ok(()),
    }
}

/// The names of the built-in variants a game can start on.
pub fn names() -> Vec<String> {
    builtin_names().map(str::to_string).collect()
}

/// The built-in variants whose data lacks the starting position (positions on them can still be
/// loaded and adjudicated).
pub fn incomplete_names() -> Vec<String> {
    incomplete_builtin_names().map(str::to_string).collect()
}
