//! Map pictures of games: the laid-out maps of the variants (computed once per process and
//! variant) and the pictures of an adjudicated phase (its orders with their outcomes, and the
//! position they led to), shared by the web pages and the result mails.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::{AdjudicationInput, GameState, position_from_state};
use spielleiter_engine::report::Lang;
use spielleiter_engine::{Position, Variant};
use spielleiter_render::{DrawnOrder, MapGeometry, Scene};

use crate::app::outcome::Outcome;
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

/// An adjudicated phase as stored: the position before it and what its pictures show, or, for
/// phases stored before outcomes were kept, what its adjudication read (adjudicated again to
/// draw it).
pub(crate) enum StoredPhase {
    /// The position before the phase and its kept outcome.
    Kept {
        /// The state before the phase.
        before: GameState,
        /// What the pictures show.
        outcome: Box<Outcome>,
    },
    /// The input of the adjudication: the state before it, the orders as sent, and what was
    /// ordered in advance.
    Replayed(AdjudicationInput),
}

/// A `phases` row as the pictures need it.
pub(crate) struct PhaseRow<'a> {
    /// The phase's name (for errors).
    pub(crate) phase: &'a str,
    /// `state_json`: the state before the phase.
    pub(crate) state: &'a str,
    /// `result_json`: the published result.
    pub(crate) result: &'a str,
    /// `input_json`, if kept.
    pub(crate) input: Option<&'a str>,
    /// `outcome_json`, if kept.
    pub(crate) outcome: Option<&'a str>,
}

impl<'a> From<&'a crate::sql::reads::PictureRow> for PhaseRow<'a> {
    fn from(r: &'a crate::sql::reads::PictureRow) -> PhaseRow<'a> {
        PhaseRow {
            phase: &r.phase,
            state: &r.state_json,
            result: &r.result_json,
            input: r.input_json.as_deref(),
            outcome: r.outcome_json.as_deref(),
        }
    }
}

impl StoredPhase {
    /// A `phases` row read: its kept outcome; for older rows its input (`input_json`), or the
    /// state before it with the accepted orders.
    pub(crate) fn read(row: &PhaseRow) -> Result<StoredPhase, String> {
        let bad = |what: &str, e: serde_json::Error| format!("{}: the stored {what}: {e}", row.phase);
        let state = || serde_json::from_str::<GameState>(row.state).map_err(|e| bad("state", e));
        if let Some(text) = row.outcome {
            let outcome = Box::new(serde_json::from_str(text).map_err(|e| bad("outcome", e))?);
            return Ok(StoredPhase::Kept {
                before: state()?,
                outcome,
            });
        }
        if let Some(text) = row.input {
            let input = serde_json::from_str(text).map_err(|e| bad("input", e))?;
            return Ok(StoredPhase::Replayed(input));
        }
        let result: serde_json::Value = serde_json::from_str(row.result).map_err(|e| bad("result", e))?;
        let orders = match result.get("accepted_orders") {
            Some(orders) => serde_json::from_value(orders.clone()).map_err(|e| bad("orders", e))?,
            None => BTreeMap::new(),
        };
        Ok(StoredPhase::Replayed(AdjudicationInput {
            state: state()?,
            orders,
            ..AdjudicationInput::default()
        }))
    }

    /// The variant's other calendar the game is played with, if one (its state says so).
    pub(crate) fn calendar(&self) -> Option<&str> {
        let before = match self {
            StoredPhase::Kept { before, .. } => before,
            StoredPhase::Replayed(input) => &input.state,
        };
        before.options.calendar.as_deref()
    }

