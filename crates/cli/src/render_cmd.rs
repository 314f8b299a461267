//! `spielleiter render`: the map picture of a game state (JSON), as SVG or PNG.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::interchange::position_from_state;
use spielleiter_engine::report::Lang;
use spielleiter_render::{MapGeometry, Scene, png, svg};

use crate::state_arg;

/// Options of `spielleiter render`.
#[derive(Args)]
pub struct RenderArgs {
    /// The state (JSON interchange, as printed by `start` and `adjudicate`); `-` or nothing reads
    /// standard input. With `orders` in it, they are drawn with their outcomes.
    file: Option<PathBuf>,
    /// Variant: a built-in name or a variant file (default: the state's `variant`, or standard).
    #[arg(long)]
    variant: Option<String>,
    /// Map shapes file for a variant without built-in shapes (see docs/MAPS.md).
    #[arg(long)]
    shapes: Option<PathBuf>,
    /// Draw a schematic layout generated from the adjacencies, even for a variant with map
    /// shapes (a variant without them, such as an imported DPjudge map, always gets one).
    #[arg(long, conflicts_with = "shapes")]
    generated_layout: bool,
    /// Draw the position after the orders were adjudicated (dislodged units and their retreats)
    /// instead of the orders on the position before.
    #[arg(long)]
    after: bool,
    /// Output format (default: from the --output file name, else SVG).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Scale of a PNG picture.
    #[arg(long, default_value_t = 1.0)]
    zoom: f32,
    /// Language of the title and legend.
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Write the picture here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// Picture formats.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Svg,
    Png,
}

/// Languages of the picture's text.
#[derive(Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    De,
}

/// Runs the command.
pub fn run(args: &RenderArgs) -> Result<ExitCode> {
    let input = state_arg::read(args.file.as_deref())?;
    let variant = state_arg::variant(args.variant.as_deref(), &input)?;
    let geometry = match &args.shapes {
        Some(path) => {
            let shapes = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            MapGeometry::new(&variant, &shapes)?
        }
        None if args.generated_layout => spielleiter_render::layout::generated_geometry(&variant),
        None => spielleiter_render::geometry_for(&variant),
    };
    let lang = match args.lang {
        LangArg::En => Lang::En,
        LangArg::De => Lang::De,
    };
    let before = position_from_state(&variant, &input.state)?;
    let picture = if input.orders.is_empty() && input.pending_retreats.is_empty() && input.pending_orders.is_empty() {
        svg(&geometry, &Scene::position(&variant, &before, lang))
    } else {
        let (_, report) = adjudicate_with(&variant, &input)?;
        if args.after {
            svg(&geometry, &Scene::position(&variant, &report.next, lang))
        } else {
            svg(&geometry, &Scene::adjudicated(&variant, &before, &report, lang))
        }
    };
    let format = args.format.unwrap_or_else(|| match &args.output {
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) => Format::Png,
        _ => Format::Svg,
    });
    let bytes = match format {
        Format::Svg => picture.into_bytes(),
        Format::Png => png(&picture, args.zoom)?,
    };
    match &args.output {
        Some(path) => std::fs::write(path, &bytes).with_context(|| format!("writing {}", path.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            if format == Format::Png && out.is_terminal() {
                bail!("not writing a PNG to a terminal: give --output FILE or redirect");
            }
            out.write_all(&bytes)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
