//! Orders of Hegemony's leaders alone (3.1): in a movement phase hold, a step to a bordering
//! province (a sea only onto a fleet of his country), or a move by convoy; in a retreat phase
//! a displaced leader's retreats, and a leader's retreats in case a retreating unit displaces
//! him (3.1.6.3).

use crate::ids::{LocationId, ProvinceId, UnitType};
use crate::legal::board::Board;
use crate::map::Terrain;
use crate::order::model::{LeaderAct, LeaderOrder, Order};
use crate::rule_state::LeaderPlace;

/// The movement orders of a leader on the board.
pub(crate) fn movement(board: &Board<'_>, leader: &LeaderPlace, out: &mut Vec<Order>) {
    let map = board.map;
    let from = map.province_of(leader.location);
    let at = map.province(from).main;
    let order = |act| Order::Leader(LeaderOrder { at, act });
    out.push(order(LeaderAct::Hold));
    let reach = board.convoy_reach(from, None);
    for p in map.provinces() {
        if p.id == from || board.shut(p.id) {
            continue;
        }
        let borders = map.borders(from, p.id);
        let mv = |via_convoy| order(LeaderAct::Move { to: p.main, via_convoy });
        if p.terrain == Terrain::Sea {
            let own_fleet = board
                .unit_in(p.id)
                .is_some_and(|u| u.kind == UnitType::Fleet && u.power == leader.power);
            if borders && own_fleet {
                out.push(mv(false));
            }
            continue;
        }
        if !map.location(p.main).army {
            continue;
        }
        let convoy = map.convoy_possible(from, p.id) && board.chain_reaches(&reach, p.id);
        if borders {
            out.push(mv(false));
        }
        if convoy {
            out.push(mv(true));
        }
    }
}

/// The retreat orders of a leader: a displaced one to each of his retreats, one on the board to
/// each bordering province that is no sea.
pub(crate) fn retreats(
    board: &Board<'_>,
    leader: &LeaderPlace,
    displaced: Option<&[LocationId]>,
    out: &mut Vec<Order>,
) {
    let map = board.map;
    let from = map.province_of(leader.location);
    let at = map.province(from).main;
    let allowed = |p: ProvinceId| match displaced {
        Some(retreats) => retreats.contains(&map.province(p).main),
        None => p != from && map.borders(from, p),
    };
    for p in map.provinces() {
        if p.terrain != Terrain::Sea && !board.shut(p.id) && allowed(p.id) {
            out.push(Order::Leader(LeaderOrder {
                at,
                act: LeaderAct::Retreat { to: p.main },
            }));
        }
    }
}
