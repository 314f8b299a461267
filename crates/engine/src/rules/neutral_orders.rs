//! Orders for neutral countries that players control (Hegemony 1.1.3, 1.1.4, 1.1.7).
//!
//! A controller writes them with the country as prefix (`Bavaria: A Bav - Boh`). Under sole
//! control his orders are the country's. Under joint control each controller who sends orders
//! for the country sends a set; identical sets (normalised: the orders carried out, a hold being
//! what an unordered unit does anyway) add their senders' influence for this phase only, and the
//! first set with more than half of the activated players' influence is carried out — else the
//! country's units do what unordered units do. The set carried out is published once, under the
//! country's name; every other line for the country is told to its sender alone, so no report
//! says who took part (1.1.4.7, research D-22). A player who may never control the country
//! (1.1.7) gives no orders for it.

use std::collections::BTreeMap;

use crate::game::{PhaseOrders, ReadLine};
use crate::ids::PowerId;
use crate::order::{Order, OrderError, OrderErrorKind};
use crate::phase::PhaseKind;
use crate::position::Position;
use crate::variant::Variant;

/// Whether `sender` may order for the neutral `country` (see [`super::RuleModule::may_order_for`]).
pub(super) fn may_order_for(
    variant: &Variant,
    position: &Position,
    sender: PowerId,
    country: PowerId,
) -> Option<Result<(), OrderErrorKind>> {
    let map = &variant.map;
    if map.is_player(country) || !map.is_player(sender) {
        return None;
    }
    if map.power(sender).never_controls.contains(&country) {
        return Some(Err(OrderErrorKind::NeverControls {
            sender: map.power(sender).name.clone(),
            country: map.power(country).name.clone(),
        }));
    }
    position
        .rules
        .politics()
        .controllers(country)
        .contains(&sender)
        .then_some(Ok(()))
}

/// Keeps, of the lines sent for neutral countries, those of one sender of the set carried out
/// for each country, and tells every other sender what became of his lines.
pub(super) fn settle(variant: &Variant, position: &Position, orders: &mut PhaseOrders) {
    let map = &variant.map;
    let for_neutral = |l: &ReadLine| match (l.power, l.sender) {
        (Some(c), Some(s)) if c != s && !map.is_player(c) => Some((c, s)),
        _ => None,
    };
    let mut senders: BTreeMap<PowerId, Vec<PowerId>> = BTreeMap::new();
    for (c, s) in orders.lines.iter().filter_map(for_neutral) {
        let list = senders.entry(c).or_default();
        if !list.contains(&s) {
            list.push(s);
        }
    }
    if senders.is_empty() {
        return;
    }
    let mut carried: BTreeMap<(PowerId, PowerId), bool> = BTreeMap::new();
    let mut kept: Vec<(PowerId, PowerId)> = Vec::new();
    for (&country, list) in &senders {
        let sets: Vec<(PowerId, Vec<String>)> = list
            .iter()
            .map(|&s| {
                (
                    s,
                    normalised_set(variant, position.phase.kind, &orders.lines, country, s),
                )
            })
            .collect();
        let winner = winning_set(variant, position, country, &sets);
        for (s, set) in &sets {
            carried.insert((country, *s), Some(set) == winner);
        }
        if let Some(&(s, _)) = sets.iter().find(|(_, set)| Some(set) == winner) {
            kept.push((country, s));
        }
    }
    for line in std::mem::take(&mut orders.lines) {
        match for_neutral(&line) {
            Some(key) if kept.contains(&key) => orders.lines.push(line),
            Some((country, sender)) => {
                let name = map.power(country).name.clone();
                let error = match line.result {
                    Err(e) => e,
                    Ok(_) if carried.get(&(country, sender)) == Some(&true) => {
                        OrderError::new(OrderErrorKind::JointOrdersCarried(name), 0)
                    }
                    Ok(_) => OrderError::new(OrderErrorKind::JointOrdersNotCarried(name), 0),
                };
                orders.sender_only.push((Some(sender), line.text.into(), error));
            }
            None => orders.lines.push(line),
        }
    }
}

/// The set of orders a sender gave the country: those carried out of his lines for it, without
/// holds, written out and sorted, so that equal sets compare equal.
fn normalised_set(
    variant: &Variant,
    kind: PhaseKind,
    lines: &[ReadLine],
    country: PowerId,
    sender: PowerId,
) -> Vec<String> {
    let mine = PhaseOrders {
        lines: lines
            .iter()
            .filter(|l| l.power == Some(country) && l.sender == Some(sender))
            .cloned()
            .collect(),
        ..PhaseOrders::default()
    };
    let carried = mine.carried_out(variant, kind);
    let mut set: Vec<String> = mine
        .lines
        .iter()
        .zip(carried)
        .filter(|&(_, c)| c)
        .filter_map(|(l, _)| l.result.as_ref().ok())
        .filter(|o| !matches!(o, Order::Hold { .. }))
        .map(|o| o.display(&variant.map).to_string())
        .collect();
    set.sort();
    set
}

/// The set carried out for the country: the sole controller's, or under joint control the first
/// set whose senders together have more than half of the activated players' influence.
fn winning_set<'a>(
    variant: &Variant,
    position: &Position,
    country: PowerId,
    sets: &'a [(PowerId, Vec<String>)],
) -> Option<&'a Vec<String>> {
    let politics = position.rules.politics();
    if politics.controllers(country).len() == 1 {
        return sets.first().map(|(_, set)| set);
    }
    let total = crate::politics::activated_influence(variant, politics, country);
    sets.iter().map(|(_, set)| set).find(|&set| {
        let sum: u32 = sets
            .iter()
            .filter(|(_, other)| other == set)
            .map(|&(s, _)| politics.influence(country, s))
            .sum();
        2 * sum > total
    })
}
