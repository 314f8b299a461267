//! Adjustment adjudication: builds, disbands and waives, and the civil-disorder disbands of the
//! 2023 rulebook (DATC 4.D.8): the unit farthest from the power's nearest owned supply centre goes
//! first, counting moves over land and sea alike; ties remove fleets before armies, then in the
//! alphabetical order of the English province names.

use std::collections::VecDeque;

use crate::ids::{PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::order::{Order, PowerOrder};
use crate::position::{Position, Unit};

/// What became of one adjustment order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdjustmentOutcome {
    /// The unit was built.
    Built,
    /// The unit was disbanded.
    Disbanded,
    /// The build was given up.
    Waived,
    /// More builds or disbands than the power may make; this one was not carried out.
    TooMany,
    /// A second build in the same place, or a second disband of the same unit.
    Duplicate,
    /// The power may not build (it has no more centres than units) or need not disband.
    NotAllowed,
    /// A fleet build outside the home centres (Hegemony 3.2) that would leave no own home
    /// centre empty once the power's other builds are made.
    NoFreeHomeCentre,
    /// A second fleet build outside the home centres in one winter (Hegemony 3.2.1.2: one of
    /// the builds may be such a fleet).
    SecondSiteBuild,
    /// A build where a unit stands by now (a choice of the same phase put it there).
    Occupied,
    /// The choice was made (Hegemony 5.1.7).
    Chosen,
    /// Political factors allocated (Hegemony 1.1.1).
    Allocated,
    /// The player's allocations together asked for more than his stock: none was made.
    OverAllocated,
    /// The player's country (or a neutral he controls alone) owns a home centre of the country:
    /// the political factors stay in stock (Hegemony 1.1.8).
    HomeCentreHeld,
    /// The chosen set could not be placed: the default's pieces were no longer where the
    /// scenario put them, or the new places were taken; the default stands.
    ChoiceBlocked,
    /// A declaration of friendship, in force this winter (Hegemony 1.2).
    Declared,
}

/// The outcome of an adjustment phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjustmentResult {
    /// Per order, in input order.
    pub outcomes: Vec<AdjustmentOutcome>,
    /// Units removed by the civil-disorder rule because too few disbands were ordered.
    pub civil_disorder: Vec<Unit>,
    /// The units on the board afterwards.
    pub units: Vec<Unit>,
}

/// How many builds (positive) or disbands (negative) a power has: owned centres minus units. A
/// country no player plays never builds (it loses units by civil disorder).
pub fn adjustment_count(map: &Map, position: &Position, power: PowerId) -> i32 {
    let centres = position.centre_count(map, power) as i32;
    let units = position.units.iter().filter(|u| u.power == power).count() as i32;
    count_for(map, power, centres - units)
}

/// [`adjustment_count`] of every country, by `PowerId`: one pass over the centres and one over
/// the units.
pub fn adjustment_counts(map: &Map, position: &Position) -> Vec<i32> {
    let centres = position.centre_counts(map);
    let mut units = vec![0i32; centres.len()];
    for u in &position.units {
        if let Some(count) = units.get_mut(u.power.index()) {
            *count += 1;
        }
    }
    map.countries()
        .iter()
        .map(|p| {
            let i = p.id.index();
            let centres = centres.get(i).map_or(0, |&c| c as i32);
            count_for(map, p.id, centres - units.get(i).copied().unwrap_or(0))
        })
        .collect()
}

/// The builds (positive) or disbands (negative) of a power whose centres exceed its units by
/// `count`: none for a country whose units need no supply, no builds for a country no player
/// plays.
pub fn count_for(map: &Map, power: PowerId, count: i32) -> i32 {
    if !map.power(power).needs_supply {
        0
    } else if map.is_player(power) {
        count
    } else {
        count.min(0)
    }
}

/// Adjudicates one adjustment phase. Orders must be legal (read against this position) and carry
/// their power.
pub fn adjudicate_adjustments(map: &Map, position: &Position, orders: &[PowerOrder]) -> AdjustmentResult {
    adjudicate_adjustments_counted(map, position, orders, &|p| adjustment_count(map, position, p))
}

/// Adjudicates one adjustment phase with each power's builds or disbands given by `count`
/// (Hegemony: after the winter's supply-line removals and blocked overseas centres).
pub fn adjudicate_adjustments_counted(
    map: &Map,
    position: &Position,
    orders: &[PowerOrder],
    count_of: &dyn Fn(PowerId) -> i32,
) -> AdjustmentResult {
    let mut outcomes = vec![AdjustmentOutcome::NotAllowed; orders.len()];
    let mut units = position.units.clone();
    let mut civil_disorder = Vec::new();
    for power in map.countries() {
        let count = count_of(power.id);
        let mine = orders.iter().enumerate().filter(|(_, o)| o.power == Some(power.id));
        if count > 0 {
            let mine: Vec<usize> = mine.map(|(i, _)| i).collect();
            let mut made = builds(map, position, power.id, count, orders, &mine, false);
            let site_built = mine
                .iter()
                .zip(&made.0)
                .any(|(&i, o)| *o == AdjustmentOutcome::Built && is_site_build(map, &orders[i]));
            if site_built && !home_centre_left_empty(map, position, &made.1, power.id) {
                made = builds(map, position, power.id, count, orders, &mine, true);
            }
            for (&i, outcome) in mine.iter().zip(made.0) {
                outcomes[i] = outcome;
            }
            units.extend(made.1);
        } else if count < 0 {
            let needed = (-count) as usize;
            let mut removed: Vec<ProvinceId> = Vec::new();
            for (i, o) in mine {
                outcomes[i] = match o.order {
                    Order::Disband { unit } => {
                        let p = map.province_of(unit.location);
                        let own = units
                            .iter()
                            .position(|u| u.power == power.id && map.province_of(u.location) == p);
                        match own {
                            _ if removed.contains(&p) => AdjustmentOutcome::Duplicate,
                            _ if removed.len() >= needed => AdjustmentOutcome::TooMany,
                            Some(k) => {
                                units.remove(k);
                                removed.push(p);
                                AdjustmentOutcome::Disbanded
                            }
                            None => AdjustmentOutcome::NotAllowed,
                        }
                    }
                    _ => AdjustmentOutcome::NotAllowed,
                };
            }
            for _ in removed.len()..needed {
                let Some(k) = civil_disorder_choice(map, position, &units, power.id) else {
                    break;
                };
                civil_disorder.push(units.remove(k));
            }
        }
    }
    AdjustmentResult {
        outcomes,
        civil_disorder,
        units,
    }
}

