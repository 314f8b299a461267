//! Reading a variant data file (TOML, see docs/VARIANT_FORMAT.md) into a validated [`Variant`].

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use crate::ids::{Coast, LocationId, PowerId, ProvinceId, UnitType};
use crate::map::model::{BitMatrix, Location, Map, Power, Province, Terrain};
use crate::map::names::{NameIndex, capitalise};
use crate::phase::Phase;
use crate::rules::RuleName;
use crate::variant::Variant;

mod choices;
mod scenario;

/// One problem found in a variant file, with the file and line it is on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {problem}")]
pub struct MapError {
    /// The file name given to the loader.
    pub file: String,
    /// 1-based line of the offending text.
    pub line: usize,
    /// What is wrong.
    pub problem: MapProblem,
}

/// Everything that was wrong with a variant file (at least one problem).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapErrors(pub Vec<MapError>);

impl fmt::Display for MapErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for MapErrors {}

/// The kinds of problem a variant file can have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapProblem {
    /// Not valid TOML, or a field of the wrong type or name.
    #[error("{0}")]
    Syntax(String),
    /// Two provinces with one abbreviation.
    #[error("province `{0}` is defined twice")]
    DuplicateProvince(String),
    /// Two powers with one key.
    #[error("power `{0}` is defined twice")]
    DuplicatePower(String),
    /// A name that two provinces (or two powers) claim.
    #[error("the name `{name}` is claimed by both `{first}` and `{second}`")]
    NameClash {
        /// The folded name.
        name: String,
        /// The first owner.
        first: String,
        /// The second owner.
        second: String,
    },
    /// An abbreviation that is not made of letters and digits.
    #[error("`{0}` is not a usable abbreviation: use letters and digits only")]
    BadAbbreviation(String),
    /// A terrain word that is not known.
    #[error("unknown terrain `{0}`: expected land, coast, sea or impassable")]
    UnknownTerrain(String),
    /// A reference to a province that does not exist.
    #[error("unknown province `{0}`")]
    UnknownProvince(String),
    /// A coast name that is not nc/sc/ec/wc, or that the province does not have.
    #[error("unknown coast `{0}`")]
    UnknownCoast(String),
    /// A field that the province's terrain does not allow.
    #[error("province `{province}`: {reason}")]
    TerrainMismatch {
        /// The province.
        province: String,
        /// What does not fit.
        reason: String,
    },
    /// A fleet neighbour that names a split-coast province without its coast.
    #[error("fleet neighbour `{0}` has split coasts: name the coast (e.g. `{0}/nc`)")]
    CoastNeeded(String),
    /// An adjacency listed on one side only.
    #[error("{unit} adjacency `{from}` → `{to}` is not listed back from `{to}`")]
    AsymmetricAdjacency {
        /// "army" or "fleet".
        unit: &'static str,
        /// The side that lists it.
        from: String,
        /// The side that does not.
        to: String,
    },
    /// A power key that the variant does not define.
    #[error("unknown power `{0}`")]
    UnknownPower(String),
    /// A home centre that is not a supply centre.
    #[error("home centre `{province}` of {power} is not a supply centre")]
    HomeNotCentre {
        /// The power.
        power: String,
        /// The province.
        province: String,
    },
    /// A home centre claimed by two powers.
    #[error("home centre `{0}` belongs to two powers")]
    HomeTwice(String),
    /// A starting unit that cannot be written or cannot stand there.
    #[error("starting unit `{0}`: {1}")]
    BadUnit(String, String),
    /// A start phase that cannot be read.
    #[error("{0}")]
    BadPhase(String),
    /// A victory condition that cannot be met or is empty.
    #[error("victory_centres is {given} but the map has {centres} supply centres")]
    BadVictory {
        /// The number given.
        given: u32,
        /// The number of centres.
        centres: usize,
    },
    /// More provinces, locations or powers than the ids can number.
    #[error("too many {0}")]
    TooMany(&'static str),
    /// A rule name no module answers to.
    #[error("unknown rule `{0}`: known rules are {known}", known = crate::rules::RuleName::ALL.map(|r| r.as_str()).join(", "))]
    UnknownRule(String),
    /// Map data that a rule acts on, in a variant that does not name the rule.
    #[error("{what} needs the rule `{rule}`: add it to `rules` under [variant]")]
    RuleNotNamed {
        /// The data (`canal`, `[[railroad]]`).
        what: &'static str,
        /// The rule it needs.
        rule: crate::rules::RuleName,
    },
    /// A scenario the file does not have.
    #[error("no scenario `{0}`: the file has {1}")]
    UnknownScenario(String, String),
    /// A special rule number no rule answers to.
    #[error("unknown special rule `{0}`: known are {known}", known = crate::scenario::SpecialRule::ALL.map(|r| r.number()).join(", "))]
    UnknownSpecialRule(String),
    /// A leader or scenario entry that cannot be read.
    #[error("{0}")]
    BadScenario(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    variant: RawVariant,
    #[serde(default)]
    railroad: Vec<RawRailroad>,
    #[serde(default)]
    power: Vec<RawPower>,
    #[serde(default)]
    province: Vec<RawProvince>,
    #[serde(default)]
    leader: Vec<scenario::RawLeader>,
    #[serde(default)]
    scenario: Vec<scenario::RawScenario>,
    #[serde(default)]
    special_rule: scenario::RawSpecialPlaces,
    /// How many of `power` are players (set by a scenario; all when unset).
    #[serde(skip)]
    player_count: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    calendar: Option<RawCalendar>,
    /// Other calendars a game may choose, by name.
    #[serde(default)]
    calendars: BTreeMap<String, RawCalendar>,
    title: String,
    title_de: Option<String>,
    start: Spanned<String>,
    victory_centres: Spanned<u32>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRailroad {
    name: String,
    abbreviation: Spanned<String>,
    #[serde(default)]
    aliases: Vec<String>,
    power: Spanned<String>,
    route: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCalendar {
    seasons: Option<Vec<Spanned<String>>>,
    year_step: Option<i32>,
    first_adjustment_year: Option<i32>,
    adjustment_interval: Option<i32>,
    /// A season's own names: `names = { spring = ["Turn", "Zug"] }` (English, German).
    #[serde(default)]
    names: BTreeMap<String, Spanned<Vec<String>>>,
    /// What a calendar a game may choose is (`[variant.calendars.NAME]` only).
    title: Option<String>,
    title_de: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPower {
    id: Spanned<String>,
    name: String,
    name_de: Option<String>,
    adjective: String,
    adjective_de: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    letter: Option<char>,
    colour: Option<String>,
    #[serde(default)]
    home: Vec<Spanned<String>>,
    #[serde(default)]
    units: Vec<Spanned<String>>,
    /// The countries it may never control (Hegemony 1.1.7).
    #[serde(default)]
    never_controls: Vec<Spanned<String>>,
    /// Its capital (Hegemony 4.3.1.5).
    capital: Option<Spanned<String>>,
    /// Set by a scenario for a country whose units need no supply.
    #[serde(skip)]
    no_supply: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProvince {
    id: Spanned<String>,
    name: String,
    name_de: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    terrain: Spanned<String>,
    #[serde(default)]
    centre: bool,
    convoy: Option<bool>,
    #[serde(default)]
    not_centre_for: Vec<Spanned<String>>,
    /// Powers that may build a fleet here though it is no home centre of theirs (Hegemony 3.2).
    #[serde(default)]
    fleet_build_for: Vec<Spanned<String>>,
    canal: Option<Vec<Spanned<String>>>,
    /// Shut unless a position opens the passage (Hegemony 5.1.5).
    #[serde(default)]
    passage: bool,
    army: Option<Vec<Spanned<String>>>,
    fleet: Option<Vec<Spanned<String>>>,
    coasts: Option<BTreeMap<String, Vec<Spanned<String>>>>,
}

/// Collects problems with their line numbers.
struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    list: Vec<MapError>,
}

impl Problems<'_> {
    fn at(&mut self, offset: usize, problem: MapProblem) {
        let line = self.text[..offset.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1;
        self.list.push(MapError {
            file: self.file.to_string(),
            line,
            problem,
        });
    }
}

/// The rules a variant names, each once, in the order of [`RuleName::ALL`]; a problem for each
/// name no module answers to and for canal or railroad data without its rule.
fn read_rules(raw: &RawFile, problems: &mut Problems<'_>) -> Option<Vec<RuleName>> {
    let mut rules = Vec::new();
    let mut fine = true;
    for name in &raw.variant.rules {
        match RuleName::from_name(name.get_ref()) {
            Some(rule) => rules.push(rule),
            None => {
                problems.at(name.span().start, MapProblem::UnknownRule(name.get_ref().clone()));
                fine = false;
            }
        }
    }
    rules.sort();
    rules.dedup();
    let canal = raw.province.iter().find_map(|p| p.canal.as_ref()?.first());
    if let Some(at) = canal.filter(|_| !rules.contains(&RuleName::Canal)) {
        let problem = MapProblem::RuleNotNamed {
            what: "`canal`",
            rule: RuleName::Canal,
        };
        problems.at(at.span().start, problem);
        fine = false;
    }
    if let Some(rr) = raw.railroad.first().filter(|_| !rules.contains(&RuleName::Railroad)) {
        let problem = MapProblem::RuleNotNamed {
            what: "`[[railroad]]`",
            rule: RuleName::Railroad,
        };
        problems.at(rr.abbreviation.span().start, problem);
        fine = false;
    }
    fine.then_some(rules)
}

/// Reads and validates a variant file (its first scenario, if it has scenarios). `file` names it
/// in error messages.
pub fn load_variant(file: &str, text: &str) -> Result<Variant, MapErrors> {
    load_scenario(file, text, None)
}

/// Reads and validates one scenario of a variant file (`None`: the first, or the file as it is
/// when it has no scenarios). `file` names it in error messages.
pub fn load_scenario(file: &str, text: &str, wanted: Option<&str>) -> Result<Variant, MapErrors> {
    let mut problems = Problems {
        file,
        text,
        list: Vec::new(),
    };
    let mut raw: RawFile = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let offset = e.span().map_or(0, |s| s.start);
            problems.at(offset, MapProblem::Syntax(e.message().trim().to_string()));
            return Err(MapErrors(problems.list));
        }
    };
    let chosen = match raw.scenario.is_empty() {
        true => None,
        false => match scenario::select(&mut raw, wanted, &mut problems) {
            Some(chosen) => Some(chosen),
            None => return Err(MapErrors(problems.list)),
        },
    };
    let mut variant = build(&raw, &mut problems);
    if let (Some(v), Some(chosen)) = (variant.as_mut(), chosen) {
        scenario::finish(v, chosen, &mut problems);
    }
    match variant {
        Some(v) if problems.list.is_empty() => Ok(v),
        _ => Err(MapErrors(problems.list)),
    }
}

fn parse_terrain(word: &str) -> Option<Terrain> {
    match word {
        "land" => Some(Terrain::Land),
        "coast" => Some(Terrain::Coast),
        "sea" => Some(Terrain::Sea),
        "impassable" => Some(Terrain::Impassable),
        _ => None,
    }
}

fn build(raw: &RawFile, problems: &mut Problems<'_>) -> Option<Variant> {
    let (mut provinces, locations) = build_provinces(raw, problems)?;
    let map_lookup = |text: &str, provinces: &[Province]| -> Option<ProvinceId> {
        provinces
            .iter()
            .find(|p| p.abbreviation == text.to_ascii_lowercase())
            .map(|p| p.id)
    };

    // Adjacency lists.
    let n = locations.len();
    let mut army_neighbours = vec![Vec::new(); n];
    let mut fleet_neighbours = vec![Vec::new(); n];
    let mut army_spans: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut fleet_spans: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (rp, p) in raw.province.iter().zip(provinces.iter()) {
        if let Some(list) = &rp.army {
            for item in list {
                let Some(q) = map_lookup(item.get_ref(), &provinces) else {
                    problems.at(item.span().start, MapProblem::UnknownProvince(item.get_ref().clone()));
                    continue;
                };
                let target = &provinces[q.index()];
                if !matches!(target.terrain, Terrain::Land | Terrain::Coast) {
                    problems.at(
                        item.span().start,
                        MapProblem::TerrainMismatch {
                            province: p.abbreviation.clone(),
                            reason: format!("army neighbour `{}` is not land", target.abbreviation),
                        },
                    );
                    continue;
                }
                army_neighbours[p.main.index()].push(target.main);
                army_spans[p.main.index()].push(item.span().start);
            }
        }
        let mut fleet_lists: Vec<(LocationId, &Vec<Spanned<String>>)> = Vec::new();
        if let Some(list) = &rp.fleet {
            fleet_lists.push((p.main, list));
        }
        if let Some(coasts) = &rp.coasts {
            for (name, list) in coasts {
                if let Some(loc) = Coast::from_abbreviation(name).and_then(|c| {
                    p.coasts
                        .iter()
                        .copied()
                        .find(|&l| locations[l.index()].coast == Some(c))
                }) {
                    fleet_lists.push((loc, list));
                }
            }
        }
        for (from, list) in fleet_lists {
            for item in list {
                match resolve_fleet_target(item.get_ref(), &provinces, &locations) {
                    Ok(to) => {
                        fleet_neighbours[from.index()].push(to);
                        fleet_spans[from.index()].push(item.span().start);
                    }
                    Err(problem) => problems.at(item.span().start, problem),
                }
            }
        }
    }
    let abbreviation = |l: LocationId| {
        let loc = &locations[l.index()];
        let p = &provinces[loc.province.index()];
        match loc.coast {
            None => p.abbreviation.clone(),
            Some(c) => format!("{}/{}", p.abbreviation, c.abbreviation()),
        }
    };
    let mut army_adjacent = BitMatrix::new(n, n);
    let mut fleet_adjacent = BitMatrix::new(n, n);
    for (from, list) in army_neighbours.iter().enumerate() {
        for to in list {
            army_adjacent.set(from, to.index());
        }
    }
    for (from, list) in fleet_neighbours.iter().enumerate() {
        for to in list {
            fleet_adjacent.set(from, to.index());
        }
    }
    for (unit, lists, spans, bits) in [
        ("army", &army_neighbours, &army_spans, &army_adjacent),
        ("fleet", &fleet_neighbours, &fleet_spans, &fleet_adjacent),
    ] {
        for (from, list) in lists.iter().enumerate() {
            for (to, &span) in list.iter().zip(&spans[from]) {
                if !bits.get(to.index(), from) {
                    problems.at(
                        span,
                        MapProblem::AsymmetricAdjacency {
                            unit,
                            from: abbreviation(LocationId(from as u16)),
                            to: abbreviation(*to),
                        },
                    );
                }
            }
        }
    }

    let powers = build_powers(raw, &mut provinces, &locations, problems);
    for (rp, p) in raw.province.iter().zip(provinces.iter_mut()) {
        for key in &rp.not_centre_for {
            match powers.iter().find(|q| q.key.eq_ignore_ascii_case(key.get_ref())) {
                Some(q) if p.centre => p.not_centre_for.push(q.id),
                Some(_) => problems.at(
                    key.span().start,
                    MapProblem::TerrainMismatch {
                        province: p.abbreviation.clone(),
                        reason: "not_centre_for is only for supply centres".to_string(),
                    },
                ),
                None => problems.at(key.span().start, MapProblem::UnknownPower(key.get_ref().clone())),
            }
        }
        for key in &rp.fleet_build_for {
            let fleets_stand = locations[p.main.index()].fleet || !p.coasts.is_empty();
            match powers.iter().find(|q| q.key.eq_ignore_ascii_case(key.get_ref())) {
                Some(q) if fleets_stand && p.terrain == Terrain::Coast => p.fleet_build_for.push(q.id),
                Some(_) => problems.at(
                    key.span().start,
                    MapProblem::TerrainMismatch {
                        province: p.abbreviation.clone(),
                        reason: "fleet_build_for is only for coastal provinces".to_string(),
                    },
                ),
                None => problems.at(key.span().start, MapProblem::UnknownPower(key.get_ref().clone())),
            }
        }
    }
    let names = build_names(raw, &provinces, &powers, problems);

    // Where fleets can give support, and which bodies of water can carry convoys.
    let mut fleet_reaches = BitMatrix::new(n, provinces.len());
    for (from, list) in fleet_neighbours.iter().enumerate() {
        for to in list {
            fleet_reaches.set(from, locations[to.index()].province.index());
        }
    }
    let convoy_waters = convoy_waters(&provinces, &locations, &fleet_neighbours);

    let start = match raw.variant.start.get_ref().parse::<Phase>() {
        Ok(p) => p,
        Err(e) => {
            problems.at(raw.variant.start.span().start, MapProblem::BadPhase(e.to_string()));
            return None;
        }
    };
    let centres = provinces.iter().filter(|p| p.centre).count();
    let victory = *raw.variant.victory_centres.get_ref();
    if victory == 0 || victory as usize > centres {
        problems.at(
            raw.variant.victory_centres.span().start,
            MapProblem::BadVictory {
                given: victory,
                centres,
            },
        );
    }
    let calendar = raw.variant.calendar.as_ref().map_or_else(
        || crate::variant::Calendar::standard(start.year),
        |c| read_calendar(c, start.year, problems),
    );
    let calendars = raw
        .variant
        .calendars
        .iter()
        .map(|(name, c)| crate::variant::NamedCalendar {
            name: name.clone(),
            title: c.title.clone().unwrap_or_else(|| name.clone()),
            title_de: c
                .title_de
                .clone()
                .or_else(|| c.title.clone())
                .unwrap_or_else(|| name.clone()),
            calendar: read_calendar(c, start.year, problems),
        })
        .collect();
    let mut canals = Vec::new();
    for (rp, p) in raw.province.iter().zip(provinces.iter()) {
        let Some(ends) = &rp.canal else { continue };
        let resolved: Vec<LocationId> = ends
            .iter()
            .filter_map(|e| match resolve_fleet_target(e.get_ref(), &provinces, &locations) {
                Ok(l) if fleet_neighbours[p.main.index()].contains(&l) => Some(l),
                Ok(_) => {
                    problems.at(
                        e.span().start,
                        MapProblem::TerrainMismatch {
                            province: p.abbreviation.clone(),
                            reason: format!("canal end `{}` is not a fleet neighbour", e.get_ref()),
                        },
                    );
                    None
                }
                Err(problem) => {
                    problems.at(e.span().start, problem);
                    None
                }
            })
            .collect();
        match resolved.as_slice() {
            [a, b] => canals.push(crate::map::model::Canal {
                province: p.id,
                ends: [*a, *b],
            }),
            _ if resolved.len() == ends.len() => problems.at(
                rp.id.span().start,
                MapProblem::TerrainMismatch {
                    province: p.abbreviation.clone(),
                    reason: "a canal joins exactly two waters".to_string(),
                },
            ),
            _ => {}
        }
    }
    let mut railroads = Vec::new();
    for rr in &raw.railroad {
        let Some(power) = powers.iter().find(|p| p.key.eq_ignore_ascii_case(rr.power.get_ref())) else {
            problems.at(
                rr.power.span().start,
                MapProblem::UnknownPower(rr.power.get_ref().clone()),
            );
            continue;
        };
        let mut route = Vec::new();
        for step in &rr.route {
            match provinces
                .iter()
                .find(|p| p.abbreviation.eq_ignore_ascii_case(step.get_ref()))
            {
                Some(p) => route.push(p.id),
                None => problems.at(step.span().start, MapProblem::UnknownProvince(step.get_ref().clone())),
            }
        }
        for pair in route.windows(2) {
            let (a, b) = (&provinces[pair[0].index()], &provinces[pair[1].index()]);
            if !army_neighbours[a.main.index()].contains(&b.main) {
                problems.at(
                    rr.abbreviation.span().start,
                    MapProblem::TerrainMismatch {
                        province: a.abbreviation.clone(),
                        reason: format!("the railroad runs on to `{}`, which is not next to it", b.abbreviation),
                    },
                );
            }
        }
        let keys = std::iter::once(rr.name.as_str())
            .chain(std::iter::once(rr.abbreviation.get_ref().as_str()))
            .chain(rr.aliases.iter().map(String::as_str))
            .map(crate::map::names::name_key)
            .collect::<Vec<_>>();
        for key in &keys {
            if names.province(key).is_some() {
                problems.at(
                    rr.abbreviation.span().start,
                    MapProblem::NameClash {
                        name: key.clone(),
                        first: "a province".to_string(),
                        second: rr.name.clone(),
                    },
                );
            }
        }
        railroads.push(crate::map::model::Railroad {
            name: rr.name.clone(),
            abbreviation: rr.abbreviation.get_ref().clone(),
            keys,
            power: power.id,
            route,
        });
    }
    let mut map = Map {
        railroads,
        canals,
        provinces,
        locations,
        player_count: raw.player_count.unwrap_or(powers.len()),
        powers,
        army_neighbours,
        fleet_neighbours,
        army_adjacent,
        fleet_adjacent,
        fleet_reaches,
        convoy_waters,
        convoy_neighbours: Vec::new(),
        names,
        plain_places: Default::default(),
    };
    map.convoy_neighbours = map.convoy_neighbour_lists();
    map.plain_places = crate::order::direct::PlainPlaces::new(&map);
    let rules = read_rules(raw, problems)?;
    if let Some(first) = raw.leader.first() {
        if !rules.contains(&crate::rules::RuleName::Leaders) {
            let problem = MapProblem::RuleNotNamed {
                what: "`[[leader]]`",
                rule: crate::rules::RuleName::Leaders,
            };
            problems.at(first.id.span().start, problem);
        }
    }
    let special_places = scenario::special_places(raw, &map, problems);
    // Data that only a rule acts on needs that rule named.
    let needs = [
        (
            "`special_rules`",
            crate::rules::RuleName::ScenarioRules,
            raw.scenario
                .iter()
                .flat_map(|s| s.special_rules.first())
                .map(|r| r.span().start)
                .next(),
        ),
        (
            "`[special_rule]`",
            crate::rules::RuleName::ScenarioRules,
            raw.special_rule.first_at(),
        ),
        (
            "`political_factors`",
            crate::rules::RuleName::Politics,
            scenario::first_political_factors(raw),
        ),
        (
            "`never_controls`",
            crate::rules::RuleName::Politics,
            raw.power
                .iter()
                .flat_map(|p| p.never_controls.first())
                .map(|k| k.span().start)
                .next(),
        ),
    ];
    for (what, rule, at) in needs {
        if let (false, Some(at)) = (rules.contains(&rule), at) {
            problems.at(at, MapProblem::RuleNotNamed { what, rule });
        }
    }
    Some(Variant {
        special_places,
        leaders: scenario::leaders(raw, problems),
        scenario: None,
        rules,
        name: raw.variant.name.clone(),
        title: raw.variant.title.clone(),
        title_de: raw
            .variant
            .title_de
            .clone()
            .unwrap_or_else(|| raw.variant.title.clone()),
        start,
        victory_centres: victory,
        calendar,
        calendars,
        calendar_choice: None,
        map,
    })
}

/// A calendar of the variant file (the standard one where it says nothing).
fn read_calendar(c: &RawCalendar, start_year: i32, problems: &mut Problems<'_>) -> crate::variant::Calendar {
    let mut calendar = crate::variant::Calendar::standard(start_year);
    let season = |s: &str| match s {
        "spring" => Some(crate::phase::Season::Spring),
        "fall" | "autumn" => Some(crate::phase::Season::Fall),
        "winter" => Some(crate::phase::Season::Winter),
        _ => None,
    };
    let bad = |other: &str| MapProblem::BadPhase(format!("unknown season `{other}`: use spring or fall"));
    if let Some(seasons) = &c.seasons {
        let mut parsed = Vec::new();
        for s in seasons {
            match season(s.get_ref()).filter(|&s| s != crate::phase::Season::Winter) {
                Some(s) => parsed.push(s),
                None => problems.at(s.span().start, bad(s.get_ref())),
            }
        }
        if !parsed.is_empty() {
            calendar.seasons = parsed;
        }
    }
    calendar.year_step = c.year_step.unwrap_or(1).max(1);
    calendar.first_adjustment_year = c.first_adjustment_year.unwrap_or(start_year);
    calendar.adjustment_interval = c.adjustment_interval.unwrap_or(1).max(1);
    for (name, words) in &c.names {
        match (season(name), words.get_ref().as_slice()) {
            (Some(s), [en, de]) => calendar.names.push((s, en.clone(), de.clone())),
            _ => problems.at(
                words.span().start,
                MapProblem::BadPhase(format!(
                    "season name `{name}`: give [\"English\", \"German\"] for spring, fall or winter"
                )),
            ),
        }
    }
    calendar
}

/// The largest map the loader accepts (ids stay far below the adjudicator's sentinel, and the
/// adjacency tables small).
const MAX_PROVINCES: usize = 2048;

fn build_provinces(raw: &RawFile, problems: &mut Problems<'_>) -> Option<(Vec<Province>, Vec<Location>)> {
    if raw.province.len() > MAX_PROVINCES {
        problems.at(0, MapProblem::TooMany("provinces (at most 2048)"));
        return None;
    }
    let mut provinces: Vec<Province> = Vec::new();
    let mut locations: Vec<Location> = Vec::new();
    for rp in &raw.province {
        let abbreviation = rp.id.get_ref().to_ascii_lowercase();
        let at = rp.id.span().start;
        if abbreviation.is_empty() || !abbreviation.chars().all(|c| c.is_ascii_alphanumeric()) {
            problems.at(at, MapProblem::BadAbbreviation(abbreviation.clone()));
        }
        if provinces.iter().any(|p| p.abbreviation == abbreviation) {
            problems.at(at, MapProblem::DuplicateProvince(abbreviation.clone()));
        }
        let terrain = match parse_terrain(rp.terrain.get_ref()) {
            Some(t) => t,
            None => {
                problems.at(
                    rp.terrain.span().start,
                    MapProblem::UnknownTerrain(rp.terrain.get_ref().clone()),
                );
                // Go on as if it were a coast, so that the later checks stay aligned with the file.
                Terrain::Coast
            }
        };
        let mismatch = |reason: &str| MapProblem::TerrainMismatch {
            province: abbreviation.clone(),
            reason: reason.to_string(),
        };
        let has_coasts = rp.coasts.as_ref().is_some_and(|c| !c.is_empty());
        match terrain {
            Terrain::Sea if rp.army.is_some() => problems.at(at, mismatch("a sea has no army neighbours")),
            Terrain::Land if rp.fleet.is_some() || has_coasts => {
                problems.at(at, mismatch("an inland province has no fleet neighbours"))
            }
            Terrain::Impassable if rp.army.is_some() || rp.fleet.is_some() || has_coasts => {
                problems.at(at, mismatch("an impassable province has no neighbours"))
            }
            Terrain::Sea if has_coasts => problems.at(at, mismatch("a sea has no coasts")),
            Terrain::Coast if has_coasts && rp.fleet.is_some() => problems.at(
                at,
                mismatch("a province with split coasts lists fleet neighbours per coast, not in `fleet`"),
            ),
            _ => {}
        }
        if rp.convoy == Some(true) && terrain != Terrain::Coast && terrain != Terrain::Sea {
            problems.at(at, mismatch("only seas and coastal provinces can convoy"));
        }
        if rp.passage && (terrain != Terrain::Land || rp.centre) {
            problems.at(
                at,
                mismatch("only an inland province without a centre can have a passage"),
            );
        }
        if rp.centre && matches!(terrain, Terrain::Sea | Terrain::Impassable) {
            problems.at(at, mismatch("a supply centre must be on land"));
        }
        let id = ProvinceId(u16::try_from(provinces.len()).ok()?);
        let main = LocationId(u16::try_from(locations.len()).ok()?);
        locations.push(Location {
            province: id,
            coast: None,
            army: matches!(terrain, Terrain::Land | Terrain::Coast),
            fleet: matches!(terrain, Terrain::Sea) || (terrain == Terrain::Coast && !has_coasts),
        });
        let mut coasts = Vec::new();
        if let Some(raw_coasts) = &rp.coasts {
            for name in raw_coasts.keys() {
                let Some(coast) = Coast::from_abbreviation(name) else {
                    problems.at(at, MapProblem::UnknownCoast(format!("{abbreviation}/{name}")));
                    continue;
                };
                let Ok(loc_index) = u16::try_from(locations.len()) else {
                    problems.at(at, MapProblem::TooMany("locations"));
                    return None;
                };
                coasts.push(LocationId(loc_index));
                locations.push(Location {
                    province: id,
                    coast: Some(coast),
                    army: false,
                    fleet: true,
                });
            }
        }
        provinces.push(Province {
            id,
            abbreviation,
            name: rp.name.clone(),
            name_de: rp.name_de.clone().unwrap_or_else(|| rp.name.clone()),
            aliases: rp.aliases.clone(),
            terrain,
            centre: rp.centre,
            convoys: rp.convoy.unwrap_or(terrain == Terrain::Sea),
            home_of: None,
            not_centre_for: Vec::new(),
            fleet_build_for: Vec::new(),
            double: false,
            shut: rp.passage,
            main,
            coasts,
        });
    }
    Some((provinces, locations))
}

fn resolve_fleet_target(text: &str, provinces: &[Province], locations: &[Location]) -> Result<LocationId, MapProblem> {
    let lower = text.to_ascii_lowercase();
    let (prov, coast) = match lower.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (lower.as_str(), None),
    };
    let Some(p) = provinces.iter().find(|p| p.abbreviation == prov) else {
        return Err(MapProblem::UnknownProvince(prov.to_string()));
    };
    match coast {
        None if p.has_split_coast() => Err(MapProblem::CoastNeeded(p.abbreviation.clone())),
        None if !locations[p.main.index()].fleet => Err(MapProblem::TerrainMismatch {
            province: p.abbreviation.clone(),
            reason: "is listed as a fleet neighbour but fleets cannot go there".to_string(),
        }),
        None => Ok(p.main),
        Some(c) => Coast::from_abbreviation(c)
            .and_then(|c| {
                p.coasts
                    .iter()
                    .copied()
                    .find(|&l| locations[l.index()].coast == Some(c))
            })
            .ok_or_else(|| MapProblem::UnknownCoast(lower.clone())),
    }
}

/// Parses `A bud` / `F stp/sc` against the provinces.
fn parse_unit(text: &str, provinces: &[Province], locations: &[Location]) -> Result<(UnitType, LocationId), String> {
    let mut words = text.split_whitespace();
    let unit = match words.next().map(|w| w.to_ascii_uppercase()) {
        Some(w) if w == "A" => UnitType::Army,
        Some(w) if w == "F" => UnitType::Fleet,
        _ => return Err("expected `A` or `F` and a location, e.g. `A bud`".to_string()),
    };
    let place = words.next().ok_or("missing location")?;
    if words.next().is_some() {
        return Err("expected only a unit type and a location".to_string());
    }
    let lower = place.to_ascii_lowercase();
    let (prov, coast) = match lower.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (lower.as_str(), None),
    };
    let p = provinces
        .iter()
        .find(|p| p.abbreviation == prov)
        .ok_or_else(|| format!("unknown province `{prov}`"))?;
    let loc = match (coast, unit) {
        (None, UnitType::Fleet) if p.has_split_coast() => return Err("a fleet here must name its coast".to_string()),
        (None, _) => p.main,
        (Some(c), _) => Coast::from_abbreviation(c)
            .and_then(|c| {
                p.coasts
                    .iter()
                    .copied()
                    .find(|&l| locations[l.index()].coast == Some(c))
            })
            .ok_or_else(|| format!("unknown coast `{lower}`"))?,
    };
    if !locations[loc.index()].allows(unit) {
        return Err(format!("{} cannot stand in `{}`", unit.letter(), lower));
    }
    Ok((unit, loc))
}

