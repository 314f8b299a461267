//! A variant: its map plus the rules that are data (start, victory), and the built-in variants.

use crate::map::Map;
use crate::map::load::{MapErrors, load_variant};
use crate::phase::Phase;

/// A playable variant: map, powers, first phase and victory condition.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short name (`standard`).
    pub name: String,
    /// English title.
    pub title: String,
    /// German title.
    pub title_de: String,
    /// The first phase of a game.
    pub start: Phase,
    /// Supply centres a power needs to win.
    pub victory_centres: u32,
    /// The map with its powers.
    pub map: Map,
}

/// The variant files compiled into the engine, by name.
const BUILTIN: &[(&str, &str)] = &[("standard", include_str!("../../../variants/standard/variant.toml"))];

/// The names of the built-in variants.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _)| *name)
}

/// Loads a built-in variant by name; `None` if there is no such variant.
pub fn builtin(name: &str) -> Option<Result<Variant, MapErrors>> {
    BUILTIN
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(n, text)| load_variant(&format!("variants/{n}/variant.toml"), text))
}
