//! A scenario: one starting situation of a variant whose file defines several (Hegemony's 1689
//! and 1701, each a built-in variant of its own). The map and the countries are the variant's;
//! the scenario says who plays, which provinces are centres, where every country starts, and
//! which of the variant's special rules apply. See docs/VARIANT_FORMAT.md, "Scenarios".

use crate::ids::{PowerId, ProvinceId};

/// A leader of the variant (Hegemony 3.1): a person who leads a unit of his country.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leader {
    /// Its id (its index in [`crate::variant::Variant::leaders`]).
    pub id: LeaderId,
    /// Lower-case key used in data files (`marlborough`); upper-cased in the JSON interchange.
    pub key: String,
    /// English name.
    pub name: String,
    /// German name.
    pub name_de: String,
    /// What he may lead.
    pub leads: Leads,
    /// The country he serves, if the data names one (a leader placed for another is refused).
    pub country: Option<crate::ids::PowerId>,
}

/// One piece of a scenario choice (5.1.7): a unit, a leader, or an overseas centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A unit of the choosing country.
    Unit(crate::ids::UnitType, crate::ids::LocationId),
    /// A leader of the choosing country, where he stands (a province's main location).
    Leader(LeaderId, crate::ids::LocationId),
    /// An overseas centre (a sea the country owns as a centre: it cannot be captured or built
    /// in; England's MID in 1701).
    Overseas(ProvinceId),
}

/// A choice a country makes in the scenario's first phase (5.1.7): one of several sets of
/// pieces. The first is on the board from the start and stays where the country chooses
/// nothing (5.1.7.4: an army rather than a fleet, a unit rather than a leader; research D-7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The choosing country.
    pub power: PowerId,
    /// The sets of pieces to choose from; the first is the default.
    pub options: Vec<Vec<Piece>>,
}

/// A leader's index in the variant's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LeaderId(pub u8);

impl LeaderId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// What a leader may lead (Hegemony 3.1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leads {
    /// Armies and fleets.
    Any,
    /// Armies only (Marlborough, Frederick the Great, Napoleon).
    Armies,
    /// Fleets only, and with no effect on land (Nelson).
    Fleets,
}

/// A rule a scenario switches on, by its number in the Hegemony rules (the JSON interchange
/// names them by that number under `options.special_rules`). What each acts on (which country,
/// which province) is scenario data, never code. The choices of 5.1.7 are no switch: they are
/// the scenario's `[[scenario.choice]]` data, open in its first phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpecialRule {
    /// 5.1.1: an army that belongs to no country, needs no supply and is never controlled.
    AnarchyArmy,
    /// 5.1.2: a neutral army defends an empty neighbouring province against the first attack.
    NeighbourDefence,
    /// 5.1.3: an uncontrolled country's army in its capital is as strong as if led.
    CapitalDefence,
    /// 5.1.4: immobile garrisons that re-attack their home once driven out.
    Garrisons,
    /// 5.1.5: an impassable province may be entered.
    Passage,
    /// 5.1.6: adjacent units of an uncontrolled country support each other's holds.
    MutualDefence,
    /// 5.2.2: the first attack on an empty neutral centre by anyone but one country needs
    /// support (research D-9).
    EmptyCentreDefence,
}

impl SpecialRule {
    /// Every special rule.
    pub const ALL: [SpecialRule; 7] = [
        SpecialRule::AnarchyArmy,
        SpecialRule::NeighbourDefence,
        SpecialRule::CapitalDefence,
        SpecialRule::Garrisons,
        SpecialRule::Passage,
        SpecialRule::MutualDefence,
        SpecialRule::EmptyCentreDefence,
    ];

    /// Its number in the rules (`5.1.4`).
    pub fn number(self) -> &'static str {
        match self {
            SpecialRule::AnarchyArmy => "5.1.1",
            SpecialRule::NeighbourDefence => "5.1.2",
            SpecialRule::CapitalDefence => "5.1.3",
            SpecialRule::Garrisons => "5.1.4",
            SpecialRule::Passage => "5.1.5",
            SpecialRule::MutualDefence => "5.1.6",
            SpecialRule::EmptyCentreDefence => "5.2.2",
        }
    }

    /// The rule with this number, if there is one.
    pub fn from_number(number: &str) -> Option<SpecialRule> {
        SpecialRule::ALL.into_iter().find(|r| r.number() == number.trim())
    }
}

/// What the scenario rules act on, from the variant file's `[special_rule]` table; each acts
/// only while a position switches its rule on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecialPlaces {
    /// 5.1.3: a country and its capital, where its army is as strong as if led while no player
    /// controls the country.
    pub capital_defence: Vec<(PowerId, ProvinceId)>,
    /// 5.1.6: countries whose adjacent units support each other's holds while no player controls
    /// them.
    pub mutual_defence: Vec<PowerId>,
    /// 5.1.2: a country's army that defends an empty neighbouring province.
    pub neighbour_defence: Vec<NeighbourDefence>,
    /// 5.2.2: empty centres that the first attacker but one country must take with support.
    pub empty_centre_defence: Vec<EmptyCentreDefence>,
}

/// 5.1.2: while no player controls `country`, its army in `from` moves into the empty `to` as
/// soon as anything attacks `to` — unless something attacks `from` in the same turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeighbourDefence {
    /// The defending country.
    pub country: PowerId,
    /// Where its army stands.
    pub from: ProvinceId,
    /// The province it defends.
    pub to: ProvinceId,
}

/// 5.2.2 (research D-9): while `province` is empty and still owned by `owner`, a move into it by
/// anyone but `exempt` meets a defence of strength 1 that cannot be supported or dislodged: alone
/// it bounces, with one support it succeeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyCentreDefence {
    /// The country that owns the centre while the defence lasts.
    pub owner: PowerId,
    /// The centre.
    pub province: ProvinceId,
    /// The country whose moves the defence does not meet.
    pub exempt: PowerId,
}

/// What a scenario gives one country at the start besides units and centres.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountryStart {
    /// Political factors in stock (players).
    pub political_factors: Option<u32>,
    /// Political factors a player must place to activate the country (neutrals, 1.1.2);
    /// `None` for a country no one can activate.
    pub threshold: Option<u32>,
}

/// One scenario of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Its name in the variant file (`1701`); the variant is called `<variant>-<name>`.
    pub name: String,
    /// Per country (by `PowerId`): political factors and activation threshold.
    pub countries: Vec<CountryStart>,
    /// The rules' part of the starting position: leaders, garrisons, special rules.
    pub start: crate::rule_state::RuleState,
    /// What the scenario's data lacks for a game to be played on it, if anything.
    pub incomplete: Option<String>,
    /// The choices of its first phase (5.1.7).
    pub choices: Vec<Choice>,
}
