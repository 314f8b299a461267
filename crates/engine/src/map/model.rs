//! The geography and politics of a variant after loading: provinces, locations, adjacency, powers.

use crate::ids::{Coast, LocationId, PowerId, ProvinceId, UnitType};
use crate::map::names::{NameIndex, name_key};

/// What kind of space a province is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Inland: armies only.
    Land,
    /// Land with a coast: armies, and fleets along the coast.
    Coast,
    /// Open water: fleets only.
    Sea,
    /// No unit may enter (Switzerland).
    Impassable,
}

/// A province: a named space on the board.
#[derive(Clone, Debug)]
pub struct Province {
    /// Its id.
    pub id: ProvinceId,
    /// The short lower-case abbreviation (`bul`), unique in the map.
    pub abbreviation: String,
    /// English name.
    pub name: String,
    /// German name.
    pub name_de: String,
    /// Further names accepted when reading orders.
    pub aliases: Vec<String>,
    /// Its terrain.
    pub terrain: Terrain,
    /// Whether it is a supply centre.
    pub centre: bool,
    /// Whether a fleet here may convoy (every sea, and ports the variant names).
    pub convoys: bool,
    /// The power whose home centre this is, if any.
    pub home_of: Option<PowerId>,
    /// Powers for which this supply centre does not count (builds, victory), though they may
    /// hold it and own it (Colonial: Hong Kong for China).
    pub not_centre_for: Vec<PowerId>,
    /// Powers that may build a fleet here though it is no home centre of theirs (Hegemony 3.2:
    /// Austria in Dalmatia, Russia in Azov), one a winter, where it stands empty, is owned if it
    /// is a centre, and an own home centre is left empty by the other builds.
    pub fleet_build_for: Vec<PowerId>,
    /// Whether the centre counts twice for the country whose home it is (Hegemony 2.3: Sweden
    /// in 1701), once for anyone else.
    pub double: bool,
    /// Whether it is shut unless a position opens its passage (Hegemony 5.1.5: Switzerland is
    /// an ordinary land province only where a scenario says so, impassable elsewhere).
    pub shut: bool,
    /// The location of the province as a whole (where armies stand, and fleets unless the coast is split).
    pub main: LocationId,
    /// The coasts of a split-coast province (empty otherwise).
    pub coasts: Vec<LocationId>,
}

impl Province {
    /// Whether fleets stand on named coasts here rather than in the province as a whole.
    pub fn has_split_coast(&self) -> bool {
        !self.coasts.is_empty()
    }
}

/// A place one unit can stand: a whole province or one coast of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The province it belongs to.
    pub province: ProvinceId,
    /// The coast, for a coast of a split-coast province.
    pub coast: Option<Coast>,
    /// Whether an army can stand here.
    pub army: bool,
    /// Whether a fleet can stand here.
    pub fleet: bool,
}

impl Location {
    /// Whether a unit of this type can stand here.
    pub fn allows(&self, unit: UnitType) -> bool {
        match unit {
            UnitType::Army => self.army,
            UnitType::Fleet => self.fleet,
        }
    }
}

/// A power of a variant.
#[derive(Clone, Debug)]
pub struct Power {
    /// Its id.
    pub id: PowerId,
    /// Whether its units need supply centres (not so Hegemony's Polish army, 5.1.1).
    pub needs_supply: bool,
    /// Lower-case key used in data files (`austria`); upper-cased in the JSON interchange.
    pub key: String,
    /// English name.
    pub name: String,
    /// German name.
    pub name_de: String,
    /// English adjective ("Austrian").
    pub adjective: String,
    /// German adjective ("österreichisch").
    pub adjective_de: String,
    /// Further names accepted when reading orders.
    pub aliases: Vec<String>,
    /// The initial drawn on its units.
    pub letter: char,
    /// Its colour on maps, as `#rrggbb`.
    pub colour: String,
    /// Its home supply centres.
    pub home: Vec<ProvinceId>,
    /// Its units at the start of the game.
    pub start_units: Vec<(UnitType, LocationId)>,
    /// The political factors a player needs in it to activate it (Hegemony 1.1.2: a neutral
    /// country of the scenario with units); `None` elsewhere.
    pub threshold: Option<u32>,
    /// The countries it may never control, alone or jointly (Hegemony 1.1.7: Turkey never
    /// Russia; Russia and Austria never Turkey); its influence there still counts.
    pub never_controls: Vec<PowerId>,
    /// Its capital, where the variant names one (Hegemony 4.3.1.5).
    pub capital: Option<ProvinceId>,
}

