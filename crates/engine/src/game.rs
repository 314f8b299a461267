//! Whole phases: reading every power's orders for the phase at hand, adjudicating it, and
//! computing the next position and phase (retreats, centre ownership, adjustments, victory).

use crate::adjudicate::adjustment::{AdjustmentOutcome, adjudicate_adjustments_counted, adjustment_count};
use crate::adjudicate::movement::{Adjudicator, MovementResult, PhaseExtras};
use crate::adjudicate::outcome::UnitResult;
use crate::adjudicate::retreat::{RetreatOutcome, adjudicate_retreats};
use crate::adjudicate::retreat_options::after_movement;
use crate::ids::{LocationId, PowerId, ProvinceId};
use crate::map::Map;
use crate::order::advance::{AdvanceRetreat, choose_retreat};
use crate::order::model::{CanalPermission, Order, PowerOrder, UnitRef};
use crate::order::resolve::OrderContext;
use crate::order::syntax::read_power_header;
use crate::order::{OrderError, OrderErrorKind};
use crate::phase::{Phase, PhaseKind, Season, read_phase_header};
use crate::position::{DislodgedUnit, Position, Unit};
use crate::variant::Variant;
use std::collections::HashMap;

mod reading;

/// One order line as it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadLine {
    /// The power the line is for (from a prefix, the sender, or the unit's owner).
    pub power: Option<PowerId>,
    /// The power that sent it, if known: the power itself, or (Hegemony) a player who controls
    /// the neutral country the line is for.
    pub sender: Option<PowerId>,
    /// The text of the order (kept inline when short: no allocation per line read).
    pub text: compact_str::CompactString,
    /// The order, or why it was rejected.
    pub result: Result<Order, OrderError>,
    /// A canal passage the order permits (`… SC F Red - Med`).
    pub permission: Option<CanalPermission>,
    /// For a conditional order (`IF MID blocked THEN …`): its conditions and `ELSE` order; the
    /// order above is the one carried out when the conditions hold.
    pub condition: Option<Box<crate::order::condition::Conditional>>,
}

/// Every power's orders for one phase, read against the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseOrders {
    /// The order lines, in the order given.
    pub lines: Vec<ReadLine>,
    /// Retreat orders given in advance (movement phases), per power.
    pub advance: Vec<(PowerId, AdvanceRetreat)>,
    /// Lines told only to their sender, never published, with what became of them: retreat
    /// orders given in advance that could not be read or used (a retreat plan is no one else's
    /// business, and it was never carried out), orders for another power's units, and (Hegemony)
    /// orders for a neutral country that were not carried out as its orders.
    pub sender_only: Vec<(Option<PowerId>, String, OrderError)>,
    /// Lines sent for later phases (under a phase heading), kept until their phase comes.
    pub later: Vec<LaterOrder>,
    /// For each entry of `lines`, the index of the input line [`PhaseOrders::read`] read it
    /// from (`usize::MAX` for an entry that came otherwise), so that an echo names its line.
    pub line_origins: Vec<usize>,
    /// The same for each entry of `sender_only`.
    pub private_origins: Vec<usize>,
}

/// An order line sent for a later phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaterOrder {
    /// The power that sent it.
    pub power: Option<PowerId>,
    /// The phase it is for.
    pub phase: Phase,
    /// The line.
    pub text: String,
}

impl PhaseOrders {
    /// Whether each line's order is carried out: a legal order is replaced by a later legal
    /// order for the same unit in movement and retreat phases, and a choice (Hegemony 5.1.7) by
    /// a later choice of the same power (the last one counts); such replaced orders are never
    /// published. Rejected lines are `false`.
    pub fn carried_out(&self, variant: &Variant, kind: PhaseKind) -> Vec<bool> {
        let mut carried: Vec<bool> = self.lines.iter().map(|l| l.result.is_ok()).collect();
        if kind == PhaseKind::Adjustment {
            // Which of the scenario's choices a line chooses in (5.1.7).
            let choices = variant.scenario.as_ref().map_or(&[][..], |s| &s.choices);
            let choice = |l: &ReadLine| match l.result {
                Ok(Order::Choose(piece)) => choices
                    .iter()
                    .position(|c| Some(c.power) == l.power && crate::choice::option_of(variant, c, piece).is_some()),
                _ => None,
            };
            for (i, line) in self.lines.iter().enumerate() {
                if let Some(c) = choice(line) {
                    carried[i] = !self.lines[i + 1..].iter().any(|m| choice(m) == Some(c));
                }
            }
            return carried;
        }
        // A later order for a piece replaces the whole earlier one.
        self.clear_replaced(variant, &mut carried);
        carried
    }

