//! Game states as JSON in the conventions of the Python `diplomacy` package: phase names like
//! `S1901M`, units per power as `"A PAR"`, `"F STP/SC"`, `"*F BLA"` (dislodged), centres per power,
//! retreat options per power and unit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::{LocationId, PowerId, UnitType};
use crate::map::Map;
use crate::phase::Phase;
use crate::position::{DislodgedUnit, Position, Unit};
use crate::rule_state::RuleState;
use crate::variant::Variant;

/// A game state as exchanged with other tools.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The phase (`S1901M`); missing in some recorded `after` states.
    #[serde(default)]
    pub phase: String,
    /// Units per power (upper-case power key); a leading `*` marks a dislodged unit.
    #[serde(default)]
    pub units: BTreeMap<String, Vec<String>>,
    /// Supply centres owned per power.
    #[serde(default)]
    pub centers: BTreeMap<String, Vec<String>>,
    /// Overseas centres per owner (Hegemony 2.2: a sea owned as a centre, never captured):
    /// `{"ENGLAND": "MAO"}`. Written out also among `centers`; read from either.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overseas_centres: BTreeMap<String, String>,
    /// Retreat options per power and dislodged unit.
    #[serde(default)]
    pub retreats: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Leaders on the board per country: leader → place (`{"ENGLAND": {"MARLBOROUGH": "NET"}}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub leaders: BTreeMap<String, BTreeMap<String, String>>,
    /// Displaced leaders per country and where each may retreat (Hegemony 3.1.6; a retreat phase):
    /// `{"ENGLAND": {"MARLBOROUGH": ["BEL", "WFA"]}}`; each is also in `leaders`, where he was
    /// displaced.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub leader_retreats: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Garrisons driven out of their home per country: army → home (`{"TURKEY": {"A NAF":
    /// "LIB"}}`); a garrison at home is written as the unit `G LIB`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub garrisons: BTreeMap<String, BTreeMap<String, String>>,
    /// What the position switches on.
    #[serde(default, skip_serializing_if = "StateOptions::is_empty")]
    pub options: StateOptions,
    /// Political factors in stock per player (Hegemony 1.1.1): `{"FRANCE": 7}`. Secret: never
    /// published to other players (see [`GameState::without_secrets`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub political_factors: BTreeMap<String, u32>,
    /// Influence per neutral country and player (Hegemony 1.1.1.5): `{"BAVARIA": {"FRANCE":
    /// 3}}`. Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub influence: BTreeMap<String, BTreeMap<String, u32>>,
    /// Who controls each neutral country until the next winter (Hegemony 1.1.3–1.1.4): one player
    /// alone, several jointly (`{"BAVARIA": ["FRANCE"]}`). Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub control: BTreeMap<String, Vec<String>>,
    /// What the last phases did (the movement phases of the last game year and their
    /// retreats), for conditional orders: see [`results::PhaseResults`]. Published with each
    /// phase's result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_results: Vec<results::PhaseResults>,
}

impl GameState {
    /// The state as every player may see it: without political factors, influence and control
    /// (Hegemony: no page, mail, picture or API may reveal them, research D-22).
    pub fn without_secrets(mut self) -> GameState {
        self.political_factors.clear();
        self.influence.clear();
        self.control.clear();
        self
    }
}

/// The options of a state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateOptions {
    /// The variant's special rules in force, by number (Hegemony: `"5.1.4"`).
    #[serde(default)]
    pub special_rules: Vec<String>,
    /// How control of neutral countries is determined (Hegemony): `"standard"` (1.1.2–1.1.4,
    /// the default) or `"alternative"` (1.1.11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_rule: Option<String>,
    /// The victory condition of Hegemony 4.3.1, numbered 1–5 (default: the variant's centres).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<u8>,
    /// House rule: retreats only with the moves, no retreat phase (seed 000 §10b; see
    /// [`crate::house_rules::HouseRules`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retreats_with_moves: bool,
    /// Another calendar of the variant the game is played with (Colonial: `"original"`, the
    /// spring and fall years; see [`variant_for_state`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendar: Option<String>,
}

impl StateOptions {
    /// Whether no option is set.
    pub fn is_empty(&self) -> bool {
        self.special_rules.is_empty()
            && self.control_rule.is_none()
            && self.victory.is_none()
            && !self.retreats_with_moves
            && self.calendar.is_none()
    }
}

pub mod results;
mod rule_fields;

/// A state that does not fit the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// The phase name is malformed.
    #[error(transparent)]
    Phase(#[from] crate::phase::PhaseParseError),
    /// A power key the variant does not have.
    #[error("unknown power `{0}`")]
    UnknownPower(String),
    /// A unit string that cannot be read or cannot stand where it says.
    #[error("bad unit `{unit}` of {power}: {reason}")]
    BadUnit {
        /// The power.
        power: String,
        /// The unit as written.
        unit: String,
        /// Why.
        reason: String,
    },
    /// A retreat option that is not a place the dislodged unit could move to.
    #[error("bad retreat option `{option}` for `{unit}`: {reason}")]
    BadRetreat {
        /// The unit as written.
        unit: String,
        /// The option as written.
        option: String,
        /// Why.
        reason: String,
    },
    /// Two units in one province.
    #[error("two units in `{0}`")]
    Crowded(String),
    /// A leader the variant does not know.
    #[error("unknown leader `{0}`")]
    UnknownLeader(String),
    /// A leader's place that is not on the map.
    #[error("leader `{leader}`: unknown place `{place}`")]
    BadLeaderPlace {
        /// The leader as written.
        leader: String,
        /// The place as written.
        place: String,
    },
    /// A special rule number the variant does not know.
    #[error("unknown special rule `{0}`")]
    UnknownSpecialRule(String),
    /// A game option the variant does not have, or an unknown value.
    #[error("option {0}")]
    BadOption(String),
    /// Leaders or garrisons that do not fit the units.
    #[error(transparent)]
    Rules(#[from] crate::rule_state::RuleStateError),
    /// Politics that do not fit the variant (Hegemony 1.1).
    #[error(transparent)]
    Politics(#[from] crate::politics::PoliticsError),
    /// A centre that is not a supply centre, or owned twice.
    #[error("bad centre `{centre}` of {power}: {reason}")]
    BadCentre {
        /// The power.
        power: String,
        /// The centre as written.
        centre: String,
        /// Why.
        reason: &'static str,
    },
}

fn power_by_key(map: &Map, key: &str) -> Result<PowerId, StateError> {
    map.country_by_key(key)
        .ok_or_else(|| StateError::UnknownPower(key.to_string()))
}

/// Reads `A PAR` / `F STP/SC` (an optional leading `*` is reported back).
pub fn parse_unit(map: &Map, text: &str) -> Result<(bool, UnitType, LocationId), String> {
    let t = text.trim();
    let (dislodged, t) = match t.strip_prefix('*') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t),
    };
    let mut parts = t.split_whitespace();
    let kind = match parts.next() {
        Some(k) if k.eq_ignore_ascii_case("A") => UnitType::Army,
        Some(k) if k.eq_ignore_ascii_case("F") => UnitType::Fleet,
        _ => return Err("expected `A` or `F` first".to_string()),
    };
    let place = parts.next().ok_or("missing location")?;
    if parts.next().is_some() {
        return Err("text after the location".to_string());
    }
    let location = map
        .location_by_abbreviation(place)
        .ok_or_else(|| format!("unknown location `{place}`"))?;
    let location = if kind == UnitType::Fleet && !map.location(location).fleet {
        let hint = if map.province(map.province_of(location)).has_split_coast() {
            " (name the coast, e.g. STP/NC)"
        } else {
            ""
        };
        return Err(format!("a fleet cannot stand in `{place}`{hint}"));
    } else if kind == UnitType::Army && !map.location(location).army {
        // An army written with a coast stands in the province.
        let province = map.province(map.province_of(location));
        if !map.location(province.main).army {
            return Err(format!("an army cannot stand in `{place}`"));
        }
        province.main
    } else {
        location
    };
    Ok((dislodged, kind, location))
}

/// The variant a state is played on: `variant` itself, or played with the other calendar the
/// state's options name (a game option; Colonial's original spring and fall years). Read every
/// state through it, so a game's phases follow its calendar.
pub fn variant_for_state<'a>(
    variant: &'a Variant,
    state: &GameState,
) -> Result<std::borrow::Cow<'a, Variant>, StateError> {
    let wanted = state.options.calendar.as_deref();
    let chosen = variant.calendar_choice.as_deref();
    match wanted {
        w if w.map(str::to_ascii_lowercase) == chosen.map(str::to_ascii_lowercase) => {
            Ok(std::borrow::Cow::Borrowed(variant))
        }
        Some(name) => variant.with_calendar(name).map(std::borrow::Cow::Owned).ok_or_else(|| {
            let known: Vec<&str> = variant.calendars.iter().map(|c| c.name.as_str()).collect();
            StateError::BadOption(format!(
                "calendar `{name}`: {} has {}",
                variant.name,
                if known.is_empty() {
                    "no other calendar".to_string()
                } else {
                    format!("only {}", known.join(", "))
                }
            ))
        }),
        None => Err(StateError::BadOption(format!(
            "calendar: the state names none, the variant is played with `{}`",
            chosen.unwrap_or_default()
        ))),
    }
}

