//! Python bindings of the Spielleiter engine (`import spielleiter`): a `Game` of any variant in
//! the shape of the `diplomacy` package's, saved games in its JSON, and batch calls that
//! release the GIL. Built by maturin; not a member of the cargo workspace.

mod batch;
mod board;
mod convert;
mod core;
mod errors;
mod game;
mod game_io;
mod history;
mod json;
mod legal;
mod saved;
mod state;
mod structured;
mod variant_cache;

use pyo3::prelude::*;

/// The module's Rust allocations go through mimalloc (Python's own objects keep Python's
/// allocator): faster than the C library's malloc for the many small ones a phase makes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The built-in variants a game can start on.
#[pyfunction]
fn variants() -> Vec<String> {
    variant_cache::names()
}

/// The built-in variants whose data lacks the starting position (their positions can still be
/// loaded with `Game.from_state` and played).
#[pyfunction]
fn incomplete_variants() -> Vec<String> {
    variant_cache::incomplete_names()
}

/// The extension module `spielleiter._spielleiter`.
#[pymodule]
fn _spielleiter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(batch::process_games, m)?)?;
    m.add_function(wrap_pyfunction!(game_io::_load_saved, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(incomplete_variants, m)?)?;
    m.add("SpielleiterError", py.get_type::<errors::SpielleiterError>())?;
    m.add("VariantError", py.get_type::<errors::VariantError>())?;
    m.add("StateError", py.get_type::<errors::StateError>())?;
    m.add("OrderError", py.get_type::<errors::OrderError>())?;
    m.add("GameOverError", py.get_type::<errors::GameOverError>())?;
    Ok(())
}
