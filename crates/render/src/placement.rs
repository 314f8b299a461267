//! Where a unit stands inside its province: far enough from every border that its symbol and the
//! arrows leaving it are not drawn over the neighbours, and clear of the province's label.

use crate::voronoi::Point;

/// The radius of a unit's symbol at its normal size.
pub const UNIT_RADIUS: f64 = 9.0;

/// How far a unit's centre keeps from its province's border where the province has the room:
/// the symbol's radius and a margin for the arrows leaving it.
pub const UNIT_CLEARANCE: f64 = UNIT_RADIUS + 3.0;

/// How far a unit's symbol keeps from its province's label block.
const LABEL_CLEARANCE: f64 = UNIT_RADIUS + 1.0;

/// The block a label covers around its place: the name (up to about five letters of 11 px bold
/// condensed type, centred on the place) and the centre mark drawn below it, as the left, top,
/// right and bottom offsets from the place.
const LABEL_BLOCK: [f64; 4] = [-14.0, -6.0, 14.0, 14.0];

/// The grid step of the search for a better place, in pixels.
const STEP: f64 = 2.0;

/// A province's area as the placement sees it: its cells and the segments of its border.
pub struct Area<'a> {
    /// The convex cells that make up the area.
    pub cells: &'a [Vec<Point>],
    /// The border of the area (towards other areas and the picture's frame).
    pub border: &'a [(Point, Point)],
}

impl Area<'_> {
    /// Whether `p` lies in one of the area's cells.
    pub fn contains(&self, p: Point) -> bool {
        self.cells.iter().any(|cell| in_convex(cell, p))
    }

    /// The distance from `p` to the nearest point of the area's border.
    pub fn clearance(&self, p: Point) -> f64 {
        self.border
            .iter()
            .map(|&(a, b)| segment_distance(p, a, b))
            .fold(f64::INFINITY, f64::min)
    }
}

/// The place for a unit the shape file puts at `wanted`: `wanted` itself where it lies inside
/// the area with room for the symbol and away from the label; else the nearest point that has
/// both; else (a province too narrow) the point with room for the symbol farthest from the
/// label; else (narrower still) the point with the best share of both.
pub fn settle(area: &Area, wanted: Point, label: Point) -> Point {
    let fits = |p: Point| area.clearance(p) >= UNIT_CLEARANCE && label_gap(p, label) >= LABEL_CLEARANCE;
    if area.contains(wanted) && fits(wanted) {
        return wanted;
    }
    let nearest = (inside(area).filter(|&p| fits(p))).min_by(|a, b| a.dist(wanted).total_cmp(&b.dist(wanted)));
    let gap = |p: &Point| label_gap(*p, label);
    let symbol_fits =
        || (inside(area).filter(|&p| area.clearance(p) >= UNIT_RADIUS)).max_by(|a, b| gap(a).total_cmp(&gap(b)));
    let share = |p: &Point| (area.clearance(*p) / UNIT_CLEARANCE).min(gap(p) / LABEL_CLEARANCE);
    let best = || inside(area).max_by(|a, b| share(a).total_cmp(&share(b)));
    nearest.or_else(symbol_fits).or_else(best).unwrap_or(wanted)
}

/// The most room a unit could have anywhere in the area (on the search grid), and where.
pub fn roomiest(area: &Area) -> Option<(f64, Point)> {
    inside(area)
        .map(|p| (area.clearance(p), p))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// The distance from `p` to the block a label at `label` covers.
fn label_gap(p: Point, label: Point) -> f64 {
    let [left, top, right, bottom] = LABEL_BLOCK;
    let dx = (label.x + left - p.x).max(p.x - label.x - right).max(0.0);
    let dy = (label.y + top - p.y).max(p.y - label.y - bottom).max(0.0);
    dx.hypot(dy)
}

/// The points of the search grid inside the area.
fn inside<'a>(area: &'a Area) -> impl Iterator<Item = Point> + 'a {
    grid(area.cells).filter(|&p| area.contains(p))
}

