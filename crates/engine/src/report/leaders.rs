//! The report's lines about leaders (Hegemony): where each went in a movement phase, which must
//! retreat and where they may go, and what became of them in the retreats.

use std::fmt::Write as _;

use super::{Lang, Words, join_or};
use crate::order::Order;
use crate::order::model::{LeaderAct, LeaderOrder};
use crate::rule_state::DisplacedLeader;
use crate::rules::{LeaderMove, LeaderOutcome, LeaderRetreat, LeaderRetreatOutcome};
use crate::scenario::LeaderId;
use crate::variant::Variant;

/// A leader's name in the report's language.
fn leader_name(w: &Words, variant: &Variant, leader: LeaderId) -> String {
    let de = w.lang == Lang::De;
    variant
        .leaders
        .get(leader.index())
        .map_or_else(String::new, |x| if de { x.name_de.clone() } else { x.name.clone() })
}

/// One line per leader of a movement phase: where he went, or why not.
pub(super) fn leader_lines(w: &Words, variant: &Variant, leaders: &[LeaderMove], out: &mut String) {
    for l in leaders {
        let target = match l.order {
            Some(Order::Leader(LeaderOrder {
                act: LeaderAct::Move { to, .. },
                ..
            })) => w.place(variant, to),
            _ => String::new(),
        };
        let what = match (l.outcome, w.lang) {
            (LeaderOutcome::Stayed, Lang::En) => "stays.".to_string(),
            (LeaderOutcome::Stayed, Lang::De) => "bleibt.".to_string(),
            (LeaderOutcome::Moved(to), Lang::En) => format!("goes to {}.", w.place(variant, to)),
            (LeaderOutcome::Moved(to), Lang::De) => format!("zieht nach {}.", w.place(variant, to)),
            (LeaderOutcome::NoFleet, Lang::En) => format!("stays: no fleet of his stayed in {target}."),
            (LeaderOutcome::NoFleet, Lang::De) => format!("bleibt: in {target} blieb keine Flotte seines Landes."),
            (LeaderOutcome::NoConvoy, Lang::En) => format!("stays: no convoy to {target}."),
            (LeaderOutcome::NoConvoy, Lang::De) => format!("bleibt: kein Konvoi nach {target}."),
            (LeaderOutcome::Displaced, Lang::En) => "is displaced by a foreign unit and must retreat.".to_string(),
            (LeaderOutcome::Displaced, Lang::De) => {
                "wird von einer fremden Einheit verdrängt und muss sich zurückziehen.".to_string()
            }
            (LeaderOutcome::Lost, Lang::En) => "is left at sea without a fleet and is lost.".to_string(),
            (LeaderOutcome::Lost, Lang::De) => "bleibt ohne Flotte auf See zurück und ist verloren.".to_string(),
        };
        let _ = writeln!(
            out,
            "{}: {} ({}) {what}",
            w.power(variant, l.power),
            leader_name(w, variant, l.leader),
            w.place(variant, l.from)
        );
    }
}

/// The leaders displaced in a movement phase and where each may retreat (after the units).
pub(super) fn displaced_leader_lines(w: &Words, variant: &Variant, displaced: &[DisplacedLeader], out: &mut String) {
    if displaced.is_empty() {
        return;
    }
    let heading = match w.lang {
        Lang::En => "The following leaders must retreat (after the units):",
        Lang::De => "Folgende Anführer müssen sich zurückziehen (nach den Einheiten):",
    };
    let _ = writeln!(out, "{heading}\n");
    for d in displaced {
        let options: Vec<String> = d.retreats.iter().map(|&l| w.place(variant, l)).collect();
        let who = format!(
            "{} ({}) in {}",
            leader_name(w, variant, d.place.leader),
            w.power(variant, d.place.power),
            w.place(variant, d.place.location)
        );
        let line = match (w.lang, options.is_empty()) {
            (Lang::En, false) => format!("{who} can retreat to {}.", join_or(&options, w.lang)),
            (Lang::En, true) => format!("{who} has nowhere to retreat and leaves the board."),
            (Lang::De, false) => format!("{who} kann sich zurückziehen nach {}.", join_or(&options, w.lang)),
            (Lang::De, true) => format!("{who} hat keinen Rückzugsort und verlässt das Brett."),
        };
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out);
}

