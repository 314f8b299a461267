//! A map laid out from a variant's adjacencies alone, for variants without a shape file (maps
//! imported from DPjudge): provinces are placed so that their distances in the picture follow
//! their distances on the board (classical scaling, then stress majorization, while third
//! provinces are moved out of the way between neighbours), and each area grows along its
//! borders halfway to each neighbour, keeping only what stays joined to it. Most neighbours are
//! drawn touching (some 80 to 90 %); the map is schematic, not geographic, and the same every
//! time for the same variant.

use std::collections::{BTreeSet, VecDeque};

use spielleiter_engine::{UnitType, Variant};

use crate::geometry::{Layout, MapGeometry, Region};
use crate::shapes::FillerTerrain;
use crate::voronoi::{self, Point};

/// The picture's size in pixels.
const WIDTH: f64 = 1400.0;
const HEIGHT: f64 = 1100.0;
/// Free space at the picture's edges.
const MARGIN: f64 = 50.0;
/// Rounds of stress majorization.
const ROUNDS: usize = 300;
/// Rounds of clearing the way between neighbours.
const CLEARING_ROUNDS: usize = 200;

/// The provinces each province borders (for any unit), by province index.
fn neighbours(variant: &Variant) -> Vec<BTreeSet<usize>> {
    let mut out = vec![BTreeSet::new(); variant.map.provinces().len()];
    for (a, b) in variant.map.bordering_pairs() {
        out[a.index()].insert(b.index());
        out[b.index()].insert(a.index());
    }
    out
}

/// Steps between every two provinces; unconnected pairs (impassable provinces, separate
/// boards) count as one step more than the longest path.
fn distances(next: &[BTreeSet<usize>]) -> Vec<Vec<f64>> {
    let n = next.len();
    let mut d = vec![vec![f64::INFINITY; n]; n];
    for (start, row) in d.iter_mut().enumerate() {
        row[start] = 0.0;
        let mut queue = VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            for &to in &next[at] {
                if row[to].is_infinite() {
                    row[to] = row[at] + 1.0;
                    queue.push_back(to);
                }
            }
        }
    }
    let longest = d
        .iter()
        .flatten()
        .filter(|x| x.is_finite())
        .fold(1.0f64, |a, &b| a.max(b));
    for x in d.iter_mut().flatten() {
        if x.is_infinite() {
            *x = longest + 1.0;
        }
    }
    d
}

/// The two leading eigenvectors of the doubly centred squared distances, scaled: the classical
/// scaling of the distances into the plane (power iteration from fixed vectors).
fn classical_scaling(d: &[Vec<f64>]) -> Vec<Point> {
    let n = d.len();
    let squared: Vec<Vec<f64>> = d.iter().map(|row| row.iter().map(|x| x * x).collect()).collect();
    let row_mean: Vec<f64> = squared.iter().map(|r| r.iter().sum::<f64>() / n as f64).collect();
    let mean = row_mean.iter().sum::<f64>() / n as f64;
    let mut b: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| -0.5 * (squared[i][j] - row_mean[i] - row_mean[j] + mean))
                .collect()
        })
        .collect();
    let mut axes = Vec::new();
    for axis in 0..2 {
        let mut v: Vec<f64> = (0..n).map(|i| ((i * (7 + axis * 6) + 3) % 11) as f64 - 5.0).collect();
        let times = |b: &[Vec<f64>], v: &[f64]| -> Vec<f64> {
            b.iter()
                .map(|row| row.iter().zip(v).map(|(x, y)| x * y).sum())
                .collect()
        };
        for _ in 0..200 {
            let w = times(&b, &v);
            let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm < 1e-12 {
                break;
            }
            v = w.into_iter().map(|x| x / norm).collect();
        }
        // The eigenvalue with its sign (the Rayleigh quotient): a negative one gives no axis.
        let value: f64 = times(&b, &v).iter().zip(&v).map(|(x, y)| x * y).sum();
        // Deflate, so the next axis is the next eigenvector.
        for i in 0..n {
            for j in 0..n {
                b[i][j] -= value * v[i] * v[j];
            }
        }
        let scale = value.max(0.0).sqrt();
        axes.push(v.into_iter().map(|x| x * scale).collect::<Vec<f64>>());
    }
    // A little fixed jitter, so that points on one line can still spread into the plane.
    (0..n)
        .map(|i| {
            let jitter = ((i * 37 % 17) as f64 - 8.0) * 1e-3;
            Point::new(axes[0][i] + jitter, axes[1][i] - jitter)
        })
        .collect()
}

