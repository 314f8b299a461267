//! The `Game`'s states, results and saved games.

use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;

use crate::convert::error;
use crate::core::{GameCore, GameError};
use crate::game::{Game, choose_variant};
use crate::json::{from_py, to_py};
use crate::state::{position_of, read_state, state_value};

/// A JSON text or a Python dict as a JSON value.
fn json_arg(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    match value.cast::<PyString>() {
        Ok(text) => {
            serde_json::from_str(text.to_str()?).map_err(|e| crate::errors::StateError::new_err(format!("JSON: {e}")))
        }
        Err(_) => from_py(value),
    }
}

/// What `__reduce__` returns: the loader and its arguments (saved game, variant file text).
type Reduced<'py> = (Bound<'py, PyAny>, (String, Option<String>));

impl Game {
    fn state(&self) -> Value {
        state_value(&self.core.variant, &self.core.position, self.core.end.is_some())
    }

    fn per_power<'py>(&self, py: Python<'py>, field: &str, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let state = self.state();
        let all = &state[field];
        match power {
            Some(p) => {
                let id = self.core.power(p).map_err(|e| error(py, e))?;
                to_py(py, all.get(self.core.key(id)).unwrap_or(&Value::Array(Vec::new())))
            }
            None => to_py(py, all),
        }
    }
}

#[pymethods]
impl Game {
    /// The state in the conventions of the `diplomacy` package: `name` (the phase), `units`
    /// (`"A PAR"`, `"*F BRE"` dislodged), `centers`, `retreats`, `homes`, `builds` (count and
    /// free home centres per power), with the engine's `phase` and any fields of the variant's
    /// rules (Hegemony's leaders and politics).
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.state())
    }

    /// The units of `power` (a list), or of every power (a dict).
    #[pyo3(signature = (power = None))]
    fn get_units<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        self.per_power(py, "units", power)
    }

    /// The supply centres of `power` (a list), or of every power (a dict).
    #[pyo3(signature = (power = None))]
    fn get_centers<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        self.per_power(py, "centers", power)
    }

    /// The result codes per unit of the phase processed last (`{"A MUN": ["bounce"]}`; `[]`
    /// is success), empty before the first.
    fn get_last_results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let variant = &self.core.variant;
        let results = self
            .core
            .history
            .last()
            .map(|r| r.results(variant).clone())
            .unwrap_or_default();
        Ok(results.into_pyobject(py)?.into_any())
    }

    /// The orders carried out in the phase processed last, per power (interchange notation).
    fn get_last_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let variant = &self.core.variant;
        let orders = self
            .core
            .history
            .last()
            .map(|r| r.orders(variant).clone())
            .unwrap_or_default();
        Ok(orders.into_pyobject(py)?.into_any())
    }

    /// Everything the engine said of the phase processed last (the `spielleiter adjudicate`
    /// output: `adjudicated_phase`, `accepted_orders`, `rejected_orders`, `results`, `reasons`,
    /// `builds`, the next state, `winner`, `result`), or None (no phase processed here yet).
    fn last_phase<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(played) = self.core.history.last().and_then(|r| r.played.as_ref()) else {
            return Ok(None);
        };
        let value = serde_json::to_value(played.output(&self.core.variant)).unwrap_or(Value::Null);
        to_py(py, &value).map(Some)
    }

    /// The number of phases played.
    #[getter]
    fn phases_played(&self) -> usize {
        self.core.history.len()
    }

    /// The game in the saved-game JSON of the `diplomacy` package (a dict), which
    /// `diplomacy.utils.export.from_saved_game_format` reads.
    fn to_saved_game_format<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &crate::saved::to_saved(&self.core))
    }

    /// The saved game as JSON text (one line).
    fn to_json(&self) -> String {
        crate::saved::to_saved(&self.core).to_string()
    }

    /// A game from a saved game (dict or JSON text) of this package or of the `diplomacy`
    /// package, on the variant its `map` names or on `variant_toml`.
    #[staticmethod]
    #[pyo3(signature = (saved, *, variant_toml = None))]
    fn from_saved_game_format(py: Python<'_>, saved: &Bound<'_, PyAny>, variant_toml: Option<&str>) -> PyResult<Game> {
        let value = json_arg(saved)?;
        let variant = match variant_toml {
            Some(_) => Some(choose_variant("", variant_toml, None)?),
            None => None,
        };
        let core = py
            .detach(|| crate::saved::from_saved(&value, variant))
            .map_err(|e| error(py, e))?;
        Ok(Game { core })
    }

    /// A game starting from any state (dict or JSON text, as `get_state` or `spielleiter
    /// start` write it, or a `diplomacy` state) with no phase played.
    #[staticmethod]
    #[pyo3(signature = (state, variant = "standard", *, variant_toml = None))]
    fn from_state(
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        variant: &str,
        variant_toml: Option<&str>,
    ) -> PyResult<Game> {
        let value = json_arg(state)?;
        let (base, toml) = choose_variant(variant, variant_toml, None)?;
        let read = read_state(&value, None).and_then(|s| position_of(&base, &s));
        let (chosen, position) = read.map_err(|e: GameError| error(py, e))?;
        Ok(Game {
            core: GameCore::at(chosen, toml, String::new(), position),
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let module = py.import("spielleiter._spielleiter")?;
        let load = module.getattr("_load_saved")?;
        Ok((load, (self.to_json(), self.core.toml.as_deref().map(str::to_string))))
    }
}

/// Unpickles a game (`Game.__reduce__`).
#[pyfunction]
#[pyo3(signature = (saved, variant_toml = None))]
pub fn _load_saved(py: Python<'_>, saved: &Bound<'_, PyAny>, variant_toml: Option<&str>) -> PyResult<Game> {
    Game::from_saved_game_format(py, saved, variant_toml)
}
