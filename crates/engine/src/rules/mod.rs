//! Variant rules as named modules that plug into the hooks of the phase pipeline.
//!
//! A variant names its rules in its data (`rules = ["canal", "railroad"]` under `[variant]`);
//! the phase code (`crate::game`) calls every named module at each hook and knows no rule, no
//! province and no power by name. The standard game names none. The hooks so far:
//!
//! - [`RuleModule::movement_setup`]: what a rule adds to the movement resolver for one phase —
//!   a unit's own strength ([`MovementSetup::strengths`]) and the rule's part inside the
//!   resolver ([`MovementSetup::resolver_rules`], a [`ResolverRule`]: decisions of its own such
//!   as a canal passage or a railroad step, orders and routes it decides, its paradox rule).
//!
//! - [`RuleModule::automatic_orders`]: orders a rule gives units before the phase (a garrison's
//!   re-attack, mutual hold supports).
//! - [`RuleModule::after_movement`] and [`RuleModule::after_retreats`]: what a rule keeps on the
//!   board besides units (Hegemony's leaders) follows the units' moves and retreats.
//!
//! The further hooks the Hegemony rules need (automatic orders, occupancy, legality of orders
//! and builds, end-of-turn steps, adjustment counts, victory) are listed in docs/RULE_MODULES.md
//! and are added with the first module that uses each.

mod canal;
mod leader_retreats;
mod leaders;
mod neutral_orders;
mod neutrals;
mod politics;
mod provocation;
mod railroad;
mod scenario_rules;
mod supply_lines;
mod victory;

pub use leader_retreats::{LeaderRetreat, LeaderRetreatOutcome};
pub use leaders::{LeaderMove, LeaderOutcome};
pub(crate) use politics::winter_income;
pub use provocation::Provocation;

use crate::adjudicate::movement::MovementResult;
pub use crate::adjudicate::movement::ResolverRule;
use crate::adjudicate::retreat::RetreatOutcome;
use crate::game::{PhaseOrders, ReadLine};
use crate::order::Order;
use crate::position::DislodgedUnit;
use crate::position::{Position, Unit};
use crate::variant::Variant;

/// A rule a variant may name in its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleName {
    /// Canals: a fleet passes through a canal province between two waters with the leave of the
    /// unit holding it (Colonial's Suez canal); the provinces say where (`canal = [...]`).
    Canal,
    /// Railroads: one army a phase rides a power's railroad, stopping at centres the power does
    /// not own (Colonial's Trans-Siberian Railroad); the map's `[[railroad]]` tables say where.
    Railroad,
    /// Leaders (Hegemony 3.1): a leader leads a unit of his country, which then holds and moves
    /// with strength 2 and supports with weight 2; leaders move with their units or alone.
    Leaders,
    /// The scenario rules a position switches on (Hegemony 5.1): garrisons that re-attack their
    /// home, a capital's defence, mutual hold supports; the variant's `[special_rule]` table
    /// says what each acts on.
    ScenarioRules,
    /// Countries no player plays (Hegemony 1.1.6): a neutral country's unit never supports a
    /// foreign attack on a centre its country owns; such a support becomes a hold.
    Neutrals,
    /// Political factors (Hegemony 1.1): income and allocation in winter, and who controls each
    /// neutral country until the next winter.
    Politics,
    /// Supply lines (Hegemony 2.1, 2.2.3, 1.2): in winter, declarations of friendship, blocked
    /// overseas centres, and the removal of units without a secure supply line.
    SupplyLines,
}

impl RuleName {
    /// Every rule, in the order the pipeline calls them.
    pub const ALL: [RuleName; 7] = [
        RuleName::Canal,
        RuleName::Railroad,
        RuleName::Leaders,
        RuleName::ScenarioRules,
        RuleName::Neutrals,
        RuleName::Politics,
        RuleName::SupplyLines,
    ];

