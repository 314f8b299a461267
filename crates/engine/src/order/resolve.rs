//! Step two of reading an order: checking a read order against the map's geography, the phase,
//! and (when given) the position, producing an [`Order`] with every id filled in.

use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::map::names::capitalise;
use crate::map::{Map, Terrain};
use crate::order::error::{OrderError, OrderErrorKind as K};
use crate::order::model::{CanalPermission, Cargo, LeaderAct, LeaderOrder, Order, PowerOrder, UnitRef};
use crate::order::syntax::{RawAction, RawOrder, RawPlace, RawUnit, read_order};
use crate::phase::PhaseKind;
use crate::position::Position;
use crate::scenario::{Leader, Leads};

/// What an order is checked against besides the map.
#[derive(Clone, Copy, Debug)]
pub struct OrderContext<'a> {
    /// The map.
    pub map: &'a Map,
    /// The kind of phase the order is for.
    pub phase: PhaseKind,
    /// The position, when known: then units must exist and belong to the ordering power.
    pub position: Option<&'a Position>,
    /// The power giving the order when no `Power:` prefix says it (a mail's signed-on power).
    pub default_power: Option<PowerId>,
    /// The variant's leaders (Hegemony; empty elsewhere).
    pub leaders: &'a [Leader],
}

/// Reads and checks one order line.
pub fn parse_order(ctx: &OrderContext<'_>, line: &str) -> Result<PowerOrder, OrderError> {
    let raw = read_order(ctx.map, line)?;
    resolve(ctx, &raw)
}

fn article(kind: UnitType) -> &'static str {
    match kind {
        UnitType::Army => "an army",
        UnitType::Fleet => "a fleet",
    }
}

fn phase_name(kind: PhaseKind) -> &'static str {
    match kind {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    }
}

