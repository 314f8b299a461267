//! Reading the `[[scenario]]` tables of a variant file: a scenario rewrites the file's start,
//! centres, players and every country's homes and units before the map is built, and its leaders,
//! garrisons, political factors and special rules are checked against the built map.

use serde::Deserialize;
use toml::Spanned;

use super::{MapProblem, Problems, RawFile};
use crate::ids::{LocationId, PowerId, ProvinceId};
use crate::position::Unit;
use crate::rule_state::{Garrison, LeaderPlace, RuleState};
use crate::scenario::{
    CountryStart, EmptyCentreDefence, Leader, LeaderId, Leads, NeighbourDefence, Scenario, SpecialPlaces, SpecialRule,
};
use crate::variant::Variant;

/// A `[[scenario]]` table.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScenario {
    name: Spanned<String>,
    /// What the scenario lacks for a game to be played (a scenario given only as a table).
    incomplete: Option<String>,
    title: String,
    title_de: Option<String>,
    start: Spanned<String>,
    victory_centres: Option<Spanned<u32>>,
    players: Vec<Spanned<String>>,
    centres: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) special_rules: Vec<Spanned<String>>,
    #[serde(default)]
    double_centres: Vec<Spanned<String>>,
    /// The choices of the first phase (5.1.7).
    #[serde(default)]
    choice: Vec<super::choices::RawChoice>,
    #[serde(default)]
    country: Vec<RawCountry>,
}

/// The `[special_rule]` table: what the scenario rules act on.
#[derive(Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpecialPlaces {
    /// 5.1.3: `"<country> <capital>"`.
    #[serde(default)]
    capital_defence: Vec<Spanned<String>>,
    /// 5.1.6: `"<country>"`.
    #[serde(default)]
    mutual_defence: Vec<Spanned<String>>,
    /// 5.1.2: `"<country> <from> <to>"`.
    #[serde(default)]
    neighbour_defence: Vec<Spanned<String>>,
    /// 5.2.2: `"<owner> <centre> <exempt country>"`.
    #[serde(default)]
    empty_centre_defence: Vec<Spanned<String>>,
}

impl RawSpecialPlaces {
    /// Where the table's first entry stands, if it has one.
    pub(super) fn first_at(&self) -> Option<usize> {
        [
            &self.capital_defence,
            &self.mutual_defence,
            &self.neighbour_defence,
            &self.empty_centre_defence,
        ]
        .into_iter()
        .flat_map(|entries| entries.first())
        .map(|e| e.span().start)
        .min()
    }
}

/// Where the first country of a scenario with political factors stands, if one has them.
pub(super) fn first_political_factors(raw: &RawFile) -> Option<usize> {
    raw.scenario
        .iter()
        .flat_map(|s| &s.country)
        .find(|c| c.political_factors.is_some())
        .map(|c| c.id.span().start)
}

/// What one word of a `[special_rule]` entry names.
#[derive(Clone, Copy)]
enum Word {
    Country,
    Province,
}

/// One `[special_rule]` entry read as the words `kinds` name: each country's or province's id
/// number, in order; a problem (and `None`) where the entry does not fit.
fn entry<const N: usize>(
    map: &crate::map::Map,
    rule: &str,
    entry: &Spanned<String>,
    kinds: [Word; N],
    problems: &mut Problems<'_>,
) -> Option<[u16; N]> {
    let at = entry.span().start;
    let words: Vec<&str> = entry.get_ref().split_whitespace().collect();
    if words.len() != N {
        let shape: Vec<&str> = kinds
            .iter()
            .map(|k| match k {
                Word::Country => "<country>",
                Word::Province => "<province>",
            })
            .collect();
        let reason = format!("{rule} `{}`: write \"{}\"", entry.get_ref(), shape.join(" "));
        problems.at(at, MapProblem::BadScenario(reason));
        return None;
    }
    let mut ids = [0u16; N];
    for ((id, word), kind) in ids.iter_mut().zip(&words).zip(kinds) {
        let found = match kind {
            Word::Country => map
                .countries()
                .iter()
                .find(|p| p.key.eq_ignore_ascii_case(word))
                .map(|p| u16::from(p.id.0)),
            Word::Province => map.province_by_abbreviation(word).map(|p| p.0),
        };
        match (found, kind) {
            (Some(found), _) => *id = found,
            (None, Word::Country) => {
                problems.at(at, MapProblem::UnknownPower(word.to_string()));
                return None;
            }
            (None, Word::Province) => {
                problems.at(at, MapProblem::UnknownProvince(word.to_string()));
                return None;
            }
        }
    }
    Some(ids)
}

