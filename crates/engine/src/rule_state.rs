//! What a variant's rules keep in a position besides units and centres: Hegemony's leaders on the
//! board, its garrisons, and the special rules a position switches on. Its fields are private:
//! a state read from outside (the JSON interchange, a scenario) becomes a [`RuleState`] only
//! through [`RuleState::new`], which checks it against the variant and the units, so a rule
//! module never meets a leader standing with a foreign unit or a garrison without its army.

use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::{Map, Terrain};
use crate::position::Unit;
use crate::scenario::{LeaderId, SpecialRule};
use crate::variant::Variant;

/// A leader on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderPlace {
    /// Which leader.
    pub leader: LeaderId,
    /// His country.
    pub power: PowerId,
    /// Where he stands (a province's main location).
    pub location: LocationId,
}

/// A leader displaced by a unit of another country, waiting to retreat (3.1.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisplacedLeader {
    /// The leader and where he was displaced.
    pub place: LeaderPlace,
    /// Where he may retreat (provinces' main locations), before the units' retreats are known:
    /// a retreat there is still refused if a unit of another country or a standoff of retreating
    /// units ends there (3.1.6.3).
    pub retreats: Vec<LocationId>,
}

/// A garrison (Hegemony 5.1.4): an army that may only hold while in its home province, and tries
/// to take it back once driven out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Garrison {
    /// Its country.
    pub power: PowerId,
    /// Where its army stands.
    pub location: LocationId,
    /// The province it garrisons.
    pub home: ProvinceId,
}

impl Garrison {
    /// Whether the garrison stands in its home province.
    pub fn at_home(&self, variant: &Variant) -> bool {
        variant.map.province_of(self.location) == self.home
    }
}

/// The rules' part of a position (empty in the standard game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleState {
    leaders: Vec<LeaderPlace>,
    displaced: Vec<DisplacedLeader>,
    garrisons: Vec<Garrison>,
    special_rules: Vec<SpecialRule>,
    choices: Vec<crate::scenario::Choice>,
    politics: crate::politics::Politics,
    house: crate::house_rules::HouseRules,
}

/// Why a rule state does not fit the variant or the units.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleStateError {
    /// A leader placed twice.
    #[error("the leader {0} is placed twice")]
    LeaderTwice(String),
    /// A leader with a unit of another country (3.1.2.2).
    #[error("the leader {leader} cannot stand in {place} with a unit of another country")]
    LeaderWithForeignUnit {
        /// The leader's name.
        leader: String,
        /// The place.
        place: String,
    },
    /// A leader at sea without a fleet of his country under him (3.1.2.4).
    #[error("the leader {leader} can be at sea in {place} only with a fleet of his country")]
    LeaderAtSea {
        /// The leader's name.
        leader: String,
        /// The place.
        place: String,
    },
    /// A displaced leader with a sea among his retreats, or displaced where no unit of
    /// another country stands.
    #[error("the leader {0} cannot retreat as given")]
    BadLeaderRetreat(String),
    /// A garrison whose army is not on the board.
    #[error("the garrison in {0} is no army on the board")]
    GarrisonWithoutArmy(String),
    /// Two garrisons for one army.
    #[error("{0} has two garrisons")]
    GarrisonTwice(String),
    /// A garrison whose home is a sea.
    #[error("the garrison in {0} has a sea as its home")]
    GarrisonAtSea(String),
    /// A leader placed for a country that is not his.
    #[error("the leader {0} belongs to another country")]
    LeaderOfAnotherCountry(String),
    /// Garrisons or special rules in a variant that has none.
    #[error("the variant {0} has no garrisons and no special rules")]
    NoSuchRules(String),
}

