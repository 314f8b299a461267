//! The shape data of a variant's map (`variants/<name>/map.toml`): a projection and, per
//! province, geographic seed points whose Voronoi cells make up its area, where its unit and
//! label stand, and where fleets on each of its coasts stand.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::voronoi::Point;

/// Longitude and latitude in degrees.
pub type LonLat = [f64; 2];

/// A variant's map shapes as written in its `map.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapShapes {
    /// How longitude and latitude become picture coordinates.
    pub projection: Projection,
    /// Shapes per province, keyed by the province's abbreviation.
    #[serde(default)]
    pub province: BTreeMap<String, ProvinceShape>,
    /// Land or sea outside every province (impassable land, open sea at the edge).
    #[serde(default)]
    pub filler: Vec<Filler>,
    /// Known differences between the drawing and the adjacency rules.
    #[serde(default)]
    pub drawing: DrawingExceptions,
}

/// An orthographic projection around a centre, scaled to a picture of a given size.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Projection {
    /// The longitude and latitude at the picture's centre.
    pub centre: LonLat,
    /// Pixels per radian.
    pub scale: f64,
    /// Width and height of the picture in pixels.
    pub size: [u32; 2],
}

impl Projection {
    /// Where a longitude and latitude lie in the picture.
    pub fn project(&self, [lon, lat]: LonLat) -> Point {
        let (lon0, lat0) = (self.centre[0].to_radians(), self.centre[1].to_radians());
        let (lon, lat) = (lon.to_radians(), lat.to_radians());
        let x = lat.cos() * (lon - lon0).sin();
        let y = lat0.cos() * lat.sin() - lat0.sin() * lat.cos() * (lon - lon0).cos();
        Point::new(
            f64::from(self.size[0]) / 2.0 + x * self.scale,
            f64::from(self.size[1]) / 2.0 - y * self.scale,
        )
    }
}

/// The shape of one province.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceShape {
    /// Where a unit in the province is drawn.
    pub unit: LonLat,
    /// Where the province's label is drawn.
    pub label: LonLat,
    /// Seed points of its area.
    pub points: Vec<LonLat>,
    /// Where a fleet on each coast is drawn (`nc`, `sc`, ...), for split-coast provinces.
    #[serde(default)]
    pub coast: BTreeMap<String, LonLat>,
}

/// Land or sea that belongs to no province.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filler {
    /// What it is (for readers of the data).
    #[serde(default)]
    pub name: String,
    /// Land or sea.
    pub terrain: FillerTerrain,
    /// Seed points of its area.
    pub points: Vec<LonLat>,
}

/// The kind of area a filler is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FillerTerrain {
    /// Land no unit may enter.
    Land,
    /// Water outside the board's sea zones.
    Sea,
}

/// Pairs of provinces whose drawing differs from the adjacency rules, each said on purpose.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawingExceptions {
    /// Adjacent by the rules, drawn apart.
    #[serde(default)]
    pub adjacent_not_touching: Vec<[String; 2]>,
    /// Drawn touching, not adjacent by the rules.
    #[serde(default)]
    pub touching_not_adjacent: Vec<[String; 2]>,
}

/// The shape file of a built-in variant, if it has one (the scenarios of a variant, named
/// `<variant>-<scenario>`, share its shapes).
pub fn builtin(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let map = name.split_once('-').map_or(name.as_str(), |(map, _)| map);
    match map {
        "standard" => Some(include_str!("../../../variants/standard/map.toml")),
        "ancmed" => Some(include_str!("../../../variants/ancmed/map.toml")),
        "colonial" => Some(include_str!("../../../variants/colonial/map.toml")),
        "hegemony" => Some(include_str!("../../../variants/hegemony/map.toml")),
        _ => None,
    }
}
