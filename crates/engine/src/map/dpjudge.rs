//! Import of maps in the DPjudge `.map` format (also used by the Python `diplomacy` package) into
//! our variant file format. Pure text to text: the caller supplies the text of files named by
//! `USE`/`MAP` lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::map::names::{capitalise, name_key};

/// A problem with a `.map` file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ImportError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when it concerns the whole map).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The result of an import: our variant file, and what was left out on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The variant file (TOML) in our format.
    pub toml: String,
    /// Things the import dropped or guessed (ambiguous aliases, unsupported directives, …).
    pub warnings: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Terr {
    Water,
    Land,
    Coast,
    Port,
    Shut,
}

#[derive(Default)]
struct PowerDef {
    name: String,
    own: Option<String>,
    letter: Option<char>,
    homes: Vec<String>,
    units: Vec<String>,
}

#[derive(Default)]
struct Parsed {
    /// Files already read (each is read once).
    included: BTreeSet<String>,
    /// Places dropped by `DROP` (lower case): forgotten wherever they are named.
    dropped: BTreeSet<String>,
    names: BTreeMap<String, (String, Vec<String>)>,
    locations: BTreeMap<String, (Terr, Vec<String>)>,
    powers: Vec<PowerDef>,
    unowned: BTreeSet<String>,
    begin: Option<String>,
    victory: Option<u32>,
    warnings: Vec<String>,
}

const DIRECTIVES: [&str; 28] = [
    "USE",
    "USES",
    "MAP",
    "BEGIN",
    "VICTORY",
    "UNOWNED",
    "NEUTRAL",
    "CENTERS",
    "DROP",
    "WATER",
    "LAND",
    "COAST",
    "PORT",
    "SHUT",
    "DUMMY",
    "DUMMIES",
    "UNPLAYED",
    "RULE",
    "RULES",
    "DIRECTIVE",
    "FLOW",
    "SEQUENCE",
    "OWNS",
    "INHABITS",
    "HOME",
    "HOMES",
    "UNITS",
    "RESERVES",
];

fn is_power_word(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c == '+' || c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_uppercase())
        && !DIRECTIVES.contains(&word)
}

