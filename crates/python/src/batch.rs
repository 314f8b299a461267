//! Batch calls without the GIL: many games processed at once, and many order sets tried on one
//! position (search). The work is spread over the machine's cores.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{error, orders_by_power};
use crate::core::{GameCore, GameError};
use crate::game::Game;

/// Items below this count run on the calling thread (threads cost more than they save).
const INLINE: usize = 8;

/// `work` applied to every item in order, on up to one thread per core.
fn run_all<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || items.len() < INLINE {
        return items.into_iter().map(work).collect();
    }
    let per_thread = items.len().div_ceil(threads);
    let mut chunks: Vec<Vec<T>> = Vec::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        chunks.push(items.by_ref().take(per_thread).collect());
    }
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| s.spawn(move || chunk.into_iter().map(work).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// Gives each power's orders (replacing what it gave), then processes the phase.
fn play(mut core: GameCore, orders: BTreeMap<String, Vec<String>>, strict: bool) -> Result<GameCore, GameError> {
    for (power, lines) in orders {
        core.set_orders(&power, lines, strict)?;
    }
    core.process()?;
    Ok(core)
}

/// The order sets of a batch: one dict per item, or none at all.
fn order_sets(sets: Option<&Bound<'_, PyList>>, count: usize) -> PyResult<Vec<BTreeMap<String, Vec<String>>>> {
    match sets {
        None => Ok(vec![BTreeMap::new(); count]),
        Some(list) if list.len() == count => list.iter().map(|s| orders_by_power(&s)).collect(),
        Some(list) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{} order sets for {count} games",
            list.len()
        ))),
    }
}

/// The results as Python: each game, or the exception in its place (`return_exceptions`);
/// else the first exception is raised.
fn collect<'py>(
    py: Python<'py>,
    results: Vec<Result<Py<Game>, GameError>>,
    return_exceptions: bool,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for r in results {
        match r {
            Ok(game) => list.append(game)?,
            Err(e) if return_exceptions => list.append(error(py, e).into_value(py))?,
            Err(e) => return Err(error(py, e)),
        }
    }
    Ok(list)
}

/// Processes many games at once, each with its order set (`{power: orders}`, replacing what
/// that power gave) or with the orders already given; the GIL is released and the games are
/// spread over the cores. Returns the games, processed in place. An error raises the first
/// one and leaves every game unchanged, unless `return_exceptions`: then the exception stands
/// in the list in place of its game, which is unchanged, and the others are processed.
#[pyfunction]
#[pyo3(signature = (games, orders = None, *, strict = true, return_exceptions = false))]
pub fn process_games<'py>(
    py: Python<'py>,
    games: Vec<Py<Game>>,
    orders: Option<&Bound<'py, PyList>>,
    strict: bool,
    return_exceptions: bool,
) -> PyResult<Bound<'py, PyList>> {
    let sets = order_sets(orders, games.len())?;
    let cores: Vec<GameCore> = games.iter().map(|g| g.borrow(py).core.clone()).collect();
    let items: Vec<_> = cores.into_iter().zip(sets).collect();
    let done = py.detach(|| run_all(items, |(core, set)| play(core, set, strict)));
    if !return_exceptions && let Some(i) = done.iter().position(Result::is_err) {
        let e = done.into_iter().nth(i).and_then(Result::err);
        return Err(e.map_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("batch"), |e| error(py, e)));
    }
    let results = games
        .into_iter()
        .zip(done)
        .map(|(game, r)| {
            r.map(|core| {
                game.borrow_mut(py).core = core;
                game
            })
        })
        .collect();
    collect(py, results, return_exceptions)
}

#[pymethods]
impl Game {
    /// Tries many order sets on this position (search): for each set (`{power: orders}`,
    /// replacing what those powers gave here) a new game, processed; this game is unchanged.
    /// The GIL is released and the sets are spread over the cores. An error raises the first
    /// one, unless `return_exceptions`: then the exception stands in the list in its place.
    #[pyo3(signature = (order_sets, *, strict = true, return_exceptions = false))]
    fn process_many<'py>(
        &self,
        py: Python<'py>,
        order_sets: &Bound<'py, PyList>,
        strict: bool,
        return_exceptions: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let sets = self::order_sets(Some(order_sets), order_sets.len())?;
        let parent = &self.core;
        let done = py.detach(|| run_all(sets, |set| play(parent.clone(), set, strict)));
        let mut results = Vec::with_capacity(done.len());
        for r in done {
            results.push(match r {
                Ok(core) => Ok(Py::new(py, Game { core })?),
                Err(e) => Err(e),
            });
        }
        collect(py, results, return_exceptions)
    }
}