/// Whether a build is one outside the power's home centres (Hegemony 3.2: orders read against
/// the position are legal, so any such build is a fleet the map allows there).
fn is_site_build(map: &Map, order: &PowerOrder) -> bool {
    match order.order {
        Order::Build { unit } => map.province(map.province_of(unit.location)).home_of != order.power,
        _ => false,
    }
}

/// Carries out one power's builds and waives (`mine`, indices into `orders`) in order, up to
/// `count`, one fleet outside the home centres at most; with `no_sites`, builds outside the home
/// centres are void for want of an empty home centre. The outcome of each and the units built.
fn builds(
    map: &Map,
    position: &Position,
    power: PowerId,
    count: i32,
    orders: &[PowerOrder],
    mine: &[usize],
    no_sites: bool,
) -> (Vec<AdjustmentOutcome>, Vec<Unit>) {
    let mut used = 0;
    let mut built: Vec<Unit> = Vec::new();
    let mut site_used = false;
    let outcomes = mine
        .iter()
        .map(|&i| match orders[i].order {
            Order::Build { unit } => {
                let p = map.province_of(unit.location);
                let site = is_site_build(map, &orders[i]);
                if built.iter().any(|u| map.province_of(u.location) == p) {
                    AdjustmentOutcome::Duplicate
                } else if position.unit_in(map, p).is_some() {
                    AdjustmentOutcome::Occupied
                } else if used >= count {
                    AdjustmentOutcome::TooMany
                } else if site && (no_sites || site_used) {
                    if site_used {
                        AdjustmentOutcome::SecondSiteBuild
                    } else {
                        AdjustmentOutcome::NoFreeHomeCentre
                    }
                } else {
                    site_used |= site;
                    used += 1;
                    built.push(Unit {
                        power,
                        kind: unit.kind,
                        location: unit.location,
                    });
                    AdjustmentOutcome::Built
                }
            }
            Order::Waive if used < count => {
                used += 1;
                AdjustmentOutcome::Waived
            }
            Order::Waive => AdjustmentOutcome::TooMany,
            _ => AdjustmentOutcome::NotAllowed,
        })
        .collect();
    (outcomes, built)
}

/// Whether one of the power's own home centres stays empty after these builds (Hegemony 3.2.1.4).
fn home_centre_left_empty(map: &Map, position: &Position, built: &[Unit], power: PowerId) -> bool {
    position
        .free_home_centres(map, power)
        .any(|h| !built.iter().any(|u| map.province_of(u.location) == h))
}

/// The index (in `units`) of the unit the civil-disorder rule removes next for `power`.
fn civil_disorder_choice(map: &Map, position: &Position, units: &[Unit], power: PowerId) -> Option<usize> {
    let distance = distances_to_owned_centres(map, position, power);
    units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.power == power)
        .max_by(|(_, a), (_, b)| {
            let da = distance[map.province_of(a.location).index()];
            let db = distance[map.province_of(b.location).index()];
            let fleet_first = |u: &Unit| u.kind == UnitType::Fleet;
            da.cmp(&db)
                .then_with(|| fleet_first(a).cmp(&fleet_first(b)))
                // Alphabetically first is removed first, so it must compare as the greater.
                .then_with(|| {
                    let na = &map.province(map.province_of(a.location)).name;
                    let nb = &map.province(map.province_of(b.location)).name;
                    nb.cmp(na)
                })
        })
        .map(|(k, _)| k)
}

/// Steps from every province to the nearest supply centre the power owns and that counts for it
/// (not Hong Kong for China in Colonial), moving over land and sea alike (`u32::MAX` where none
/// can be reached).
fn distances_to_owned_centres(map: &Map, position: &Position, power: PowerId) -> Vec<u32> {
    let mut distance = vec![u32::MAX; map.provinces().len()];
    let mut queue = VecDeque::new();
    for (i, owner) in position.owners.iter().enumerate() {
        if *owner == Some(power) && !map.provinces()[i].not_centre_for.contains(&power) {
            distance[i] = 0;
            queue.push_back(ProvinceId(i as u16));
        }
    }
    while let Some(p) = queue.pop_front() {
        let province = map.province(p);
        let next = distance[p.index()] + 1;
        for location in std::iter::once(province.main).chain(province.coasts.iter().copied()) {
            for kind in [UnitType::Army, UnitType::Fleet] {
                for &n in map.neighbours(kind, location) {
                    let q = map.province_of(n);
                    if distance[q.index()] == u32::MAX {
                        distance[q.index()] = next;
                        queue.push_back(q);
                    }
                }
            }
        }
    }
    distance
}
