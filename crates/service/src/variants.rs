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