fn build_powers(
    raw: &RawFile,
    provinces: &mut [Province],
    locations: &[Location],
    problems: &mut Problems<'_>,
) -> Vec<Power> {
    let mut powers: Vec<Power> = Vec::new();
    for rp in &raw.power {
        let key = rp.id.get_ref().to_ascii_lowercase();
        if powers.iter().any(|p| p.key == key) {
            problems.at(rp.id.span().start, MapProblem::DuplicatePower(key.clone()));
        }
        let Ok(index) = u8::try_from(powers.len()) else {
            problems.at(rp.id.span().start, MapProblem::TooMany("powers"));
            break;
        };
        let id = PowerId(index);
        let mut home = Vec::new();
        for h in &rp.home {
            let lower = h.get_ref().to_ascii_lowercase();
            let Some(p) = provinces.iter_mut().find(|p| p.abbreviation == lower) else {
                problems.at(h.span().start, MapProblem::UnknownProvince(lower));
                continue;
            };
            if !p.centre {
                problems.at(
                    h.span().start,
                    MapProblem::HomeNotCentre {
                        power: rp.name.clone(),
                        province: lower,
                    },
                );
                continue;
            }
            if p.home_of.is_some() {
                problems.at(h.span().start, MapProblem::HomeTwice(lower));
                continue;
            }
            p.home_of = Some(id);
            home.push(p.id);
        }
        let mut start_units = Vec::new();
        for u in &rp.units {
            match parse_unit(u.get_ref(), provinces, locations) {
                Ok(unit) => {
                    let province = locations[unit.1.index()].province;
                    if start_units
                        .iter()
                        .chain(powers.iter().flat_map(|p: &Power| p.start_units.iter()))
                        .any(|&(_, l): &(UnitType, LocationId)| locations[l.index()].province == province)
                    {
                        problems.at(
                            u.span().start,
                            MapProblem::BadUnit(u.get_ref().clone(), "another unit starts there".to_string()),
                        );
                    }
                    start_units.push(unit);
                }
                Err(reason) => problems.at(u.span().start, MapProblem::BadUnit(u.get_ref().clone(), reason)),
            }
        }
        powers.push(Power {
            id,
            needs_supply: !rp.no_supply,
            key,
            name: rp.name.clone(),
            name_de: rp.name_de.clone().unwrap_or_else(|| rp.name.clone()),
            adjective: rp.adjective.clone(),
            adjective_de: rp.adjective_de.clone().unwrap_or_else(|| rp.adjective.clone()),
            aliases: rp.aliases.clone(),
            letter: rp.letter.unwrap_or_else(|| rp.name.chars().next().unwrap_or('?')),
            colour: rp.colour.clone().unwrap_or_else(|| "#808080".to_string()),
            home,
            start_units,
            threshold: None,
            never_controls: Vec::new(),
            capital: None,
        });
    }
    for (rp, i) in raw.power.iter().zip(0..powers.len()) {
        if let Some(c) = &rp.capital {
            let key = c.get_ref().to_ascii_lowercase();
            match provinces.iter().find(|p| p.abbreviation == key) {
                Some(p) => powers[i].capital = Some(p.id),
                None => problems.at(c.span().start, MapProblem::UnknownProvince(key.clone())),
            }
        }
        for key in &rp.never_controls {
            match powers.iter().find(|q| q.key.eq_ignore_ascii_case(key.get_ref())) {
                Some(q) => {
                    let q = q.id;
                    powers[i].never_controls.push(q);
                }
                None => problems.at(key.span().start, MapProblem::UnknownPower(key.get_ref().clone())),
            }
        }
    }
    powers
}

