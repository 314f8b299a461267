//! Saved games in the JSON of the Python `diplomacy` package (`to_saved_game_format`): `id`,
//! `map`, `rules` and `phases`, each phase with `name`, `state`, `orders`, `results` and
//! `messages`; the last phase is the one at hand. What the package has no field for (how the
//! game ended, orders for later phases, retreats chosen in advance) is kept under `spielleiter`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use spielleiter_engine::interchange::GameEnd;
use spielleiter_engine::order::{OrderContext, parse_order};
use spielleiter_engine::{PhaseKind, Position, Variant};

use crate::core::{GameCore, GameError};
use crate::history::{Record, SavedOutcome};
use crate::state::{position_of, read_state, state_value};

/// The game as a saved game.
pub fn to_saved(game: &GameCore) -> Value {
    let variant = &game.variant;
    let mut phases: Vec<Value> = game
        .history
        .records()
        .into_iter()
        .map(|r| phase_entry(game, &r.position, false, r.orders(variant), r.results(variant)))
        .collect();
    let current = game.normalized_orders();
    let done = game.end.is_some();
    phases.push(phase_entry(game, &game.position, done, &current, &BTreeMap::new()));
    let mut extra = Map::new();
    if let Some(end) = &game.end {
        extra.insert("result".to_string(), json!({"kind": end.kind, "powers": end.powers}));
    }
    if !game.later.is_empty() {
        extra.insert("pending_orders".to_string(), json!(game.later));
    }
    let pending = pending_retreats(variant, &game.position);
    if !pending.is_empty() {
        extra.insert("pending_retreats".to_string(), json!(pending));
    }
    let mut saved = json!({"id": game.id, "map": variant.name, "rules": [], "phases": phases});
    if !extra.is_empty() {
        saved["spielleiter"] = Value::Object(extra);
    }
    saved
}

fn phase_entry(
    game: &GameCore,
    position: &Position,
    done: bool,
    orders: &BTreeMap<String, Vec<String>>,
    results: &BTreeMap<String, Vec<String>>,
) -> Value {
    let mut state = state_value(&game.variant, position, done);
    state["game_id"] = json!(game.id);
    state["map"] = json!(game.variant.name);
    state["rules"] = json!([]);
    let mut all_orders: BTreeMap<String, Vec<String>> =
        game.power_keys().into_iter().map(|k| (k, Vec::new())).collect();
    all_orders.extend(orders.iter().map(|(k, v)| (k.clone(), v.clone())));
    json!({
        "name": state["name"].clone(),
        "state": state,
        "orders": all_orders,
        "results": results,
        "messages": [],
    })
}

/// The retreats chosen in advance for the retreat phase at hand, per power.
fn pending_retreats(variant: &Variant, position: &Position) -> BTreeMap<String, Vec<String>> {
    let map = &variant.map;
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for order in &position.pending_retreats {
        let owner = order
            .unit()
            .and_then(|u| position.dislodged_in(map, map.province_of(u.location)))
            .map(|d| map.power(d.unit.power).key.to_ascii_uppercase())
            .unwrap_or_default();
        out.entry(owner).or_default().push(order.display(map).to_string());
    }
    out
}