impl OrderContext<'_> {
    /// Refuses a place that is shut in the position (without a position: shut wherever the
    /// map marks it so).
    fn refuse_shut(&self, place: &RawPlace) -> Result<(), OrderError> {
        let shut = match self.position {
            Some(p) => p.is_shut(self.map, place.province),
            None => self.map.province(place.province).shut,
        };
        if shut {
            return Err(OrderError::new(K::Shut(self.place_name(place)), place.position));
        }
        Ok(())
    }

    fn place_name(&self, place: &RawPlace) -> String {
        let p = self.map.province(place.province);
        match place.coast {
            Some(c) => format!("{}/{}", capitalise(&p.abbreviation), c.abbreviation()),
            None => capitalise(&p.abbreviation),
        }
    }

    fn loc_name(&self, location: LocationId) -> String {
        let text = self.map.location_abbreviation(location);
        capitalise(&text)
    }

    fn unit_name(&self, unit: UnitRef) -> String {
        format!("{} {}", unit.kind.letter(), self.loc_name(unit.location))
    }

    /// The location of a unit standing in a place when only the map is known: the province, or the
    /// named coast; a fleet on a split coast must name it.
    fn standing_location(&self, kind: UnitType, place: &RawPlace) -> Result<LocationId, OrderError> {
        let province = self.map.province(place.province);
        let location = match (kind, place.coast) {
            (UnitType::Army, _) => province.main,
            (UnitType::Fleet, None) if province.has_split_coast() => {
                return Err(OrderError::new(
                    K::CoastNeeded(capitalise(&province.abbreviation)),
                    place.position,
                ));
            }
            (UnitType::Fleet, None) => province.main,
            (UnitType::Fleet, Some(c)) => match self.map.coast_of(place.province, c) {
                Some(l) => l,
                None if !province.has_split_coast() => province.main,
                None => return Err(OrderError::new(K::UnknownCoast(self.place_name(place)), place.position)),
            },
        };
        if !self.map.location(location).allows(kind) {
            return Err(OrderError::new(
                K::ImpossibleUnit {
                    unit: article(kind),
                    place: self.place_name(place),
                },
                place.position,
            ));
        }
        Ok(location)
    }

    /// A unit type that is not written: from the position, or from terrain where only one fits.
    fn infer_kind(&self, unit: &RawUnit, on_board: Option<UnitType>) -> Result<UnitType, OrderError> {
        self.infer_kind_or(unit, on_board, None)
    }

    /// As `infer_kind`, with a type to assume when neither the text nor the board says.
    fn infer_kind_or(
        &self,
        unit: &RawUnit,
        on_board: Option<UnitType>,
        default: Option<UnitType>,
    ) -> Result<UnitType, OrderError> {
        if let Some(k) = unit.kind.or(on_board).or(default) {
            return Ok(k);
        }
        match self.map.province(unit.place.province).terrain {
            Terrain::Land => Ok(UnitType::Army),
            Terrain::Sea => Ok(UnitType::Fleet),
            _ if unit.place.coast.is_some() => Ok(UnitType::Fleet),
            _ => Err(OrderError::new(
                K::MissingUnitType(self.place_name(&unit.place)),
                unit.place.position,
            )),
        }
    }

    /// Resolves the ordered unit: against the position when there is one.
    fn ordered_unit(
        &self,
        raw: &RawUnit,
        power: Option<PowerId>,
        dislodged: bool,
    ) -> Result<(UnitRef, Option<PowerId>), OrderError> {
        let Some(position) = self.position else {
            let kind = self.infer_kind(raw, None)?;
            let unit = UnitRef {
                kind,
                location: self.standing_location(kind, &raw.place)?,
                led: raw.leader,
            };
            return Ok((unit, power));
        };
        let found = if dislodged {
            position.dislodged_in(self.map, raw.place.province).map(|d| d.unit)
        } else {
            position.unit_in(self.map, raw.place.province).copied()
        };
        let Some(unit) = found else {
            let kind = if dislodged && position.unit_in(self.map, raw.place.province).is_some() {
                K::NotDislodged(self.place_name(&raw.place))
            } else {
                K::NoUnit(self.place_name(&raw.place))
            };
            return Err(OrderError::new(kind, raw.place.position));
        };
        if let Some(given) = raw.kind {
            if given != unit.kind {
                return Err(OrderError::new(
                    K::WrongUnitType {
                        place: self.place_name(&raw.place),
                        actual: article(unit.kind),
                        given: article(given),
                    },
                    raw.place.position,
                ));
            }
        }
        if let Some(p) = power {
            if p != unit.power {
                return Err(OrderError::new(
                    K::NotYourUnit {
                        place: self.place_name(&raw.place),
                        owner: self.map.power(unit.power).name.clone(),
                        power: self.map.power(p).name.clone(),
                    },
                    raw.place.position,
                ));
            }
        }
        if raw.leader {
            self.check_leading(raw, &unit)?;
        }
        // A wrongly written coast of the unit's own place is ignored: the unit is where it is.
        let unit_ref = UnitRef {
            kind: unit.kind,
            location: unit.location,
            led: raw.leader,
        };
        Ok((unit_ref, Some(unit.power)))
    }

    /// Whether the unit is a garrison in its home province (Hegemony 5.1.4), which only holds.
    fn garrison_at_home(&self, unit: UnitRef) -> bool {
        let Some(position) = self.position else { return false };
        let here = self.map.province_of(unit.location);
        position
            .rules
            .garrisons()
            .iter()
            .any(|g| self.map.province_of(g.location) == here && g.home == here)
    }

    /// The leader of a power standing in a province, if there is one.
    fn leader_in(&self, province: ProvinceId, power: Option<PowerId>) -> Option<crate::rule_state::LeaderPlace> {
        self.position?.rules.leader_in(self.map, province, power)
    }

    /// `LA Vie`: a leader of the unit's country stands with it and may lead it (3.1.7).
    fn check_leading(&self, raw: &RawUnit, unit: &crate::position::Unit) -> Result<(), OrderError> {
        let Some(place) = self.leader_in(raw.place.province, Some(unit.power)) else {
            return Err(OrderError::new(
                K::NoLeader(self.place_name(&raw.place)),
                raw.place.position,
            ));
        };
        let Some(leader) = self.leaders.get(place.leader.index()) else {
            return Ok(());
        };
        let leads = match (leader.leads, unit.kind) {
            (Leads::Armies, UnitType::Fleet) => "armies",
            (Leads::Fleets, UnitType::Army) => "fleets",
            _ => return Ok(()),
        };
        Err(OrderError::new(
            K::CannotLead {
                leader: leader.name.clone(),
                leads,
            },
            raw.place.position,
        ))
    }

    /// An order for a leader alone (movement phases): hold, or a step to a bordering province, or
    /// a move by convoy like an army; never a support or a convoy (3.1.2, 3.1.4).
    fn leader_order(
        &self,
        raw: &RawUnit,
        action: &RawAction,
        power: Option<PowerId>,
    ) -> Result<PowerOrder, OrderError> {
        let province = self.map.province(raw.place.province);
        let power = match self.position {
            Some(_) => match self.leader_in(province.id, power) {
                Some(l) => Some(l.power),
                None => {
                    return Err(OrderError::new(
                        K::NoLeader(self.place_name(&raw.place)),
                        raw.place.position,
                    ));
                }
            },
            None => power,
        };
        let at = province.main;
        let act = match action {
            RawAction::Hold => LeaderAct::Hold,
            RawAction::Move {
                path,
                via_convoy,
                railroad: false,
            } if path.len() == 1 => self.leader_move(raw, &path[0], *via_convoy, power)?,
            RawAction::Move { .. } => {
                return Err(OrderError::new(
                    K::LeaderCannot("ride or name a route"),
                    raw.place.position,
                ));
            }
            RawAction::Support { .. } => return Err(OrderError::new(K::LeaderCannot("support"), raw.place.position)),
            RawAction::Convoy { .. } => return Err(OrderError::new(K::LeaderCannot("convoy"), raw.place.position)),
            _ => {
                return Err(OrderError::new(
                    K::WrongPhase {
                        order: "leader",
                        phase: phase_name(self.phase),
                    },
                    raw.place.position,
                ));
            }
        };
        Ok(PowerOrder {
            power,
            order: Order::Leader(LeaderOrder { at, act }),
            permission: None,
        })
    }

    /// A leader's retreat (3.1.6): `L Net R Bel` or `L Net - Bel`, for a displaced leader to one
    /// of his retreat options; for a leader on the board, to a bordering province that is no sea,
    /// taken only if a retreating unit displaces him (3.1.6.3).
    fn leader_retreat(
        &self,
        raw: &RawUnit,
        action: &RawAction,
        power: Option<PowerId>,
    ) -> Result<PowerOrder, OrderError> {
        let province = self.map.province(raw.place.province);
        let no_leader = || OrderError::new(K::NoLeader(self.place_name(&raw.place)), raw.place.position);
        let rules = self.position.map(|p| &p.rules);
        let displaced = rules.and_then(|r| r.displaced_in(self.map, province.id, power));
        let power = match (self.position, displaced) {
            (None, _) => power,
            (Some(_), Some(d)) => Some(d.place.power),
            (Some(_), None) => Some(self.leader_in(province.id, power).ok_or_else(no_leader)?.power),
        };
        let to = match action {
            RawAction::Retreat { to } => to,
            RawAction::Move {
                path,
                via_convoy: false,
                railroad: false,
            } if path.len() == 1 => &path[0],
            RawAction::Disband => return Err(OrderError::new(K::LeaderCannot("be disbanded"), raw.place.position)),
            _ => {
                return Err(OrderError::new(
                    K::WrongPhase {
                        order: "leader",
                        phase: "retreat",
                    },
                    raw.place.position,
                ));
            }
        };
        let target = self.map.province(to.province);
        if target.terrain == Terrain::Sea {
            return Err(OrderError::new(K::LeaderCannot("retreat into a sea"), to.position));
        }
        self.refuse_shut(to)?;
        let allowed = match displaced {
            Some(d) => d.retreats.contains(&target.main),
            None => to.province != province.id && self.map.borders(province.id, to.province),
        };
        if !allowed {
            return Err(OrderError::new(
                K::BadRetreat {
                    unit: format!("L {}", self.place_name(&raw.place)),
                    to: self.place_name(to),
                },
                to.position,
            ));
        }
        Ok(PowerOrder {
            power,
            order: Order::Leader(LeaderOrder {
                at: province.main,
                act: LeaderAct::Retreat { to: target.main },
            }),
            permission: None,
        })
    }

    /// Where a leader alone may go: a bordering province that an army or a fleet of his country
    /// may stand in (a sea only onto a fleet of his country there now, 3.1.2.4), or by convoy.
    fn leader_move(
        &self,
        raw: &RawUnit,
        to: &RawPlace,
        via_convoy: bool,
        power: Option<PowerId>,
    ) -> Result<LeaderAct, OrderError> {
        let from = raw.place.province;
        let target = self.map.province(to.province);
        let unreachable = || {
            OrderError::new(
                K::Unreachable {
                    unit: format!("L {}", self.place_name(&raw.place)),
                    to: self.place_name(to),
                },
                to.position,
            )
        };
        if to.province == from {
            return Err(OrderError::new(
                K::MoveToOwnProvince(format!("L {}", self.place_name(&raw.place))),
                to.position,
            ));
        }
        self.refuse_shut(to)?;
        if target.terrain == Terrain::Sea {
            let own_fleet = self.position.is_none_or(|p| {
                p.unit_in(self.map, to.province)
                    .is_some_and(|u| u.kind == UnitType::Fleet && power.is_none_or(|q| q == u.power))
            });
            if !self.map.borders(from, to.province) {
                return Err(unreachable());
            }
            if via_convoy || !own_fleet {
                return Err(OrderError::new(K::LeaderAtSea(self.place_name(to)), to.position));
            }
            return Ok(LeaderAct::Move {
                to: target.main,
                via_convoy: false,
            });
        }
        if !self.map.location(target.main).army {
            return Err(unreachable());
        }
        let borders = self.map.borders(from, to.province);
        // By convoy when asked or needed and a convoy can exist; "via convoy" where none can: walk.
        let convoyed = (via_convoy || !borders) && self.convoy_route_possible(from, to.province);
        if !borders && !convoyed {
            return Err(unreachable());
        }
        Ok(LeaderAct::Move {
            to: target.main,
            via_convoy: convoyed,
        })
    }

    /// Resolves a supported or convoyed unit: its type and place (it need not exist; when it does,
    /// a written type must be its type).
    fn other_unit(&self, raw: &RawUnit, default: Option<UnitType>) -> Result<UnitRef, OrderError> {
        let on_board = self
            .position
            .and_then(|p| p.unit_in(self.map, raw.place.province))
            .copied();
        if let (Some(given), Some(u)) = (raw.kind, on_board) {
            if given != u.kind {
                return Err(OrderError::new(
                    K::WrongUnitType {
                        place: self.place_name(&raw.place),
                        actual: article(u.kind),
                        given: article(given),
                    },
                    raw.place.position,
                ));
            }
        }
        if raw.leader && raw.kind.is_none() {
            return Err(OrderError::new(K::LeaderCannot("be supported"), raw.place.position));
        }
        let kind = self.infer_kind_or(raw, on_board.map(|u| u.kind), default)?;
        if raw.leader {
            self.check_named_leader(raw, on_board.as_ref())?;
        }
        if let Some(u) = on_board.filter(|u| u.kind == kind) {
            return Ok(UnitRef {
                kind,
                location: u.location,
                led: raw.leader,
            });
        }
        let province = self.map.province(raw.place.province);
        let location = match raw.place.coast.and_then(|c| self.map.coast_of(raw.place.province, c)) {
            Some(l) if kind == UnitType::Fleet => l,
            _ => province.main,
        };
        let standable =
            self.map.location(location).allows(kind) || (kind == UnitType::Fleet && province.has_split_coast());
        if !standable {
            return Err(OrderError::new(
                K::ImpossibleUnit {
                    unit: article(kind),
                    place: self.place_name(&raw.place),
                },
                raw.place.position,
            ));
        }
        Ok(UnitRef {
            kind,
            location,
            led: raw.leader,
        })
    }

    /// A led unit or a leader named in a support or convoy (`S LA Vie`, `C L Bel - Lon`): with a
    /// position, a leader must stand there who may lead the unit (else the order could never
    /// match the unit's order).
    fn check_named_leader(&self, raw: &RawUnit, on_board: Option<&crate::position::Unit>) -> Result<(), OrderError> {
        if self.position.is_none() {
            return Ok(());
        }
        match on_board {
            Some(unit) if raw.kind.is_some() => self.check_leading(raw, unit),
            _ if self.leader_in(raw.place.province, None).is_some() => Ok(()),
            _ => Err(OrderError::new(
                K::NoLeader(self.place_name(&raw.place)),
                raw.place.position,
            )),
        }
    }

    /// A coast named for a supported fleet's move must be one the fleet could reach.
    fn check_supported_coast(
        &self,
        supported: UnitRef,
        to: &RawPlace,
        to_location: LocationId,
    ) -> Result<(), OrderError> {
        if supported.kind != UnitType::Fleet || to.coast.is_none() || !self.map.province(to.province).has_split_coast()
        {
            return Ok(());
        }
        // A fleet named without its coast in a split-coast province may stand on any of them.
        let here = self.map.province(self.map.province_of(supported.location));
        let starts = if self.map.location(supported.location).fleet {
            std::slice::from_ref(&supported.location)
        } else {
            &here.coasts[..]
        };
        let reaches = starts
            .iter()
            .any(|&l| self.map.is_adjacent(UnitType::Fleet, l, to_location));
        if reaches {
            return Ok(());
        }
        Err(OrderError::new(
            K::ImpossibleSupportedMove {
                unit: self.unit_name(supported),
                to: self.place_name(to),
            },
            to.position,
        ))
    }

    /// The destination of a move, checked for the unit's type.
    fn move_target(&self, unit: UnitRef, to: &RawPlace, via_convoy: bool) -> Result<LocationId, OrderError> {
        let from_province = self.map.province_of(unit.location);
        if to.province == from_province {
            return Err(OrderError::new(K::MoveToOwnProvince(self.unit_name(unit)), to.position));
        }
        self.refuse_shut(to)?;
        let target = self.map.province(to.province);
        let unreachable = || {
            OrderError::new(
                K::Unreachable {
                    unit: self.unit_name(unit),
                    to: self.place_name(to),
                },
                to.position,
            )
        };
        match unit.kind {
            UnitType::Army => {
                // A coast written for an army is ignored.
                if !self.map.location(target.main).army {
                    return Err(unreachable());
                }
                let adjacent = self.map.is_adjacent(UnitType::Army, unit.location, target.main);
                if (adjacent && !via_convoy) || self.convoy_route_possible(from_province, to.province) {
                    Ok(target.main)
                } else if adjacent {
                    // "via convoy" where no convoy can exist: walk.
                    Ok(target.main)
                } else if self.map.convoy_possible(from_province, to.province) {
                    Err(OrderError::new(
                        K::NoConvoyRoute {
                            from: self.loc_name(unit.location),
                            to: self.place_name(to),
                        },
                        to.position,
                    ))
                } else {
                    Err(unreachable())
                }
            }
            UnitType::Fleet => {
                if via_convoy {
                    return Err(OrderError::new(K::FleetConvoyed, to.position));
                }
                if let Some(coast) = to.coast.filter(|_| target.has_split_coast()) {
                    let Some(l) = self.map.coast_of(to.province, coast) else {
                        return Err(OrderError::new(K::UnknownCoast(self.place_name(to)), to.position));
                    };
                    if self.map.is_adjacent(UnitType::Fleet, unit.location, l) {
                        return Ok(l);
                    }
                    if self.map.fleet_targets_in(unit.location, to.province).next().is_some() {
                        return Err(OrderError::new(
                            K::WrongCoast {
                                unit: self.unit_name(unit),
                                to: self.place_name(to),
                            },
                            to.position,
                        ));
                    }
                    return Err(unreachable());
                }
                let mut targets = self.map.fleet_targets_in(unit.location, to.province);
                match (targets.next(), targets.next()) {
                    (Some(l), None) => Ok(l),
                    // Through a canal (Suez): legal; whether it is open is decided when adjudicating.
                    (None, _) if self.map.canal_between(unit.location, target.main).is_some() => Ok(target.main),
                    (None, _) => Err(unreachable()),
                    (Some(_), Some(_)) => Err(OrderError::new(
                        K::AmbiguousCoast {
                            unit: self.unit_name(unit),
                            to: self.place_name(to),
                        },
                        to.position,
                    )),
                }
            }
        }
    }

    /// Whether a fleet in this province could take part in a convoy: a convoying province, and,
    /// with a position, one that holds a fleet now.
    fn fleet_may_convoy(&self, p: ProvinceId) -> bool {
        self.map.province(p).convoys
            && self
                .position
                .is_none_or(|pos| pos.unit_in(self.map, p).is_some_and(|u| u.kind == UnitType::Fleet))
    }

    /// Whether an army could be convoyed between two provinces: by the map alone, or, with a
    /// position, through seas that hold fleets now.
    fn convoy_route_possible(&self, from: ProvinceId, to: ProvinceId) -> bool {
        self.map.convoy_possible(from, to)
            && self
                .map
                .convoy_chain_exists(from, to, None, &|p| self.fleet_may_convoy(p))
    }

    fn check_support_reach(&self, unit: UnitRef, province: ProvinceId, at: usize) -> Result<(), OrderError> {
        if self.map.province_of(unit.location) == province {
            return Err(OrderError::new(K::SupportSelf(self.unit_name(unit)), at));
        }
        if !self.map.can_reach_province(unit.kind, unit.location, province) {
            return Err(OrderError::new(
                K::CannotSupport {
                    unit: self.unit_name(unit),
                    to: capitalise(&self.map.province(province).abbreviation),
                },
                at,
            ));
        }
        Ok(())
    }

    /// Whether the supported unit could ever make this move (ignoring coasts).
    fn move_possible(&self, unit: UnitRef, to: ProvinceId, supporter: Option<ProvinceId>) -> bool {
        let from = self.map.province_of(unit.location);
        if from == to {
            return false;
        }
        match unit.kind {
            UnitType::Army => {
                self.map.location(self.map.province(to).main).army
                    && (self.map.can_reach_province(UnitType::Army, unit.location, to)
                        || self.map.railroad_between(from, to).is_some()
                        || (self.map.is_coastal(to)
                            && self
                                .map
                                .convoy_chain_exists(from, to, supporter, &|p| self.fleet_may_convoy(p))))
            }
            UnitType::Fleet => {
                let province = self.map.province(from);
                if self.map.location(unit.location).fleet {
                    self.map.can_reach_province(UnitType::Fleet, unit.location, to)
                        || self
                            .map
                            .canal_between(unit.location, self.map.province(to).main)
                            .is_some()
                } else {
                    province
                        .coasts
                        .iter()
                        .any(|&c| self.map.can_reach_province(UnitType::Fleet, c, to))
                }
            }
        }
    }

    fn resolve(&self, raw: &RawOrder) -> Result<PowerOrder, OrderError> {
        let mut order = self.resolve_order(raw)?;
        if let Some((fleet, to)) = &raw.permission {
            order.permission = Some(self.permission(&order, fleet, to)?);
        }
        Ok(order)
    }

    /// `… SC F Red - Med`: leave for a fleet to pass the canal the ordered unit holds.
    fn permission(&self, order: &PowerOrder, fleet: &RawUnit, to: &RawPlace) -> Result<CanalPermission, OrderError> {
        let Some(keeper) = order.order.unit() else {
            return Err(OrderError::new(K::NotACanal(String::new()), fleet.place.position));
        };
        let canal = self.map.province_of(keeper.location);
        if !self.map.is_canal(canal) {
            return Err(OrderError::new(
                K::NotACanal(capitalise(&self.map.province(canal).abbreviation)),
                fleet.place.position,
            ));
        }
        let from = self.other_unit(fleet, Some(UnitType::Fleet))?;
        let to_location = self.map.province(to.province).main;
        if from.kind != UnitType::Fleet || self.map.canal_between(from.location, to_location) != Some(canal) {
            return Err(OrderError::new(
                K::NotThroughCanal {
                    unit: self.unit_name(from),
                    to: self.place_name(to),
                },
                to.position,
            ));
        }
        Ok(CanalPermission {
            keeper: keeper.location,
            fleet: from.location,
            to: to_location,
        })
    }

    fn resolve_order(&self, raw: &RawOrder) -> Result<PowerOrder, OrderError> {
        let power = raw.power.or(self.default_power);
        if let Some(a) = raw.allocation {
            return self.allocation(a, power);
        }
        if let Some(d) = raw.declaration {
            return self.declaration(d, power);
        }
        if raw.waive {
            if self.phase != PhaseKind::Adjustment {
                return Err(OrderError::new(
                    K::WrongPhase {
                        order: "waive",
                        phase: phase_name(self.phase),
                    },
                    0,
                ));
            }
            if power.is_none() {
                return Err(OrderError::new(K::PowerNeeded, 0));
            }
            return Ok(PowerOrder {
                power,
                order: Order::Waive,
                permission: None,
            });
        }
        let Some(raw_unit) = &raw.unit else {
            return Err(OrderError::new(K::Empty, 0));
        };
        let wrong_phase = |order: &'static str| {
            OrderError::new(
                K::WrongPhase {
                    order,
                    phase: phase_name(self.phase),
                },
                raw_unit.place.position,
            )
        };
        if matches!(raw.action, RawAction::Choose) {
            if self.phase != PhaseKind::Adjustment {
                return Err(wrong_phase("choice"));
            }
            return self.choose(raw_unit, power);
        }
        if raw_unit.leader {
            match (self.phase, &raw.action) {
                (PhaseKind::Movement, _) if raw_unit.kind.is_none() => {
                    return self.leader_order(raw_unit, &raw.action, power);
                }
                (PhaseKind::Movement, _) => {}
                (PhaseKind::Retreat, _) if raw_unit.kind.is_none() => {
                    return self.leader_retreat(raw_unit, &raw.action, power);
                }
                (PhaseKind::Adjustment, RawAction::Build) => {
                    let place = self.place_name(&raw_unit.place);
                    return Err(OrderError::new(
                        K::BadBuild {
                            place,
                            reason: "a leader is never built",
                        },
                        raw_unit.place.position,
                    ));
                }
                _ => return Err(wrong_phase("leader")),
            }
        }
        match (self.phase, &raw.action) {
            (PhaseKind::Adjustment, RawAction::Build) => return self.build(raw_unit, power),
            (PhaseKind::Adjustment, RawAction::Disband) => {
                let (unit, power) = self.ordered_unit(raw_unit, power, false)?;
                return Ok(PowerOrder {
                    power,
                    order: Order::Disband { unit },
                    permission: None,
                });
            }
            (PhaseKind::Adjustment, _) => return Err(wrong_phase("movement")),
            (_, RawAction::Build) => return Err(wrong_phase("build")),
            (PhaseKind::Retreat, RawAction::Hold | RawAction::Support { .. } | RawAction::Convoy { .. }) => {
                return Err(wrong_phase(match raw.action {
                    RawAction::Hold => "hold",
                    RawAction::Support { .. } => "support",
                    _ => "convoy",
                }));
            }
            (PhaseKind::Retreat, _) => return self.retreat(raw_unit, &raw.action, power),
            (PhaseKind::Movement, RawAction::Retreat { .. }) => return Err(wrong_phase("retreat")),
            (PhaseKind::Movement, RawAction::Disband) => return Err(wrong_phase("disband")),
            (PhaseKind::Movement, _) => {}
        }
        let (unit, power) = self.ordered_unit(raw_unit, power, false)?;
        if !matches!(raw.action, RawAction::Hold) && self.garrison_at_home(unit) {
            return Err(OrderError::new(
                K::GarrisonHoldsOnly(self.place_name(&raw_unit.place)),
                raw_unit.place.position,
            ));
        }
        let order = match &raw.action {
            RawAction::Hold => Order::Hold { unit },
            RawAction::Move {
                path, railroad: true, ..
            } => self.rail_move(unit, power, path)?,
            RawAction::Move { path, via_convoy, .. } => self.movement(unit, path, *via_convoy)?,
            RawAction::Support { target, to } => {
                let supported = self.other_unit(target, None)?;
                match to {
                    None => {
                        let province = self.map.province_of(supported.location);
                        self.check_support_reach(unit, province, target.place.position)?;
                        Order::SupportHold { unit, supported }
                    }
                    Some(to) => {
                        if self.map.province_of(supported.location) == self.map.province_of(unit.location) {
                            return Err(OrderError::new(
                                K::SupportSelf(self.unit_name(unit)),
                                target.place.position,
                            ));
                        }
                        self.refuse_shut(to)?;
                        self.check_support_reach(unit, to.province, to.position)?;
                        let supporter = Some(self.map.province_of(unit.location));
                        if !self.move_possible(supported, to.province, supporter) {
                            return Err(OrderError::new(
                                K::ImpossibleSupportedMove {
                                    unit: self.unit_name(supported),
                                    to: self.place_name(to),
                                },
                                to.position,
                            ));
                        }
                        // A coast written for a supported army is ignored; for a fleet it is kept
                        // and must then match the coast the fleet moves to.
                        let target_province = self.map.province(to.province);
                        let to_location = to
                            .coast
                            .filter(|_| supported.kind == UnitType::Fleet)
                            .and_then(|c| self.map.coast_of(to.province, c))
                            .unwrap_or(target_province.main);
                        self.check_supported_coast(supported, to, to_location)?;
                        Order::SupportMove {
                            unit,
                            supported,
                            to: to_location,
                        }
                    }
                }
            }
            RawAction::Convoy { target, to } => {
                let convoying = self.map.province(self.map.province_of(unit.location));
                if unit.kind != UnitType::Fleet || !convoying.convoys {
                    return Err(OrderError::new(
                        K::CannotConvoy(self.unit_name(unit)),
                        raw_unit.place.position,
                    ));
                }
                let (army, cargo) = if target.leader && target.kind.is_none() {
                    self.check_named_leader(target, None)?;
                    let location = self.map.province(target.place.province).main;
                    (UnitRef::new(UnitType::Army, location), Cargo::Leader)
                } else {
                    let army = self.other_unit(target, Some(UnitType::Army))?;
                    let on_board = self
                        .position
                        .and_then(|p| p.unit_in(self.map, self.map.province_of(army.location)));
                    if army.kind != UnitType::Army || on_board.is_some_and(|u| u.kind != UnitType::Army) {
                        return Err(OrderError::new(K::FleetConvoyed, target.place.position));
                    }
                    (army, if army.led { Cargo::LedArmy } else { Cargo::Army })
                };
                let from = self.map.province_of(army.location);
                if from == to.province {
                    return Err(OrderError::new(K::MoveToOwnProvince(self.unit_name(army)), to.position));
                }
                let here = self.map.province_of(unit.location);
                if !self.map.convoy_possible(from, to.province)
                    || !self
                        .map
                        .needed_for_convoy(from, to.province, here, &|p| self.fleet_may_convoy(p))
                {
                    return Err(OrderError::new(
                        K::NoConvoyRoute {
                            from: self.loc_name(army.location),
                            to: self.place_name(to),
                        },
                        to.position,
                    ));
                }
                Order::Convoy {
                    unit,
                    army: army.location,
                    to: self.map.province(to.province).main,
                    cargo,
                }
            }
            RawAction::Retreat { .. } => return Err(wrong_phase("retreat")),
            RawAction::Disband => return Err(wrong_phase("disband")),
            RawAction::Build => return Err(wrong_phase("build")),
            RawAction::Choose => return Err(wrong_phase("choice")),
        };
        Ok(PowerOrder {
            power,
            order,
            permission: None,
        })
    }

    /// The power giving a winter-only order (`order` names it in the error): an adjustment phase
    /// and a known power are needed.
    fn winter_power(&self, order: &'static str, power: Option<PowerId>) -> Result<PowerId, OrderError> {
        if self.phase != PhaseKind::Adjustment {
            let phase = phase_name(self.phase);
            return Err(OrderError::new(K::WrongPhase { order, phase }, 0));
        }
        power.ok_or_else(|| OrderError::new(K::PowerNeeded, 0))
    }

    /// `PF 3 Bavaria` (Hegemony 1.1.1): in winter, by a player, to a neutral country that can be
    /// activated (research D-21). Whether the stock suffices is known once the winter's income is
    /// in (step 5 before step 7): the allocation is checked then.
    fn allocation(
        &self,
        a: crate::order::syntax::RawAllocation,
        power: Option<PowerId>,
    ) -> Result<PowerOrder, OrderError> {
        let power = self.winter_power("political factors", power)?;
        let name = |p: PowerId| self.map.power(p).name.clone();
        if !self.map.is_player(power) {
            return Err(OrderError::new(K::NoPoliticalFactors(name(power)), 0));
        }
        let activatable = !self.map.is_player(a.country) && self.map.power(a.country).threshold.is_some();
        if !activatable {
            return Err(OrderError::new(K::CannotActivate(name(a.country)), a.position));
        }
        if a.pf == 0 {
            return Err(OrderError::new(K::NoPoliticalFactors(name(power)), 0));
        }
        Ok(PowerOrder {
            power: Some(power),
            order: Order::Allocate {
                country: a.country,
                pf: a.pf,
            },
            permission: None,
        })
    }

    /// `Friendly to England` (Hegemony 1.2): in winter, by any country towards another.
    fn declaration(
        &self,
        d: crate::order::syntax::RawDeclaration,
        power: Option<PowerId>,
    ) -> Result<PowerOrder, OrderError> {
        let power = self.winter_power("friendship", power)?;
        if power == d.country {
            return Err(OrderError::new(
                K::FriendlyToItself(self.map.power(power).name.clone()),
                d.position,
            ));
        }
        Ok(PowerOrder {
            power: Some(power),
            order: Order::Declare { to: d.country },
            permission: None,
        })
    }

    /// `Choose F Ire`: the set of pieces of the power's open choice that holds the piece written
    /// (Hegemony 5.1.7; choices are open in the scenario's first phase only).
    fn choose(&self, raw: &RawUnit, power: Option<PowerId>) -> Result<PowerOrder, OrderError> {
        use crate::scenario::Piece;
        let Some(power) = power else {
            return Err(OrderError::new(K::PowerNeeded, raw.place.position));
        };
        let open = self.position.map(|p| p.rules.open_choices()).unwrap_or_default();
        let mine: Vec<_> = open.iter().filter(|c| c.power == power).collect();
        if mine.is_empty() {
            return Err(OrderError::new(K::NoChoiceOpen, raw.place.position));
        }
        let here = raw.place.province;
        let pieces = mine.iter().flat_map(|c| c.options.iter().flatten().copied());
        let mut found = pieces.filter(|&p| match p {
            Piece::Unit(kind, at) => {
                !raw.leader && raw.kind.is_none_or(|k| k == kind) && self.map.province_of(at) == here
            }
            Piece::Leader(_, at) => raw.leader && self.map.province_of(at) == here,
            Piece::Overseas(p) => !raw.leader && raw.kind.is_none() && p == here,
        });
        match (found.next(), found.next()) {
            (Some(piece), None) => Ok(PowerOrder {
                power: Some(power),
                order: Order::Choose(piece),
                permission: None,
            }),
            (Some(_), Some(_)) => Err(OrderError::new(
                K::MissingUnitType(self.place_name(&raw.place)),
                raw.place.position,
            )),
            (None, _) => Err(OrderError::new(
                K::NotAnOption(self.place_name(&raw.place)),
                raw.place.position,
            )),
        }
    }

    fn movement(&self, unit: UnitRef, path: &[RawPlace], via_convoy: bool) -> Result<Order, OrderError> {
        let Some((to, steps)) = path.split_last() else {
            return Err(OrderError::new(K::Empty, 0));
        };
        if !steps.is_empty() {
            // A route written out: `A Lon - Nth - Bel`. Every step must be convoying water.
            if unit.kind != UnitType::Army {
                return Err(OrderError::new(K::FleetConvoyed, steps[0].position));
            }
            if let Some(step) = steps.iter().find(|s| !self.map.province(s.province).convoys) {
                return Err(OrderError::new(K::CannotConvoy(self.place_name(step)), step.position));
            }
            // Each step must touch the one before it (the first one the army's province) and the
            // last one the destination.
            let from = self.map.province_of(unit.location);
            let chain: Vec<(ProvinceId, usize)> = std::iter::once((from, steps[0].position))
                .chain(steps.iter().map(|s| (s.province, s.position)))
                .chain(std::iter::once((to.province, to.position)))
                .collect();
            for pair in chain.windows(2) {
                let ((a, _), (b, at)) = (pair[0], pair[1]);
                let (sea, other) = if self.map.province(a).convoys { (a, b) } else { (b, a) };
                if !self
                    .map
                    .can_reach_province(UnitType::Fleet, self.map.province(sea).main, other)
                {
                    return Err(OrderError::new(
                        K::NoConvoyRoute {
                            from: capitalise(&self.map.province(a).abbreviation),
                            to: capitalise(&self.map.province(b).abbreviation),
                        },
                        at,
                    ));
                }
            }
        }
        let via = via_convoy || !steps.is_empty();
        let target = self.move_target(unit, to, via)?;
        // "Via convoy" where no convoy can exist and the army may walk: it walks (the move
        // carries no convoy flag that would make it wait for fleets that are not there).
        let from = self.map.province_of(unit.location);
        let walks = via
            && unit.kind == UnitType::Army
            && self.map.is_adjacent(UnitType::Army, unit.location, target)
            && !self.convoy_route_possible(from, to.province);
        Ok(Order::Move {
            unit,
            to: target,
            via_convoy: via && !walks,
        })
    }

    /// `A Mos-TSR-Irk`: an army of the railroad's power rides from one province of the line to another.
    fn rail_move(&self, unit: UnitRef, power: Option<PowerId>, path: &[RawPlace]) -> Result<Order, OrderError> {
        let Some(to) = path.last() else {
            return Err(OrderError::new(K::Empty, 0));
        };
        let from = self.map.province_of(unit.location);
        let Some(railroad) = self.map.railroad_between(from, to.province) else {
            return Err(OrderError::new(
                K::NotOnRailroad {
                    unit: self.unit_name(unit),
                    to: self.place_name(to),
                },
                to.position,
            ));
        };
        if unit.kind != UnitType::Army || power.is_some_and(|p| p != railroad.power) {
            return Err(OrderError::new(K::RailroadNotYours(self.unit_name(unit)), to.position));
        }
        Ok(Order::RailMove {
            unit,
            to: self.map.province(to.province).main,
        })
    }

    fn retreat(
        &self,
        raw_unit: &RawUnit,
        action: &RawAction,
        power: Option<PowerId>,
    ) -> Result<PowerOrder, OrderError> {
        let (unit, power) = self.ordered_unit(raw_unit, power, true)?;
        let to = match action {
            RawAction::Disband => {
                return Ok(PowerOrder {
                    power,
                    order: Order::Disband { unit },
                    permission: None,
                });
            }
            RawAction::Retreat { to } => to,
            RawAction::Move {
                path,
                via_convoy: false,
                railroad: false,
            } if path.len() == 1 => &path[0],
            _ => {
                return Err(OrderError::new(
                    K::WrongPhase {
                        order: "convoyed move",
                        phase: "retreat",
                    },
                    raw_unit.place.position,
                ));
            }
        };
        let bad = || {
            OrderError::new(
                K::BadRetreat {
                    unit: self.unit_name(unit),
                    to: self.place_name(to),
                },
                to.position,
            )
        };
        let target = match self.move_target(unit, to, false) {
            Ok(t) if self.map.is_adjacent(unit.kind, unit.location, t) => t,
            Ok(_) => return Err(bad()),
            Err(e) => return Err(e),
        };
        if let Some(d) = self
            .position
            .and_then(|p| p.dislodged_in(self.map, self.map.province_of(unit.location)))
        {
            if !d.retreats.contains(&target) {
                return Err(bad());
            }
        }
        Ok(PowerOrder {
            power,
            order: Order::Retreat { unit, to: target },
            permission: None,
        })
    }

    fn build(&self, raw: &RawUnit, power: Option<PowerId>) -> Result<PowerOrder, OrderError> {
        let province = self.map.province(raw.place.province);
        let place = self.place_name(&raw.place);
        let bad = |reason| {
            OrderError::new(
                K::BadBuild {
                    place: place.clone(),
                    reason,
                },
                raw.place.position,
            )
        };
        if let Some(power) = power.filter(|p| province.fleet_build_for.contains(p)) {
            // Hegemony 3.2: a fleet outside the home centres; whether an own home centre stays
            // empty is known only once all builds are read (see the adjustments).
            let kind = self.infer_kind_or(raw, None, Some(UnitType::Fleet))?;
            if kind != UnitType::Fleet {
                return Err(bad("only a fleet may be built here"));
            }
            return self.placed_build(raw, power, kind, province.centre);
        }
        let Some(owner) = province.home_of else {
            return Err(bad("it is not a home supply centre"));
        };
        let power = power.or(self.position.is_none().then_some(owner));
        let Some(power) = power else {
            return Err(OrderError::new(K::PowerNeeded, raw.place.position));
        };
        if owner != power {
            return Err(bad("it is not a home centre of this power"));
        }
        let kind = self.infer_kind(raw, None)?;
        self.placed_build(raw, power, kind, true)
    }

    /// A build of `kind` by `power` at its place, checked against the position: the place must
    /// be empty (and owned, where `owned`), and the power a player's.
    fn placed_build(
        &self,
        raw: &RawUnit,
        power: PowerId,
        kind: UnitType,
        owned: bool,
    ) -> Result<PowerOrder, OrderError> {
        let province = raw.place.province;
        let bad = |reason| {
            OrderError::new(
                K::BadBuild {
                    place: self.place_name(&raw.place),
                    reason,
                },
                raw.place.position,
            )
        };
        let location = self.standing_location(kind, &raw.place)?;
        if let Some(position) = self.position {
            if owned && position.owners.get(province.index()).copied().flatten() != Some(power) {
                return Err(bad("the power does not own it"));
            }
            if position.unit_in(self.map, province).is_some() {
                return Err(bad("a unit stands there"));
            }
            if !position.rules.controlled(self.map, power) {
                return Err(bad("no player plays or controls this country, and it never builds"));
            }
        }
        Ok(PowerOrder {
            power: Some(power),
            order: Order::Build {
                unit: UnitRef::new(kind, location),
            },
            permission: None,
        })
    }
}

