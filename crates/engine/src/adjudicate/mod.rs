//! Adjudication: turning a position and orders into results and the next position.

pub mod adjustment;
pub mod movement;
pub mod outcome;
pub mod retreat;
pub mod retreat_options;

pub use movement::{Adjudicator, MovementResult, PhaseExtras};
pub use outcome::{Outcome, UnitResult};
