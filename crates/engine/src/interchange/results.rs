//! The last phases' results in a state (`"last_results"`), which conditional orders name
//! ([`crate::history`]): per phase, the moves or retreats that succeeded and failed and the units
//! dislodged, each per power: `{"phase": "S1901M", "succeeded": {"FRANCE": ["F BRE - ENG"]},
//! "failed": {"FRANCE": ["A PAR - BUR"]}, "dislodged": {"GERMANY": ["A MUN"]}}`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{StateError, parse_unit, power_by_key};
use crate::history::{MoveResult, PhaseFacts};
use crate::ids::{PowerId, UnitType};
use crate::map::Map;
use crate::position::Unit;

/// One phase's results as written in a state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseResults {
    /// The phase (`S1901M`, `S1901R`).
    pub phase: String,
    /// The moves (or retreats) that arrived, per power: `"F BRE - ENG"`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub succeeded: BTreeMap<String, Vec<String>>,
    /// The moves (or retreats) that did not.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub failed: BTreeMap<String, Vec<String>>,
    /// The units dislodged, where they stood: `"A MUN"`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dislodged: BTreeMap<String, Vec<String>>,
}

/// Writes the facts kept with a position.
pub(super) fn write(map: &Map, kept: &[PhaseFacts]) -> Vec<PhaseResults> {
    let key = |p: PowerId| map.power(p).key.to_ascii_uppercase();
    let place = |p: crate::ids::ProvinceId| map.province(p).abbreviation.to_ascii_uppercase();
    kept.iter()
        .map(|f| {
            let mut out = PhaseResults {
                phase: f.phase.to_string(),
                ..PhaseResults::default()
            };
            for m in &f.moves {
                let text = format!("{} {} - {}", m.kind.letter(), place(m.from), place(m.to));
                let list = if m.succeeded {
                    &mut out.succeeded
                } else {
                    &mut out.failed
                };
                list.entry(key(m.power)).or_default().push(text);
            }
            for u in &f.dislodged {
                let text = format!("{} {}", u.kind.letter(), place(map.province_of(u.location)));
                out.dislodged.entry(key(u.power)).or_default().push(text);
            }
            out
        })
        .collect()
}

/// Reads the results of a state.
pub(super) fn read(map: &Map, results: &[PhaseResults]) -> Result<Vec<PhaseFacts>, StateError> {
    results
        .iter()
        .map(|r| {
            let mut facts = PhaseFacts {
                phase: r.phase.parse()?,
                moves: Vec::new(),
                dislodged: Vec::new(),
            };
            for (list, succeeded) in [(&r.succeeded, true), (&r.failed, false)] {
                for (k, moves) in list {
                    let power = power_by_key(map, k)?;
                    for text in moves {
                        facts.moves.push(read_move(map, power, text, succeeded)?);
                    }
                }
            }
            for (k, units) in &r.dislodged {
                let power = power_by_key(map, k)?;
                for text in units {
                    // Written by province (`F BUL`): a fleet on a split coast is read without it.
                    let (_, kind, location) = parse_unit(map, text)
                        .or_else(|reason| read_place(map, text).ok_or(reason))
                        .map_err(|reason| bad(k, text, reason))?;
                    facts.dislodged.push(Unit { power, kind, location });
                }
            }
            Ok(facts)
        })
        .collect()
}

/// Reads `F BUL`, a unit named by its province alone: the unit type and the province's place.
fn read_place(map: &Map, text: &str) -> Option<(bool, UnitType, crate::ids::LocationId)> {
    let (kind, place) = text.trim().split_once(' ')?;
    let kind = match kind {
        k if k.eq_ignore_ascii_case("A") => UnitType::Army,
        k if k.eq_ignore_ascii_case("F") => UnitType::Fleet,
        _ => return None,
    };
    let location = map.location_by_abbreviation(place.trim())?;
    Some((false, kind, map.province(map.province_of(location)).main))
}

fn bad(power: &str, text: &str, reason: String) -> StateError {
    StateError::BadUnit {
        power: power.to_string(),
        unit: text.to_string(),
        reason: format!("in the results: {reason}"),
    }
}

/// Reads `F BRE - ENG`.
fn read_move(map: &Map, power: PowerId, text: &str, succeeded: bool) -> Result<MoveResult, StateError> {
    let key = map.power(power).key.to_ascii_uppercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let [kind, from, "-", to] = words[..] else {
        return Err(bad(&key, text, "expected `A FROM - TO`".to_string()));
    };
    let kind = match kind {
        k if k.eq_ignore_ascii_case("A") => UnitType::Army,
        k if k.eq_ignore_ascii_case("F") => UnitType::Fleet,
        _ => return Err(bad(&key, text, "expected `A` or `F` first".to_string())),
    };
    let province = |p: &str| {
        map.location_by_abbreviation(p)
            .map(|l| map.province_of(l))
            .ok_or_else(|| bad(&key, text, format!("unknown place `{p}`")))
    };
    Ok(MoveResult {
        power,
        kind,
        from: province(from)?,
        to: province(to)?,
        succeeded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fleet_dislodged_from_a_split_coast_is_read_back_by_its_province() {
        let v = crate::variant::builtin("standard").expect("built in").expect("valid");
        let map = &v.map;
        let turkey = map.power_by_name("Turkey").expect("Turkey");
        let bul_ec = map.location_by_abbreviation("bul/ec").expect("a coast");
        let facts = vec![PhaseFacts {
            phase: "F1903M".parse().expect("a phase"),
            moves: Vec::new(),
            dislodged: vec![Unit {
                power: turkey,
                kind: UnitType::Fleet,
                location: bul_ec,
            }],
        }];
        let written = write(map, &facts);
        assert_eq!(written[0].dislodged["TURKEY"], ["F BUL"]);
        let read_back = read(map, &written).expect("read back");
        let unit = read_back[0].dislodged[0];
        assert_eq!(
            (unit.kind, map.province_of(unit.location)),
            (UnitType::Fleet, map.province_of(bul_ec))
        );
    }
}
