//! A variant's map in picture coordinates: the area of every province (its Voronoi cells), the
//! borders between areas, and where units, labels and coasts are drawn.

use std::collections::BTreeMap;

use spielleiter_engine::map::model::Terrain;
use spielleiter_engine::{LocationId, ProvinceId, Variant};

use crate::placement;
use crate::shapes::{FillerTerrain, MapShapes};
use crate::voronoi::{self, Point};

/// A shape file that does not fit its variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The file is not valid TOML or does not follow the format.
    #[error("map shapes: {0}")]
    Syntax(String),
    /// A shape names a province the variant does not have.
    #[error("map shapes: `{0}` is not a province of the variant")]
    UnknownProvince(String),
    /// A province of the variant has no shape.
    #[error("map shapes: province `{0}` has no shape")]
    MissingProvince(String),
    /// The coasts drawn for a province differ from the variant's coasts.
    #[error("map shapes: province `{province}` draws coasts {drawn:?}, the variant has {variant:?}")]
    Coasts {
        /// The province.
        province: String,
        /// The coasts the shape file places.
        drawn: Vec<String>,
        /// The coasts the variant defines.
        variant: Vec<String>,
    },
    /// A province has no seed point.
    #[error("map shapes: province `{0}` has no points")]
    NoPoints(String),
}

/// What an area of the picture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Region {
    /// A province of the variant.
    Province(ProvinceId),
    /// Filler land or sea (index into the shape file's fillers).
    Filler(usize),
}

/// A piece of border between two areas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Border {
    /// One end.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// What kind of border it is.
    pub kind: BorderKind,
}

/// The kind of a border, which decides how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderKind {
    /// Between two land areas.
    Land,
    /// Between land and sea: the coastline.
    Coast,
    /// Between two sea areas.
    Sea,
}

/// A variant's map laid out in the picture.
#[derive(Clone, Debug)]
pub struct MapGeometry {
    /// Picture width in pixels.
    pub width: f64,
    /// Picture height in pixels.
    pub height: f64,
    /// The cells making up each province's area, indexed by `ProvinceId`.
    pub areas: Vec<Vec<Vec<Point>>>,
    /// Filler areas: whether land or sea, and their cells.
    pub fillers: Vec<(FillerTerrain, Vec<Vec<Point>>)>,
    /// Where a unit stands, indexed by `LocationId`.
    pub unit_at: Vec<Point>,
    /// Where a province's label is, indexed by `ProvinceId`.
    pub label_at: Vec<Point>,
    /// Borders between different areas, each once.
    pub borders: Vec<Border>,
    /// Length of the shared border of every pair of provinces that touch.
    pub touching: BTreeMap<(ProvinceId, ProvinceId), f64>,
    seeds: Vec<Point>,
    owners: Vec<Region>,
    edges: Vec<Vec<(Point, Point)>>,
}

/// The border of every province's area (towards other areas and the picture's frame), as
/// segments, indexed by `ProvinceId`.
fn province_edges(cells: &[Vec<voronoi::Corner>], owners: &[Region], provinces: usize) -> Vec<Vec<(Point, Point)>> {
    let mut edges = vec![Vec::new(); provinces];
    for (i, cell) in cells.iter().enumerate() {
        let Region::Province(p) = owners[i] else { continue };
        for (k, corner) in cell.iter().enumerate() {
            if corner.across.is_none_or(|j| owners[j] != owners[i]) {
                edges[p.index()].push((corner.at, cell[(k + 1) % cell.len()].at));
            }
        }
    }
    edges
}

/// Moves each province's unit place where its symbol has room and keeps off the label
/// (`placement::settle`).
fn settle_units(
    variant: &Variant,
    areas: &[Vec<Vec<Point>>],
    edges: &[Vec<(Point, Point)>],
    unit_at: &mut [Point],
    label_at: &[Point],
) {
    for p in variant.map.provinces() {
        let area = placement::Area {
            cells: &areas[p.id.index()],
            border: &edges[p.id.index()],
        };
        let main = p.main.index();
        unit_at[main] = placement::settle(&area, unit_at[main], label_at[p.id.index()]);
    }
}

