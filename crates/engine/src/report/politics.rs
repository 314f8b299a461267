//! What a player alone is told of the politics (Hegemony 1.1): his stock, influence and control
//! before he orders, the outcome of his allocations and his provocations of neutral countries
//! (1.1.10) after a phase. None of it is ever published (research D-22).

use super::{Lang, Words};
use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::ids::PowerId;
use crate::position::Position;
use crate::rules::Provocation;
use crate::variant::Variant;

/// One provocation, for its provoker: which unit provoked which country, the influence lost and
/// whether control went with it.
pub fn provocation_text(variant: &Variant, p: &Provocation, lang: Lang) -> String {
    let w = Words { lang };
    let unit = format!("{} {}", w.unit(p.unit.kind), w.place(variant, p.unit.location));
    let country = w.power(variant, p.country);
    let player = w.power(variant, p.player);
    let n = p.influence_lost;
    match (lang, p.control_lost) {
        (Lang::En, false) => {
            format!("{unit} provoked {country}: {player}'s influence there ({n} PF) is lost (rule 1.1.10)")
        }
        (Lang::En, true) => format!(
            "{unit} provoked {country}: {player}'s influence there ({n} PF) is lost, and with it the control of {country} (rule 1.1.10)"
        ),
        (Lang::De, false) => {
            format!(
                "{unit} hat {country} provoziert: der Einfluss von {player} dort ({n} PF) ist verloren (Regel 1.1.10)"
            )
        }
        (Lang::De, true) => format!(
            "{unit} hat {country} provoziert: der Einfluss von {player} dort ({n} PF) ist verloren und damit die Kontrolle über {country} (Regel 1.1.10)"
        ),
    }
}

/// What a player alone may know of the politics before he orders: his political factors in
/// stock, his influence in each neutral country, and the countries he controls (alone or
/// jointly). Empty where the variant has no politics.
pub fn politics_summary(variant: &Variant, position: &Position, player: PowerId, lang: Lang) -> Vec<String> {
    let w = Words { lang };
    let de = lang == Lang::De;
    let politics = position.rules.politics();
    if politics.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![if de {
        format!("Politische Faktoren im Vorrat: {}.", politics.stock(player))
    } else {
        format!("Political factors in stock: {}.", politics.stock(player))
    }];
    let influence: Vec<String> = politics
        .influences()
        .iter()
        .filter(|&(&(_, p), _)| p == player)
        .map(|(&(c, _), n)| format!("{} {n}", w.power(variant, c)))
        .collect();
    if !influence.is_empty() {
        let label = if de { "Einfluss" } else { "Influence" };
        lines.push(format!("{label}: {}.", influence.join(", ")));
    }
    for (&country, by) in politics.controls().iter().filter(|(_, by)| by.contains(&player)) {
        let name = w.power(variant, country);
        lines.push(match (de, by.len() == 1) {
            (false, true) => format!("Controls {name} alone: orders for it read `{name}: A …`."),
            (false, false) => format!("Controls {name} jointly: equal sets of orders for it add up."),
            (true, true) => format!("Kontrolliert {name} allein: Befehle dafür lauten `{name}: A …`."),
            (true, false) => format!("Kontrolliert {name} gemeinsam: gleiche Befehlssätze zählen zusammen."),
        });
    }
    lines
}

/// What became of an allocation, in German.
pub(super) fn allocation_reason_de(outcome: &AdjustmentOutcome) -> &'static str {
    match outcome {
        AdjustmentOutcome::Allocated => "zugeteilt",
        AdjustmentOutcome::OverAllocated => {
            "ungültig: die Zuteilungen zusammen verlangen mehr politische Faktoren als im Vorrat sind; keine wurde gemacht"
        }
        AdjustmentOutcome::HomeCentreHeld => {
            "ungültig: ein Heimatzentrum dieses Landes ist im eigenen Besitz; die PF bleiben im Vorrat (Regel 1.1.8)"
        }
        _ => "nicht ausgeführt",
    }
}
