//! What the map offers for drawing orders before legal-order generation exists: neighbours of a
//! place per unit type, build sites and adjustment counts.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use spielleiter_engine::game::{expected_counts, free_home_centres, public_count};
use spielleiter_engine::{PhaseKind, UnitType};

use crate::convert::error;
use crate::game::Game;

fn unit_type(text: &str) -> PyResult<UnitType> {
    match text {
        t if t.eq_ignore_ascii_case("A") || t.eq_ignore_ascii_case("army") => Ok(UnitType::Army),
        t if t.eq_ignore_ascii_case("F") || t.eq_ignore_ascii_case("fleet") => Ok(UnitType::Fleet),
        _ => Err(PyValueError::new_err(format!(
            "unit type `{text}`: expected \"A\" or \"F\""
        ))),
    }
}

#[pymethods]
impl Game {
    /// The places a unit of `unit_type` (`"A"` or `"F"`) at `location` (`"PAR"`, `"STP/SC"`)
    /// could move to, by the map's adjacencies (no convoys): coasts written as `"SPA/NC"`.
    fn neighbours(&self, location: &str, unit_type: &str) -> PyResult<Vec<String>> {
        let kind = self::unit_type(unit_type)?;
        let map = &self.core.variant.map;
        let from = map
            .location_by_abbreviation(location)
            .ok_or_else(|| PyValueError::new_err(format!("unknown location `{location}`")))?;
        let from = match (kind, map.location(from).army) {
            // An army at a coast stands in the province.
            (UnitType::Army, false) => map.province(map.province_of(from)).main,
            _ => from,
        };
        Ok(map
            .neighbours(kind, from)
            .iter()
            .map(|&l| map.location_abbreviation(l).to_ascii_uppercase())
            .collect())
    }

    /// The home centres where `power` could build now (owned and empty), in an adjustment
    /// phase; empty in other phases.
    fn get_build_sites(&self, py: Python<'_>, power: &str) -> PyResult<Vec<String>> {
        let id = self.core.power(power).map_err(|e| error(py, e))?;
        let core = &self.core;
        if core.position.phase.kind != PhaseKind::Adjustment || core.end.is_some() {
            return Ok(Vec::new());
        }
        let map = &core.variant.map;
        Ok(free_home_centres(&core.variant, &core.position, id)
            .into_iter()
            .map(|p| map.province(p).abbreviation.to_ascii_uppercase())
            .collect())
    }

    /// Builds (positive) or disbands (negative) per power in the adjustment phase at hand; an
    /// empty dict in other phases.
    fn get_adjustment_counts(&self) -> std::collections::BTreeMap<String, i32> {
        let core = &self.core;
        if core.position.phase.kind != PhaseKind::Adjustment || core.end.is_some() {
            return Default::default();
        }
        let map = &core.variant.map;
        let counts = expected_counts(&core.variant, &core.position);
        map.countries()
            .iter()
            .map(|p| {
                (
                    core.key(p.id),
                    public_count(map, p.id, counts.get(p.id.index()).copied().unwrap_or(0)),
                )
            })
            .filter(|(_, n)| *n != 0)
            .collect()
    }
}