    /// For each line, the earlier line that gave its order to one of the same pieces (see
    /// [`ordered_pieces`]), if one did: the line that a second order for a piece contradicts.
    pub fn earlier_orders(&self, variant: &Variant) -> Vec<Option<usize>> {
        let mut first: HashMap<Piece, usize> = HashMap::new();
        self.lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let pieces = ordered_pieces(&variant.map, line);
                let earlier = pieces.iter().find_map(|k| first.get(k).copied());
                if earlier.is_none() {
                    first.extend(pieces.into_iter().map(|k| (k, i)));
                }
                earlier
            })
            .collect()
    }

    /// Clears `carried` of each line a later line replaces: one that gives its order to one of
    /// the same pieces.
    fn clear_replaced(&self, variant: &Variant, carried: &mut [bool]) {
        let mut ordered = PieceSet::new(&variant.map);
        for (line, carried) in self.lines.iter().zip(carried).rev() {
            let pieces = line_pieces(&variant.map, line);
            if pieces.iter().flatten().any(|k| ordered.contains(k)) {
                *carried = false;
            }
            pieces.into_iter().flatten().for_each(|k| ordered.insert(k));
        }
    }

    fn advance_for(&self, power: PowerId) -> Vec<AdvanceRetreat> {
        self.advance
            .iter()
            .filter(|(p, _)| *p == power)
            .map(|(_, a)| a.clone())
            .collect()
    }
}

/// What an order gives its one order to: its unit (by province) and (Hegemony) a leader it
/// moves. `LA Vie - Boh` orders both, indivisibly: a later order for either replaces it whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The unit in this province.
    Unit(ProvinceId),
    /// This power's leader in this province.
    Leader(Option<PowerId>, ProvinceId),
}

/// The pieces a line's order gives its order to (none for a rejected line or an order without a
/// unit, such as a build's choice or political factors).
pub fn ordered_pieces(map: &Map, line: &ReadLine) -> Vec<Piece> {
    line_pieces(map, line).into_iter().flatten().collect()
}

/// [`ordered_pieces`] without allocating: the unit, then the leader.
fn line_pieces(map: &Map, line: &ReadLine) -> [Option<Piece>; 2] {
    let Ok(order) = &line.result else {
        return [None, None];
    };
    let unit = order.unit().map(|u| Piece::Unit(map.province_of(u.location)));
    let leader = order.leader_at().map(|l| Piece::Leader(line.power, map.province_of(l)));
    [unit, leader]
}

/// A set of pieces: units by province in a table, the rare leaders in a list.
struct PieceSet {
    units: Vec<bool>,
    leaders: Vec<(Option<PowerId>, ProvinceId)>,
}

impl PieceSet {
    fn new(map: &Map) -> PieceSet {
        PieceSet {
            units: vec![false; map.provinces().len()],
            leaders: Vec::new(),
        }
    }

    fn contains(&self, piece: &Piece) -> bool {
        match *piece {
            Piece::Unit(p) => self.units.get(p.index()).copied().unwrap_or(false),
            Piece::Leader(power, p) => self.leaders.contains(&(power, p)),
        }
    }

    fn insert(&mut self, piece: Piece) {
        match piece {
            Piece::Unit(p) => {
                if let Some(u) = self.units.get_mut(p.index()) {
                    *u = true;
                }
            }
            Piece::Leader(power, p) => self.leaders.push((power, p)),
        }
    }
}

/// Whether a line speaks of political factors (`PF 3 Bavaria`, `3 PF an Bayern`).
fn names_political_factors(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("pf"))
}

/// The phases a power's order lines give orders for: `current` when a line outside any phase
/// heading (or under the heading of `current`) is an order, and each later phase whose heading
/// has an order line below it. Orders for a phase replace what the power sent earlier for that
/// phase; a submission without lines for a phase leaves its earlier orders standing.
pub fn phases_ordered<'a>(variant: &Variant, current: Phase, lines: impl IntoIterator<Item = &'a str>) -> Vec<Phase> {
    let mut section = current;
    let mut ordered = Vec::new();
    for line in lines {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') || read_power_header(&variant.map, text).is_some() {
            continue;
        }
        if let Some(phase) = read_phase_header(text) {
            section = phase;
            continue;
        }
        if !ordered.contains(&section) {
            ordered.push(section);
        }
    }
    ordered
}

/// What a movement phase did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovementReport {
    /// The units at the start of the phase.
    pub units: Vec<Unit>,
    /// The order each unit carried out (a hold where none or no legal one was given).
    pub orders: Vec<Order>,
    /// Whether the unit had a legal order (false: it held by default).
    pub ordered: Vec<bool>,
    /// The number of the rule that gave or changed each unit's order, if one did (Hegemony).
    pub by_rule: Vec<Option<&'static str>>,
    /// What happened to each unit.
    pub results: Vec<UnitResult>,
    /// Dislodged units and where they may retreat.
    pub dislodged: Vec<DislodgedUnit>,
    /// Provinces left empty by a bounce.
    pub contested: Vec<ProvinceId>,
    /// What became of each leader (Hegemony; empty elsewhere).
    pub leaders: Vec<crate::rules::LeaderMove>,
    /// The leaders displaced and where each may retreat (Hegemony; empty elsewhere).
    pub displaced_leaders: Vec<crate::rule_state::DisplacedLeader>,
    /// The provocations of neutral countries (Hegemony 1.1.10), told to each provoker alone.
    pub provocations: Vec<crate::rules::Provocation>,
}

