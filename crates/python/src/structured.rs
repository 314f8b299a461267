//! Orders given as Python dicts instead of text, turned into the interchange notation and read
//! by the same order reader as text:
//! `{"type": "move", "unit": "A PAR", "to": "BUR"}`,
//! `{"type": "support", "unit": "A MAR", "target": "A PAR", "to": "BUR"}`,
//! `{"type": "convoy", "unit": "F ENG", "target": "A LON", "to": "BRE"}`,
//! `{"type": "hold" | "retreat" | "disband" | "build", ...}`, `{"type": "waive"}`.

use serde::Deserialize;
use serde_json::Value;

use crate::core::GameError;

/// One order as a structure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Structured {
    /// `hold`, `move`, `support`, `convoy`, `retreat`, `disband`, `build` or `waive`.
    #[serde(rename = "type")]
    kind: String,
    /// The ordered unit: `A PAR`, `F STP/SC`.
    #[serde(default)]
    unit: Option<String>,
    /// The destination (move, retreat; support and convoy: the target's destination).
    #[serde(default)]
    to: Option<String>,
    /// The supported or convoyed unit.
    #[serde(default)]
    target: Option<String>,
    /// A move asked to go by convoy.
    #[serde(default)]
    via_convoy: bool,
    /// Ignored: the power is the one the orders are given for.
    #[serde(default)]
    #[allow(dead_code)]
    power: Option<String>,
}

/// The order's text in the interchange notation.
pub fn to_text(value: &Value) -> Result<String, GameError> {
    let bad = |why: String| GameError::Structured(format!("structured order {value}: {why}"));
    let order: Structured = serde_json::from_value(value.clone()).map_err(|e| bad(e.to_string()))?;
    let need = |field: &Option<String>, name: &str| {
        field
            .clone()
            .ok_or_else(|| bad(format!("a `{}` order needs `{name}`", order.kind)))
    };
    let kind = order.kind.to_ascii_lowercase();
    if kind == "waive" {
        return Ok("WAIVE".to_string());
    }
    let unit = need(&order.unit, "unit")?;
    Ok(match kind.as_str() {
        "hold" => format!("{unit} H"),
        "move" if order.via_convoy => format!("{unit} - {} VIA", need(&order.to, "to")?),
        "move" => format!("{unit} - {}", need(&order.to, "to")?),
        "support" => match &order.to {
            Some(to) => format!("{unit} S {} - {to}", need(&order.target, "target")?),
            None => format!("{unit} S {}", need(&order.target, "target")?),
        },
        "convoy" => format!(
            "{unit} C {} - {}",
            need(&order.target, "target")?,
            need(&order.to, "to")?
        ),
        "retreat" => format!("{unit} R {}", need(&order.to, "to")?),
        "disband" => format!("{unit} D"),
        "build" => format!("{unit} B"),
        other => {
            return Err(bad(format!(
                "unknown type `{other}` (hold, move, support, convoy, retreat, disband, build, waive)"
            )));
        }
    })
}