/// Reads a saved game of this package or of the `diplomacy` package, on the variant its `map`
/// names (or on `variant`, given for a variant not built in).
pub fn from_saved(saved: &Value, variant: Option<(Arc<Variant>, Option<Arc<str>>)>) -> Result<GameCore, GameError> {
    let bad = |what: &str| GameError::Saved(what.to_string());
    let (base, toml) = match variant {
        Some(v) => v,
        None => {
            let name = saved.get("map").and_then(Value::as_str).unwrap_or("standard");
            (crate::variant_cache::by_name(name)?, None)
        }
    };
    let phases = saved
        .get("phases")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no `phases` list"))?;
    let (last, played) = phases.split_last().ok_or_else(|| bad("no phase"))?;
    let id = saved.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
    let mut records = Vec::with_capacity(played.len());
    for (i, phase) in played.iter().enumerate() {
        let (_, position) = phase_position(&base, phase, None).map_err(|e| at(i, e))?;
        let saved = SavedOutcome {
            orders: string_lists(phase.get("orders"), "orders")
                .map_err(|e| at(i, e))?
                .into_iter()
                .filter(|(_, lines)| !lines.is_empty())
                .collect(),
            results: string_lists(phase.get("results"), "results").map_err(|e| at(i, e))?,
        };
        records.push(Record {
            position,
            played: None,
            saved: Some(saved),
        });
    }
    let done = phase_name(last).is_some_and(|n| n.eq_ignore_ascii_case("COMPLETED"));
    let fallback = records.last().map(|r| r.position.phase.to_string());
    let forced = if done { fallback.as_deref() } else { None };
    if done && forced.is_none() {
        return Err(bad("a completed game with no phase played"));
    }
    let (variant, position) = phase_position(&base, last, forced).map_err(|e| at(played.len(), e))?;
    let mut game = GameCore::at(variant, toml, id, position);
    for r in records {
        game.history.push(r);
    }
    read_extras(&mut game, saved.get("spielleiter"), done)?;
    if !done {
        for (power, lines) in string_lists(last.get("orders"), "orders")? {
            game.set_orders(&power, lines, false)?;
        }
    }
    Ok(game)
}

fn at(index: usize, e: GameError) -> GameError {
    GameError::Saved(format!("phase {}: {e}", index + 1))
}

fn phase_name(phase: &Value) -> Option<&str> {
    phase
        .get("name")
        .and_then(Value::as_str)
        .or_else(|| phase.get("state")?.get("name")?.as_str())
}

fn phase_position(
    base: &Arc<Variant>,
    phase: &Value,
    forced: Option<&str>,
) -> Result<(Arc<Variant>, Position), GameError> {
    let state = phase
        .get("state")
        .ok_or_else(|| GameError::Saved("a phase without `state`".to_string()))?;
    let name = forced.or_else(|| phase_name(phase));
    position_of(base, &read_state(state, name)?)
}

/// `{"FRANCE": ["A PAR - BUR"]}`; a missing field is empty.
fn string_lists(value: Option<&Value>, what: &str) -> Result<BTreeMap<String, Vec<String>>, GameError> {
    match value {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(v) => serde_json::from_value::<BTreeMap<String, Option<Vec<String>>>>(v.clone())
            .map(|m| m.into_iter().map(|(k, v)| (k, v.unwrap_or_default())).collect())
            .map_err(|e| GameError::Saved(format!("{what}: {e}"))),
    }
}

/// How the game ended, orders for later phases and retreats chosen in advance.
fn read_extras(game: &mut GameCore, extras: Option<&Value>, done: bool) -> Result<(), GameError> {
    let field = |k: &str| extras.and_then(|e| e.get(k));
    if done {
        let end = match field("result") {
            Some(r) => {
                serde_json::from_value::<GameEnd>(r.clone()).map_err(|e| GameError::Saved(format!("result: {e}")))?
            }
            None => draw_of_survivors(game),
        };
        game.end = Some(end);
    }
    game.later = string_lists(field("pending_orders"), "pending_orders")?;
    let pending = string_lists(field("pending_retreats"), "pending_retreats")?;
    if game.position.phase.kind == PhaseKind::Retreat {
        let copy = game.position.clone();
        let ctx = OrderContext {
            map: &game.variant.map,
            phase: PhaseKind::Retreat,
            position: Some(&copy),
            default_power: None,
            leaders: &game.variant.leaders,
        };
        for line in pending.values().flatten() {
            let order = parse_order(&ctx, line)
                .map_err(|e| GameError::Saved(format!("pending retreat `{line}`: {}", e.kind)))?;
            game.position.pending_retreats.push(order.order);
        }
    }
    Ok(())
}

fn draw_of_survivors(game: &GameCore) -> GameEnd {
    let survivors = spielleiter_engine::game::survivors(&game.variant, &game.position);
    GameEnd {
        kind: "draw".to_string(),
        powers: survivors.into_iter().map(|p| game.key(p)).collect(),
    }
}
