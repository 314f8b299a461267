//! Retreat orders given in advance, with the movement orders (SPEC S7, seed 000 §10a): a priority
//! list per unit ("F Bre R Eng, Pic, Gas"), a condition on the power that dislodges it ("if
//! dislodged by Russia: A Boh R Gal"), and a power-wide rule ("retreats: supply centres first, then
//! alphabetical"). The first legal choice is taken; conditions on other units' retreats are refused.

use crate::ids::{Coast, LocationId, PowerId, ProvinceId, UnitType};
use crate::map::Map;
use crate::map::names::{ShortKey, name_key};
use crate::order::error::{OrderError, OrderErrorKind};
use crate::order::model::{Order, UnitRef};
use crate::order::syntax::{RawAction, RawOrder, RawPlace, find_power, read_order, read_place};
use crate::position::DislodgedUnit;

/// One choice of a priority list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatChoice {
    /// Retreat to this province (and coast, if named).
    To(ProvinceId, Option<Coast>),
    /// Disband rather than retreat.
    Disband,
}

/// One criterion of a power-wide retreat rule, in the order given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatRule {
    /// Supply centres before other provinces.
    SupplyCentres,
    /// The power's own home centres before other provinces.
    HomeCentres,
    /// Alphabetical order of the English province names.
    Alphabetical,
    /// Disband every unit that the rule covers.
    Disband,
}

/// A retreat order given before the retreat phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdvanceRetreat {
    /// A priority list for the unit in `province`.
    Unit {
        /// Where the unit stands now.
        province: ProvinceId,
        /// The unit type, if written.
        kind: Option<UnitType>,
        /// Apply only when dislodged by this power.
        condition: Option<PowerId>,
        /// The choices, best first.
        choices: Vec<RetreatChoice>,
    },
    /// A rule for every dislodged unit of the power without a list of its own.
    Rule(Vec<RetreatRule>),
}

/// Splits `if dislodged by Russia: rest` into the condition's power and the rest. Returns
/// `Ok(None)` when the line has no condition.
fn condition(map: &Map, line: &str) -> Result<Option<(PowerId, usize)>, OrderError> {
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    // A first word that starts with an ASCII letter keeps it first in its key: most lines are
    // told no condition by that letter alone.
    if trimmed
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() && !matches!(b.to_ascii_lowercase(), b'i' | b'f' | b'w'))
    {
        return Ok(None);
    }
    let first = ShortKey::new(trimmed.split_whitespace().next().unwrap_or_default());
    if !matches!(first.as_str(), "if" | "falls" | "wenn" | "wurde") {
        return Ok(None);
    }
    let Some(colon) = trimmed.find(':') else {
        return Err(OrderError::new(
            OrderErrorKind::Expected {
                expected: "`:` after the condition",
                found: "the end of the line".to_string(),
            },
            line.len(),
        ));
    };
    let cond = &trimmed[..colon];
    let words: Vec<String> = cond.split_whitespace().map(name_key).collect();
    let about_dislodgement = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "dislodged" | "attacked" | "vertrieben" | "angegriffen" | "verdraengt" | "verdrangt"
        )
    });
    let about_retreats = words
        .iter()
        .any(|w| w.starts_with("retreat") || w.contains("zurueck") || w.contains("rueckzug") || w.contains("zieht"));
    let power = find_power(map, cond);
    match power {
        Some(p) if about_dislodgement && !about_retreats => Ok(Some((p, lead + colon + 1))),
        _ => Err(OrderError::new(
            OrderErrorKind::ConditionNotAllowed(cond.trim().to_string()),
            lead,
        )),
    }
}

fn rule(line: &str) -> Option<Result<Vec<RetreatRule>, OrderError>> {
    let (head, rest) = line.split_once(':')?;
    let head_key = name_key(head);
    if !matches!(
        head_key.as_str(),
        "retreats" | "retreatrule" | "retreatrules" | "rueckzuege" | "rueckzugsregel" | "rueckzugsregeln"
    ) {
        return None;
    }
    let start = head.len() + 1;
    let mut rules = Vec::new();
    let mut offset = start;
    for part in rest.split([',', ';']) {
        let key = name_key(part);
        let at = offset + (part.len() - part.trim_start().len());
        offset += part.len() + 1;
        let key = [
            "first",
            "then",
            "zuerst",
            "dann",
            "in",
            "into",
            "order",
            "reihenfolge",
            "danach",
            "and",
            "und",
        ]
        .iter()
        .fold(key, |k, filler| k.replace(filler, ""));
        let r = if key.contains("home") || key.contains("heimat") {
            RetreatRule::HomeCentres
        } else if key.contains("supply")
            || key.contains("centre")
            || key.contains("center")
            || key.contains("versorgungszentr")
            || key == "vz"
        {
            RetreatRule::SupplyCentres
        } else if key.contains("alphabet") {
            RetreatRule::Alphabetical
        } else if key.contains("disband") || key.contains("aufloes") {
            RetreatRule::Disband
        } else if key.is_empty() {
            continue;
        } else {
            return Some(Err(OrderError::new(
                OrderErrorKind::UnknownRetreatRule(part.trim().to_string()),
                at,
            )));
        };
        rules.push(r);
    }
    Some(Ok(rules))
}

