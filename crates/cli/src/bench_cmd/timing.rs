//! The timed runs of `spielleiter bench`: each times only its work, with inputs made and outputs
//! dropped outside the timer.

use std::hint::black_box;
use std::time::Instant;

use serde_json::{Value, json};
use spielleiter_engine::Variant;
use spielleiter_engine::adjudicate::{Adjudicator, MovementResult};
use spielleiter_engine::game::{PhaseReport, adjudicate_phase};

use super::{Prepared, read_orders};

/// How many phases a run did in how many seconds.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Figure {
    phases: usize,
    seconds: f64,
}

impl Figure {
    fn per_second(self) -> f64 {
        if self.seconds > 0.0 {
            self.phases as f64 / self.seconds
        } else {
            0.0
        }
    }

    fn line(self, what: &str) -> String {
        format!(
            "{what:<40}{} in {:.3} s = {:.0} phases/s\n",
            self.phases,
            self.seconds,
            self.per_second()
        )
    }
}

/// The figures of one benchmark.
pub(super) struct Figures {
    /// Movement phases: the resolver alone.
    resolver: Figure,
    /// Movement phases: assignment, adjudication and next position from read orders.
    phase: Figure,
    /// Movement phases: the same from the order text.
    from_text: Figure,
    /// Every phase (movement, retreats, adjustments) from read orders.
    every_phase: Figure,
}

impl Figures {
    /// The figures under their JSON keys.
    pub(super) fn json(&self) -> Value {
        json!({
            "resolver_per_second": self.resolver.per_second(),
            "phase_per_second": self.phase.per_second(),
            "phase_from_text_per_second": self.from_text.per_second(),
            "movement_phases": self.phase.phases,
            "phases": self.every_phase.phases,
            "seconds": self.every_phase.seconds,
            "phases_per_second": self.every_phase.per_second(),
            "movement_phases_per_second": self.resolver.per_second(),
        })
    }

    /// The figures as lines of text.
    pub(super) fn text(&self) -> String {
        [
            self.resolver.line("movement, resolver alone:"),
            self.phase.line("movement, whole phase from read orders:"),
            self.from_text.line("movement, whole phase from text:"),
            self.every_phase.line("every phase from read orders:"),
        ]
        .concat()
    }
}

/// Seconds spent in `work` over `rounds` rounds; each round's input is made by `setup` and its
/// output dropped outside the timer.
fn timed<I, O>(rounds: usize, mut setup: impl FnMut() -> I, mut work: impl FnMut(I) -> O) -> f64 {
    let mut seconds = 0.0;
    for _ in 0..rounds {
        let input = setup();
        let start = Instant::now();
        let output = black_box(work(black_box(input)));
        seconds += start.elapsed().as_secs_f64();
        drop(output);
    }
    seconds
}

/// Whole phases from read orders (each phase's orders cloned before the timer starts).
// Kept out of line so that profiles show each run apart.
#[inline(never)]
fn from_read_orders(variant: &Variant, phases: &[&Prepared], rounds: usize) -> Figure {
    let seconds = timed(
        rounds,
        || phases.iter().map(|p| p.orders.clone()).collect::<Vec<_>>(),
        |orders| {
            let mut reports: Vec<PhaseReport> = Vec::with_capacity(phases.len());
            for (p, o) in phases.iter().zip(orders) {
                reports.push(adjudicate_phase(variant, &p.position, o));
            }
            reports
        },
    );
    Figure {
        phases: phases.len() * rounds,
        seconds,
    }
}

/// Whole phases from the order text.
// Kept out of line so that profiles show each run apart.
#[inline(never)]
fn from_text(variant: &Variant, phases: &[&Prepared], rounds: usize) -> Figure {
    let seconds = timed(
        rounds,
        || Vec::with_capacity(phases.len()),
        |mut reports: Vec<PhaseReport>| {
            for p in phases {
                let orders = read_orders(variant, &p.position, &p.text);
                reports.push(adjudicate_phase(variant, &p.position, orders));
            }
            reports
        },
    );
    Figure {
        phases: phases.len() * rounds,
        seconds,
    }
}

/// The resolver alone, with its reusable buffers, on orders already assigned to units.
// Kept out of line so that profiles show each run apart.
#[inline(never)]
fn resolver(variant: &Variant, phases: &[&Prepared], rounds: usize) -> Figure {
    let movement: Vec<_> = phases.iter().filter_map(|p| p.movement.as_ref()).collect();
    let mut adjudicator = Adjudicator::new(&variant.map);
    let mut result = MovementResult::default();
    let seconds = timed(
        rounds,
        || (),
        |()| {
            for (units, orders) in &movement {
                adjudicator.adjudicate(units, orders, &mut result);
                black_box(&result);
            }
        },
    );
    Figure {
        phases: movement.len() * rounds,
        seconds,
    }
}

/// Times every run: the resolver 50 times as many rounds as the others.
pub(super) fn measure(variant: &Variant, phases: &[Prepared], rounds: usize) -> Figures {
    let every: Vec<&Prepared> = phases.iter().collect();
    let movement: Vec<&Prepared> = phases.iter().filter(|p| p.movement.is_some()).collect();
    Figures {
        resolver: resolver(variant, &movement, rounds * 50),
        phase: from_read_orders(variant, &movement, rounds),
        from_text: from_text(variant, &movement, rounds),
        every_phase: from_read_orders(variant, &every, rounds),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_divides_phases_by_seconds() {
        let f = Figure {
            phases: 300,
            seconds: 1.5,
        };
        assert_eq!(f.per_second(), 200.0);
        assert_eq!(Figure::default().per_second(), 0.0);
    }

    #[test]
    fn only_the_work_is_timed() {
        let seconds = timed(2, || std::thread::sleep(std::time::Duration::from_millis(50)), |()| ());
        assert!(seconds < 0.05, "{seconds}");
    }
}
