//! The JSON fields of the rules' part of a position (Hegemony): leaders per country
//! (`"leaders": {"ENGLAND": {"MARLBOROUGH": "NET"}}`), displaced leaders' retreats
//! (`"leader_retreats": {"ENGLAND": {"MARLBOROUGH": ["BEL", "WFA"]}}`), garrisons driven out of their home
//! (`"garrisons": {"TURKEY": {"A NAF": "LIB"}}`; one at home is the unit `G LIB`, unless it was
//! just dislodged there: `"*A LIB"` and `{"A LIB": "LIB"}`), and the special
//! rules the position switches on (`"options": {"special_rules": ["5.1.4"]}`).

use super::{GameState, StateError, parse_unit, power_by_key};
use crate::ids::LocationId;
use crate::position::{Position, Unit};
use crate::rule_state::{DisplacedLeader, Garrison, LeaderPlace, RuleState};
use crate::scenario::SpecialRule;
use crate::variant::Variant;

/// A unit written `G LIB` (a garrison at home): the same unit written as an army.
pub(super) fn garrison_as_army(text: &str) -> Option<String> {
    let t = text.trim();
    let rest = t.strip_prefix("G ").or_else(|| t.strip_prefix("g "))?;
    Some(format!("A {}", rest.trim()))
}

/// The rules' part of a position read from a state whose units are already read (`units`,
/// dislodged ones included); `at_home`: the armies written as garrisons (`G LIB`).
pub(super) fn read(
    variant: &Variant,
    state: &GameState,
    units: &[Unit],
    at_home: &[(crate::ids::PowerId, LocationId)],
) -> Result<RuleState, StateError> {
    let map = &variant.map;
    let mut leaders = Vec::new();
    for (country, placed) in &state.leaders {
        let power = power_by_key(map, country)?;
        for (name, at) in placed {
            let leader = variant
                .leaders
                .iter()
                .find(|l| l.key.eq_ignore_ascii_case(name))
                .ok_or_else(|| StateError::UnknownLeader(name.clone()))?;
            let location = map
                .location_by_abbreviation(at)
                .ok_or_else(|| StateError::BadLeaderPlace {
                    leader: name.clone(),
                    place: at.clone(),
                })?;
            leaders.push(LeaderPlace {
                leader: leader.id,
                power,
                location,
            });
        }
    }
    let mut garrisons: Vec<Garrison> = at_home
        .iter()
        .map(|&(power, location)| Garrison {
            power,
            location,
            home: map.province_of(location),
        })
        .collect();
    for (country, away) in &state.garrisons {
        let power = power_by_key(map, country)?;
        for (unit, home) in away {
            let bad = |reason: String| StateError::BadUnit {
                power: country.clone(),
                unit: unit.clone(),
                reason,
            };
            let (_, _, location) = parse_unit(map, unit).map_err(bad)?;
            let home = map
                .province_by_abbreviation(home)
                .ok_or_else(|| bad(format!("unknown home `{home}`")))?;
            garrisons.push(Garrison { power, location, home });
        }
    }
    let mut special_rules = Vec::new();
    for number in &state.options.special_rules {
        let rule = SpecialRule::from_number(number).ok_or_else(|| StateError::UnknownSpecialRule(number.clone()))?;
        special_rules.push(rule);
    }
    let displaced = take_displaced(variant, state, &mut leaders)?;
    let politics = read_politics(variant, state)?;
    let house = crate::house_rules::HouseRules {
        retreats_with_moves: state.options.retreats_with_moves,
    };
    Ok(RuleState::new(variant, units, leaders, garrisons, special_rules)?
        .with_displaced(variant, units, displaced)?
        .with_politics(politics)
        .with_house(house))
}

