//! A variant: its map plus the rules that are data (start, victory), and the built-in variants.

use crate::map::Map;
#[cfg(test)]
use crate::map::load::load_variant;
use crate::map::load::{MapErrors, load_scenario};
use crate::phase::{Phase, PhaseKind, Season};

/// A playable variant: map, powers, first phase and victory condition.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short name (`standard`).
    pub name: String,
    /// English title.
    pub title: String,
    /// German title.
    pub title_de: String,
    /// The first phase of a game.
    pub start: Phase,
    /// Supply centres a power needs to win.
    pub victory_centres: u32,
    /// When movement turns and adjustments happen.
    pub calendar: Calendar,
    /// Other calendars a game may choose (Colonial: the original spring and fall years).
    pub calendars: Vec<NamedCalendar>,
    /// The other calendar this variant plays with, if one was chosen ([`Variant::with_calendar`]);
    /// written into every state as the option `calendar`.
    pub calendar_choice: Option<String>,
    /// The map with its powers.
    pub map: Map,
    /// The rules the variant names besides the standard ones, in the order the pipeline calls
    /// them (see [`crate::rules`]).
    pub rules: Vec<crate::rules::RuleName>,
    /// The leaders the variant knows (Hegemony), by `LeaderId`.
    pub leaders: Vec<crate::scenario::Leader>,
    /// The scenario played, for a variant file with scenarios.
    pub scenario: Option<crate::scenario::Scenario>,
    /// What the scenario rules act on (Hegemony 5.1; empty elsewhere).
    pub special_places: crate::scenario::SpecialPlaces,
}

impl Variant {
    /// The variant played with its other calendar `name` (a game option), if it has one.
    pub fn with_calendar(&self, name: &str) -> Option<Variant> {
        let chosen = self.calendars.iter().find(|c| c.name.eq_ignore_ascii_case(name))?;
        Some(Variant {
            calendar: chosen.calendar.clone(),
            calendar_choice: Some(chosen.name.clone()),
            ..self.clone()
        })
    }

    /// What its data lacks for a game to be played on it, if anything (a Hegemony scenario the
    /// rules give only as a table of its neutral countries).
    pub fn incomplete(&self) -> Option<&str> {
        self.scenario.as_ref().and_then(|s| s.incomplete.as_deref())
    }
}

/// When a variant's turns happen: the movement seasons of a year, the years between two cycles,
/// and the years after whose last movement turn centres change owner and adjustments are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    /// Movement seasons within one year, in order (standard: spring, fall).
    pub seasons: Vec<Season>,
    /// Years from one cycle of seasons to the next (standard 1; Colonial 2).
    pub year_step: i32,
    /// The first year with centre ownership and adjustments.
    pub first_adjustment_year: i32,
    /// Years between adjustment years (standard 1; Colonial 4).
    pub adjustment_interval: i32,
    /// The names of its seasons where they are not spring, fall and winter (Colonial's two-year
    /// turn): season, English, German.
    pub names: Vec<(Season, String, String)>,
}

/// A calendar a game may choose instead of the variant's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedCalendar {
    /// Its name, as the game option gives it (`original`).
    pub name: String,
    /// What it is, in English.
    pub title: String,
    /// What it is, in German.
    pub title_de: String,
    /// The calendar.
    pub calendar: Calendar,
}

impl Calendar {
    /// The standard calendar starting in `year`: spring and fall, adjustments every year.
    pub fn standard(year: i32) -> Calendar {
        Calendar {
            seasons: vec![Season::Spring, Season::Fall],
            year_step: 1,
            first_adjustment_year: year,
            adjustment_interval: 1,
            names: Vec::new(),
        }
    }

    /// The name of a season in this calendar, if it has its own (English or German).
    pub fn season_name(&self, season: Season, german: bool) -> Option<&str> {
        self.names
            .iter()
            .find(|(s, _, _)| *s == season)
            .map(|(_, en, de)| if german { de.as_str() } else { en.as_str() })
    }

    /// Whether the movement turn of this season and year ends with centre ownership and adjustments.
    pub fn adjusts_after(&self, season: Season, year: i32) -> bool {
        self.seasons.last() == Some(&season)
            && year >= self.first_adjustment_year
            && (year - self.first_adjustment_year) % self.adjustment_interval.max(1) == 0
    }

    /// Whether the calendar has this phase at all (a heading for a later phase is checked with it).
    pub fn has_phase(&self, phase: Phase) -> bool {
        let on_cycle = (phase.year - self.first_adjustment_year).rem_euclid(self.year_step.max(1)) == 0;
        match phase.kind {
            PhaseKind::Movement | PhaseKind::Retreat => on_cycle && self.seasons.contains(&phase.season),
            PhaseKind::Adjustment => {
                phase.season == Season::Winter
                    && self
                        .seasons
                        .last()
                        .is_some_and(|&last| self.adjusts_after(last, phase.year))
            }
        }
    }

    /// The next movement turn after the one of `season` in `year`.
    pub fn next_turn(&self, season: Season, year: i32) -> (Season, i32) {
        match self.seasons.iter().position(|&s| s == season) {
            Some(i) if i + 1 < self.seasons.len() => (self.seasons[i + 1], year),
            _ => (
                self.seasons.first().copied().unwrap_or(Season::Spring),
                year + self.year_step.max(1),
            ),
        }
    }
}

/// The Hegemony file, whose scenarios are built-in variants of their own.
const HEGEMONY: &str = include_str!("../../../variants/hegemony/variant.toml");