/// What a retreat phase (or retreats ordered in advance) did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatReport {
    /// The dislodged units.
    pub dislodged: Vec<DislodgedUnit>,
    /// The order each carried out, if it had one.
    pub orders: Vec<Option<Order>>,
    /// Whether that order came from an advance retreat order.
    pub in_advance: Vec<bool>,
    /// What happened to each.
    pub outcomes: Vec<RetreatOutcome>,
    /// What became of each displaced leader (Hegemony; empty elsewhere).
    pub leaders: Vec<crate::rules::LeaderRetreat>,
}

/// What an adjustment phase did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjustmentReport {
    /// The legal adjustment orders.
    pub orders: Vec<PowerOrder>,
    /// What became of each.
    pub outcomes: Vec<AdjustmentOutcome>,
    /// Units removed because too few disbands were ordered.
    pub civil_disorder: Vec<Unit>,
    /// What became of the choices of the scenario's first phase (Hegemony 5.1.7).
    pub choices: Vec<crate::choice::ChoiceMade>,
    /// Each country's builds (positive) or further disbands (negative) this winter, zeros left
    /// out.
    pub counts: Vec<(PowerId, i32)>,
    /// What the winter's first steps decided (Hegemony 4.4: friendship, blocked overseas
    /// centres, removals for supply), where the variant has them.
    pub winter: Option<crate::rules::WinterSteps>,
}

impl AdjustmentReport {
    /// The orders and their outcomes that may be published in the list of adjustments: all but
    /// allocations of political factors, which only their sender learns (Hegemony, research
    /// D-22), and declarations of friendship, which the winter's first step lists.
    pub fn public_orders(&self) -> impl Iterator<Item = (&PowerOrder, &AdjustmentOutcome)> {
        self.orders
            .iter()
            .zip(&self.outcomes)
            .filter(|(o, _)| !matches!(o.order, Order::Allocate { .. } | Order::Declare { .. }))
    }
}

/// Everything one adjudication produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseReport {
    /// The phase adjudicated.
    pub phase: Phase,
    /// The orders as read.
    pub orders: PhaseOrders,
    /// The movement, for a movement phase.
    pub movement: Option<MovementReport>,
    /// The retreats: of a retreat phase, or applied in advance right after a movement phase.
    pub retreats: Option<RetreatReport>,
    /// The adjustments, for an adjustment phase.
    pub adjustments: Option<AdjustmentReport>,
    /// Whether centre ownership was updated at the end of this phase.
    pub ownership_updated: bool,
    /// The position to play next.
    pub next: Position,
    /// The power that reached the victory condition, if any: the game is over.
    pub winner: Option<PowerId>,
    /// How the game ended, if it did with this phase: a victory (then also `winner`), or
    /// (Hegemony 4.3) a victory shared by two or a draw of those tied.
    pub end: Option<GameResult>,
    /// After a change of centre ownership: each country's builds (positive) or disbands
    /// (negative) in the winter to come, by `PowerId`, as known before its orders
    /// ([`expected_counts`]); empty otherwise.
    pub counts: Vec<i32>,
}

impl PhaseReport {
    /// A report of nothing done yet: the position stays as it is.
    pub fn unchanged(position: &Position, orders: PhaseOrders) -> PhaseReport {
        PhaseReport {
            phase: position.phase,
            orders,
            movement: None,
            retreats: None,
            adjustments: None,
            ownership_updated: false,
            next: position.clone(),
            winner: None,
            end: None,
            counts: Vec::new(),
        }
    }
}

/// Adjudicates the position's phase with the given orders.
pub fn adjudicate_phase(variant: &Variant, position: &Position, mut orders: PhaseOrders) -> PhaseReport {
    crate::rules::settle_orders(variant, position, &mut orders);
    let mut report = PhaseReport::unchanged(position, orders);
    match position.phase.kind {
        PhaseKind::Movement => movement(variant, position, &mut report),
        PhaseKind::Retreat => {
            let mut next = take_next(&mut report);
            let retreats = retreat(variant, position, &report.orders, &mut next);
            report.retreats = Some(retreats);
            report.next = next;
            end_of_turn(variant, &mut report);
        }
        PhaseKind::Adjustment => adjustment(variant, position, &mut report),
    }
    let next = &mut report.next;
    crate::rules::end_of_phase(variant, next);
    if !next.rules.is_empty() {
        let dislodged: Vec<Unit> = next.dislodged.iter().map(|d| d.unit).collect();
        next.rules.settle(variant, &next.units, &dislodged);
    }
    report
}

/// Takes the next position out of a report (a copy of the position until the phase changes it),
/// leaving an empty one of the same phase: the phase builds on it instead of copying the
/// position once more.
fn take_next(report: &mut PhaseReport) -> Position {
    let empty = Position {
        phase: report.next.phase,
        units: Vec::new(),
        dislodged: Vec::new(),
        owners: Vec::new(),
        pending_retreats: Vec::new(),
        rules: crate::rule_state::RuleState::default(),
        recent: Vec::new(),
    };
    std::mem::replace(&mut report.next, empty)
}

