//! The SVG picture of a scene: areas coloured by terrain and centre owner, borders, centres,
//! labels, orders as arrows (failed ones dashed and crossed), units, dislodged units with their
//! retreat options, a title and a legend of centre counts.

use std::fmt::Write as _;

use spielleiter_engine::completeness::UnitMark;
use spielleiter_engine::map::model::Terrain;
use spielleiter_engine::order::model::{LeaderAct, LeaderOrder};
use spielleiter_engine::report::{Lang, phase_title};
use spielleiter_engine::rule_state::LeaderPlace;
use spielleiter_engine::{LocationId, Order, PowerId, Unit, UnitType};

use crate::geometry::{BorderKind, MapGeometry};
use crate::placement::UNIT_RADIUS;
use crate::scene::{DrawnOrder, OrderState, Scene};
use crate::shapes::FillerTerrain;
use crate::voronoi::Point;

/// The font family the pictures use (bundled for PNG rendering).
pub const FONT_FAMILY: &str = "DejaVu Sans";

const SEA: &str = "#b9d4ea";
const LAND: &str = "#ece8de";
const IMPASSABLE: &str = "#c9c2b4";
const FILLER_LAND: &str = "#d8d2c4";
const FILLER_SEA: &str = "#a7c4dd";
const FAILED: &str = "#d01010";
const NEUTRAL_ORDER: &str = "#555555";

