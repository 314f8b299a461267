//! What a power's orders leave out or overdo ([`Gap`]), in English and German.

use super::{Lang, Words};
use crate::completeness::Gap;
use crate::variant::Variant;

/// A gap in a power's orders, in a sentence that says what the judge will do about it.
pub fn gap_text(variant: &Variant, gap: &Gap, lang: Lang) -> String {
    let w = Words { lang };
    let de = lang == Lang::De;
    let unit = |u: &crate::position::Unit| format!("{} {}", w.unit(u.kind), w.place(variant, u.location));
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match *gap {
        Gap::NoOrder(ref u) if de => format!("{} hat keinen Befehl: sie hält.", unit(u)),
        Gap::NoOrder(ref u) => format!("{} has no order: it holds.", unit(u)),
        Gap::NoRetreat(ref u) if de => format!("{} hat keinen Rückzugsbefehl: sie wird aufgelöst.", unit(u)),
        Gap::NoRetreat(ref u) => format!("{} has no retreat order: it is disbanded.", unit(u)),
        Gap::BuildsLeft(1) if de => "1 Aufbau nicht befohlen: er verfällt.".into(),
        Gap::BuildsLeft(n) if de => format!("{n} Aufbauten nicht befohlen: sie verfallen."),
        Gap::BuildsLeft(n) => format!(
            "{} not ordered: {} waived.",
            plural(n, "build", "builds"),
            if n == 1 { "it is" } else { "they are" }
        ),
        Gap::TooManyBuilds { allowed, ordered } if de => format!(
            "{} befohlen, aber nur {allowed} erlaubt: die überzähligen werden nicht ausgeführt.",
            plural(ordered, "Aufbau", "Aufbauten")
        ),
        Gap::TooManyBuilds { allowed, ordered } => format!(
            "{} ordered but only {allowed} allowed: the ones beyond are not carried out.",
            plural(ordered, "build", "builds")
        ),
        Gap::DisbandsMissing { owed, ordered } if de => format!(
            "{} fällig, {ordered} befohlen: den Rest löst der Spielleiter nach der Anarchie-Regel auf.",
            plural(owed, "Auflösung", "Auflösungen")
        ),
        Gap::DisbandsMissing { owed, ordered } => format!(
            "{} owed, {ordered} ordered: the judge removes the rest by the civil disorder rule.",
            plural(owed, "disband", "disbands")
        ),
        Gap::TooManyDisbands { owed, ordered } if de => format!(
            "{} befohlen, aber nur {owed} fällig: die überzähligen werden nicht ausgeführt.",
            plural(ordered, "Auflösung", "Auflösungen")
        ),
        Gap::TooManyDisbands { owed, ordered } => format!(
            "{} ordered but only {owed} owed: the ones beyond are not carried out.",
            plural(ordered, "disband", "disbands")
        ),
        Gap::BuildsNotAllowed if de => "Aufbauten befohlen, aber keine erlaubt: sie werden nicht ausgeführt.".into(),
        Gap::BuildsNotAllowed => "Builds ordered but none allowed: they are not carried out.".into(),
        Gap::DisbandsNotOwed if de => "Auflösungen befohlen, aber keine fällig: sie werden nicht ausgeführt.".into(),
        Gap::DisbandsNotOwed => "Disbands ordered but none owed: they are not carried out.".into(),
    }
}