/// Moves what the rules keep with the units that moved (a garrison with its army).
fn follow_moves(variant: &Variant, units: &[Unit], orders: &[Order], result: &MovementResult, next: &mut Position) {
    if next.rules.garrisons().is_empty() {
        return;
    }
    let moves: Vec<(PowerId, LocationId, LocationId)> = units
        .iter()
        .zip(orders)
        .zip(&result.moved)
        .filter(|&(_, &moved)| moved)
        .filter_map(|((u, o), _)| match *o {
            Order::Move { to, .. } => Some((u.power, u.location, to)),
            _ => None,
        })
        .collect();
    next.rules.follow_moves(variant, &moves);
}

/// One order per unit for a movement phase: the order carried out for each unit (`carried`, as
/// [`PhaseOrders::carried_out`] says), a hold for the others; and whether each unit had an order.
pub fn unit_orders(variant: &Variant, units: &[Unit], lines: &[ReadLine], carried: &[bool]) -> (Vec<Order>, Vec<bool>) {
    let map = &variant.map;
    let mut orders: Vec<Order> = units.iter().map(|u| Order::hold(u.kind, u.location)).collect();
    let mut ordered = vec![false; units.len()];
    // The first unit in each province.
    let mut unit_in = vec![usize::MAX; map.provinces().len()];
    for (i, u) in units.iter().enumerate().rev() {
        if let Some(slot) = unit_in.get_mut(map.province_of(u.location).index()) {
            *slot = i;
        }
    }
    let carried_lines = lines.iter().zip(carried).filter(|&(_, &c)| c);
    for order in carried_lines.filter_map(|(l, _)| l.result.as_ref().ok()) {
        let Some(unit) = order.unit() else { continue };
        let province = map.province_of(unit.location);
        if let Some(&i) = unit_in.get(province.index()).filter(|&&i| i < units.len()) {
            orders[i] = *order;
            ordered[i] = true;
        }
    }
    (orders, ordered)
}