/// The politics of a state: `political_factors`, `influence`, `control`.
fn read_politics(variant: &Variant, state: &GameState) -> Result<crate::politics::Politics, StateError> {
    let map = &variant.map;
    let mut stock = std::collections::BTreeMap::new();
    for (player, &pf) in &state.political_factors {
        stock.insert(power_by_key(map, player)?, pf);
    }
    let mut influence = std::collections::BTreeMap::new();
    for (country, by) in &state.influence {
        let c = power_by_key(map, country)?;
        for (player, &pf) in by {
            influence.insert((c, power_by_key(map, player)?), pf);
        }
    }
    let mut control = std::collections::BTreeMap::new();
    for (country, by) in &state.control {
        let players = by.iter().map(|p| power_by_key(map, p)).collect::<Result<Vec<_>, _>>()?;
        control.insert(power_by_key(map, country)?, players);
    }
    let options = read_options(variant, &state.options)?;
    Ok(crate::politics::Politics::new(variant, stock, influence, control)?.with_options(options))
}

/// The politics' game options of a state: `control_rule` and `victory`, only where the variant
/// plays the politics rule.
fn read_options(variant: &Variant, options: &super::StateOptions) -> Result<crate::politics::GameOptions, StateError> {
    use crate::politics::{ControlRule, GameOptions};
    if options.control_rule.is_none() && options.victory.is_none() {
        return Ok(GameOptions::default());
    }
    if !variant.rules.contains(&crate::rules::RuleName::Politics) {
        return Err(StateError::BadOption(format!(
            "`control_rule` and `victory` are for variants with political factors, not {}",
            variant.name
        )));
    }
    let control_rule = match options.control_rule.as_deref() {
        None => ControlRule::Standard,
        Some(name) => ControlRule::from_name(name).ok_or_else(|| {
            StateError::BadOption(format!(
                "`control_rule`: `{name}` is neither `standard` nor `alternative`"
            ))
        })?,
    };
    if let Some(v) = options.victory.filter(|v| !(1..=5).contains(v)) {
        return Err(StateError::BadOption(format!(
            "`victory`: {v} is not one of the conditions 1 to 5"
        )));
    }
    Ok(GameOptions {
        control_rule,
        victory: options.victory,
    })
}

/// Takes the leaders named in `leader_retreats` out of `leaders`, as displaced leaders.
fn take_displaced(
    variant: &Variant,
    state: &GameState,
    leaders: &mut Vec<LeaderPlace>,
) -> Result<Vec<DisplacedLeader>, StateError> {
    let map = &variant.map;
    let mut displaced = Vec::new();
    for (country, waiting) in &state.leader_retreats {
        let power = power_by_key(map, country)?;
        for (name, options) in waiting {
            let found = leaders
                .iter()
                .position(|l| l.power == power && variant.leaders[l.leader.index()].key.eq_ignore_ascii_case(name));
            let place = leaders.remove(found.ok_or_else(|| StateError::UnknownLeader(name.clone()))?);
            let mut retreats = Vec::new();
            for option in options {
                let location = map
                    .location_by_abbreviation(option)
                    .ok_or_else(|| StateError::BadLeaderPlace {
                        leader: name.clone(),
                        place: option.clone(),
                    })?;
                retreats.push(map.province(map.province_of(location)).main);
            }
            displaced.push(DisplacedLeader { place, retreats });
        }
    }
    Ok(displaced)
}