/// Draws a scene on a laid-out map as a standalone SVG document.
pub fn svg(geometry: &MapGeometry, scene: &Scene) -> String {
    let map = &scene.variant.map;
    let (w, h) = (geometry.width, geometry.height);
    let mut s = String::with_capacity(256 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="{FONT_FAMILY}, sans-serif" font-weight="bold" font-stretch="condensed" role="img" aria-labelledby="map-title">"#
    );
    let title = format!(
        "{} — {}",
        scene_variant_title(scene),
        phase_title(scene.variant, scene.position.phase, scene.lang)
    );
    let _ = write!(s, r#"<title id="map-title">{}</title>"#, esc(&title));
    let _ = write!(s, r#"<rect width="{w}" height="{h}" fill="{SEA}"/>"#);

    // Areas.
    s.push_str(r#"<g id="fillers">"#);
    for (terrain, cells) in &geometry.fillers {
        let fill = if *terrain == FillerTerrain::Sea {
            FILLER_SEA
        } else {
            FILLER_LAND
        };
        path(&mut s, cells, fill, "");
    }
    s.push_str("</g><g id=\"provinces\">");
    for p in map.provinces() {
        let shut = scene.position.is_shut(map, p.id);
        let fill = match (p.terrain, scene.position.owners.get(p.id.index()).copied().flatten()) {
            (Terrain::Sea, _) => SEA.to_string(),
            (Terrain::Impassable, _) => IMPASSABLE.to_string(),
            _ if shut => IMPASSABLE.to_string(),
            (_, Some(owner)) => owned_fill(&map.power(owner).colour),
            _ => LAND.to_string(),
        };
        let name = match scene.lang {
            Lang::En => &p.name,
            Lang::De => &p.name_de,
        };
        let attrs = format!(
            r#" id="prov-{a}" class="province {t}" data-province="{a}""#,
            a = esc(&p.abbreviation),
            t = match p.terrain {
                Terrain::Sea => "sea",
                Terrain::Impassable => "impassable",
                _ if shut => "impassable",
                _ => "land",
            }
        );
        // A split-coast province says where each coast is drawn and where a fleet there can
        // move (`spa/nc 412 530 gas,mao,por`), so a click can pick the coast a fleet means.
        let coasts: Vec<String> = map
            .locations()
            .iter()
            .enumerate()
            .filter(|(_, l)| l.province == p.id && l.coast.is_some())
            .map(|(i, _)| {
                let location = LocationId(i as u16);
                let at = geometry.unit_point(location);
                let reach: Vec<String> = map
                    .neighbours(UnitType::Fleet, location)
                    .iter()
                    .map(|&n| map.location_abbreviation(n))
                    .collect();
                format!(
                    "{} {:.0} {:.0} {}",
                    map.location_abbreviation(location),
                    at.x,
                    at.y,
                    reach.join(",")
                )
            })
            .collect();
        let attrs = if coasts.is_empty() {
            attrs
        } else {
            format!(r#"{attrs} data-coasts="{}""#, esc(&coasts.join(";")))
        };
        let title = format!("<title>{}</title>", esc(name));
        path_titled(&mut s, &geometry.areas[p.id.index()], &fill, &attrs, &title);
    }
    s.push_str("</g>");

    // Borders.
    for (kind, stroke, width, dash) in [
        (BorderKind::Sea, "#86a9c8", 0.8, r#" stroke-dasharray="3 2""#),
        (BorderKind::Land, "#8c7f66", 0.9, ""),
        (BorderKind::Coast, "#34495e", 1.5, ""),
    ] {
        let mut d = String::new();
        for b in geometry.borders.iter().filter(|b| b.kind == kind) {
            let _ = write!(d, "M{:.1} {:.1}L{:.1} {:.1}", b.from.x, b.from.y, b.to.x, b.to.y);
        }
        let _ = write!(
            s,
            r#"<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linecap="round"{dash}/>"#
        );
    }

    // Bordering provinces the drawing does not show touching (a strait, or a neighbour a
    // generated layout could not bring alongside): a dotted link between their places.
    let mut links = String::new();
    for (a, b) in map.bordering_pairs() {
        if geometry.touching.get(&(a, b)).is_none_or(|&len| len < 3.0) {
            let (p, q) = (
                geometry.unit_at[map.province(a).main.index()],
                geometry.unit_at[map.province(b).main.index()],
            );
            let _ = write!(links, "M{:.1} {:.1}L{:.1} {:.1}", p.x, p.y, q.x, q.y);
        }
    }
    if !links.is_empty() {
        let _ = write!(
            s,
            r##"<path class="link" d="{links}" fill="none" stroke="#34495e" stroke-width="1.4" stroke-dasharray="1 4" stroke-linecap="round"/>"##
        );
    }

    // Centres and labels.
    s.push_str(r#"<g id="labels">"#);
    let labels = province_labels(map, scene.lang);
    for p in map.provinces() {
        let at = geometry.label_at[p.id.index()];
        let colour = if p.terrain == Terrain::Sea {
            "#2b4d6f"
        } else {
            "#3a3226"
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="{colour}" data-for="{}">{}</text>"#,
            at.x,
            at.y + 3.5,
            esc(&p.abbreviation),
            esc(&labels[p.id.index()])
        );
        let owner = scene.position.owners.get(p.id.index()).copied().flatten();
        // A centre of the map, or (Hegemony 2.2.3) an overseas centre: a sea that a country owns.
        if p.centre || owner.is_some() {
            centre(&mut s, scene, p, owner, Point::new(at.x, at.y + 10.0));
        }
    }
    coast_marks(&mut s, scene, geometry);
    s.push_str("</g>");

    // Orders under the units; supports and convoys under moves.
    s.push_str(r#"<g id="orders">"#);
    let mut sorted: Vec<&DrawnOrder> = scene.orders.iter().collect();
    sorted.sort_by_key(|o| match o.order {
        Order::SupportHold { .. } | Order::SupportMove { .. } | Order::Convoy { .. } => 0,
        _ => 1,
    });
    for o in sorted {
        draw_order(&mut s, geometry, scene, o);
    }
    s.push_str("</g>");

    // Units.
    s.push_str(r#"<g id="units">"#);
    for u in &scene.position.units {
        let at = geometry.unit_point(u.location);
        unit(&mut s, scene, u.power, u.kind, u.location, at, 1.0, "unit");
    }
    for d in &scene.position.dislodged {
        let from = geometry.unit_point(d.unit.location);
        let at = Point::new(from.x + 10.0, from.y + 10.0);
        for &r in &d.retreats {
            arrow(&mut s, at, geometry.unit_point(r), FAILED, 1.2, Some("2 2"), 0.75);
        }
        unit(
            &mut s,
            scene,
            d.unit.power,
            d.unit.kind,
            d.unit.location,
            at,
            0.85,
            "unit dislodged",
        );
    }
    for l in scene.position.rules.leaders() {
        let at = geometry.unit_point(l.location);
        leader(&mut s, scene, l, Point::new(at.x + 11.0, at.y - 11.0));
    }
    // Displaced leaders: beside their place, with dashed arrows to where they may retreat.
    for d in scene.position.rules.displaced_leaders() {
        let from = geometry.unit_point(d.place.location);
        let at = Point::new(from.x - 11.0, from.y + 11.0);
        for &r in &d.retreats {
            arrow(&mut s, at, geometry.unit_point(r), FAILED, 1.0, Some("1 2"), 0.6);
        }
        leader(&mut s, scene, &d.place, at);
    }
    for g in scene.position.rules.garrisons() {
        let at = geometry.unit_point(g.location);
        garrison(&mut s, scene, g, Point::new(at.x - 11.0, at.y - 11.0));
    }
    order_marks(&mut s, geometry, scene);
    s.push_str("</g>");

    legend(&mut s, scene, &title, h);
    s.push_str("</svg>\n");
    s
}

/// The marks of the reader's units' order states, beside each unit (a dislodged unit is drawn
/// below and right of its place, its mark with it).
fn order_marks(s: &mut String, geometry: &MapGeometry, scene: &Scene) {
    for (u, mark) in &scene.marks {
        let at = geometry.unit_point(u.location);
        let dislodged = scene.position.dislodged.iter().any(|d| d.unit == *u);
        let shift = if dislodged { 10.0 } else { 0.0 };
        order_mark(s, scene, u, *mark, Point::new(at.x + shift + 10.0, at.y + shift + 9.0));
    }
}

/// The mark beside a unit of the reader's power while orders are entered: a green tick when it
/// is ordered, an amber question mark when no line orders it, a red exclamation mark when a line
/// for it was refused. Clicks pass through it to the unit.
fn order_mark(s: &mut String, scene: &Scene, u: &Unit, mark: UnitMark, at: Point) {
    let (class, fill, title) = match (mark, scene.lang) {
        (UnitMark::Ordered, Lang::En) => ("ordered", "#2e7d32", "ordered"),
        (UnitMark::Ordered, Lang::De) => ("ordered", "#2e7d32", "befohlen"),
        (UnitMark::Missing, Lang::En) => ("missing", "#f2a900", "no order yet"),
        (UnitMark::Missing, Lang::De) => ("missing", "#f2a900", "noch kein Befehl"),
        (UnitMark::Refused, Lang::En) => ("refused", "#c62828", "order refused"),
        (UnitMark::Refused, Lang::De) => ("refused", "#c62828", "Befehl abgelehnt"),
    };
    let (x, y) = (at.x, at.y);
    let sign = match mark {
        UnitMark::Ordered => format!(
            r##"<path d="M{:.1} {:.1}l2.2 2.4l4-4.6" fill="none" stroke="#ffffff" stroke-width="1.6"/>"##,
            x - 3.2,
            y
        ),
        UnitMark::Missing => format!(
            r##"<text x="{x:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#222222">?</text>"##,
            y + 3.2
        ),
        UnitMark::Refused => format!(
            r##"<text x="{x:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#ffffff">!</text>"##,
            y + 3.2
        ),
    };
    let _ = write!(
        s,
        r##"<g class="mark {class}" data-location="{loc}" pointer-events="none"><title>{title}</title><circle cx="{x:.1}" cy="{y:.1}" r="5.5" fill="{fill}" stroke="#ffffff" stroke-width="1"/>{sign}</g>"##,
        loc = esc(&scene.variant.map.location_abbreviation(u.location)),
    );
}

fn scene_variant_title(scene: &Scene) -> String {
    match scene.lang {
        Lang::En => scene.variant.title.clone(),
        Lang::De => scene.variant.title_de.clone(),
    }
}

/// The provinces' labels in the reader's language: the map's abbreviations (`Bud`) in English;
/// in German the shortest beginning of each German name, from three letters, that no other
/// province's label shares (`Mün`, `Nords`, `Norw`), the abbreviation where none is found.
fn province_labels(map: &spielleiter_engine::Map, lang: Lang) -> Vec<String> {
    let provinces = map.provinces();
    if lang == Lang::En {
        return provinces.iter().map(|p| label(&p.abbreviation)).collect();
    }
    let names: Vec<Vec<char>> = provinces
        .iter()
        .map(|p| p.name_de.chars().filter(|c| c.is_alphanumeric()).collect())
        .collect();
    let start = |i: usize, n: usize| names[i].iter().take(n).collect::<String>().to_lowercase();
    (0..provinces.len())
        .map(|i| {
            let unique = (3..=names[i].len().max(3)).find(|&n| {
                let mine = start(i, n);
                (0..names.len()).all(|j| j == i || start(j, n.max(3)) != mine)
            });
            match unique {
                Some(n) => names[i].iter().take(n).collect(),
                None => label(&provinces[i].abbreviation),
            }
        })
        .collect()
}

/// Marks where each coast of a split-coast province is (`nc`, `sc`; German `NK`, `SK`), under
/// the units: a fleet there covers its mark.
fn coast_marks(s: &mut String, scene: &Scene, geometry: &crate::geometry::MapGeometry) {
    let map = &scene.variant.map;
    for (i, l) in map.locations().iter().enumerate() {
        if l.coast.is_none() {
            continue;
        }
        let location = LocationId(i as u16);
        let abbreviation = map.location_abbreviation(location);
        let Some(coast) = abbreviation.split('/').nth(1) else {
            continue;
        };
        let mark = match (scene.lang, coast) {
            (Lang::De, "nc") => "NK".to_string(),
            (Lang::De, "sc") => "SK".to_string(),
            (Lang::De, "ec") => "OK".to_string(),
            (Lang::De, "wc") => "WK".to_string(),
            (_, other) => other.to_string(),
        };
        let at = geometry.unit_point(location);
        let _ = write!(
            s,
            r##"<g class="coast-mark"><circle cx="{:.1}" cy="{:.1}" r="7.5" fill="#ffffff" fill-opacity="0.7" stroke="#34495e" stroke-width="1" stroke-dasharray="2 1.5"/><text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle" fill="#34495e">{}</text></g>"##,
            at.x,
            at.y,
            at.x,
            at.y + 2.5,
            esc(&mark)
        );
    }
}

/// `bud` → `Bud`, the way the board labels provinces.
fn label(abbreviation: &str) -> String {
    let mut c = abbreviation.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn path(s: &mut String, cells: &[Vec<Point>], fill: &str, attrs: &str) {
    path_titled(s, cells, fill, attrs, "");
}

fn path_titled(s: &mut String, cells: &[Vec<Point>], fill: &str, attrs: &str, title: &str) {
    let mut d = String::new();
    for cell in cells {
        for (k, p) in cell.iter().enumerate() {
            let _ = write!(d, "{}{:.1} {:.1}", if k == 0 { 'M' } else { 'L' }, p.x, p.y);
        }
        d.push('Z');
    }
    // The stroke in the fill colour closes the hairline seams between cells.
    let _ = write!(
        s,
        r#"<path{attrs} d="{d}" fill="{fill}" stroke="{fill}" stroke-width="0.8" stroke-linejoin="round">{title}</path>"#
    );
}

fn colour_of(scene: &Scene, power: Option<PowerId>) -> String {
    power.map_or(NEUTRAL_ORDER.to_string(), |p| esc(&scene.variant.map.power(p).colour))
}

#[allow(clippy::too_many_arguments)]
fn unit(
    s: &mut String,
    scene: &Scene,
    power: PowerId,
    kind: UnitType,
    location: LocationId,
    at: Point,
    size: f64,
    class: &str,
) {
    let map = &scene.variant.map;
    let p = map.power(power);
    let fill = &esc(&p.colour);
    let text = if luminance(&p.colour) > 0.55 { "#111" } else { "#fff" };
    let stroke = if class.contains("dislodged") { FAILED } else { "#1b1b1b" };
    // A country no player plays (a neutral) has its units outlined in dashes.
    let neutral = !map.is_player(power);
    let dash = if neutral { r#" stroke-dasharray="3 2""# } else { "" };
    let class = if neutral {
        format!("{class} neutral")
    } else {
        class.to_string()
    };
    let kind_name = match (scene.lang, kind) {
        (Lang::En, UnitType::Army) => "Army",
        (Lang::En, UnitType::Fleet) => "Fleet",
        (Lang::De, UnitType::Army) => "Armee",
        (Lang::De, UnitType::Fleet) => "Flotte",
    };
    let owner = match scene.lang {
        Lang::En => &p.name,
        Lang::De => &p.name_de,
    };
    let _ = write!(
        s,
        r#"<g class="{class}" data-location="{loc}" data-unit="{k} {loc}" data-power="{key}"><title>{owner}: {kind_name} {loc_title}</title>"#,
        loc = esc(&map.location_abbreviation(location)),
        k = kind.letter(),
        key = esc(&p.key),
        owner = esc(owner),
        loc_title = esc(&label(&map.location_abbreviation(location))),
    );
    let r = UNIT_RADIUS * size;
    match kind {
        UnitType::Army => {
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"{dash}/>"#,
                at.x, at.y
            );
        }
        UnitType::Fleet => {
            // A hull: wide deck, narrow keel.
            let (x, y) = (at.x, at.y);
            let _ = write!(
                s,
                r#"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{fill}" stroke="{stroke}" stroke-width="1.6" stroke-linejoin="round"{dash}/>"#,
                x - 1.5 * r,
                y - 0.75 * r,
                x + 1.5 * r,
                y - 0.75 * r,
                x + r,
                y + 0.8 * r,
                x - r,
                y + 0.8 * r
            );
        }
    }
    // No letter on the symbol (a French army marked `F` reads as a fleet): the shape tells army
    // from fleet, the colour the power; an army has a ring, a fleet a mast with its sail.
    match kind {
        UnitType::Army => {
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{text}" stroke-width="{:.1}" pointer-events="none"/></g>"#,
                at.x,
                at.y,
                0.45 * r,
                1.4 * size
            );
        }
        UnitType::Fleet => {
            let (x, y) = (at.x, at.y);
            let _ = write!(
                s,
                r#"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{fill}" stroke="{stroke}" stroke-width="1.2" stroke-linejoin="round"/></g>"#,
                x,
                y - 1.7 * r,
                x,
                y - 0.85 * r,
                x + 0.9 * r,
                y - 0.85 * r
            );
        }
    }
}

/// A supply centre's mark in its owner's colour (white: no owner). A double centre (Hegemony
/// 2.2.1) has two marks side by side; an overseas centre (2.2.3), a sea, a ring around its mark.
fn centre(
    s: &mut String,
    scene: &Scene,
    p: &spielleiter_engine::map::model::Province,
    owner: Option<PowerId>,
    at: Point,
) {
    let fill = owner.map_or("#ffffff".to_string(), |o| esc(&scene.variant.map.power(o).colour));
    let mark = |s: &mut String, class: &str, x: f64| {
        let _ = write!(
            s,
            r##"<circle class="{class}" cx="{x:.1}" cy="{:.1}" r="3.6" fill="{fill}" stroke="#222" stroke-width="1.1"/>"##,
            at.y
        );
    };
    if p.double {
        mark(s, "centre double", at.x - 3.2);
        mark(s, "centre double", at.x + 3.2);
    } else if !p.centre {
        let _ = write!(
            s,
            r##"<circle class="centre-ring" cx="{:.1}" cy="{:.1}" r="6" fill="none" stroke="{fill}" stroke-width="2"/>"##,
            at.x, at.y
        );
        mark(s, "centre overseas", at.x);
    } else {
        mark(s, "centre", at.x);
    }
}

/// A garrison (Hegemony 5.1.4): a small tower mark `G` on the army that holds its province.
fn garrison(s: &mut String, scene: &Scene, g: &spielleiter_engine::rule_state::Garrison, at: Point) {
    let map = &scene.variant.map;
    let home = map.province(g.home);
    let name = match scene.lang {
        Lang::En => format!("Garrison of {}", home.name),
        Lang::De => format!("Garnison von {}", home.name_de),
    };
    let _ = write!(
        s,
        r##"<g class="garrison" data-location="{loc}"><title>{name}</title><rect x="{:.1}" y="{:.1}" width="9" height="9" fill="#ffffff" stroke="{colour}" stroke-width="1.6"/><text x="{:.1}" y="{:.1}" font-size="8" text-anchor="middle" fill="#111">G</text></g>"##,
        at.x - 4.5,
        at.y - 4.5,
        at.x,
        at.y + 3.0,
        loc = esc(&map.location_abbreviation(g.location)),
        name = esc(&name),
        colour = esc(&map.power(g.power).colour),
    );
}

/// A leader (Hegemony): a small diamond in his country's colour beside the place he stands, with
/// his initial.
fn leader(s: &mut String, scene: &Scene, l: &LeaderPlace, at: Point) {
    let variant = scene.variant;
    let map = &variant.map;
    let p = map.power(l.power);
    let Some(person) = variant.leaders.get(l.leader.index()) else {
        return;
    };
    let (name, owner, word) = match scene.lang {
        Lang::En => (&person.name, &p.name, "leader"),
        Lang::De => (&person.name_de, &p.name_de, "Anführer"),
    };
    let text = if luminance(&p.colour) > 0.55 { "#111" } else { "#fff" };
    let r = 7.5;
    let _ = write!(
        s,
        r##"<g class="leader" data-location="{loc}" data-leader="{key}" data-power="{power}"><title>{owner}: {name} ({word}) {loc_title}</title><path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{fill}" stroke="#1b1b1b" stroke-width="1.4"/><text x="{:.1}" y="{:.1}" font-size="9" font-weight="bold" text-anchor="middle" fill="{text}">{initial}</text></g>"##,
        at.x,
        at.y - r,
        at.x + r,
        at.y,
        at.x,
        at.y + r,
        at.x - r,
        at.y,
        at.x,
        at.y + 3.2,
        loc = esc(&map.location_abbreviation(l.location)),
        key = esc(&person.key),
        power = esc(&p.key),
        owner = esc(owner),
        name = esc(name),
        loc_title = esc(&label(&map.location_abbreviation(l.location))),
        fill = esc(&p.colour),
        initial = esc(&name.chars().next().unwrap_or('L').to_string()),
    );
}

fn draw_order(s: &mut String, g: &MapGeometry, scene: &Scene, o: &DrawnOrder) {
    let colour = colour_of(scene, o.power);
    let failed = o.state == OrderState::Failed;
    let dash = if failed { Some("5 3") } else { None };
    let at = |l: LocationId| g.unit_point(l);
    match o.order {
        Order::Move { unit, to, .. } | Order::RailMove { unit, to } | Order::Retreat { unit, to } => {
            let head = arrow(s, at(unit.location), at(to), &colour, 2.6, dash, 1.0);
            if failed {
                cross(s, head);
            }
        }
        Order::SupportHold { unit, supported } => {
            let (from, target) = (at(unit.location), at(supported.location));
            let end = shorten(target, from, UNIT_RADIUS + 3.0);
            line(s, from, end, &colour, 1.6, Some(if failed { "2 3" } else { "6 3" }));
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="1.6"/>"#,
                target.x,
                target.y,
                UNIT_RADIUS + 3.0
            );
            if failed {
                cross(s, mid(from, end));
            }
        }
        Order::SupportMove { unit, supported, to } => {
            let target = mid(at(supported.location), at(to));
            let from = at(unit.location);
            let head = arrow(
                s,
                from,
                target,
                &colour,
                1.6,
                Some(if failed { "2 3" } else { "6 3" }),
                0.8,
            );
            if failed {
                cross(s, head);
            }
        }
        Order::Convoy { unit, army, to, .. } => {
            let target = mid(at(army), at(to));
            let from = at(unit.location);
            line(s, from, target, &colour, 1.8, Some("1 3"));
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}" stroke="#1b1b1b" stroke-width="0.8"/>"##,
                target.x, target.y
            );
            if failed {
                cross(s, mid(from, target));
            }
        }
        Order::Hold { unit } => {
            let c = at(unit.location);
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="2.2"{}/>"#,
                c.x,
                c.y,
                UNIT_RADIUS + 4.0,
                dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default()
            );
        }
        Order::Disband { unit } => {
            let c = at(unit.location);
            cross(s, c);
        }
        Order::Build { unit } => {
            let c = at(unit.location);
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="2.4" stroke-dasharray="4 2"/>"#,
                c.x,
                c.y,
                UNIT_RADIUS + 5.0
            );
            if let Some(power) = o.power {
                unit_symbol_ghost(s, scene, power, unit.kind, unit.location, c);
            }
            if failed {
                cross(s, c);
            }
        }
        Order::Waive | Order::Choose(_) | Order::Allocate { .. } | Order::Declare { .. } => {}
        // A leader's own step: a thin dotted arrow (Hegemony).
        Order::Leader(LeaderOrder {
            at: from,
            act: LeaderAct::Move { to, .. },
        }) => {
            let head = arrow(s, at(from), at(to), &colour, 1.2, Some("2 2"), 0.7);
            if failed {
                cross(s, head);
            }
        }
        Order::Leader(_) => {}
    }
}

fn unit_symbol_ghost(s: &mut String, scene: &Scene, power: PowerId, kind: UnitType, location: LocationId, at: Point) {
    s.push_str(r#"<g opacity="0.6">"#);
    unit(s, scene, power, kind, location, at, 0.9, "unit built");
    s.push_str("</g>");
}

fn mid(a: Point, b: Point) -> Point {
    Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
}

/// The point `by` pixels before `to` on the way from `from`.
fn shorten(to: Point, from: Point, by: f64) -> Point {
    let len = from.dist(to);
    if len <= by {
        return from;
    }
    let t = (len - by) / len;
    Point::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)
}

fn line(s: &mut String, a: Point, b: Point, colour: &str, width: f64, dash: Option<&str>) {
    let _ = write!(
        s,
        r#"<path d="M{:.1} {:.1}L{:.1} {:.1}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"{}/>"#,
        a.x,
        a.y,
        b.x,
        b.y,
        dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default()
    );
}

/// Draws an arrow from a unit's place towards another place (stopping short of a unit there);
/// returns the arrow's tip.
fn arrow(s: &mut String, from: Point, to: Point, colour: &str, width: f64, dash: Option<&str>, opacity: f64) -> Point {
    let start = shorten(from, to, UNIT_RADIUS.min(from.dist(to) / 3.0));
    let tip = shorten(to, from, (UNIT_RADIUS + 1.0).min(from.dist(to) / 3.0));
    let len = start.dist(tip).max(1e-6);
    let (ux, uy) = ((tip.x - start.x) / len, (tip.y - start.y) / len);
    let head = 4.0 + 2.2 * width;
    let base = Point::new(tip.x - ux * head, tip.y - uy * head);
    let _ = write!(s, r#"<g opacity="{opacity}">"#);
    // A dark casing under the shaft keeps light colours readable.
    let _ = write!(
        s,
        r##"<path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#1b1b1b" stroke-opacity="0.45" stroke-width="{:.1}" fill="none"{}/>"##,
        start.x,
        start.y,
        base.x,
        base.y,
        width + 1.6,
        dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default()
    );
    line(s, start, base, colour, width, dash);
    let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
    let _ = write!(
        s,
        r##"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{colour}" stroke="#1b1b1b" stroke-width="0.8"/></g>"##,
        tip.x,
        tip.y,
        base.x + px,
        base.y + py,
        base.x - px,
        base.y - py
    );
    tip
}

fn cross(s: &mut String, at: Point) {
    let r = 5.0;
    let _ = write!(
        s,
        r#"<path class="failed" d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{FAILED}" stroke-width="3" stroke-linecap="round"/>"#,
        at.x - r,
        at.y - r,
        at.x + r,
        at.y + r,
        at.x - r,
        at.y + r,
        at.x + r,
        at.y - r
    );
}

fn legend(s: &mut String, scene: &Scene, title: &str, height: f64) {
    let map = &scene.variant.map;
    // The players' powers, then the other countries (Hegemony's neutrals) still on the board.
    let on_board = |p: &&spielleiter_engine::map::model::Power| {
        map.is_player(p.id)
            || scene.position.centre_count(map, p.id) > 0
            || scene.position.units.iter().any(|u| u.power == p.id)
    };
    let powers: Vec<&spielleiter_engine::map::model::Power> = map.countries().iter().filter(on_board).collect();
    let _ = write!(
        s,
        r##"<g id="legend"><rect x="8" y="8" width="{:.0}" height="24" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="#555"/><text x="16" y="25" font-size="14" fill="#111">{}</text>"##,
        14.0 + 7.2 * title.chars().count() as f64,
        esc(title)
    );
    let rows = powers.len() as f64;
    let top = height - 12.0 - 18.0 * rows;
    let _ = write!(
        s,
        r##"<rect x="8" y="{:.0}" width="190" height="{:.0}" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="#555"/>"##,
        top - 6.0,
        18.0 * rows + 10.0
    );
    for (i, p) in powers.iter().enumerate() {
        let y = top + 18.0 * i as f64;
        let centres = scene.position.centre_count(map, p.id);
        let units = scene.position.units.iter().filter(|u| u.power == p.id).count();
        let name = match scene.lang {
            Lang::En => &p.name,
            Lang::De => &p.name_de,
        };
        let counts = match scene.lang {
            Lang::En => format!("{centres} SC, {units} units"),
            Lang::De => format!("{centres} VZ, {units} Einh."),
        };
        let _ = write!(
            s,
            r##"<rect x="14" y="{:.0}" width="12" height="12" fill="{}" stroke="#222"{}/><text x="32" y="{:.0}" font-size="11" fill="#111">{}</text><text x="190" y="{:.0}" font-size="11" text-anchor="end" fill="#111">{}</text>"##,
            y,
            esc(&p.colour),
            // A country no player plays, as its units are drawn.
            if map.is_player(p.id) {
                ""
            } else {
                r#" stroke-dasharray="2 1.5""#
            },
            y + 10.0,
            esc(name),
            y + 10.0,
            esc(&counts)
        );
    }
    s.push_str("</g>");
}

/// Blends a `#rrggbb` colour with white: `amount` 0 keeps it, 1 gives white.
/// The fill of a land province a power owns: its colour blended towards white.
pub fn owned_fill(colour: &str) -> String {
    tint(colour, 0.55)
}

/// The fill of land nobody owns.
pub const UNOWNED_FILL: &str = LAND;

fn tint(colour: &str, amount: f64) -> String {
    let Some((r, g, b)) = rgb(colour) else {
        return LAND.to_string();
    };
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * amount).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

fn luminance(colour: &str) -> f64 {
    rgb(colour).map_or(0.0, |(r, g, b)| {
        (0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b)) / 255.0
    })
}

fn rgb(colour: &str) -> Option<(u8, u8, u8)> {
    let hex = colour.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some((c(0)?, c(2)?, c(4)?))
}

/// Escapes text for SVG/XML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tints_blend_towards_white_and_bad_colours_fall_back() {
        assert_eq!(tint("#000000", 0.5), "#808080");
        assert_eq!(tint("#ff0000", 0.0), "#ff0000");
        assert_eq!(tint("red", 0.5), LAND);
    }

    #[test]
    fn labels_are_capitalised_and_text_is_escaped() {
        assert_eq!(label("bud"), "Bud");
        assert_eq!(esc(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
