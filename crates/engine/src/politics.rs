//! The politics of a position (Hegemony 1.1): each player's political factors (PF) in stock,
//! each player's influence in each neutral country (the PF allocated to it, kept to the end),
//! and who controls each neutral country until the next winter. Its fields are private: a state
//! read from outside becomes a [`Politics`] only through [`Politics::new`], which checks it
//! against the variant. The rule module `politics` changes it in winter (income, allocation,
//! control); none of it is ever published to other players (research D-22).

use std::collections::BTreeMap;

use crate::ids::PowerId;
use crate::variant::Variant;

/// The politics of a position; empty where the variant has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Politics {
    stock: BTreeMap<PowerId, u32>,
    influence: BTreeMap<(PowerId, PowerId), u32>,
    control: BTreeMap<PowerId, Vec<PowerId>>,
    options: GameOptions,
}

/// How control of a neutral country is determined: a game option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ControlRule {
    /// 1.1.2–1.1.4: activation by threshold, sole control with more than half of the activated
    /// influence, joint control otherwise.
    #[default]
    Standard,
    /// 1.1.11: a player controls a country when his influence is greater than the next largest
    /// plus the threshold; there is no joint control.
    Alternative,
}

impl ControlRule {
    /// The rule's name in the JSON interchange.
    pub fn as_str(self) -> &'static str {
        match self {
            ControlRule::Standard => "standard",
            ControlRule::Alternative => "alternative",
        }
    }

    /// The rule a name in the JSON interchange names.
    pub fn from_name(name: &str) -> Option<ControlRule> {
        [ControlRule::Standard, ControlRule::Alternative]
            .into_iter()
            .find(|r| r.as_str() == name)
    }
}

/// The options of the politics a game is played with (Hegemony: chosen when it is created).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameOptions {
    /// How control is determined.
    pub control_rule: ControlRule,
    /// The victory condition of 4.3.1 (1–5); none: the variant's centre count.
    pub victory: Option<u8>,
}

/// Why politics read from outside do not fit the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoliticsError {
    /// Political factors for a country no player plays.
    #[error("{0} is played by no one and has no political factors")]
    StockOfNeutral(String),
    /// Influence in a country that is no neutral that can be activated, or of a non-player.
    #[error(
        "no influence of {player} in {country}: only players have influence, only in neutral countries with a threshold"
    )]
    BadInfluence {
        /// The country.
        country: String,
        /// The player.
        player: String,
    },
    /// Control of a country that is no neutral, or by a non-player.
    #[error("{0} cannot be controlled as given: only neutral countries, only by players")]
    BadControl(String),
    /// More political factors than any game reaches.
    #[error("{0} political factors are more than {MAX_PF}")]
    TooMany(u32),
}

/// The most political factors a stock or an influence may hold in a state read from outside
/// (far more than a game produces; it keeps the sums of influence within range).
pub const MAX_PF: u32 = 100_000;

impl Politics {
    /// Politics, checked: stocks only for players; influence only of players in neutral countries
    /// with an activation threshold (1.1.2); control only of such countries, by players.
    pub fn new(
        variant: &Variant,
        stock: BTreeMap<PowerId, u32>,
        influence: BTreeMap<(PowerId, PowerId), u32>,
        control: BTreeMap<PowerId, Vec<PowerId>>,
    ) -> Result<Politics, PoliticsError> {
        let map = &variant.map;
        let name = |p: PowerId| map.power(p).name.clone();
        if let Some(&p) = stock.keys().find(|&&p| !map.is_player(p)) {
            return Err(PoliticsError::StockOfNeutral(name(p)));
        }
        if let Some(&n) = stock.values().chain(influence.values()).find(|&&n| n > MAX_PF) {
            return Err(PoliticsError::TooMany(n));
        }
        let activatable = |c: PowerId| !map.is_player(c) && threshold(variant, c).is_some();
        if let Some(&(c, p)) = influence.keys().find(|&&(c, p)| !activatable(c) || !map.is_player(p)) {
            return Err(PoliticsError::BadInfluence {
                country: name(c),
                player: name(p),
            });
        }
        let bad_control =
            |(&c, by): (&PowerId, &Vec<PowerId>)| !activatable(c) || by.iter().any(|&p| !map.is_player(p));
        if let Some((&c, _)) = control.iter().find(|&e| bad_control(e)) {
            return Err(PoliticsError::BadControl(name(c)));
        }
        let control = control.into_iter().filter(|(_, by)| !by.is_empty()).collect();
        let influence = influence.into_iter().filter(|&(_, n)| n > 0).collect();
        Ok(Politics {
            stock,
            influence,
            control,
            options: GameOptions::default(),
        })
    }

