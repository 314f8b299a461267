//! The package's exceptions: every engine error becomes one of them with the engine's message.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use spielleiter_engine::adjudication::AdjudicationError;
use spielleiter_engine::interchange::RejectedOrder;

pyo3::create_exception!(
    _spielleiter,
    SpielleiterError,
    PyValueError,
    "Base of the package's errors (a `ValueError`): the message is the engine's."
);
pyo3::create_exception!(
    _spielleiter,
    VariantError,
    SpielleiterError,
    "A variant that is not built in, or variant data (TOML) that does not load."
);
pyo3::create_exception!(
    _spielleiter,
    StateError,
    SpielleiterError,
    "A game state or saved game that does not fit the variant."
);
pyo3::create_exception!(
    _spielleiter,
    OrderError,
    SpielleiterError,
    "An order line the engine refused. Attributes: `order` (the line), `power`, `position` (byte \
     offset of the offending word), `suggestion` (a name probably meant, or None)."
);
pyo3::create_exception!(
    _spielleiter,
    GameOverError,
    SpielleiterError,
    "An order or adjudication for a game that is over."
);

/// An adjudication error as the matching exception.
pub fn adjudication(e: AdjudicationError) -> PyErr {
    match e {
        AdjudicationError::GameOver(_) => GameOverError::new_err(e.to_string()),
        AdjudicationError::UnknownVariant(_) | AdjudicationError::Variant(_) => VariantError::new_err(e.to_string()),
        AdjudicationError::State(_) => StateError::new_err(e.to_string()),
        AdjudicationError::UnknownPower(_) | AdjudicationError::NotInGame(_) => {
            SpielleiterError::new_err(e.to_string())
        }
    }
}

/// A refused order line as an `OrderError` carrying the line, power, byte offset and suggestion.
pub fn order(py: Python<'_>, power: &str, refused: &RejectedOrder) -> PyErr {
    let message = match &refused.suggestion {
        Some(s) => format!("{power}: `{}`: {} (did you mean `{s}`?)", refused.order, refused.error),
        None => format!("{power}: `{}`: {}", refused.order, refused.error),
    };
    let err = OrderError::new_err(message);
    let value = err.value(py);
    let _ = value.setattr("order", &refused.order);
    let _ = value.setattr("power", power);
    let _ = value.setattr("reason", &refused.error);
    let _ = value.setattr("position", refused.position);
    let _ = value.setattr("suggestion", refused.suggestion.clone());
    err
}
