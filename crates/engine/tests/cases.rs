//! The data-driven rule suite: every case file under `tests/cases/` (the DATC and our own cases)
//! is read and played; see docs/CASE_FORMAT.md for the format.

#[path = "harness/politics.rs"]
mod politics;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use spielleiter_engine::adjudicate::Outcome;
use spielleiter_engine::adjudicate::adjustment::AdjustmentOutcome;
use spielleiter_engine::adjudicate::retreat::RetreatOutcome;
use spielleiter_engine::game::{GameResult, PhaseOrders, PhaseReport, adjudicate_phase};
use spielleiter_engine::order::{OrderErrorKind, read_order};
use spielleiter_engine::rule_state::{DisplacedLeader, Garrison, LeaderPlace, RuleState};
use spielleiter_engine::rules::{LeaderOutcome, LeaderRetreatOutcome};
use spielleiter_engine::scenario::SpecialRule;
use spielleiter_engine::{
    Coast, DislodgedUnit, LocationId, Map, Order, Phase, PhaseKind, Position, ProvinceId, Unit, Variant,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ok,
    Fails,
    Illegal,
    /// A legal order replaced by a later one for the same unit (the last one counts).
    Replaced,
    /// A legal order for a neutral country under joint control whose set was not carried out
    /// (Hegemony 1.1.4), told to its sender alone.
    Unused,
}

#[derive(Debug)]
struct OrderLine {
    /// The sender (`from France: Bavaria: A Bav - Boh`), when the line is sent by a power for
    /// another country; none: the line is read as its power's own.
    sender: Option<String>,
    text: String,
    status: Status,
    dislodged: bool,
    line: usize,
}

#[derive(Debug, Default)]
struct Step {
    phase: Option<String>,
    orders: Vec<OrderLine>,
    expect_units: Option<Vec<(String, usize)>>,
    expect_dislodged: Option<Vec<(String, usize)>>,
    expect_leader_retreats: Option<Vec<(String, usize)>>,
    expect_centres: Option<Vec<(String, usize)>>,
    expect_politics: Option<Vec<(String, usize)>>,
    /// How the game ends with this step: `victory France`, `shared victory France, Spain`,
    /// `draw France, Spain` or `none`.
    expect_end: Option<Vec<(String, usize)>>,
    /// The phase to be played after this step (`expect phase F1901M`).
    expect_phase: Option<String>,
}

#[derive(Debug, Default)]
struct Case {
    id: String,
    title: String,
    line: usize,
    centres: Vec<(String, usize)>,
    units: Vec<(String, usize)>,
    dislodged: Vec<(String, usize)>,
    /// The special rules switched on (`rules 5.1.3 5.1.6`), instead of the scenario's.
    special_rules: Option<Vec<String>>,
    /// The politics (Hegemony 1.1), instead of the scenario's start.
    politics: Vec<(String, usize)>,
    /// The house rules the game is played with (`house retreats-with-moves`).
    house: Vec<String>,
    steps: Vec<Step>,
}

struct CaseFile {
    path: PathBuf,
    variant: String,
    cases: Vec<Case>,
}