/// The points of a grid over the cells' bounding box.
fn grid(cells: &[Vec<Point>]) -> impl Iterator<Item = Point> {
    let corners = cells.iter().flatten();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for c in corners {
        (x0, y0, x1, y1) = (x0.min(c.x), y0.min(c.y), x1.max(c.x), y1.max(c.y));
    }
    let columns = if x1 > x0 { ((x1 - x0) / STEP) as usize + 1 } else { 0 };
    let rows = if y1 > y0 { ((y1 - y0) / STEP) as usize + 1 } else { 0 };
    (0..rows).flat_map(move |r| (0..columns).map(move |c| Point::new(x0 + c as f64 * STEP, y0 + r as f64 * STEP)))
}

/// Whether `p` lies in the convex polygon `cell` (corners in either order).
fn in_convex(cell: &[Point], p: Point) -> bool {
    let mut sign = 0.0;
    for (i, &a) in cell.iter().enumerate() {
        let b = cell[(i + 1) % cell.len()];
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        if cross.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    cell.len() >= 3
}

/// The distance from `p` to the segment from `a` to `b`.
fn segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length2 = dx * dx + dy * dy;
    if length2 == 0.0 {
        return p.dist(a);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length2).clamp(0.0, 1.0);
    p.dist(Point::new(a.x + t * dx, a.y + t * dy))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rectangle's cell and border.
    struct Shape(Vec<Vec<Point>>, Vec<(Point, Point)>);

    impl Shape {
        fn rectangle(width: f64, height: f64) -> Shape {
            let cell = vec![
                Point::new(0.0, 0.0),
                Point::new(width, 0.0),
                Point::new(width, height),
                Point::new(0.0, height),
            ];
            let border = (0..4).map(|i| (cell[i], cell[(i + 1) % 4])).collect();
            Shape(vec![cell], border)
        }

        fn area(&self) -> Area<'_> {
            Area {
                cells: &self.0,
                border: &self.1,
            }
        }
    }

    #[test]
    fn a_unit_with_room_stays_where_the_shape_file_puts_it() {
        let shape = Shape::rectangle(100.0, 100.0);
        let area = shape.area();
        let at = settle(&area, Point::new(40.0, 40.0), Point::new(70.0, 70.0));
        assert_eq!(at, Point::new(40.0, 40.0));
    }

    #[test]
    fn a_unit_on_the_border_moves_inside_to_the_nearest_place_with_room() {
        let shape = Shape::rectangle(100.0, 100.0);
        let area = shape.area();
        let at = settle(&area, Point::new(2.0, 50.0), Point::new(80.0, 80.0));
        assert!(area.clearance(at) >= UNIT_CLEARANCE, "{at:?}");
        assert!(
            (at.x - UNIT_CLEARANCE).abs() <= STEP && (at.y - 50.0).abs() <= STEP,
            "{at:?}"
        );
    }

    #[test]
    fn a_unit_keeps_off_its_label() {
        let shape = Shape::rectangle(100.0, 100.0);
        let area = shape.area();
        let label = Point::new(50.0, 50.0);
        let at = settle(&area, label, label);
        let gap = label_gap(at, label);
        assert!((LABEL_CLEARANCE..LABEL_CLEARANCE + STEP * 2.0).contains(&gap), "{at:?}");
        // The nearest way out of the block is upwards, above the name.
        assert!(at.y < label.y && (at.x - label.x).abs() < STEP, "{at:?}");
    }

    #[test]
    fn in_a_province_too_small_the_unit_takes_the_place_with_most_room_and_keeps_off_the_label() {
        let shape = Shape::rectangle(16.0, 16.0);
        let area = shape.area();
        let at = settle(&area, Point::new(1.0, 1.0), Point::new(100.0, 100.0));
        assert_eq!(at, Point::new(8.0, 8.0));
        let shape = Shape::rectangle(60.0, 20.0);
        let area = shape.area();
        let at = settle(&area, Point::new(30.0, 10.0), Point::new(30.0, 10.0));
        assert!(
            label_gap(at, Point::new(30.0, 10.0)) > 5.0 && area.clearance(at) > 5.0,
            "{at:?}"
        );
    }
}