    /// The rule's name in variant files.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleName::Canal => "canal",
            RuleName::Railroad => "railroad",
            RuleName::Leaders => "leaders",
            RuleName::ScenarioRules => "scenario_rules",
            RuleName::Neutrals => "neutrals",
            RuleName::Politics => "politics",
            RuleName::SupplyLines => "supply_lines",
        }
    }

    /// The rule a variant file names, if there is one by that name.
    pub fn from_name(name: &str) -> Option<RuleName> {
        RuleName::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The module that carries out the rule.
    pub fn module(self) -> &'static dyn RuleModule {
        match self {
            RuleName::Canal => &canal::Canal,
            RuleName::Railroad => &railroad::Railroad,
            RuleName::Leaders => &leaders::Leaders,
            RuleName::ScenarioRules => &scenario_rules::ScenarioRules,
            RuleName::Neutrals => &neutrals::Neutrals,
            RuleName::Politics => &politics::PoliticalFactors,
            RuleName::SupplyLines => &supply_lines::SupplyLines,
        }
    }
}

impl std::fmt::Display for RuleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One movement phase as the rules see it before it is adjudicated (more of the phase is added
/// here as modules come that need it).
#[derive(Clone, Copy, Debug)]
pub struct MovementPhase<'a> {
    /// The variant played.
    pub variant: &'a Variant,
    /// The order lines as read.
    pub lines: &'a [ReadLine],
    /// Per line: whether it is carried out (not replaced, not rejected).
    pub carried: &'a [bool],
    /// The position before the phase (units, centre owners, leaders).
    pub position: &'a Position,
    /// The units of the phase, in the resolver's order.
    pub units: &'a [Unit],
    /// Each unit's order (a hold where it had none).
    pub orders: &'a [Order],
}

/// One retreat phase as the rules see it once the units' retreats are adjudicated.
#[derive(Clone, Copy, Debug)]
pub struct RetreatPhase<'a> {
    /// The variant played.
    pub variant: &'a Variant,
    /// The position before the retreats (dislodged units, displaced leaders, retreats ordered in
    /// advance).
    pub position: &'a Position,
    /// The retreat phase's own order lines as read (empty when the retreats were all ordered in
    /// advance); a later line for the same leader replaces an earlier one.
    pub lines: &'a [ReadLine],
    /// The dislodged units.
    pub dislodged: &'a [DislodgedUnit],
    /// The order each dislodged unit carried out.
    pub orders: &'a [Option<Order>],
    /// What became of each dislodged unit.
    pub outcomes: &'a [RetreatOutcome],
}

/// The orders of a movement phase's units, by unit index, as the rules may change them before
/// the phase is adjudicated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOrders {
    /// Each unit's order: a hold where none was given.
    pub orders: Vec<Order>,
    /// Whether the unit has an order (false: it holds by default).
    pub ordered: Vec<bool>,
    /// The number of the rule that gave or changed the unit's order (`5.1.2`), if one did.
    pub by_rule: Vec<Option<&'static str>>,
}

impl UnitOrders {
    /// The players' orders, none given or changed by a rule yet.
    pub fn new(orders: Vec<Order>, ordered: Vec<bool>) -> UnitOrders {
        let by_rule = vec![None; orders.len()];
        UnitOrders {
            orders,
            ordered,
            by_rule,
        }
    }

    /// Gives unit `i` the order the rule numbered `rule` gives it, in place of its own.
    pub fn set(&mut self, i: usize, order: Order, rule: &'static str) {
        self.orders[i] = order;
        self.ordered[i] = true;
        self.by_rule[i] = Some(rule);
    }
}

/// One adjustment phase (a winter) as the rules see it once builds and choices are carried out.
#[derive(Clone, Copy, Debug)]
pub struct AdjustmentPhase<'a> {
    /// The variant played.
    pub variant: &'a Variant,
    /// The position before the phase.
    pub position: &'a Position,
    /// The orders carried out, each with its power (outcomes are by the same index).
    pub orders: &'a [crate::order::PowerOrder],
    /// What the winter's first steps decided (Hegemony), if a rule has them.
    pub winter: Option<&'a WinterSteps>,
}

