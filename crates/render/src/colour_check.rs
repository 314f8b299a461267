//! The powers' colours of every built-in variant stay apart for readers with normal colour
//! vision and with each of the common colour vision deficiencies (protanopia, deuteranopia,
//! tritanopia, simulated after Machado, Oliveira and Fernandes 2009): the units' colours, the
//! fills of the provinces they own, and those fills against unowned land.

use crate::svg::{UNOWNED_FILL, owned_fill};

/// How far apart (CIE76 ΔE in L*a*b*) two units' colours stay at least.
const UNITS_APART: f64 = 15.0;
/// How far apart two powers' province fills stay at least.
const FILLS_APART: f64 = 8.0;
/// How far an owned province's fill stays from unowned land at least.
const FROM_LAND: f64 = 10.0;

/// The simulation matrices (linear RGB) of full protanopia, deuteranopia and tritanopia, and
/// normal vision.
const VISIONS: [(&str, [[f64; 3]; 3]); 4] = [
    ("normal", [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    (
        "protanopia",
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ],
    ),
];

fn linear(channel: u8) -> f64 {
    let c = f64::from(channel) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn rgb(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap_or_else(|_| panic!("a colour: {hex}"));
    [byte(0), byte(2), byte(4)]
}

/// A colour as a reader with `vision` sees it, in L*a*b*.
fn seen(hex: &str, vision: &[[f64; 3]; 3]) -> [f64; 3] {
    let c = rgb(hex).map(linear);
    let [r, g, b] = [0, 1, 2].map(|i| (0..3).map(|j| vision[i][j] * c[j]).sum::<f64>().clamp(0.0, 1.0));
    let (x, y, z) = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    );
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
}

fn apart(a: &str, b: &str, vision: &[[f64; 3]; 3]) -> f64 {
    let (p, q) = (seen(a, vision), seen(b, vision));
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
}

/// The pairs of `colours` (name, colour) closer than `least` for some vision, with how close.
fn too_close(colours: &[(String, String)], least: f64) -> Vec<String> {
    let mut found = Vec::new();
    for (i, (a, ca)) in colours.iter().enumerate() {
        for (b, cb) in &colours[i + 1..] {
            for (vision, m) in &VISIONS {
                let d = apart(ca, cb, m);
                if d < least {
                    found.push(format!("{a} and {b} ({vision}: {d:.1})"));
                }
            }
        }
    }
    found
}

#[test]
fn every_variants_players_stay_apart_for_every_reader() {
    for name in spielleiter_engine::variant::builtin_names() {
        let v = spielleiter_engine::variant::builtin(name)
            .expect("built in")
            .expect("loads");
        let players: Vec<(String, String)> = v
            .map
            .powers()
            .iter()
            .filter(|p| v.map.is_player(p.id))
            .map(|p| (p.name.clone(), p.colour.clone()))
            .collect();
        assert!(players.len() >= 2, "{name}");
        assert_eq!(too_close(&players, UNITS_APART), [] as [String; 0], "{name}: units");
        let fills: Vec<(String, String)> = players.iter().map(|(n, c)| (n.clone(), owned_fill(c))).collect();
        assert_eq!(too_close(&fills, FILLS_APART), [] as [String; 0], "{name}: provinces");
        let mut with_land = fills.clone();
        with_land.push(("unowned land".into(), UNOWNED_FILL.into()));
        let from_land: Vec<String> = too_close(&with_land, FROM_LAND)
            .into_iter()
            .filter(|pair| pair.contains("unowned land"))
            .collect();
        assert_eq!(from_land, [] as [String; 0], "{name}: against unowned land");
    }
}

#[test]
fn the_old_greys_and_red_green_pairs_would_fail() {
    // Russia and Germany in greys and Austria's red against Italy's green, as before.
    let old: Vec<(String, String)> = [("Austria", "#c40233"), ("Italy", "#2f9e44"), ("Germany", "#5a5a5a")]
        .iter()
        .map(|(n, c)| (n.to_string(), c.to_string()))
        .collect();
    let close = too_close(&old, UNITS_APART);
    assert!(
        close.iter().any(|c| c.contains("Austria and Italy (deuteranopia")),
        "{close:?}"
    );
}
