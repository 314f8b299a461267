//! Maps as data: the model, the loader of variant files, and name lookup.

mod convoy;
pub mod dpjudge;
pub mod load;
pub mod model;
pub mod names;

pub use load::{MapError, MapErrors, MapProblem, load_variant};
pub use model::{Canal, Location, Map, Power, Province, Railroad, Terrain};
pub use names::{NameIndex, name_key};
