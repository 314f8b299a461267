//! The `Game` class: a game of any variant in the shape of the `diplomacy` package's `Game`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use spielleiter_engine::interchange::RejectedOrder;

use crate::convert::{error, order_lines};
use crate::core::GameCore;
use crate::errors::VariantError;
use crate::variant_cache as variants;

/// A game of Diplomacy on one variant: the position, the orders given for the phase at hand and
/// the phases played. See the module's documentation and `spielleiter.pyi`.
#[pyclass(module = "spielleiter._spielleiter", name = "Game")]
pub struct Game {
    /// The game.
    pub core: GameCore,
}

/// The variant a new game or a loaded one is played on.
pub fn choose_variant(
    variant: &str,
    variant_toml: Option<&str>,
    calendar: Option<&str>,
) -> PyResult<(Arc<spielleiter_engine::Variant>, Option<Arc<str>>)> {
    let problem = |e: variants::VariantProblem| VariantError::new_err(e.to_string());
    let (base, toml) = match variant_toml {
        Some(text) => (variants::from_toml(text).map_err(problem)?, Some(Arc::from(text))),
        None => (variants::by_name(variant).map_err(problem)?, None),
    };
    let chosen = match calendar {
        Some(c) => variants::with_calendar(&base, c).map_err(problem)?,
        None => base,
    };
    Ok((chosen, toml))
}

/// A refused line as a dict: `{"order", "error", "position", "suggestion"}`.
pub fn refusal_dict<'py>(py: Python<'py>, r: &RejectedOrder) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("order", &r.order)?;
    d.set_item("error", &r.error)?;
    d.set_item("position", r.position)?;
    d.set_item("suggestion", &r.suggestion)?;
    Ok(d)
}

#[pymethods]
impl Game {
    /// A new game at the start of a built-in variant (`standard`, `ancmed`, `colonial`,
    /// `hegemony-1689`, `hegemony-1701`), or of the variant file given as `variant_toml`;
    /// `calendar` plays another calendar of the variant (Colonial's `original`).
    #[new]
    #[pyo3(signature = (variant = "standard", *, variant_toml = None, calendar = None, game_id = None))]
    fn new(
        variant: &str,
        variant_toml: Option<&str>,
        calendar: Option<&str>,
        game_id: Option<String>,
    ) -> PyResult<Game> {
        let (chosen, toml) = choose_variant(variant, variant_toml, calendar)?;
        variants::playable(&chosen).map_err(|e| VariantError::new_err(e.to_string()))?;
        let id = game_id.unwrap_or_default();
        Ok(Game {
            core: GameCore::new(chosen, toml, id),
        })
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> String {
        self.core.variant.name.clone()
    }

    /// The game's id (as saved games carry it).
    #[getter]
    fn game_id(&self) -> String {
        self.core.id.clone()
    }

    /// The powers that play, as upper-case keys (`"FRANCE"`).
    #[getter]
    fn powers(&self) -> Vec<String> {
        self.core.power_keys()
    }

    /// The phase to play (`"S1901M"`), or `"COMPLETED"`.
    #[getter]
    fn phase(&self) -> String {
        self.core.phase_name()
    }

    /// The phase to play, as `diplomacy.Game.get_current_phase()`.
    fn get_current_phase(&self) -> String {
        self.core.phase_name()
    }

    /// `"M"` (movement), `"R"` (retreats), `"A"` (adjustments), or `"-"` when the game is over.
    #[getter]
    fn phase_type(&self) -> &'static str {
        use spielleiter_engine::PhaseKind;
        match (&self.core.end, self.core.position.phase.kind) {
            (Some(_), _) => "-",
            (None, PhaseKind::Movement) => "M",
            (None, PhaseKind::Retreat) => "R",
            (None, PhaseKind::Adjustment) => "A",
        }
    }

    /// Whether the game is over (a victory, draw or concession).
    #[getter]
    fn is_game_done(&self) -> bool {
        self.core.end.is_some()
    }