/// Seeds and places in picture coordinates, before the areas are made.
pub(crate) struct Layout {
    /// The Voronoi seeds.
    pub(crate) seeds: Vec<Point>,
    /// Who owns each seed's cell.
    pub(crate) owners: Vec<Region>,
    /// The terrain of each filler.
    pub(crate) filler_terrains: Vec<FillerTerrain>,
    /// Where a unit is drawn, per location.
    pub(crate) unit_at: Vec<Point>,
    /// Where the label is drawn, per province.
    pub(crate) label_at: Vec<Point>,
    /// The picture's width in pixels.
    pub(crate) width: f64,
    /// The picture's height in pixels.
    pub(crate) height: f64,
}

impl MapGeometry {
    /// Lays out a variant's map from its shape file.
    pub fn new(variant: &Variant, shapes_toml: &str) -> Result<MapGeometry, ShapeError> {
        let shapes: MapShapes = toml::from_str(shapes_toml).map_err(|e| ShapeError::Syntax(e.to_string()))?;
        Self::from_shapes(variant, &shapes)
    }

    /// Lays out a variant's map from parsed shapes.
    pub fn from_shapes(variant: &Variant, shapes: &MapShapes) -> Result<MapGeometry, ShapeError> {
        let map = &variant.map;
        let proj = &shapes.projection;
        for key in shapes.province.keys() {
            if map.province_by_abbreviation(key).is_none() {
                return Err(ShapeError::UnknownProvince(key.clone()));
            }
        }
        let mut seeds = Vec::new();
        let mut owners = Vec::new();
        let mut label_at = Vec::with_capacity(map.provinces().len());
        let mut unit_at = vec![Point::new(0.0, 0.0); map.locations().len()];
        for p in map.provinces() {
            let shape = shapes
                .province
                .get(&p.abbreviation)
                .ok_or_else(|| ShapeError::MissingProvince(p.abbreviation.clone()))?;
            if shape.points.is_empty() {
                return Err(ShapeError::NoPoints(p.abbreviation.clone()));
            }
            for &ll in &shape.points {
                seeds.push(proj.project(ll));
                owners.push(Region::Province(p.id));
            }
            label_at.push(proj.project(shape.label));
            unit_at[p.main.index()] = proj.project(shape.unit);
            let variant_coasts: Vec<String> = p
                .coasts
                .iter()
                .filter_map(|&l| map.location(l).coast.map(|c| c.abbreviation().to_ascii_lowercase()))
                .collect();
            let drawn: Vec<String> = shape.coast.keys().cloned().collect();
            let mut sorted = variant_coasts.clone();
            sorted.sort();
            if sorted != drawn {
                return Err(ShapeError::Coasts {
                    province: p.abbreviation.clone(),
                    drawn,
                    variant: variant_coasts,
                });
            }
            for (&l, name) in p.coasts.iter().zip(&variant_coasts) {
                unit_at[l.index()] = proj.project(shape.coast[name]);
            }
        }
        for (i, f) in shapes.filler.iter().enumerate() {
            for &ll in &f.points {
                seeds.push(proj.project(ll));
                owners.push(Region::Filler(i));
            }
        }
        let layout = Layout {
            width: f64::from(proj.size[0]),
            height: f64::from(proj.size[1]),
            filler_terrains: shapes.filler.iter().map(|f| f.terrain).collect(),
            label_at,
            unit_at,
            owners,
            seeds,
        };
        Ok(Self::assemble(variant, layout))
    }

    /// The areas, borders and places of a laid-out map: the Voronoi cells of its seeds, each
    /// owned by a province or filler.
    pub(crate) fn assemble(variant: &Variant, layout: Layout) -> MapGeometry {
        let map = &variant.map;
        let Layout {
            seeds,
            owners,
            filler_terrains,
            mut unit_at,
            label_at,
            width,
            height,
        } = layout;
        let cells = voronoi::cells(&seeds, width, height);
        let edges = province_edges(&cells, &owners, map.provinces().len());
        let mut areas = vec![Vec::new(); map.provinces().len()];
        let mut fillers: Vec<(FillerTerrain, Vec<Vec<Point>>)> =
            filler_terrains.iter().map(|&t| (t, Vec::new())).collect();
        let is_sea = |r: Region| match r {
            Region::Province(p) => map.province(p).terrain == Terrain::Sea,
            Region::Filler(i) => filler_terrains[i] == FillerTerrain::Sea,
        };
        let mut borders = Vec::new();
        let mut touching = BTreeMap::new();
        for (i, cell) in cells.iter().enumerate() {
            if cell.is_empty() {
                continue;
            }
            let polygon: Vec<Point> = cell.iter().map(|c| c.at).collect();
            match owners[i] {
                Region::Province(p) => areas[p.index()].push(polygon),
                Region::Filler(f) => fillers[f].1.push(polygon),
            }
            for k in 0..cell.len() {
                let Some(j) = cell[k].across else { continue };
                let (a, b) = (owners[i], owners[j]);
                if a == b || j < i {
                    continue;
                }
                let from = cell[k].at;
                let to = cell[(k + 1) % cell.len()].at;
                let kind = match (is_sea(a), is_sea(b)) {
                    (true, true) => BorderKind::Sea,
                    (false, false) => BorderKind::Land,
                    _ => BorderKind::Coast,
                };
                borders.push(Border { from, to, kind });
                if let (Region::Province(p), Region::Province(q)) = (a, b) {
                    let key = if p < q { (p, q) } else { (q, p) };
                    *touching.entry(key).or_insert(0.0) += from.dist(to);
                }
            }
        }
        settle_units(variant, &areas, &edges, &mut unit_at, &label_at);
        MapGeometry {
            width,
            height,
            areas,
            fillers,
            unit_at,
            label_at,
            borders,
            touching,
            seeds,
            owners,
            edges,
        }
    }