fn build_names(raw: &RawFile, provinces: &[Province], powers: &[Power], problems: &mut Problems<'_>) -> NameIndex {
    let mut names = NameIndex::default();
    for (rp, p) in raw.province.iter().zip(provinces) {
        let capitalised = capitalise(&p.abbreviation);
        let all = [capitalised.as_str(), p.name.as_str(), p.name_de.as_str()]
            .into_iter()
            .chain(p.aliases.iter().map(String::as_str));
        for name in all {
            if let Err(clash) = names.add_province(name, p.id) {
                let first = names
                    .province(&clash.key)
                    .map_or_else(String::new, |q| provinces[q.index()].abbreviation.clone());
                problems.at(
                    rp.id.span().start,
                    MapProblem::NameClash {
                        name: clash.key,
                        first,
                        second: p.abbreviation.clone(),
                    },
                );
            }
        }
    }
    for (rp, p) in raw.power.iter().zip(powers) {
        let all = [
            p.name.as_str(),
            p.key.as_str(),
            p.name_de.as_str(),
            p.adjective.as_str(),
            p.adjective_de.as_str(),
        ]
        .into_iter()
        .chain(p.aliases.iter().map(String::as_str));
        for name in all {
            if let Err(clash) = names.add_power(name, p.id) {
                let first = names
                    .power(&clash.key)
                    .map_or_else(String::new, |q| powers[q.index()].key.clone());
                problems.at(
                    rp.id.span().start,
                    MapProblem::NameClash {
                        name: clash.key,
                        first,
                        second: p.key.clone(),
                    },
                );
            }
        }
    }
    names
}