/// What the scenario rules act on, read against the built map.
pub(super) fn special_places(raw: &RawFile, map: &crate::map::Map, problems: &mut Problems<'_>) -> SpecialPlaces {
    use Word::{Country, Province};
    let table = &raw.special_rule;
    let country = |id: u16| PowerId(id as u8);
    let mut places = SpecialPlaces::default();
    for e in &table.capital_defence {
        if let Some([c, p]) = entry(map, "capital_defence", e, [Country, Province], problems) {
            places.capital_defence.push((country(c), ProvinceId(p)));
        }
    }
    for e in &table.mutual_defence {
        if let Some([c]) = entry(map, "mutual_defence", e, [Country], problems) {
            places.mutual_defence.push(country(c));
        }
    }
    for e in &table.neighbour_defence {
        if let Some([c, from, to]) = entry(map, "neighbour_defence", e, [Country, Province, Province], problems) {
            places.neighbour_defence.push(NeighbourDefence {
                country: country(c),
                from: ProvinceId(from),
                to: ProvinceId(to),
            });
        }
    }
    for e in &table.empty_centre_defence {
        if let Some([owner, p, exempt]) = entry(map, "empty_centre_defence", e, [Country, Province, Country], problems)
        {
            places.empty_centre_defence.push(EmptyCentreDefence {
                owner: country(owner),
                province: ProvinceId(p),
                exempt: country(exempt),
            });
        }
    }
    places
}

/// A `[[scenario.country]]` table: one country's start in the scenario.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCountry {
    pub(super) id: Spanned<String>,
    #[serde(default)]
    home: Vec<Spanned<String>>,
    #[serde(default)]
    units: Vec<Spanned<String>>,
    political_factors: Option<u32>,
    threshold: Option<u32>,
    #[serde(default)]
    leaders: Vec<Spanned<String>>,
    /// Whether its units need supply (false for Hegemony's Polish army).
    needs_supply: Option<bool>,
}

/// A `[[leader]]` table.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLeader {
    pub(super) id: Spanned<String>,
    name: String,
    name_de: Option<String>,
    leads: Spanned<String>,
    country: Option<Spanned<String>>,
}

/// The scenario chosen, kept for [`finish`] after the map is built.
pub(super) struct Chosen {
    raw: RawScenario,
    /// Garrisons: the unit text's span, its country's key and its location text.
    garrisons: Vec<(usize, String, String)>,
}

/// The names of a file's scenarios, in file order.
fn names(raw: &RawFile) -> Vec<String> {
    raw.scenario.iter().map(|s| s.name.get_ref().clone()).collect()
}

