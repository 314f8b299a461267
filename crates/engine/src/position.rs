//! A position: who has which unit where, dislodged units, centre ownership, in one phase.

use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::phase::Phase;
use crate::rule_state::RuleState;
use crate::variant::Variant;

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Its owner.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitType,
    /// Where it stands.
    pub location: LocationId,
}

/// A unit dislodged in the last movement phase, with the places it may retreat to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DislodgedUnit {
    /// The unit, at the location it was dislodged from.
    pub unit: Unit,
    /// Where it may go.
    pub retreats: Vec<LocationId>,
    /// The power of the unit that dislodged it, when known (conditional retreat orders name it).
    pub attacker: Option<PowerId>,
}

/// Everything on the board at one phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The phase to be played.
    pub phase: Phase,
    /// Units on the board (not dislodged).
    pub units: Vec<Unit>,
    /// Units waiting to retreat (retreat phases only).
    pub dislodged: Vec<DislodgedUnit>,
    /// The owner of every province's supply centre, indexed by `ProvinceId` (`None` for neutral
    /// centres and for provinces that are not centres).
    pub owners: Vec<Option<PowerId>>,
    /// Retreat or disband orders chosen from advance retreat orders for dislodged units (retreat
    /// phases); an order sent in the retreat phase itself replaces them.
    pub pending_retreats: Vec<crate::order::Order>,
    /// What the variant's rules keep besides units and centres (leaders, garrisons, special
    /// rules switched on); empty in the standard game.
    pub rules: RuleState,
    /// What the last phases did, for conditional orders (the movement phases of the last game
    /// year and their retreats; see [`crate::history`]).
    pub recent: Vec<crate::history::PhaseFacts>,
}

impl Position {
    /// The opening position of a variant: starting units, home centres owned.
    pub fn initial(variant: &Variant) -> Position {
        let map = &variant.map;
        let mut owners = vec![None; map.provinces().len()];
        let mut units = Vec::new();
        for power in map.countries() {
            for &home in &power.home {
                owners[home.index()] = Some(power.id);
            }
            for &(kind, location) in &power.start_units {
                units.push(Unit {
                    power: power.id,
                    kind,
                    location,
                });
            }
        }
        // The overseas centres of the choices' first sets (5.1.7).
        for choice in variant.scenario.iter().flat_map(|s| &s.choices) {
            for piece in choice.options.first().into_iter().flatten() {
                if let crate::scenario::Piece::Overseas(p) = *piece {
                    owners[p.index()] = Some(choice.power);
                }
            }
        }
        Position {
            phase: variant.start,
            units,
            dislodged: Vec::new(),
            owners,
            pending_retreats: Vec::new(),
            rules: variant.scenario.as_ref().map(|s| s.start.clone()).unwrap_or_default(),
            recent: Vec::new(),
        }
    }

    /// Whether a province is shut in this position: the map marks it shut unless a passage is
    /// open (Hegemony 5.1.5) and the position does not switch the passage on.
    pub fn is_shut(&self, map: &Map, province: ProvinceId) -> bool {
        map.province(province).shut
            && !self
                .rules
                .special_rules()
                .contains(&crate::scenario::SpecialRule::Passage)
    }

    /// The power's home centres it owns with no unit in them (where it may build).
    pub fn free_home_centres<'a>(&'a self, map: &'a Map, power: PowerId) -> impl Iterator<Item = ProvinceId> + 'a {
        map.power(power)
            .home
            .iter()
            .copied()
            .filter(move |&h| self.owners[h.index()] == Some(power) && self.unit_in(map, h).is_none())
    }

    /// The unit standing in a province, if any.
    pub fn unit_in(&self, map: &Map, province: ProvinceId) -> Option<&Unit> {
        let p = map.province(province);
        if p.coasts.is_empty() {
            // One place only: compared as it is, without looking each unit's place up.
            return self.units.iter().find(|u| u.location == p.main);
        }
        self.units.iter().find(|u| map.province_of(u.location) == province)
    }

    /// The supply centres a power owns that count for it (builds and victory): a centre the
    /// variant marks as no centre for that power (Colonial's Hong Kong for China) does not count.
    pub fn centre_count(&self, map: &Map, power: PowerId) -> usize {
        self.owners
            .iter()
            .zip(map.provinces())
            .filter(|&(o, p)| *o == Some(power) && !p.not_centre_for.contains(&power))
            .map(|(_, p)| if p.double && p.home_of == Some(power) { 2 } else { 1 })
            .sum()
    }

    /// [`Position::centre_count`] of every country at once, by `PowerId`: one pass over the
    /// centres.
    pub fn centre_counts(&self, map: &Map) -> Vec<usize> {
        let mut counts = vec![0; map.countries().len()];
        for (owner, p) in self.owners.iter().zip(map.provinces()) {
            let Some(power) = *owner else { continue };
            if p.not_centre_for.contains(&power) {
                continue;
            }
            if let Some(count) = counts.get_mut(power.index()) {
                *count += if p.double && p.home_of == Some(power) { 2 } else { 1 };
            }
        }
        counts
    }

    /// This position with other units on the board and dislodged, and no retreats chosen: the
    /// board after a movement phase, the rest cloned (the units are not).
    pub fn with_units(&self, units: Vec<Unit>, dislodged: Vec<DislodgedUnit>) -> Position {
        Position {
            phase: self.phase,
            units,
            dislodged,
            owners: self.owners.clone(),
            pending_retreats: Vec::new(),
            rules: self.rules.clone(),
            recent: self.recent.clone(),
        }
    }

    /// The dislodged unit of a province, if any.
    pub fn dislodged_in(&self, map: &Map, province: ProvinceId) -> Option<&DislodgedUnit> {
        self.dislodged
            .iter()
            .find(|d| map.province_of(d.unit.location) == province)
    }
}
