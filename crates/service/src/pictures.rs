//! Map pictures of games: the laid-out maps of the built-in variants (computed once per
//! process) and the pictures of an adjudicated phase (its orders with their outcomes, and the
//! position they led to), shared by the web pages and the result mails.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use sqlx::Row;

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::interchange::{AdjudicationInput, GameState, position_from_state};
use spielleiter_engine::report::Lang;
use spielleiter_engine::{Position, Variant};
use spielleiter_render::{MapGeometry, Scene};

use crate::outbox::Attachment;
use crate::store::Store;

/// The laid-out map of a variant (its shapes, or a layout generated from its adjacencies), or
/// `None` if its shape file is broken (computed once per process and variant).
pub(crate) fn geometry(v: &Variant) -> Option<Arc<MapGeometry>> {
    static ALL: OnceLock<Mutex<BTreeMap<String, Option<Arc<MapGeometry>>>>> = OnceLock::new();
    let all = ALL.get_or_init(Default::default);
    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
    all.entry(v.name.clone())
        .or_insert_with(|| match spielleiter_render::geometry_for(v) {
            Ok(g) => Some(Arc::new(g)),
            Err(e) => {
                eprintln!("map shapes of {}: {e}", v.name);
                None
            }
        })
        .clone()
}

/// The SVG of a scene, or a one-line note if the variant's map cannot be laid out.
pub(crate) fn draw(v: &Variant, scene: &Scene) -> String {
    match geometry(v) {
        Some(g) => spielleiter_render::svg(&g, scene),
        None => format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="60"><text x="10" y="35">{}</text></svg>"#,
            spielleiter_render::svg::esc(&format!("No map pictures for the variant {}.", v.name))
        ),
    }
}

/// An adjudicated phase as stored: the state before it and what its adjudication read.
pub(crate) struct StoredPhase {
    /// The game state the phase was adjudicated from.
    pub(crate) before: GameState,
    /// The accepted orders, by power.
    pub(crate) orders: BTreeMap<String, Vec<String>>,
    /// The retreats ordered in advance that the adjudication used, by power.
    pub(crate) pending_retreats: BTreeMap<String, Vec<String>>,
}

impl StoredPhase {
    /// A `phases` row's state, result and pending-retreat columns read (`phase` names it in
    /// errors; rows from before retreats were kept have none).
    pub(crate) fn read(
        phase: &str,
        state_json: &str,
        result_json: &str,
        pending_retreats_json: Option<&str>,
    ) -> Result<StoredPhase, String> {
        let bad = |what: &str, e: serde_json::Error| format!("{phase}: the stored {what}: {e}");
        let before: GameState = serde_json::from_str(state_json).map_err(|e| bad("state", e))?;
        let result: serde_json::Value = serde_json::from_str(result_json).map_err(|e| bad("result", e))?;
        let orders = match result.get("accepted_orders") {
            Some(orders) => serde_json::from_value(orders.clone()).map_err(|e| bad("orders", e))?,
            None => BTreeMap::new(),
        };
        let pending_retreats = match pending_retreats_json {
            Some(text) => serde_json::from_str(text).map_err(|e| bad("retreats", e))?,
            None => BTreeMap::new(),
        };
        Ok(StoredPhase {
            before,
            orders,
            pending_retreats,
        })
    }

    /// The phase adjudicated again from what its adjudication read, which gives the same
    /// outcomes: the position before it and the report.
    fn adjudicated(self, v: &Variant) -> Result<(Position, PhaseReport), String> {
        let position = position_from_state(v, &self.before).map_err(|e| e.to_string())?;
        let input = AdjudicationInput {
            variant: Some(v.name.clone()),
            state: self.before,
            orders: self.orders,
            pending_retreats: self.pending_retreats,
            ..AdjudicationInput::default()
        };
        let (_, report) = adjudicate_with(v, &input).map_err(|e| e.to_string())?;
        Ok((position, report))
    }

    /// The SVG of the phase: its position with the orders and their outcomes drawn. This takes
    /// a while: callers in async code run it as blocking work.
    pub(crate) fn svg(self, v: &Variant, lang: Lang) -> Result<String, String> {
        let (position, report) = self.adjudicated(v)?;
        Ok(draw(v, &Scene::adjudicated(v, &position, &report, lang)))
    }

    /// The two pictures of a result, as PNG: the orders with their outcomes, and the position
    /// they led to (dislodged units with their retreat options), with the phase that position
    /// is of. Blocking work.
    fn result_pngs(self, v: &Variant, lang: Lang) -> Result<(Vec<u8>, String, Vec<u8>), String> {
        let (position, report) = self.adjudicated(v)?;
        let orders = draw(v, &Scene::adjudicated(v, &position, &report, lang));
        let after = draw(v, &Scene::position(v, &report.next, lang));
        let png = |svg: &str| spielleiter_render::png(svg, 1.0).map_err(|e| e.to_string());
        Ok((png(&orders)?, report.next.phase.to_string(), png(&after)?))
    }
}

