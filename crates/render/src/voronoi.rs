//! Voronoi cells of seed points inside a rectangle, each edge labelled with the seed on its
//! other side (or none, for the picture's frame).

/// A point in picture coordinates (pixels, y downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
}

impl Point {
    /// A point.
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The distance to another point.
    pub fn dist(self, other: Point) -> f64 {
        self.dist2(other).sqrt()
    }

    fn dist2(self, other: Point) -> f64 {
        (self.x - other.x).powi(2) + (self.y - other.y).powi(2)
    }
}

/// One corner of a cell and the edge leaving it (towards the next corner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corner {
    /// The corner.
    pub at: Point,
    /// The seed on the other side of the edge from this corner to the next, `None` on the frame.
    pub across: Option<usize>,
}

/// The cell of every seed: the part of the `width` × `height` rectangle nearer to it than to any
/// other seed, as a convex polygon (corners in order). A seed outside the rectangle, or sharing
/// its place with an earlier seed, gets an empty cell.
pub fn cells(seeds: &[Point], width: f64, height: f64) -> Vec<Vec<Corner>> {
    let grid = Grid::new(seeds, width, height);
    let mut out = Vec::with_capacity(seeds.len());
    let mut candidates = Vec::new();
    for (i, &s) in seeds.iter().enumerate() {
        if !(0.0..=width).contains(&s.x) || !(0.0..=height).contains(&s.y) {
            out.push(Vec::new());
            continue;
        }
        let mut cell = vec![
            Corner {
                at: Point::new(0.0, 0.0),
                across: None,
            },
            Corner {
                at: Point::new(width, 0.0),
                across: None,
            },
            Corner {
                at: Point::new(width, height),
                across: None,
            },
            Corner {
                at: Point::new(0.0, height),
                across: None,
            },
        ];
        let (cx, cy) = grid.cell_of(s);
        // Rings of grid cells around the seed's own, nearest first, until no seed further out
        // can cut the cell: a seed further than twice the cell's reach cannot.
        'rings: for ring in 0..=grid.cols.max(grid.rows) {
            let reach = cell.iter().map(|c| s.dist2(c.at)).fold(0.0, f64::max);
            let nearest = (ring.saturating_sub(1) as f64) * grid.size;
            if nearest * nearest > 4.0 * reach {
                break;
            }
            candidates.clear();
            grid.ring(cx, cy, ring, &mut candidates);
            candidates.retain(|&j| j != i);
            candidates.sort_by(|&a, &b| s.dist2(seeds[a]).total_cmp(&s.dist2(seeds[b])));
            for &j in &candidates {
                if s.dist2(seeds[j]) == 0.0 {
                    if j < i {
                        cell.clear();
                        break 'rings;
                    }
                    continue;
                }
                cell = clip(&cell, s, seeds[j], j);
                if cell.is_empty() {
                    break 'rings;
                }
            }
        }
        out.push(cell);
    }
    out
}