/// What a winter's first steps decided before the adjustments (Hegemony 4.4 steps 1–4):
/// declarations of friendship, blocked overseas centres, units without a secure supply line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinterSteps {
    /// The declarations of friendship made this winter (from, towards), as ordered; the
    /// friendliness of a neutral towards its sole controller is not among them (it would reveal
    /// the control, research D-22).
    pub declared: Vec<(crate::ids::PowerId, crate::ids::PowerId)>,
    /// Overseas centres blocked this winter (2.2.3).
    pub blocked: Vec<BlockedCentre>,
    /// Units removed for want of a secure supply line (2.1.5), each with why.
    pub unsupplied: Vec<Unsupplied>,
}

impl WinterSteps {
    /// Whether a condition of a conditional order holds on these steps.
    pub fn holds(&self, map: &crate::map::Map, position: &Position, c: &crate::order::condition::Condition) -> bool {
        use crate::order::condition::Test;
        let test = match c.test {
            Test::Blocked(p) => self.blocked.iter().any(|b| b.centre == p),
            Test::Supplied(p) => {
                position.unit_in(map, p).is_some()
                    && !self.unsupplied.iter().any(|u| map.province_of(u.unit.location) == p)
            }
            // Conditions on results and the board are decided when the phase begins.
            _ => return c.holds_now(map, position),
        };
        test != c.negated
    }
}

/// An overseas centre its owner cannot use this winter (Hegemony 2.2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockedCentre {
    /// The owner.
    pub owner: crate::ids::PowerId,
    /// The centre (a sea).
    pub centre: crate::ids::ProvinceId,
    /// The hostile unit standing there at the end of the fall.
    pub by: Unit,
}

/// A unit without a secure supply line (Hegemony 2.1.5), removed in winter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupplied {
    /// The unit.
    pub unit: Unit,
    /// Why its shortest line is not secure.
    pub reason: SupplyFailure,
}

/// Why a unit has no secure supply line, told by its shortest line to an own centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupplyFailure {
    /// No line at all leads to a centre of its country (none owned, or none reachable).
    NoLine,
    /// A unit not friendly to it stands in a square of the line (2.1.2, research D-12).
    Cut {
        /// The square.
        square: crate::ids::ProvinceId,
        /// The unit standing there.
        by: Unit,
    },
    /// A hostile unit could move into a square of the line that nothing protects (2.1.3–2.1.4).
    Threatened {
        /// The square.
        square: crate::ids::ProvinceId,
        /// A unit threatening it.
        by: Unit,
    },
}

/// What the rules add to the movement resolver for one phase; empty when no rule adds anything.
#[derive(Default)]
pub struct MovementSetup {
    /// Each unit's own strength before supports, by unit index (empty: every unit has 1).
    pub strengths: Vec<u32>,
    /// The rules' parts inside the resolver, in the order of the variant's rules.
    pub resolver_rules: Vec<Box<dyn ResolverRule>>,
}

/// A rule's part in the phase pipeline: one method per hook, each doing nothing unless the rule
/// overrides it.
pub trait RuleModule: Sync {
    /// The rule's name.
    fn name(&self) -> RuleName;

    /// Before a movement phase is adjudicated: gives units the orders the rule gives them — an
    /// order the rule makes replaces the player's, and the report says which rule made it.
    fn automatic_orders(&self, _variant: &Variant, _position: &Position, _units: &[Unit], _orders: &mut UnitOrders) {}