/// Builds a position from an interchange state. A state played with another calendar of the
/// variant (option `calendar`) is to be read and played on [`variant_for_state`]; its name is
/// checked here.
pub fn position_from_state(variant: &Variant, state: &GameState) -> Result<Position, StateError> {
    variant_for_state(variant, state)?;
    let map = &variant.map;
    let phase: Phase = state.phase.parse()?;
    let mut position = Position {
        phase,
        units: Vec::new(),
        dislodged: Vec::new(),
        owners: vec![None; map.provinces().len()],
        pending_retreats: Vec::new(),
        rules: RuleState::default(),
        recent: Vec::new(),
    };
    let mut garrisons_at_home = Vec::new();
    for (key, units) in &state.units {
        let power = power_by_key(map, key)?;
        for text in units {
            let bad = |reason: String| StateError::BadUnit {
                power: key.clone(),
                unit: text.clone(),
                reason,
            };
            let garrison = rule_fields::garrison_as_army(text);
            let (dislodged, kind, location) = parse_unit(map, garrison.as_deref().unwrap_or(text)).map_err(bad)?;
            if garrison.is_some() {
                garrisons_at_home.push((power, location));
            }
            let unit = Unit { power, kind, location };
            let province = map.province_of(location);
            if dislodged {
                if position.dislodged_in(map, province).is_some() {
                    return Err(StateError::Crowded(text.clone()));
                }
                let options = state
                    .retreats
                    .get(key)
                    .and_then(|r| {
                        r.iter()
                            .find(|(u, _)| parse_unit(map, u).is_ok_and(|(_, k, l)| k == kind && l == location))
                    })
                    .map(|(_, options)| options.clone())
                    .unwrap_or_default();
                let mut retreats = Vec::new();
                for option in &options {
                    let bad = |reason: &str| StateError::BadRetreat {
                        unit: text.clone(),
                        option: option.clone(),
                        reason: reason.to_string(),
                    };
                    let mut target = map
                        .location_by_abbreviation(option)
                        .ok_or_else(|| bad("unknown place"))?;
                    let province = map.province_of(target);
                    if kind == UnitType::Fleet
                        && map.province(province).has_split_coast()
                        && !map.location(target).fleet
                    {
                        // A fleet's option written without its coast: the one coast it can reach.
                        let mut coasts = map.fleet_targets_in(location, province);
                        target = match (coasts.next(), coasts.next()) {
                            (Some(c), None) => c,
                            _ => return Err(bad("name the coast")),
                        };
                    }
                    if kind == UnitType::Army {
                        target = map.province(province).main;
                    }
                    if !map.is_adjacent(kind, location, target) {
                        return Err(bad("the unit cannot move there"));
                    }
                    retreats.push(target);
                }
                position.dislodged.push(DislodgedUnit {
                    unit,
                    retreats,
                    attacker: None,
                });
            } else {
                if position.unit_in(map, province).is_some() {
                    return Err(StateError::Crowded(text.clone()));
                }
                position.units.push(unit);
            }
        }
    }
    let overseas = state.overseas_centres.iter().map(|(k, c)| (k, std::slice::from_ref(c)));
    let listed = |key: &String, c: &String| {
        state
            .centers
            .get(key)
            .is_some_and(|cs| cs.iter().any(|x| x.eq_ignore_ascii_case(c)))
    };
    let overseas = overseas.filter(|(k, c)| !listed(k, &c[0]));
    for (key, centres) in state.centers.iter().map(|(k, c)| (k, c.as_slice())).chain(overseas) {
        let power = power_by_key(map, key)?;
        for c in centres {
            let bad = |reason| StateError::BadCentre {
                power: key.clone(),
                centre: c.clone(),
                reason,
            };
            let province = map.province_by_abbreviation(c).ok_or_else(|| bad("unknown province"))?;
            if !map.province(province).centre && !crate::choice::is_overseas_centre(variant, power, province) {
                return Err(bad("not a supply centre"));
            }
            if position.owners[province.index()].is_some() {
                return Err(bad("owned by two powers"));
            }
            position.owners[province.index()] = Some(power);
        }
    }
    let on_board: Vec<Unit> = position
        .units
        .iter()
        .copied()
        .chain(position.dislodged.iter().map(|d| d.unit))
        .collect();
    position.rules = rule_fields::read(variant, state, &on_board, &garrisons_at_home)?;
    position.recent = results::read(map, &state.last_results)?;
    crate::choice::open_in_first_phase(variant, &mut position);
    // Retreat options into a province shut in this position are no options.
    let shut: Vec<bool> = map.provinces().iter().map(|p| position.is_shut(map, p.id)).collect();
    for d in &mut position.dislodged {
        d.retreats.retain(|&l| !shut[map.province_of(l).index()]);
    }
    Ok(position)
}

