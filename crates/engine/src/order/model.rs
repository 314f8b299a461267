//! Orders as checked values: every name resolved to an id, every location legal for its unit.

use std::fmt::{self, Write as _};

use crate::ids::{LocationId, PowerId, UnitType};
use crate::map::Map;

/// A unit named in an order: its type and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitRef {
    /// Army or fleet.
    pub kind: UnitType,
    /// Where it stands (a coast for a fleet on a split coast, when known).
    pub location: LocationId,
    /// Ordered together with its leader in one order (`LA Vie - Boh`, Hegemony 3.1.3); a support
    /// or convoy must name a led unit so (`S LA Vie - Boh`) and a unit not led without it.
    pub led: bool,
}

impl UnitRef {
    /// A unit named without its leader.
    pub fn new(kind: UnitType, location: LocationId) -> UnitRef {
        UnitRef {
            kind,
            location,
            led: false,
        }
    }

    /// The unit's letters: `A`, `F`, or `LA`, `LF` when led.
    pub fn letters(self) -> &'static str {
        match (self.led, self.kind) {
            (false, UnitType::Army) => "A",
            (false, UnitType::Fleet) => "F",
            (true, UnitType::Army) => "LA",
            (true, UnitType::Fleet) => "LF",
        }
    }
}

/// What a convoy order carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cargo {
    /// An army (`C A Bel - Lon`).
    Army,
    /// An army with its leader (`C LA Bel - Lon`, Hegemony 3.1.3.4).
    LedArmy,
    /// A leader alone (`C L Bel - Lon`, Hegemony 3.1.2.3).
    Leader,
}

impl Cargo {
    /// The cargo's letters in an order.
    pub fn letters(self) -> &'static str {
        match self {
            Cargo::Army => "A",
            Cargo::LedArmy => "LA",
            Cargo::Leader => "L",
        }
    }
}

/// An order of a leader alone (Hegemony 3.1): the leader is named by where he stands, and there
/// is at most one leader of a country in a province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeaderOrder {
    /// Where the leader stands (a province's main location).
    pub at: LocationId,
    /// What he does.
    pub act: LeaderAct,
}

/// What a leader alone is ordered to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderAct {
    /// Stay (`L Vie H`).
    Hold,
    /// Move one province, or be convoyed like an army (`L Vie - Boh`, `L Bel - Lon`).
    Move {
        /// Where to (a province's main location).
        to: LocationId,
        /// Asked to go by convoy.
        via_convoy: bool,
    },
    /// Retreat after being displaced (`L Bur R Par`, 3.1.6): taken only when he is displaced.
    Retreat {
        /// Where to (a province's main location).
        to: LocationId,
    },
}

