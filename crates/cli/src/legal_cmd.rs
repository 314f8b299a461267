//! `spielleiter legal`: every legal order of a game state per power and location, as the Python
//! `diplomacy` package's `get_all_possible_orders` lists them (engine `legal`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use serde_json::{Map, Value, json};
use spielleiter_engine::interchange::position_from_state;
use spielleiter_engine::legal::power_orders;
use spielleiter_engine::{Position, PowerId, Variant};

use crate::state_arg;

/// Options of `spielleiter legal`.
#[derive(Args)]
pub struct LegalArgs {
    /// The state (JSON interchange, as printed by `start` and `adjudicate`); `-` or nothing reads
    /// standard input.
    file: Option<PathBuf>,
    /// Variant: a built-in name or a variant file (default: the state's `variant`, or standard).
    #[arg(long)]
    variant: Option<String>,
    /// Only this power's orders (name or key; in Hegemony with those of the neutral countries
    /// it controls).
    #[arg(long)]
    power: Option<String>,
    /// One JSON object: `{"FRANCE": {"BRE": ["F BRE H", …], …}, …}`, each order a line the
    /// power may send.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &LegalArgs) -> Result<ExitCode> {
    let input = state_arg::read(args.file.as_deref())?;
    let variant = state_arg::variant(args.variant.as_deref(), &input)?;
    let position = position_from_state(&variant, &input.state)?;
    let powers: Vec<PowerId> = match &args.power {
        Some(name) => match variant.map.power_by_name(name) {
            Some(p) if variant.map.is_player(p) => vec![p],
            Some(_) => bail!("`{name}` is a country no player plays: its controller's orders list its units"),
            None => bail!("unknown power `{name}`"),
        },
        None => variant.map.powers().iter().map(|p| p.id).collect(),
    };
    let listed = listing(&variant, &position, &powers);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", Value::Object(listed))?;
    } else {
        for (power, locations) in &listed {
            writeln!(out, "{power}")?;
            for (location, orders) in locations.as_object().into_iter().flatten() {
                let lines: Vec<&str> = orders
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                writeln!(out, "  {location}: {}", lines.join(" | "))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Each power's orders per location, as lines the power may send.
fn listing(variant: &Variant, position: &Position, powers: &[PowerId]) -> Map<String, Value> {
    let map = &variant.map;
    let mut listed = Map::new();
    for &power in powers {
        let mut locations = Map::new();
        for at in power_orders(variant, position, power) {
            let lines: Vec<String> = at.orders.iter().map(|o| at.line(map, power, o)).collect();
            let location = map.location_abbreviation(at.location).to_ascii_uppercase();
            let entry = locations.entry(location).or_insert_with(|| json!([]));
            if let Value::Array(all) = entry {
                all.extend(lines.into_iter().map(Value::String));
            }
        }
        if !locations.is_empty() {
            listed.insert(map.power(power).key.to_ascii_uppercase(), Value::Object(locations));
        }
    }
    listed
}