/// Writes a position as an interchange state.
pub fn state_from_position(variant: &Variant, position: &Position) -> GameState {
    let map = &variant.map;
    let key = |p: PowerId| map.power(p).key.to_ascii_uppercase();
    let loc = |l: LocationId| map.location_abbreviation(l).to_ascii_uppercase();
    let mut state = GameState {
        phase: position.phase.to_string(),
        ..GameState::default()
    };
    for power in map.powers() {
        state.units.insert(key(power.id), Vec::new());
        state.centers.insert(key(power.id), Vec::new());
    }
    for u in &position.units {
        state
            .units
            .entry(key(u.power))
            .or_default()
            .push(format!("{} {}", u.kind.letter(), loc(u.location)));
    }
    for d in &position.dislodged {
        let name = format!("{} {}", d.unit.kind.letter(), loc(d.unit.location));
        state
            .units
            .entry(key(d.unit.power))
            .or_default()
            .push(format!("*{name}"));
        state
            .retreats
            .entry(key(d.unit.power))
            .or_default()
            .insert(name, d.retreats.iter().map(|&l| loc(l)).collect());
    }
    for (i, owner) in position.owners.iter().enumerate() {
        if let Some(p) = owner {
            let abbreviation = map.provinces()[i].abbreviation.to_ascii_uppercase();
            if !map.provinces()[i].centre {
                state.overseas_centres.insert(key(*p), abbreviation.clone());
            }
            state.centers.entry(key(*p)).or_default().push(abbreviation);
        }
    }
    rule_fields::write(variant, position, &mut state);
    state.options.calendar = variant.calendar_choice.clone();
    state.last_results = results::write(map, &position.recent);
    state
}

