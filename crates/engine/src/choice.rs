//! The choices of a scenario's first phase (Hegemony 5.1.7): a country picks one of several sets
//! of pieces — an army or a fleet, a unit or a leader, England's fleet in Ireland with the
//! overseas centre MID or Marlborough. The first set stands on the board from the start; an
//! order `Choose L Net` in the first phase puts the chosen set in its place. What each choice
//! offers is the scenario's data (`[[scenario.choice]]`).

use crate::ids::{PowerId, ProvinceId};
use crate::order::{Order, PowerOrder};
use crate::position::{Position, Unit};
use crate::rule_state::LeaderPlace;
use crate::scenario::{Choice, Piece};
use crate::variant::Variant;

/// What became of one choice in the first phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceMade {
    /// The choice's index among the scenario's choices.
    pub choice: usize,
    /// The choosing country.
    pub power: PowerId,
    /// The index of the set of pieces that now stands (0: the default).
    pub option: usize,
    /// Whether the country chose (false: nothing was ordered and the default stands, 5.1.7.4).
    pub ordered: bool,
    /// Whether the chosen set could not be placed (the default's pieces were no longer where
    /// the scenario put them, or the new places were taken): the default stands.
    pub blocked: bool,
}

/// Opens the scenario's choices when the position is its first phase (5.1.7.3), closes them
/// otherwise: a position read from elsewhere (the JSON interchange, a rule case) knows them so.
pub fn open_in_first_phase(variant: &Variant, position: &mut Position) {
    let choices = match &variant.scenario {
        Some(s) if position.phase == variant.start => s.choices.clone(),
        _ => Vec::new(),
    };
    position.rules.open(choices);
}

/// Whether two pieces are the same: a unit of the same type in the same province, a leader in
/// the same province, the same overseas centre.
fn same(map: &crate::map::Map, a: Piece, b: Piece) -> bool {
    match (a, b) {
        (Piece::Unit(k, l), Piece::Unit(j, m)) => k == j && map.province_of(l) == map.province_of(m),
        (Piece::Leader(_, l), Piece::Leader(_, m)) => map.province_of(l) == map.province_of(m),
        (Piece::Overseas(p), Piece::Overseas(q)) => p == q,
        _ => false,
    }
}

/// The index of the set of `choice` that holds `piece`, if one does.
pub fn option_of(variant: &Variant, choice: &Choice, piece: Piece) -> Option<usize> {
    choice
        .options
        .iter()
        .position(|set| set.iter().any(|&p| same(&variant.map, p, piece)))
}

/// Carries out the choices open in `position` with the `Choose` orders among `orders` (the last
/// one of each country for each choice counts), changing the position's pieces; what became of
/// each choice.
pub(crate) fn apply(variant: &Variant, position: &mut Position, orders: &[PowerOrder]) -> Vec<ChoiceMade> {
    let choices = position.rules.open_choices().to_vec();
    let mut made = Vec::new();
    for (index, choice) in choices.iter().enumerate() {
        let chosen = orders
            .iter()
            .rev()
            .filter(|o| o.power == Some(choice.power))
            .find_map(|o| match o.order {
                Order::Choose(piece) => option_of(variant, choice, piece),
                _ => None,
            });
        let mut option = chosen.unwrap_or(0);
        let mut blocked = false;
        if option != 0 {
            match swapped(variant, position, choice, option) {
                Some(next) => *position = next,
                None => {
                    blocked = true;
                    option = 0;
                }
            }
        }
        made.push(ChoiceMade {
            choice: index,
            power: choice.power,
            option,
            ordered: chosen.is_some(),
            blocked,
        });
    }
    made
}

/// The position with the choice's first set replaced by set `option`, if every piece of the
/// first set is still where the scenario put it and every new piece finds its place free.
fn swapped(variant: &Variant, position: &Position, choice: &Choice, option: usize) -> Option<Position> {
    let map = &variant.map;
    let power = choice.power;
    let mut next = position.clone();
    for &piece in &choice.options[0] {
        if !present(variant, &next, power, piece) {
            return None;
        }
        take(variant, &mut next, power, piece);
    }
    for &piece in &choice.options[option] {
        let free = match piece {
            Piece::Unit(_, at) => next.unit_in(map, map.province_of(at)).is_none(),
            Piece::Leader(leader, at) => {
                let here = next.unit_in(map, map.province_of(at));
                !next.rules.leaders().iter().any(|l| l.leader == leader) && here.is_none_or(|u| u.power == power)
            }
            Piece::Overseas(p) => next.owners.get(p.index()).copied().flatten().is_none(),
        };
        if !free {
            return None;
        }
        put(variant, &mut next, power, piece);
    }
    Some(next)
}

/// Whether a piece of the first set stands where the scenario put it.
fn present(variant: &Variant, position: &Position, power: PowerId, piece: Piece) -> bool {
    let map = &variant.map;
    match piece {
        Piece::Unit(kind, at) => position
            .units
            .iter()
            .any(|u| u.power == power && u.kind == kind && map.province_of(u.location) == map.province_of(at)),
        Piece::Leader(leader, _) => position
            .rules
            .leaders()
            .iter()
            .any(|l| l.leader == leader && l.power == power),
        Piece::Overseas(p) => position.owners.get(p.index()).copied().flatten() == Some(power),
    }
}

/// Takes a piece of the default set off the board.
fn take(variant: &Variant, position: &mut Position, power: PowerId, piece: Piece) {
    let map = &variant.map;
    match piece {
        Piece::Unit(kind, at) => position
            .units
            .retain(|u| !(u.power == power && u.kind == kind && map.province_of(u.location) == map.province_of(at))),
        Piece::Leader(leader, _) => {
            let leaders = position
                .rules
                .leaders()
                .iter()
                .copied()
                .filter(|l| l.leader != leader)
                .collect();
            position.rules.set_leaders(leaders);
        }
        Piece::Overseas(p) => set_owner(position, p, None),
    }
}

/// Puts a piece of the chosen set on the board.
fn put(variant: &Variant, position: &mut Position, power: PowerId, piece: Piece) {
    match piece {
        Piece::Unit(kind, location) => position.units.push(Unit { power, kind, location }),
        Piece::Leader(leader, location) => {
            let mut leaders = position.rules.leaders().to_vec();
            let location = variant.map.province(variant.map.province_of(location)).main;
            leaders.push(LeaderPlace {
                leader,
                power,
                location,
            });
            position.rules.set_leaders(leaders);
        }
        Piece::Overseas(p) => set_owner(position, p, Some(power)),
    }
}

fn set_owner(position: &mut Position, province: ProvinceId, owner: Option<PowerId>) {
    if let Some(slot) = position.owners.get_mut(province.index()) {
        *slot = owner;
    }
}

/// The overseas centres a country may own in this variant (a piece of one of its scenario's
/// choices): a sea that counts as its centre.
pub fn is_overseas_centre(variant: &Variant, power: PowerId, province: ProvinceId) -> bool {
    variant
        .scenario
        .iter()
        .flat_map(|s| &s.choices)
        .any(|c| c.power == power && c.options.iter().flatten().any(|&p| p == Piece::Overseas(province)))
}
