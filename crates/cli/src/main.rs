//! `spielleiter`: the Diplomacy judge on the command line.

mod adjudicate_cmd;
mod bench_cmd;
mod legal_cmd;
mod loadtest_cmd;
mod orders_cmd;
mod play_cmd;
mod render_cmd;
mod serve_cmd;
mod state_arg;
mod variant_arg;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Every allocation of the program (the engine's phases, the service's requests) goes through
/// mimalloc: faster than the C library's malloc for the many small ones a phase makes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Spielleiter, a Diplomacy judge.
#[derive(Parser)]
#[command(name = "spielleiter", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read orders from standard input (one per line, optional "Power:" prefix) and print how
    /// each was read: the canonical order, or the error with its reason.
    Orders(orders_cmd::OrdersArgs),
    /// Adjudicate one phase: a game state with orders (JSON) on standard input, results and the
    /// next state on standard output.
    Adjudicate(adjudicate_cmd::AdjudicateArgs),
    /// Run the judge service: web pages, a JSON HTTP API and play by e-mail (SQLite by default).
    Serve(serve_cmd::ServeArgs),
    /// Mail: read one mail piped in by a mail server.
    Mail {
        #[command(subcommand)]
        command: serve_cmd::MailCommand,
    },
    /// Play a game in the terminal, every power at one keyboard (hot seat).
    Play(play_cmd::PlayArgs),
    /// Measure adjudication speed on a recorded corpus of phases.
    Bench(bench_cmd::BenchArgs),
    /// Measure the service: order submissions per second and their latency with many running
    /// games (SQLite in a temporary folder).
    Loadtest(loadtest_cmd::LoadtestArgs),
    /// List every legal order of a game state (JSON) per power and location.
    Legal(legal_cmd::LegalArgs),
    /// Draw the map of a game state (JSON) as SVG or PNG, with its orders and their outcomes.
    Render(render_cmd::RenderArgs),
    /// Print the opening state of a variant (JSON interchange), the first input of `adjudicate`.
    Start {
        /// Variant: a built-in name or a variant file.
        #[arg(long, default_value = "standard")]
        variant: String,
    },
    /// Work with variant files.
    Variant {
        #[command(subcommand)]
        command: VariantCommand,
    },
    /// List the built-in variants.
    Variants,
    /// Check a variant data file and report every problem with file and line.
    CheckVariant {
        /// The variant file (TOML).
        file: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
enum VariantCommand {
    /// Convert a map in the DPjudge `.map` format into our variant file (printed, or written
    /// with --output). `USE` lines are read from the map's folder.
    Import {
        /// The `.map` file.
        file: std::path::PathBuf,
        /// The variant's name (default: the file name).
        #[arg(long)]
        name: Option<String>,
        /// Write the variant file here instead of printing it.
        #[arg(long)]
        output: Option<std::path::PathBuf>,
    },
    /// Check a variant file (same as `check-variant`).
    Check {
        /// The variant file (TOML).
        file: std::path::PathBuf,
    },
    /// List the built-in variants.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Orders(args) => orders_cmd::run(&args),
        Command::Adjudicate(args) => adjudicate_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Bench(args) => bench_cmd::run(&args),
        Command::Loadtest(args) => loadtest_cmd::run(&args),
        Command::Render(args) => render_cmd::run(&args),
        Command::Legal(args) => legal_cmd::run(&args),
        Command::Start { variant } => start(&variant),
        Command::Serve(args) => serve_cmd::serve(&args),
        Command::Mail { command } => serve_cmd::mail(&command),
        Command::Variant { command } => match command {
            VariantCommand::Import { file, name, output } => variant_arg::import(&file, name, output),
            VariantCommand::Check { file } => variant_arg::check_file(&file),
            VariantCommand::List => variant_arg::list(),
        },
        Command::Variants => variant_arg::list(),
        Command::CheckVariant { file } => variant_arg::check_file(&file),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`spielleiter start | head`): nothing to say.
        Err(e) if broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether an error is a write to a pipe whose reader has gone.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

fn start(name: &str) -> anyhow::Result<ExitCode> {
    let variant = variant_arg::load_playable(name)?;
    let position = spielleiter_engine::Position::initial(&variant);
    let mut state = serde_json::to_value(spielleiter_engine::interchange::state_from_position(
        &variant, &position,
    ))?;
    if let Some(object) = state.as_object_mut() {
        object.insert("variant".to_string(), serde_json::Value::String(variant.name.clone()));
    }
    use std::io::Write as _;
    writeln!(std::io::stdout().lock(), "{}", serde_json::to_string_pretty(&state)?)?;
    Ok(ExitCode::SUCCESS)
}