/// The input of one adjudication: a state plus every power's orders (lines in any notation the
/// order reader takes, advance retreat orders included).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationInput {
    /// The variant (default `standard`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The state to adjudicate.
    #[serde(flatten)]
    pub state: GameState,
    /// Orders per power (upper-case power key), one order per string.
    #[serde(default)]
    pub orders: BTreeMap<String, Vec<String>>,
    /// Retreat orders chosen in advance (as written by a previous adjudication's output).
    #[serde(default)]
    pub pending_retreats: BTreeMap<String, Vec<String>>,
    /// Orders sent earlier for later phases, per power, each as `PHASE: order` (`F1901M: A PAR -
    /// BUR`); those for the phase at hand are used, later ones are kept. Where a power's
    /// `orders` give orders for a phase, they replace its earlier orders for that phase.
    #[serde(default)]
    pub pending_orders: BTreeMap<String, Vec<String>>,
    /// End the game in a draw of all survivors instead of adjudicating.
    #[serde(default)]
    pub draw: bool,
    /// End the game by concession to this power instead of adjudicating.
    #[serde(default)]
    pub concede_to: Option<String>,
}

/// An order line that was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectedOrder {
    /// The line as given.
    pub order: String,
    /// Why it was rejected.
    pub error: String,
    /// Byte offset of the offending word.
    pub position: usize,
    /// A name that was probably meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl RejectedOrder {
    /// A line refused when read, with the reader's error.
    pub fn refused(order: &str, e: &crate::order::OrderError) -> RejectedOrder {
        RejectedOrder {
            order: order.to_string(),
            error: e.kind.to_string(),
            position: e.position,
            suggestion: e.suggestion.clone(),
        }
    }

    /// A line read, with what became of it in a few words (a notice to its sender).
    pub fn told(order: &str, what: String) -> RejectedOrder {
        RejectedOrder {
            order: order.to_string(),
            error: what,
            position: 0,
            suggestion: None,
        }
    }
}

