//! Python arguments to Rust values and Rust errors to Python exceptions.

use std::collections::BTreeMap;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::core::GameError;
use crate::errors;

/// A game error as the matching exception.
pub fn error(py: Python<'_>, e: GameError) -> PyErr {
    match e {
        GameError::Adjudication(e) => errors::adjudication(e),
        GameError::UnknownPower(_) => errors::SpielleiterError::new_err(e.to_string()),
        GameError::Refused { power, refused } => errors::order(py, &power, &refused),
        GameError::Structured(_) => errors::OrderError::new_err(e.to_string()),
        GameError::State(_) | GameError::Saved(_) => errors::StateError::new_err(e.to_string()),
        GameError::Variant(_) => errors::VariantError::new_err(e.to_string()),
    }
}

/// Order lines from a string (one order per line), or a list or tuple of strings and
/// structured orders (dicts).
pub fn order_lines(orders: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(text) = orders.cast::<PyString>() {
        return Ok(text.to_str()?.lines().map(str::to_string).collect());
    }
    if orders.cast::<PyDict>().is_ok() {
        return one_line(orders).map(|l| vec![l]);
    }
    let items = orders
        .try_iter()
        .map_err(|_| PyTypeError::new_err("orders: a string, or a list of strings and dicts"))?;
    items.map(|item| one_line(&item?)).collect()
}

fn one_line(item: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = item.cast::<PyString>() {
        return Ok(text.to_str()?.to_string());
    }
    if item.cast::<PyDict>().is_ok() {
        let value = crate::json::from_py(item)?;
        return crate::structured::to_text(&value).map_err(|e| error(item.py(), e));
    }
    let kind = item.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "an order must be a string or a dict, not {kind}"
    )))
}

/// Orders per power: `{"FRANCE": ["A PAR - BUR"], ...}`.
pub fn orders_by_power(orders: &Bound<'_, PyAny>) -> PyResult<BTreeMap<String, Vec<String>>> {
    let dict = orders
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("an order set must be a dict: power -> orders"))?;
    let mut out = BTreeMap::new();
    for (power, lines) in dict.iter() {
        let power: String = power
            .extract()
            .map_err(|_| PyTypeError::new_err("an order set's keys must be power names"))?;
        out.insert(power, order_lines(&lines)?);
    }
    Ok(out)
}
