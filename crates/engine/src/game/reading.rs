//! Reading every power's order lines for a phase ([`PhaseOrders::read`]): headings, lines for
//! other phases, conditional orders, retreats given in advance and ordinary orders, each to
//! where it belongs (the orders, the sender's ears alone, or a later phase).

use super::{LaterOrder, PhaseOrders, ReadLine, names_political_factors};
use crate::ids::PowerId;
use crate::order::advance::{AdvanceRead, read_advance};
use crate::order::direct::{Board, Direct, direct_order};
use crate::order::quick::quick_order;
use crate::order::resolve::{OrderContext, for_each_order_read, resolve};
use crate::order::syntax::{RawOrder, read_power_header, read_power_prefix};
use crate::order::{OrderError, OrderErrorKind};
use crate::phase::{Phase, PhaseKind, read_phase_header};
use crate::position::Position;
use crate::variant::Variant;

impl PhaseOrders {
    /// Reads order lines for the position's phase. `power` is the sender, if known (lines may
    /// also carry a `Power:` prefix, or a `Power:` line for the lines below it).
    pub fn read<'a>(
        &mut self,
        variant: &Variant,
        position: &Position,
        power: Option<PowerId>,
        lines: impl IntoIterator<Item = &'a str>,
    ) {
        let board = Board::for_reading(&variant.map, position);
        self.read_lines(variant, position, power, lines, board.as_ref());
    }

    /// Reads the order lines of several senders for the position's phase, one sender after
    /// another, as [`PhaseOrders::read`] reads each (the position's units are looked up once for
    /// all of them).
    pub fn read_all<'a, L: IntoIterator<Item = &'a str>>(
        &mut self,
        variant: &Variant,
        position: &Position,
        senders: impl IntoIterator<Item = (Option<PowerId>, L)>,
    ) {
        let board = Board::for_reading(&variant.map, position);
        for (power, lines) in senders {
            self.read_lines(variant, position, power, lines, board.as_ref());
        }
    }

    /// As [`PhaseOrders::read`], with the one-pass way for the commonest lines on `board` (the
    /// tests compare reading without it).
    fn read_lines<'a>(
        &mut self,
        variant: &Variant,
        position: &Position,
        power: Option<PowerId>,
        lines: impl IntoIterator<Item = &'a str>,
        board: Option<&Board<'_>>,
    ) {
        let mut reader = LineReader {
            variant,
            position,
            sender: power,
            current: power,
            section: None,
            board,
        };
        // Entries that came otherwise have no input line.
        self.note_origins(usize::MAX);
        let mut read_from = usize::MAX;
        let lines = lines.into_iter();
        // About one line per unit in all, for all powers: room for them at the first reading.
        let room = lines
            .size_hint()
            .0
            .max(position.units.len().saturating_sub(self.lines.len()));
        self.lines.reserve(room);
        self.line_origins.reserve(room);
        for (index, line) in lines.enumerate() {
            self.note_origins(read_from);
            read_from = index;
            reader.line(self, trimmed(line));
        }
        self.note_origins(read_from);
    }

    /// Gives the entries added to `lines` and `sender_only` since the last call the input line
    /// `index`.
    fn note_origins(&mut self, index: usize) {
        self.line_origins.resize(self.lines.len(), index);
        self.private_origins.resize(self.sender_only.len(), index);
    }
}

/// A line without the blanks around it (most lines have none: told at a glance).
fn trimmed(line: &str) -> &str {
    let plain = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_graphic());
    if plain(line.as_bytes().first()) && plain(line.as_bytes().last()) {
        line
    } else {
        line.trim()
    }
}

/// What reading one sender's lines knows between lines.
struct LineReader<'v, 'b> {
    variant: &'v Variant,
    position: &'v Position,
    /// Who sent the lines, if known.
    sender: Option<PowerId>,
    /// The power the lines are for (the sender, or the last `Power:` heading).
    current: Option<PowerId>,
    /// The phase of the last phase heading.
    section: Option<Phase>,
    /// The position's units by province, where the commonest legal lines are read and checked in
    /// one pass ([`direct_order`]): in movement phases (the tests turn it off to compare both
    /// ways).
    board: Option<&'b Board<'v>>,
}