/// The output of one adjudication: what happened, and the next state (its fields at the top
/// level, so the output with new `orders` is the next input).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationOutput {
    /// The variant.
    pub variant: String,
    /// The phase that was adjudicated.
    pub adjudicated_phase: String,
    /// The orders carried out, per power, in the interchange notation (an order replaced by a
    /// later one for the same unit is not among them).
    pub accepted_orders: BTreeMap<String, Vec<String>>,
    /// The orders for this phase that were rejected, per power, with the reason.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rejected_orders: BTreeMap<String, Vec<RejectedOrder>>,
    /// Lines that were not carried out and are for their sender's eyes only, per power: retreats
    /// ordered in advance for a unit that was not dislodged or that could not be used, and
    /// orders sent for a phase that was not played. A judge never publishes them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub notices: BTreeMap<String, Vec<RejectedOrder>>,
    /// Outcome codes per unit (`bounce`, `cut`, `dislodged`, `void`, `no convoy`, `disrupted`,
    /// `disband`); an empty list is success.
    pub results: BTreeMap<String, Vec<String>>,
    /// Our own explanation per unit.
    pub reasons: BTreeMap<String, String>,
    /// The next state.
    #[serde(flatten)]
    pub next: GameState,
    /// Builds (positive) and disbands (negative) per power in an adjustment phase, with the home
    /// centres free for building.
    pub builds: BTreeMap<String, Builds>,
    /// Retreat orders already chosen from advance retreat orders for the coming retreat phase.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending_retreats: BTreeMap<String, Vec<String>>,
    /// Orders sent for phases still to come, per power, as `PHASE: order`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending_orders: BTreeMap<String, Vec<String>>,
    /// Builds (positive) and removals (negative) per country in the winter adjudicated, after
    /// its first steps (Hegemony 4.4 step 4).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub adjustments: BTreeMap<String, i32>,
    /// Units removed in the winter adjudicated for want of a secure supply line, per country:
    /// unit → why (Hegemony 2.1.5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub supply_removals: BTreeMap<String, BTreeMap<String, String>>,
    /// Overseas centres blocked in the winter adjudicated, per owner (Hegemony 2.2.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overseas_blocked: BTreeMap<String, String>,
    /// Declarations of friendship made in the winter adjudicated: country → the countries it
    /// declared itself friendly towards (Hegemony 1.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub friendly: BTreeMap<String, Vec<String>>,
    /// Centre values per country in the winter adjudicated: a double centre counts two for its
    /// first owner, a blocked overseas centre none (Hegemony 2.2, 2.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub centre_values: BTreeMap<String, i32>,
    /// The power that won (the game is over).
    pub winner: Option<String>,
    /// How the game ended, if it did: `{"kind": "victory" | "draw" | "concession", "powers": [...]}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameEnd>,
}

/// The end of a game in the interchange format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    /// `victory`, `draw` or `concession`.
    pub kind: String,
    /// The winner, the powers sharing the draw, or the power conceded to.
    pub powers: Vec<String>,
}

/// A power's adjustment in the coming adjustment phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Builds {
    /// Builds (positive) or disbands (negative).
    pub count: i32,
    /// Owned, empty home centres.
    pub homes: Vec<String>,
}