    /// Adds what the rule contributes to the movement resolver for this phase.
    fn movement_setup(&self, _phase: &MovementPhase<'_>, _setup: &mut MovementSetup) {}

    /// After the phase is adjudicated and the units moved in `next`: moves what the rule keeps
    /// on the board besides units (leaders) and says what became of it.
    fn after_movement(
        &self,
        _phase: &MovementPhase<'_>,
        _result: &MovementResult,
        _next: &mut Position,
    ) -> Vec<LeaderMove> {
        Vec::new()
    }

    /// After a movement phase, with the units moved in `next`: the rule's changes to the
    /// politics (Hegemony 1.1.10: provocations, told to the provoker alone).
    fn after_movement_politics(&self, _phase: &MovementPhase<'_>, _next: &mut Position) -> Vec<Provocation> {
        Vec::new()
    }

    /// After the units' retreats, with the retreated units in `next`: retreats what the rule
    /// keeps besides units (displaced leaders) and says what became of it.
    fn after_retreats(&self, _phase: &RetreatPhase<'_>, _next: &mut Position) -> Vec<LeaderRetreat> {
        Vec::new()
    }

    /// In an adjustment phase, once builds and removals are made in `next`: carries out the
    /// rule's own orders of the phase (their outcomes by order index) and its winter steps.
    fn adjustment_orders(
        &self,
        _phase: &AdjustmentPhase<'_>,
        _outcomes: &mut [crate::adjudicate::adjustment::AdjustmentOutcome],
        _next: &mut Position,
    ) {
    }

    /// At the start of an adjustment phase, with the phase's orders (choices applied): the
    /// winter's steps before the adjustments (Hegemony 4.4 steps 1–4); `None` when the rule
    /// has none.
    fn winter_steps(
        &self,
        _variant: &Variant,
        _position: &Position,
        _orders: &[crate::order::PowerOrder],
    ) -> Option<WinterSteps> {
        None
    }

    /// A dislodged unit with no retreat order: the retreat (or disband) the rule orders for it,
    /// if any (Hegemony 1.1.5.3: an uncontrolled neutral's unit retreats by itself).
    fn automatic_retreat(&self, _variant: &Variant, _position: &Position, _d: &DislodgedUnit) -> Option<Order> {
        None
    }

    /// Once centres changed hands at the end of a year: whether the game ends by the rule's
    /// victory conditions — `None` when the rule has none (the variant's centre count decides),
    /// `Some(None)` when it has and no one won.
    fn game_end(&self, _variant: &Variant, _position: &Position) -> Option<Option<crate::game::GameResult>> {
        None
    }

    /// At the end of every phase, in the next position: what the rule changes then (Hegemony
    /// 4.2.3: the influence of an eliminated player falls to nothing).
    fn end_of_phase(&self, _variant: &Variant, _next: &mut Position) {}

    /// Whether the rule has winter steps (see [`RuleModule::winter_steps`]), without computing
    /// them.
    fn has_winter_steps(&self) -> bool {
        false
    }

    /// Whether `sender` may give orders for another country's units in this position (a
    /// neutral country he controls): `Some(Ok)` yes, `Some(Err)` no for the given reason, `None`
    /// when the rule has nothing to say (then only a power's own orders count).
    fn may_order_for(
        &self,
        _variant: &Variant,
        _position: &Position,
        _sender: crate::ids::PowerId,
        _country: crate::ids::PowerId,
    ) -> Option<Result<(), crate::order::OrderErrorKind>> {
        None
    }

    /// Before a phase is adjudicated: decides which of the lines sent for countries that others
    /// order (see [`RuleModule::may_order_for`]) are carried out; lines it sets aside go to
    /// [`PhaseOrders::sender_only`] with what became of them.
    fn settle_orders(&self, _variant: &Variant, _position: &Position, _orders: &mut PhaseOrders) {}

    /// Whether `power` has something to order for the rule in the winter of this position (a
    /// winter's political factors; asked in the winter itself and, at the end of a fall, for the
    /// winter to come), so the winter is played and waits for it.
    fn has_orders(&self, _variant: &Variant, _position: &Position, _power: crate::ids::PowerId) -> bool {
        false
    }
}

/// What the variant's rules do in an adjustment phase (see [`RuleModule::adjustment_orders`]).
pub fn adjustment_orders(
    phase: &AdjustmentPhase<'_>,
    outcomes: &mut [crate::adjudicate::adjustment::AdjustmentOutcome],
    next: &mut Position,
) {
    for rule in &phase.variant.rules {
        rule.module().adjustment_orders(phase, outcomes, next);
    }
}

/// Whether one of the variant's rules has winter steps (conditional winter orders can name them).
pub fn has_winter_steps(variant: &Variant) -> bool {
    variant.rules.iter().any(|rule| rule.module().has_winter_steps())
}

/// The winter's steps before the adjustments, by the first rule that has them (see
/// [`RuleModule::winter_steps`]).
pub fn winter_steps(
    variant: &Variant,
    position: &Position,
    orders: &[crate::order::PowerOrder],
) -> Option<WinterSteps> {
    variant
        .rules
        .iter()
        .find_map(|rule| rule.module().winter_steps(variant, position, orders))
}

/// The retreat a rule orders for a dislodged unit without orders (see
/// [`RuleModule::automatic_retreat`]): the first rule with one decides.
pub fn automatic_retreat(variant: &Variant, position: &Position, d: &DislodgedUnit) -> Option<Order> {
    variant
        .rules
        .iter()
        .find_map(|rule| rule.module().automatic_retreat(variant, position, d))
}

/// Whether the game ends by a rule's victory conditions (see [`RuleModule::game_end`]): the
/// first rule that has them decides.
pub fn game_end(variant: &Variant, position: &Position) -> Option<Option<crate::game::GameResult>> {
    variant
        .rules
        .iter()
        .find_map(|rule| rule.module().game_end(variant, position))
}

/// What the variant's rules change at the end of every phase (see [`RuleModule::end_of_phase`]).
pub fn end_of_phase(variant: &Variant, next: &mut Position) {
    for rule in &variant.rules {
        rule.module().end_of_phase(variant, next);
    }
}

/// Whether a rule lets `sender` order for `country` (see [`RuleModule::may_order_for`]): the
/// first rule with an answer decides.
pub fn may_order_for(
    variant: &Variant,
    position: &Position,
    sender: crate::ids::PowerId,
    country: crate::ids::PowerId,
) -> Option<Result<(), crate::order::OrderErrorKind>> {
    variant
        .rules
        .iter()
        .find_map(|rule| rule.module().may_order_for(variant, position, sender, country))
}

/// What the variant's rules decide about the lines sent for others' countries (see
/// [`RuleModule::settle_orders`]).
pub fn settle_orders(variant: &Variant, position: &Position, orders: &mut PhaseOrders) {
    for rule in &variant.rules {
        rule.module().settle_orders(variant, position, orders);
    }
}

/// Whether any of the variant's rules gives `power` something to order (see
/// [`RuleModule::has_orders`]).
pub fn has_orders(variant: &Variant, position: &Position, power: crate::ids::PowerId) -> bool {
    variant
        .rules
        .iter()
        .any(|rule| rule.module().has_orders(variant, position, power))
}

/// What the variant's rules do after the units' retreats (see [`RuleModule::after_retreats`]).
pub fn after_retreats(phase: &RetreatPhase<'_>, next: &mut Position) -> Vec<LeaderRetreat> {
    let mut retreats = Vec::new();
    for rule in &phase.variant.rules {
        retreats.extend(rule.module().after_retreats(phase, next));
    }
    retreats
}

/// The politics the variant's rules change after a movement phase (see
/// [`RuleModule::after_movement_politics`]).
pub fn after_movement_politics(phase: &MovementPhase<'_>, next: &mut Position) -> Vec<Provocation> {
    let mut found = Vec::new();
    for rule in &phase.variant.rules {
        found.extend(rule.module().after_movement_politics(phase, next));
    }
    found
}

/// What the variant's rules do after a movement phase (see [`RuleModule::after_movement`]).
pub fn after_movement(phase: &MovementPhase<'_>, result: &MovementResult, next: &mut Position) -> Vec<LeaderMove> {
    let mut moves = Vec::new();
    for rule in &phase.variant.rules {
        moves.extend(rule.module().after_movement(phase, result, next));
    }
    moves
}

/// The orders the variant's rules give before a movement phase (see
/// [`RuleModule::automatic_orders`]).
pub fn automatic_orders(variant: &Variant, position: &Position, units: &[Unit], orders: &mut UnitOrders) {
    for rule in &variant.rules {
        rule.module().automatic_orders(variant, position, units, orders);
    }
}

/// What the variant's rules add to one movement phase.
pub fn movement_setup(phase: &MovementPhase<'_>) -> MovementSetup {
    let mut setup = MovementSetup::default();
    for rule in &phase.variant.rules {
        rule.module().movement_setup(phase, &mut setup);
    }
    setup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_found_by_its_name_and_its_module_answers_to_it() {
        for rule in RuleName::ALL {
            assert_eq!(RuleName::from_name(rule.as_str()), Some(rule));
            assert_eq!(rule.module().name(), rule);
        }
        assert_eq!(RuleName::from_name("Canal"), None, "names are exact");
    }
}