impl RuleState {
    /// A rule state, checked: every leader once, of his own country, not with a foreign unit, at
    /// sea only on a fleet of his country; every garrison an army of its country on the board
    /// (`units`, dislodged ones included), once, with a home on land; garrisons and special rules
    /// only in a variant with scenarios.
    pub fn new(
        variant: &Variant,
        units: &[Unit],
        leaders: Vec<LeaderPlace>,
        garrisons: Vec<Garrison>,
        mut special_rules: Vec<SpecialRule>,
    ) -> Result<RuleState, RuleStateError> {
        let map = &variant.map;
        let place = |l: LocationId| map.location_abbreviation(l).to_ascii_uppercase();
        let name = |l: &LeaderPlace| {
            variant
                .leaders
                .get(l.leader.index())
                .map_or_else(String::new, |x| x.name.clone())
        };
        let mut leaders = leaders;
        for l in &mut leaders {
            l.location = map.province(map.province_of(l.location)).main;
        }
        for (i, l) in leaders.iter().enumerate() {
            if leaders[..i].iter().any(|m| m.leader == l.leader) {
                return Err(RuleStateError::LeaderTwice(name(l)));
            }
            let country = variant.leaders.get(l.leader.index()).and_then(|x| x.country);
            if country.is_some_and(|c| c != l.power) {
                return Err(RuleStateError::LeaderOfAnotherCountry(name(l)));
            }
            match misplaced(map, units, l) {
                Some(Misplaced::WithForeignUnit) => {
                    return Err(RuleStateError::LeaderWithForeignUnit {
                        leader: name(l),
                        place: place(l.location),
                    });
                }
                Some(Misplaced::AloneAtSea) => {
                    return Err(RuleStateError::LeaderAtSea {
                        leader: name(l),
                        place: place(l.location),
                    });
                }
                None => {}
            }
        }
        for (i, g) in garrisons.iter().enumerate() {
            let province = map.province_of(g.location);
            if !has_army(map, units, g) {
                return Err(RuleStateError::GarrisonWithoutArmy(place(g.location)));
            }
            if garrisons[..i].iter().any(|h| map.province_of(h.location) == province) {
                return Err(RuleStateError::GarrisonTwice(place(g.location)));
            }
            if map.province(g.home).terrain == Terrain::Sea {
                return Err(RuleStateError::GarrisonAtSea(place(g.location)));
            }
        }
        if variant.scenario.is_none() && !(garrisons.is_empty() && special_rules.is_empty()) {
            return Err(RuleStateError::NoSuchRules(variant.name.clone()));
        }
        special_rules.sort();
        special_rules.dedup();
        Ok(RuleState {
            leaders,
            displaced: Vec::new(),
            garrisons,
            special_rules,
            choices: Vec::new(),
            politics: crate::politics::Politics::default(),
            house: crate::house_rules::HouseRules::default(),
        })
    }

    /// The leaders on the board (the displaced ones not among them).
    pub fn leaders(&self) -> &[LeaderPlace] {
        &self.leaders
    }

    /// This state with leaders displaced and waiting to retreat, checked: each leader once among
    /// all, of his country, where a unit of another country stands, with retreats on land only.
    pub fn with_displaced(
        mut self,
        variant: &Variant,
        units: &[Unit],
        displaced: Vec<DisplacedLeader>,
    ) -> Result<RuleState, RuleStateError> {
        let map = &variant.map;
        let name = |l: &LeaderPlace| {
            variant
                .leaders
                .get(l.leader.index())
                .map_or_else(String::new, |x| x.name.clone())
        };
        for (i, d) in displaced.iter().enumerate() {
            let l = &d.place;
            let twice = self
                .leaders
                .iter()
                .chain(displaced[..i].iter().map(|e| &e.place))
                .any(|m| m.leader == l.leader);
            if twice {
                return Err(RuleStateError::LeaderTwice(name(l)));
            }
            if variant
                .leaders
                .get(l.leader.index())
                .and_then(|x| x.country)
                .is_some_and(|c| c != l.power)
            {
                return Err(RuleStateError::LeaderOfAnotherCountry(name(l)));
            }
            let at_sea = d
                .retreats
                .iter()
                .any(|&r| map.province(map.province_of(r)).terrain == Terrain::Sea);
            let with_foreign = matches!(misplaced(map, units, l), Some(Misplaced::WithForeignUnit));
            if at_sea || !with_foreign {
                return Err(RuleStateError::BadLeaderRetreat(name(l)));
            }
        }
        self.displaced = displaced;
        Ok(self)
    }