/// The variant files compiled into the engine, by name: (name, directory, text, scenario).
const BUILTIN: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "standard",
        "standard",
        include_str!("../../../variants/standard/variant.toml"),
        None,
    ),
    (
        "ancmed",
        "ancmed",
        include_str!("../../../variants/ancmed/variant.toml"),
        None,
    ),
    (
        "colonial",
        "colonial",
        include_str!("../../../variants/colonial/variant.toml"),
        None,
    ),
    ("hegemony-1689", "hegemony", HEGEMONY, Some("1689")),
    ("hegemony-1701", "hegemony", HEGEMONY, Some("1701")),
    ("hegemony-1741", "hegemony", HEGEMONY, Some("1741")),
    ("hegemony-1757", "hegemony", HEGEMONY, Some("1757")),
    ("hegemony-1792", "hegemony", HEGEMONY, Some("1792")),
    ("hegemony-1805", "hegemony", HEGEMONY, Some("1805")),
];

/// Per built-in variant, in table order: whether its data says it is incomplete (its file says
/// what is missing: it loads, but no game can be played on it). Read once per process.
fn incompleteness() -> &'static [(&'static str, bool)] {
    static READ: std::sync::OnceLock<Vec<(&'static str, bool)>> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|&(name, dir, text, scenario)| {
                let loaded = load_scenario(&format!("variants/{dir}/variant.toml"), text, scenario);
                (name, loaded.is_ok_and(|v| v.incomplete().is_some()))
            })
            .collect()
    })
}

/// The names of the built-in variants that can be played.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    incompleteness().iter().filter(|(_, inc)| !inc).map(|(name, _)| *name)
}

/// The names of the built-in variants whose data is incomplete (see [`Variant::incomplete`]).
pub fn incomplete_builtin_names() -> impl Iterator<Item = &'static str> {
    incompleteness().iter().filter(|(_, inc)| *inc).map(|(name, _)| *name)
}

/// Loads a built-in variant by name; `None` if there is no such variant.
pub fn builtin(name: &str) -> Option<Result<Variant, MapErrors>> {
    BUILTIN
        .iter()
        .find(|(n, ..)| n.eq_ignore_ascii_case(name))
        .map(|(_, dir, text, scenario)| load_scenario(&format!("variants/{dir}/variant.toml"), text, *scenario))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_only_hegemony_scenarios_load_with_their_neutrals_and_say_what_they_lack() {
        let incomplete: Vec<_> = incomplete_builtin_names().collect();
        assert_eq!(
            incomplete,
            ["hegemony-1741", "hegemony-1757", "hegemony-1792", "hegemony-1805"]
        );
        for name in builtin_names().chain(incomplete_builtin_names()) {
            let v = builtin(name).expect("built in").expect("loads");
            assert_eq!(v.incomplete().is_some(), incomplete.contains(&name), "{name}");
        }
        let v = builtin("hegemony-1741").expect("built in").expect("loads");
        let map = &v.map;
        let turkey = map.country_by_key("turkey").expect("Turkey");
        let units = crate::Position::initial(&v).units;
        assert_eq!(units.iter().filter(|u| u.power == turkey).count(), 4, "Turkey 4/10");
        let scenario = v.scenario.as_ref().expect("a scenario");
        assert_eq!(scenario.countries[turkey.index()].threshold, Some(10));
        let on = scenario.start.special_rules();
        assert!(on.contains(&crate::scenario::SpecialRule::MutualDefence), "{on:?}");
        let v = builtin("hegemony-1757").expect("built in").expect("loads");
        let belgium = v.map.country_by_key("belgium").expect("Belgium");
        let bel = v.map.province_by_abbreviation("bel").expect("bel");
        assert_eq!(
            v.map.province(bel).home_of,
            Some(belgium),
            "a `0` country owns its centre"
        );
        assert!(
            !crate::Position::initial(&v).units.iter().any(|u| u.power == belgium),
            "and no unit"
        );
    }

    #[test]
    fn the_standard_calendar_adjusts_after_every_fall() {
        let c = Calendar::standard(1901);
        assert_eq!(c.next_turn(Season::Spring, 1901), (Season::Fall, 1901));
        assert_eq!(c.next_turn(Season::Fall, 1901), (Season::Spring, 1902));
        assert!(!c.adjusts_after(Season::Spring, 1901));
        assert!(c.adjusts_after(Season::Fall, 1901) && c.adjusts_after(Season::Fall, 1902));
    }

    #[test]
    fn a_two_year_calendar_adjusts_every_second_turn() {
        // Colonial: one movement turn every two years from 1870, adjustments in 1872, 1876, ...
        let c = Calendar {
            seasons: vec![Season::Spring],
            year_step: 2,
            first_adjustment_year: 1872,
            adjustment_interval: 4,
            names: Vec::new(),
        };
        assert_eq!(c.next_turn(Season::Spring, 1870), (Season::Spring, 1872));
        let adjusting: Vec<i32> = (1870..1882)
            .step_by(2)
            .filter(|&y| c.adjusts_after(Season::Spring, y))
            .collect();
        assert_eq!(adjusting, [1872, 1876, 1880]);
    }

    #[test]
    fn a_calendar_is_read_from_the_variant_file() {
        let text = include_str!("../../../variants/standard/variant.toml").replace(
            "victory_centres = 18\n",
            "victory_centres = 18\n\n[variant.calendar]\nseasons = [\"spring\"]\nyear_step = 2\nfirst_adjustment_year = 1903\nadjustment_interval = 4\n",
        );
        let v = load_variant("calendar.toml", &text).expect("valid");
        assert_eq!(v.calendar.seasons, vec![Season::Spring]);
        assert_eq!(
            (
                v.calendar.year_step,
                v.calendar.first_adjustment_year,
                v.calendar.adjustment_interval
            ),
            (2, 1903, 4)
        );
    }
}
