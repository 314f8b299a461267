//! What the game page's script needs to build orders by clicking: the kind of phase, where the
//! viewer may build this winter (and what), and the words of the order bar.

use spielleiter_engine::ids::UnitType;
use spielleiter_engine::phase::PhaseKind;
use spielleiter_engine::{Position, Variant};

use super::Text;

/// The phase's kind as the script reads it: `M`, `R` or `A`.
pub(crate) fn phase_letter(position: &Position) -> &'static str {
    match position.phase.kind {
        PhaseKind::Movement => "M",
        PhaseKind::Retreat => "R",
        PhaseKind::Adjustment => "A",
    }
}

/// Where `power` may build this winter and what: `par:A bre:A,F stp:A,F/stp/nc,F/stp/sc`
/// (empty outside a winter with builds).
pub(crate) fn build_sites(v: &Variant, position: &Position, power: Option<&str>) -> String {
    let Some(id) = power.and_then(|p| v.map.power_by_name(p)) else {
        return String::new();
    };
    if position.phase.kind != PhaseKind::Adjustment {
        return String::new();
    }
    let builds = spielleiter_engine::game::expected_counts(v, position)
        .get(id.index())
        .copied()
        .unwrap_or(0);
    if builds <= 0 {
        return String::new();
    }
    let map = &v.map;
    position
        .free_home_centres(map, id)
        .map(|p| {
            let province = map.province(p);
            let site = map.location_abbreviation(province.main);
            let mut kinds = Vec::new();
            if map.location(province.main).allows(UnitType::Army) {
                kinds.push("A".to_string());
            }
            if province.has_split_coast() {
                kinds.extend(
                    province
                        .coasts
                        .iter()
                        .map(|&c| format!("F/{}", map.location_abbreviation(c))),
                );
            } else if map.location(province.main).allows(UnitType::Fleet) {
                kinds.push("F".to_string());
            }
            format!("{site}:{}", kinds.join(","))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of the order bar, as JSON for the script (escaped by the template).
pub(crate) fn builder_words(t: &Text) -> String {
    serde_json::json!({
        "pick": t.click_pick,
        "hold": t.click_hold,
        "move": t.click_move,
        "support": t.click_support,
        "convoy": t.click_convoy,
        "retreat": t.click_retreat,
        "disband": t.click_disband,
        "build": t.click_build,
        "build_army": t.click_build_army,
        "build_fleet": t.click_build_fleet,
        "cancel": t.click_cancel,
    })
    .to_string()
}