/// Numbers the connected bodies of convoying water, and lists for every province the bodies it
/// touches (for a convoying province itself, its own body too).
fn convoy_waters(
    provinces: &[Province],
    locations: &[Location],
    fleet_neighbours: &[Vec<LocationId>],
) -> Vec<Vec<u16>> {
    let mut body: Vec<Option<u16>> = vec![None; provinces.len()];
    let mut next = 0u16;
    for start in provinces.iter().filter(|p| p.convoys) {
        if body[start.id.index()].is_some() {
            continue;
        }
        let mut stack = vec![start.id];
        body[start.id.index()] = Some(next);
        while let Some(p) = stack.pop() {
            let prov = &provinces[p.index()];
            for loc in std::iter::once(prov.main).chain(prov.coasts.iter().copied()) {
                for to in &fleet_neighbours[loc.index()] {
                    let q = locations[to.index()].province;
                    if provinces[q.index()].convoys && body[q.index()].is_none() {
                        body[q.index()] = Some(next);
                        stack.push(q);
                    }
                }
            }
        }
        next += 1;
    }
    provinces
        .iter()
        .map(|p| {
            let mut touched: Vec<u16> = Vec::new();
            if p.terrain == Terrain::Coast {
                if let Some(own) = body[p.id.index()] {
                    touched.push(own);
                }
                for loc in std::iter::once(p.main).chain(p.coasts.iter().copied()) {
                    for to in &fleet_neighbours[loc.index()] {
                        if let Some(b) = body[locations[to.index()].province.index()] {
                            if !touched.contains(&b) {
                                touched.push(b);
                            }
                        }
                    }
                }
            }
            touched
        })
        .collect()
}
