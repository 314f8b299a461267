//! What the adjudication of a phase tells one player alone, never published: his lines that
//! were not carried out (retreats in advance not used, orders for a phase not played, orders for
//! another power's units), his leaders' retreats not used, orders a rule replaced, and in
//! Hegemony his allocations of political factors, his provocations (1.1.10), his income (1.1.9)
//! and his politics after a winter (research D-22).
//!
//! One list ([`notices`]) serves the interchange's `notices` (English), the mails and the
//! hot-seat `play` (each language): what a player is told cannot differ between them.

use super::politics::{allocation_reason_de, provocation_text};
use super::{Lang, error_de};
use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::game::{PhaseReport, ReadLine};
use crate::ids::PowerId;
use crate::map::Map;
use crate::order::model::LeaderAct;
use crate::order::{Order, OrderError};
use crate::phase::PhaseKind;
use crate::position::Position;
use crate::rules::{Provocation, RuleName};
use crate::variant::Variant;

/// What became of something its player alone learns of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told<'a> {
    /// A line refused or not used, with the reader's reason.
    Refused(&'a OrderError),
    /// A leader's retreat order when the leader was not displaced.
    LeaderNotDisplaced,
    /// An allocation of political factors and what became of it (none: not carried out).
    Allocation(Option<AdjustmentOutcome>),
    /// A movement order a rule replaced by another (a neutral's support that became a hold).
    Replaced {
        /// The order carried out in its place.
        done: Order,
        /// The rule's number.
        rule: &'static str,
    },
    /// A provocation of a neutral country by one of the player's units.
    Provocation(&'a Provocation),
}

/// One thing a player alone is told, with the line it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice<'a> {
    /// The player told (none: the line's power was never known).
    pub to: Option<PowerId>,
    /// The line as sent (for a provocation: the provoking order).
    pub order: String,
    /// What became of it.
    pub told: Told<'a>,
}

impl Notice<'_> {
    /// What became of the line, in a few words of `lang`.
    pub fn text(&self, variant: &Variant, lang: Lang) -> String {
        let de = lang == Lang::De;
        match &self.told {
            Told::Refused(e) if de => error_de(&e.kind),
            Told::Refused(e) => e.kind.to_string(),
            Told::LeaderNotDisplaced if de => {
                "der Anführer wurde nicht verdrängt: sein Rückzugsbefehl wurde nicht verwendet".to_string()
            }
            Told::LeaderNotDisplaced => "the leader was not displaced: his retreat order was not used".to_string(),
            Told::Allocation(Some(o)) if de => allocation_reason_de(o).to_string(),
            Told::Allocation(Some(o)) => super::adjustment_reason_en(o),
            Told::Allocation(None) if de => "nicht ausgeführt".to_string(),
            Told::Allocation(None) => "not carried out".to_string(),
            Told::Replaced { done, rule } => {
                let done = done.display(&variant.map);
                if de {
                    format!("Regel {rule} gab der Einheit einen anderen Befehl: {done}")
                } else {
                    format!("rule {rule} gave the unit another order: {done}")
                }
            }
            Told::Provocation(p) => provocation_text(variant, p, lang),
        }
    }

    /// The notice as one line of a mail: the line and, starred, what became of it.
    pub fn line(&self, variant: &Variant, lang: Lang) -> String {
        match self.told {
            Told::Provocation(_) => format!("{}.", self.text(variant, lang)),
            _ => format!("{}  (*{}*)", self.order, self.text(variant, lang)),
        }
    }
}

/// What the published report does with one read line.
pub(crate) enum Fate<'a> {
    /// Nothing: a legal order replaced by a later one, never published nor told.
    Dropped,
    /// Published among the rejected orders.
    Rejected(&'a OrderError),
    /// Published as carried out.
    Published(Order),
    /// Told to its sender alone; a replaced order's replacement is published as well.
    Told(Told<'a>),
}

/// What becomes of `line` (`carried`: whether it is carried out, see
/// [`crate::game::PhaseOrders::carried_out`]).
pub(crate) fn fate<'a>(map: &Map, report: &PhaseReport, line: &'a ReadLine, carried: bool) -> Fate<'a> {
    match &line.result {
        Err(e) => Fate::Rejected(e),
        Ok(_) if !carried => Fate::Dropped,
        // A retreat for a leader who was not displaced is never carried out.
        Ok(order) if unused_leader_retreat(map, report, order) => Fate::Told(Told::LeaderNotDisplaced),
        // Political factors are never published (Hegemony, research D-22).
        Ok(order @ Order::Allocate { .. }) => {
            Fate::Told(Told::Allocation(allocation_outcome(report, line.power, order)))
        }
        Ok(order) => match replaced_by_rule(map, report, order) {
            Some((done, rule)) => Fate::Told(Told::Replaced { done, rule }),
            None => Fate::Published(*order),
        },
    }
}

/// Everything the phase tells players alone, in the order of the lines, then the lines told to
/// their sender only, then the provocations.
pub fn notices<'a>(variant: &Variant, report: &'a PhaseReport) -> Vec<Notice<'a>> {
    notices_with(variant, report, &report.orders.carried_out(variant, report.phase.kind))
}