/// A square bit matrix over locations: row `a` has bit `b` set when `a` touches `b`.
#[derive(Clone, Debug)]
pub(crate) struct BitMatrix {
    words: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    pub(crate) fn new(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64).max(1);
        BitMatrix {
            words,
            bits: vec![0; rows * words],
        }
    }

    pub(crate) fn set(&mut self, row: usize, col: usize) {
        self.bits[row * self.words + col / 64] |= 1 << (col % 64);
    }

    pub(crate) fn get(&self, row: usize, col: usize) -> bool {
        self.bits
            .get(row * self.words + col / 64)
            .is_some_and(|w| w & (1 << (col % 64)) != 0)
    }
}

/// A loaded, validated map: provinces, locations, adjacency per unit type, powers and names.
#[derive(Clone, Debug)]
pub struct Map {
    pub(crate) provinces: Vec<Province>,
    pub(crate) locations: Vec<Location>,
    /// Every country: the players first, then countries no player plays (neutrals).
    pub(crate) powers: Vec<Power>,
    /// How many of `powers` are played.
    pub(crate) player_count: usize,
    /// Neighbour lists per location, for armies and for fleets.
    pub(crate) army_neighbours: Vec<Vec<LocationId>>,
    pub(crate) fleet_neighbours: Vec<Vec<LocationId>>,
    /// Location × location adjacency bits, for armies and for fleets.
    pub(crate) army_adjacent: BitMatrix,
    pub(crate) fleet_adjacent: BitMatrix,
    /// Location × province: a fleet here can move into some coast of that province.
    pub(crate) fleet_reaches: BitMatrix,
    /// Per province: the bodies of convoying water it touches (for army moves by convoy).
    pub(crate) convoy_waters: Vec<Vec<u16>>,
    /// Per province: the convoying provinces from which a fleet could move into some part of it
    /// (derived from the adjacency above once the map is built).
    pub(crate) convoy_neighbours: Vec<Vec<ProvinceId>>,
    pub(crate) names: NameIndex,
    /// Canals: a province through which fleets pass between two waters in one move, with the
    /// leave of the unit holding it (Colonial's Suez canal).
    pub(crate) canals: Vec<Canal>,
    /// Railroads one power's armies ride in one move (Colonial's Trans-Siberian Railroad).
    pub(crate) railroads: Vec<Railroad>,
    /// The words that name a province plainly, for reading the commonest lines at once
    /// (derived from the names, railroads and provinces above once they are all known).
    pub(crate) plain_places: crate::order::direct::PlainPlaces,
}

/// A railroad: a line of provinces one power's armies may ride along in one move, stopping
/// before a blocked province (Colonial's Trans-Siberian Railroad).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Railroad {
    /// Its name ("Trans-Siberian Railroad").
    pub name: String,
    /// The short name written in orders and printed (`TSR`).
    pub abbreviation: String,
    /// The folded names an order may use for it.
    pub keys: Vec<String>,
    /// The only power that may use it.
    pub power: PowerId,
    /// The provinces along the line, in order.
    pub route: Vec<ProvinceId>,
}

/// A canal through a province between two fleet locations (Colonial's Suez canal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canal {
    /// The province the canal runs through.
    pub province: ProvinceId,
    /// The two waters it joins.
    pub ends: [LocationId; 2],
}

impl Map {
    /// All provinces, indexed by `ProvinceId`.
    pub fn provinces(&self) -> &[Province] {
        &self.provinces
    }

