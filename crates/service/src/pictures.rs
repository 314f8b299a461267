//! Map pictures of games: the laid-out maps of the variants (computed once per process and
//! variant) and the pictures of an adjudicated phase (its orders with their outcomes, and the
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

use crate::attachment::Attachment;
use crate::store::Store;

/// The laid-out map of a variant (its shapes, or a layout generated from its adjacencies),
/// computed once per process and variant; laying out one variant does not hold up the others.
pub(crate) fn geometry(v: &Variant) -> Arc<MapGeometry> {
    type Slot = Arc<OnceLock<Arc<MapGeometry>>>;
    static ALL: OnceLock<Mutex<BTreeMap<String, Slot>>> = OnceLock::new();
    let slot = {
        let mut all = ALL
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        all.entry(v.name.clone()).or_default().clone()
    };
    slot.get_or_init(|| Arc::new(spielleiter_render::geometry_for(v)))
        .clone()
}

/// The SVG of a scene.
pub(crate) fn draw(v: &Variant, scene: &Scene) -> String {
    spielleiter_render::svg(&geometry(v), scene)
}

/// An adjudicated phase as stored: what its adjudication read.
pub(crate) struct StoredPhase {
    /// The input of the adjudication: the state before it, the orders as sent, and what was
    /// ordered in advance.
    input: AdjudicationInput,
}

impl StoredPhase {
    /// A `phases` row read: its input (`input_json`), or for rows from before inputs were
    /// kept, the state before it with the accepted orders (`phase` names it in errors).
    pub(crate) fn read(
        phase: &str,
        state_json: &str,
        result_json: &str,
        input_json: Option<&str>,
    ) -> Result<StoredPhase, String> {
        let bad = |what: &str, e: serde_json::Error| format!("{phase}: the stored {what}: {e}");
        if let Some(text) = input_json {
            let input = serde_json::from_str(text).map_err(|e| bad("input", e))?;
            return Ok(StoredPhase { input });
        }
        let state: GameState = serde_json::from_str(state_json).map_err(|e| bad("state", e))?;
        let result: serde_json::Value = serde_json::from_str(result_json).map_err(|e| bad("result", e))?;
        let orders = match result.get("accepted_orders") {
            Some(orders) => serde_json::from_value(orders.clone()).map_err(|e| bad("orders", e))?,
            None => BTreeMap::new(),
        };
        Ok(StoredPhase {
            input: AdjudicationInput {
                state,
                orders,
                ..AdjudicationInput::default()
            },
        })
    }