/// Rewrites the file for scenario `wanted` (the first when `None`): start, title, centres,
/// homes, units, and the players first among the countries.
pub(super) fn select(raw: &mut RawFile, wanted: Option<&str>, problems: &mut Problems<'_>) -> Option<Chosen> {
    let found = match wanted {
        None => raw.scenario.first(),
        Some(name) => raw
            .scenario
            .iter()
            .find(|s| s.name.get_ref().eq_ignore_ascii_case(name)),
    };
    let Some(mut sc) = found.cloned() else {
        let name = wanted.unwrap_or_default().to_string();
        problems.at(0, MapProblem::UnknownScenario(name, names(raw).join(", ")));
        return None;
    };
    raw.variant.name = format!("{}-{}", raw.variant.name, sc.name.get_ref());
    raw.variant.title = format!("{} ({})", raw.variant.title, sc.title);
    let title_de = sc.title_de.clone().unwrap_or_else(|| sc.title.clone());
    raw.variant.title_de = raw.variant.title_de.as_ref().map(|t| format!("{t} ({title_de})"));
    raw.variant.start = sc.start.clone();
    if let Some(v) = &sc.victory_centres {
        raw.variant.victory_centres = v.clone();
    }
    let known = |key: &str| raw.province.iter().any(|p| p.id.get_ref().eq_ignore_ascii_case(key));
    for c in sc.centres.iter().chain(&sc.double_centres) {
        if !known(c.get_ref()) {
            problems.at(c.span().start, MapProblem::UnknownProvince(c.get_ref().clone()));
        }
    }
    for p in &mut raw.province {
        p.centre = sc
            .centres
            .iter()
            .any(|c| c.get_ref().eq_ignore_ascii_case(p.id.get_ref()));
    }
    let mut garrisons = Vec::new();
    for power in &mut raw.power {
        let start = sc
            .country
            .iter()
            .find(|c| c.id.get_ref().eq_ignore_ascii_case(power.id.get_ref()));
        power.home = start.map(|c| c.home.clone()).unwrap_or_default();
        power.units = start.map(|c| c.units.clone()).unwrap_or_default();
        power.no_supply = start.and_then(|c| c.needs_supply) == Some(false);
        // `C bre`: an army or a fleet, chosen in the first phase (5.1.7.2), an army by default.
        power.units.retain(|unit| match unit.get_ref().strip_prefix("C ") {
            Some(at) => {
                sc.choice.push(super::choices::RawChoice::army_or_fleet(
                    &power.id,
                    unit.span(),
                    at.trim(),
                ));
                false
            }
            None => true,
        });
        for unit in &mut power.units {
            if let Some(at) = unit.get_ref().strip_prefix("G ") {
                garrisons.push((unit.span().start, power.id.get_ref().clone(), at.trim().to_string()));
                *unit = Spanned::new(unit.span(), format!("A {}", at.trim()));
            }
        }
    }
    for (i, c) in sc.country.iter().enumerate() {
        let id = c.id.get_ref();
        if !raw.power.iter().any(|p| p.id.get_ref().eq_ignore_ascii_case(id)) {
            problems.at(c.id.span().start, MapProblem::UnknownPower(id.clone()));
        }
        if sc.country[..i].iter().any(|d| d.id.get_ref().eq_ignore_ascii_case(id)) {
            problems.at(c.id.span().start, MapProblem::DuplicatePower(id.clone()));
        }
    }
    super::choices::default_units(raw, &sc.choice);
    order_players(raw, &sc, problems);
    Some(Chosen { raw: sc, garrisons })
}

/// Puts the scenario's players first among the countries, in the order it names them.
fn order_players(raw: &mut RawFile, sc: &RawScenario, problems: &mut Problems<'_>) {
    let mut players = Vec::new();
    for name in &sc.players {
        match raw
            .power
            .iter()
            .position(|p| p.id.get_ref().eq_ignore_ascii_case(name.get_ref()))
        {
            Some(i) => players.push(raw.power.remove(i)),
            None if players
                .iter()
                .any(|p| p.id.get_ref().eq_ignore_ascii_case(name.get_ref())) =>
            {
                problems.at(name.span().start, MapProblem::DuplicatePower(name.get_ref().clone()))
            }
            None => problems.at(name.span().start, MapProblem::UnknownPower(name.get_ref().clone())),
        }
    }
    raw.player_count = Some(players.len());
    players.append(&mut raw.power);
    raw.power = players;
}

/// The variant's leaders, from its `[[leader]]` tables.
pub(super) fn leaders(raw: &RawFile, problems: &mut Problems<'_>) -> Vec<Leader> {
    let mut leaders = Vec::new();
    for (i, l) in raw.leader.iter().enumerate() {
        let leads = match l.leads.get_ref().as_str() {
            "any" => Leads::Any,
            "armies" => Leads::Armies,
            "fleets" => Leads::Fleets,
            other => {
                let reason = format!("leads `{other}`: expected any, armies or fleets");
                problems.at(l.leads.span().start, MapProblem::BadScenario(reason));
                continue;
            }
        };
        let key = l.id.get_ref().to_ascii_lowercase();
        if leaders.iter().any(|x: &Leader| x.key == key) || i > usize::from(u8::MAX) {
            problems.at(
                l.id.span().start,
                MapProblem::BadScenario(format!("`{key}` is defined twice")),
            );
            continue;
        }
        let country = match &l.country {
            None => None,
            Some(c) => match raw
                .power
                .iter()
                .position(|p| p.id.get_ref().eq_ignore_ascii_case(c.get_ref()))
            {
                Some(i) => Some(PowerId(i as u8)),
                None => {
                    problems.at(c.span().start, MapProblem::UnknownPower(c.get_ref().clone()));
                    continue;
                }
            },
        };
        leaders.push(Leader {
            id: LeaderId(leaders.len() as u8),
            key,
            name: l.name.clone(),
            name_de: l.name_de.clone().unwrap_or_else(|| l.name.clone()),
            leads,
            country,
        });
    }
    leaders
}

