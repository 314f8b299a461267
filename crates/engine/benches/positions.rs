//! Seeded generator of realistic movement phases on the standard map: 22–34 units, most of them
//! moving, supports that match the moves and holds they name, and armies convoyed by fleets.

use spielleiter_engine::order::UnitRef;
use spielleiter_engine::order::model::Cargo;
use spielleiter_engine::{LocationId, Map, Order, PowerId, ProvinceId, Unit, UnitType};

/// SplitMix64: a tiny seeded generator so the benchmark positions never change.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// One movement phase: units and their orders.
pub struct Phase {
    pub units: Vec<Unit>,
    pub orders: Vec<Order>,
}

fn unit_ref(u: &Unit) -> UnitRef {
    UnitRef::new(u.kind, u.location)
}

/// Generates a phase.
pub fn random_phase(map: &Map, rng: &mut Rng) -> Phase {
    let count = 22 + rng.below(13);
    let mut units: Vec<Unit> = Vec::with_capacity(count);
    let provinces: Vec<ProvinceId> = map
        .provinces()
        .iter()
        .filter(|p| map.location(p.main).army || map.location(p.main).fleet || p.has_split_coast())
        .map(|p| p.id)
        .collect();
    let mut taken = vec![false; map.provinces().len()];
    while units.len() < count {
        let p = provinces[rng.below(provinces.len())];
        if taken[p.index()] {
            continue;
        }
        let province = map.province(p);
        let army_ok = map.location(province.main).army;
        let fleet_locations: Vec<LocationId> = if province.has_split_coast() {
            province.coasts.clone()
        } else if map.location(province.main).fleet {
            vec![province.main]
        } else {
            Vec::new()
        };
        let (kind, location) = if army_ok && (fleet_locations.is_empty() || rng.chance(60)) {
            (UnitType::Army, province.main)
        } else {
            (UnitType::Fleet, fleet_locations[rng.below(fleet_locations.len())])
        };
        taken[p.index()] = true;
        units.push(Unit {
            power: PowerId(rng.below(map.powers().len()) as u8),
            kind,
            location,
        });
    }
    // First pass: moves and holds; some units are kept back to support or convoy.
    let mut orders: Vec<Order> = Vec::with_capacity(count);
    let mut helper = vec![false; count];
    for (i, u) in units.iter().enumerate() {
        let roll = rng.below(100);
        let neighbours = map.neighbours(u.kind, u.location);
        if roll < 55 && !neighbours.is_empty() {
            let to = neighbours[rng.below(neighbours.len())];
            orders.push(Order::Move {
                unit: unit_ref(u),
                to,
                via_convoy: false,
            });
        } else {
            helper[i] = roll >= 70;
            orders.push(Order::Hold { unit: unit_ref(u) });
        }
    }
    // Second pass: convoys by fleets at sea for neighbouring armies, supports for the rest.
    for i in 0..count {
        if !helper[i] {
            continue;
        }
        let u = units[i];
        let here = map.province_of(u.location);
        if u.kind == UnitType::Fleet && map.province(here).convoys {
            let army = (0..count).find(|&j| {
                units[j].kind == UnitType::Army
                    && matches!(orders[j], Order::Hold { .. })
                    && !helper[j]
                    && map.can_reach_province(UnitType::Fleet, u.location, map.province_of(units[j].location))
            });
            if let Some(j) = army {
                let from = map.province_of(units[j].location);
                let targets: Vec<ProvinceId> = map
                    .provinces()
                    .iter()
                    .filter(|p| {
                        p.id != from
                            && map.is_coastal(p.id)
                            && map.can_reach_province(UnitType::Fleet, u.location, p.id)
                    })
                    .map(|p| p.id)
                    .collect();
                if !targets.is_empty() {
                    let to = map.province(targets[rng.below(targets.len())]).main;
                    orders[j] = Order::Move {
                        unit: unit_ref(&units[j]),
                        to,
                        via_convoy: true,
                    };
                    orders[i] = Order::Convoy {
                        unit: unit_ref(&u),
                        army: units[j].location,
                        to,
                        cargo: Cargo::Army,
                    };
                    continue;
                }
            }
        }
        // Support a neighbour's move into a province this unit reaches, or its hold.
        let start = rng.below(count);
        for k in 0..count {
            let j = (start + k) % count;
            if j == i {
                continue;
            }
            match orders[j] {
                Order::Move { to, .. }
                    if map.can_reach_province(u.kind, u.location, map.province_of(to))
                        && map.province_of(to) != here =>
                {
                    orders[i] = Order::SupportMove {
                        unit: unit_ref(&u),
                        supported: unit_ref(&units[j]),
                        to,
                    };
                    break;
                }
                Order::Hold { .. } | Order::SupportHold { .. } | Order::SupportMove { .. }
                    if map.can_reach_province(u.kind, u.location, map.province_of(units[j].location)) =>
                {
                    orders[i] = Order::SupportHold {
                        unit: unit_ref(&u),
                        supported: unit_ref(&units[j]),
                    };
                    break;
                }
                _ => {}
            }
        }
    }
    Phase { units, orders }
}