/// One order of one unit (or a power's waive), checked against the map and, when one was given,
/// the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Stay and defend.
    Hold {
        /// The ordered unit.
        unit: UnitRef,
    },
    /// Move to an adjacent place, or (armies) by convoy.
    Move {
        /// The ordered unit.
        unit: UnitRef,
        /// The destination (a coast for fleets into split-coast provinces).
        to: LocationId,
        /// The army asked to go by convoy even where it could walk.
        via_convoy: bool,
    },
    /// An army rides a railroad towards a province on its line (Colonial: `A Mos-TSR-Irk`).
    RailMove {
        /// The ordered army.
        unit: UnitRef,
        /// Where it is bound.
        to: LocationId,
    },
    /// Support another unit holding (or doing anything but moving).
    SupportHold {
        /// The supporting unit.
        unit: UnitRef,
        /// The supported unit.
        supported: UnitRef,
    },
    /// Support another unit's move.
    SupportMove {
        /// The supporting unit.
        unit: UnitRef,
        /// The supported unit, at its origin.
        supported: UnitRef,
        /// Where the supported unit moves. A coast is kept only for a supported fleet, and then
        /// the support matches only a move to that coast.
        to: LocationId,
    },
    /// A fleet carries an army across its sea.
    Convoy {
        /// The convoying fleet.
        unit: UnitRef,
        /// Where the convoyed army stands.
        army: LocationId,
        /// Where the army goes.
        to: LocationId,
        /// What is carried: an army, or in Hegemony a led army or a leader alone.
        cargo: Cargo,
    },
    /// A dislodged unit retreats.
    Retreat {
        /// The dislodged unit.
        unit: UnitRef,
        /// Where it goes.
        to: LocationId,
    },
    /// A unit is disbanded (a dislodged unit in a retreat phase, or a removal in adjustments).
    Disband {
        /// The unit.
        unit: UnitRef,
    },
    /// A new unit is built in a home centre.
    Build {
        /// The unit to build.
        unit: UnitRef,
    },
    /// A power gives up one build.
    Waive,
    /// An order for a leader alone (Hegemony 3.1).
    Leader(LeaderOrder),
    /// A country's choice in the scenario's first phase (Hegemony 5.1.7): the set of pieces
    /// holding this one.
    Choose(crate::scenario::Piece),
    /// Political factors a player gives a neutral country in winter (Hegemony 1.1.1).
    Allocate {
        /// The neutral country.
        country: PowerId,
        /// How many.
        pf: u32,
    },
    /// A country declares itself friendly towards another for this winter (Hegemony 1.2).
    Declare {
        /// The country declared friendly towards.
        to: PowerId,
    },
}

impl Order {
    /// The hold order of a unit (what a unit without a legal order does).
    pub fn hold(kind: UnitType, location: LocationId) -> Order {
        Order::Hold {
            unit: UnitRef::new(kind, location),
        }
    }

    /// The ordered unit (none for a waive).
    pub fn unit(&self) -> Option<UnitRef> {
        match *self {
            Order::Hold { unit }
            | Order::Move { unit, .. }
            | Order::RailMove { unit, .. }
            | Order::SupportHold { unit, .. }
            | Order::SupportMove { unit, .. }
            | Order::Convoy { unit, .. }
            | Order::Retreat { unit, .. }
            | Order::Disband { unit }
            | Order::Build { unit } => Some(unit),
            Order::Waive | Order::Leader(_) | Order::Choose(_) | Order::Allocate { .. } | Order::Declare { .. } => None,
        }
    }

    /// Where the leader this order moves stands: a leader's own order, or a led unit's.
    pub fn leader_at(&self) -> Option<LocationId> {
        match *self {
            Order::Leader(l) => Some(l.at),
            _ => self.unit().filter(|u| u.led).map(|u| u.location),
        }
    }

    /// The order in the interchange notation of the Python `diplomacy` package (`A PAR - BUR`,
    /// `F NTH C A LON - BEL`, `A LON - BEL VIA`, `A PAR R BUR`, `F STP/NC B`, `WAIVE`).
    pub fn display<'a>(&'a self, map: &'a Map) -> InterchangeOrder<'a> {
        InterchangeOrder { order: self, map }
    }
}

/// An order with the power that gave it, as read from a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PowerOrder {
    /// The power: from a `Power:` prefix, or the owner of the ordered unit in the position.
    pub power: Option<PowerId>,
    /// The order.
    pub order: Order,
    /// A canal passage the ordered unit (standing in a canal province) permits with this order
    /// (`A Egy S A Sud SC F Red - Med`).
    pub permission: Option<CanalPermission>,
}

/// Leave for one fleet move through a canal, given by the unit that holds the canal province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CanalPermission {
    /// Where the permitting unit stands (the canal province).
    pub keeper: LocationId,
    /// Where the permitted fleet stands.
    pub fleet: LocationId,
    /// Where it may go through the canal.
    pub to: LocationId,
}

/// Displays an order in the interchange notation.
pub struct InterchangeOrder<'a> {
    order: &'a Order,
    map: &'a Map,
}