/// Moves each province, in turn, to where its distances to all others best match the board's
/// (stress majorization with weights 1/d², Gauss–Seidel rounds).
fn majorize(d: &[Vec<f64>], mut at: Vec<Point>, rounds: usize) -> Vec<Point> {
    let n = at.len();
    for _ in 0..rounds {
        for i in 0..n {
            let (mut x, mut y, mut weights) = (0.0, 0.0, 0.0);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let w = 1.0 / (d[i][j] * d[i][j]);
                let (dx, dy) = (at[i].x - at[j].x, at[i].y - at[j].y);
                let now = (dx * dx + dy * dy).sqrt().max(1e-6);
                x += w * (at[j].x + d[i][j] * dx / now);
                y += w * (at[j].y + d[i][j] * dy / now);
                weights += w;
            }
            if weights > 0.0 {
                at[i] = Point::new(x / weights, y / weights);
            }
        }
    }
    at
}

/// The shortest distance two provinces may have: a little over half the usual border's length.
fn shortest_border(next: &[BTreeSet<usize>], at: &[Point]) -> f64 {
    let mut lengths: Vec<f64> = (0..at.len())
        .flat_map(|a| next[a].iter().map(move |&b| (a, b)))
        .map(|(a, b)| at[a].dist(at[b]))
        .collect();
    lengths.sort_by(f64::total_cmp);
    lengths.get(lengths.len() / 2).copied().unwrap_or(0.0) * 0.6
}

/// Clears the way between bordering provinces: a third province inside the circle whose
/// diameter joins two neighbours is pushed out of it, and the two drawn a little closer (when
/// every such circle is empty, neighbours are neighbours in the Voronoi diagram too); and no
/// two provinces come closer than `shortest`.
fn clear_borders(next: &[BTreeSet<usize>], at: &mut [Point], shortest: f64) {
    let n = at.len();
    // No two provinces on one spot: any pair closer than the shortest border moves apart.
    for a in 0..n {
        for c in a + 1..n {
            let gap = at[a].dist(at[c]);
            if gap < shortest {
                let (dx, dy) = if gap < 1e-9 {
                    (1.0, (a + c) as f64 % 3.0 - 1.0)
                } else {
                    (at[c].x - at[a].x, at[c].y - at[a].y)
                };
                let len = (dx * dx + dy * dy).sqrt();
                let push = (shortest - gap) / 2.0;
                at[a] = Point::new(at[a].x - dx / len * push, at[a].y - dy / len * push);
                at[c] = Point::new(at[c].x + dx / len * push, at[c].y + dy / len * push);
            }
        }
    }
    for a in 0..n {
        for &b in next[a].iter().filter(|&&b| b > a) {
            let mid = Point::new((at[a].x + at[b].x) / 2.0, (at[a].y + at[b].y) / 2.0);
            let r = at[a].dist(at[b]) / 2.0;
            let mut blocked = false;
            for c in 0..n {
                if c == a || c == b {
                    continue;
                }
                let gap = at[c].dist(mid);
                if gap < r * 1.05 {
                    blocked = true;
                    let (dx, dy) = if gap < 1e-9 {
                        (at[b].y - at[a].y, at[a].x - at[b].x)
                    } else {
                        (at[c].x - mid.x, at[c].y - mid.y)
                    };
                    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                    let push = (r * 1.05 - gap) * 0.5;
                    at[c] = Point::new(at[c].x + dx / len * push, at[c].y + dy / len * push);
                }
            }
            if blocked && at[a].dist(at[b]) > shortest {
                let pull = 0.02;
                let (ax, ay, bx, by) = (at[a].x, at[a].y, at[b].x, at[b].y);
                at[a] = Point::new(ax + (bx - ax) * pull, ay + (by - ay) * pull);
                at[b] = Point::new(bx + (ax - bx) * pull, by + (ay - by) * pull);
            }
        }
    }
}