    /// These politics played with the given options.
    pub fn with_options(mut self, options: GameOptions) -> Politics {
        self.options = options;
        self
    }

    /// The options the game is played with.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The politics at a scenario's start: each player's stock, no influence, no control.
    pub fn start(variant: &Variant) -> Politics {
        let stock = variant
            .scenario
            .iter()
            .flat_map(|s| s.countries.iter().enumerate())
            .filter_map(|(i, c)| Some((PowerId(u8::try_from(i).ok()?), c.political_factors?)))
            .filter(|&(p, _)| variant.map.is_player(p))
            .collect();
        Politics {
            stock,
            ..Politics::default()
        }
    }

    /// A player's political factors in stock.
    pub fn stock(&self, player: PowerId) -> u32 {
        self.stock.get(&player).copied().unwrap_or(0)
    }

    /// Every player's stock.
    pub fn stocks(&self) -> &BTreeMap<PowerId, u32> {
        &self.stock
    }

    /// A player's influence in a neutral country.
    pub fn influence(&self, country: PowerId, player: PowerId) -> u32 {
        self.influence.get(&(country, player)).copied().unwrap_or(0)
    }

    /// Every influence: (country, player) → PF.
    pub fn influences(&self) -> &BTreeMap<(PowerId, PowerId), u32> {
        &self.influence
    }

    /// Who controls a neutral country (one: sole control; several: joint control; none).
    pub fn controllers(&self, country: PowerId) -> &[PowerId] {
        self.control.get(&country).map_or(&[], Vec::as_slice)
    }

    /// Every control: country → controllers.
    pub fn controls(&self) -> &BTreeMap<PowerId, Vec<PowerId>> {
        &self.control
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.stock.is_empty()
            && self.influence.is_empty()
            && self.control.is_empty()
            && self.options == GameOptions::default()
    }

    /// Adds income to a player's stock (1.1.9).
    pub(crate) fn earn(&mut self, player: PowerId, pf: u32) {
        *self.stock.entry(player).or_default() += pf;
    }

    /// Moves PF from a player's stock into his influence in a country (1.1.1.2–4); the caller
    /// has checked the stock.
    pub(crate) fn allocate(&mut self, player: PowerId, country: PowerId, pf: u32) {
        let stock = self.stock.entry(player).or_default();
        *stock = stock.saturating_sub(pf);
        *self.influence.entry((country, player)).or_default() += pf;
    }

    /// Takes a player's whole influence in a country away (1.1.10.2).
    pub(crate) fn forfeit(&mut self, country: PowerId, player: PowerId) {
        self.influence.remove(&(country, player));
    }

    /// Sets who controls one country from now on.
    pub(crate) fn set_control_of(&mut self, country: PowerId, by: Vec<PowerId>) {
        if by.is_empty() {
            self.control.remove(&country);
        } else {
            self.control.insert(country, by);
        }
    }

    /// Sets who controls each neutral country from now on.
    pub(crate) fn set_control(&mut self, control: BTreeMap<PowerId, Vec<PowerId>>) {
        self.control = control.into_iter().filter(|(_, by)| !by.is_empty()).collect();
    }
}