/// [`notices`], with the lines' `carried` already known (the interchange computes it once).
pub(crate) fn notices_with<'a>(variant: &Variant, report: &'a PhaseReport, carried: &[bool]) -> Vec<Notice<'a>> {
    let map = &variant.map;
    let mut out: Vec<Notice<'a>> = report
        .orders
        .lines
        .iter()
        .zip(carried)
        .filter_map(|(line, &carried)| match fate(map, report, line, carried) {
            Fate::Told(told) => Some(Notice {
                to: line.sender.or(line.power),
                order: line.text.to_string(),
                told,
            }),
            _ => None,
        })
        .collect();
    out.extend(report.orders.sender_only.iter().map(|(p, text, e)| Notice {
        to: *p,
        order: text.clone(),
        told: Told::Refused(e),
    }));
    if let Some(m) = &report.movement {
        for p in &m.provocations {
            let order = m
                .units
                .iter()
                .position(|u| *u == p.unit)
                .map(|i| m.orders[i].display(map).to_string())
                .unwrap_or_default();
            out.push(Notice {
                to: Some(p.player),
                order,
                told: Told::Provocation(p),
            });
        }
    }
    out
}

/// What `player` alone is told of the phase, one line each in `lang` (`before`: the position
/// the phase was played from): his orders refused, his notices and, where the variant has
/// political factors, his
/// income of a winter and his politics after it, after his provocation, or when his control of a
/// country changed (gained, lost, or now alone). Empty when there is nothing to tell.
pub fn private_report(
    variant: &Variant,
    before: &Position,
    report: &PhaseReport,
    player: PowerId,
    lang: Lang,
) -> Vec<String> {
    // The player's orders refused (published nowhere: a line sent in advance for this phase that
    // no longer fits is a plan never carried out), then the rest he alone is told.
    let refused = report.orders.lines.iter().filter_map(|l| match &l.result {
        Err(e) if l.sender.or(l.power) == Some(player) => Some(Notice {
            to: Some(player),
            order: l.text.to_string(),
            told: Told::Refused(e),
        }),
        _ => None,
    });
    let mine: Vec<Notice<'_>> = refused
        .chain(notices(variant, report))
        .filter(|n| n.to == Some(player))
        .collect();
    let mut lines: Vec<String> = mine.iter().map(|n| n.line(variant, lang)).collect();
    if !variant.rules.contains(&RuleName::Politics) || !variant.map.is_player(player) {
        return lines;
    }
    let winter = report.phase.kind == PhaseKind::Adjustment;
    if winter {
        let steps = report.adjustments.as_ref().and_then(|a| a.winter.as_ref());
        let income = crate::rules::winter_income(variant, before, steps);
        // No income in the scenario's first winter (research D-6): nothing to tell then.
        if let Some(&income) = income.get(&player) {
            lines.push(match (lang, income) {
                (Lang::De, 1) => "Einkommen dieses Winters: 1 politischer Faktor (Regel 1.1.9).".to_string(),
                (Lang::De, n) => format!("Einkommen dieses Winters: {n} politische Faktoren (Regel 1.1.9)."),
                (Lang::En, 1) => "Income this winter: 1 political factor (rule 1.1.9).".to_string(),
                (Lang::En, n) => format!("Income this winter: {n} political factors (rule 1.1.9)."),
            });
        }
    }
    let provoked = mine.iter().any(|n| matches!(n.told, Told::Provocation(_)));
    if winter || provoked || controlled(before, player) != controlled(&report.next, player) {
        lines.extend(super::politics_summary(variant, &report.next, player, lang));
    }
    lines
}

/// The neutral countries `player` controls in `position`, each with whether alone.
fn controlled(position: &Position, player: PowerId) -> Vec<(PowerId, bool)> {
    let politics = position.rules.politics();
    politics
        .controls()
        .iter()
        .filter(|(_, by)| by.contains(&player))
        .map(|(&country, by)| (country, by.len() == 1))
        .collect()
}

/// What became of an allocation of political factors (none: it was not among the legal orders).
fn allocation_outcome(report: &PhaseReport, power: Option<PowerId>, order: &Order) -> Option<AdjustmentOutcome> {
    report.adjustments.as_ref().and_then(|a| {
        a.orders
            .iter()
            .zip(&a.outcomes)
            .find(|(o, _)| o.power == power && o.order == *order)
            .map(|(_, outcome)| *outcome)
    })
}

/// The order a rule gave the unit of a movement order in its place, and the rule's number, if a
/// rule replaced it.
fn replaced_by_rule(map: &Map, report: &PhaseReport, order: &Order) -> Option<(Order, &'static str)> {
    let m = report.movement.as_ref()?;
    let province = map.province_of(order.unit()?.location);
    let i = m.units.iter().position(|u| map.province_of(u.location) == province)?;
    let rule = m.by_rule.get(i).copied().flatten()?;
    (m.orders[i] != *order).then_some((m.orders[i], rule))
}

/// Whether an order is a leader's retreat that the retreats did not use (he was not displaced).
fn unused_leader_retreat(map: &Map, report: &PhaseReport, order: &Order) -> bool {
    let Order::Leader(l) = *order else { return false };
    if !matches!(l.act, LeaderAct::Retreat { .. }) {
        return false;
    }
    let here = map.province_of(l.at);
    !report
        .retreats
        .iter()
        .flat_map(|r| &r.leaders)
        .any(|r| map.province_of(r.from) == here && r.order == Some(l))
}