impl LineReader<'_, '_> {
    /// Reads one trimmed line into `orders`.
    fn line(&mut self, orders: &mut PhaseOrders, text: &str) {
        if text.is_empty() || text.starts_with('#') {
            return;
        }
        // The plainest lines (most of them) are read at once: they are no heading, condition or
        // retreat given in advance.
        let now = self.position.phase;
        if self
            .section
            .is_none_or(|p| p == now && self.variant.calendar.has_phase(now))
        {
            if self.direct_line(orders, text) {
                return;
            }
            if let Some(raw) = quick_order(&self.variant.map, text) {
                self.ordinary(orders, text, Some(Ok(raw)));
                return;
            }
        }
        if self.heading(orders, text) || self.other_phase(orders, text) {
            return;
        }
        // `IF … THEN …` is a conditional order; `if dislodged by …: …` a retreat in advance.
        let split = crate::order::condition::split(text);
        // The line read as an ordinary order on the way, if it was.
        let mut read = None;
        if self.position.phase.kind == PhaseKind::Movement && !matches!(split, Some(Ok(_))) {
            match read_advance(&self.variant.map, text) {
                AdvanceRead::Advance(advance) => return self.advance(orders, text, advance),
                AdvanceRead::Ordinary(raw) => read = raw,
            }
        }
        match split {
            Some(parts) => self.conditional(orders, text, parts),
            None => self.ordinary(orders, text, read),
        }
    }

    /// A plain line read in one pass: a plainly legal one for a unit of the power the lines are
    /// for, sent by that power (or by no one known), taken at once; another plain one (a convoy,
    /// a move by convoy) checked in full and taken where it is a legal order the sender may give.
    /// Whether it was taken (else the line goes the full way, with its errors).
    fn direct_line(&self, orders: &mut PhaseOrders, text: &str) -> bool {
        let Some(board) = self.board else {
            return false;
        };
        let (power, order, permission) = match direct_order(&self.variant.map, board, text) {
            None => return false,
            Some(Direct::Order(owner, order)) => {
                let own = |p: Option<PowerId>| p.is_none_or(|p| p == owner);
                if !own(self.current) || !own(self.sender) {
                    return false;
                }
                (Some(owner), order, None)
            }
            // As an ordinary line's legal order is taken.
            Some(Direct::Read(raw)) => match resolve(&self.context(), &raw) {
                Ok(o) if o.power.and_then(|q| self.not_yours(q)).is_none() => {
                    (o.power.or(self.current), o.order, o.permission)
                }
                _ => return false,
            },
        };
        orders.lines.push(ReadLine {
            power,
            sender: self.sender,
            text: text.into(),
            result: Ok(order),
            permission,
            condition: None,
        });
        true
    }

    /// Whether the sender may order for power `q`: `None` for his own, or one a rule lets him
    /// order for; else why not.
    fn not_yours(&self, q: PowerId) -> Option<OrderError> {
        let map = &self.variant.map;
        let s = self.sender.filter(|&s| s != q)?;
        match crate::rules::may_order_for(self.variant, self.position, s, q) {
            Some(Ok(())) => None,
            Some(Err(kind)) => Some(OrderError::new(kind, 0)),
            None => Some(OrderError::new(
                OrderErrorKind::NotYourOrder {
                    sender: map.power(s).name.clone(),
                    power: map.power(q).name.clone(),
                },
                0,
            )),
        }
    }

    /// A `Power:` or phase heading: taken note of (a power the sender may not speak for is
    /// told to him alone).
    fn heading(&mut self, orders: &mut PhaseOrders, text: &str) -> bool {
        if let Some(p) = read_power_header(&self.variant.map, text) {
            // A power's own orders may not speak for another power.
            match self.not_yours(p) {
                Some(e) => orders.sender_only.push((self.sender, text.to_string(), e)),
                None => self.current = Some(p),
            }
            return true;
        }
        if let Some(phase) = read_phase_header(text) {
            self.section = Some(phase);
            return true;
        }
        false
    }

