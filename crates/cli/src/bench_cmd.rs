//! `spielleiter bench --corpus FILE.jsonl`: adjudication speed on recorded games, and agreement
//! with the results another engine recorded.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Deserialize;
use spielleiter_engine::adjudicate::{Adjudicator, MovementResult};
use spielleiter_engine::game::{PhaseOrders, adjudicate_phase, unit_orders};
use spielleiter_engine::interchange::{GameState, position_from_state, state_from_position};
use spielleiter_engine::{Order, PhaseKind, Position, Unit, Variant};

/// Options of `spielleiter bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// A recorded corpus: one JSON object per line with `before`, `accepted_orders` (or `orders`)
    /// and `after`.
    #[arg(long)]
    corpus: PathBuf,
    /// Variant of the corpus.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Repeat the timed adjudication this many times.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// List the phases where the result differs from the recorded `after` state.
    #[arg(long)]
    verbose: bool,
}

#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    game_id: Option<String>,
    #[serde(default)]
    phase: Option<String>,
    before: GameState,
    #[serde(default)]
    accepted_orders: Option<std::collections::BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    orders: Option<std::collections::BTreeMap<String, Vec<String>>>,
    after: GameState,
}

struct Prepared {
    label: String,
    position: Position,
    orders: PhaseOrders,
    after: GameState,
    movement: Option<(Vec<Unit>, Vec<Order>)>,
}

fn normalized(state: &GameState) -> (BTreeSet<String>, BTreeSet<String>) {
    let units = state
        .units
        .iter()
        .flat_map(|(p, us)| {
            us.iter()
                .map(move |u| format!("{} {}", p.to_uppercase(), u.to_uppercase()))
        })
        .collect();
    let centres = state
        .centers
        .iter()
        .flat_map(|(p, cs)| {
            cs.iter()
                .map(move |c| format!("{} {}", p.to_uppercase(), c.to_uppercase()))
        })
        .collect();
    (units, centres)
}

fn prepare(variant: &Variant, mut line: Line, n: usize) -> Result<Prepared> {
    if line.before.phase.is_empty() {
        line.before.phase = line.phase.clone().unwrap_or_default();
    }
    let position = position_from_state(variant, &line.before).with_context(|| format!("line {n}: before state"))?;
    let mut orders = PhaseOrders::default();
    let given = line.accepted_orders.or(line.orders).unwrap_or_default();
    for (key, lines) in &given {
        let power = variant
            .map
            .country_by_key(key)
            .with_context(|| format!("line {n}: unknown power {key}"))?;
        orders.read(variant, &position, Some(power), lines.iter().map(String::as_str));
    }
    let movement = (position.phase.kind == PhaseKind::Movement).then(|| {
        let carried = orders.carried_out(variant, PhaseKind::Movement);
        let (unit_orders, _) = unit_orders(variant, &position.units, &orders.lines, &carried);
        (position.units.clone(), unit_orders)
    });
    Ok(Prepared {
        label: format!("{} {}", line.game_id.unwrap_or_default(), position.phase),
        position,
        orders,
        after: line.after,
        movement,
    })
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let variant = crate::variant_arg::load(&args.variant)?;
    let text = std::fs::read_to_string(&args.corpus).with_context(|| format!("reading {}", args.corpus.display()))?;
    let mut phases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(raw).with_context(|| format!("line {}: not a corpus record", i + 1))?;
        phases.push(prepare(&variant, line, i + 1)?);
    }
    if phases.is_empty() {
        bail!("{} holds no phases", args.corpus.display());
    }
    // Agreement with the recorded results.
    let mut agree = 0usize;
    let mut disagreements = Vec::new();
    for p in &phases {
        let report = adjudicate_phase(&variant, &p.position, p.orders.clone());
        let ours = normalized(&state_from_position(&variant, &report.next));
        if ours == normalized(&p.after) {
            agree += 1;
        } else {
            disagreements.push(p.label.clone());
        }
    }
    // Whole phases (reading excluded): adjudication and the next position.
    let rounds = args.rounds.max(1);
    let start = Instant::now();
    for _ in 0..rounds {
        for p in &phases {
            std::hint::black_box(adjudicate_phase(&variant, &p.position, p.orders.clone()));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    // Movement resolution alone, with the adjudicator's reusable buffers.
    let movement: Vec<&(Vec<Unit>, Vec<Order>)> = phases.iter().filter_map(|p| p.movement.as_ref()).collect();
    let mut adjudicator = Adjudicator::new(&variant.map);
    let mut result = MovementResult::default();
    let movement_rounds = rounds * 50;
    let start = Instant::now();
    for _ in 0..movement_rounds {
        for (units, orders) in &movement {
            adjudicator.adjudicate(units, orders, &mut result);
            std::hint::black_box(&result);
        }
    }
    let movement_seconds = start.elapsed().as_secs_f64();
    let total = phases.len() * rounds;
    let movement_total = movement.len() * movement_rounds;
    let per_second = total as f64 / seconds;
    let movement_per_second = if movement_seconds > 0.0 {
        movement_total as f64 / movement_seconds
    } else {
        0.0
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "phases": total,
                "seconds": seconds,
                "phases_per_second": per_second,
                "movement_phases": movement_total,
                "movement_seconds": movement_seconds,
                "movement_phases_per_second": movement_per_second,
                "agree_with_after": agree,
                "corpus_phases": phases.len(),
            })
        );
    } else {
        println!("{} phases in the corpus ({} movement)", phases.len(), movement.len());
        println!("whole phases:     {total} in {seconds:.3} s = {per_second:.0} phases/s");
        println!("movement only:    {movement_total} in {movement_seconds:.3} s = {movement_per_second:.0} phases/s");
        println!("agree with the recorded result: {agree} of {}", phases.len());
    }
    if args.verbose {
        for d in &disagreements {
            eprintln!("differs: {d}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