fn movement(variant: &Variant, position: &Position, report: &mut PhaseReport) {
    let map = &variant.map;
    let mut next = take_next(report);
    let units = position.units.clone();
    let carried = report.orders.carried_out(variant, PhaseKind::Movement);
    let (orders, ordered) = unit_orders(variant, &units, &report.orders.lines, &carried);
    let mut given = crate::rules::UnitOrders::new(orders, ordered);
    crate::rules::automatic_orders(variant, position, &units, &mut given);
    let crate::rules::UnitOrders {
        orders,
        ordered,
        by_rule,
    } = given;
    let phase = crate::rules::MovementPhase {
        variant,
        lines: &report.orders.lines,
        carried: &carried,
        position,
        units: &units,
        orders: &orders,
    };
    let setup = crate::rules::movement_setup(&phase);
    let mut adjudicator = Adjudicator::with_rules(map, setup.resolver_rules);
    let mut result = MovementResult::default();
    let extras = PhaseExtras {
        strengths: &setup.strengths,
    };
    adjudicator.adjudicate_with(&units, &orders, &extras, &mut result);
    let (staying, mut dislodged) = after_movement(map, &units, &orders, &result);
    for d in &mut dislodged {
        d.retreats.retain(|&l| !position.is_shut(map, map.province_of(l)));
    }
    let contested = (0..map.provinces().len())
        .filter(|&p| result.contested[p])
        .map(|p| ProvinceId(p as u16))
        .collect();
    next.units = staying;
    next.dislodged = dislodged.clone();
    next.pending_retreats.clear();
    follow_moves(variant, &units, &orders, &result, &mut next);
    let facts = movement_facts(map, position.phase, &units, &orders, &result, &dislodged);
    crate::history::record(variant, &mut next.recent, facts);
    let leaders = crate::rules::after_movement(&phase, &result, &mut next);
    let provocations = crate::rules::after_movement_politics(&phase, &mut next);
    report.movement = Some(MovementReport {
        units,
        orders,
        ordered,
        by_rule,
        leaders,
        displaced_leaders: next.rules.displaced_leaders().to_vec(),
        provocations,
        results: std::mem::take(&mut result.units),
        dislodged,
        contested,
    });
    if next.dislodged.is_empty() && next.rules.displaced_leaders().is_empty() {
        report.next = next;
        end_of_turn(variant, report);
        return;
    }
    // Retreats ordered in advance: every unit covered → the retreat phase is skipped.
    // Retreat orders sent for this season's retreat phase together with the moves.
    let retreat_phase = Phase {
        kind: PhaseKind::Retreat,
        ..position.phase
    };
    let mut sent: Vec<(Option<PowerId>, Order)> = Vec::new();
    // (The position is copied for the retreat phase only where orders were sent for it.)
    if report.orders.later.iter().any(|l| l.phase == retreat_phase) {
        let mut probe = next.clone();
        probe.phase = retreat_phase;
        let ctx = OrderContext {
            map,
            phase: PhaseKind::Retreat,
            position: Some(&probe),
            default_power: None,
            leaders: &variant.leaders,
        };
        for later in report.orders.later.iter().filter(|l| l.phase == retreat_phase) {
            let ctx = OrderContext {
                default_power: later.power,
                ..ctx
            };
            for line in crate::conditions::read_order_line(variant, &ctx, &later.text) {
                let (text, result) = (line.text, line.result);
                // Only the sender's own units: another country's retreats are ordered in its
                // retreat phase.
                let result = result.and_then(|o| match (o.power, later.power) {
                    (Some(p), Some(s)) if p != s => Err(OrderError::new(
                        OrderErrorKind::AdvanceRetreatForOther(map.power(p).name.clone()),
                        0,
                    )),
                    _ => Ok(o),
                });
                match result {
                    Ok(o) => sent.push((o.power, o.order)),
                    Err(e) => report
                        .orders
                        .sender_only
                        .push((later.power, format!("{retreat_phase}: {text}"), e)),
                }
            }
        }
    }
    // A unit with nowhere to go is disbanded at once.
    let chosen: Vec<Option<Order>> = next
        .dislodged
        .iter()
        .map(|d| {
            if d.retreats.is_empty() {
                Some(Order::Disband {
                    unit: UnitRef::new(d.unit.kind, d.unit.location),
                })
            } else {
                let here = map.province_of(d.unit.location);
                sent.iter()
                    .rev()
                    .map(|&(_, o)| o)
                    .find(|o| o.unit().is_some_and(|u| map.province_of(u.location) == here))
                    .or_else(|| choose_retreat(map, d, &report.orders.advance_for(d.unit.power)))
                    .or_else(|| crate::rules::automatic_retreat(variant, &next, d))
            }
        })
        .collect();
    let leader_orders = leader_retreats_sent(map, &sent);
    let leaders_chosen = next.rules.displaced_leaders().iter().all(|d| {
        let here = map.province_of(d.place.location);
        d.retreats.is_empty()
            || leader_orders.iter().any(|&(p, o)| {
                p.is_none_or(|p| p == d.place.power) && o.leader_at().is_some_and(|l| map.province_of(l) == here)
            })
    });
    let leader_orders = leader_orders.into_iter().map(|(_, o)| o);
    // Under the house rule of retreats only with the moves no retreat phase is held: a unit
    // without a retreat order is disbanded now (seed 000 §10b).
    let with_moves = next.rules.house().retreats_with_moves;
    if with_moves || (chosen.iter().all(Option::is_some) && leaders_chosen) {
        let retreat_orders = PhaseOrders::default();
        next.pending_retreats = chosen.into_iter().flatten().chain(leader_orders).collect();
        next.phase = Phase {
            kind: PhaseKind::Retreat,
            ..position.phase
        };
        let mut after = next.clone();
        report.retreats = Some(retreat(variant, &next, &retreat_orders, &mut after));
        report.next = after;
        end_of_turn(variant, report);
        return;
    }
    next.pending_retreats = chosen.into_iter().flatten().chain(leader_orders).collect();
    next.phase = Phase {
        kind: PhaseKind::Retreat,
        ..position.phase
    };
    report.next = next;
}

/// What a movement phase did, for conditional orders: the moves carried out and the units
/// dislodged.
fn movement_facts(
    map: &Map,
    phase: Phase,
    units: &[Unit],
    orders: &[Order],
    result: &MovementResult,
    dislodged: &[DislodgedUnit],
) -> crate::history::PhaseFacts {
    let moves = units
        .iter()
        .zip(orders)
        .zip(&result.moved)
        .filter_map(|((u, o), &moved)| match *o {
            Order::Move { to, .. } => Some(crate::history::MoveResult {
                power: u.power,
                kind: u.kind,
                from: map.province_of(u.location),
                to: map.province_of(to),
                succeeded: moved,
            }),
            _ => None,
        })
        .collect();
    crate::history::PhaseFacts {
        phase,
        moves,
        dislodged: dislodged.iter().map(|d| d.unit).collect(),
    }
}

/// What a retreat phase did, for conditional orders: the retreats carried out.
fn retreat_facts(
    map: &Map,
    phase: Phase,
    dislodged: &[DislodgedUnit],
    orders: &[Option<Order>],
    outcomes: &[RetreatOutcome],
) -> crate::history::PhaseFacts {
    let moves = dislodged
        .iter()
        .zip(orders)
        .zip(outcomes)
        .filter_map(|((d, o), outcome)| match *o {
            Some(Order::Retreat { to, .. }) => Some(crate::history::MoveResult {
                power: d.unit.power,
                kind: d.unit.kind,
                from: map.province_of(d.unit.location),
                to: map.province_of(to),
                succeeded: matches!(outcome, RetreatOutcome::Retreated(_)),
            }),
            _ => None,
        })
        .collect();
    crate::history::PhaseFacts {
        phase,
        moves,
        dislodged: Vec::new(),
    }
}

