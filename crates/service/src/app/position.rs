//! A game's position and powers as the engine sees them, read from the stored game.

use spielleiter_engine::interchange::{GameState, position_from_state};
use spielleiter_engine::{Position, Variant};

use crate::domain::{DomainError, Game};

/// The game's current state and position; refused before the start and after the end.
pub fn current_position(v: &Variant, g: &Game) -> Result<(GameState, Position), DomainError> {
    let text = g.state_json.as_deref().ok_or(DomainError::NotStarted)?;
    let state: GameState = serde_json::from_str(text).map_err(|e| unreadable(g, e))?;
    if state.phase == "COMPLETED" {
        return Err(DomainError::GameOver);
    }
    let position = position_from_state(v, &state).map_err(|e| unreadable(g, e))?;
    Ok((state, position))
}

/// The phase the game is in (`S1901M`); empty before the start.
pub fn phase_of(g: &Game) -> Result<String, DomainError> {
    match g.state_json.as_deref() {
        None => Ok(String::new()),
        Some(text) => serde_json::from_str::<GameState>(text)
            .map(|s| s.phase)
            .map_err(|e| unreadable(g, e)),
    }
}

fn unreadable(g: &Game, e: impl std::fmt::Display) -> DomainError {
    let what = format!("the position of game {}", g.id);
    eprintln!("unreadable stored data ({what}): {e}");
    DomainError::Unreadable(what)
}

/// The key (upper case) of the power a name means.
pub fn power_key(v: &Variant, name: &str) -> Result<String, DomainError> {
    v.map
        .power_by_name(name)
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .ok_or_else(|| DomainError::UnknownPower(name.to_string()))
}

/// The powers (keys) with something to order in the position's phase.
pub fn to_order(v: &Variant, position: &Position) -> Vec<String> {
    spielleiter_engine::game::powers_to_order(v, position)
        .into_iter()
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .collect()
}

/// The powers (keys) still on the board.
pub fn survivors(v: &Variant, position: &Position) -> Vec<String> {
    spielleiter_engine::game::survivors(v, position)
        .into_iter()
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .collect()
}
