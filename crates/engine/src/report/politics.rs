//! What a player alone is told of the politics of a phase (Hegemony 1.1): his provocations of
//! neutral countries (1.1.10). Influence and control are never published (research D-22).

use super::{Lang, Words};
use crate::game::PhaseReport;
use crate::ids::PowerId;
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

/// The provocations of a phase by one player, in his language.
pub fn provocations_of(variant: &Variant, report: &PhaseReport, player: PowerId, lang: Lang) -> Vec<String> {
    report
        .movement
        .iter()
        .flat_map(|m| &m.provocations)
        .filter(|p| p.player == player)
        .map(|p| provocation_text(variant, p, lang))
        .collect()
}