/// Reads a line as an advance retreat order. `None`: the line is not one (it is an ordinary
/// order). A `Power:` prefix is returned with the order.
pub fn read_advance_retreat(map: &Map, line: &str) -> Option<Result<(Option<PowerId>, AdvanceRetreat), OrderError>> {
    match read_advance(map, line) {
        AdvanceRead::Advance(read) => Some(read),
        AdvanceRead::Ordinary(_) => None,
    }
}

/// What reading a line as a retreat order given in advance found.
pub(crate) enum AdvanceRead {
    /// A retreat order given in advance, or why it cannot be one.
    Advance(Result<(Option<PowerId>, AdvanceRetreat), OrderError>),
    /// An ordinary order; with the reading of the whole line as one when it was read on the way
    /// (so the ordinary reader need not read it again).
    Ordinary(Option<Result<RawOrder, OrderError>>),
}

/// The first choice of a retreat list, as its order reads.
enum FirstChoice {
    To(RawPlace),
    Disband,
}

/// The first choice, if the order reads as one: a retreat order ("A Boh R Gal", "Rückzug A Boh -
/// Gal"), with a condition a plain move arrow too; a disband with a condition or a list.
fn first_choice(raw: &RawOrder, conditional: bool, listed: bool) -> Option<FirstChoice> {
    match &raw.action {
        RawAction::Retreat { to } => Some(FirstChoice::To(to.clone())),
        RawAction::Move {
            path,
            via_convoy: false,
            railroad: false,
        } if path.len() == 1 && conditional => Some(FirstChoice::To(path[0].clone())),
        RawAction::Disband if conditional || listed => Some(FirstChoice::Disband),
        _ => None,
    }
}

/// As [`read_advance_retreat`], keeping the ordinary reading of a line that is no retreat order.
pub(crate) fn read_advance(map: &Map, line: &str) -> AdvanceRead {
    // An optional power prefix, then a rule, a condition, or a retreat list; the first two
    // need a colon, which most lines lack.
    let colon = line.bytes().position(|b| b == b':');
    let (power, body, base) = match colon.map(|c| line.split_at(c)) {
        Some((head, rest)) if map.power_by_name(head.trim()).is_some() => (
            map.power_by_name(head.trim()),
            rest.strip_prefix(':').unwrap_or(rest),
            head.len() + 1,
        ),
        _ => (None, line, 0),
    };
    if let Some(r) = colon.and_then(|_| rule(body)) {
        let read = r.map(|rules| (power, AdvanceRetreat::Rule(rules)));
        return AdvanceRead::Advance(read.map_err(|e| shift(e, base)));
    }
    let (cond, body, base) = match condition(map, body) {
        Ok(Some((p, after))) => (Some(p), &body[after..], base + after),
        Ok(None) => (None, body, base),
        Err(e) => return AdvanceRead::Advance(Err(shift(e, base))),
    };
    let comma = body.bytes().position(|b| b == b',');
    let first = &body[..comma.unwrap_or(body.len())];
    let mut items = body.split(',');
    items.next();
    let whole_line = base == 0 && first.len() == line.len();
    let ordinary = |read| AdvanceRead::Ordinary(whole_line.then_some(read));
    let raw = match read_order(map, first) {
        Ok(raw) => raw,
        Err(e) if cond.is_some() => return AdvanceRead::Advance(Err(shift(e, base))),
        // Not an order at all here: let the ordinary reader report it.
        Err(e) => return ordinary(Err(e)),
    };
    let (Some(unit), Some(choice)) = (&raw.unit, first_choice(&raw, cond.is_some(), comma.is_some())) else {
        return ordinary(Ok(raw));
    };
    let list = |choices| {
        let retreat = AdvanceRetreat::Unit {
            province: unit.place.province,
            kind: unit.kind,
            condition: cond,
            choices,
        };
        AdvanceRead::Advance(Ok((raw.power.or(power), retreat)))
    };
    let first_place = match choice {
        FirstChoice::Disband => return list(vec![RetreatChoice::Disband]),
        FirstChoice::To(place) => place,
    };
    let mut choices = vec![RetreatChoice::To(first_place.province, first_place.coast)];
    match more_choices(map, items, base + first.len() + 1, &mut choices) {
        Ok(()) => list(choices),
        Err(e) => AdvanceRead::Advance(Err(e)),
    }
}

