//! Reading a scenario's `[[scenario.choice]]` tables (Hegemony 5.1.7): the first set of pieces
//! joins the start, and every set is checked against the built map.

use serde::Deserialize;
use toml::Spanned;

use super::{MapProblem, Problems, RawFile};
use crate::ids::UnitType;
use crate::map::Terrain;
use crate::rule_state::LeaderPlace;
use crate::scenario::{Choice, Piece};
use crate::variant::Variant;

/// A `[[scenario.choice]]` table: `country = "england"`, `options = [["F ire", "overseas mao"],
/// ["L marlborough net"]]`; the first set stands where the country chooses nothing.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawChoice {
    country: Spanned<String>,
    options: Vec<Vec<Spanned<String>>>,
}

impl RawChoice {
    /// The choice of a unit written `C bre`: an army (the default, 5.1.7.4) or a fleet.
    pub(super) fn army_or_fleet(country: &Spanned<String>, span: std::ops::Range<usize>, at: &str) -> RawChoice {
        let piece = |kind: &str| vec![Spanned::new(span.clone(), format!("{kind} {at}"))];
        RawChoice {
            country: country.clone(),
            options: vec![piece("A"), piece("F")],
        }
    }
}

/// Adds the units of each choice's first set to its country's starting units (before the map
/// is built, so they are checked like any unit).
pub(super) fn default_units(raw: &mut RawFile, choices: &[RawChoice]) {
    for choice in choices {
        let Some(power) = raw
            .power
            .iter_mut()
            .find(|p| p.id.get_ref().eq_ignore_ascii_case(choice.country.get_ref()))
        else {
            continue;
        };
        let first = choice.options.first().into_iter().flatten();
        power.units.extend(first.filter(|t| is_unit(t.get_ref())).cloned());
    }
}

fn is_unit(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("A ") || t.starts_with("F ") || t.starts_with("a ") || t.starts_with("f ")
}

/// The choices, read against the built map; the leaders of the first sets are added to
/// `leaders` (they stand from the start).
pub(super) fn read(
    variant: &Variant,
    choices: &[RawChoice],
    leaders: &mut Vec<LeaderPlace>,
    problems: &mut Problems<'_>,
) -> Vec<Choice> {
    let mut read = Vec::new();
    for c in choices {
        let Some(power) = variant.map.country_by_key(c.country.get_ref()) else {
            problems.at(
                c.country.span().start,
                MapProblem::UnknownPower(c.country.get_ref().clone()),
            );
            continue;
        };
        if c.options.len() < 2 {
            let reason = "a choice needs at least two sets of pieces".to_string();
            problems.at(c.country.span().start, MapProblem::BadScenario(reason));
            continue;
        }
        let mut options = Vec::new();
        for set in &c.options {
            let mut pieces = Vec::new();
            for text in set {
                match piece(variant, power, text.get_ref()) {
                    Ok(p) => pieces.push(p),
                    Err(reason) => problems.at(text.span().start, MapProblem::BadScenario(reason)),
                }
            }
            options.push(pieces);
        }
        for &p in &options[0] {
            if let Piece::Leader(leader, location) = p {
                leaders.push(LeaderPlace {
                    leader,
                    power,
                    location,
                });
            }
        }
        read.push(Choice { power, options });
    }
    read
}

/// One piece written `F ire`, `L marlborough net` or `overseas mao`.
fn piece(variant: &Variant, power: crate::ids::PowerId, text: &str) -> Result<Piece, String> {
    let map = &variant.map;
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("L ").or_else(|| t.strip_prefix("l ")) {
        let place = super::scenario::leader_start(variant, power, rest.trim())?;
        return Ok(Piece::Leader(place.leader, place.location));
    }
    if let Some(at) = t.strip_prefix("overseas ") {
        let p = map
            .province_by_abbreviation(at.trim())
            .ok_or_else(|| format!("choice `{t}`: unknown province `{}`", at.trim()))?;
        if map.province(p).terrain != Terrain::Sea {
            return Err(format!("choice `{t}`: an overseas centre is a sea"));
        }
        return Ok(Piece::Overseas(p));
    }
    let (kind, at) = match t.split_once(' ') {
        Some(("A" | "a", at)) => (UnitType::Army, at),
        Some(("F" | "f", at)) => (UnitType::Fleet, at),
        _ => {
            return Err(format!(
                "choice `{t}`: write `A prov`, `F prov`, `L leader prov` or `overseas prov`"
            ));
        }
    };
    let location = map
        .location_by_abbreviation(at.trim())
        .ok_or_else(|| format!("choice `{t}`: unknown place `{}`", at.trim()))?;
    let fits = match kind {
        UnitType::Army => map.location(location).army,
        UnitType::Fleet => map.location(location).fleet,
    };
    if !fits {
        return Err(format!("choice `{t}`: no such unit can stand there"));
    }
    Ok(Piece::Unit(kind, location))
}
