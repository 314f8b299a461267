//! Compact numeric identifiers for everything on a map. Names live only at the edges.

use std::fmt;

/// A province of a map (a space units occupy), numbered from 0 in data-file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProvinceId(pub u16);

/// A place a unit can stand: a province as a whole, or one coast of a split-coast province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocationId(pub u16);

/// A power (player nation) of a variant, numbered from 0 in data-file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerId(pub u8);

impl ProvinceId {
    /// The id as an index into per-province tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl LocationId {
    /// The id as an index into per-location tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl PowerId {
    /// The id as an index into per-power tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The two kinds of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitType {
    /// An army: moves over land, can be convoyed.
    Army,
    /// A fleet: moves over seas and along coasts, can convoy from sea.
    Fleet,
}

impl UnitType {
    /// The one-letter abbreviation used in every notation (`A` or `F`).
    pub fn letter(self) -> char {
        match self {
            UnitType::Army => 'A',
            UnitType::Fleet => 'F',
        }
    }
}

impl fmt::Display for UnitType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One coast of a split-coast province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Coast {
    /// North coast (`nc`).
    North,
    /// South coast (`sc`).
    South,
    /// East coast (`ec`).
    East,
    /// West coast (`wc`).
    West,
}

impl Coast {
    /// Every coast, in a fixed order.
    pub const ALL: [Coast; 4] = [Coast::North, Coast::South, Coast::East, Coast::West];

    /// The two-letter abbreviation (`nc`, `sc`, `ec`, `wc`).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
            Coast::West => "wc",
        }
    }

    /// The coast for a two-letter abbreviation, if it is one.
    pub fn from_abbreviation(text: &str) -> Option<Coast> {
        Coast::ALL
            .into_iter()
            .find(|c| c.abbreviation().eq_ignore_ascii_case(text))
    }

    /// The English name ("north coast").
    pub fn name(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
            Coast::West => "west coast",
        }
    }

    /// The German name ("Nordküste").
    pub fn name_de(self) -> &'static str {
        match self {
            Coast::North => "Nordküste",
            Coast::South => "Südküste",
            Coast::East => "Ostküste",
            Coast::West => "Westküste",
        }
    }
}
