//! Map pictures of games: the laid-out maps of the built-in variants (computed once per
//! process) and the picture of an adjudicated phase (the position before it, its orders and
//! their outcomes), shared by the web pages and the result mails.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use sqlx::Row;

use spielleiter_engine::Variant;
use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, GameState, position_from_state};
use spielleiter_engine::report::Lang;
use spielleiter_render::{MapGeometry, Scene};

use crate::store::Store;

/// The laid-out map of a built-in variant, or `None` for a variant without shapes (computed
/// once per process and variant).
pub(crate) fn geometry(v: &Variant) -> Option<Arc<MapGeometry>> {
    static ALL: OnceLock<Mutex<BTreeMap<String, Option<Arc<MapGeometry>>>>> = OnceLock::new();
    let all = ALL.get_or_init(Default::default);
    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
    all.entry(v.name.clone())
        .or_insert_with(|| match spielleiter_render::builtin_geometry(v) {
            Some(Ok(g)) => Some(Arc::new(g)),
            Some(Err(e)) => {
                eprintln!("map shapes of {}: {e}", v.name);
                None
            }
            None => None,
        })
        .clone()
}

/// The SVG of a scene, or a one-line note for a variant without map shapes.
pub(crate) fn draw(v: &Variant, scene: &Scene) -> String {
    match geometry(v) {
        Some(g) => spielleiter_render::svg(&g, scene),
        None => format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="60"><text x="10" y="35">{}</text></svg>"#,
            spielleiter_render::svg::esc(&format!("No map pictures for the variant {}.", v.name))
        ),
    }
}

/// An adjudicated phase as stored: the state before it and the orders that were accepted.
pub(crate) struct StoredPhase {
    /// The game state the phase was adjudicated from.
    pub(crate) before: GameState,
    /// The accepted orders, by power.
    pub(crate) orders: BTreeMap<String, Vec<String>>,
}

impl StoredPhase {
    /// A `phases` row's state and result columns read (`phase` names it in errors).
    pub(crate) fn read(phase: &str, state_json: &str, result_json: &str) -> Result<StoredPhase, String> {
        let before: GameState = serde_json::from_str(state_json).map_err(|e| format!("{phase}: {e}"))?;
        let result: serde_json::Value = serde_json::from_str(result_json).unwrap_or_default();
        let orders = serde_json::from_value(result["accepted_orders"].clone()).unwrap_or_default();
        Ok(StoredPhase { before, orders })
    }

    /// The SVG of the phase: its position with the orders and their outcomes drawn (the orders
    /// are adjudicated again, which gives the same outcomes; this takes a while, so callers in
    /// async code run it as blocking work).
    pub(crate) fn svg(self, v: &Variant, lang: Lang) -> Result<String, String> {
        let position = position_from_state(v, &self.before).map_err(|e| e.to_string())?;
        let input = AdjudicationInput {
            variant: Some(v.name.clone()),
            state: self.before,
            orders: self.orders,
            ..AdjudicationInput::default()
        };
        let (_, report) = adjudicate_with(v, &input).map_err(|e| e.to_string())?;
        Ok(draw(v, &Scene::adjudicated(v, &position, &report, lang)))
    }
}

/// The PNG of a game's adjudicated phase in a language, as attached to result mails; `None` if
/// the game's variant has no map shapes or the picture could not be drawn (then logged: a result
/// goes out without its picture rather than not at all).
pub(crate) async fn phase_png(
    store: &Store,
    game_id: &str,
    phase: &str,
    lang: Lang,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT g.variant, p.state_json, p.result_json FROM phases p JOIN games g ON g.id = p.game_id \
         WHERE p.game_id = $1 AND p.phase = $2",
    )
    .bind(game_id)
    .bind(phase)
    .fetch_optional(&store.pool)
    .await?;
    let Some(row) = row else {
        eprintln!("the map of game {game_id} {phase}: no such phase");
        return Ok(None);
    };
    let (variant, state_json, result_json): (String, String, String) = (row.get(0), row.get(1), row.get(2));
    let phase_name = phase.to_string();
    let drawn = tokio::task::spawn_blocking(move || {
        let v = crate::api::variant(&variant).map_err(|e| e.message)?;
        if geometry(&v).is_none() {
            return Ok(None);
        }
        let svg = StoredPhase::read(&phase_name, &state_json, &result_json)?.svg(&v, lang)?;
        spielleiter_render::png(&svg, 1.0).map(Some).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|r| r);
    Ok(drawn.unwrap_or_else(|e| {
        eprintln!("the map of game {game_id} {phase}: {e}");
        None
    }))
}
