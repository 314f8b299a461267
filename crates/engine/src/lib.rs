//! The Spielleiter rules engine: maps and variants as data, positions, order notation and (in
//! coming modules) adjudication. It performs no I/O: callers hand it text and get values back.

pub mod adjudicate;
pub mod adjudication;
pub mod choice;
pub mod completeness;
pub mod conditions;
pub mod game;
pub mod history;
pub mod house_rules;
pub mod ids;
pub mod interchange;
pub mod legal;
pub mod map;
pub mod order;
pub mod phase;
pub mod politics;
pub mod position;
pub mod report;
pub mod rule_state;
pub mod rules;
pub mod scenario;
#[cfg(test)]
mod test_support;
pub mod variant;

pub use ids::{Coast, LocationId, PowerId, ProvinceId, UnitType};
pub use map::Map;
pub use order::{Order, OrderError, PowerOrder, parse_order};
pub use phase::{Phase, PhaseKind, Season};
pub use position::{DislodgedUnit, Position, Unit};
pub use variant::Variant;