/// A game's name as part of a file name: lower-case ASCII letters and digits joined by `-`.
fn file_stem(name: &str) -> String {
    let mut stem = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            stem.push(c);
        } else if !stem.is_empty() && !stem.ends_with('-') {
            stem.push('-');
        }
    }
    let stem: String = stem.trim_end_matches('-').chars().take(40).collect();
    if stem.is_empty() { "game".to_string() } else { stem }
}

/// The pictures a result mail of a game's adjudicated phase carries, in a language: the orders
/// with their outcomes (`NAME-s1901m-orders.png`) and the position after them
/// (`NAME-f1901m.png`). None if they could not be drawn (then logged: a result goes out without
/// pictures rather than not at all).
pub(crate) async fn result_attachments(store: &Store, game_id: &str, phase: &str, lang: Lang) -> Vec<Attachment> {
    let row = sqlx::query(
        "SELECT g.variant, g.name, p.state_json, p.result_json, p.pending_retreats_json FROM phases p \
         JOIN games g ON g.id = p.game_id WHERE p.game_id = $1 AND p.phase = $2",
    )
    .bind(game_id)
    .bind(phase)
    .fetch_optional(&store.pool)
    .await;
    let row = match row {
        Ok(Some(row)) => row,
        Ok(None) => {
            eprintln!("the pictures of game {game_id} {phase}: no such phase");
            return Vec::new();
        }
        Err(e) => {
            eprintln!("the pictures of game {game_id} {phase}: {e}");
            return Vec::new();
        }
    };
    let (variant, name): (String, String) = (row.get(0), row.get(1));
    let (state_json, result_json, retreats_json): (String, String, Option<String>) =
        (row.get(2), row.get(3), row.get(4));
    let phase_name = phase.to_string();
    let drawn = tokio::task::spawn_blocking(move || {
        let v = crate::api::variant(&variant).map_err(|e| e.message)?;
        if geometry(&v).is_none() {
            return Ok(None);
        }
        StoredPhase::read(&phase_name, &state_json, &result_json, retreats_json.as_deref())?
            .result_pngs(&v, lang)
            .map(Some)
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|r| r);
    let stem = file_stem(&name);
    let png = |filename: String, data: Vec<u8>| Attachment {
        filename,
        content_type: "image/png".to_string(),
        data: data.into(),
    };
    match drawn {
        Ok(Some((orders, next, after))) => vec![
            png(format!("{stem}-{}-orders.png", phase.to_ascii_lowercase()), orders),
            png(format!("{stem}-{}.png", next.to_ascii_lowercase()), after),
        ],
        Ok(None) => Vec::new(),
        Err(e) => {
            eprintln!("the pictures of game {game_id} {phase}: {e}");
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_become_plain_file_names() {
        assert_eq!(file_stem("Die Große Partie #3"), "die-gro-e-partie-3");
        assert_eq!(file_stem("  ¡Hola!  "), "hola");
        assert_eq!(file_stem("***"), "game");
        assert_eq!(file_stem(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn retreats_ordered_in_advance_are_drawn_as_carried_out() {
        let v = crate::api::variant("standard").unwrap();
        let state = r#"{"phase": "S1901R", "units": {"AUSTRIA": ["*A TRI", "A VIE"], "ITALY": ["A TRI", "A VEN"]},
            "retreats": {"AUSTRIA": {"A TRI": ["ALB", "BUD"]}}}"#;
        let result = r#"{"accepted_orders": {}}"#;
        let in_albania = |retreats: Option<&str>| {
            let stored = StoredPhase::read("S1901R", state, result, retreats).unwrap();
            let (_, report) = stored.adjudicated(&v).unwrap();
            report
                .next
                .units
                .iter()
                .any(|u| v.map.location_abbreviation(u.location) == "alb")
        };
        assert!(in_albania(Some(r#"{"AUSTRIA": ["A Tri - Alb"]}"#)));
        // Without the stored retreat the unit would be shown disbanded.
        assert!(!in_albania(None));
    }

    #[test]
    fn an_unreadable_result_is_an_error_not_an_empty_map() {
        let state = r#"{"phase": "S1901M", "units": {}}"#;
        assert!(StoredPhase::read("S1901M", state, "not json", None).is_err());
        assert!(StoredPhase::read("S1901M", state, r#"{"accepted_orders": 3}"#, None).is_err());
    }
}