impl<'a> InterchangeOrder<'a> {
    fn loc(&self, l: LocationId) -> UpperLocation<'a> {
        UpperLocation(self.map, l)
    }

    fn unit(&self, u: UnitRef) -> UpperUnit<'a> {
        UpperUnit(self.map, u)
    }
}

/// A location as the interchange writes it (`STP/SC`), written without building a string.
struct UpperLocation<'a>(&'a Map, LocationId);

impl fmt::Display for UpperLocation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self(map, l) = *self;
        let province = map.province(map.province_of(l));
        upper(f, &province.abbreviation)?;
        if let Some(coast) = map.location(l).coast {
            f.write_char('/')?;
            upper(f, coast.abbreviation())?;
        }
        Ok(())
    }
}

/// A unit as the interchange writes it (`F STP/SC`).
struct UpperUnit<'a>(&'a Map, UnitRef);

impl fmt::Display for UpperUnit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self(map, u) = *self;
        write!(f, "{} {}", u.letters(), UpperLocation(map, u.location))
    }
}

/// Writes `text` in ASCII upper case.
fn upper(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    text.chars().try_for_each(|c| f.write_char(c.to_ascii_uppercase()))
}

impl fmt::Display for InterchangeOrder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self.order {
            Order::Hold { unit } => write!(f, "{} H", self.unit(unit)),
            Order::Move { unit, to, via_convoy } => {
                write!(f, "{} - {}", self.unit(unit), self.loc(to))?;
                if via_convoy {
                    write!(f, " VIA")?;
                }
                Ok(())
            }
            Order::RailMove { unit, to } => {
                let line = self
                    .map
                    .railroad_between(self.map.province_of(unit.location), self.map.province_of(to))
                    .map_or("TSR", |r| r.abbreviation.as_str());
                write!(
                    f,
                    "{} - {} - {}",
                    self.unit(unit),
                    line.to_ascii_uppercase(),
                    self.loc(to)
                )
            }
            Order::SupportHold { unit, supported } => {
                write!(f, "{} S {}", self.unit(unit), self.unit(supported))
            }
            Order::SupportMove { unit, supported, to } => {
                write!(f, "{} S {} - {}", self.unit(unit), self.unit(supported), self.loc(to))
            }
            Order::Convoy { unit, army, to, cargo } => write!(
                f,
                "{} C {} {} - {}",
                self.unit(unit),
                cargo.letters(),
                self.loc(army),
                self.loc(to)
            ),
            Order::Retreat { unit, to } => write!(f, "{} R {}", self.unit(unit), self.loc(to)),
            Order::Disband { unit } => write!(f, "{} D", self.unit(unit)),
            Order::Build { unit } => write!(f, "{} B", self.unit(unit)),
            Order::Waive => write!(f, "WAIVE"),
            Order::Allocate { country, pf } => {
                write!(f, "PF {pf} {}", self.map.power(country).key.to_ascii_uppercase())
            }
            Order::Declare { to } => write!(f, "FRIENDLY {}", self.map.power(to).key.to_ascii_uppercase()),
            Order::Choose(piece) => match piece {
                crate::scenario::Piece::Unit(kind, at) => write!(f, "CHOOSE {} {}", kind.letter(), self.loc(at)),
                crate::scenario::Piece::Leader(_, at) => write!(f, "CHOOSE L {}", self.loc(at)),
                crate::scenario::Piece::Overseas(p) => {
                    let main = self.map.province(p).main;
                    write!(f, "CHOOSE {}", self.loc(main))
                }
            },
            Order::Leader(LeaderOrder { at, act }) => match act {
                LeaderAct::Hold => write!(f, "L {} H", self.loc(at)),
                LeaderAct::Move { to, via_convoy } => {
                    write!(f, "L {} - {}", self.loc(at), self.loc(to))?;
                    if via_convoy {
                        write!(f, " VIA")?;
                    }
                    Ok(())
                }
                LeaderAct::Retreat { to } => write!(f, "L {} R {}", self.loc(at), self.loc(to)),
            },
        }
    }
}