    /// A line under the heading of another phase: refused for a phase that is over or does not
    /// exist, kept for a later one. Whether it was such a line.
    fn other_phase(&self, orders: &mut PhaseOrders, text: &str) -> bool {
        let (variant, now) = (self.variant, self.position.phase);
        let Some(phase) = self.section else {
            return false;
        };
        if phase < now || !variant.calendar.has_phase(phase) {
            let kind = if phase < now {
                OrderErrorKind::PhaseOver(phase.to_string())
            } else {
                OrderErrorKind::NoSuchPhase(phase.to_string())
            };
            orders.lines.push(ReadLine {
                power: self.current,
                sender: self.sender,
                text: text.into(),
                result: Err(OrderError::new(kind, 0)),
                permission: None,
                condition: None,
            });
            return true;
        }
        if phase == now {
            return false;
        }
        // Checked now as far as the map tells (refused lines are told to the sender and not
        // kept); read for good when its phase begins.
        if let Some(mut e) = crate::conditions::check_later_line(variant, phase, self.current, text) {
            let shown = format!("{phase}: {text}");
            e.position += shown.len() - text.len();
            orders.sender_only.push((self.sender.or(self.current), shown, e));
            return true;
        }
        // Kept as its sender's, with the country it is for written out, so that it is read as
        // the sender's order for that country when its phase comes.
        let text = match (self.sender, self.current) {
            (Some(s), Some(c)) if s != c => format!("{}: {text}", variant.map.power(c).name),
            _ => text.to_string(),
        };
        orders.later.push(LaterOrder {
            power: self.sender.or(self.current),
            phase,
            text,
        });
        true
    }

    /// A retreat order given in advance (or why it cannot be one).
    fn advance(
        &self,
        orders: &mut PhaseOrders,
        text: &str,
        advance: Result<(Option<PowerId>, crate::order::advance::AdvanceRetreat), OrderError>,
    ) {
        let (p, advance) = match advance {
            Ok(read) => read,
            Err(e) => {
                // Told to whoever sent it (a controller under a neutral's heading too).
                orders
                    .sender_only
                    .push((self.sender.or(self.current), text.to_string(), e));
                return;
            }
        };
        // Retreats in advance only for the sender's own units: another country's (a neutral
        // he controls) retreat in its retreat phase.
        let other = p.or(self.current).filter(|&q| self.sender.is_some_and(|s| s != q));
        if let Some(q) = other {
            let e = self.not_yours(q).unwrap_or_else(|| {
                OrderError::new(
                    OrderErrorKind::AdvanceRetreatForOther(self.variant.map.power(q).name.clone()),
                    0,
                )
            });
            orders.sender_only.push((self.sender, text.to_string(), e));
            return;
        }
        match p.or(self.current) {
            Some(p) => orders.advance.push((p, advance)),
            None => orders
                .sender_only
                .push((None, text.to_string(), OrderError::new(OrderErrorKind::PowerNeeded, 0))),
        }
    }