/// The leaders' retreat orders among those sent in advance, the last for each leader.
fn leader_retreats_sent(map: &Map, sent: &[(Option<PowerId>, Order)]) -> Vec<(Option<PowerId>, Order)> {
    let mut last: Vec<(Option<PowerId>, Order)> = Vec::new();
    for &(power, order) in sent.iter().rev() {
        let Some(at) = order.leader_at() else { continue };
        let here = map.province_of(at);
        if !last
            .iter()
            .any(|&(p, o)| p == power && o.leader_at().is_some_and(|l| map.province_of(l) == here))
        {
            last.push((power, order));
        }
    }
    last
}

/// Adjudicates retreats of `position` into `next` (units added, dislodged cleared).
fn retreat(variant: &Variant, position: &Position, orders: &PhaseOrders, next: &mut Position) -> RetreatReport {
    let map = &variant.map;
    let dislodged = position.dislodged.clone();
    let mut chosen: Vec<Option<Order>> = vec![None; dislodged.len()];
    let mut in_advance = vec![false; dislodged.len()];
    let province_of = |d: &DislodgedUnit| map.province_of(d.unit.location);
    for (i, d) in dislodged.iter().enumerate() {
        if let Some(o) = position
            .pending_retreats
            .iter()
            .find(|o| o.unit().is_some_and(|u| map.province_of(u.location) == province_of(d)))
        {
            chosen[i] = Some(*o);
            in_advance[i] = !d.retreats.is_empty();
        }
    }
    for line in &orders.lines {
        if let Ok(order) = &line.result {
            let Some(u) = order.unit() else { continue };
            if let Some(i) = dislodged
                .iter()
                .position(|d| province_of(d) == map.province_of(u.location))
            {
                chosen[i] = Some(*order);
                in_advance[i] = false;
            }
        }
    }
    for (d, c) in dislodged.iter().zip(chosen.iter_mut()) {
        if c.is_none() {
            *c = crate::rules::automatic_retreat(variant, position, d);
        }
    }
    let outcomes = adjudicate_retreats(map, &dislodged, &chosen);
    for (d, outcome) in dislodged.iter().zip(&outcomes) {
        if let RetreatOutcome::Retreated(to) = outcome {
            next.units.push(Unit {
                location: *to,
                ..d.unit
            });
        }
    }
    next.dislodged.clear();
    next.pending_retreats.clear();
    let moves: Vec<(PowerId, LocationId, LocationId)> = dislodged
        .iter()
        .zip(&outcomes)
        .filter_map(|(d, outcome)| match outcome {
            RetreatOutcome::Retreated(to) => Some((d.unit.power, d.unit.location, *to)),
            _ => None,
        })
        .collect();
    next.rules.follow_moves(variant, &moves);
    let facts = retreat_facts(map, position.phase, &dislodged, &chosen, &outcomes);
    crate::history::record(variant, &mut next.recent, facts);
    let phase = crate::rules::RetreatPhase {
        variant,
        position,
        lines: &orders.lines,
        dislodged: &dislodged,
        orders: &chosen,
        outcomes: &outcomes,
    };
    let leaders = crate::rules::after_retreats(&phase, next);
    RetreatReport {
        dislodged,
        orders: chosen,
        in_advance,
        outcomes,
        leaders,
    }
}

/// After the last movement turn of a season (with its retreats): centre ownership, victory, and
/// the next phase.
fn end_of_turn(variant: &Variant, report: &mut PhaseReport) {
    let map = &variant.map;
    let phase = report.phase;
    let next = &mut report.next;
    if variant.calendar.adjusts_after(phase.season, phase.year) {
        for u in &next.units {
            let p = map.province_of(u.location);
            if map.province(p).centre {
                next.owners[p.index()] = Some(u.power);
            }
        }
        report.ownership_updated = true;
        report.end = crate::rules::game_end(variant, next).unwrap_or_else(|| {
            let centres = next.centre_counts(map);
            map.powers()
                .iter()
                .map(|p| p.id)
                .find(|&p| centres[p.index()] as u32 >= variant.victory_centres)
                .map(GameResult::Victory)
        });
        report.winner = match report.end {
            Some(GameResult::Victory(p)) => Some(p),
            _ => None,
        };
        report.counts = expected_counts(variant, next);
        if adjustments_needed_with(variant, next, &report.counts) {
            next.phase = Phase {
                year: phase.year,
                season: Season::Winter,
                kind: PhaseKind::Adjustment,
            };
            return;
        }
    }
    let (season, year) = variant.calendar.next_turn(phase.season, phase.year);
    next.phase = Phase {
        year,
        season,
        kind: PhaseKind::Movement,
    };
}

/// The home centres where a power could build now: owned and empty.
pub fn free_home_centres(variant: &Variant, position: &Position, power: PowerId) -> Vec<ProvinceId> {
    position.free_home_centres(&variant.map, power).collect()
}