    /// All locations, indexed by `LocationId`.
    pub fn locations(&self) -> &[Location] {
        &self.locations
    }

    /// The powers the players play, indexed by `PowerId` (the first ids).
    pub fn powers(&self) -> &[Power] {
        &self.powers[..self.player_count.min(self.powers.len())]
    }

    /// Every country that can have units or centres: the players' powers, then the countries no
    /// player plays (Hegemony's neutrals, and a country of one army such as its Polish army).
    pub fn countries(&self) -> &[Power] {
        &self.powers
    }

    /// The country (a player's power or not) with this data key (`austria`, any case), as the
    /// JSON interchange and variant files name it.
    pub fn country_by_key(&self, key: &str) -> Option<PowerId> {
        self.powers
            .iter()
            .find(|p| p.key.eq_ignore_ascii_case(key))
            .map(|p| p.id)
    }

    /// Whether a player plays this country.
    pub fn is_player(&self, id: PowerId) -> bool {
        id.index() < self.player_count
    }

    /// One province.
    pub fn province(&self, id: ProvinceId) -> &Province {
        &self.provinces[id.index()]
    }

    /// One location.
    pub fn location(&self, id: LocationId) -> &Location {
        &self.locations[id.index()]
    }

    /// One country (a player's power or not).
    pub fn power(&self, id: PowerId) -> &Power {
        &self.powers[id.index()]
    }

    /// The province a location belongs to.
    pub fn province_of(&self, location: LocationId) -> ProvinceId {
        self.locations[location.index()].province
    }

    /// The location of a province's given coast, if it has that coast.
    pub fn coast_of(&self, province: ProvinceId, coast: Coast) -> Option<LocationId> {
        self.provinces[province.index()]
            .coasts
            .iter()
            .copied()
            .find(|&l| self.locations[l.index()].coast == Some(coast))
    }

    /// The province with this abbreviation (`"bul"`, any case).
    pub fn province_by_abbreviation(&self, abbreviation: &str) -> Option<ProvinceId> {
        self.provinces
            .iter()
            .find(|p| p.abbreviation.eq_ignore_ascii_case(abbreviation))
            .map(|p| p.id)
    }

    /// The location written `bul`, `bul/ec` (any case).
    pub fn location_by_abbreviation(&self, text: &str) -> Option<LocationId> {
        match text.split_once('/') {
            None => self.province_by_abbreviation(text).map(|p| self.province(p).main),
            Some((p, c)) => {
                let province = self.province_by_abbreviation(p)?;
                self.coast_of(province, Coast::from_abbreviation(c)?)
            }
        }
    }

    /// The province named by any of its names or aliases (English or German, any case/spacing).
    pub fn province_by_name(&self, name: &str) -> Option<ProvinceId> {
        self.names.province(&name_key(name))
    }

    /// The power named by its key, name, adjective or alias (English or German).
    pub fn power_by_name(&self, name: &str) -> Option<PowerId> {
        self.names.power(&name_key(name))
    }

    /// The index of names used by the order reader.
    pub fn names(&self) -> &NameIndex {
        &self.names
    }

    /// Whether a unit of this type can move from one location to the other in one step.
    pub fn is_adjacent(&self, unit: UnitType, from: LocationId, to: LocationId) -> bool {
        match unit {
            UnitType::Army => self.army_adjacent.get(from.index(), to.index()),
            UnitType::Fleet => self.fleet_adjacent.get(from.index(), to.index()),
        }
    }

    /// The locations a unit of this type can move to in one step.
    pub fn neighbours(&self, unit: UnitType, from: LocationId) -> &[LocationId] {
        match unit {
            UnitType::Army => &self.army_neighbours[from.index()],
            UnitType::Fleet => &self.fleet_neighbours[from.index()],
        }
    }

    /// Every pair of provinces that border each other for some unit (army or fleet, any
    /// coast), the lower id first.
    pub fn bordering_pairs(&self) -> std::collections::BTreeSet<(ProvinceId, ProvinceId)> {
        let mut pairs = std::collections::BTreeSet::new();
        for (i, l) in self.locations.iter().enumerate() {
            for next in [&self.army_neighbours[i], &self.fleet_neighbours[i]] {
                for &to in next {
                    let q = self.province_of(to);
                    if l.province != q {
                        pairs.insert((l.province.min(q), l.province.max(q)));
                    }
                }
            }
        }
        pairs
    }

