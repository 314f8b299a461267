//! Order notation: reading text into checked orders (two steps: syntax, then resolution against
//! the map and position) and printing them back in the interchange notation.

pub mod advance;
pub mod condition;
pub(crate) mod direct;
pub mod error;
mod lex;
pub mod model;
pub(crate) mod quick;
pub mod resolve;
pub mod syntax;

pub use error::{OrderError, OrderErrorKind};
pub use model::{CanalPermission, Order, PowerOrder, UnitRef};
pub use resolve::{OrderContext, parse_order, parse_order_list};
pub use syntax::{RawAction, RawOrder, RawPlace, RawUnit, read_order, read_power_header};
