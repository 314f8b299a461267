//! The report's lines about a winter's steps (Hegemony 4.4): declarations of friendship,
//! blocked overseas centres, units removed for want of supply, the builds and removals each
//! country has; income, allocations and control are told to no one but their player (research
//! D-22), so the report only says that they happened.

use std::fmt::Write as _;

use super::{Lang, Words};
use crate::game::AdjustmentReport;
use crate::position::Unit;
use crate::rules::{SupplyFailure, WinterSteps};
use crate::variant::Variant;

/// `the Bavarian army` / `die bayerische Armee`.
fn whose_unit(w: &Words, variant: &Variant, unit: &Unit) -> String {
    let adjective = w.adjective(variant, unit.power);
    match w.lang {
        Lang::En => format!("the {adjective} {}", w.unit(unit.kind).to_lowercase()),
        Lang::De => format!("die {adjective}e {}", w.unit(unit.kind)),
    }
}

/// Why a unit has no secure supply line, in the report's language.
pub(super) fn supply_failure(w: &Words, variant: &Variant, failure: &SupplyFailure) -> String {
    let de = w.lang == Lang::De;
    match failure {
        SupplyFailure::NoLine if de => "kein Weg zu einem eigenen Versorgungszentrum".to_string(),
        SupplyFailure::NoLine => "no line to a centre of its country".to_string(),
        SupplyFailure::Cut { square, by } => {
            let place = w.province(variant, *square);
            let by = whose_unit(w, variant, by);
            if de {
                format!("im Feld {place} abgeschnitten durch {by}")
            } else {
                format!("cut in {place} by {by}")
            }
        }
        SupplyFailure::Threatened { square, by } => {
            let place = w.province(variant, *square);
            let from = w.place(variant, by.location);
            let by = whose_unit(w, variant, by);
            if de {
                format!("im Feld {place} bedroht durch {by} in {from}")
            } else {
                format!("threatened in {place} by {by} in {from}")
            }
        }
    }
}

/// Steps 1–5, before the adjustment orders.
pub(super) fn steps_before(w: &Words, variant: &Variant, a: &AdjustmentReport, steps: &WinterSteps, out: &mut String) {
    let de = w.lang == Lang::De;
    let none = if de { "Keine." } else { "None." };
    let _ = writeln!(
        out,
        "{}",
        if de {
            "1. Freundschaftserklärungen:"
        } else {
            "1. Declarations of friendship:"
        }
    );
    for &(from, to) in &steps.declared {
        let (from, to) = (w.power(variant, from), w.power(variant, to));
        let _ = writeln!(
            out,
            "{}",
            if de {
                format!("{from}: freundlich gegenüber {to}.")
            } else {
                format!("{from}: friendly to {to}.")
            }
        );
    }
    if steps.declared.is_empty() {
        let _ = writeln!(out, "{none}");
    }
    let _ = writeln!(
        out,
        "\n{}",
        if de {
            "2. Überseezentren:"
        } else {
            "2. Overseas centres:"
        }
    );
    for b in &steps.blocked {
        let centre = w.province(variant, b.centre);
        let owner = w.power(variant, b.owner);
        let by = whose_unit(w, variant, &b.by);
        let _ = writeln!(
            out,
            "{}",
            if de {
                format!("{centre} ({owner}) ist in diesem Winter gesperrt durch {by}.")
            } else {
                format!("{centre} ({owner}) is blocked this winter by {by}.")
            }
        );
    }
    if steps.blocked.is_empty() {
        let _ = writeln!(out, "{}", if de { "Keines gesperrt." } else { "None blocked." });
    }
    let _ = writeln!(
        out,
        "\n{}",
        if de {
            "3. Versorgungslinien:"
        } else {
            "3. Supply lines:"
        }
    );
    for u in &steps.unsupplied {
        let power = w.power(variant, u.unit.power);
        let place = w.place(variant, u.unit.location);
        let why = supply_failure(w, variant, &u.reason);
        let _ = writeln!(
            out,
            "{}",
            if de {
                format!(
                    "{power}: baut die {} in {place} ab: keine sichere Versorgungslinie ({why}).",
                    w.unit(u.unit.kind)
                )
            } else {
                format!(
                    "{power}: Removes the {} in {place}: no secure supply line ({why}).",
                    w.unit(u.unit.kind).to_lowercase()
                )
            }
        );
    }
    if steps.unsupplied.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            if de {
                "Alle Einheiten versorgt."
            } else {
                "Every unit supplied."
            }
        );
    }
    counts(w, variant, a, out);
    let _ = writeln!(
        out,
        "\n{}\n",
        if de {
            "5. Neue politische Faktoren: jeder Spieler erfährt seine allein."
        } else {
            "5. New political factors: each player learns his own alone."
        }
    );
}

/// Step 4: each country's builds or further removals.
fn counts(w: &Words, variant: &Variant, a: &AdjustmentReport, out: &mut String) {
    let de = w.lang == Lang::De;
    let _ = writeln!(
        out,
        "\n{}",
        if de {
            "4. Aufbauten und Abbauten:"
        } else {
            "4. Builds and removals:"
        }
    );
    let counts: Vec<(crate::ids::PowerId, i32)> = a
        .counts
        .iter()
        .map(|&(p, n)| (p, crate::game::public_count(&variant.map, p, n)))
        .filter(|&(_, n)| n != 0)
        .collect();
    for &(p, n) in &counts {
        let power = w.power(variant, p);
        let text = match (de, n > 0, n.abs() == 1) {
            (false, true, one) => format!("{n} build{}", if one { "" } else { "s" }),
            (false, false, one) => format!("{} removal{}", -n, if one { "" } else { "s" }),
            (true, true, one) => format!("{n} Aufbau{}", if one { "" } else { "ten" }),
            (true, false, one) => format!("{} Abbau{}", -n, if one { "" } else { "ten" }),
        };
        let _ = writeln!(out, "{power}: {text}.");
    }
    if counts.is_empty() {
        let _ = writeln!(out, "{}", if de { "Keine." } else { "None." });
    }
}

/// Steps 7 and 8, after the adjustment orders.
pub(super) fn steps_after(w: &Words, out: &mut String) {
    let _ = writeln!(
        out,
        "{}\n",
        if w.lang == Lang::De {
            "7. Zuteilung politischer Faktoren und 8. Kontrolle der neutralen Länder: geheim."
        } else {
            "7. Allocation of political factors and 8. control of the neutral countries: secret."
        }
    );
}