/// Reads what the scenario says beyond units and centres, now that the map is built.
pub(super) fn finish(variant: &mut Variant, chosen: Chosen, problems: &mut Problems<'_>) {
    let map = &variant.map;
    let sc = &chosen.raw;
    let mut special_rules = Vec::new();
    for r in &sc.special_rules {
        match SpecialRule::from_number(r.get_ref()) {
            Some(rule) => special_rules.push(rule),
            None => problems.at(r.span().start, MapProblem::UnknownSpecialRule(r.get_ref().clone())),
        }
    }
    let mut countries = vec![CountryStart::default(); map.countries().len()];
    let mut leaders = Vec::new();
    for c in &sc.country {
        let Some(power) = map
            .countries()
            .iter()
            .find(|p| p.key.eq_ignore_ascii_case(c.id.get_ref()))
            .map(|p| p.id)
        else {
            continue;
        };
        countries[power.index()] = CountryStart {
            political_factors: c.political_factors,
            threshold: c.threshold,
        };

        for text in &c.leaders {
            match leader_start(variant, power, text.get_ref()) {
                Ok(start) => leaders.push(start),
                Err(reason) => problems.at(text.span().start, MapProblem::BadScenario(reason)),
            }
        }
    }
    for (i, c) in countries.iter().enumerate() {
        variant.map.powers[i].threshold = c.threshold.filter(|&t| t > 0);
    }
    let map = &variant.map;
    let garrisons: Vec<Garrison> = chosen
        .garrisons
        .iter()
        .filter_map(|&(span, ref key, ref at)| {
            let location = map.location_by_abbreviation(at);
            let power = map.country_by_key(key)?;
            if location.is_none() {
                problems.at(span, MapProblem::UnknownProvince(at.clone()));
            }
            location.map(|location| Garrison {
                power,
                location,
                home: map.province_of(location),
            })
        })
        .collect();
    let doubles: Vec<ProvinceId> = sc
        .double_centres
        .iter()
        .filter_map(|d| {
            let p = map.province_by_abbreviation(d.get_ref())?;
            if map.province(p).home_of.is_none() {
                let reason = format!("double centre `{}` is no country's home", d.get_ref());
                problems.at(d.span().start, MapProblem::BadScenario(reason));
            }
            Some(p)
        })
        .collect();
    for p in doubles {
        variant.map.provinces[p.index()].double = true;
    }
    let units: Vec<Unit> = variant
        .map
        .countries()
        .iter()
        .flat_map(|p| {
            p.start_units.iter().map(|&(kind, location)| Unit {
                power: p.id,
                kind,
                location,
            })
        })
        .collect();
    let choices = super::choices::read(variant, &sc.choice, &mut leaders, problems);
    variant.scenario = Some(Scenario {
        name: sc.name.get_ref().clone(),
        countries,
        start: RuleState::default(),
        incomplete: sc.incomplete.clone(),
        choices: choices.clone(),
    });
    match RuleState::new(variant, &units, leaders, garrisons, special_rules) {
        Ok(mut start) => {
            start.open(choices);
            let start = start.with_politics(crate::politics::Politics::start(variant));
            if let Some(scenario) = variant.scenario.as_mut() {
                scenario.start = start;
            }
        }
        Err(e) => problems.at(sc.name.span().start, MapProblem::BadScenario(e.to_string())),
    }
}

/// A leader's start written `marlborough net`.
pub(super) fn leader_start(variant: &Variant, power: PowerId, text: &str) -> Result<LeaderPlace, String> {
    let (key, at) = text
        .split_once(' ')
        .ok_or_else(|| format!("leader `{text}`: write the leader and where he stands (`marlborough net`)"))?;
    let leader = variant
        .leaders
        .iter()
        .find(|l| l.key.eq_ignore_ascii_case(key.trim()))
        .ok_or_else(|| format!("unknown leader `{key}`"))?;
    let location: LocationId = variant
        .map
        .location_by_abbreviation(at.trim())
        .ok_or_else(|| format!("leader `{text}`: unknown place `{}`", at.trim()))?;
    Ok(LeaderPlace {
        leader: leader.id,
        power,
        location,
    })
}
