//! `spielleiter bench --corpus FILE.jsonl`: adjudication speed on recorded games, and agreement
//! with the results another engine recorded.
//!
//! Three figures, movement phases per second each, time exactly what their names say:
//! `resolver_per_second` the resolver alone (orders read and assigned to units beforehand),
//! `phase_per_second` the whole phase from read orders (assignment, adjudication, next position:
//! what other engines' `process` times), `phase_from_text_per_second` the whole phase from the
//! order text (reading, validation, assignment, adjudication, next position: what a caller of
//! `adjudicate` pays). Inputs are made and results dropped outside the timer.

mod timing;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Deserialize;
use spielleiter_engine::game::{PhaseOrders, adjudicate_phase, unit_orders};
use spielleiter_engine::interchange::{GameState, position_from_state, state_from_position};
use spielleiter_engine::{Order, PhaseKind, Position, PowerId, Unit, Variant};

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
    /// Repeat each timed run this many times (the resolver alone 50 times as often).
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
    accepted_orders: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    orders: Option<BTreeMap<String, Vec<String>>>,
    after: GameState,
}

/// One recorded phase, ready for each timed run.
struct Prepared {
    label: String,
    position: Position,
    /// The order lines as written, per power.
    text: Vec<(PowerId, Vec<String>)>,
    /// The same lines read against the position.
    orders: PhaseOrders,
    after: GameState,
    /// For a movement phase: the units and the order each carries out.
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

/// Reads every power's lines of a phase, as a caller of `adjudicate` hands them over.
fn read_orders(variant: &Variant, position: &Position, text: &[(PowerId, Vec<String>)]) -> PhaseOrders {
    let mut orders = PhaseOrders::default();
    let senders = text
        .iter()
        .map(|(power, lines)| (Some(*power), lines.iter().map(String::as_str)));
    orders.read_all(variant, position, senders);
    orders
}

fn prepare(variant: &Variant, mut line: Line, n: usize) -> Result<Prepared> {
    if line.before.phase.is_empty() {
        line.before.phase = line.phase.clone().unwrap_or_default();
    }
    let position = position_from_state(variant, &line.before).with_context(|| format!("line {n}: before state"))?;
    let given = line.accepted_orders.or(line.orders).unwrap_or_default();
    let mut text = Vec::new();
    for (key, lines) in given {
        let power = variant
            .map
            .country_by_key(&key)
            .with_context(|| format!("line {n}: unknown power {key}"))?;
        text.push((power, lines));
    }
    let orders = read_orders(variant, &position, &text);
    let movement = (position.phase.kind == PhaseKind::Movement).then(|| {
        let carried = orders.carried_out(variant, PhaseKind::Movement);
        let (unit_orders, _) = unit_orders(variant, &position.units, &orders.lines, &carried);
        (position.units.clone(), unit_orders)
    });
    Ok(Prepared {
        label: format!("{} {}", line.game_id.unwrap_or_default(), position.phase),
        position,
        text,
        orders,
        after: line.after,
        movement,
    })
}

fn load(variant: &Variant, args: &BenchArgs) -> Result<Vec<Prepared>> {
    let text = std::fs::read_to_string(&args.corpus).with_context(|| format!("reading {}", args.corpus.display()))?;
    let mut phases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(raw).with_context(|| format!("line {}: not a corpus record", i + 1))?;
        phases.push(prepare(variant, line, i + 1)?);
    }
    if phases.is_empty() {
        bail!("{} holds no phases", args.corpus.display());
    }
    Ok(phases)
}

/// The phases whose result agrees with the recorded one, and the labels of the others.
fn agreement(variant: &Variant, phases: &[Prepared]) -> (usize, Vec<String>) {
    let mut agree = 0usize;
    let mut disagreements = Vec::new();
    for p in phases {
        let report = adjudicate_phase(variant, &p.position, p.orders.clone());
        let ours = normalized(&state_from_position(variant, &report.next));
        if ours == normalized(&p.after) {
            agree += 1;
        } else {
            disagreements.push(p.label.clone());
        }
    }
    (agree, disagreements)
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let variant = crate::variant_arg::load(&args.variant)?;
    let phases = load(&variant, args)?;
    let (agree, disagreements) = agreement(&variant, &phases);
    let figures = timing::measure(&variant, &phases, args.rounds.max(1));
    if args.json {
        let mut json = figures.json();
        json["agree_with_after"] = agree.into();
        json["corpus_phases"] = phases.len().into();
        println!("{json}");
    } else {
        let movement = phases.iter().filter(|p| p.movement.is_some()).count();
        println!("{} phases in the corpus ({movement} movement)", phases.len());
        print!("{}", figures.text());
        println!("agree with the recorded result: {agree} of {}", phases.len());
    }
    if args.verbose {
        for d in &disagreements {
            eprintln!("differs: {d}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