/// Seeds bucketed in square grid cells, to visit them from near to far.
struct Grid {
    size: f64,
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl Grid {
    fn new(seeds: &[Point], width: f64, height: f64) -> Grid {
        let size = (width * height / seeds.len().max(1) as f64).sqrt().max(1.0) * 1.5;
        let cols = (width / size).ceil().max(1.0) as usize;
        let rows = (height / size).ceil().max(1.0) as usize;
        let mut grid = Grid {
            size,
            cols,
            rows,
            buckets: vec![Vec::new(); cols * rows],
        };
        for (i, &p) in seeds.iter().enumerate() {
            // Seeds outside the picture still cut cells: they go into the nearest border cell.
            let (c, r) = grid.cell_of(p);
            grid.buckets[r * cols + c].push(i);
        }
        grid
    }

    fn cell_of(&self, p: Point) -> (usize, usize) {
        let c = (p.x / self.size).floor().clamp(0.0, (self.cols - 1) as f64) as usize;
        let r = (p.y / self.size).floor().clamp(0.0, (self.rows - 1) as f64) as usize;
        (c, r)
    }

    /// The seeds in the grid cells exactly `ring` steps (Chebyshev) away from (`c`, `r`).
    fn ring(&self, c: usize, r: usize, ring: usize, out: &mut Vec<usize>) {
        let (c, r, k) = (c as i64, r as i64, ring as i64);
        for y in r - k..=r + k {
            for x in c - k..=c + k {
                if (x - c).abs() != k && (y - r).abs() != k {
                    continue;
                }
                if x < 0 || y < 0 || x >= self.cols as i64 || y >= self.rows as i64 {
                    continue;
                }
                out.extend_from_slice(&self.buckets[y as usize * self.cols + x as usize]);
            }
        }
    }
}

/// Keeps the part of `cell` nearer to `s` than to `t` (seed `j`); the new edge is across `j`.
fn clip(cell: &[Corner], s: Point, t: Point, j: usize) -> Vec<Corner> {
    // Inside when n·p <= c, with n = t - s and c = (|t|² - |s|²) / 2.
    let n = Point::new(t.x - s.x, t.y - s.y);
    let c = (t.x * t.x + t.y * t.y - s.x * s.x - s.y * s.y) / 2.0;
    let side = |p: Point| n.x * p.x + n.y * p.y - c;
    let mut out = Vec::with_capacity(cell.len() + 1);
    for k in 0..cell.len() {
        let a = cell[k];
        let b = cell[(k + 1) % cell.len()];
        let (da, db) = (side(a.at), side(b.at));
        if da <= 0.0 {
            out.push(a);
            if db > 0.0 {
                // Leaving: the edge from here on runs along the bisector.
                let cut = lerp(a.at, b.at, da / (da - db));
                out.push(Corner {
                    at: cut,
                    across: Some(j),
                });
                // The corner pushed before the cut keeps its original edge up to the cut.
            }
        } else if db <= 0.0 {
            // Entering: the part from the cut to b keeps the original edge.
            let cut = lerp(a.at, b.at, da / (da - db));
            out.push(Corner {
                at: cut,
                across: a.across,
            });
        }
    }
    if out.len() < 3 { Vec::new() } else { out }
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(cell: &[Corner]) -> f64 {
        let mut a = 0.0;
        for k in 0..cell.len() {
            let (p, q) = (cell[k].at, cell[(k + 1) % cell.len()].at);
            a += p.x * q.y - q.x * p.y;
        }
        a.abs() / 2.0
    }

    #[test]
    fn two_seeds_split_the_rectangle_along_their_bisector() {
        let c = cells(&[Point::new(25.0, 50.0), Point::new(75.0, 50.0)], 100.0, 100.0);
        assert!((area(&c[0]) - 5000.0).abs() < 1e-6);
        assert!((area(&c[1]) - 5000.0).abs() < 1e-6);
        let across: Vec<_> = c[0].iter().filter_map(|k| k.across).collect();
        assert_eq!(across, vec![1]);
        assert!(c[0].iter().all(|k| k.at.x <= 50.0 + 1e-9));
    }

    #[test]
    fn the_cells_of_a_grid_cover_the_rectangle() {
        let mut seeds = Vec::new();
        for i in 0..7 {
            for j in 0..5 {
                seeds.push(Point::new(10.0 + i as f64 * 13.7 + j as f64, 5.0 + j as f64 * 17.3));
            }
        }
        let c = cells(&seeds, 100.0, 90.0);
        let total: f64 = c.iter().map(|k| area(k)).sum();
        assert!((total - 9000.0).abs() < 1e-6, "{total}");
        // Every labelled edge has a partner edge in the other cell.
        for (i, cell) in c.iter().enumerate() {
            for k in cell.iter().filter_map(|k| k.across) {
                assert!(c[k].iter().any(|m| m.across == Some(i)), "{i} -> {k}");
            }
        }
    }

    #[test]
    fn a_seed_outside_or_repeated_gets_no_cell() {
        let c = cells(
            &[Point::new(5.0, 5.0), Point::new(5.0, 5.0), Point::new(-1.0, 5.0)],
            10.0,
            10.0,
        );
        assert!(!c[0].is_empty());
        assert!(c[1].is_empty() && c[2].is_empty());
    }
}