    /// The position before the phase, the orders drawn on it, and the position after it.
    fn scenes(self, v: &Variant) -> Result<(Position, Vec<DrawnOrder>, Position), String> {
        match self {
            StoredPhase::Kept { before, outcome } => {
                let before = position_from_state(v, &before).map_err(|e| e.to_string())?;
                let next = position_from_state(v, &outcome.next).map_err(|e| e.to_string())?;
                Ok((before.clone(), outcome.drawn(v, before.phase.kind)?, next))
            }
            StoredPhase::Replayed(input) => {
                let position = position_from_state(v, &input.state).map_err(|e| e.to_string())?;
                let input = AdjudicationInput {
                    variant: Some(v.name.clone()),
                    ..input
                };
                let (_, report) = adjudicate_with(v, &input).map_err(|e| e.to_string())?;
                let orders = spielleiter_render::scene::drawn_orders(&report);
                Ok((position, orders, report.next))
            }
        }
    }

    /// The SVG of the phase: its position with the orders and their outcomes drawn. This takes
    /// a while: callers in async code run it as blocking work.
    pub(crate) fn svg(self, v: &Variant, lang: Lang) -> Result<String, String> {
        let (before, orders, _) = self.scenes(v)?;
        Ok(draw(v, &with_orders(v, &before, orders, lang)))
    }

    /// The two pictures of a result, as PNG: the orders with their outcomes, and the position
    /// they led to (dislodged units with their retreat options), with the phase that position
    /// is of. Blocking work.
    fn result_pngs(self, v: &Variant, lang: Lang) -> Result<(Vec<u8>, String, Vec<u8>), String> {
        let (before, orders, next) = self.scenes(v)?;
        let orders = draw(v, &with_orders(v, &before, orders, lang));
        let after = draw(v, &Scene::position(v, &next, lang));
        let png = |svg: &str| spielleiter_render::png(svg, 1.0).map_err(|e| e.to_string());
        Ok((png(&orders)?, next.phase.to_string(), png(&after)?))
    }
}

