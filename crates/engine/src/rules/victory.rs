//! The end of a Hegemony game (4.2, 4.3).
//!
//! Elimination (4.2): a player whose country owns no centre, or has no unit and no home centre
//! to build one in (a leader is no unit, research D-23), is out; at the end of that phase his
//! influence in every neutral country falls to nothing and he controls none of them any more
//! (4.2.3), control being determined anew from the influence left.
//!
//! Victory (4.3.1), the condition chosen for the game (`victory` 1–5; without one the variant's
//! centre count decides, which is condition 1):
//! 1. a country with 17 centre values;
//! 2. a player controlling 16 centre values alone, his own and those of the neutrals he
//!    controls alone, at least half of them his own;
//! 3. condition 1, or two players with 20 centre values together: they share the victory;
//! 4. a country with 12 centre values: of several, the one with most; equal ones draw;
//! 5. more than half of the capitals of the scenario's players, owned or owned by a neutral the
//!    player controls alone (research D-27).
//!
//! Several players meeting conditions 2, 4 or 5 at once: the most centre values (capitals) win,
//! equal ones draw; several pairs under condition 3: the pair with most centre values, the first
//! by the players' order on a tie.

use crate::game::GameResult;
use crate::ids::PowerId;
use crate::position::Position;
use crate::variant::Variant;

/// The centre values condition 2 needs (4.3.1.2).
const SOLE_CONTROL_VALUES: u32 = 16;
/// The centre values two players need together under condition 3 (4.3.1.3).
const HEGEMONY_OF_TWO: u32 = 20;
/// The centre values condition 4 needs (4.3.1.4).
const SMALL_VICTORY: u32 = 12;

/// Whether the game ends by its victory condition (see [`super::RuleModule::game_end`]).
pub(super) fn game_end(variant: &Variant, position: &Position) -> Option<Option<GameResult>> {
    let condition = position.rules.politics().options().victory?;
    let values = |p: PowerId| position.centre_count(&variant.map, p) as u32;
    let players: Vec<PowerId> = variant.map.powers().iter().map(|p| p.id).collect();
    Some(match condition {
        1 => most(&players, values, variant.victory_centres),
        2 => {
            let eligible: Vec<PowerId> = players
                .iter()
                .copied()
                .filter(|&p| 2 * values(p) >= controlled_values(variant, position, p))
                .collect();
            most(
                &eligible,
                |p| controlled_values(variant, position, p),
                SOLE_CONTROL_VALUES,
            )
        }
        3 => most(&players, values, variant.victory_centres).or_else(|| two(&players, values)),
        4 => most(&players, values, SMALL_VICTORY),
        5 => capitals(variant, position, &players),
        _ => None,
    })
}

/// The player with the most of `score` at `need` or more, or a draw of those tied for the most.
fn most(players: &[PowerId], score: impl Fn(PowerId) -> u32, need: u32) -> Option<GameResult> {
    let best = players.iter().map(|&p| score(p)).max().filter(|&n| n >= need)?;
    let top: Vec<PowerId> = players.iter().copied().filter(|&p| score(p) == best).collect();
    Some(match top[..] {
        [only] => GameResult::Victory(only),
        _ => GameResult::Draw(top),
    })
}

/// Two players with `HEGEMONY_OF_TWO` centre values together (4.3.1.3).
fn two(players: &[PowerId], values: impl Fn(PowerId) -> u32) -> Option<GameResult> {
    let mut best: Option<(u32, PowerId, PowerId)> = None;
    for (i, &a) in players.iter().enumerate() {
        for &b in &players[i + 1..] {
            let sum = values(a) + values(b);
            if sum >= HEGEMONY_OF_TWO && best.is_none_or(|(n, _, _)| sum > n) {
                best = Some((sum, a, b));
            }
        }
    }
    best.map(|(_, a, b)| GameResult::SharedVictory(vec![a, b]))
}

/// A player's centre values and those of the neutral countries he controls alone.
pub(super) fn controlled_values(variant: &Variant, position: &Position, player: PowerId) -> u32 {
    let map = &variant.map;
    let politics = position.rules.politics();
    let own = position.centre_count(map, player) as u32;
    let neutrals: u32 = map
        .countries()
        .iter()
        .filter(|c| politics.controllers(c.id) == [player])
        .map(|c| position.centre_count(map, c.id) as u32)
        .sum();
    own + neutrals
}

/// More than half of the capitals of the scenario's players (4.3.1.5, D-27).
fn capitals(variant: &Variant, position: &Position, players: &[PowerId]) -> Option<GameResult> {
    let map = &variant.map;
    let politics = position.rules.politics();
    let capitals: Vec<_> = players.iter().filter_map(|&p| map.power(p).capital).collect();
    let held = |p: PowerId| {
        capitals
            .iter()
            .filter(|c| position.owners[c.index()].is_some_and(|o| o == p || politics.controllers(o) == [p]))
            .count() as u32
    };
    let need = capitals.len() as u32 / 2 + 1;
    most(players, held, need)
}

/// The players out of the game (4.2.1–2).
fn eliminated(variant: &Variant, position: &Position) -> Vec<PowerId> {
    let map = &variant.map;
    map.powers()
        .iter()
        .filter(|p| {
            let centres = position.centre_count(map, p.id);
            let units = position.units.iter().any(|u| u.power == p.id)
                || position.dislodged.iter().any(|d| d.unit.power == p.id);
            let home = p.home.iter().any(|h| position.owners[h.index()] == Some(p.id));
            centres == 0 || (!units && !home)
        })
        .map(|p| p.id)
        .collect()
}

/// The influence and control of the players out of the game end (4.2.3).
pub(super) fn end_of_phase(variant: &Variant, next: &mut Position) {
    let out = eliminated(variant, next);
    let politics = next.rules.politics();
    let affected = out.iter().any(|&p| {
        politics.influences().keys().any(|&(_, q)| q == p) || politics.controls().values().any(|by| by.contains(&p))
    });
    if !affected {
        return;
    }
    let mut politics = politics.clone();
    let mut lost_control = Vec::new();
    for &p in &out {
        let countries: Vec<PowerId> = politics
            .influences()
            .keys()
            .filter(|&&(_, q)| q == p)
            .map(|&(c, _)| c)
            .collect();
        for c in countries {
            politics.forfeit(c, p);
        }
        lost_control.extend(
            politics
                .controls()
                .iter()
                .filter(|(_, by)| by.contains(&p))
                .map(|(&c, _)| c),
        );
    }
    for c in lost_control {
        let by = crate::politics::control_of(variant, &politics, c);
        politics.set_control_of(c, by);
    }
    *next.rules.politics_mut() = politics;
}