fn parse_file(path: &Path) -> CaseFile {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut file = CaseFile {
        path: path.to_path_buf(),
        variant: String::new(),
        cases: Vec::new(),
    };
    let mut case: Option<Case> = None;
    let mut section = "";
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fail = |msg: &str| -> ! { panic!("{}:{line_no}: {msg}: `{line}`", path.display()) };
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match (word, case.as_mut()) {
            ("variant", None) => file.variant = rest.to_string(),
            ("case", None) => {
                case = Some(Case {
                    id: rest.to_string(),
                    line: line_no,
                    steps: vec![Step::default()],
                    ..Case::default()
                });
                section = "";
            }
            ("end", Some(_)) => {
                file.cases.push(case.take().unwrap_or_default());
            }
            ("title", Some(c)) => c.title = rest.to_string(),
            ("rules", Some(c)) => c.special_rules = Some(rest.split_whitespace().map(str::to_string).collect()),
            ("house", Some(c)) => c.house = rest.split_whitespace().map(str::to_string).collect(),
            ("phase", Some(c)) => {
                let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                if step.phase.is_some() || !step.orders.is_empty() || step.expect_units.is_some() {
                    c.steps.push(Step {
                        phase: Some(rest.to_string()),
                        ..Step::default()
                    });
                } else {
                    step.phase = Some(rest.to_string());
                }
                section = "";
            }
            ("centres" | "centers", Some(_)) if rest.is_empty() => section = "centres",
            ("politics", Some(_)) if rest.is_empty() => section = "politics",
            ("units", Some(_)) if rest.is_empty() => section = "units",
            ("dislodged", Some(_)) if rest.is_empty() => section = "dislodged",
            ("orders", Some(_)) if rest.is_empty() => section = "orders",
            ("expect", Some(c)) => {
                let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                match rest {
                    "units" => {
                        step.expect_units = Some(Vec::new());
                        section = "expect units";
                    }
                    "dislodged" => {
                        step.expect_dislodged = Some(Vec::new());
                        section = "expect dislodged";
                    }
                    "leader retreats" => {
                        step.expect_leader_retreats = Some(Vec::new());
                        section = "expect leader retreats";
                    }
                    "centres" | "centers" => {
                        step.expect_centres = Some(Vec::new());
                        section = "expect centres";
                    }
                    "politics" => {
                        step.expect_politics = Some(Vec::new());
                        section = "expect politics";
                    }
                    "end" => {
                        step.expect_end = Some(Vec::new());
                        section = "expect end";
                    }
                    _ if rest.starts_with("phase ") => {
                        step.expect_phase = Some(rest["phase ".len()..].trim().to_string());
                        section = "";
                    }
                    _ => fail(
                        "expected `expect units`, `expect dislodged`, `expect leader retreats`, `expect centres`, `expect politics`, `expect end` or `expect phase PHASE`",
                    ),
                }
            }
            (_, Some(c)) => {
                let entry = (line.to_string(), line_no);
                match section {
                    "centres" => c.centres.push(entry),
                    "politics" => c.politics.push(entry),
                    "units" => c.units.push(entry),
                    "dislodged" => c.dislodged.push(entry),
                    "orders" => {
                        let (text, outcome) = line
                            .split_once("=>")
                            .unwrap_or_else(|| fail("order without `=> outcome`"));
                        let mut words = outcome.split_whitespace();
                        let status = match words.next() {
                            Some("ok") => Status::Ok,
                            Some("fails") => Status::Fails,
                            Some("illegal") => Status::Illegal,
                            Some("replaced") => Status::Replaced,
                            Some("unused") => Status::Unused,
                            _ => fail("outcome must be ok, fails, illegal, replaced or unused"),
                        };
                        let (sender, text) = match text.trim().strip_prefix("from ") {
                            Some(rest) => {
                                let (sender, text) = rest
                                    .split_once(':')
                                    .unwrap_or_else(|| fail("`from Power:` before the order"));
                                (Some(sender.trim().to_string()), text)
                            }
                            None => (None, text),
                        };
                        let dislodged = match words.next() {
                            None => false,
                            Some("dislodged") => true,
                            Some(_) => fail("only `dislodged` may follow the outcome"),
                        };
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.orders.push(OrderLine {
                            sender,
                            text: text.trim().to_string(),
                            status,
                            dislodged,
                            line: line_no,
                        });
                    }
                    "expect units" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_units.get_or_insert_with(Vec::new).push(entry);
                    }
                    "expect dislodged" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_dislodged.get_or_insert_with(Vec::new).push(entry);
                    }
                    "expect leader retreats" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_leader_retreats.get_or_insert_with(Vec::new).push(entry);
                    }
                    "expect centres" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_centres.get_or_insert_with(Vec::new).push(entry);
                    }
                    "expect politics" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_politics.get_or_insert_with(Vec::new).push(entry);
                    }
                    "expect end" => {
                        let step = c.steps.last_mut().unwrap_or_else(|| fail("no step"));
                        step.expect_end.get_or_insert_with(Vec::new).push(entry);
                    }
                    _ => fail("line outside of a section"),
                }
            }
            (_, None) => fail("line outside of a case"),
        }
    }
    assert!(case.is_none(), "{}: last case has no `end`", path.display());
    file
}

