//! Game phases and their short names (`S1901M`, `F1901R`, `W1901A`).

use std::fmt;
use std::str::FromStr;

/// The season of a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Season {
    /// Spring (`S`).
    Spring,
    /// Fall / autumn (`F`).
    Fall,
    /// Winter (`W`): adjustments.
    Winter,
}

/// What is ordered in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhaseKind {
    /// Moves, supports, convoys and holds (`M`).
    Movement,
    /// Retreats and disbands of dislodged units (`R`).
    Retreat,
    /// Builds, disbands and waives (`A`).
    Adjustment,
}

/// One phase of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Phase {
    /// The year.
    pub year: i32,
    /// The season.
    pub season: Season,
    /// The kind of orders taken.
    pub kind: PhaseKind,
}

/// A phase name that is not of the form `S1901M`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a phase: expected a season letter (S, F, W), a year and a phase letter (M, R, A), e.g. S1901M")]
pub struct PhaseParseError(pub String);

impl FromStr for Phase {
    type Err = PhaseParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        short_phase(text).ok_or_else(|| PhaseParseError(text.to_string()))
    }
}

/// A phase's short name (`S1901M`), if `text` is one.
fn short_phase(text: &str) -> Option<Phase> {
    let mut chars = text.trim().chars();
    let season = match chars.next().map(|c| c.to_ascii_uppercase()) {
        Some('S') => Season::Spring,
        Some('F') => Season::Fall,
        Some('W') => Season::Winter,
        _ => return None,
    };
    let kind = match chars.next_back().map(|c| c.to_ascii_uppercase()) {
        Some('M') => PhaseKind::Movement,
        Some('R') => PhaseKind::Retreat,
        Some('A') => PhaseKind::Adjustment,
        _ => return None,
    };
    let year: i32 = chars.as_str().parse().ok()?;
    Some(Phase { year, season, kind })
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

/// Reads a line that names a phase, as a heading for the orders below it in a message with orders
/// for several phases: `F1901M:`, `[S1902R]`, `Fall 1901:`, `Spring 1902 retreats`, `Herbst 1901
/// Rückzüge:`, `Winter 1901`. `None` when the line is anything else.
pub fn read_phase_header(line: &str) -> Option<Phase> {
    // Every heading names a year: a line without a digit is none (most lines, told at once).
    if !line.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = line.trim().trim_end_matches(':').trim();
    let t = t
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(t)
        .trim();
    if let Some(p) = short_phase(t) {
        return Some(p);
    }
    let mut season = None;
    let mut year = None;
    let mut kind = None;
    for word in t.split_whitespace() {
        let key = crate::map::names::ShortKey::new(word);
        let w = key.as_str();
        match w {
            "spring" | "fruehjahr" | "fruehling" => season = Some(Season::Spring),
            "fall" | "autumn" | "herbst" => season = Some(Season::Fall),
            "winter" => season = Some(Season::Winter),
            "movement" | "moves" | "orders" | "bewegung" | "bewegungen" | "zuege" | "befehle" => {
                kind = Some(PhaseKind::Movement)
            }
            "retreat" | "retreats" | "rueckzug" | "rueckzuege" => kind = Some(PhaseKind::Retreat),
            "adjustment" | "adjustments" | "builds" | "anpassung" | "anpassungen" | "aufbau" | "bauen" => {
                kind = Some(PhaseKind::Adjustment)
            }
            "of" | "im" | "in" => {}
            _ => year = Some(w.parse::<i32>().ok()?),
        }
    }
    let season = season?;
    let kind = kind.unwrap_or(if season == Season::Winter {
        PhaseKind::Adjustment
    } else {
        PhaseKind::Movement
    });
    Some(Phase {
        year: year?,
        season,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_names_round_trip() {
        for name in ["S1901M", "F1901R", "W1901A", "S1870M", "S1M"] {
            let phase: Phase = name.parse().expect("valid phase");
            assert_eq!(phase.to_string(), name);
        }
        let p: Phase = "f1902m".parse().expect("valid phase");
        assert_eq!((p.year, p.season, p.kind), (1902, Season::Fall, PhaseKind::Movement));
    }

    #[test]
    fn phase_headings_read_in_english_and_german() {
        let read = |s: &str| read_phase_header(s).map(|p| p.to_string());
        assert_eq!(read("F1901M:").as_deref(), Some("F1901M"));
        assert_eq!(read("[S1902R]").as_deref(), Some("S1902R"));
        assert_eq!(read("Fall 1901:").as_deref(), Some("F1901M"));
        assert_eq!(read("Spring 1902 retreats").as_deref(), Some("S1902R"));
        assert_eq!(read("Herbst 1901 Rückzüge:").as_deref(), Some("F1901R"));
        assert_eq!(read("Winter 1901").as_deref(), Some("W1901A"));
        assert_eq!(read("A Par - Bur"), None);
        assert_eq!(read("Fall:"), None);
    }

    #[test]
    fn bad_phase_names_are_rejected() {
        for name in ["", "X1901M", "S1901", "S19x1M", "1901"] {
            assert!(name.parse::<Phase>().is_err(), "{name}");
        }
    }
}