/// A position with orders drawn on it.
fn with_orders<'a>(v: &'a Variant, position: &'a Position, orders: Vec<DrawnOrder>, lang: Lang) -> Scene<'a> {
    Scene {
        orders,
        ..Scene::position(v, position, lang)
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
    let Some((variant, name, row)) = crate::sql::reads::picture_source(&store.pool, game_id, phase).await? else {
        eprintln!("the pictures of game {game_id} {phase}: no such phase");
        return Ok(Vec::new());
    };
    let _turn = rasterizing_turn().await;
    let drawn = tokio::task::spawn_blocking(move || {
        let stored = StoredPhase::read(&PhaseRow::from(&row))?;
        let v = crate::variants::played(&variant, stored.calendar()).map_err(|e| crate::i18n::refusal(&e).0)?;
        stored.result_pngs(&v, lang)
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
    use spielleiter_render::OrderState;

    #[test]
    fn game_names_become_plain_file_names() {
        assert_eq!(file_stem("Die Große Partie #3"), "die-grosse-partie-3");
        assert_eq!(file_stem("Öl über Äcker"), "oel-ueber-aecker");
        assert_eq!(file_stem("  ¡Hola!  "), "hola");
        assert_eq!(file_stem("***"), "game");
        assert_eq!(file_stem(&"x".repeat(100)).len(), 40);
    }

    fn row<'a>(state: &'a str, result: &'a str, input: Option<&'a str>, outcome: Option<&'a str>) -> PhaseRow<'a> {
        PhaseRow {
            phase: "x",
            state,
            result,
            input,
            outcome,
        }
    }

    /// Where the phase's adjudication, replayed from what was stored, leaves Austria's army.
    fn austrian_army_after(state: &str, result: &str, input: Option<&str>) -> (String, String) {
        let v = crate::variants::variant("standard").unwrap();
        let (_, _, next) = StoredPhase::read(&row(state, result, input, None))
            .unwrap()
            .scenes(&v)
            .unwrap();
        let at = next
            .units
            .iter()
            .find(|u| v.map.power(u.power).key.eq_ignore_ascii_case("austria"))
            .map(|u| v.map.location_abbreviation(u.location))
            .unwrap_or_default();
        (at, next.phase.to_string())
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
        assert!(StoredPhase::read(&row(state, "not json", None, None)).is_err());
        assert!(StoredPhase::read(&row(state, r#"{"accepted_orders": 3}"#, None, None)).is_err());
        assert!(StoredPhase::read(&row(state, "{}", None, Some("{\"orders\": 1}"))).is_err());
    }

    /// Adjudicates `input` (interchange JSON) and returns the orders drawn from the report and
    /// from its kept outcome read back.
    fn drawn_both_ways(variant: &str, input: &str) -> (Vec<DrawnOrder>, Vec<DrawnOrder>, usize) {
        let v = crate::variants::variant(variant).unwrap();
        let input: AdjudicationInput = serde_json::from_str(input).unwrap();
        let (output, report) = adjudicate_with(&v, &input).unwrap();
        let outcome = Outcome::of(&v, &report, &output.next);
        let stored = serde_json::to_string(&outcome).unwrap();
        let state = serde_json::to_string(&input.state).unwrap();
        let (_, kept, next) = StoredPhase::read(&row(&state, "{}", None, Some(&stored)))
            .unwrap()
            .scenes(&v)
            .unwrap();
        // The same position after the phase (units listed in another order).
        let units = |p: &Position| {
            let mut units = p.units.clone();
            units.sort_by_key(|u| (u.power, u.location));
            units
        };
        assert_eq!(
            (next.phase, units(&next), &next.owners),
            (report.next.phase, units(&report.next), &report.next.owners)
        );
        assert_eq!(next.dislodged, report.next.dislodged);
        let expected = spielleiter_render::scene::drawn_orders(&report);
        (expected, kept, outcome.orders.len())
    }

    #[test]
    fn a_kept_outcome_draws_the_same_orders_as_the_adjudication() {
        let movement = r#"{"phase": "S1901M",
            "units": {"ENGLAND": ["F LON", "F NTH", "A YOR"], "FRANCE": ["A PAR", "A MAR", "F BRE"],
                      "GERMANY": ["A MUN", "F KIE"], "ITALY": ["A VEN"]},
            "orders": {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F LON - ENG"],
                       "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - ENG"],
                       "GERMANY": ["A MUN - BUR", "F KIE H"], "ITALY": ["A VEN - PIE"]}}"#;
        let retreat = r#"{"phase": "F1901R",
            "units": {"AUSTRIA": ["*A TRI", "A VIE"], "ITALY": ["A TRI", "A VEN", "F ADR"]},
            "retreats": {"AUSTRIA": {"A TRI": ["ALB", "BUD"]}},
            "orders": {"AUSTRIA": ["A TRI R ALB"]}}"#;
        let builds = r#"{"phase": "W1901A",
            "units": {"RUSSIA": ["A MOS"], "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"]},
            "centers": {"RUSSIA": ["MOS", "STP", "WAR", "SEV", "RUM"], "TURKEY": ["ANK", "CON", "SMY"]},
            "orders": {"RUSSIA": ["A WAR B", "F STP/SC B"], "TURKEY": ["A BUL D"]}}"#;
        for (input, count) in [(movement, 9), (retreat, 1), (builds, 3)] {
            let (expected, kept, stored) = drawn_both_ways("standard", input);
            assert_eq!(stored, count, "{input}");
            assert_eq!(kept, expected, "{input}");
        }
        assert!(
            drawn_both_ways("standard", movement)
                .0
                .iter()
                .any(|d| d.state == OrderState::Failed)
        );
        // Colonial: a railroad move, and a fleet refused the canal.
        let colonial = r#"{"phase": "S1870M",
            "units": {"RUSSIA": ["A MOS", "A VLA"], "TURKEY": ["A EGY", "F MED"]},
            "orders": {"RUSSIA": ["A MOS - TSR - IRK", "A VLA H"], "TURKEY": ["A EGY H", "F MED - RED"]}}"#;
        let (expected, kept, stored) = drawn_both_ways("colonial", colonial);
        assert_eq!((stored, &kept), (4, &expected));
        assert!(
            expected
                .iter()
                .any(|d| matches!(d.order, spielleiter_engine::Order::RailMove { .. }))
        );
    }
}