/// One line per displaced leader of a retreat phase: where he went, or why he left the board.
pub(super) fn leader_retreat_lines(w: &Words, variant: &Variant, leaders: &[LeaderRetreat], out: &mut String) {
    for l in leaders {
        let target = match l.order {
            Some(LeaderOrder {
                act: LeaderAct::Retreat { to },
                ..
            }) => w.place(variant, to),
            _ => String::new(),
        };
        let advance = match (l.in_advance, w.lang) {
            (false, _) => "",
            (true, Lang::En) => "  (ordered in advance)",
            (true, Lang::De) => "  (im Voraus befohlen)",
        };
        let displaced = match (l.by_retreat, w.lang) {
            (false, _) => "",
            (true, Lang::En) => "displaced by a retreating unit, ",
            (true, Lang::De) => "von einer sich zurückziehenden Einheit verdrängt, ",
        };
        let what = match (l.outcome, w.lang) {
            (LeaderRetreatOutcome::Retreated(to), Lang::En) => {
                format!("{displaced}retreats to {}.", w.place(variant, to))
            }
            (LeaderRetreatOutcome::Retreated(to), Lang::De) => {
                format!("{displaced}zieht sich nach {} zurück.", w.place(variant, to))
            }
            (LeaderRetreatOutcome::NoOrder, Lang::En) => format!("{displaced}no retreat order: leaves the board."),
            (LeaderRetreatOutcome::NoOrder, Lang::De) => format!("{displaced}kein Rückzugsbefehl: verlässt das Brett."),
            (LeaderRetreatOutcome::NoRetreat, Lang::En) => format!("{displaced}nowhere to retreat: leaves the board."),
            (LeaderRetreatOutcome::NoRetreat, Lang::De) => format!("{displaced}kein Rückzugsort: verlässt das Brett."),
            (LeaderRetreatOutcome::Barred, Lang::En) => {
                format!("{displaced}-> {target}: taken by a foreign unit or a standoff; leaves the board.")
            }
            (LeaderRetreatOutcome::Barred, Lang::De) => {
                format!("{displaced}-> {target}: von einer fremden Einheit besetzt oder umkämpft; verlässt das Brett.")
            }
        };
        let _ = writeln!(
            out,
            "{}: {} ({}) {what}{advance}",
            w.power(variant, l.power),
            leader_name(w, variant, l.leader),
            w.place(variant, l.from)
        );
    }
}

/// What became of a leader in a movement phase: an outcome code (none: he did as ordered) and a
/// few English words.
pub fn leader_move_reason_en(variant: &Variant, outcome: &LeaderOutcome) -> (Option<&'static str>, String) {
    let w = Words { lang: Lang::En };
    match *outcome {
        LeaderOutcome::Stayed => (None, "stayed".to_string()),
        LeaderOutcome::Moved(to) => (None, format!("went to {}", w.place(variant, to))),
        LeaderOutcome::NoFleet => (Some("no fleet"), "stayed: no fleet of his stayed there".to_string()),
        LeaderOutcome::NoConvoy => (Some("no convoy"), "stayed: no convoy".to_string()),
        LeaderOutcome::Displaced => (
            Some("displaced"),
            "displaced by a foreign unit: must retreat".to_string(),
        ),
        LeaderOutcome::Lost => (Some("lost"), "left at sea without a fleet: lost".to_string()),
    }
}

/// What became of a displaced leader in the retreats, in a few English words.
pub fn leader_retreat_reason_en(variant: &Variant, outcome: &LeaderRetreatOutcome, in_advance: bool) -> String {
    let w = Words { lang: Lang::En };
    let advance = if in_advance { " (ordered in advance)" } else { "" };
    match *outcome {
        LeaderRetreatOutcome::Retreated(to) => format!("retreated to {}{advance}", w.place(variant, to)),
        LeaderRetreatOutcome::NoOrder => "left the board: no retreat ordered".to_string(),
        LeaderRetreatOutcome::NoRetreat => "left the board: no place to retreat to".to_string(),
        LeaderRetreatOutcome::Barred => {
            format!("left the board: a foreign unit or a standoff took his retreat's target{advance}")
        }
    }
}