fn power_display(raw: &str) -> String {
    // Leading underscores are not shown; `+` makes the next letter upper case.
    let raw = raw.trim_start_matches('_');
    let mut out = String::new();
    let mut upper_next = true;
    for c in raw.chars() {
        if c == '+' {
            upper_next = true;
            continue;
        }
        if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

impl Parsed {
    fn read(
        &mut self,
        file: &str,
        text: &str,
        include: &mut dyn FnMut(&str) -> Option<String>,
        depth: usize,
        errors: &mut Vec<ImportError>,
    ) {
        let mut current: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| ImportError {
                file: file.to_string(),
                line: line_no,
                message,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let first = words[0];
            match first.to_ascii_uppercase().as_str() {
                "USE" | "USES" | "MAP" if first == first.to_ascii_uppercase() => {
                    if depth > 8 {
                        errors.push(err("USE nested too deeply".into()));
                        continue;
                    }
                    for name in &words[1..] {
                        let name = if first.eq_ignore_ascii_case("MAP") && !name.contains('.') {
                            format!("{name}.map")
                        } else {
                            (*name).to_string()
                        };
                        if !self.included.insert(name.to_ascii_lowercase()) {
                            self.warnings
                                .push(format!("{file}:{line_no}: `{name}` was read already"));
                            continue;
                        }
                        match include(&name) {
                            Some(t) => self.read(&name, &t, include, depth + 1, errors),
                            None => errors.push(err(format!("cannot read `{name}`"))),
                        }
                    }
                    continue;
                }
                _ => {}
            }
            if let Some((long, rest)) = line.split_once('=') {
                let mut tokens = rest.split_whitespace();
                let Some(abbr) = tokens.next() else {
                    errors.push(err("a name without abbreviation".into()));
                    continue;
                };
                let aliases = tokens.map(str::to_string).collect();
                self.names
                    .insert(abbr.to_ascii_lowercase(), (long.trim().to_string(), aliases));
                continue;
            }
            let terr = match first {
                "WATER" => Some(Terr::Water),
                "LAND" => Some(Terr::Land),
                "COAST" => Some(Terr::Coast),
                "PORT" => Some(Terr::Port),
                "SHUT" => Some(Terr::Shut),
                _ => None,
            };
            if let Some(terr) = terr {
                let Some(loc) = words.get(1) else {
                    errors.push(err("terrain without a place".into()));
                    continue;
                };
                let abuts: Vec<String> = match words.get(2) {
                    Some(w) if w.eq_ignore_ascii_case("ABUTS") => words[3..].iter().map(|s| (*s).to_string()).collect(),
                    Some(_) => {
                        errors.push(err("expected ABUTS after the place".into()));
                        continue;
                    }
                    None => Vec::new(),
                };
                // The case of the place itself: lower case marks the parent of split coasts.
                self.locations.insert((*loc).to_string(), (terr, abuts));
                continue;
            }
            match first {
                "DROP" => {
                    for w in &words[1..] {
                        let base = w.to_ascii_lowercase();
                        self.locations
                            .retain(|k, _| k.to_ascii_lowercase().split('/').next() != Some(base.as_str()));
                        self.dropped.insert(base);
                    }
                    continue;
                }
                "BEGIN" => {
                    self.begin = Some(words[1..].join(" "));
                    continue;
                }
                "VICTORY" => {
                    self.victory = words.get(1).and_then(|w| w.parse().ok());
                    continue;
                }
                "CENTERS" if current.is_some() => {
                    self.warnings.push(format!(
                        "{file}:{line_no}: centres owned at the start are not imported (the home centres are)"
                    ));
                    continue;
                }
                "UNOWNED" | "NEUTRAL" | "CENTERS" => {
                    current = None;
                    for w in &words[1..] {
                        if let Some(c) = w.strip_prefix('-') {
                            self.unowned.remove(&c.to_ascii_lowercase());
                        } else {
                            self.unowned.insert(w.to_ascii_lowercase());
                        }
                    }
                    continue;
                }
                "A" | "F" if words.len() == 2 => {
                    match current {
                        Some(p) => self.powers[p]
                            .units
                            .push(format!("{first} {}", words[1].to_ascii_lowercase())),
                        None => errors.push(err("a unit before any power".into())),
                    }
                    continue;
                }
                _ => {}
            }
            if DIRECTIVES.contains(&first) {
                self.warnings
                    .push(format!("{file}:{line_no}: `{first}` is not imported"));
                continue;
            }
            if is_power_word(first) {
                let index = match self.powers.iter().position(|p| p.name == first) {
                    Some(i) => i,
                    None => {
                        self.powers.push(PowerDef {
                            name: first.to_string(),
                            ..PowerDef::default()
                        });
                        self.powers.len() - 1
                    }
                };
                current = Some(index);
                let mut rest = &words[1..];
                if let Some(w) = rest.first().filter(|w| w.starts_with('(')) {
                    let inner = w.trim_start_matches('(').trim_end_matches(')');
                    let (own, letter) = inner.split_once(':').unwrap_or((inner, ""));
                    if !own.is_empty() {
                        self.powers[index].own = Some(own.replace('+', " "));
                    }
                    self.powers[index].letter = letter.chars().next();
                    rest = &rest[1..];
                }
                for c in rest {
                    if let Some(c) = c.strip_prefix('-') {
                        let c = c.to_ascii_lowercase();
                        self.powers[index].homes.retain(|h| *h != c);
                        self.unowned.insert(c);
                    } else {
                        self.powers[index].homes.push(c.to_ascii_lowercase());
                    }
                }
                continue;
            }
            errors.push(err(format!("unknown line `{line}`")));
        }
    }
}

fn base(loc: &str) -> String {
    loc.split('/').next().unwrap_or(loc).to_ascii_lowercase()
}

/// "Tar": a place an army may not move to directly.
fn army_forbidden(token: &str) -> bool {
    let mut chars = token.split('/').next().unwrap_or(token).chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.any(|c| c.is_ascii_lowercase())
}

/// "tus": a place a fleet may not move to.
fn fleet_forbidden(token: &str) -> bool {
    token.chars().all(|c| !c.is_ascii_uppercase())
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|s| quote(s)).collect::<Vec<_>>().join(", "))
}

/// The powers' colours of an imported map, in turn: the first eight stay apart for readers
/// with any of the common colour vision deficiencies (checked in the render crate).
const COLOURS: [&str; 10] = [
    "#d55e00", "#0a4f9e", "#56b4e9", "#3d3d3d", "#009e73", "#b56fb0", "#f0c419", "#7a4b1e", "#8e44ad", "#16a085",
];