    /// The phase adjudicated again from what its adjudication read, which gives the same
    /// outcomes: the position before it and the report.
    fn adjudicated(self, v: &Variant) -> Result<(Position, PhaseReport), String> {
        let position = position_from_state(v, &self.input.state).map_err(|e| e.to_string())?;
        let input = AdjudicationInput {
            variant: Some(v.name.clone()),
            ..self.input
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

/// A game's name as part of a file name: lower-case ASCII letters and digits joined by `-`
/// (German umlauts and ß spelled out).
pub(crate) fn file_stem(name: &str) -> String {
    let mut stem = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let spelled = match c {
            'ä' => Some("ae"),
            'ö' => Some("oe"),
            'ü' => Some("ue"),
            'ß' => Some("ss"),
            _ => None,
        };
        if let Some(letters) = spelled {
            stem.push_str(letters);
        } else if c.is_ascii_alphanumeric() {
            stem.push(c);
        } else if !stem.is_empty() && !stem.ends_with('-') {
            stem.push('-');
        }
    }
    let stem: String = stem.trim_end_matches('-').chars().take(40).collect();
    if stem.is_empty() { "game".to_string() } else { stem }
}

/// At most two pictures are rasterized at a time (web downloads and mail together), so that
/// pictures cannot take every core.
static RASTERIZING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// A turn to rasterize; `None` only if the limit was closed (it never is).
pub(crate) async fn rasterizing_turn() -> Option<tokio::sync::SemaphorePermit<'static>> {
    RASTERIZING.acquire().await.ok()
}

/// The pictures a result mail of a game's adjudicated phase carries, in a language: the orders
/// with their outcomes (`NAME-s1901m-orders.png`) and the position after them
/// (`NAME-f1901m.png`). None if they cannot be drawn (logged: a result goes out without pictures
/// rather than not at all); a database error is an error, so the mail is tried again later.
pub(crate) async fn result_attachments(
    store: &Store,
    game_id: &str,
    phase: &str,
    lang: Lang,
) -> Result<Vec<Attachment>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT g.variant, g.name, p.state_json, p.result_json, p.input_json FROM phases p \
         JOIN games g ON g.id = p.game_id WHERE p.game_id = $1 AND p.phase = $2",
    )
    .bind(game_id)
    .bind(phase)
    .fetch_optional(&store.pool)
    .await?;
    let Some(row) = row else {
        eprintln!("the pictures of game {game_id} {phase}: no such phase");
        return Ok(Vec::new());
    };
    let (variant, name): (String, String) = (row.get(0), row.get(1));
    let (state_json, result_json, input_json): (String, String, Option<String>) = (row.get(2), row.get(3), row.get(4));
    let phase_name = phase.to_string();
    let _turn = rasterizing_turn().await;
    let drawn = tokio::task::spawn_blocking(move || {
        let v = crate::variants::variant(&variant).map_err(|e| crate::i18n::refusal(&e).0)?;
        StoredPhase::read(&phase_name, &state_json, &result_json, input_json.as_deref())?.result_pngs(&v, lang)
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
    Ok(match drawn {
        Ok((orders, next, after)) => vec![
            png(format!("{stem}-{}-orders.png", phase.to_ascii_lowercase()), orders),
            png(format!("{stem}-{}.png", next.to_ascii_lowercase()), after),
        ],
        Err(e) => {
            eprintln!("the pictures of game {game_id} {phase}: {e}");
            Vec::new()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_become_plain_file_names() {
        assert_eq!(file_stem("Die Große Partie #3"), "die-grosse-partie-3");
        assert_eq!(file_stem("Öl über Äcker"), "oel-ueber-aecker");
        assert_eq!(file_stem("  ¡Hola!  "), "hola");
        assert_eq!(file_stem("***"), "game");
        assert_eq!(file_stem(&"x".repeat(100)).len(), 40);
    }

    /// Where the phase's adjudication, replayed from what was stored, leaves Austria's army.
    fn austrian_army_after(state: &str, result: &str, input: Option<&str>) -> (String, String) {
        let v = crate::variants::variant("standard").unwrap();
        let (_, report) = StoredPhase::read("x", state, result, input)
            .unwrap()
            .adjudicated(&v)
            .unwrap();
        let at = report
            .next
            .units
            .iter()
            .find(|u| v.map.power(u.power).key.eq_ignore_ascii_case("austria"))
            .map(|u| v.map.location_abbreviation(u.location))
            .unwrap_or_default();
        (at, report.next.phase.to_string())
    }

    #[test]
    fn retreats_ordered_in_advance_are_drawn_as_carried_out() {
        // A retreat phase whose retreat was ordered with the moves.
        let state = r#"{"phase": "S1901R", "units": {"AUSTRIA": ["*A TRI"], "ITALY": ["A TRI", "A VEN"]},
            "retreats": {"AUSTRIA": {"A TRI": ["ALB", "BUD"]}}}"#;
        let input = r#"{"phase": "S1901R", "units": {"AUSTRIA": ["*A TRI"], "ITALY": ["A TRI", "A VEN"]},
            "retreats": {"AUSTRIA": {"A TRI": ["ALB", "BUD"]}}, "pending_retreats": {"AUSTRIA": ["A Tri - Alb"]}}"#;
        assert_eq!(austrian_army_after(state, "{}", Some(input)).0, "alb");
        // Without the stored input the unit would be shown disbanded.
        assert_eq!(austrian_army_after(state, r#"{"accepted_orders": {}}"#, None).0, "");

        // A movement phase whose only dislodged unit retreats as ordered with the moves: no
        // retreat phase follows, and the picture says so.
        let state = r#"{"phase": "S1901M", "units": {"AUSTRIA": ["A TRI"], "ITALY": ["A VEN", "A TYR"]}}"#;
        let input = r#"{"phase": "S1901M", "units": {"AUSTRIA": ["A TRI"], "ITALY": ["A VEN", "A TYR"]},
            "orders": {"ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"], "AUSTRIA": ["A Tri H", "A Tri R Alb"]}}"#;
        assert_eq!(
            austrian_army_after(state, "{}", Some(input)),
            ("alb".to_string(), "F1901M".to_string())
        );
    }

    #[test]
    fn an_unreadable_result_is_an_error_not_an_empty_map() {
        let state = r#"{"phase": "S1901M", "units": {}}"#;
        assert!(StoredPhase::read("S1901M", state, "not json", None).is_err());
        assert!(StoredPhase::read("S1901M", state, r#"{"accepted_orders": 3}"#, None).is_err());
    }
}