    /// What an order is checked against.
    fn context(&self) -> OrderContext<'_> {
        OrderContext {
            map: &self.variant.map,
            phase: self.position.phase.kind,
            position: Some(self.position),
            default_power: self.current,
            leaders: &self.variant.leaders,
        }
    }

    /// A conditional line (`IF … THEN … ELSE …`).
    fn conditional(
        &self,
        orders: &mut PhaseOrders,
        text: &str,
        parts: Result<crate::order::condition::Parts<'_>, OrderError>,
    ) {
        let ctx = self.context();
        let (result, condition) = crate::conditions::read_conditional(self.variant, &ctx, parts);
        // A conditional line is the sender's own: one for another country (a neutral he
        // controls) is refused, and every refusal is told to him alone (its other branch and
        // condition were never carried out).
        let result = result.and_then(|o| match (o.power, self.sender) {
            (Some(p), Some(s)) if p != s => Err(OrderError::new(
                OrderErrorKind::ConditionalForOther(self.variant.map.power(p).name.clone()),
                0,
            )),
            _ => Ok(o),
        });
        match result {
            Err(e) => orders.sender_only.push((self.sender, text.to_string(), e)),
            Ok(o) => orders.lines.push(ReadLine {
                power: o.power.or(self.current),
                sender: self.sender,
                text: text.into(),
                permission: None,
                result: Ok(o.order),
                condition,
            }),
        }
    }

    /// An ordinary line of one order or several separated by commas, given its reading as one
    /// order when it was read on the way.
    fn ordinary(&self, orders: &mut PhaseOrders, text: &str, read: Option<Result<RawOrder, OrderError>>) {
        let map = &self.variant.map;
        for_each_order_read(&self.context(), text, read, |part, result| {
            let power = match &result {
                Ok(o) => o.power,
                Err(_) => read_power_prefix(map, part),
            }
            .or(self.current);
            // An order for another power's units that its sender may not give, or that cannot
            // be read, is told to him alone.
            // Political factors are secret even when refused (research D-22).
            let refused = match &result {
                Ok(o) => o.power.and_then(|q| self.not_yours(q)),
                Err(e) if names_political_factors(part) => Some(e.clone()),
                Err(e) => power
                    .filter(|&p| self.sender.is_some_and(|s| s != p))
                    .map(|_| e.clone()),
            };
            if let Some(e) = refused {
                orders.sender_only.push((self.sender, part.to_string(), e));
                return;
            }
            orders.lines.push(ReadLine {
                power,
                sender: self.sender,
                text: part.into(),
                permission: result.as_ref().ok().and_then(|o| o.permission),
                result: result.map(|o| o.order),
                condition: None,
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{ProvinceId, UnitType};
    use crate::position::Unit;
    use crate::test_support::Rng;

    /// A movement position with units of random countries in random places.
    fn random_position(variant: &Variant, rng: &mut Rng) -> Position {
        let map = &variant.map;
        let mut position = Position::initial(variant);
        position.phase.kind = PhaseKind::Movement;
        position.units.clear();
        for p in map.provinces() {
            if rng.below(5) > 1 {
                continue;
            }
            let power = PowerId(rng.below(map.countries().len()) as u8);
            let (kind, location) = match (rng.below(2), p.coasts.as_slice()) {
                (0, _) if map.location(p.main).army => (UnitType::Army, p.main),
                (_, []) if map.location(p.main).fleet => (UnitType::Fleet, p.main),
                (_, coasts) if !coasts.is_empty() => (UnitType::Fleet, coasts[rng.below(coasts.len())]),
                _ => continue,
            };
            position.units.push(Unit { power, kind, location });
        }
        position
    }

    /// A random line, mostly of the commonest forms, with the map's places written in several
    /// ways.
    fn random_line(rng: &mut Rng, places: &[String]) -> String {
        let kinds = ["A", "F", "a", "f", "Army", "L"].map(String::from);
        let mut words = vec![rng.pick(&kinds).to_string(), rng.pick(places).to_string()];
        match rng.below(8) {
            0 => words.push("H".into()),
            1..=3 => words.extend(["-".into(), rng.pick(places).to_string()]),
            4 | 5 => {
                words.extend(["S".into(), rng.pick(&kinds).to_string(), rng.pick(places).to_string()]);
                if rng.below(3) > 0 {
                    words.extend(["-".into(), rng.pick(places).to_string()]);
                }
            }
            6 => words.extend([
                "C".into(),
                "A".into(),
                rng.pick(places).to_string(),
                "-".into(),
                rng.pick(places).to_string(),
            ]),
            _ => {}
        }
        let line = words.join(" ");
        if rng.below(4) == 0 { line.to_uppercase() } else { line }
    }

    /// How a line names a location: its province, with its coast (if it has one) or now and
    /// then a coast that may be wrong.
    fn written(rng: &mut Rng, map: &crate::map::Map, location: crate::ids::LocationId) -> String {
        match rng.below(6) {
            0 | 1 => map.location_abbreviation(location),
            2 => format!(
                "{}/{}",
                map.province(map.province_of(location)).abbreviation,
                rng.pick(&["nc", "sc", "ec"])
            ),
            _ => map.province(map.province_of(location)).abbreviation.clone(),
        }
    }

    /// A line for a unit of the position, mostly legal: a hold, a move to a neighbour, or a
    /// support of another unit's hold or move to one of its neighbours.
    fn unit_line(rng: &mut Rng, map: &crate::map::Map, position: &Position) -> Option<String> {
        let units = &position.units;
        let unit = units.get(rng.below(units.len()))?;
        let name = |rng: &mut Rng, u: &Unit| {
            let letter = if rng.below(20) == 0 { 'A' } else { u.kind.letter() };
            format!("{letter} {}", written(rng, map, u.location))
        };
        let step = |rng: &mut Rng, u: &Unit| {
            let near = map.neighbours(u.kind, u.location);
            near.get(rng.below(near.len())).copied()
        };
        // Mostly a supporter that reaches the province (so that the support may be legal).
        let reaching = |rng: &mut Rng, province| {
            let near: Vec<&Unit> = units
                .iter()
                .filter(|u| map.can_reach_province(u.kind, u.location, province))
                .collect();
            match near.len() {
                0 => unit,
                n => near[rng.below(n)],
            }
        };
        let line = match rng.below(5) {
            4 => return convoy_line(rng, map, position),
            0 => format!("{} H", name(rng, unit)),
            1 => {
                let to = step(rng, unit)?;
                format!("{} - {}", name(rng, unit), written(rng, map, to))
            }
            _ => {
                let other = &units[rng.below(units.len())];
                match step(rng, other) {
                    Some(to) if rng.below(2) == 0 => {
                        let me = reaching(rng, map.province_of(to));
                        let (me, it) = (name(rng, me), name(rng, other));
                        format!("{me} S {it} - {}", written(rng, map, to))
                    }
                    _ => {
                        let me = reaching(rng, map.province_of(other.location));
                        format!("{} S {}", name(rng, me), name(rng, other))
                    }
                }
            }
        };
        Some(line)
    }

    /// A line about a convoy that a fleet at sea could carry out: the convoy of an army on one
    /// of its shores to another, the army's move (perhaps written `via convoy`), or a support
    /// of that move.
    fn convoy_line(rng: &mut Rng, map: &crate::map::Map, position: &Position) -> Option<String> {
        let units = &position.units;
        let at_sea: Vec<&Unit> = units
            .iter()
            .filter(|u| u.kind == UnitType::Fleet && map.province(map.province_of(u.location)).convoys)
            .collect();
        let fleet = *at_sea.get(rng.below(at_sea.len()))?;
        let shores: Vec<ProvinceId> = map
            .neighbours(UnitType::Fleet, fleet.location)
            .iter()
            .map(|&l| map.province_of(l))
            .filter(|&p| map.location(map.province(p).main).army)
            .collect();
        let on_shore: Vec<&Unit> = units
            .iter()
            .filter(|u| u.kind == UnitType::Army && shores.contains(&map.province_of(u.location)))
            .collect();
        let army = *on_shore.get(rng.below(on_shore.len()))?;
        let to = *shores.get(rng.below(shores.len()))?;
        let name = |p: ProvinceId| map.province(p).abbreviation.clone();
        let (sea, from, to) = (
            name(map.province_of(fleet.location)),
            name(map.province_of(army.location)),
            name(to),
        );
        Some(match rng.below(5) {
            0 | 1 => format!("F {sea} C A {from} - {to}"),
            2 => format!("A {from} - {to}"),
            3 => format!("A {from} - {to} {}", rng.pick(&["VIA", "via convoy", "by convoy"])),
            _ => {
                let me = &units[rng.below(units.len())];
                format!(
                    "{} {} S A {from} - {to}",
                    me.kind.letter(),
                    map.location_abbreviation(me.location)
                )
            }
        })
    }

    #[test]
    fn reading_the_commonest_lines_in_one_pass_changes_nothing() {
        for name in crate::variant::builtin_names() {
            let variant = crate::variant::builtin(name).expect("built in").expect("loads");
            let map = &variant.map;
            let mut places: Vec<String> = map.provinces().iter().map(|p| p.abbreviation.clone()).collect();
            places.extend(map.provinces().iter().map(|p| p.name.clone()));
            places.extend(["Spa/sc", "Xyz", "North"].map(String::from));
            let mut rng = Rng(0xD1EC_7000 ^ name.len() as u64);
            let mut direct = 0;
            for round in 0..200 {
                let position = random_position(&variant, &mut rng);
                let lines: Vec<String> = (0..40)
                    .filter_map(|_| match rng.below(3) {
                        0 => Some(random_line(&mut rng, &places)),
                        _ => unit_line(&mut rng, map, &position),
                    })
                    .collect();
                let power = PowerId(rng.below(map.countries().len()) as u8);
                let sender = (round % 3 > 0).then_some(power);
                let mut both = [PhaseOrders::default(), PhaseOrders::default()];
                both[0].read(&variant, &position, sender, lines.iter().map(String::as_str));
                both[1].read_lines(&variant, &position, sender, lines.iter().map(String::as_str), None);
                assert_eq!(both[0], both[1], "{name}: {lines:?}");
                // Read in two halves as two senders' lines at once: as one after the other.
                let (first, second) = lines.split_at(lines.len() / 2);
                let halves = [(sender, first), (Some(power), second)];
                let mut at_once = PhaseOrders::default();
                at_once.read_all(
                    &variant,
                    &position,
                    halves.map(|(s, l)| (s, l.iter().map(String::as_str))),
                );
                let mut in_turn = PhaseOrders::default();
                for (s, l) in halves {
                    in_turn.read(&variant, &position, s, l.iter().map(String::as_str));
                }
                assert_eq!(at_once, in_turn, "{name}: {lines:?}");
                direct += lines
                    .iter()
                    .filter(|l| direct_order(map, &Board::new(map, &position), l).is_some())
                    .count();
            }
            // The comparison means something only if many lines take the one pass.
            assert!(direct > 400, "{name}: only {direct} lines read in one pass");
        }
    }
}
