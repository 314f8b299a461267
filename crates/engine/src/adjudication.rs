//! One adjudication in the JSON interchange format: state and orders in, results and the next
//! state out. The `spielleiter adjudicate` command and batch tools use this.

use std::collections::BTreeMap;

use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::adjudicate::retreat::RetreatOutcome;
use crate::game::{
    GameResult, PhaseOrders, PhaseReport, adjudicate_phase, concede, draw, free_home_centres, phases_ordered,
    still_pending,
};
use crate::ids::{LocationId, PowerId, UnitType};
use crate::interchange::{
    AdjudicationInput, AdjudicationOutput, Builds, GameEnd, RejectedOrder, StateError, position_from_state,
    state_from_position,
};
use crate::order::{Order, OrderContext, OrderError, OrderErrorKind, parse_order};
use crate::phase::{PhaseKind, read_phase_header};
use crate::position::Position;
use crate::report::{Fate, Told};
use crate::rules::LeaderRetreatOutcome;
use crate::variant::Variant;

/// Why an adjudication request could not be carried out.
#[derive(Debug, thiserror::Error)]
pub enum AdjudicationError {
    /// The variant is not known.
    #[error("unknown variant `{0}`")]
    UnknownVariant(String),
    /// The variant's data is broken.
    #[error("variant data: {0}")]
    Variant(#[from] crate::map::MapErrors),
    /// The state does not fit the variant.
    #[error("state: {0}")]
    State(#[from] StateError),
    /// Orders for a power the variant does not have.
    #[error("orders for unknown power `{0}`")]
    UnknownPower(String),
    /// A concession to a power that is out of the game.
    #[error("`{0}` is not in the game any more")]
    NotInGame(String),
    /// The game is already over.
    #[error("the game is over (phase {0})")]
    GameOver(String),
}

fn unit_name(variant: &Variant, kind: UnitType, location: LocationId) -> String {
    format!(
        "{} {}",
        kind.letter(),
        variant.map.location_abbreviation(location).to_ascii_uppercase()
    )
}

fn power_by_key(variant: &Variant, key: &str) -> Result<PowerId, AdjudicationError> {
    variant
        .map
        .country_by_key(key)
        .ok_or_else(|| AdjudicationError::UnknownPower(key.to_string()))
}

fn power_key(variant: &Variant, p: PowerId) -> String {
    variant.map.power(p).key.to_ascii_uppercase()
}

/// Adjudicates one request with a variant already loaded.
pub fn adjudicate_with(
    variant: &Variant,
    input: &AdjudicationInput,
) -> Result<(AdjudicationOutput, PhaseReport), AdjudicationError> {
    if input.state.phase.eq_ignore_ascii_case("COMPLETED") {
        return Err(AdjudicationError::GameOver(input.state.phase.clone()));
    }
    let variant = &*crate::interchange::variant_for_state(variant, &input.state)?;
    let mut position = position_from_state(variant, &input.state)?;
    if input.draw || input.concede_to.is_some() {
        return end_by_agreement(variant, &position, input);
    }
    read_pending(variant, &mut position, input);
    adjudicate_position(variant, &position, &input.orders, &input.pending_orders)
}

/// Adjudicates a position already read (on the variant [`crate::interchange::variant_for_state`]
/// chose, its retreats chosen in advance in it): `orders` and `pending_orders` as in
/// [`AdjudicationInput`]. Callers that keep a [`Position`] between phases (the Python package)
/// skip reading the state back from JSON.
pub fn adjudicate_position(
    variant: &Variant,
    position: &Position,
    orders: &BTreeMap<String, Vec<String>>,
    pending_orders: &BTreeMap<String, Vec<String>>,
) -> Result<(AdjudicationOutput, PhaseReport), AdjudicationError> {
    let report = phase_report(variant, position, orders, pending_orders)?;
    Ok((output(variant, &report), report))
}

/// [`adjudicate_position`] without the interchange output (which [`output`] writes when it is
/// wanted): what search and self-play need per phase.
pub fn phase_report(
    variant: &Variant,
    position: &Position,
    orders: &BTreeMap<String, Vec<String>>,
    pending_orders: &BTreeMap<String, Vec<String>>,
) -> Result<PhaseReport, AdjudicationError> {
    let mut read = PhaseOrders::default();
    read_pending_orders(variant, position, orders, pending_orders, &mut read)?;
    let mut senders = Vec::with_capacity(orders.len());
    for (key, lines) in orders {
        senders.push((Some(power_by_key(variant, key)?), lines.iter().map(String::as_str)));
    }
    read.read_all(variant, position, senders);
    Ok(adjudicate_phase(variant, position, read))
}

/// Reads the orders sent earlier for this phase (`PHASE: order`), except where the power's
/// orders now give orders for that phase: those replace them. Orders for a phase that was not
/// played (a retreat or adjustment phase skipped) are not carried out and are told only to
/// their sender.
fn read_pending_orders(
    variant: &Variant,
    position: &Position,
    now: &BTreeMap<String, Vec<String>>,
    pending: &BTreeMap<String, Vec<String>>,
    orders: &mut PhaseOrders,
) -> Result<(), AdjudicationError> {
    for (key, lines) in pending {
        let power = power_by_key(variant, key)?;
        let replaced = now
            .get(key)
            .map(|now| phases_ordered(variant, position.phase, now.iter().map(String::as_str)))
            .unwrap_or_default();
        for line in lines {
            // `PHASE: order` becomes a phase heading and the order.
            let (heading, order) = line.split_once(':').unwrap_or(("", line));
            match pending_phase(line) {
                Some(phase) if replaced.contains(&phase) => continue,
                Some(phase) if phase < position.phase => {
                    let e = OrderError::new(OrderErrorKind::PhaseOver(phase.to_string()), 0);
                    orders.sender_only.push((Some(power), line.trim().to_string(), e));
                    continue;
                }
                _ => orders.read(variant, position, Some(power), [heading, order]),
            }
        }
    }
    Ok(())
}

/// The phase an order sent for a later phase is for, as `pending_orders` write it (`F1901M: A
/// PAR - BUR`); none for a line without such a heading.
pub fn pending_phase(line: &str) -> Option<crate::phase::Phase> {
    line.split_once(':').and_then(|(heading, _)| read_phase_header(heading))
}

/// A draw or concession instead of an adjudication: the state stays, the game ends.
fn end_by_agreement(
    variant: &Variant,
    position: &Position,
    input: &AdjudicationInput,
) -> Result<(AdjudicationOutput, PhaseReport), AdjudicationError> {
    let result = match &input.concede_to {
        Some(key) => {
            let power = power_by_key(variant, key)?;
            concede(variant, position, power).ok_or_else(|| AdjudicationError::NotInGame(key.clone()))?
        }
        None => draw(variant, position),
    };
    let report = PhaseReport::unchanged(position, PhaseOrders::default());
    let mut out = output(variant, &report);
    out.next.phase = "COMPLETED".to_string();
    out.adjudicated_phase = position.phase.to_string();
    out.builds.clear();
    out.result = Some(game_end(variant, &result));
    Ok((out, report))
}

/// How a game ended, in the interchange: `victory`, `concession`, `draw` or `shared victory`
/// with the powers.
pub fn game_end(variant: &Variant, end: &GameResult) -> GameEnd {
    let (kind, powers) = match end {
        GameResult::Victory(p) => ("victory", vec![*p]),
        GameResult::Concession(p) => ("concession", vec![*p]),
        GameResult::Draw(ps) => ("draw", ps.clone()),
        GameResult::SharedVictory(ps) => ("shared victory", ps.clone()),
    };
    GameEnd {
        kind: kind.to_string(),
        powers: powers.into_iter().map(|p| power_key(variant, p)).collect(),
    }
}

/// Adjudicates one request, loading the built-in variant it names.
pub fn adjudicate_json(input: &AdjudicationInput) -> Result<AdjudicationOutput, AdjudicationError> {
    let name = input.variant.clone().unwrap_or_else(|| "standard".to_string());
    let variant = crate::variant::builtin(&name).ok_or(AdjudicationError::UnknownVariant(name))??;
    adjudicate_with(&variant, input).map(|(o, _)| o)
}

/// Reads `pending_retreats` of a retreat-phase state back into the position.
fn read_pending(variant: &Variant, position: &mut Position, input: &AdjudicationInput) {
    if input.pending_retreats.is_empty() {
        return;
    }
    let ctx_position = position.clone();
    let ctx = OrderContext {
        map: &variant.map,
        phase: PhaseKind::Retreat,
        position: Some(&ctx_position),
        default_power: None,
        leaders: &variant.leaders,
    };
    for line in input.pending_retreats.values().flatten() {
        if let Ok(o) = parse_order(&ctx, line) {
            position.pending_retreats.push(o.order);
        }
    }
}

/// The leaders' outcome codes and reasons (Hegemony), keyed `L NET`: in a movement phase
/// `no fleet`, `no convoy`, `displaced` or `lost`; in the retreats `disband` (with `bounce`
/// when his target was barred). An empty list is success.
fn leader_results(
    variant: &Variant,
    report: &PhaseReport,
    results: &mut BTreeMap<String, Vec<String>>,
    reasons: &mut BTreeMap<String, String>,
) {
    let key = |l: LocationId| format!("L {}", variant.map.location_abbreviation(l).to_ascii_uppercase());
    for l in report.movement.iter().flat_map(|m| &m.leaders) {
        let (code, text) = crate::report::leader_move_reason_en(variant, &l.outcome);
        results.insert(key(l.from), code.map(str::to_string).into_iter().collect());
        reasons.insert(key(l.from), text);
    }
    for l in report.retreats.iter().flat_map(|r| &r.leaders) {
        let codes: &[&str] = match l.outcome {
            LeaderRetreatOutcome::Retreated(_) => &[],
            LeaderRetreatOutcome::Barred => &["bounce", "disband"],
            _ => &["disband"],
        };
        let text = crate::report::leader_retreat_reason_en(variant, &l.outcome, l.in_advance);
        results
            .entry(key(l.from))
            .or_default()
            .extend(codes.iter().map(|c| c.to_string()));
        reasons
            .entry(key(l.from))
            .and_modify(|t| {
                t.push_str("; ");
                t.push_str(&text);
            })
            .or_insert(text);
    }
}

/// What a winter's steps decided, in the interchange's fields (Hegemony 4.4), with the results
/// and reasons of the units removed for want of supply.
#[derive(Default)]
struct WinterFields {
    adjustments: BTreeMap<String, i32>,
    supply_removals: BTreeMap<String, BTreeMap<String, String>>,
    overseas_blocked: BTreeMap<String, String>,
    friendly: BTreeMap<String, Vec<String>>,
    centre_values: BTreeMap<String, i32>,
}

fn winter_fields(
    variant: &Variant,
    report: &PhaseReport,
    results: &mut BTreeMap<String, Vec<String>>,
    reasons: &mut BTreeMap<String, String>,
) -> WinterFields {
    let mut f = WinterFields::default();
    let Some(a) = &report.adjustments else { return f };
    let Some(steps) = &a.winter else { return f };
    let map = &variant.map;
    let province = |p: crate::ids::ProvinceId| map.province(p).abbreviation.to_ascii_uppercase();
    for &(p, n) in &a.counts {
        let n = crate::game::public_count(map, p, n);
        if n != 0 {
            f.adjustments.insert(power_key(variant, p), n);
        }
    }
    for u in &steps.unsupplied {
        let name = unit_name(variant, u.unit.kind, u.unit.location);
        let why = crate::report::supply_failure_text(variant, &u.reason, crate::report::Lang::En);
        results.insert(name.clone(), vec!["disband".to_string()]);
        reasons.insert(
            name.clone(),
            format!("removed: no secure supply line ({why}) (rule 2.1.5)"),
        );
        f.supply_removals
            .entry(power_key(variant, u.unit.power))
            .or_default()
            .insert(name, why);
    }
    for b in &steps.blocked {
        f.overseas_blocked
            .insert(power_key(variant, b.owner), province(b.centre));
    }
    for &(from, to) in &steps.declared {
        f.friendly
            .entry(power_key(variant, from))
            .or_default()
            .push(power_key(variant, to));
    }
    for p in map.countries() {
        let blocked = steps.blocked.iter().filter(|b| b.owner == p.id).count() as i32;
        let value = report.next.centre_count(map, p.id) as i32 - blocked;
        if value > 0 {
            f.centre_values.insert(power_key(variant, p.id), value);
        }
    }
    f
}

/// The interchange output of an adjudication: orders carried out and refused, results and
/// reasons per unit, the next state, builds, orders still pending, the end of the game.
pub fn output(variant: &Variant, report: &PhaseReport) -> AdjudicationOutput {
    let map = &variant.map;
    let mut accepted: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut rejected: BTreeMap<String, Vec<RejectedOrder>> = BTreeMap::new();
    let mut results: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut reasons: BTreeMap<String, String> = BTreeMap::new();
    let owner_key =
        |line_power: Option<PowerId>| line_power.map_or_else(|| "UNKNOWN".to_string(), |p| power_key(variant, p));
    let carried = report.orders.carried_out(variant, report.phase.kind);
    for (line, &carried) in report.orders.lines.iter().zip(&carried) {
        let order = match crate::report::fate(map, report, line, carried) {
            Fate::Published(order) | Fate::Told(Told::Replaced { done: order, .. }) => order,
            Fate::Rejected(e) => {
                let refused = RejectedOrder::refused(&line.text, e);
                rejected.entry(owner_key(line.power)).or_default().push(refused);
                continue;
            }
            Fate::Dropped | Fate::Told(_) => continue,
        };
        accepted
            .entry(owner_key(line.power))
            .or_default()
            .push(order.display(map).to_string());
    }
    // What players alone are told (never published).
    let mut notices: BTreeMap<String, Vec<RejectedOrder>> = BTreeMap::new();
    for n in crate::report::notices_with(variant, report, &carried) {
        let told = match n.told {
            Told::Refused(e) => RejectedOrder::refused(&n.order, e),
            _ => RejectedOrder::told(&n.order, n.text(variant, crate::report::Lang::En)),
        };
        notices.entry(owner_key(n.to)).or_default().push(told);
    }
    if let Some(m) = &report.movement {
        for (i, unit) in m.units.iter().enumerate() {
            let name = unit_name(variant, unit.kind, unit.location);
            let r = m.results[i];
            results.insert(name.clone(), r.codes().map(str::to_string).collect());
            let mut reason = crate::report::reason_en(variant, &m.orders[i], &r, m.ordered[i]);
            if let Some(rule) = m.by_rule.get(i).copied().flatten() {
                reason = format!("{reason} (order given by rule {})", rule);
            }
            reasons.insert(name, reason);
        }
    }
    if let Some(r) = &report.retreats {
        for (i, d) in r.dislodged.iter().enumerate() {
            let name = unit_name(variant, d.unit.kind, d.unit.location);
            let codes: Vec<String> = match r.outcomes[i] {
                RetreatOutcome::Retreated(_) => Vec::new(),
                RetreatOutcome::Bounced => vec!["bounce".into(), "disband".into()],
                _ => vec!["disband".into()],
            };
            if report.movement.is_some() {
                // Retreats in advance: keep the movement codes and add the retreat's.
                results.entry(name.clone()).or_default().extend(codes);
            } else {
                results.insert(name.clone(), codes);
            }
            let text = crate::report::retreat_reason_en(variant, &r.outcomes[i], r.in_advance[i]);
            reasons
                .entry(name)
                .and_modify(|t| {
                    t.push_str("; ");
                    t.push_str(&text);
                })
                .or_insert(text);
        }
    }
    if let Some(a) = &report.adjustments {
        for (o, outcome) in a.public_orders() {
            let name = match o.order {
                Order::Waive => "WAIVE".to_string(),
                Order::Choose(_) => o.order.display(&variant.map).to_string(),
                _ => o
                    .order
                    .unit()
                    .map(|u| unit_name(variant, u.kind, u.location))
                    .unwrap_or_default(),
            };
            let codes = match outcome {
                AdjustmentOutcome::Built
                | AdjustmentOutcome::Disbanded
                | AdjustmentOutcome::Waived
                | AdjustmentOutcome::Chosen => Vec::new(),
                _ => vec!["void".to_string()],
            };
            results.insert(name.clone(), codes);
            reasons.insert(name, crate::report::adjustment_reason_en(outcome));
        }
        for u in &a.civil_disorder {
            let name = unit_name(variant, u.kind, u.location);
            results.insert(name.clone(), vec!["disband".to_string()]);
            reasons.insert(
                name,
                "removed by the civil disorder rule (too few disbands ordered)".to_string(),
            );
        }
    }
    leader_results(variant, report, &mut results, &mut reasons);
    let winter = winter_fields(variant, report, &mut results, &mut reasons);
    let next = &report.next;
    let mut state = state_from_position(variant, next);
    if report.end.is_some() {
        state.phase = "COMPLETED".to_string();
    }
    let mut builds = BTreeMap::new();
    if next.phase.kind == PhaseKind::Adjustment && report.end.is_none() {
        for p in map.countries() {
            let count = report.counts.get(p.id.index()).copied().unwrap_or(0);
            let count = crate::game::public_count(map, p.id, count);
            if count != 0 {
                let homes = if count > 0 {
                    free_home_centres(variant, next, p.id)
                        .into_iter()
                        .map(|h| map.province(h).abbreviation.to_ascii_uppercase())
                        .collect()
                } else {
                    Vec::new()
                };
                builds.insert(power_key(variant, p.id), Builds { count, homes });
            }
        }
    }
    let mut pending: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for o in &next.pending_retreats {
        let owner = o
            .unit()
            .and_then(|u| next.dislodged_in(map, map.province_of(u.location)))
            .map(|d| power_key(variant, d.unit.power))
            .unwrap_or_default();
        pending.entry(owner).or_default().push(o.display(map).to_string());
    }
    AdjudicationOutput {
        variant: variant.name.clone(),
        adjudicated_phase: report.phase.to_string(),
        accepted_orders: accepted,
        rejected_orders: rejected,
        notices,
        results,
        reasons,
        next: state,
        builds,
        pending_retreats: pending,
        pending_orders: pending_orders(variant, report),
        adjustments: winter.adjustments,
        supply_removals: winter.supply_removals,
        overseas_blocked: winter.overseas_blocked,
        friendly: winter.friendly,
        centre_values: winter.centre_values,
        winner: report.winner.map(|p| power_key(variant, p)),
        result: report.end.as_ref().map(|end| game_end(variant, end)),
    }
}

/// The orders sent for later phases still to be played after this report, per power, as
/// `PHASE: order` (the `pending_orders` of the output).
pub fn pending_orders(variant: &Variant, report: &PhaseReport) -> BTreeMap<String, Vec<String>> {
    still_pending(report)
        .map(|l| {
            (
                l.power.map(|p| power_key(variant, p)).unwrap_or_default(),
                format!("{}: {}", l.phase, l.text),
            )
        })
        .fold(BTreeMap::new(), |mut m: BTreeMap<String, Vec<String>>, (k, v)| {
            m.entry(k).or_default().push(v);
            m
        })
}