/// The points scaled and moved to fill the picture inside its margins (wider than high).
fn fit(at: &[Point]) -> Vec<Point> {
    let (mut min_x, mut max_x, mut min_y, mut max_y) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in at {
        min_x = min_x.min(p.x);
        max_x = max_x.max(p.x);
        min_y = min_y.min(p.y);
        max_y = max_y.max(p.y);
    }
    // The longer extent runs across the picture.
    let turn = max_y - min_y > max_x - min_x;
    let (w, h) = if turn {
        (max_y - min_y, max_x - min_x)
    } else {
        (max_x - min_x, max_y - min_y)
    };
    let scale = ((WIDTH - 2.0 * MARGIN) / w.max(1e-6)).min((HEIGHT - 2.0 * MARGIN) / h.max(1e-6));
    let (left, top) = ((WIDTH - w * scale) / 2.0, (HEIGHT - h * scale) / 2.0);
    at.iter()
        .map(|p| {
            let (u, v) = if turn {
                (p.y - min_y, p.x - min_x)
            } else {
                (p.x - min_x, p.y - min_y)
            };
            Point::new(left + u * scale, top + v * scale)
        })
        .collect()
}

/// The seeds without those whose cells would lie apart from the rest of their province (where
/// a border's way runs through another province): each province's first seed is its place, and
/// only cells joined to it through cells of the same province stay.
fn connected(mut seeds: Vec<Point>, mut owners: Vec<Region>, provinces: usize) -> (Vec<Point>, Vec<Region>) {
    for _ in 0..6 {
        let cells = voronoi::cells(&seeds, WIDTH, HEIGHT);
        let mut keep: Vec<bool> = owners.iter().map(|o| matches!(o, Region::Filler(_))).collect();
        let mut first = vec![None; provinces];
        for (i, o) in owners.iter().enumerate() {
            if let Region::Province(p) = o
                && first[p.index()].is_none()
            {
                first[p.index()] = Some(i);
            }
        }
        for start in first.into_iter().flatten() {
            keep[start] = true;
            let mut stack = vec![start];
            while let Some(i) = stack.pop() {
                for j in cells[i].iter().filter_map(|c| c.across) {
                    if !keep[j] && owners[j] == owners[i] {
                        keep[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if keep.iter().all(|&k| k) {
            break;
        }
        let mut k = keep.into_iter();
        let kept: Vec<(Point, Region)> = seeds
            .into_iter()
            .zip(owners)
            .filter(|_| k.next().unwrap_or(true))
            .collect();
        (seeds, owners) = kept.into_iter().unzip();
    }
    (seeds, owners)
}

/// The point inside the margins farthest from every point of `taken`.
fn free_spot(taken: &[Point]) -> Point {
    if taken.is_empty() {
        return Point::new(WIDTH / 2.0, HEIGHT / 2.0);
    }
    let mut best = (Point::new(MARGIN, MARGIN), -1.0);
    let mut y = MARGIN;
    while y <= HEIGHT - MARGIN {
        let mut x = MARGIN;
        while x <= WIDTH - MARGIN {
            let p = Point::new(x, y);
            let room = taken.iter().map(|t| t.dist(p)).fold(f64::MAX, f64::min);
            if room > best.1 {
                best = (p, room);
            }
            x += 10.0;
        }
        y += 10.0;
    }
    best.0
}

/// A generated layout of any variant's map.
pub fn generated_geometry(variant: &Variant) -> MapGeometry {
    let map = &variant.map;
    let next = neighbours(variant);
    let n = next.len();
    // Provinces without neighbours (impassable ones) are placed afterwards, in free space.
    let linked: Vec<usize> = (0..n).filter(|&a| !next[a].is_empty()).collect();
    let sub: Vec<BTreeSet<usize>> = linked
        .iter()
        .map(|&a| {
            next[a]
                .iter()
                .filter_map(|b| linked.iter().position(|x| x == b))
                .collect()
        })
        .collect();
    let d = distances(&sub);
    let mut placed = if linked.len() > 2 {
        majorize(&d, classical_scaling(&d), ROUNDS)
    } else {
        classical_scaling(&d)
    };
    let shortest = shortest_border(&sub, &placed);
    // Alternately clear the borders and let the distances settle again.
    for _ in 0..CLEARING_ROUNDS {
        clear_borders(&sub, &mut placed, shortest);
        placed = majorize(&d, placed, 1);
    }

    let placed = fit(&placed);
    let mut at = vec![Point::new(WIDTH / 2.0, HEIGHT / 2.0); n];
    for (k, &a) in linked.iter().enumerate() {
        at[a] = placed[k];
    }
    for a in (0..n).filter(|a| next[*a].is_empty()) {
        let taken: Vec<Point> = (0..n)
            .filter(|&b| b < a || !next[b].is_empty())
            .map(|b| at[b])
            .collect();
        at[a] = free_spot(&taken);
    }

    // Each province: its place, and points along each of its borders up to the middle.
    let mut seeds = Vec::new();
    let mut owners = Vec::new();
    for (a, near) in next.iter().enumerate() {
        seeds.push(at[a]);
        owners.push(Region::Province(map.provinces()[a].id));
        for &b in near {
            for t in [0.15, 0.3, 0.45] {
                let p = Point::new(at[a].x + (at[b].x - at[a].x) * t, at[a].y + (at[b].y - at[a].y) * t);
                seeds.push(p);
                owners.push(Region::Province(map.provinces()[a].id));
            }
        }
    }
    // Off-board land wherever no province is near.
    let mut lengths: Vec<f64> = next
        .iter()
        .enumerate()
        .flat_map(|(a, near)| near.iter().map(move |&b| (a, b)))
        .map(|(a, b)| at[a].dist(at[b]))
        .collect();
    lengths.sort_by(f64::total_cmp);
    let reach = (lengths.get(lengths.len() / 2).copied().unwrap_or(80.0) * 0.75).max(10.0);
    let own = seeds.clone();
    let mut y = 0.0;
    while y <= HEIGHT {
        let mut x = 0.0;
        while x <= WIDTH {
            let p = Point::new(x, y);
            if own.iter().all(|s| s.dist(p) > reach) {
                seeds.push(p);
                owners.push(Region::Filler(0));
            }
            x += reach / 2.0;
        }
        y += reach / 2.0;
    }
    let (seeds, owners) = connected(seeds, owners, n);
    let owner_at = |p: Point| {
        seeds
            .iter()
            .zip(&owners)
            .min_by(|(s, _), (t, _)| s.dist(p).total_cmp(&t.dist(p)))
            .map(|(_, &o)| o)
    };
    // A place near `from`, towards `towards` by `step` pixels, if it still lies in the province.
    let inside = |a: usize, from: Point, dx: f64, dy: f64, step: f64| {
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-9 {
            return from;
        }
        for k in [1.0, 0.6, 0.3] {
            let p = Point::new(from.x + dx / len * step * k, from.y + dy / len * step * k);
            if owner_at(p) == Some(Region::Province(map.provinces()[a].id)) {
                return p;
            }
        }
        from
    };
    let mut unit_at = vec![Point::new(0.0, 0.0); map.locations().len()];
    let mut label_at = Vec::with_capacity(n);
    for (a, p) in map.provinces().iter().enumerate() {
        unit_at[p.main.index()] = at[a];
        label_at.push(inside(a, at[a], 0.0, 1.0, 18.0));
        for (k, &coast) in p.coasts.iter().enumerate() {
            // Towards the places a fleet on this coast can reach.
            let reach: Vec<Point> = map
                .neighbours(UnitType::Fleet, coast)
                .iter()
                .map(|&l| at[map.province_of(l).index()])
                .collect();
            let (dx, dy) = if reach.is_empty() {
                let angle = k as f64 * 2.1;
                (angle.cos(), angle.sin())
            } else {
                let m = reach.iter().fold((0.0, 0.0), |s, q| (s.0 + q.x, s.1 + q.y));
                (m.0 / reach.len() as f64 - at[a].x, m.1 / reach.len() as f64 - at[a].y)
            };
            unit_at[coast.index()] = inside(a, at[a], dx, dy, 16.0);
        }
    }
    MapGeometry::assemble(
        variant,
        Layout {
            seeds,
            owners,
            filler_terrains: vec![FillerTerrain::Land],
            unit_at,
            label_at,
            width: WIDTH,
            height: HEIGHT,
        },
    )
}
