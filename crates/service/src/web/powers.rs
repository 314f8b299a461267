//! The game page's table of powers: who plays each, its centres and units, and what it did about
//! the phase — sent, ready, nothing yet — where the viewer may know it (its own power always;
//! every power's for the master; who is ready for everyone when the game shows names), with
//! missed turns and civil disorder, which are public.

use spielleiter_engine::{Position, Variant};

use super::Text;
use crate::api::games::{GameView, ReadyCount};

/// One power as the page lists it.
pub(crate) struct PowerLine {
    /// Its name in the page's language.
    pub(crate) name: String,
    /// Its colour on the map.
    pub(crate) colour: String,
    /// Who plays it, once the lot was drawn.
    pub(crate) player: Option<String>,
    /// Its supply centres now.
    pub(crate) centres: usize,
    /// Its units now.
    pub(crate) units: usize,
    /// In a winter: its builds (`+2`) or disbands (`−1`), where it has any.
    pub(crate) adjust: Option<String>,
    /// What it did about the phase, in words (empty where the viewer may not know).
    pub(crate) state: String,
    /// The state's CSS class: `ready`, `sent`, `waiting`, `disorder` or `none`.
    pub(crate) class: &'static str,
}

/// What a power did about the current phase, as far as the viewer may know it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Ready,
    Sent,
    Waiting,
    Unknown,
}

/// The mark of `key` in the readiness the viewer sees; its own power from `my_sent` where the
/// lists are not shown to it.
fn mark_of(ready: Option<&ReadyCount>, key: &str, mine: bool, my_sent: bool) -> Mark {
    let Some(r) = ready else { return Mark::Unknown };
    let has = |list: &Option<Vec<String>>| list.as_ref().map(|l| l.iter().any(|p| p == key));
    match (has(&r.powers), has(&r.sent), has(&r.awaited)) {
        (Some(true), _, _) => Mark::Ready,
        (_, Some(true), _) => Mark::Sent,
        (_, _, Some(true)) => Mark::Waiting,
        _ if mine && r.mine => Mark::Ready,
        _ if mine && my_sent => Mark::Sent,
        _ if mine => Mark::Waiting,
        _ => Mark::Unknown,
    }
}

/// The powers of the variant that players play, as the page lists them. `my_sent`: the viewer
/// sent orders for the phase (its own row says so even where the lists are not shown).
pub(crate) fn power_lines(
    view: &GameView,
    v: &Variant,
    position: &Position,
    my_sent: bool,
    t: &Text,
) -> Vec<PowerLine> {
    let map = &v.map;
    let to_order = spielleiter_engine::game::powers_to_order(v, position);
    let winter = position.phase.kind == spielleiter_engine::phase::PhaseKind::Adjustment;
    let counts = if winter && view.ready.is_some() {
        spielleiter_engine::game::expected_counts(v, position)
    } else {
        Vec::new()
    };
    map.powers()
        .iter()
        .filter(|p| map.is_player(p.id))
        .map(|p| {
            let key = p.key.to_ascii_uppercase();
            let member = view
                .members
                .iter()
                .find(|m| m.role == "player" && m.power.as_deref() == Some(key.as_str()));
            let mine = view.my_power.as_deref() == Some(key.as_str());
            let mark = mark_of(view.ready.as_ref(), &key, mine, my_sent);
            // In a winter whether a power has something to order may hang on secrets
            // (Hegemony's political factors): told to its player and the master only.
            let may_know = !winter || mine || view.master;
            let idle = view.ready.is_some() && may_know && !to_order.contains(&p.id);
            let (mut state, class) = match (member.is_some_and(|m| m.civil_disorder), mark) {
                (true, _) => (t.state_disorder.to_string(), "disorder"),
                (false, _) if idle => (t.state_idle.to_string(), "none"),
                (false, Mark::Ready) => (t.state_ready.to_string(), "ready"),
                (false, Mark::Sent) => (t.state_sent.to_string(), "sent"),
                (false, Mark::Waiting) => (t.state_waiting.to_string(), "waiting"),
                (false, Mark::Unknown) => (String::new(), "none"),
            };
            if let Some(m) = member.filter(|m| m.missed_turns > 0 && !m.civil_disorder) {
                let missed = format!("{} {}", t.missed_turns, m.missed_turns);
                state = if state.is_empty() {
                    missed
                } else {
                    format!("{state} · {missed}")
                };
            }
            PowerLine {
                name: t.power_name(p),
                colour: p.colour.clone(),
                player: member.map(|m| m.name.clone()),
                centres: position.centre_count(map, p.id),
                units: position.units.iter().filter(|u| u.power == p.id).count(),
                adjust: counts
                    .get(p.id.index())
                    .map(|&c| spielleiter_engine::game::public_count(map, p.id, c))
                    .filter(|&c| c != 0)
                    .map(|c| {
                        if c > 0 {
                            format!("+{c}")
                        } else {
                            format!("−{}", c.unsigned_abs())
                        }
                    }),
                state,
                class,
            }
        })
        .collect()
}

/// The observers' names.
pub(crate) fn observers(view: &GameView) -> Vec<String> {
    view.members
        .iter()
        .filter(|m| m.role == "observer")
        .map(|m| m.name.clone())
        .collect()
}