/// The powers that have something to order in the position's phase: units to move; dislodged
/// units without a retreat chosen in advance; builds they can make or disbands they must make.
pub fn powers_to_order(variant: &Variant, position: &Position) -> Vec<PowerId> {
    let map = &variant.map;
    let counts = match position.phase.kind {
        PhaseKind::Adjustment => expected_counts(variant, position),
        _ => Vec::new(),
    };
    map.powers()
        .iter()
        .map(|p| p.id)
        .filter(|&p| match position.phase.kind {
            PhaseKind::Movement => position.units.iter().any(|u| u.power == p),
            PhaseKind::Retreat => retreats_to_order(map, position, p),
            PhaseKind::Adjustment => {
                let count = counts[p.index()];
                let choosing = position.rules.open_choices().iter().any(|c| c.power == p);
                let by_rule = crate::rules::has_orders(variant, position, p);
                choosing || by_rule || count < 0 || (count > 0 && !free_home_centres(variant, position, p).is_empty())
            }
        })
        .collect()
}

/// Whether a power has dislodged units or displaced leaders (with somewhere to go) whose retreat
/// was not ordered in advance.
fn retreats_to_order(map: &Map, position: &Position, power: PowerId) -> bool {
    let pending = |here: ProvinceId, leader: bool| {
        position.pending_retreats.iter().any(|o| {
            let at = if leader {
                o.leader_at()
            } else {
                o.unit().map(|u| u.location)
            };
            at.is_some_and(|l| map.province_of(l) == here)
        })
    };
    let units = position
        .dislodged
        .iter()
        .any(|d| d.unit.power == power && !pending(map.province_of(d.unit.location), false));
    let leaders =
        position.rules.displaced_leaders().iter().any(|d| {
            d.place.power == power && !d.retreats.is_empty() && !pending(map.province_of(d.place.location), true)
        });
    units || leaders
}

/// Whether any power has something to do in an adjustment phase.
pub fn adjustments_needed(variant: &Variant, position: &Position) -> bool {
    choices_or_rules_order(variant, position)
        || adjustments_needed_with(variant, position, &expected_counts(variant, position))
}

/// Whether a choice is open or a rule gives some power a winter order.
fn choices_or_rules_order(variant: &Variant, position: &Position) -> bool {
    !position.rules.open_choices().is_empty()
        || variant
            .map
            .powers()
            .iter()
            .any(|p| crate::rules::has_orders(variant, position, p.id))
}

/// [`adjustments_needed`] with the counts of the winter known.
fn adjustments_needed_with(variant: &Variant, position: &Position, counts: &[i32]) -> bool {
    let map = &variant.map;
    if choices_or_rules_order(variant, position) {
        return true;
    }
    map.countries().iter().any(|p| {
        let count = counts[p.id.index()];
        let builds = count > 0 && !free_home_centres(variant, position, p.id).is_empty();
        count < 0 || builds
    })
}

fn adjustment(variant: &Variant, position: &Position, report: &mut PhaseReport) {
    let map = &variant.map;
    crate::conditions::apply_conditions(variant, position, &mut report.orders);
    let carried = report.orders.carried_out(variant, PhaseKind::Adjustment);
    let legal: Vec<PowerOrder> = report
        .orders
        .lines
        .iter()
        .zip(&carried)
        .filter(|&(_, &c)| c)
        .map(|(l, _)| l)
        .filter_map(|l| {
            l.result.as_ref().ok().map(|&order| PowerOrder {
                permission: None,
                power: l.power.or_else(|| {
                    order
                        .unit()
                        .and_then(|u| position.unit_in(map, map.province_of(u.location)))
                        .map(|u| u.power)
                }),
                order,
            })
        })
        .collect();
    let mut start = position.clone();
    let choices = crate::choice::apply(variant, &mut start, &legal);
    let winter = crate::rules::winter_steps(variant, &start, &legal);
    let counts: Vec<i32> = map
        .countries()
        .iter()
        .map(|p| winter_count(map, &start, winter.as_ref(), p.id))
        .collect();
    if let Some(w) = &winter {
        start.units.retain(|u| !w.unsupplied.iter().any(|x| x.unit == *u));
    }
    let mut result = adjudicate_adjustments_counted(map, &start, &legal, &|p| counts[p.index()]);
    choice_outcomes(variant, &legal, &choices, &mut result.outcomes);
    let mut next = start;
    next.units = result.units;
    let phase = crate::rules::AdjustmentPhase {
        variant,
        position,
        orders: &legal,
        winter: winter.as_ref(),
    };
    crate::rules::adjustment_orders(&phase, &mut result.outcomes, &mut next);
    let (season, year) = variant.calendar.next_turn(
        variant.calendar.seasons.last().copied().unwrap_or(Season::Fall),
        position.phase.year,
    );
    next.phase = Phase {
        year,
        season,
        kind: PhaseKind::Movement,
    };
    report.adjustments = Some(AdjustmentReport {
        orders: legal,
        outcomes: result.outcomes,
        civil_disorder: result.civil_disorder,
        choices,
        counts: map
            .countries()
            .iter()
            .map(|p| (p.id, counts[p.id.index()]))
            .filter(|&(_, c)| c != 0)
            .collect(),
        winter,
    });
    report.next = next;
}