/// Checks a read order against the map, phase and position.
pub fn resolve(ctx: &OrderContext<'_>, raw: &RawOrder) -> Result<PowerOrder, OrderError> {
    ctx.resolve(raw)
}

/// Reads a line that may hold several orders separated by commas, as the rule books write them
/// ("England: F Den - Kie, F Nth - Den"); a `Power:` prefix carries on to the following orders
/// until another one appears. A line that reads as one order is one order.
pub fn parse_order_list(ctx: &OrderContext<'_>, line: &str) -> Vec<(String, Result<PowerOrder, OrderError>)> {
    let mut orders = Vec::new();
    for_each_order_read(ctx, line, None, |text, result| orders.push((text.to_string(), result)));
    orders
}

/// As [`parse_order_list`], given the line already read as one order (`read_order`), if it was;
/// each order is handed to `each` with its text instead of collected.
pub(crate) fn for_each_order_read(
    ctx: &OrderContext<'_>,
    line: &str,
    read: Option<Result<RawOrder, OrderError>>,
    mut each: impl FnMut(&str, Result<PowerOrder, OrderError>),
) {
    let whole = match read {
        Some(read) => read.and_then(|raw| resolve(ctx, &raw)),
        None => parse_order(ctx, line),
    };
    if whole.is_ok() || !line.contains(',') {
        return each(line.trim(), whole);
    }
    let mut power = ctx.default_power;
    for part in line.split(',') {
        let text = part.trim();
        if text.is_empty() {
            continue;
        }
        let part_ctx = OrderContext {
            default_power: power,
            ..*ctx
        };
        let result = parse_order(&part_ctx, text);
        if let Ok(raw) = read_order(ctx.map, text) {
            if raw.power.is_some() {
                power = raw.power;
            }
        }
        each(text, result);
    }
}
