//! Game states as JSON in the conventions of the Python `diplomacy` package: the engine's
//! interchange state (`phase`, `units`, `centers`, `retreats`, …) with the package's `name`,
//! `homes` and `builds` added.

use serde_json::{Value, json};
use spielleiter_engine::game::{expected_counts, free_home_centres, public_count};
use spielleiter_engine::interchange::{GameState, position_from_state, state_from_position, variant_for_state};
use spielleiter_engine::{PhaseKind, Position, Variant};

use crate::core::GameError;

/// The state of `position` (named `COMPLETED` when `done`).
pub fn state_value(variant: &Variant, position: &Position, done: bool) -> Value {
    let mut state = state_from_position(variant, position);
    if done {
        state.phase = "COMPLETED".to_string();
    }
    let mut value = serde_json::to_value(&state).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        fields.insert("name".to_string(), Value::String(state.phase.clone()));
        fields.insert("homes".to_string(), homes(variant));
        fields.insert("builds".to_string(), builds(variant, position, done));
    }
    value
}

fn upper_key(variant: &Variant, power: spielleiter_engine::PowerId) -> String {
    variant.map.power(power).key.to_ascii_uppercase()
}

fn province_name(variant: &Variant, province: spielleiter_engine::ProvinceId) -> String {
    variant.map.province(province).abbreviation.to_ascii_uppercase()
}

/// Each power's home centres.
fn homes(variant: &Variant) -> Value {
    let map = &variant.map;
    let homes = map.countries().iter().map(|p| {
        let list: Vec<String> = p.home.iter().map(|&h| province_name(variant, h)).collect();
        (upper_key(variant, p.id), json!(list))
    });
    Value::Object(homes.collect())
}

/// Each power's builds (positive) or disbands (negative) in an adjustment phase, with the home
/// centres free for building; zero elsewhere.
fn builds(variant: &Variant, position: &Position, done: bool) -> Value {
    let map = &variant.map;
    let adjusting = position.phase.kind == PhaseKind::Adjustment && !done;
    let counts = if adjusting {
        expected_counts(variant, position)
    } else {
        Vec::new()
    };
    let builds = map.countries().iter().map(|p| {
        let count = counts.get(p.id.index()).map_or(0, |&c| public_count(map, p.id, c));
        let homes: Vec<String> = if count > 0 {
            free_home_centres(variant, position, p.id)
                .into_iter()
                .map(|h| province_name(variant, h))
                .collect()
        } else {
            Vec::new()
        };
        (upper_key(variant, p.id), json!({"count": count, "homes": homes}))
    });
    Value::Object(builds.collect())
}

/// Reads a state written by this package, the engine (`spielleiter start`), or the `diplomacy`
/// package (whose phase is `name`, and whose `influence` lists places, not Hegemony's influence).
pub fn read_state(value: &Value, phase: Option<&str>) -> Result<GameState, GameError> {
    let Value::Object(fields) = value else {
        return Err(GameError::Saved("a state must be a JSON object".to_string()));
    };
    let mut fields = fields.clone();
    let named = |k: &str| {
        fields
            .get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let phase = phase
        .map(str::to_string)
        .or_else(|| named("phase"))
        .or_else(|| named("name"));
    fields.insert("phase".to_string(), Value::String(phase.unwrap_or_default()));
    let diplomacy_influence = fields
        .get("influence")
        .and_then(Value::as_object)
        .is_some_and(|m| m.values().any(Value::is_array));
    if diplomacy_influence {
        fields.remove("influence");
    }
    serde_json::from_value(Value::Object(fields)).map_err(|e| GameError::Saved(format!("state: {e}")))
}

/// The variant a state is played on (its calendar) and its position.
pub fn position_of(
    variant: &std::sync::Arc<Variant>,
    state: &GameState,
) -> Result<(std::sync::Arc<Variant>, Position), GameError> {
    let chosen = match variant_for_state(variant, state)? {
        std::borrow::Cow::Borrowed(_) => variant.clone(),
        std::borrow::Cow::Owned(v) => std::sync::Arc::new(v),
    };
    let position = position_from_state(&chosen, state)?;
    Ok((chosen, position))
}