/// The outcomes of the choices among the adjustment orders carried out (5.1.7; the order reader
/// let only a power with an open choice give one, and a later choice replaces an earlier): made,
/// or blocked where the chosen set could not be placed.
fn choice_outcomes(
    variant: &Variant,
    orders: &[PowerOrder],
    made: &[crate::choice::ChoiceMade],
    outcomes: &mut [AdjustmentOutcome],
) {
    let choices = variant.scenario.as_ref().map_or(&[][..], |s| &s.choices);
    for (o, outcome) in orders.iter().zip(outcomes) {
        let Order::Choose(piece) = o.order else { continue };
        let blocked = made.iter().any(|m| {
            m.blocked
                && Some(m.power) == o.power
                && choices
                    .get(m.choice)
                    .is_some_and(|c| crate::choice::option_of(variant, c, piece).is_some())
        });
        *outcome = if blocked {
            AdjustmentOutcome::ChoiceBlocked
        } else {
            AdjustmentOutcome::Chosen
        };
    }
}

/// A country's builds or disbands as every player may know them: a neutral's builds are left
/// out, since only a neutral that players control builds (research D-17) and who controls what is
/// secret (D-22); its removals are shown.
pub fn public_count(map: &Map, power: PowerId, count: i32) -> i32 {
    if map.is_player(power) { count } else { count.min(0) }
}

/// Each country's builds (positive) or disbands to order (negative) in the winter of this
/// position as known before the winter's orders (Hegemony: before any declaration of
/// friendship), by `PowerId`.
pub fn expected_counts(variant: &Variant, position: &Position) -> Vec<i32> {
    let winter = crate::rules::winter_steps(variant, position, &[]);
    if winter.is_none() {
        return crate::adjudicate::adjustment::adjustment_counts(&variant.map, position);
    }
    variant
        .map
        .countries()
        .iter()
        .map(|p| winter_count(&variant.map, position, winter.as_ref(), p.id))
        .collect()
}

/// A power's builds (positive) or disbands to order (negative) in a winter: its centres (less
/// blocked overseas centres, Hegemony 2.2.3) minus its units, the units removed for want of
/// supply counted (2.1.5.4: no build for them); those removals count towards the disbands it
/// owes (2.1.5.5). A neutral country builds only while players control it (D-17).
pub fn winter_count(map: &Map, position: &Position, winter: Option<&crate::rules::WinterSteps>, power: PowerId) -> i32 {
    let Some(w) = winter else {
        return adjustment_count(map, position, power);
    };
    let blocked = w.blocked.iter().filter(|b| b.owner == power).count() as i32;
    let removed = w.unsupplied.iter().filter(|u| u.unit.power == power).count() as i32;
    let centres = position.centre_count(map, power) as i32 - blocked;
    let units = position.units.iter().filter(|u| u.power == power).count() as i32;
    // A neutral that players control builds by their orders (research D-17).
    let controlled_neutral = !map.is_player(power) && position.rules.controlled(map, power);
    let count = match centres - units {
        c if c > 0 && controlled_neutral && map.power(power).needs_supply => c,
        c => crate::adjudicate::adjustment::count_for(map, power, c),
    };
    match count {
        c if c < 0 => (c + removed).min(0),
        c => c,
    }
}

/// The orders sent for later phases that are still to be played after this report: those for
/// the retreat phase right after a movement phase were used already.
pub fn still_pending(report: &PhaseReport) -> impl Iterator<Item = &LaterOrder> {
    let used_retreat = (report.phase.kind == PhaseKind::Movement).then_some(Phase {
        kind: PhaseKind::Retreat,
        ..report.phase
    });
    report
        .orders
        .later
        .iter()
        .filter(move |l| l.phase > report.phase && Some(l.phase) != used_retreat && report.end.is_none())
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A power reached the victory condition.
    Victory(PowerId),
    /// The survivors agreed to a draw; every survivor shares it (DIAS).
    Draw(Vec<PowerId>),
    /// The other survivors conceded the game to this power.
    Concession(PowerId),
    /// Two powers won together (Hegemony 4.3.1.3: a hegemony of two).
    SharedVictory(Vec<PowerId>),
}

/// The powers still in the game: those with a unit or a supply centre.
pub fn survivors(variant: &Variant, position: &Position) -> Vec<PowerId> {
    variant
        .map
        .powers()
        .iter()
        .map(|p| p.id)
        .filter(|&p| {
            position.units.iter().any(|u| u.power == p)
                || position.dislodged.iter().any(|d| d.unit.power == p)
                || position.owners.contains(&Some(p))
        })
        .collect()
}

/// A draw of all survivors (draws include every power still in the game).
pub fn draw(variant: &Variant, position: &Position) -> GameResult {
    GameResult::Draw(survivors(variant, position))
}

/// A concession to `power`, which must still be in the game.
pub fn concede(variant: &Variant, position: &Position, power: PowerId) -> Option<GameResult> {
    survivors(variant, position)
        .contains(&power)
        .then_some(GameResult::Concession(power))
}