/// Reads the choices after the first (`, Pic, or Gas, disband`), `offset` being where they start
/// in the line.
fn more_choices<'a>(
    map: &Map,
    items: impl Iterator<Item = &'a str>,
    mut offset: usize,
    choices: &mut Vec<RetreatChoice>,
) -> Result<(), OrderError> {
    for item in items {
        let at = offset + (item.len() - item.trim_start().len());
        offset += item.len() + 1;
        let text = item.trim();
        let text = text
            .strip_prefix("or ")
            .or_else(|| text.strip_prefix("oder "))
            .or_else(|| text.strip_prefix("then "))
            .or_else(|| text.strip_prefix("dann "))
            .unwrap_or(text);
        let key = name_key(text);
        if matches!(key.as_str(), "d" | "disband" | "aufloesen" | "auflosen") {
            choices.push(RetreatChoice::Disband);
            continue;
        }
        match read_place(map, text) {
            Ok(place) => choices.push(RetreatChoice::To(place.province, place.coast)),
            Err(e) => return Err(shift(e, at)),
        }
    }
    Ok(())
}

fn shift(mut e: OrderError, by: usize) -> OrderError {
    e.position += by;
    e
}

/// Where a choice leads among a dislodged unit's options: the matching option, if exactly one.
fn option_for(map: &Map, d: &DislodgedUnit, province: ProvinceId, coast: Option<Coast>) -> Option<LocationId> {
    let mut matching = d.retreats.iter().copied().filter(|&l| {
        map.province_of(l) == province && coast.is_none_or(|c| map.location(l).coast.is_none_or(|lc| lc == c))
    });
    match (matching.next(), matching.next()) {
        (Some(l), None) => Some(l),
        _ => None,
    }
}

/// The retreat or disband that a power's advance orders give a dislodged unit, if any apply:
/// a list with a matching condition first, then an unconditional list, then the power's rule.
pub fn choose_retreat(map: &Map, d: &DislodgedUnit, advance: &[AdvanceRetreat]) -> Option<Order> {
    let unit = UnitRef::new(d.unit.kind, d.unit.location);
    let here = map.province_of(d.unit.location);
    let lists = advance.iter().filter_map(|a| match a {
        AdvanceRetreat::Unit {
            province,
            kind,
            condition,
            choices,
        } if *province == here && kind.is_none_or(|k| k == d.unit.kind) => Some((condition, choices)),
        _ => None,
    });
    let conditional = lists
        .clone()
        .filter(|(c, _)| c.is_some() && **c == d.attacker)
        .chain(lists.filter(|(c, _)| c.is_none()));
    for (_, choices) in conditional {
        for choice in choices {
            match *choice {
                RetreatChoice::Disband => return Some(Order::Disband { unit }),
                RetreatChoice::To(province, coast) => {
                    if let Some(to) = option_for(map, d, province, coast) {
                        return Some(Order::Retreat { unit, to });
                    }
                }
            }
        }
    }
    let rules = advance.iter().find_map(|a| match a {
        AdvanceRetreat::Rule(r) => Some(r),
        _ => None,
    })?;
    if rules.contains(&RetreatRule::Disband) || d.retreats.is_empty() {
        return Some(Order::Disband { unit });
    }
    let key = |l: &LocationId| {
        let p = map.province(map.province_of(*l));
        let mut k: Vec<u8> = Vec::new();
        for r in rules {
            match r {
                RetreatRule::SupplyCentres => k.push(u8::from(!p.centre)),
                RetreatRule::HomeCentres => k.push(u8::from(p.home_of != Some(d.unit.power))),
                _ => {}
            }
        }
        (k, p.name.clone(), map.location_abbreviation(*l))
    };
    let to = d.retreats.iter().min_by_key(|l| key(l)).copied()?;
    Some(Order::Retreat { unit, to })
}