/// Writes the rules' part of a position into a state whose units are already written.
pub(super) fn write(variant: &Variant, position: &Position, state: &mut GameState) {
    let map = &variant.map;
    let key = |p| map.power(p).key.to_ascii_uppercase();
    let loc = |l: LocationId| map.location_abbreviation(l).to_ascii_uppercase();
    let rules = &position.rules;
    let name = |l: &LeaderPlace| variant.leaders[l.leader.index()].key.to_ascii_uppercase();
    let displaced = rules.displaced_leaders().iter().map(|d| &d.place);
    for l in rules.leaders().iter().chain(displaced) {
        state
            .leaders
            .entry(key(l.power))
            .or_default()
            .insert(name(l), loc(l.location));
    }
    for d in rules.displaced_leaders() {
        let options = d.retreats.iter().map(|&r| loc(r)).collect();
        state
            .leader_retreats
            .entry(key(d.place.power))
            .or_default()
            .insert(name(&d.place), options);
    }
    for g in rules.garrisons() {
        let written = format!("A {}", loc(g.location));
        let dislodged = position
            .dislodged
            .iter()
            .any(|d| d.unit.power == g.power && d.unit.location == g.location);
        if g.at_home(variant) && !dislodged {
            if let Some(list) = state.units.get_mut(&key(g.power)) {
                for u in list.iter_mut().filter(|u| **u == written) {
                    *u = format!("G {}", loc(g.location));
                }
            }
        } else {
            let home = map.province(g.home).abbreviation.to_ascii_uppercase();
            state.garrisons.entry(key(g.power)).or_default().insert(written, home);
        }
    }
    state.options.special_rules = rules.special_rules().iter().map(|r| r.number().to_string()).collect();
    state.options.retreats_with_moves = rules.house().retreats_with_moves;
    let politics = rules.politics();
    let options = politics.options();
    state.options.control_rule = (options.control_rule != crate::politics::ControlRule::Standard)
        .then(|| options.control_rule.as_str().to_string());
    state.options.victory = options.victory;
    for (&p, &pf) in politics.stocks() {
        state.political_factors.insert(key(p), pf);
    }
    for (&(c, p), &pf) in politics.influences() {
        state.influence.entry(key(c)).or_default().insert(key(p), pf);
    }
    for (&c, by) in politics.controls() {
        state.control.insert(key(c), by.iter().map(|&p| key(p)).collect());
    }
}

#[cfg(test)]
mod tests {
    use super::super::{position_from_state, state_from_position};
    use super::*;

    fn hegemony() -> Variant {
        crate::variant::builtin("hegemony-1689")
            .expect("built in")
            .expect("loads")
    }

    fn state(json: &str) -> GameState {
        serde_json::from_str(json).expect("state")
    }