/// Splits `Power: rest` and finds the power.
fn split_power<'a>(map: &Map, text: &'a str) -> Result<(spielleiter_engine::PowerId, &'a str), String> {
    let (power, rest) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` has no `Power:`"))?;
    let id = map
        .power_by_name(power.trim())
        .ok_or_else(|| format!("unknown power `{power}`"))?;
    Ok((id, rest.trim()))
}

/// Reads `A mun` / `F spa/nc` / `F Spain (north coast)` into a unit type and location.
fn read_unit(map: &Map, text: &str) -> Result<(spielleiter_engine::UnitType, LocationId), String> {
    let raw = read_order(map, text).map_err(|e| format!("`{text}`: {e}"))?;
    let unit = raw.unit.ok_or_else(|| format!("`{text}` is not a unit"))?;
    let kind = unit.kind.ok_or_else(|| format!("`{text}`: say A or F"))?;
    Ok((kind, place_location(map, kind, unit.place.province, unit.place.coast)))
}

fn place_location(
    map: &Map,
    kind: spielleiter_engine::UnitType,
    province: spielleiter_engine::ProvinceId,
    coast: Option<Coast>,
) -> LocationId {
    match (kind, coast) {
        (spielleiter_engine::UnitType::Fleet, Some(c)) => {
            map.coast_of(province, c).unwrap_or(map.province(province).main)
        }
        _ => map.province(province).main,
    }
}

fn read_location(map: &Map, text: &str) -> Result<LocationId, String> {
    let t = text.trim();
    if let Some(l) = map.location_by_abbreviation(t) {
        return Ok(l);
    }
    let raw = read_order(map, &format!("F {t}")).map_err(|e| format!("`{t}`: {e}"))?;
    let unit = raw.unit.ok_or_else(|| format!("`{t}` is not a place"))?;
    Ok(place_location(
        map,
        spielleiter_engine::UnitType::Fleet,
        unit.place.province,
        unit.place.coast,
    ))
}

fn unit_key(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        u.kind.letter(),
        map.location_abbreviation(u.location)
    )
}

/// Whether a `units` line places a leader (`England: L net marlborough`).
fn is_leader_line(text: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(_, rest)| rest.trim_start().starts_with("L "))
}

/// Reads the leader lines of a `units` section: `Power: L <province> <leader>`.
fn read_leaders(variant: &Variant, lines: &[(String, usize)]) -> Result<Vec<LeaderPlace>, String> {
    let map = &variant.map;
    lines
        .iter()
        .filter(|(text, _)| is_leader_line(text))
        .map(|(text, line)| {
            let (power, rest) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [_, place, key] = words[..] else {
                return Err(format!("line {line}: write `Power: L <province> <leader>`"));
            };
            let location = read_location(map, place).map_err(|e| format!("line {line}: {e}"))?;
            let leader = variant
                .leaders
                .iter()
                .find(|l| l.key == key)
                .ok_or_else(|| format!("line {line}: unknown leader `{key}`"))?;
            Ok(LeaderPlace {
                leader: leader.id,
                power,
                location: map.province(map.province_of(location)).main,
            })
        })
        .collect()
}

fn leader_key(variant: &Variant, l: &LeaderPlace) -> String {
    let map = &variant.map;
    format!(
        "{}: L {} {}",
        map.power(l.power).name,
        map.location_abbreviation(l.location),
        variant.leaders[l.leader.index()].key
    )
}

/// A garrison line (`Turkey: G lib`, or `Turkey: G naf lib` for one driven out of Libya): the
/// army's text and, when given, the home's.
fn garrison_line(text: &str) -> Option<(String, Option<&str>)> {
    let rest = text.split_once(':')?.1.trim_start().strip_prefix("G ")?;
    let mut words = rest.split_whitespace();
    let at = words.next()?;
    Some((format!("A {at}"), words.next()))
}

/// The garrisons a case's `units` lines place.
fn read_garrisons(map: &Map, lines: &[(String, usize)]) -> Result<Vec<Garrison>, String> {
    let mut garrisons = Vec::new();
    for (text, line) in lines {
        let Some((army, home)) = garrison_line(text) else {
            continue;
        };
        let (power, _) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
        let (_, location) = read_unit(map, &army).map_err(|e| format!("line {line}: {e}"))?;
        let home = match home {
            None => map.province_of(location),
            Some(h) => map
                .province_by_name(h)
                .ok_or_else(|| format!("line {line}: unknown home `{h}`"))?,
        };
        garrisons.push(Garrison { power, location, home });
    }
    Ok(garrisons)
}

fn read_units(map: &Map, lines: &[(String, usize)]) -> Result<Vec<Unit>, String> {
    lines
        .iter()
        .filter(|(text, _)| !is_leader_line(text))
        .map(|(text, line)| {
            let (power, rest) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
            let army = garrison_line(text).map(|(army, _)| army);
            let rest = army.as_deref().unwrap_or(rest);
            let (kind, location) = read_unit(map, rest).map_err(|e| format!("line {line}: {e}"))?;
            Ok(Unit { power, kind, location })
        })
        .collect()
}

/// Splits `… retreat to a, b` (or `retreat to nothing`) into the part before and the places.
fn split_retreats<'a>(map: &Map, text: &'a str, line: usize) -> Result<(&'a str, Vec<LocationId>), String> {
    let (before, options) = text
        .split_once("retreat to")
        .ok_or_else(|| format!("line {line}: expected `… retreat to …`"))?;
    let options = options.trim();
    if options == "nothing" {
        return Ok((before.trim(), Vec::new()));
    }
    let places = options
        .split(',')
        .map(|o| read_location(map, o).map_err(|e| format!("line {line}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((before.trim(), places))
}

fn read_dislodged(map: &Map, lines: &[(String, usize)]) -> Result<Vec<DislodgedUnit>, String> {
    lines
        .iter()
        .filter(|(text, _)| !is_leader_line(text))
        .map(|(text, line)| {
            let (power, rest) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
            let (unit_text, retreats) = split_retreats(map, rest, *line)?;
            let (kind, location) = read_unit(map, unit_text).map_err(|e| format!("line {line}: {e}"))?;
            Ok(DislodgedUnit {
                unit: Unit { power, kind, location },
                retreats,
                attacker: None,
            })
        })
        .collect()
}

/// Reads displaced leaders: `Power: L <province> <leader> retreat to a, b` (or `to nothing`).
fn read_displaced(variant: &Variant, lines: &[(String, usize)]) -> Result<Vec<DisplacedLeader>, String> {
    let map = &variant.map;
    let mut displaced = Vec::new();
    for (text, line) in lines.iter().filter(|(text, _)| is_leader_line(text)) {
        let (leader_text, retreats) = split_retreats(map, text, *line)?;
        let place = read_leaders(variant, &[(leader_text.to_string(), *line)])?
            .pop()
            .ok_or_else(|| format!("line {line}: write `Power: L <province> <leader> retreat to …`"))?;
        let retreats = retreats
            .into_iter()
            .map(|l| map.province(map.province_of(l)).main)
            .collect();
        displaced.push(DisplacedLeader { place, retreats });
    }
    Ok(displaced)
}

fn displaced_key(variant: &Variant, d: &DisplacedLeader) -> String {
    let map = &variant.map;
    let mut options: Vec<String> = d.retreats.iter().map(|&l| map.location_abbreviation(l)).collect();
    options.sort();
    let options = if options.is_empty() {
        "nothing".to_string()
    } else {
        options.join(", ")
    };
    format!("{} retreat to {options}", leader_key(variant, &d.place))
}

fn dislodged_key(map: &Map, d: &DislodgedUnit) -> String {
    let mut options: Vec<String> = d.retreats.iter().map(|&l| map.location_abbreviation(l)).collect();
    options.sort();
    format!(
        "{} retreat to {}",
        unit_key(map, &d.unit),
        if options.is_empty() {
            "nothing".to_string()
        } else {
            options.join(", ")
        }
    )
}

fn compare(what: &str, expected: BTreeSet<String>, actual: BTreeSet<String>, errors: &mut String) {
    if expected != actual {
        let missing: Vec<_> = expected.difference(&actual).collect();
        let extra: Vec<_> = actual.difference(&expected).collect();
        let _ = writeln!(
            errors,
            "  {what}: expected but missing {missing:?}; present but not expected {extra:?}"
        );
    }
}

fn run_case(variant: &Variant, case: &Case) -> Result<(), String> {
    let map = &variant.map;
    let mut position = Position::initial(variant);
    position.units = read_units(map, &case.units)?;
    position.dislodged = read_dislodged(map, &case.dislodged)?;
    if !case.units.is_empty() && !position.rules.is_empty() {
        // The case's units replace the scenario's: its leaders are the case's, and garrisons
        // stay only where their army is.
        let start = &position.rules;
        let garrisons = start
            .garrisons()
            .iter()
            .filter(|g| {
                position
                    .units
                    .iter()
                    .any(|u| u.location == g.location && u.power == g.power)
            })
            .copied()
            .collect();
        let listed = read_garrisons(map, &case.units)?;
        let garrisons = if listed.is_empty() { garrisons } else { listed };
        let leaders = read_leaders(variant, &case.units)?;
        let special_rules = match &case.special_rules {
            None => start.special_rules().to_vec(),
            Some(numbers) => numbers
                .iter()
                .map(|n| SpecialRule::from_number(n).ok_or_else(|| format!("line {}: no special rule {n}", case.line)))
                .collect::<Result<_, _>>()?,
        };
        let politics = start.politics().clone();
        position.rules = RuleState::new(variant, &position.units, leaders, garrisons, special_rules)
            .map_err(|e| format!("line {}: {e}", case.line))?
            .with_displaced(variant, &position.units, read_displaced(variant, &case.dislodged)?)
            .map_err(|e| format!("line {}: {e}", case.line))?
            .with_politics(politics);
    }
    if !case.house.is_empty() {
        let mut house = spielleiter_engine::house_rules::HouseRules::default();
        for name in &case.house {
            match name.as_str() {
                "retreats-with-moves" => house.retreats_with_moves = true,
                other => return Err(format!("line {}: no house rule `{other}`", case.line)),
            }
        }
        position.rules = position.rules.clone().with_house(house);
    }
    if !case.politics.is_empty() {
        let politics = politics::read(variant, &case.politics)?;
        position.rules = position.rules.clone().with_politics(politics);
    }
    if !case.centres.is_empty() {
        position.owners.iter_mut().for_each(|o| *o = None);
        for (text, line) in &case.centres {
            let (power, rest) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
            for c in rest.split([' ', ',']).filter(|c| !c.is_empty()) {
                let p = map
                    .province_by_name(c)
                    .ok_or_else(|| format!("line {line}: unknown centre `{c}`"))?;
                position.owners[p.index()] = Some(power);
            }
        }
    }
    let mut errors = String::new();
    for (i, step) in case.steps.iter().enumerate() {
        if let Some(phase) = &step.phase {
            position.phase = phase.parse::<Phase>().map_err(|e| e.to_string())?;
        }
        if i == 0 {
            // As a state read from JSON: the scenario's choices are open in its first phase.
            spielleiter_engine::choice::open_in_first_phase(variant, &mut position);
        }
        run_step(variant, &mut position, step, &mut errors)?;
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// Where reading a case line put it.
#[derive(Clone, Copy)]
enum Read {
    /// An order line, by index.
    Line(usize),
    /// A line told to its sender alone, by index in `sender_only`.
    Private(usize),
    /// Nothing to check (an advance retreat kept for later).
    Nothing,
}

/// The step's order lines read as the judge reads a submission (`PhaseOrders::read`), one case
/// line at a time (with its sender, for `from Power:` lines): the orders, and where each case
/// line went.
fn read_step(variant: &Variant, position: &Position, step: &Step) -> Result<(PhaseOrders, Vec<Read>), String> {
    let mut orders = PhaseOrders::default();
    let mut read = Vec::new();
    for o in &step.orders {
        let sender = match &o.sender {
            Some(name) => Some(
                variant
                    .map
                    .power_by_name(name)
                    .ok_or_else(|| format!("line {}: unknown power `{name}`", o.line))?,
            ),
            None => None,
        };
        let (lines, private) = (orders.lines.len(), orders.sender_only.len());
        orders.read(variant, position, sender, [o.text.as_str()]);
        read.push(if orders.lines.len() == lines + 1 {
            Read::Line(lines)
        } else if orders.sender_only.len() == private + 1 {
            Read::Private(private)
        } else {
            Read::Nothing
        });
    }
    Ok((orders, read))
}

/// Where each case line stands once the phase's rules settled the orders (Hegemony: orders for
/// neutral countries): the index of its line in the report, or of the line carried out in its
/// place (an identical set for a jointly controlled country); else, for a line told to its sender
/// alone, why.
fn settled(
    before: &[spielleiter_engine::game::ReadLine],
    orders: &PhaseOrders,
    read: &[Read],
) -> (Vec<Option<usize>>, Vec<Option<OrderErrorKind>>) {
    let after = &orders.lines;
    let mut moved = vec![None; before.len()];
    let mut j = 0;
    // A line the rules changed (a conditional order decided) keeps its sender and text.
    let same = |a: &spielleiter_engine::game::ReadLine, b: &spielleiter_engine::game::ReadLine| {
        a == b || (a.condition.is_some() && a.sender == b.sender && a.text == b.text && b.condition.is_none())
    };
    for (i, line) in before.iter().enumerate() {
        if after.get(j).is_some_and(|a| same(line, a)) {
            moved[i] = Some(j);
            j += 1;
        }
    }
    let mut lines = Vec::new();
    let mut private = Vec::new();
    for r in read {
        let (line, why) = match *r {
            Read::Line(i) => match moved[i] {
                Some(k) => (Some(k), None),
                None => set_aside(&before[i], orders),
            },
            Read::Private(p) => (None, Some(orders.sender_only[p].2.kind.clone())),
            Read::Nothing => (None, None),
        };
        lines.push(line);
        private.push(why);
    }
    (lines, private)
}

/// A line the rules set aside: the line carried out in its place, or why it was not.
fn set_aside(
    line: &spielleiter_engine::game::ReadLine,
    orders: &PhaseOrders,
) -> (Option<usize>, Option<OrderErrorKind>) {
    let why = orders
        .sender_only
        .iter()
        .find(|(s, text, _)| (*s == line.sender || *s == line.sender.or(line.power)) && *text == line.text)
        .map(|(_, _, e)| e.kind.clone());
    if matches!(why, Some(OrderErrorKind::JointOrdersCarried(_))) {
        let same = orders
            .lines
            .iter()
            .position(|l| l.power == line.power && l.result == line.result);
        // Without an equal line (a hold, which sets leave out) it is checked as carried out.
        return (same, same.is_none().then_some(why).flatten());
    }
    (None, why)
}

/// Checks the case lines told to their sender alone: `unused` for a joint-control set or a
/// conditional order not carried out, `ok` for a line carried out with its set, `illegal` for one
/// refused when read.
fn check_private(step: &Step, private: &[Option<OrderErrorKind>], errors: &mut String) {
    for (o, why) in step.orders.iter().zip(private) {
        // Decided after reading: not carried out (`unused`), or carried out with its set.
        let decided = matches!(
            why,
            Some(
                OrderErrorKind::JointOrdersNotCarried(_)
                    | OrderErrorKind::ConditionNotMet
                    | OrderErrorKind::JointOrdersCarried(_)
            )
        );
        let complaint = match (o.status, why) {
            (Status::Unused, Some(OrderErrorKind::JointOrdersNotCarried(_) | OrderErrorKind::ConditionNotMet)) => None,
            (Status::Ok, Some(OrderErrorKind::JointOrdersCarried(_))) => None,
            (Status::Illegal, Some(_)) if !decided => None,
            (Status::Unused, _) => {
                Some("was expected to be left unused (a joint-control set, a condition)".to_string())
            }
            (_, Some(kind)) => Some(format!("told to its sender alone: {kind}")),
            (_, None) => None,
        };
        if let Some(complaint) = complaint {
            let _ = writeln!(errors, "  line {}: `{}` {complaint}", o.line, o.text);
        }
    }
}

/// The province a case line orders a unit in, read from its text even when the order is illegal.
fn ordered_province(map: &Map, text: &str) -> Option<spielleiter_engine::ProvinceId> {
    let order = text.split_once(':').map_or(text, |x| x.1);
    read_order(map, order).ok()?.unit.map(|u| u.place.province)
}

/// Checks each case line's status against what the phase did with it: `outcome(line index)` is
/// whether the carried-out order succeeded (None: it gave no order to check).
fn check_statuses(
    step: &Step,
    orders: &PhaseOrders,
    read: &[Option<usize>],
    carried: &[bool],
    mut succeeded: impl FnMut(usize) -> Option<(bool, String)>,
    errors: &mut String,
) {
    for (o, index) in step.orders.iter().zip(read) {
        let Some(k) = *index else { continue };
        let legal = orders.lines[k].result.is_ok();
        let complaint = match (o.status, legal, carried[k]) {
            (Status::Unused, _, _) => Some("was expected to be left unused but is among the orders".to_string()),
            (Status::Illegal, true, _) => Some("was expected to be illegal but is legal".to_string()),
            (Status::Illegal, false, _) => None,
            (_, false, _) => Some(format!(
                "rejected: {}",
                orders.lines[k]
                    .result
                    .as_ref()
                    .err()
                    .map_or(String::new(), |e| e.kind.to_string())
            )),
            (Status::Replaced, true, true) => Some("was expected to be replaced but is carried out".to_string()),
            (Status::Replaced, true, false) => None,
            (_, true, false) => {
                Some("is replaced by a later order for the same unit (write `=> replaced`)".to_string())
            }
            (status, true, true) => match succeeded(k) {
                Some((ok, got)) if ok != (status == Status::Ok) => Some(format!("expected {status:?}, got {got}")),
                _ => None,
            },
        };
        if let Some(complaint) = complaint {
            let _ = writeln!(errors, "  line {}: `{}` {complaint}", o.line, o.text);
        }
    }
}

fn expect_units(variant: &Variant, step: &Step, next: &Position, errors: &mut String) -> Result<(), String> {
    let map = &variant.map;
    if let Some(expected) = &step.expect_units {
        let expected_units = read_units(map, expected)?;
        let expected_leaders = read_leaders(variant, expected)?;
        let expected: BTreeSet<String> = expected_units
            .iter()
            .map(|u| unit_key(map, u))
            .chain(expected_leaders.iter().map(|l| leader_key(variant, l)))
            .collect();
        let actual_units = next.units.iter().map(|u| unit_key(map, u));
        let actual_leaders = next.rules.leaders().iter().map(|l| leader_key(variant, l));
        let actual: BTreeSet<String> = actual_units.chain(actual_leaders).collect();
        compare("units", expected, actual, errors);
    }
    Ok(())
}

/// Plays one step through the judge's own path: order reading, then `adjudicate_phase`.
fn run_step(variant: &Variant, position: &mut Position, step: &Step, errors: &mut String) -> Result<(), String> {
    let (orders, read) = read_step(variant, position, step)?;
    let before = orders.lines.clone();
    let report = adjudicate_phase(variant, position, orders);
    let (read, private) = settled(&before, &report.orders, &read);
    check_private(step, &private, errors);
    let carried = report.orders.carried_out(variant, position.phase.kind);
    match position.phase.kind {
        PhaseKind::Movement => check_movement(variant, step, &report, &read, &carried, errors)?,
        PhaseKind::Retreat => check_retreats(variant, step, &report, &read, &carried, errors),
        PhaseKind::Adjustment => check_adjustments(step, &report, &read, &carried, errors),
    }
    expect_units(variant, step, &report.next, errors)?;
    expect_centres(variant, step, &report.next, errors)?;
    if let Some(lines) = &step.expect_end {
        let expected: BTreeSet<String> = lines.iter().map(|(t, _)| t.trim().to_string()).collect();
        let actual = BTreeSet::from([end_line(variant, report.end.as_ref())]);
        compare("end", expected, actual, errors);
    }
    if let Some(lines) = &step.expect_politics {
        let actual = politics::lines(variant, report.next.rules.politics());
        compare("politics", politics::expected(lines), actual, errors);
    }
    if let Some(phase) = &step.expect_phase {
        let actual = BTreeSet::from([report.next.phase.to_string()]);
        compare("phase", BTreeSet::from([phase.clone()]), actual, errors);
    }
    *position = report.next;
    Ok(())
}

/// How a game ended, as an `expect end` line writes it.
fn end_line(variant: &Variant, end: Option<&GameResult>) -> String {
    let names = |ps: &[spielleiter_engine::PowerId]| {
        ps.iter()
            .map(|&p| variant.map.power(p).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match end {
        None => "none".to_string(),
        Some(GameResult::Victory(p)) => format!("victory {}", names(&[*p])),
        Some(GameResult::Concession(p)) => format!("concession {}", names(&[*p])),
        Some(GameResult::SharedVictory(ps)) => format!("shared victory {}", names(ps)),
        Some(GameResult::Draw(ps)) => format!("draw {}", names(ps)),
    }
}

/// Compares the centres each power owns after the step (`Power: prov prov`, one line per power
/// that owns any) with the step's `expect centres`.
fn expect_centres(variant: &Variant, step: &Step, next: &Position, errors: &mut String) -> Result<(), String> {
    let Some(lines) = &step.expect_centres else {
        return Ok(());
    };
    let map = &variant.map;
    let mut expected = BTreeSet::new();
    for (text, line) in lines {
        let (power, rest) = split_power(map, text).map_err(|e| format!("line {line}: {e}"))?;
        for c in rest.split([' ', ',']).filter(|c| !c.is_empty()) {
            let p = map
                .province_by_name(c)
                .ok_or_else(|| format!("line {line}: unknown centre `{c}`"))?;
            expected.insert(format!("{}: {}", map.power(power).name, map.province(p).abbreviation));
        }
    }
    let actual = next
        .owners
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.map(|p| format!("{}: {}", map.power(p).name, map.provinces()[i].abbreviation)))
        .collect();
    compare("centres", expected, actual, errors);
    Ok(())
}

/// The province of the unit that order line `k` names, if it was read.
fn line_province(map: &Map, report: &PhaseReport, k: usize) -> Option<ProvinceId> {
    let order = report.orders.lines[k].result.as_ref().ok()?;
    Some(map.province_of(order.unit()?.location))
}

fn check_movement(
    variant: &Variant,
    step: &Step,
    report: &PhaseReport,
    read: &[Option<usize>],
    carried: &[bool],
    errors: &mut String,
) -> Result<(), String> {
    let map = &variant.map;
    let movement = report.movement.as_ref().ok_or("no movement was adjudicated")?;
    let unit_of = |k: usize| {
        let province = line_province(map, report, k)?;
        movement
            .units
            .iter()
            .position(|u| map.province_of(u.location) == province)
    };
    check_statuses(
        step,
        &report.orders,
        read,
        carried,
        |k| {
            if let Ok(Order::Leader(order)) = &report.orders.lines[k].result {
                let at = map.province_of(order.at);
                let moved = movement.leaders.iter().find(|l| map.province_of(l.from) == at)?;
                let ok = matches!(moved.outcome, LeaderOutcome::Moved(_))
                    || (moved.outcome == LeaderOutcome::Stayed && moved.order == Some(Order::Leader(*order)));
                return Some((ok, format!("{:?}", moved.outcome)));
            }
            let i = unit_of(k)?;
            let r = movement.results[i];
            let ok = r.outcome == Outcome::Convoyed || (r.outcome != Outcome::ConvoyFailed && r.succeeded());
            let held = matches!(movement.orders[i], Order::Hold { .. });
            Some((
                if held { r.dislodged_by.is_none() } else { ok },
                format!("{:?}", r.outcome),
            ))
        },
        errors,
    );
    for (o, index) in step.orders.iter().zip(read) {
        let leader_order = index.is_some_and(|k| matches!(report.orders.lines[k].result, Ok(Order::Leader(_))));
        // A retreat given with the moves (seed 000 §10) is no order of the movement: what became
        // of it is in `expect units` and `expect phase`.
        let advance =
            index.is_none() && spielleiter_engine::order::advance::read_advance_retreat(map, &o.text).is_some();
        if leader_order || advance {
            continue;
        }
        // The unit of the order read (a conditional line's chosen branch), else of the text.
        let unit = index
            .and_then(|k| line_province(map, report, k))
            .or_else(|| ordered_province(map, &o.text))
            .and_then(|p| movement.units.iter().position(|u| map.province_of(u.location) == p));
        let Some(i) = unit else {
            if o.status != Status::Illegal {
                let _ = writeln!(errors, "  line {}: `{}` names no unit", o.line, o.text);
            }
            continue;
        };
        let dislodged = movement.results[i].dislodged_by.is_some();
        if dislodged != o.dislodged {
            let _ = writeln!(
                errors,
                "  line {}: `{}` dislodged expected {}, got {dislodged}",
                o.line, o.text, o.dislodged
            );
        }
    }
    if let Some(expected) = &step.expect_dislodged {
        let expected: BTreeSet<String> = read_dislodged(map, expected)?
            .iter()
            .map(|d| dislodged_key(map, d))
            .collect();
        let actual: BTreeSet<String> = movement.dislodged.iter().map(|d| dislodged_key(map, d)).collect();
        compare("dislodged", expected, actual, errors);
    }
    if let Some(expected) = &step.expect_leader_retreats {
        let expected: BTreeSet<String> = read_displaced(variant, expected)?
            .iter()
            .map(|d| displaced_key(variant, d))
            .collect();
        let actual = movement
            .displaced_leaders
            .iter()
            .map(|d| displaced_key(variant, d))
            .collect();
        compare("leader retreats", expected, actual, errors);
    }
    Ok(())
}

fn check_retreats(
    variant: &Variant,
    step: &Step,
    report: &PhaseReport,
    read: &[Option<usize>],
    carried: &[bool],
    errors: &mut String,
) {
    let map = &variant.map;
    let Some(retreats) = report.retreats.as_ref() else {
        let _ = writeln!(errors, "  no retreats were adjudicated");
        return;
    };
    let outcome_of = |k: usize| {
        if let Ok(Order::Leader(order)) = &report.orders.lines[k].result {
            let at = map.province_of(order.at);
            let Some(l) = retreats.leaders.iter().find(|l| map.province_of(l.from) == at) else {
                return Some((false, "not displaced".to_string()));
            };
            return Some((
                matches!(l.outcome, LeaderRetreatOutcome::Retreated(_)),
                format!("{:?}", l.outcome),
            ));
        }
        let province = line_province(map, report, k)?;
        let i = retreats
            .dislodged
            .iter()
            .position(|d| map.province_of(d.unit.location) == province)?;
        let outcome = retreats.outcomes[i];
        let ok = matches!(outcome, RetreatOutcome::Retreated(_) | RetreatOutcome::Disbanded);
        Some((ok, format!("{outcome:?}")))
    };
    check_statuses(step, &report.orders, read, carried, outcome_of, errors);
}

fn check_adjustments(step: &Step, report: &PhaseReport, read: &[Option<usize>], carried: &[bool], errors: &mut String) {
    let Some(adjustments) = report.adjustments.as_ref() else {
        let _ = writeln!(errors, "  no adjustments were adjudicated");
        return;
    };
    // The outcomes follow the lines carried out, in order.
    let legal: Vec<usize> = (0..report.orders.lines.len()).filter(|&k| carried[k]).collect();
    let outcome_of = |k: usize| {
        let outcome = adjustments.outcomes[legal.iter().position(|&l| l == k)?];
        let ok = matches!(
            outcome,
            AdjustmentOutcome::Built
                | AdjustmentOutcome::Disbanded
                | AdjustmentOutcome::Waived
                | AdjustmentOutcome::Chosen
                | AdjustmentOutcome::Allocated
                | AdjustmentOutcome::Declared
        );
        Some((ok, format!("{outcome:?}")))
    };
    check_statuses(step, &report.orders, read, carried, outcome_of, errors);
}

fn case_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A built-in variant.
fn load_variant(name: &str) -> Result<Variant, String> {
    match spielleiter_engine::variant::builtin(name) {
        Some(variant) => variant.map_err(|e| e.to_string()),
        None => Err(format!("unknown variant `{name}`")),
    }
}

fn main() -> std::process::ExitCode {
    let mut passed = 0;
    let mut failed = 0;
    let mut failures = String::new();
    for path in case_files() {
        let file = parse_file(&path);
        let variant = load_variant(&file.variant).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut file_passed = 0;
        for case in &file.cases {
            match run_case(&variant, case) {
                Ok(()) => file_passed += 1,
                Err(e) => {
                    let _ = writeln!(
                        failures,
                        "FAIL {} ({}:{}) {}\n{e}",
                        case.id,
                        file.path.display(),
                        case.line,
                        case.title
                    );
                }
            }
        }
        let name = file.path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&file.path);
        println!("{}: {file_passed} of {} cases pass", name.display(), file.cases.len());
        passed += file_passed;
        failed += file.cases.len() - file_passed;
    }
    print!("{failures}");
    println!("rule cases: {passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