/// Who controls each neutral country after a winter, by the game's control rule.
pub fn determine_control(variant: &Variant, politics: &Politics) -> BTreeMap<PowerId, Vec<PowerId>> {
    let map = &variant.map;
    map.countries()
        .iter()
        .map(|c| c.id)
        .filter(|&c| !map.is_player(c))
        .filter_map(|c| Some((c, threshold(variant, c).filter(|&t| t > 0)?)))
        .map(|(c, t)| (c, controllers(variant, politics, c, t)))
        .collect()
}

/// Who controls one neutral country now by the game's control rule (none for a country no one
/// can activate).
pub fn control_of(variant: &Variant, politics: &Politics, country: PowerId) -> Vec<PowerId> {
    match threshold(variant, country).filter(|&t| t > 0) {
        Some(t) if !variant.map.is_player(country) => controllers(variant, politics, country, t),
        _ => Vec::new(),
    }
}

/// The controllers of a country of threshold `t` by the game's control rule.
fn controllers(variant: &Variant, politics: &Politics, country: PowerId, t: u32) -> Vec<PowerId> {
    match politics.options.control_rule {
        ControlRule::Standard => standard_controllers(variant, politics, country, t),
        ControlRule::Alternative => alternative_controllers(variant, politics, country, t),
    }
}

/// Who controls a country under the alternative rule (1.1.11): the player whose influence is
/// greater than the next largest influence plus the threshold, alone (a player who may never
/// control it, 1.1.7, leaves it uncontrolled); never jointly.
fn alternative_controllers(variant: &Variant, politics: &Politics, country: PowerId, t: u32) -> Vec<PowerId> {
    let map = &variant.map;
    let mut by: Vec<(u32, PowerId)> = map
        .powers()
        .iter()
        .map(|p| (politics.influence(country, p.id), p.id))
        .collect();
    by.sort_by(|a, b| b.cmp(a));
    let (first, player) = by.first().copied().unwrap_or((0, country));
    let second = by.get(1).map_or(0, |&(n, _)| n);
    let allowed = !map.power(player).never_controls.contains(&country);
    if first > second + t && allowed {
        vec![player]
    } else {
        Vec::new()
    }
}

/// The influence in a country of the players who reached its threshold (1.1.2–1.1.4: the
/// whole of which a controlling set of orders needs more than half).
pub fn activated_influence(variant: &Variant, politics: &Politics, country: PowerId) -> u32 {
    let Some(t) = threshold(variant, country).filter(|&t| t > 0) else {
        return 0;
    };
    variant
        .map
        .powers()
        .iter()
        .map(|p| politics.influence(country, p.id))
        .filter(|&n| n >= t)
        .sum()
}

/// A country's activation threshold in the scenario (1.1.2.2), if it can be activated.
pub fn threshold(variant: &Variant, country: PowerId) -> Option<u32> {
    variant.map.power(country).threshold
}

/// Who controls a country under the standard rule (1.1.2–1.1.4): the players whose influence
/// reached the threshold are activated; one of them with more than half of the activated
/// players' influence controls it alone (unless he may never control it, 1.1.7: then no one
/// does); otherwise, with two or more activated, they control it jointly — a player who may
/// never control it stays among them, his influence counted, his orders for it not given
/// (research D-20); with none activated it is uncontrolled.
fn standard_controllers(variant: &Variant, politics: &Politics, country: PowerId, t: u32) -> Vec<PowerId> {
    let map = &variant.map;
    let activated: Vec<(PowerId, u32)> = map
        .powers()
        .iter()
        .map(|p| (p.id, politics.influence(country, p.id)))
        .filter(|&(_, n)| n >= t)
        .collect();
    let total: u32 = activated.iter().map(|&(_, n)| n).sum();
    match activated.iter().find(|&&(_, n)| 2 * n > total) {
        Some(&(p, _)) if map.power(p).never_controls.contains(&country) => Vec::new(),
        Some(&(p, _)) => vec![p],
        None => activated.iter().map(|&(p, _)| p).collect(),
    }
}