    /// The leaders displaced and waiting to retreat (a retreat phase).
    pub fn displaced_leaders(&self) -> &[DisplacedLeader] {
        &self.displaced
    }

    /// The displaced leader in a province, of the given power if one is given.
    pub fn displaced_in(&self, map: &Map, province: ProvinceId, power: Option<PowerId>) -> Option<&DisplacedLeader> {
        self.displaced
            .iter()
            .find(|d| map.province_of(d.place.location) == province && power.is_none_or(|p| p == d.place.power))
    }

    /// Records the leaders displaced by the phase just adjudicated (the leaders rule does).
    pub(crate) fn set_displaced(&mut self, displaced: Vec<DisplacedLeader>) {
        self.displaced = displaced;
    }

    /// The leader standing in a province, of the given power if one is given (a country has at
    /// most one leader in a province).
    pub fn leader_in(&self, map: &Map, province: ProvinceId, power: Option<PowerId>) -> Option<LeaderPlace> {
        self.leaders
            .iter()
            .find(|l| map.province_of(l.location) == province && power.is_none_or(|p| p == l.power))
            .copied()
    }

    /// Puts the leaders where the leaders rule moved them (it keeps them with their units).
    pub(crate) fn set_leaders(&mut self, leaders: Vec<LeaderPlace>) {
        self.leaders = leaders;
    }

    /// The garrisons.
    pub fn garrisons(&self) -> &[Garrison] {
        &self.garrisons
    }

    /// The special rules switched on, in the order of their numbers.
    pub fn special_rules(&self) -> &[SpecialRule] {
        &self.special_rules
    }

    /// The politics: political factors, influence, control (Hegemony 1.1).
    pub fn politics(&self) -> &crate::politics::Politics {
        &self.politics
    }

    /// This state with its politics (checked by [`crate::politics::Politics::new`]).
    pub fn with_politics(mut self, politics: crate::politics::Politics) -> RuleState {
        self.politics = politics;
        self
    }

    /// The house rules the game is played with.
    pub fn house(&self) -> crate::house_rules::HouseRules {
        self.house
    }

    /// This state with the house rules of its game.
    pub fn with_house(mut self, house: crate::house_rules::HouseRules) -> RuleState {
        self.house = house;
        self
    }

    /// The politics, for the rule that changes them in winter.
    pub(crate) fn politics_mut(&mut self) -> &mut crate::politics::Politics {
        &mut self.politics
    }

    /// Whether a player controls the country: one plays it, or (Hegemony 1.1) a player
    /// controls the neutral alone or jointly.
    pub fn controlled(&self, map: &Map, country: PowerId) -> bool {
        map.is_player(country) || !self.politics.controllers(country).is_empty()
    }

    /// The choices still open (5.1.7): the scenario's, in its first phase only.
    pub fn open_choices(&self) -> &[crate::scenario::Choice] {
        &self.choices
    }

    /// Opens the scenario's choices (its first phase; the loader and the JSON reader do).
    pub(crate) fn open(&mut self, choices: Vec<crate::scenario::Choice>) {
        self.choices = choices;
    }

    /// Whether nothing is recorded (the standard game).
    pub fn is_empty(&self) -> bool {
        self.leaders.is_empty()
            && self.displaced.is_empty()
            && self.garrisons.is_empty()
            && self.special_rules.is_empty()
            && self.choices.is_empty()
            && self.politics.is_empty()
            && self.house == crate::house_rules::HouseRules::default()
    }

    /// Moves the garrisons with their armies (`moves`: power, from → to).
    pub(crate) fn follow_moves(&mut self, variant: &Variant, moves: &[(PowerId, LocationId, LocationId)]) {
        let map = &variant.map;
        for g in &mut self.garrisons {
            let from = map.province_of(g.location);
            let moved = moves
                .iter()
                .find(|&&(power, f, _)| power == g.power && map.province_of(f) == from);
            if let Some(&(_, _, to)) = moved {
                g.location = to;
            }
        }
    }