    #[test]
    fn leaders_garrisons_and_special_rules_survive_a_round_trip() {
        let v = hegemony();
        let written = state(
            r#"{"phase": "S1689M",
                "units": {"TURKEY": ["G MEA", "A NAF"], "ENGLAND": ["A NET"]},
                "garrisons": {"TURKEY": {"A NAF": "LIB"}},
                "leaders": {"ENGLAND": {"MARLBOROUGH": "NET"}},
                "options": {"special_rules": ["5.1.4", "5.1.1"]}}"#,
        );
        let position = position_from_state(&v, &written).expect("fits");
        assert_eq!(position.rules.garrisons().len(), 2);
        assert_eq!(position.rules.leaders().len(), 1);
        let again = state_from_position(&v, &position);
        assert_eq!(again.units["TURKEY"], ["G MEA", "A NAF"]);
        assert_eq!(again.garrisons, written.garrisons);
        assert_eq!(again.leaders, written.leaders);
        assert_eq!(again.options.special_rules, ["5.1.1", "5.1.4"]);
    }

    #[test]
    fn a_state_that_does_not_fit_is_refused_with_its_reason() {
        let v = hegemony();
        let cases = [
            (
                r#"{"phase": "S1689M", "leaders": {"ENGLAND": {"WELLINGTON": "LON"}}}"#,
                "unknown leader",
            ),
            (
                r#"{"phase": "S1689M", "leaders": {"ENGLAND": {"MARLBOROUGH": "XYZ"}}}"#,
                "unknown place",
            ),
            (
                r#"{"phase": "S1689M", "leaders": {"ENGLAND": {"MARLBOROUGH": "NTH"}}}"#,
                "at sea",
            ),
            (
                r#"{"phase": "S1689M", "garrisons": {"TURKEY": {"A NAF": "LIB"}}}"#,
                "no army",
            ),
            (
                r#"{"phase": "S1689M", "options": {"special_rules": ["9.9"]}}"#,
                "unknown special rule",
            ),
        ];
        for (json, reason) in cases {
            let e = position_from_state(&v, &state(json)).expect_err(json).to_string();
            assert!(e.contains(reason), "{json}: {e}");
        }
    }

    #[test]
    fn the_standard_game_has_no_garrisons_and_no_special_rules() {
        let v = crate::variant::builtin("standard").expect("built in").expect("loads");
        for json in [
            r#"{"phase": "S1901M", "units": {"FRANCE": ["G PAR"]}}"#,
            r#"{"phase": "S1901M", "options": {"special_rules": ["5.1.4"]}}"#,
        ] {
            let e = position_from_state(&v, &state(json)).expect_err(json).to_string();
            assert!(e.contains("no garrisons and no special rules"), "{json}: {e}");
        }
    }

    #[test]
    fn a_garrison_follows_its_army_and_ends_with_it() {
        let v = hegemony();
        let input: crate::interchange::AdjudicationInput = serde_json::from_str(
            r#"{"variant": "hegemony-1689", "phase": "S1689M",
                "units": {"TURKEY": ["A NAF"], "FRANCE": ["A MAR"]},
                "garrisons": {"TURKEY": {"A NAF": "LIB"}},
                "orders": {"TURKEY": ["A NAF - LIB"]}}"#,
        )
        .expect("input");
        let (output, _) = crate::adjudication::adjudicate_with(&v, &input).expect("adjudicates");
        assert_eq!(output.next.units["TURKEY"], ["G LIB"], "home again: a garrison at home");
        assert!(output.next.garrisons.is_empty());
    }

    /// Adjudicates a JSON input on Hegemony 1689/1701 and checks that the next state reads back.
    fn next_state(json: &str) -> GameState {
        let input: crate::interchange::AdjudicationInput = serde_json::from_str(json).expect("input");
        let name = input.variant.clone().unwrap_or_default();
        let v = crate::variant::builtin(&name).expect("built in").expect("loads");
        let (output, _) = crate::adjudication::adjudicate_with(&v, &input).expect("adjudicates");
        position_from_state(&v, &output.next).expect("the next state reads back");
        output.next
    }

    #[test]
    fn a_leader_whose_place_a_foreign_unit_takes_retreats_after_the_units() {
        let displaced = next_state(
            r#"{"variant": "hegemony-1701", "phase": "S1701M",
                "units": {"ENGLAND": ["A NET"], "FRANCE": ["A BEL"]},
                "leaders": {"ENGLAND": {"MARLBOROUGH": "NET"}},
                "orders": {"ENGLAND": ["A NET - WFA"], "FRANCE": ["A BEL - NET"]}}"#,
        );
        assert_eq!(displaced.phase, "S1701R");
        assert_eq!(displaced.units["FRANCE"], ["A NET"]);
        assert_eq!(
            displaced.leaders["ENGLAND"]["MARLBOROUGH"], "NET",
            "where he was displaced"
        );
        let options = &displaced.leader_retreats["ENGLAND"]["MARLBOROUGH"];
        assert!(options.contains(&"WFA".to_string()), "onto his own army: {options:?}");
        assert!(
            !options.contains(&"BEL".to_string()),
            "not whence the attacker came: {options:?}"
        );
        let mut input = serde_json::to_value(&displaced).expect("json");
        input["variant"] = "hegemony-1701".into();
        input["orders"] = serde_json::json!({"ENGLAND": ["L NET R WFA"]});
        let retreated = next_state(&input.to_string());
        assert_eq!(retreated.leaders["ENGLAND"]["MARLBOROUGH"], "WFA");
        assert_eq!(retreated.phase, "F1701M");
        assert!(retreated.leader_retreats.is_empty());
    }

    #[test]
    fn a_retreat_for_a_leader_not_displaced_is_never_published() {
        let v = crate::variant::builtin("hegemony-1701")
            .expect("built in")
            .expect("loads");
        let input: crate::interchange::AdjudicationInput = serde_json::from_str(
            r#"{"variant": "hegemony-1701", "phase": "S1701R",
                "units": {"ENGLAND": ["*A BEL"], "FRANCE": ["A PAR", "A BEL"], "PRUSSIA": ["A BER"]},
                "retreats": {"ENGLAND": {"A BEL": ["PIC"]}},
                "leaders": {"FRANCE": {"NAPOLEON": "PIC"}, "PRUSSIA": {"FREDERICK": "SIL"}},
                "orders": {"ENGLAND": ["A BEL R PIC"], "FRANCE": ["L PIC R PAR"],
                           "PRUSSIA": ["L SIL R BOH"]}}"#,
        )
        .expect("input");
        let (output, _) = crate::adjudication::adjudicate_with(&v, &input).expect("adjudicates");
        assert_eq!(output.accepted_orders["FRANCE"], ["L PIC R PAR"], "carried out");
        assert!(
            !output.accepted_orders.contains_key("PRUSSIA"),
            "{:?}",
            output.accepted_orders
        );
        assert_eq!(
            output.notices["PRUSSIA"][0].order, "L SIL R BOH",
            "for Prussia's eyes only"
        );
        assert_eq!(output.next.leaders["PRUSSIA"]["FREDERICK"], "SIL");
    }

    #[test]
    fn a_displaced_leader_must_be_where_a_foreign_unit_stands() {
        let v = hegemony();
        let json = r#"{"phase": "S1689R", "units": {"ENGLAND": ["A NET"]},
            "leaders": {"ENGLAND": {"MARLBOROUGH": "NET"}},
            "leader_retreats": {"ENGLAND": {"MARLBOROUGH": ["BEL"]}}}"#;
        let e = position_from_state(&v, &state(json)).expect_err(json).to_string();
        assert!(e.contains("cannot retreat as given"), "{e}");
    }

    #[test]
    fn a_leader_left_alone_at_sea_is_dissolved() {
        let next = next_state(
            r#"{"variant": "hegemony-1701", "phase": "S1701M",
                "units": {"ENGLAND": ["F NTH"]},
                "leaders": {"ENGLAND": {"MARLBOROUGH": "NTH"}},
                "orders": {"ENGLAND": ["F NTH - HEL"]}}"#,
        );
        assert!(next.leaders.is_empty(), "3.1.2.4");
    }

    #[test]
    fn a_dislodged_garrison_is_kept_for_its_retreat_and_follows_it() {
        let dislodged = next_state(
            r#"{"variant": "hegemony-1689", "phase": "S1689M",
                "units": {"TURKEY": ["G MEA"], "SPAIN": ["A SMY", "F EAS"]},
                "centers": {"FRANCE": ["PAR"], "SPAIN": ["MAD"], "TURKEY": ["MEA"]},
                "influence": {"TURKEY": {"FRANCE": 8}}, "control": {"TURKEY": ["FRANCE"]},
                "orders": {"SPAIN": ["A SMY - MEA", "F EAS S A SMY - MEA"]}}"#,
        );
        assert_eq!(dislodged.units["TURKEY"], ["*A MEA"]);
        assert_eq!(dislodged.garrisons["TURKEY"]["A MEA"], "MEA");
        let mut input = serde_json::to_value(&dislodged).expect("json");
        input["variant"] = "hegemony-1689".into();
        input["orders"] = serde_json::json!({"FRANCE": ["Turkey: A MEA - ARM"]});
        let retreated = next_state(&input.to_string());
        assert_eq!(retreated.units["TURKEY"], ["A ARM"]);
        assert_eq!(retreated.garrisons["TURKEY"]["A ARM"], "MEA");
    }

    #[test]
    fn a_garrison_disbanded_in_winter_is_gone() {
        let next = next_state(
            r#"{"variant": "hegemony-1689", "phase": "W1689A",
                "units": {"TURKEY": ["G LIB"]}, "centers": {"FRANCE": ["LIB"]}}"#,
        );
        assert!(next.units.get("TURKEY").is_none_or(|u| u.is_empty()));
        assert!(next.garrisons.is_empty());
    }
}
