//! The built-in variants, read once per process and shared by every part of the service.

use spielleiter_engine::Variant;

use crate::domain::DomainError;

/// A built-in variant by name. Variants are read once per process and shared.
pub(crate) fn variant(name: &str) -> Result<std::sync::Arc<Variant>, DomainError> {
    static VARIANTS: std::sync::OnceLock<Vec<(&'static str, std::sync::Arc<Variant>)>> = std::sync::OnceLock::new();
    let all = VARIANTS.get_or_init(|| {
        spielleiter_engine::variant::builtin_names()
            .filter_map(|n| match spielleiter_engine::variant::builtin(n) {
                Some(Ok(v)) => Some((n, std::sync::Arc::new(v))),
                _ => None,
            })
            .collect()
    });
    all.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
        .ok_or_else(|| DomainError::UnknownVariant(name.to_string()))
}

/// The variant a game is played on: its built-in variant, with the other calendar the game chose
/// (Colonial's original years).
pub(crate) fn of_game(g: &crate::domain::Game) -> Result<std::sync::Arc<Variant>, DomainError> {
    played(&g.variant, g.options.calendar.as_deref())
}

/// A built-in variant played with its other calendar `calendar`, if one is named. Read once per
/// process and shared.
pub(crate) fn played(name: &str, calendar: Option<&str>) -> Result<std::sync::Arc<Variant>, DomainError> {
    let base = variant(name)?;
    let Some(calendar) = calendar else {
        return Ok(base);
    };
    static CHOSEN: std::sync::Mutex<Vec<std::sync::Arc<Variant>>> = std::sync::Mutex::new(Vec::new());
    let mut chosen = CHOSEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let same = |v: &Variant| {
        v.name == base.name
            && v.calendar_choice
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(calendar))
    };
    if let Some(v) = chosen.iter().find(|v| same(v)) {
        return Ok(v.clone());
    }
    let v = std::sync::Arc::new(base.with_calendar(calendar).ok_or_else(|| {
        eprintln!("the calendar `{calendar}` of {name} is unknown");
        DomainError::Unreadable("the game's calendar".into())
    })?);
    chosen.push(v.clone());
    Ok(v)
}

/// Power `key` of variant `v` as readers see it: its names in English and German (the key itself
/// where the variant has no such power, as for a country of an imported map's older game).
pub(crate) fn power_name(v: &Variant, key: &str) -> crate::domain::PowerName {
    match v.map.power_by_name(key) {
        Some(id) => {
            let p = v.map.power(id);
            crate::domain::PowerName {
                key: p.key.to_ascii_uppercase(),
                en: p.name.clone(),
                de: p.name_de.clone(),
            }
        }
        None => crate::domain::PowerName::bare(key),
    }
}

/// The powers `keys` of variant `v` as readers see them.
pub(crate) fn power_names(v: &Variant, keys: &[String]) -> Vec<crate::domain::PowerName> {
    keys.iter().map(|k| power_name(v, k)).collect()
}