    /// How the game ended: `{"kind": "victory" | "draw" | "concession" | "shared victory",
    /// "powers": [...]}`, or None while it goes on.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(end) = &self.core.end else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("kind", &end.kind)?;
        d.set_item("powers", &end.powers)?;
        Ok(Some(d))
    }

    /// The winner, if one power won alone.
    #[getter]
    fn winner(&self) -> Option<String> {
        let end = self.core.end.as_ref()?;
        (end.kind == "victory").then(|| end.powers.first().cloned()).flatten()
    }

    /// Gives `power`'s orders for the phase at hand, replacing its earlier ones: a list of order
    /// lines in any notation the engine reads (English, German, the interchange notation,
    /// conditional and advance retreat orders, phase headings) or of structured orders (dicts),
    /// or one string with one order per line. Strict (the default): a refused line raises
    /// `OrderError` and nothing is kept. Otherwise all lines are kept (the refused ones are left
    /// out when the phase is processed) and the refused ones are returned as dicts.
    #[pyo3(signature = (power, orders, *, strict = true))]
    fn set_orders<'py>(
        &mut self,
        py: Python<'py>,
        power: &str,
        orders: &Bound<'py, PyAny>,
        strict: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let lines = order_lines(orders)?;
        let refused = self.core.set_orders(power, lines, strict).map_err(|e| error(py, e))?;
        let list = PyList::empty(py);
        for r in &refused {
            list.append(refusal_dict(py, r)?)?;
        }
        Ok(list)
    }

    /// Takes back the orders of `power` (of every power when None).
    #[pyo3(signature = (power = None))]
    fn clear_orders(&mut self, py: Python<'_>, power: Option<&str>) -> PyResult<()> {
        match power {
            Some(p) => {
                let key = self.core.power(p).map_err(|e| error(py, e))?;
                let key = self.core.key(key);
                self.core.orders.remove(&key);
            }
            None => self.core.orders.clear(),
        }
        Ok(())
    }

    /// The orders given for the phase at hand as the engine reads them (interchange notation),
    /// per power; with `power`, that power's list.
    #[pyo3(signature = (power = None))]
    fn get_orders<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let mut all = self.core.normalized_orders();
        match power {
            Some(p) => {
                let key = self.core.power(p).map_err(|e| error(py, e))?;
                let list = all.remove(&self.core.key(key)).unwrap_or_default();
                Ok(list.into_pyobject(py)?.into_any())
            }
            None => Ok(all.into_pyobject(py)?.into_any()),
        }
    }

    /// Adjudicates the phase at hand with the orders given (units without orders hold; missing
    /// retreats disband; missing disbands by the civil disorder rule) and moves to the next
    /// phase. Raises `GameOverError` when the game is over. Releases the GIL.
    fn process(&mut self, py: Python<'_>) -> PyResult<()> {
        let core = &mut self.core;
        py.detach(|| core.process()).map_err(|e| error(py, e))
    }

    /// Ends the game in a draw shared by every power still in it (DIAS) instead of playing on;
    /// the orders given for the phase at hand are dropped. Raises `GameOverError` when the game
    /// is over.
    fn draw(&mut self, py: Python<'_>) -> PyResult<()> {
        self.core.draw().map_err(|e| error(py, e))
    }

    /// Ends the game conceded to `power`, which must still be in it (`SpielleiterError`
    /// otherwise); the orders given for the phase at hand are dropped. Raises `GameOverError`
    /// when the game is over.
    fn concede(&mut self, py: Python<'_>, power: &str) -> PyResult<()> {
        self.core.concede(power).map_err(|e| error(py, e))
    }

    /// An independent copy (cheap: the variant and the phases played are shared, never changed).
    fn clone(&self) -> Game {
        Game {
            core: self.core.clone(),
        }
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Every legal order per location, as `diplomacy.Game.get_all_possible_orders()`: each a line
    /// `set_orders` accepts from the power that gives it (a controlled neutral's with the
    /// country's name before it).
    fn get_all_possible_orders(&self) -> std::collections::BTreeMap<String, Vec<String>> {
        crate::legal::possible_orders(&self.core)
    }

    /// The locations where `power` has something to order (a list), or every power's (a dict),
    /// as `diplomacy.Game.get_orderable_locations()`.
    #[pyo3(signature = (power = None))]
    fn get_orderable_locations<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        match power {
            Some(key) => {
                let id = self.core.power(key).map_err(|e| error(py, e))?;
                Ok(crate::legal::orderable(&self.core, id).into_pyobject(py)?.into_any())
            }
            None => {
                let all: std::collections::BTreeMap<String, Vec<String>> = (self.core.variant.map.powers().iter())
                    .map(|p| (self.core.key(p.id), crate::legal::orderable(&self.core, p.id)))
                    .collect();
                Ok(all.into_pyobject(py)?.into_any())
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<spielleiter.Game {} {}>",
            self.core.variant.name,
            self.core.phase_name()
        )
    }
}