    /// The area a point of the picture belongs to.
    pub fn region_at(&self, p: Point) -> Option<Region> {
        let mut best: Option<(f64, Region)> = None;
        for (s, &r) in self.seeds.iter().zip(&self.owners) {
            let d = s.dist(p);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, r));
            }
        }
        best.map(|(_, r)| r)
    }

    /// How much room a unit in province `p` has: the distance from where it is drawn to the
    /// nearest point of the province's border.
    pub fn unit_room(&self, p: ProvinceId, main: LocationId) -> f64 {
        self.area(p).clearance(self.unit_at[main.index()])
    }

    /// The most room a unit could have anywhere in province `p`.
    pub fn most_room(&self, p: ProvinceId) -> f64 {
        placement::roomiest(&self.area(p)).map_or(0.0, |(room, _)| room)
    }

    fn area(&self, p: ProvinceId) -> placement::Area<'_> {
        placement::Area {
            cells: &self.areas[p.index()],
            border: &self.edges[p.index()],
        }
    }

    /// Where a unit at a location is drawn.
    pub fn unit_point(&self, location: LocationId) -> Point {
        self.unit_at[location.index()]
    }

    /// Everything in the drawing that disagrees with the variant's rules: unit, coast and label
    /// places outside their province, adjacent provinces drawn apart (shared border under 3 px)
    /// and provinces drawn touching that are not adjacent, leaving out the pairs the shape file
    /// names as known exceptions.
    pub fn problems(&self, variant: &Variant, shapes: &MapShapes) -> Vec<String> {
        let map = &variant.map;
        let mut out = Vec::new();
        let name = |p: ProvinceId| map.province(p).abbreviation.clone();
        for p in map.provinces() {
            let mut places = vec![("unit", self.unit_at[p.main.index()])];
            places.push(("label", self.label_at[p.id.index()]));
            for &c in &p.coasts {
                places.push(("coast", self.unit_at[c.index()]));
            }
            for (what, at) in places {
                if self.region_at(at) != Some(Region::Province(p.id)) {
                    out.push(format!(
                        "{}: the {what} place lies outside the province",
                        p.abbreviation
                    ));
                }
            }
        }
        let pair = |a: &str, b: &str| {
            if a < b {
                (a.to_string(), b.to_string())
            } else {
                (b.to_string(), a.to_string())
            }
        };
        let apart: Vec<_> = shapes
            .drawing
            .adjacent_not_touching
            .iter()
            .map(|[a, b]| pair(a, b))
            .collect();
        let touch: Vec<_> = shapes
            .drawing
            .touching_not_adjacent
            .iter()
            .map(|[a, b]| pair(a, b))
            .collect();
        let adjacent = map.bordering_pairs();
        for &(p, q) in &adjacent {
            let len = self.touching.get(&(p, q)).copied().unwrap_or(0.0);
            if len < 3.0 && !apart.contains(&pair(&name(p), &name(q))) {
                out.push(format!("{}-{}: adjacent, drawn apart", name(p), name(q)));
            }
        }
        for (&(p, q), &len) in &self.touching {
            if len >= 3.0 && !adjacent.contains(&(p, q)) && !touch.contains(&pair(&name(p), &name(q))) {
                out.push(format!("{}-{}: drawn touching, not adjacent", name(p), name(q)));
            }
        }
        out
    }
}