/// Imports a `.map` file. `include` returns the text of a file named by a `USE` line.
pub fn import_dpjudge(
    file: &str,
    text: &str,
    variant_name: &str,
    include: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Imported, Vec<ImportError>> {
    let mut parsed = Parsed::default();
    parsed.included.insert(file.to_ascii_lowercase());
    let mut errors = Vec::new();
    parsed.read(file, text, include, 0, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    // A dropped place is forgotten everywhere it was named.
    let dropped = std::mem::take(&mut parsed.dropped);
    let is_dropped = |name: &str| dropped.contains(&base(name));
    for (_, list) in parsed.locations.values_mut() {
        list.retain(|t| !is_dropped(t));
    }
    parsed.unowned.retain(|c| !is_dropped(c));
    for p in &mut parsed.powers {
        p.homes.retain(|h| !is_dropped(h));
        p.units
            .retain(|u| !is_dropped(u.split_whitespace().nth(1).unwrap_or_default()));
    }
    let whole = |message: String| ImportError {
        file: file.to_string(),
        line: 0,
        message,
    };
    // Locations by lower-case key.
    let mut terrain: BTreeMap<String, Terr> = BTreeMap::new();
    let mut abuts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (loc, (terr, list)) in &parsed.locations {
        let key = loc.to_ascii_lowercase();
        terrain.insert(key.clone(), *terr);
        abuts.insert(key, list.clone());
    }
    let provinces: Vec<String> = terrain.keys().filter(|k| !k.contains('/')).cloned().collect();
    let mut coasts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for k in terrain.keys().filter(|k| k.contains('/')) {
        let b = base(k);
        if !terrain.contains_key(&b) {
            errors.push(whole(format!("coast `{k}` has no province `{b}`")));
            continue;
        }
        coasts.entry(b).or_default().push(k.clone());
    }
    let land_like = |t: Option<&Terr>| matches!(t, Some(Terr::Land | Terr::Coast | Terr::Port));
    let fleet_capable = |k: &str| -> bool {
        match terrain.get(k) {
            Some(Terr::Water | Terr::Port) => true,
            Some(Terr::Coast) => k.contains('/') || !coasts.contains_key(k),
            _ => false,
        }
    };
    // Claims from both sides: an edge exists when some side allows it and none forbids it.
    let mut army: BTreeMap<(String, String), (bool, bool)> = BTreeMap::new();
    let mut fleet: BTreeMap<(String, String), (bool, bool)> = BTreeMap::new();
    let pair = |a: &str, b: &str| {
        if a < b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        }
    };
    for (x, tokens) in &abuts {
        for t in tokens {
            let target = t.to_ascii_lowercase();
            if !terrain.contains_key(&target) {
                errors.push(whole(format!("`{x}` abuts unknown place `{t}`")));
                continue;
            }
            if !x.contains('/') && land_like(terrain.get(x)) {
                let b = base(&target);
                if land_like(terrain.get(&b)) && b != *x {
                    let e = army.entry(pair(x, &b)).or_default();
                    if army_forbidden(t) {
                        e.1 = true;
                    } else {
                        e.0 = true;
                    }
                }
            }
            if fleet_capable(x) && fleet_capable(&target) {
                let e = fleet.entry(pair(x, &target)).or_default();
                if fleet_forbidden(t) {
                    e.1 = true;
                } else {
                    e.0 = true;
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut army_n: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for ((a, b), (allowed, forbidden)) in &army {
        if *allowed && !*forbidden {
            army_n.entry(a.clone()).or_default().insert(b.clone());
            army_n.entry(b.clone()).or_default().insert(a.clone());
        }
    }
    let mut fleet_n: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for ((a, b), (allowed, forbidden)) in &fleet {
        if *allowed && !*forbidden {
            fleet_n.entry(a.clone()).or_default().insert(b.clone());
            fleet_n.entry(b.clone()).or_default().insert(a.clone());
        }
    }
    let mut warnings = std::mem::take(&mut parsed.warnings);
    // Centres and powers.
    let mut centres: BTreeSet<String> = parsed.unowned.clone();
    for p in &parsed.powers {
        centres.extend(p.homes.iter().cloned());
    }
    for c in &centres {
        if !terrain.contains_key(c) {
            errors.push(whole(format!("supply centre `{c}` is not a place")));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let start = match parsed.begin.as_deref() {
        None => "S1901M".to_string(),
        Some(b) => {
            let w: Vec<&str> = b.split_whitespace().collect();
            let season = match w.first().map(|s| s.to_ascii_uppercase()) {
                Some(s) if s.starts_with('S') => 'S',
                Some(s) if s.starts_with('F') || s.starts_with('A') => 'F',
                Some(s) if s.starts_with('W') => 'W',
                _ => return Err(vec![whole(format!("cannot read BEGIN `{b}`"))]),
            };
            let year: i32 = w
                .get(1)
                .and_then(|y| y.parse().ok())
                .ok_or_else(|| vec![whole(format!("cannot read the year of BEGIN `{b}`"))])?;
            let kind = match w.get(2).map(|s| s.to_ascii_uppercase()) {
                Some(k) if k.starts_with('R') => 'R',
                Some(k) if k.starts_with('A') => 'A',
                _ => 'M',
            };
            format!("{season}{year}{kind}")
        }
    };
    let victory = parsed.victory.unwrap_or(centres.len() as u32 / 2 + 1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Imported from the DPjudge map `{file}` by `spielleiter variant import`."
    );
    let _ = writeln!(out, "# Format: docs/VARIANT_FORMAT.md.\n");
    let _ = writeln!(out, "[variant]");
    let _ = writeln!(out, "name = {}", quote(variant_name));
    let _ = writeln!(out, "title = {}", quote(&capitalise(variant_name)));
    let _ = writeln!(out, "start = {}", quote(&start));
    let _ = writeln!(out, "victory_centres = {victory}\n");
    for (i, p) in parsed.powers.iter().enumerate() {
        let name = power_display(&p.name);
        let adjective = p.own.as_deref().map(power_display).unwrap_or_else(|| name.clone());
        let _ = writeln!(out, "[[power]]");
        let _ = writeln!(out, "id = {}", quote(&name_key(&name)));
        let _ = writeln!(out, "name = {}", quote(&name));
        let _ = writeln!(out, "adjective = {}", quote(&adjective));
        let letter = p
            .letter
            .or_else(|| adjective.chars().next())
            .unwrap_or('?')
            .to_ascii_uppercase();
        let _ = writeln!(out, "letter = {}", quote(&letter.to_string()));
        let _ = writeln!(out, "colour = {}", quote(COLOURS[i % COLOURS.len()]));
        let _ = writeln!(out, "home = {}", list(&p.homes));
        let _ = writeln!(out, "units = {}\n", list(&p.units));
    }
    // Aliases: each folded name names one province only.
    let mut taken: BTreeMap<String, String> = BTreeMap::new();
    for p in &provinces {
        taken.insert(name_key(p), p.clone());
        if let Some((long, _)) = parsed.names.get(p) {
            taken.entry(name_key(long)).or_insert_with(|| p.clone());
        }
    }
    for p in &provinces {
        let terr = terrain[p];
        let (long, raw_aliases) = parsed
            .names
            .get(p)
            .cloned()
            .unwrap_or_else(|| (p.to_ascii_uppercase(), Vec::new()));
        let mut aliases = Vec::new();
        for a in raw_aliases {
            if a.contains('/') || a.contains('(') || a.ends_with('?') || a.len() < 3 {
                continue;
            }
            let a = a.replace('+', " ");
            let key = name_key(&a);
            match taken.get(&key) {
                Some(owner) if owner != p => {
                    warnings.push(format!("alias `{a}` of `{p}` also names `{owner}`: left out"))
                }
                Some(_) => {}
                None => {
                    taken.insert(key, p.clone());
                    aliases.push(a);
                }
            }
        }
        let _ = writeln!(out, "[[province]]");
        let _ = writeln!(out, "id = {}", quote(p));
        let _ = writeln!(out, "name = {}", quote(&long));
        if !aliases.is_empty() {
            let _ = writeln!(out, "aliases = {}", list(&aliases));
        }
        let kind = match terr {
            Terr::Water => "sea",
            Terr::Land => "land",
            Terr::Coast | Terr::Port => "coast",
            Terr::Shut => "impassable",
        };
        let _ = writeln!(out, "terrain = {}", quote(kind));
        if centres.contains(p) {
            let _ = writeln!(out, "centre = true");
        }
        if terr == Terr::Port {
            let _ = writeln!(out, "convoy = true");
        }
        if matches!(terr, Terr::Land | Terr::Coast | Terr::Port) {
            let n: Vec<String> = army_n.get(p).map(|s| s.iter().cloned().collect()).unwrap_or_default();
            let _ = writeln!(out, "army = {}", list(&n));
        }
        match coasts.get(p) {
            Some(cs) => {
                for c in cs {
                    let coast = c.split('/').nth(1).unwrap_or_default();
                    if !matches!(coast, "nc" | "sc" | "ec" | "wc") {
                        return Err(vec![whole(format!(
                            "coast `{c}`: only nc, sc, ec and wc are supported"
                        ))]);
                    }
                    let n: Vec<String> = fleet_n.get(c).map(|s| s.iter().cloned().collect()).unwrap_or_default();
                    let _ = writeln!(out, "coasts.{coast} = {}", list(&n));
                }
            }
            None if matches!(terr, Terr::Water | Terr::Coast | Terr::Port) => {
                let n: Vec<String> = fleet_n.get(p).map(|s| s.iter().cloned().collect()).unwrap_or_default();
                let _ = writeln!(out, "fleet = {}", list(&n));
            }
            None => {}
        }
        let _ = writeln!(out);
    }
    Ok(Imported { toml: out, warnings })
}
