//! The use cases: each one unit of work against the ports (`ports`), returning a typed result
//! or a [`DomainError`](crate::domain::DomainError). They know no HTTP, SQL or mail: the
//! adapters (`api`, `web`, `mail`, `scheduler`) call them with the SQL store, the tests with the
//! in-memory fake (`fake`).

pub mod accounts;
pub mod adjudication;
pub mod endgame;
pub mod games;
pub mod master;
pub mod orders;
pub mod outcome;
pub mod ports;
pub mod position;
pub mod press;
pub mod results;
pub mod turns;

#[cfg(test)]
pub(crate) mod fake;