    /// Whether two provinces border each other for some unit (army or fleet, any coast): a
    /// leader's step (Hegemony 3.1.2.3).
    pub fn borders(&self, a: ProvinceId, b: ProvinceId) -> bool {
        let p = self.province(a);
        std::iter::once(p.main)
            .chain(p.coasts.iter().copied())
            .any(|l| self.can_reach_province(UnitType::Army, l, b) || self.can_reach_province(UnitType::Fleet, l, b))
    }

    /// Whether a unit of this type at `from` could move into some part of `province`
    /// (the test for giving support there: coasts do not matter).
    pub fn can_reach_province(&self, unit: UnitType, from: LocationId, province: ProvinceId) -> bool {
        match unit {
            UnitType::Army => self
                .army_adjacent
                .get(from.index(), self.provinces[province.index()].main.index()),
            UnitType::Fleet => self.fleet_reaches.get(from.index(), province.index()),
        }
    }

    /// The locations of `province` a fleet at `from` can move to (a coast list for split coasts).
    pub fn fleet_targets_in(&self, from: LocationId, province: ProvinceId) -> impl Iterator<Item = LocationId> + '_ {
        let p = &self.provinces[province.index()];
        let candidates: &[LocationId] = if p.coasts.is_empty() {
            std::slice::from_ref(&p.main)
        } else {
            &p.coasts
        };
        candidates
            .iter()
            .copied()
            .filter(move |&to| self.fleet_adjacent.get(from.index(), to.index()))
    }

    /// Whether an army could be convoyed between these provinces by some chain of convoying
    /// fleets (both coastal and touching one connected body of convoying water).
    pub fn convoy_possible(&self, from: ProvinceId, to: ProvinceId) -> bool {
        from != to
            && self.convoy_waters[from.index()]
                .iter()
                .any(|w| self.convoy_waters[to.index()].contains(w))
    }

    /// Whether the province has coast terrain, so an army there may be convoyed.
    pub fn is_coastal(&self, province: ProvinceId) -> bool {
        self.provinces[province.index()].terrain == Terrain::Coast
    }

    /// The canal a fleet would pass through to move from `from` to `to`, if there is one.
    pub fn canal_between(&self, from: LocationId, to: LocationId) -> Option<ProvinceId> {
        self.canals
            .iter()
            .find(|c| (c.ends[0] == from && c.ends[1] == to) || (c.ends[1] == from && c.ends[0] == to))
            .map(|c| c.province)
    }

    /// The railroad an order names (`TSR`, `Trans-Siberian Railroad`), by folded name.
    pub fn railroad_by_key(&self, key: &str) -> Option<&Railroad> {
        self.railroads.iter().find(|r| r.keys.iter().any(|k| k == key))
    }

    /// The railroad whose line holds both provinces, if any.
    pub fn railroad_between(&self, from: ProvinceId, to: ProvinceId) -> Option<&Railroad> {
        self.railroads
            .iter()
            .find(|r| from != to && r.route.contains(&from) && r.route.contains(&to))
    }

    /// Whether a province is a canal province.
    pub fn is_canal(&self, province: ProvinceId) -> bool {
        self.canals.iter().any(|c| c.province == province)
    }

    /// The supply centres of the map.
    pub fn centres(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        self.provinces.iter().filter(|p| p.centre).map(|p| p.id)
    }

    /// `bul` or `bul/ec`: the short lower-case name of a location.
    pub fn location_abbreviation(&self, location: LocationId) -> String {
        let l = &self.locations[location.index()];
        let p = &self.provinces[l.province.index()];
        match l.coast {
            None => p.abbreviation.clone(),
            Some(c) => format!("{}/{}", p.abbreviation, c.abbreviation()),
        }
    }
}
