//! The politics of a rule case (Hegemony 1.1): the `politics` section that sets them and the
//! `expect politics` section that checks them, in lines of three kinds:
//!
//! - `France: stock 7` — political factors in stock;
//! - `Bavaria: France 3, Spain 2` — influence in a neutral country;
//! - `Bavaria: control France` (or `control France, Spain`) — who controls it;
//! - `control rule alternative` and `victory 2` — the game's options (1.1.11, 4.3.1).

use std::collections::{BTreeMap, BTreeSet};

use spielleiter_engine::politics::{ControlRule, GameOptions, Politics};
use spielleiter_engine::{Map, PowerId, Variant};

fn power(map: &Map, name: &str, line: usize) -> Result<PowerId, String> {
    map.power_by_name(name.trim())
        .ok_or_else(|| format!("line {line}: unknown country `{}`", name.trim()))
}

/// Reads the lines of a `politics` section into checked politics.
pub fn read(variant: &Variant, lines: &[(String, usize)]) -> Result<Politics, String> {
    let map = &variant.map;
    let mut stock = BTreeMap::new();
    let mut influence = BTreeMap::new();
    let mut control = BTreeMap::new();
    let mut options = GameOptions::default();
    for (text, line) in lines {
        if let Some(rule) = text.strip_prefix("control rule ") {
            options.control_rule =
                ControlRule::from_name(rule.trim()).ok_or_else(|| format!("line {line}: unknown rule `{rule}`"))?;
            continue;
        }
        if let Some(n) = text.strip_prefix("victory ") {
            options.victory = Some(
                n.trim()
                    .parse()
                    .map_err(|_| format!("line {line}: `{n}` is no number"))?,
            );
            continue;
        }
        let (who, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("line {line}: `{text}` has no `Country:`"))?;
        let who = power(map, who, *line)?;
        let rest = rest.trim();
        if let Some(n) = rest.strip_prefix("stock ") {
            let n = n
                .trim()
                .parse()
                .map_err(|_| format!("line {line}: `{n}` is no number"))?;
            stock.insert(who, n);
        } else if let Some(by) = rest.strip_prefix("control ") {
            let by = by
                .split(',')
                .map(|p| power(map, p, *line))
                .collect::<Result<Vec<_>, _>>()?;
            control.insert(who, by);
        } else {
            for part in rest.split(',') {
                let (name, n) = part
                    .trim()
                    .rsplit_once(' ')
                    .ok_or_else(|| format!("line {line}: write `Player N`"))?;
                let n = n.parse().map_err(|_| format!("line {line}: `{n}` is no number"))?;
                influence.insert((who, power(map, name, *line)?), n);
            }
        }
    }
    Politics::new(variant, stock, influence, control)
        .map(|p| p.with_options(options))
        .map_err(|e| format!("politics: {e}"))
}

/// The politics as lines of the kinds above, one per stock, influence and control (stocks of
/// 0 left out).
pub fn lines(variant: &Variant, politics: &Politics) -> BTreeSet<String> {
    let map = &variant.map;
    let name = |p: PowerId| map.power(p).name.clone();
    let mut out = BTreeSet::new();
    for (&p, &n) in politics.stocks().iter().filter(|&(_, &n)| n > 0) {
        out.insert(format!("{}: stock {n}", name(p)));
    }
    for (&(c, p), &n) in politics.influences() {
        out.insert(format!("{}: {} {n}", name(c), name(p)));
    }
    for (&c, by) in politics.controls() {
        let by: Vec<String> = by.iter().map(|&p| name(p)).collect();
        out.insert(format!("{}: control {}", name(c), by.join(", ")));
    }
    let options = politics.options();
    if options.control_rule != ControlRule::Standard {
        out.insert(format!("control rule {}", options.control_rule.as_str()));
    }
    if let Some(v) = options.victory {
        out.insert(format!("victory {v}"));
    }
    out
}

/// The expected lines, each influence line split into one line per player.
pub fn expected(lines: &[(String, usize)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (text, _) in lines {
        match text.split_once(':') {
            Some((who, rest)) if !rest.trim().starts_with("stock ") && !rest.trim().starts_with("control ") => {
                for part in rest.split(',') {
                    out.insert(format!("{}: {}", who.trim(), part.trim()));
                }
            }
            _ => {
                out.insert(text.trim().to_string());
            }
        }
    }
    out
}
