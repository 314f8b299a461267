//! Hegemony through the binary: `spielleiter play --variant hegemony-1701` with the politics
//! (political factors, a declaration of friendship, orders for a controlled neutral) in English
//! and German, and whole games of 1701 played through `spielleiter adjudicate` calls only, from
//! the start winter to a victory under two of the five conditions (4.3), the state checked at
//! each year.

mod support;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use spielleiter_engine::{Map, ProvinceId, UnitType, Variant};
use support::{distances, run};

/// The text printed between `from` and the next `until` (or the end).
fn section<'a>(text: &'a str, from: &str, until: &str) -> &'a str {
    let start = text.find(from).unwrap_or_else(|| panic!("`{from}` in\n{text}"));
    let rest = &text[start..];
    &rest[..rest[from.len()..].find(until).map_or(rest.len(), |i| i + from.len())]
}

#[test]
fn play_lets_players_allocate_declare_and_order_a_neutral_in_english() {
    // Winter 1700: Austria, England, France, Spain, Sweden, Turkey in turn; spring 1701: Austria.
    let script =
        "PF 3 Bavaria\nBuild A Vie\n\n\nPF 2 Savoy\nFriendly to England\n\n\n\n\nBavaria: A Bav - Boh\nA Bud - Gal\n\n";
    let out = run(&["play", "--variant", "hegemony-1701", "--phases", "2"], script);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Austria: Political factors in stock: 9."), "{text}");
    let winter = section(&text, "The steps of the winter of 1700.", "--- for");
    assert!(winter.contains("France: friendly to England."), "{winter}");
    assert!(
        !winter.contains("PF") && !winter.contains("Savoy"),
        "allocations are secret: {winter}"
    );
    let austria = section(&text, "--- for Austria ---", "\n\n");
    assert!(
        austria.contains("PF 3 Bavaria  (*political factors allocated*)"),
        "{austria}"
    );
    assert!(text.contains("Austria: Influence: Bavaria 3."), "{text}");
    assert!(text.contains("Austria: Controls Bavaria alone"), "{text}");
    let spring = section(&text, "Movement results for Spring of 1701.", "The next phase");
    assert!(spring.contains("Bavaria: Army Bavaria -> Bohemia."), "{spring}");
    assert!(spring.contains("Austria: Army Budapest -> Galicia."), "{spring}");
}