    /// After a phase: closes the choices of the first phase (5.1.7.3), drops the garrisons whose
    /// army is gone (disbanded, or not retreated), and the leaders who can no longer stand where
    /// they are — with a unit of another country
    /// (3.1.2.2) or alone at sea (3.1.2.4: "the leader is dissolved"). `units` are those on the
    /// board, `dislodged` those waiting to retreat. The leaders rule has already taken displaced
    /// leaders off the board into [`RuleState::displaced_leaders`]; this is the last guard.
    pub(crate) fn settle(&mut self, variant: &Variant, units: &[Unit], dislodged: &[Unit]) {
        let map = &variant.map;
        self.choices.clear();
        self.garrisons
            .retain(|g| has_army(map, units, g) || has_army(map, dislodged, g));
        self.leaders.retain(|l| misplaced(map, units, l).is_none());
    }
}

/// Why a leader cannot stand where he is.
pub(crate) enum Misplaced {
    /// A unit of another country stands there (3.1.2.2).
    WithForeignUnit,
    /// At sea without a fleet of his country (3.1.2.4).
    AloneAtSea,
}

/// Whether (and why) a leader cannot stand where he is among these units.
pub(crate) fn misplaced(map: &Map, units: &[Unit], l: &LeaderPlace) -> Option<Misplaced> {
    let province = map.province_of(l.location);
    let here = units.iter().find(|u| map.province_of(u.location) == province);
    if here.is_some_and(|u| u.power != l.power) {
        return Some(Misplaced::WithForeignUnit);
    }
    let own_fleet = here.is_some_and(|u| u.kind == UnitType::Fleet);
    (map.province(province).terrain == Terrain::Sea && !own_fleet).then_some(Misplaced::AloneAtSea)
}

/// Whether the garrison's army (of its country, where it stands) is among these units.
fn has_army(map: &Map, units: &[Unit], g: &Garrison) -> bool {
    let province = map.province_of(g.location);
    units
        .iter()
        .any(|u| u.kind == UnitType::Army && u.power == g.power && map.province_of(u.location) == province)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn hegemony() -> Variant {
        crate::variant::builtin("hegemony-1701")
            .expect("built in")
            .expect("loads")
    }

    #[test]
    fn a_leader_may_not_stand_with_a_foreign_unit_nor_alone_at_sea() {
        let v = hegemony();
        let start = Position::initial(&v);
        let at = |abbr: &str| v.map.location_by_abbreviation(abbr).expect("place");
        let england = v.map.power_by_name("England").expect("england");
        let marlborough = LeaderId(0);
        let place = |loc| LeaderPlace {
            leader: marlborough,
            power: england,
            location: at(loc),
        };
        let ok = RuleState::new(&v, &start.units, vec![place("net")], Vec::new(), Vec::new());
        assert_eq!(ok.map(|s| s.leaders().len()), Ok(1));
        let foreign = RuleState::new(&v, &start.units, vec![place("bel")], Vec::new(), Vec::new());
        assert!(matches!(foreign, Err(RuleStateError::LeaderWithForeignUnit { .. })));
        let at_sea = RuleState::new(&v, &start.units, vec![place("nth")], Vec::new(), Vec::new());
        assert!(matches!(at_sea, Err(RuleStateError::LeaderAtSea { .. })));
        let twice = RuleState::new(
            &v,
            &start.units,
            vec![place("net"), place("lon")],
            Vec::new(),
            Vec::new(),
        );
        assert!(matches!(twice, Err(RuleStateError::LeaderTwice(_))));
    }

    #[test]
    fn a_garrison_needs_its_army_on_the_board() {
        let v = hegemony();
        let start = Position::initial(&v);
        let lib = v.map.location_by_abbreviation("lib").expect("lib");
        let turkey = v.map.power_by_name("Turkey").expect("turkey");
        let garrison = Garrison {
            power: turkey,
            location: lib,
            home: v.map.province_of(lib),
        };
        let missing = RuleState::new(&v, &start.units, Vec::new(), vec![garrison], Vec::new());
        assert!(matches!(missing, Err(RuleStateError::GarrisonWithoutArmy(_))));
    }
}
