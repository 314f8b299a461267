//! Map pictures of Diplomacy positions. A variant's map is data (`variants/<name>/map.toml`:
//! geographic seed points per province, laid out as a Voronoi diagram); a variant without such
//! data gets a schematic layout generated from its adjacencies. A [`Scene`] (position, orders and
//! their outcomes) is drawn as SVG, and any SVG can be rasterized to PNG. No I/O.

pub mod geometry;
pub mod layout;
pub mod placement;
pub mod png;
pub mod scene;
pub mod shapes;
pub mod svg;
pub mod voronoi;

#[cfg(test)]
mod colour_check;

pub use geometry::{MapGeometry, ShapeError};
pub use png::{PngError, png};
pub use scene::{DrawnOrder, OrderState, Scene};
pub use svg::svg;

use spielleiter_engine::Variant;

/// Lays out the map of a built-in variant from its bundled shape file; `None` when the variant
/// has no shapes.
pub fn builtin_geometry(variant: &Variant) -> Option<Result<MapGeometry, ShapeError>> {
    shapes::builtin(&variant.name).map(|text| MapGeometry::new(variant, text))
}

/// The map of any variant: the built-in shapes of its name where they fit it, or else a layout
/// generated from its adjacencies (an imported map may share a built-in variant's name but not
/// its provinces).
pub fn geometry_for(variant: &Variant) -> MapGeometry {
    match builtin_geometry(variant) {
        Some(Ok(g)) => g,
        _ => layout::generated_geometry(variant),
    }
}