#[test]
fn play_takes_the_politics_in_german() {
    let script = "3 PF an Bayern\nAufbau A Wien\n\n\nFreundlich gegenüber England\n\n\n\n\nBayern: A Bay - Böhmen\n\n";
    let out = run(
        &["play", "--variant", "hegemony-1701", "--lang", "de", "--phases", "2"],
        script,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Österreich: Politische Faktoren im Vorrat: 9."), "{text}");
    assert!(text.contains("Frankreich: freundlich gegenüber England."), "{text}");
    assert!(text.contains("3 PF an Bayern  (*zugeteilt*)"), "{text}");
    assert!(text.contains("Österreich: Kontrolliert Bayern allein"), "{text}");
    assert!(text.contains("Bayern: Armee Bayern -> Böhmen."), "{text}");
}

fn adjudicate(state: &Value, orders: &BTreeMap<String, Vec<String>>) -> Value {
    let mut input = state.clone();
    input["orders"] = json!(orders);
    let out = run(&["adjudicate"], &input.to_string());
    assert!(
        out.status.success(),
        "adjudicate: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("output is JSON")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// The neutral countries France gives its political factors to, in turn, as the stock allows:
/// each gets its threshold (France alone allocates, so it controls each alone).
const FRENCH_CLIENTS: [(&str, u64); 6] = [
    ("Bavaria", 1),
    ("Savoy", 2),
    ("Portugal", 3),
    ("Prussia", 4),
    ("Venice", 6),
    ("Russia", 6),
];

/// France's winter orders: builds in its free home centres (fleets at the coast until it has
/// three), then political factors for the next clients that the stock pays for.
fn french_winter(state: &Value) -> Vec<String> {
    let count = state["builds"]["FRANCE"]["count"].as_i64().unwrap_or(0);
    let mut fleets = strings(&state["units"]["FRANCE"])
        .iter()
        .filter(|u| u.starts_with('F'))
        .count();
    let mut orders: Vec<String> = strings(&state["builds"]["FRANCE"]["homes"])
        .into_iter()
        .take(count.max(0) as usize)
        .map(|h| {
            // Fleets at the coast until France has three: England is an island.
            let kind = if fleets < 3 && (h == "BRE" || h == "MAR") {
                "F"
            } else {
                "A"
            };
            fleets += usize::from(kind == "F");
            format!("Build {kind} {h}")
        })
        .collect();
    let mut stock = state["political_factors"]["FRANCE"].as_u64().unwrap_or(0);
    for (client, threshold) in FRENCH_CLIENTS {
        let key = client.to_uppercase();
        let have = state["influence"][&key]["FRANCE"].as_u64().unwrap_or(0);
        if have >= threshold {
            continue;
        }
        let need = threshold - have;
        if need <= stock {
            orders.push(format!("PF {need} {client}"));
            stock -= need;
        }
    }
    orders
}

/// The board as the bot sees it: who stands where, who owns which centre.
struct Board<'a> {
    map: &'a Map,
    occupant: BTreeMap<ProvinceId, (String, UnitType, String)>,
    owner: BTreeMap<ProvinceId, String>,
    players: BTreeSet<String>,
}

impl<'a> Board<'a> {
    fn new(v: &'a Variant, state: &Value) -> Board<'a> {
        let map = &v.map;
        let mut occupant = BTreeMap::new();
        for (power, units) in state["units"].as_object().expect("units") {
            for u in strings(units) {
                let (kind, place) = u.trim_start_matches('*').split_once(' ').expect("unit");
                let loc = map.location_by_abbreviation(place).expect("location");
                let kind = if kind == "F" { UnitType::Fleet } else { UnitType::Army };
                occupant.insert(map.province_of(loc), (power.clone(), kind, place.to_string()));
            }
        }
        let mut owner = BTreeMap::new();
        for (power, centres) in state["centers"].as_object().expect("centers") {
            for c in strings(centres) {
                owner.insert(
                    map.province_by_abbreviation(&c.to_lowercase()).expect("centre"),
                    power.clone(),
                );
            }
        }
        let players = map.powers().iter().map(|p| p.key.to_uppercase()).collect();
        Board {
            map,
            occupant,
            owner,
            players,
        }
    }

    fn reach(&self, kind: UnitType, place: &str, target: ProvinceId) -> bool {
        let loc = self.map.location_by_abbreviation(place).expect("location");
        self.map.can_reach_province(kind, loc, target) && !target_coast_needed(self.map, kind, target)
    }

    /// A province France may step into without provoking a neutral (1.1.10): empty, not shut
    /// (Switzerland), and not a centre of a neutral country that players can activate.
    fn open(&self, q: ProvinceId) -> bool {
        !self.map.province(q).shut
            && !self.occupant.contains_key(&q)
            && self.owner.get(&q).is_none_or(|o| self.takeable(o))
    }

    /// Whether France may take a centre this country owns without provoking anyone: a player's,
    /// or a neutral's that no one can activate (Westphalia and Libya in 1701).
    fn takeable(&self, owner: &str) -> bool {
        self.players.contains(owner)
            || self
                .map
                .country_by_key(owner)
                .is_some_and(|c| self.map.power(c).threshold.is_none())
    }
}

/// France's moves: one centre of another player at a time is the focus; two French units that
/// reach it attack it (one supporting), the others close in on the provinces from which it can
/// be reached. The neutrals are never attacked (that would cost France its influence, 1.1.10).
fn french_moves(v: &Variant, state: &Value) -> Vec<String> {
    let b = Board::new(v, state);
    let map = b.map;
    let mine: Vec<(ProvinceId, UnitType, String)> = b
        .occupant
        .iter()
        .filter(|(_, (p, _, _))| p == "FRANCE")
        .map(|(prov, (_, k, place))| (*prov, *k, place.clone()))
        .collect();
    let targets: Vec<ProvinceId> = b
        .owner
        .iter()
        .filter(|(c, o)| *o != "FRANCE" && b.takeable(o) && map.province(**c).centre)
        .filter(|(c, _)| b.occupant.get(c).is_none_or(|(p, _, _)| p != "FRANCE"))
        .map(|(c, _)| *c)
        .collect();
    // Where French units may pass: open provinces and their own.
    let passable = |q: ProvinceId| b.open(q) || b.occupant.get(&q).is_some_and(|(p, _, _)| p == "FRANCE");
    let cost = |t: ProvinceId| {
        let mut d: Vec<u32> = mine
            .iter()
            .map(|(p, k, _)| distances(map, *k, &staging(map, *k, t), &passable)[p.index()])
            .collect();
        d.sort();
        d.iter().take(2).map(|&x| x.min(99)).sum::<u32>()
    };
    let mut by_cost: Vec<ProvinceId> = targets.clone();
    by_cost.sort_by_key(|&t| cost(t));
    // The first focus that gets France anywhere: an attack, or a unit closing in.
    for focus in by_cost {
        let orders = orders_for_focus(&b, &mine, focus, &passable);
        if !orders.is_empty() {
            return orders;
        }
    }
    Vec::new()
}

/// France's orders with `focus` as the centre to take next (see [`french_moves`]).
fn orders_for_focus(
    b: &Board<'_>,
    mine: &[(ProvinceId, UnitType, String)],
    focus: ProvinceId,
    passable: &dyn Fn(ProvinceId) -> bool,
) -> Vec<String> {
    let map = b.map;
    let letter = |k: UnitType| if k == UnitType::Army { "A" } else { "F" };
    let near: Vec<&(ProvinceId, UnitType, String)> =
        mine.iter().filter(|(_, k, place)| b.reach(*k, place, focus)).collect();
    let mut orders = Vec::new();
    let mut busy: BTreeSet<ProvinceId> = BTreeSet::new();
    let held = b.occupant.contains_key(&focus);
    if near.len() >= 2 || (!held && !near.is_empty()) {
        let name = map.province(focus).abbreviation.to_uppercase();
        let attacker = near[0];
        orders.push(format!("{} {} - {name}", letter(attacker.1), attacker.2));
        busy.insert(attacker.0);
        if let Some(s) = near.get(1) {
            orders.push(format!(
                "{} {} S {} {} - {name}",
                letter(s.1),
                s.2,
                letter(attacker.1),
                attacker.2
            ));
            busy.insert(s.0);
        }
    }
    let mut claimed: BTreeSet<ProvinceId> = BTreeSet::new();
    // A unit on a centre France does not own yet stays to take it at the end of the fall.
    let taking = |p: &ProvinceId| map.province(*p).centre && b.owner.get(p).is_none_or(|o| o != "FRANCE");
    for (prov, kind, place) in mine.iter().filter(|(p, _, _)| !busy.contains(p) && !taking(p)) {
        let d = distances(map, *kind, &staging(map, *kind, focus), passable);
        let loc = map.location_by_abbreviation(place).expect("location");
        let step = map
            .neighbours(*kind, loc)
            .iter()
            .copied()
            .filter(|&n| {
                let q = map.province_of(n);
                b.open(q) && !claimed.contains(&q) && map.location(n).coast.is_none() && d[q.index()] < d[prov.index()]
            })
            .min_by_key(|&n| d[map.province_of(n).index()]);
        if let Some(n) = step {
            claimed.insert(map.province_of(n));
            orders.push(format!(
                "{} {place} - {}",
                letter(*kind),
                map.location_abbreviation(n).to_uppercase()
            ));
        }
    }
    orders
}

/// The provinces from which a unit of this kind could move into `target` (naming no coast).
fn staging(map: &Map, kind: UnitType, target: ProvinceId) -> BTreeSet<ProvinceId> {
    (0..map.provinces().len())
        .map(|i| ProvinceId(i as u16))
        .filter(|&q| {
            let p = map.province(q);
            q != target
                && map.location(p.main).coast.is_none()
                && map.location(p.main).allows(kind)
                && map.can_reach_province(kind, p.main, target)
                && !target_coast_needed(map, kind, target)
        })
        .collect()
}

/// Whether a fleet would have to name a coast to move into the province (the bot avoids it).
fn target_coast_needed(map: &Map, kind: UnitType, target: ProvinceId) -> bool {
    kind == UnitType::Fleet && map.province(target).has_split_coast()
}

/// What the checks of each year compare: France's stock, influence and control.
fn french_politics(state: &Value) -> (u64, BTreeMap<String, u64>, BTreeSet<String>) {
    let stock = state["political_factors"]["FRANCE"].as_u64().unwrap_or(0);
    let mut influence = BTreeMap::new();
    for (country, by) in state["influence"].as_object().into_iter().flatten() {
        if let Some(n) = by["FRANCE"].as_u64() {
            influence.insert(country.clone(), n);
        }
    }
    let control = state["control"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, by)| strings(by) == ["FRANCE"])
        .map(|(c, _)| c.clone())
        .collect();
    (stock, influence, control)
}

/// Plays 1701 with the given victory condition until the game ends; France plays, the others
/// hold. Checks at each winter that France's political factors add up (stock before + income =
/// stock after + allocated), that France controls alone exactly the neutrals whose threshold its
/// influence reached, and that no order was refused. Returns the last output and the phases.
fn play_1701(victory: u8) -> (Value, Vec<String>) {
    let v = spielleiter_engine::variant::builtin("hegemony-1701")
        .expect("built in")
        .expect("loads");
    let out = run(&["start", "--variant", "hegemony-1701"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut state: Value = serde_json::from_slice(&out.stdout).expect("opening state");
    assert_eq!(state["phase"], "W1700A");
    state["options"]["victory"] = json!(victory);
    let mut phases = Vec::new();
    for _ in 0..120 {
        let phase = state["phase"].as_str().expect("phase").to_string();
        let french = if phase.ends_with('A') {
            french_winter(&state)
        } else if phase.ends_with('M') {
            french_moves(&v, &state)
        } else {
            Vec::new()
        };
        let orders = BTreeMap::from([("FRANCE".to_string(), french.clone())]);
        let out = adjudicate(&state, &orders);
        assert!(
            out.get("rejected_orders").is_none(),
            "{phase}: {}",
            out["rejected_orders"]
        );
        phases.push(phase.clone());
        if phase.ends_with('A') {
            let (before, influence_before, control_before) = french_politics(&state);
            let (after, influence, control) = french_politics(&out);
            let allocated: u64 = influence.values().sum::<u64>() - influence_before.values().sum::<u64>();
            // Income (1.1.9): France's centre values and the centres of the neutrals it
            // controlled alone before this winter; none in the first winter (D-6).
            let clients: u64 = control_before
                .iter()
                .map(|c| strings(&state["centers"][c]).len() as u64)
                .sum();
            let own = out["centre_values"]["FRANCE"].as_u64().unwrap_or(0);
            let income = if phase == "W1700A" { 0 } else { own + clients };
            assert_eq!(
                after + allocated,
                before + income,
                "{phase}: stock {before} + income {income}"
            );
            for (client, threshold) in FRENCH_CLIENTS {
                let key = client.to_uppercase();
                let reached = influence.get(&key).is_some_and(|&n| n >= threshold);
                assert_eq!(control.contains(&key), reached, "{phase}: control of {key}");
            }
        }
        if out["phase"] == "COMPLETED" {
            return (out, phases);
        }
        state = out;
    }
    panic!("no victory after 120 phases: {:?}", phases.last());
}

#[test]
fn a_1701_game_ends_when_france_has_twelve_centres_under_condition_four() {
    let (end, phases) = play_1701(4);
    assert_eq!(
        end["result"],
        json!({"kind": "victory", "powers": ["FRANCE"]}),
        "{phases:?}"
    );
    let centres = strings(&end["centers"]["FRANCE"]).len();
    assert!((12..17).contains(&centres), "condition 4, not 1: {centres}");
    assert!(phases.iter().any(|p| p.starts_with('W') && p != "W1700A"), "{phases:?}");
}

#[test]
fn a_1701_game_ends_when_france_controls_sixteen_centres_alone_under_condition_two() {
    let (end, phases) = play_1701(2);
    assert_eq!(
        end["result"],
        json!({"kind": "victory", "powers": ["FRANCE"]}),
        "{phases:?}"
    );
    let own = strings(&end["centers"]["FRANCE"]).len();
    assert!((8..17).contains(&own), "condition 2, not 1: {own} own centres");
    let controlled: usize = end["control"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, by)| strings(by) == ["FRANCE"])
        .map(|(c, _)| strings(&end["centers"][c]).len())
        .sum();
    assert!(own + controlled >= 16, "{own} + {controlled}");
}
