//! The classic judge report of a phase (njudge layout), in English and German, and the short
//! reasons the JSON interchange gives per unit.

use std::fmt::Write as _;
use std::str::FromStr;

use crate::adjudicate::adjustment::AdjustmentOutcome;
use crate::adjudicate::outcome::{Outcome, UnitResult};
use crate::adjudicate::retreat::RetreatOutcome;
use crate::game::PhaseReport;
use crate::ids::{LocationId, PowerId, ProvinceId, UnitType};
use crate::order::model::{Cargo, LeaderAct, LeaderOrder, UnitRef};
use crate::order::{Order, OrderErrorKind};
use crate::phase::{Phase, PhaseKind, Season};
use crate::variant::Variant;

mod board;
mod choices;
mod gaps;
mod leaders;
mod politics;
mod private;
pub mod vocabulary;
mod winter;

pub use board::board;
pub use gaps::gap_text;
use leaders::{displaced_leader_lines, leader_lines, leader_retreat_lines};
pub use leaders::{leader_move_reason_en, leader_retreat_reason_en};
pub use politics::{politics_summary, provocation_text};
pub(crate) use private::{Fate, fate, notices_with};
pub use private::{Notice, Told, notices, private_report};

/// Why a unit has no secure supply line (Hegemony 2.1.5), in a few words.
pub fn supply_failure_text(variant: &Variant, failure: &crate::rules::SupplyFailure, lang: Lang) -> String {
    winter::supply_failure(&Words { lang }, variant, failure)
}

/// The language of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// German.
    De,
}

impl Lang {
    /// The language's code: `en` or `de` (what `FromStr` reads back).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "de" | "german" | "deutsch" => Ok(Lang::De),
            _ => Err(format!("unknown language `{s}`: use en or de")),
        }
    }
}

fn short(variant: &Variant, p: ProvinceId) -> String {
    let a = &variant.map.province(p).abbreviation;
    let mut c = a.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Why a unit's movement order had the result it had, in a few English words.
pub fn reason_en(variant: &Variant, order: &Order, result: &UnitResult, ordered: bool) -> String {
    let map = &variant.map;
    let mut text = match (result.outcome, order) {
        (Outcome::Held, _) if !ordered => "held (no order)".to_string(),
        (Outcome::Held, _) => "held".to_string(),
        (Outcome::Moved, Order::Move { to, .. }) => format!("moved to {}", short(variant, map.province_of(*to))),
        (Outcome::Moved, _) => "moved".to_string(),
        (Outcome::Bounced { against }, Order::Move { to, .. }) if map.province_of(*to) == against => {
            format!("bounced: {} held", short(variant, against))
        }
        (Outcome::Bounced { against }, _) => format!("bounced against the unit from {}", short(variant, against)),
        (Outcome::NoConvoy, _) => "no convoy route: not enough convoying fleets".to_string(),
        (Outcome::Supported, _) => "support given".to_string(),
        (Outcome::Cut { by }, _) => format!("support cut by the attack from {}", short(variant, by)),
        (Outcome::SupportVoid, _) => "void: the supported unit did not do what the support names".to_string(),
        (Outcome::Convoyed, _) => "convoyed the army".to_string(),
        (Outcome::ConvoyFailed, _) => "convoy did not carry the army".to_string(),
        (Outcome::ConvoyVoid, _) => "void: the army was not ordered to move there".to_string(),
        (Outcome::ConvoyParadox, _) => "convoy failed by the paradox rule (Szykman)".to_string(),
        (Outcome::RailStopped { at }, _) => format!("the railroad ride stopped at {}", short(variant, at)),
        (Outcome::CanalClosed, _) => {
            "the canal was closed: no leave from the unit holding it, or it moved or was dislodged".to_string()
        }
    };
    if let Some(by) = result.dislodged_by {
        let _ = write!(text, "; dislodged by the unit from {}", short(variant, by));
    }
    text
}

/// What happened to a dislodged unit, in a few English words.
pub fn retreat_reason_en(variant: &Variant, outcome: &RetreatOutcome, in_advance: bool) -> String {
    let advance = if in_advance { " (ordered in advance)" } else { "" };
    match outcome {
        RetreatOutcome::Retreated(to) => {
            format!("retreated to {}{advance}", short(variant, variant.map.province_of(*to)))
        }
        RetreatOutcome::Disbanded => format!("disbanded{advance}"),
        RetreatOutcome::DisbandedNoOrder => "disbanded: no retreat ordered".to_string(),
        RetreatOutcome::Destroyed => "disbanded: no place to retreat to".to_string(),
        RetreatOutcome::Bounced => format!("disbanded: another unit retreated to the same place{advance}"),
    }
}

/// What became of an adjustment order, in a few English words.
pub fn adjustment_reason_en(outcome: &AdjustmentOutcome) -> String {
    match outcome {
        AdjustmentOutcome::Built => "built",
        AdjustmentOutcome::Disbanded => "disbanded",
        AdjustmentOutcome::Waived => "build waived",
        AdjustmentOutcome::TooMany => "void: more than the allowed number",
        AdjustmentOutcome::Duplicate => "void: the same place or unit twice",
        AdjustmentOutcome::NotAllowed => "void: this power has no such adjustment to make",
        AdjustmentOutcome::NoFreeHomeCentre => "void: a fleet built here needs an own home centre left empty",
        AdjustmentOutcome::SecondSiteBuild => "void: only one fleet a winter may be built outside the home centres",
        AdjustmentOutcome::Occupied => "void: a unit stands there",
        AdjustmentOutcome::Chosen => "chosen",
        AdjustmentOutcome::Allocated => "political factors allocated",
        AdjustmentOutcome::OverAllocated => {
            "void: the allocations together ask for more political factors than are in stock; none was made"
        }
        AdjustmentOutcome::HomeCentreHeld => {
            "void: you hold a home centre of that country; the political factors stay in stock"
        }
        AdjustmentOutcome::ChoiceBlocked => "void: the chosen pieces cannot be placed; the first set stays",
        AdjustmentOutcome::Declared => "declared",
    }
    .to_string()
}

struct Words {
    lang: Lang,
}

impl Words {
    fn season(&self, s: Season) -> &'static str {
        match (self.lang, s) {
            (Lang::En, Season::Spring) => "Spring",
            (Lang::En, Season::Fall) => "Fall",
            (Lang::En, Season::Winter) => "Winter",
            (Lang::De, Season::Spring) => "Frühjahr",
            (Lang::De, Season::Fall) => "Herbst",
            (Lang::De, Season::Winter) => "Winter",
        }
    }

    /// A season's name, the variant's calendar's own where it has one (Colonial's turn).
    fn season_in(&self, variant: &Variant, s: Season) -> String {
        let own = variant.calendar.season_name(s, self.lang == Lang::De);
        own.map_or_else(|| self.season(s).to_string(), str::to_string)
    }

    fn when(&self, variant: &Variant, phase: Phase) -> String {
        match self.lang {
            Lang::En => format!("{} of {}", self.season_in(variant, phase.season), phase.year),
            Lang::De => format!("im {} {}", self.season_in(variant, phase.season), phase.year),
        }
    }

    fn unit(&self, k: UnitType) -> &'static str {
        match (self.lang, k) {
            (Lang::En, UnitType::Army) => "Army",
            (Lang::En, UnitType::Fleet) => "Fleet",
            (Lang::De, UnitType::Army) => "Armee",
            (Lang::De, UnitType::Fleet) => "Flotte",
        }
    }

    fn power(&self, variant: &Variant, p: PowerId) -> String {
        let power = variant.map.power(p);
        match self.lang {
            Lang::En => power.name.clone(),
            Lang::De => power.name_de.clone(),
        }
    }

    fn adjective(&self, variant: &Variant, p: PowerId) -> String {
        let power = variant.map.power(p);
        match self.lang {
            Lang::En => power.adjective.clone(),
            Lang::De => power.adjective_de.clone(),
        }
    }

    /// The power's adjective before a unit: German inflects it (Armee and Flotte are feminine:
    /// `französische`).
    fn unit_adjective(&self, variant: &Variant, p: PowerId) -> String {
        match self.lang {
            Lang::En => self.adjective(variant, p),
            Lang::De => format!("{}e", self.adjective(variant, p)),
        }
    }

    fn place(&self, variant: &Variant, l: LocationId) -> String {
        let map = &variant.map;
        let loc = map.location(l);
        let p = map.province(loc.province);
        let name = match self.lang {
            Lang::En => &p.name,
            Lang::De => &p.name_de,
        };
        match (loc.coast, self.lang) {
            (Some(c), Lang::En) => format!("{name} ({})", c.name()),
            (Some(c), Lang::De) => format!("{name} ({})", c.name_de()),
            (None, _) => name.clone(),
        }
    }

    fn province(&self, variant: &Variant, p: ProvinceId) -> String {
        self.place(variant, variant.map.province(p).main)
    }
}

fn owner_at(position_units: &[crate::position::Unit], variant: &Variant, l: LocationId) -> Option<PowerId> {
    let p = variant.map.province_of(l);
    position_units
        .iter()
        .find(|u| variant.map.province_of(u.location) == p)
        .map(|u| u.power)
}

/// An order in the long form of the classic reports ("Army Budapest -> Serbia").
fn long_order(w: &Words, variant: &Variant, units: &[crate::position::Unit], power: PowerId, order: &Order) -> String {
    let unit = |u: UnitRef| {
        let led = match (u.led, w.lang) {
            (false, _) => "",
            (true, Lang::En) => " (led)",
            (true, Lang::De) => " (geführt)",
        };
        format!("{} {}{led}", w.unit(u.kind), w.place(variant, u.location))
    };
    let leader = match w.lang {
        Lang::En => "Leader",
        Lang::De => "Anführer",
    };
    let foreign = |l: LocationId| match owner_at(units, variant, l) {
        Some(p) if p != power => format!("{} ", w.unit_adjective(variant, p)),
        _ => String::new(),
    };
    let (support, convoy, hold) = match w.lang {
        Lang::En => ("SUPPORT", "CONVOY", "HOLD"),
        Lang::De => ("UNTERSTÜTZT", "KONVOI", "HÄLT"),
    };
    match *order {
        Order::Hold { unit: u } => format!("{} {hold}", unit(u)),
        Order::Move {
            unit: u,
            to,
            via_convoy,
        } => {
            let via = match (via_convoy, w.lang) {
                (true, Lang::En) => " via convoy",
                (true, Lang::De) => " per Konvoi",
                _ => "",
            };
            format!("{} -> {}{via}", unit(u), w.place(variant, to))
        }
        Order::RailMove { unit: u, to } => {
            let line = variant
                .map
                .railroad_between(variant.map.province_of(u.location), variant.map.province_of(to))
                .map_or_else(|| "TSR".to_string(), |r| r.abbreviation.clone());
            format!("{} -> {line} -> {}", unit(u), w.place(variant, to))
        }
        Order::SupportHold { unit: u, supported } => format!(
            "{} {support} {}{}",
            unit(u),
            foreign(supported.location),
            unit(supported)
        ),
        Order::SupportMove { unit: u, supported, to } => format!(
            "{} {support} {}{} -> {}",
            unit(u),
            foreign(supported.location),
            unit(supported),
            w.place(variant, to)
        ),
        Order::Convoy {
            unit: u,
            army,
            to,
            cargo,
        } => {
            let carried = match cargo {
                Cargo::Leader => format!("{leader} {}", w.place(variant, army)),
                _ => unit(UnitRef {
                    led: cargo == Cargo::LedArmy,
                    ..UnitRef::new(UnitType::Army, army)
                }),
            };
            format!(
                "{} {convoy} {}{carried} -> {}",
                unit(u),
                foreign(army),
                w.place(variant, to)
            )
        }
        Order::Retreat { unit: u, to } => format!("{} -> {}", unit(u), w.place(variant, to)),
        Order::Disband { unit: u } => match w.lang {
            Lang::En => format!("{} DISBAND", unit(u)),
            Lang::De => format!("{} LÖST SICH AUF", unit(u)),
        },
        Order::Build { unit: u } => unit(u),
        Order::Waive => String::new(),
        Order::Choose(piece) => choices::piece_text(w, variant, piece),
        Order::Allocate { country, pf } => format!("PF {pf} {}", w.power(variant, country)),
        Order::Declare { to } => match w.lang {
            Lang::En => format!("Friendly to {}", w.power(variant, to)),
            Lang::De => format!("Freundlich gegenüber {}", w.power(variant, to)),
        },
        Order::Leader(LeaderOrder { at, act }) => match act {
            LeaderAct::Hold => format!("{leader} {} {hold}", w.place(variant, at)),
            LeaderAct::Move { to, .. } | LeaderAct::Retreat { to } => {
                format!("{leader} {} -> {}", w.place(variant, at), w.place(variant, to))
            }
        },
    }
}

fn annotations(w: &Words, result: &UnitResult) -> Vec<&'static str> {
    let de = w.lang == Lang::De;
    let mut notes = Vec::new();
    match result.outcome {
        Outcome::Bounced { .. } => notes.push(if de { "abgeprallt" } else { "bounce" }),
        Outcome::Cut { .. } => notes.push(if de { "abgeschnitten" } else { "cut" }),
        Outcome::SupportVoid | Outcome::ConvoyVoid => notes.push(if de { "ungenutzt" } else { "void" }),
        Outcome::NoConvoy => notes.push(if de { "kein Konvoi" } else { "no convoy" }),
        Outcome::CanalClosed => notes.push(if de { "Kanal gesperrt" } else { "canal closed" }),
        Outcome::RailStopped { .. } => notes.push(if de { "angehalten" } else { "stopped" }),
        Outcome::ConvoyParadox | Outcome::ConvoyFailed => notes.push(if de { "gestört" } else { "disrupted" }),
        _ => {}
    }
    if result.dislodged_by.is_some() {
        notes.push(if de { "verdrängt" } else { "dislodged" });
    }
    notes
}

fn join_or(items: &[String], lang: Lang) -> String {
    let or = if lang == Lang::De { " oder " } else { " or " };
    items.join(or)
}

/// A province's or power's name as the variant writes it in either language (a suggestion
/// for a misspelt name), written in `lang`; other text as it is.
pub fn name_in(variant: &Variant, name: &str, lang: Lang) -> String {
    let w = Words { lang };
    if let Some(p) = variant.map.province_by_name(name) {
        w.province(variant, p)
    } else if let Some(p) = variant.map.power_by_name(name) {
        w.power(variant, p)
    } else {
        name.to_string()
    }
}

/// A province's name in `lang` (the variant's English or German name).
pub fn province_name(variant: &Variant, province: ProvinceId, lang: Lang) -> String {
    Words { lang }.province(variant, province)
}

/// What the reader expected, in German.
fn expected_de(expected: &str) -> &str {
    match expected {
        crate::order::condition::EXPECTED => crate::order::condition::EXPECTED_DE,
        crate::order::condition::EXPECTED_MOVE => crate::order::condition::EXPECTED_MOVE_DE,
        "`-` and the convoyed army's destination" => "`-` und das Ziel der transportierten Armee",
        "`-` and the retreat destination" => "`-` und das Ziel des Rückzugs",
        "`-` and where the fleet passes to" => "`-` und wohin die Flotte durchfährt",
        "a coast after `/`" => "eine Küste nach `/`",
        "a province" => "eine Provinz",
        "a unit (e.g. `A Par`)" => "eine Einheit (z. B. `A Par`)",
        "an order after the power" => "ein Befehl nach der Macht",
        "an order: H, -, S, C, R, D or B" => {
            "ein Befehl: H (halten), - (ziehen), U (unterstützen), K (Konvoi), R (Rückzug), D (auflösen) oder B (aufbauen)"
        }
        "the number of political factors after `PF`" => "die Zahl der politischen Faktoren nach `PF`",
        "a power name before `:`" => "ein Machtname vor `:`",
        "`:` after the condition" => "`:` nach der Bedingung",
        "`ELSE` (`SONST`) after `THEN` (`DANN`) and its order" => "`SONST` nach `DANN` und seinem Befehl",
        "a condition, then `THEN` (`DANN`) and an order" => "eine Bedingung, dann `DANN` und ein Befehl",
        other => other,
    }
}

/// A rejected order's reason in German.
pub fn error_de(kind: &OrderErrorKind) -> String {
    use OrderErrorKind as K;
    match kind {
        K::Empty => "leerer Befehl".into(),
        K::UnexpectedCharacter(c) => format!("unerwartetes Zeichen `{c}`"),
        K::UnknownProvince(p) => format!("unbekannte Provinz `{p}`"),
        K::UnknownPower(p) => format!("unbekannte Großmacht `{p}`"),
        K::Expected { expected, found } => {
            let expected = expected_de(expected);
            format!("erwartet: {expected}; gefunden: {found}")
        }
        K::TrailingText(t) => format!("unerwartetes `{t}` nach dem Befehl"),
        K::UnknownCoast(c) => format!("`{c}` hat keine solche Küste"),
        K::MissingUnitType(p) => format!("Armee (A) oder Flotte (F) in {p}?"),
        K::CoastNeeded(p) => format!("Küste von {p} angeben (z. B. {p}/nc)"),
        K::ImpossibleUnit { unit, place } => {
            let u = if unit.contains("army") {
                "eine Armee"
            } else {
                "eine Flotte"
            };
            format!("{u} kann nicht in {place} stehen")
        }
        K::MoveToOwnProvince(u) => format!("{u} kann nicht in die eigene Provinz ziehen"),
        K::Unreachable { unit, to } => format!("{unit} kann {to} nicht erreichen"),
        K::AmbiguousCoast { unit, to } => format!("{unit} kann mehr als eine Küste von {to} erreichen: Küste angeben"),
        K::WrongCoast { unit, to } => format!("{unit} kann {to} nicht erreichen, nur eine andere Küste"),
        K::FleetConvoyed => "nur Armeen können geleitet werden".into(),
        K::CannotConvoy(u) => format!("{u} kann nicht geleiten: nur Flotten auf See geleiten"),
        K::NoConvoyRoute { from, to } => format!("kein Konvoiweg verbindet {from} und {to}"),
        K::CannotSupport { unit, to } => {
            format!("{unit} kann nicht nach {to} unterstützen: sie könnte selbst nicht dorthin")
        }
        K::SupportSelf(u) => format!("{u} kann sich nicht selbst unterstützen"),
        K::ImpossibleSupportedMove { unit, to } => {
            format!("{unit} könnte nie nach {to} ziehen: Unterstützung ungültig")
        }
        K::NoUnit(p) => format!("in {p} steht keine Einheit"),
        K::WrongUnitType { place, .. } => format!("in {place} steht eine Einheit der anderen Art"),
        K::NotYourUnit { place, owner, .. } => format!("die Einheit in {place} gehört {owner}"),
        K::WrongPhase { order, .. } => format!("Befehl ({order}) in dieser Phase nicht möglich"),
        K::NotDislodged(p) => format!("die Einheit in {p} wurde nicht vertrieben"),
        K::BadRetreat { unit, to } => format!("{unit} kann sich nicht nach {to} zurückziehen"),
        K::BadBuild { place, .. } => format!("in {place} kann nicht gebaut werden"),
        K::PowerNeeded => "Großmacht angeben (z. B. `Frankreich: …`)".into(),
        K::ConditionNotAllowed(c) => format!("Bedingung nicht erlaubt (nur die vertreibende Großmacht): `{c}`"),
        K::UnknownRetreatRule(r) => format!("unbekannte Rückzugsregel `{r}`"),
        K::PhaseOver(p) => format!("die Phase {p} ist vorbei"),
        K::NoSuchPhase(p) => format!("die Phase {p} gibt es in dieser Variante nicht"),
        K::NotYourOrder { sender, power } => format!("{sender} kann nicht für {power} befehlen"),
        K::NeverControls { sender, country } => {
            format!("{sender} kann {country} nie kontrollieren: der Befehl gilt als nicht gegeben (Regel 1.1.7)")
        }
        K::NoConditionsHere => {
            "`gesperrt` und `versorgt` nennen Schritte eines Winters: sie gelten in Wintern von Hegemony (4.4)"
                .to_string()
        }
        K::ConditionNeedsPosition => {
            "ein bedingter Befehl wird gegen die Stellung des Spiels gelesen (den Stand angeben)".to_string()
        }
        K::ConditionOnOrders => "eine Bedingung nennt Ergebnisse, nie Befehle: die Befehle anderer Spieler sind \
                                 geheim, bis sie ausgeführt sind"
            .to_string(),
        K::ConditionOnLaterPhase(p) => {
            format!(
                "eine Bedingung nennt das Ergebnis einer früheren Phase; {p} ist nicht vorbei, bevor dieser Befehl ausgeführt wird"
            )
        }
        K::ResultsNotKept(p) => format!(
            "die Ergebnisse von {p} sind nicht aufbewahrt (Bedingungen nennen die Züge und Rückzüge des letzten Spieljahres)"
        ),
        K::NoEarlierResults => {
            "vor dieser Phase wurde keine Zugphase gespielt: es gibt kein Ergebnis zu nennen".to_string()
        }
        K::NotACentre(p) => format!("{p} ist kein Versorgungszentrum"),
        K::ConditionalForOther(c) => format!("ein bedingter Befehl gilt nur für das eigene Land, nicht für {c}"),
        K::NoOverseasCentre(p) => format!("{p} ist kein Überseezentrum"),
        K::ConditionNotMet => "nicht ausgeführt: die Bedingung traf nicht zu".to_string(),
        K::FriendlyToItself(c) => format!("{c} kann sich nicht sich selbst gegenüber freundlich erklären"),
        K::AdvanceRetreatForOther(c) => {
            format!("Rückzüge für {c} werden in seiner Rückzugsphase befohlen, nicht im Voraus")
        }
        K::JointOrdersNotCarried(c) => format!(
            "nicht ausgeführt: kein Befehlssatz für {c} hatte mehr als die Hälfte des Einflusses dort (Regel 1.1.4)"
        ),
        K::JointOrdersCarried(c) => format!("als Befehl für {c} ausgeführt"),
        K::NotOnRailroad { unit, to } => format!("keine Eisenbahn verbindet {unit} und {to}"),
        K::RailroadNotYours(u) => format!("{u} darf diese Eisenbahn nicht benutzen"),
        K::NotACanal(p) => format!("nur die Einheit im Kanal kann die Durchfahrt erlauben (nicht in {p})"),
        K::NotThroughCanal { unit, to } => format!("{unit} nach {to} führt nicht durch diesen Kanal"),
        K::NoLeader(p) => format!("in {p} steht kein Anführer dieser Großmacht"),
        K::CannotLead { leader, leads } => {
            let leads = if *leads == "armies" { "Armeen" } else { "Flotten" };
            format!("{leader} führt nur {leads}")
        }
        K::LeaderCannot(what) => {
            let what = match *what {
                "convoy" => "geleiten",
                "be supported" => "unterstützt werden",
                "ride or name a route" => "Eisenbahn fahren oder einen Weg angeben",
                "be disbanded" => "aufgelöst werden",
                "retreat into a sea" => "sich in ein Seefeld zurückziehen",
                _ => "unterstützen",
            };
            format!("ein Anführer allein kann nicht {what}")
        }
        K::LeaderAtSea(p) => format!("ein Anführer betritt {p} nur auf eine Flotte seines Landes, die dort bleibt"),
        K::GarrisonHoldsOnly(p) => format!("die Garnison in {p} kann nur halten"),
        K::Shut(p) => format!("{p} ist unpassierbar: kein Durchzugsrecht"),
        K::NoChoiceOpen => "dieses Land hat nichts zu wählen (gewählt wird im ersten Zug des Szenarios)".into(),
        K::NoPoliticalFactors(p) => format!("{p} hat keine politischen Faktoren zu vergeben"),
        K::CannotActivate(p) => format!("{p} kann nicht aktiviert werden: keine politischen Faktoren möglich"),
        K::NotAnOption(p) => format!("{p} gehört zu keiner Wahlmöglichkeit dieses Landes"),
    }
}

fn next_phase_line(w: &Words, variant: &Variant, phase: Phase) -> String {
    let kind = match (w.lang, phase.kind) {
        (Lang::En, PhaseKind::Movement) => "Movement",
        (Lang::En, PhaseKind::Retreat) => "Retreats",
        (Lang::En, PhaseKind::Adjustment) => "Adjustments",
        (Lang::De, PhaseKind::Movement) => "Bewegungen",
        (Lang::De, PhaseKind::Retreat) => "Rückzüge",
        (Lang::De, PhaseKind::Adjustment) => "Anpassungen",
    };
    match w.lang {
        Lang::En => format!("The next phase will be {kind} for {}.", w.when(variant, phase)),
        Lang::De => format!("Die nächste Phase: {kind} {}.", w.when(variant, phase)),
    }
}

fn ownership(w: &Words, variant: &Variant, report: &PhaseReport, out: &mut String) {
    let (next, end) = (&report.next, report.end.as_ref());
    let map = &variant.map;
    let _ = writeln!(
        out,
        "{}\n",
        if w.lang == Lang::De {
            "Besitz der Versorgungszentren:"
        } else {
            "Ownership of supply centers:"
        }
    );
    for p in map.countries() {
        // The map's centres and the overseas centres the country owns (Hegemony 2.2).
        let mut names: Vec<String> = map
            .provinces()
            .iter()
            .map(|c| c.id)
            .filter(|&c| next.owners[c.index()] == Some(p.id))
            .map(|c| w.province(variant, c))
            .collect();
        if names.is_empty() {
            continue;
        }
        names.sort();
        let _ = writeln!(
            out,
            "{:<11} {}.",
            format!("{}:", w.power(variant, p.id)),
            names.join(", ")
        );
    }
    let mut unowned: Vec<String> = map
        .centres()
        .filter(|c| next.owners[c.index()].is_none())
        .map(|c| w.province(variant, c))
        .collect();
    if !unowned.is_empty() {
        unowned.sort();
        let label = if w.lang == Lang::De { "Neutral:" } else { "Unowned:" };
        let _ = writeln!(out, "{label:<11} {}.", unowned.join(", "));
    }
    let _ = writeln!(out);
    for p in map.countries() {
        let centres = next.centre_count(map, p.id);
        let units = next.units.iter().filter(|u| u.power == p.id).count();
        if centres == 0 && units == 0 {
            continue;
        }
        let count = report.counts.get(p.id.index()).copied().unwrap_or(0);
        let count = crate::game::public_count(map, p.id, count);
        let change = match (w.lang, count.signum()) {
            (Lang::En, 1) => format!("  Builds {count:>3} unit{}.", if count == 1 { "" } else { "s" }),
            (Lang::En, -1) => format!("  Removes {:>2} unit{}.", -count, if count == -1 { "" } else { "s" }),
            (Lang::De, 1) => format!("  baut {count} Einheit{} auf.", if count == 1 { "" } else { "en" }),
            (Lang::De, -1) => format!("  baut {} Einheit{} ab.", -count, if count == -1 { "" } else { "en" }),
            _ => String::new(),
        };
        let won = match end {
            Some(crate::game::GameResult::Victory(w)) => *w == p.id,
            Some(crate::game::GameResult::SharedVictory(ws)) => ws.contains(&p.id),
            _ => false,
        };
        let victory = if won { "  (* VICTORY!! *)" } else { "" };
        let line = match w.lang {
            Lang::En => format!("{:>2} Supply centers, {:>2} Units:{change}{victory}", centres, units),
            Lang::De => format!(
                "{:>2} Versorgungszentren, {:>2} Einheiten:{change}{victory}",
                centres, units
            ),
        };
        let _ = writeln!(out, "{:<11} {line}", format!("{}:", w.power(variant, p.id)));
    }
    let _ = writeln!(out);
}

/// A phase as a heading: "Spring 1901, movement" / "Frühjahr 1901, Bewegungen" (with the
/// variant's own season names, where its calendar has them).
pub fn phase_title(variant: &Variant, phase: Phase, lang: Lang) -> String {
    let w = Words { lang };
    let kind = match (lang, phase.kind) {
        (Lang::En, PhaseKind::Movement) => "movement",
        (Lang::En, PhaseKind::Retreat) => "retreats",
        (Lang::En, PhaseKind::Adjustment) => "adjustments",
        (Lang::De, PhaseKind::Movement) => "Bewegungen",
        (Lang::De, PhaseKind::Retreat) => "Rückzüge",
        (Lang::De, PhaseKind::Adjustment) => "Anpassungen",
    };
    format!("{} {}, {kind}", w.season_in(variant, phase.season), phase.year)
}

/// The whole report of an adjudicated phase in the layout of the classic judges.
pub fn render(variant: &Variant, report: &PhaseReport, lang: Lang) -> String {
    let w = Words { lang };
    let map = &variant.map;
    let mut out = String::new();
    let de = lang == Lang::De;
    if let Some(m) = &report.movement {
        let _ = writeln!(
            out,
            "{}\n",
            if de {
                format!("Ergebnisse der Bewegungen {}.", w.when(variant, report.phase))
            } else {
                format!("Movement results for {}.", w.when(variant, report.phase))
            }
        );
        for p in map.countries() {
            for (i, u) in m.units.iter().enumerate().filter(|(_, u)| u.power == p.id) {
                let mut line = format!("{}: ", w.power(variant, p.id));
                if m.ordered[i] {
                    line.push_str(&long_order(&w, variant, &m.units, p.id, &m.orders[i]));
                    line.push('.');
                } else {
                    let _ = write!(
                        line,
                        "{} {}, {}",
                        w.unit(u.kind),
                        w.place(variant, u.location),
                        if de { "kein Befehl." } else { "No Order Processed." }
                    );
                }
                let mut notes: Vec<String> = annotations(&w, &m.results[i]).into_iter().map(String::from).collect();
                if let Some(rule) = m.by_rule.get(i).copied().flatten() {
                    notes.insert(0, format!("{} {}", if de { "Regel" } else { "rule" }, rule));
                }
                if !notes.is_empty() {
                    let _ = write!(line, "  (*{}*)", notes.join(", "));
                }
                let _ = writeln!(out, "{line}");
            }
        }
        leader_lines(&w, variant, &m.leaders, &mut out);
        let _ = writeln!(out);
        displaced_leader_lines(&w, variant, &m.displaced_leaders, &mut out);
        if !m.dislodged.is_empty() {
            let _ = writeln!(
                out,
                "{}\n",
                if de {
                    "Folgende Einheiten wurden verdrängt:"
                } else {
                    "The following units were dislodged:"
                }
            );
            for d in &m.dislodged {
                let options: Vec<String> = d.retreats.iter().map(|&l| w.place(variant, l)).collect();
                let who = format!(
                    "{} {} in {}",
                    w.unit_adjective(variant, d.unit.power),
                    w.unit(d.unit.kind),
                    w.place(variant, d.unit.location)
                );
                let line = match (de, options.is_empty()) {
                    (false, false) => format!(
                        "The {} {} in {} can retreat to {}.",
                        w.adjective(variant, d.unit.power),
                        w.unit(d.unit.kind),
                        w.place(variant, d.unit.location),
                        join_or(&options, lang)
                    ),
                    (false, true) => format!(
                        "The {} {} in {} with no valid retreats was destroyed.",
                        w.adjective(variant, d.unit.power),
                        w.unit(d.unit.kind),
                        w.place(variant, d.unit.location)
                    ),
                    (true, false) => format!("Die {who} kann sich zurückziehen nach {}.", join_or(&options, lang)),
                    (true, true) => format!("Die {who} hat keinen Rückzugsort und wird aufgelöst."),
                };
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(out);
        }
    }
    if let Some(r) = &report.retreats {
        let _ = writeln!(
            out,
            "{}\n",
            if de {
                format!("Rückzüge {}.", w.when(variant, report.phase))
            } else {
                format!("Retreat orders for {}.", w.when(variant, report.phase))
            }
        );
        for (i, d) in r.dislodged.iter().enumerate() {
            let power = w.power(variant, d.unit.power);
            let unit = format!("{} {}", w.unit(d.unit.kind), w.place(variant, d.unit.location));
            let advance = if r.in_advance[i] {
                if de {
                    "  (im Voraus befohlen)"
                } else {
                    "  (ordered in advance)"
                }
            } else {
                ""
            };
            let line = match (&r.outcomes[i], de) {
                (RetreatOutcome::Retreated(to), _) => format!("{power}: {unit} -> {}.{advance}", w.place(variant, *to)),
                (RetreatOutcome::Bounced, false) => format!(
                    "{power}: {unit} -> {}.  (*bounce, destroyed*){advance}",
                    r.orders[i]
                        .and_then(|o| match o {
                            Order::Retreat { to, .. } => Some(w.place(variant, to)),
                            _ => None,
                        })
                        .unwrap_or_default()
                ),
                (RetreatOutcome::Bounced, true) => format!(
                    "{power}: {unit} -> {}.  (*abgeprallt, aufgelöst*){advance}",
                    r.orders[i]
                        .and_then(|o| match o {
                            Order::Retreat { to, .. } => Some(w.place(variant, to)),
                            _ => None,
                        })
                        .unwrap_or_default()
                ),
                (RetreatOutcome::Disbanded, false) => format!("{power}: {unit} DISBAND.{advance}"),
                (RetreatOutcome::Disbanded, true) => format!("{power}: {unit} LÖST SICH AUF.{advance}"),
                (RetreatOutcome::DisbandedNoOrder, false) => format!("{power}: {unit}, no retreat order: destroyed."),
                (RetreatOutcome::Destroyed, false) => format!("{power}: {unit}, no valid retreats: destroyed."),
                (RetreatOutcome::Destroyed, true) => format!("{power}: {unit}, kein Rückzugsort: aufgelöst."),
                (RetreatOutcome::DisbandedNoOrder, true) => format!("{power}: {unit}, kein Rückzugsbefehl: aufgelöst."),
            };
            let _ = writeln!(out, "{line}");
        }
        leader_retreat_lines(&w, variant, &r.leaders, &mut out);
        let _ = writeln!(out);
    }
    if let Some(a) = &report.adjustments {
        if let Some(steps) = &a.winter {
            let _ = writeln!(
                out,
                "{}\n",
                if de {
                    format!("Die Schritte des Winters {}.", report.phase.year)
                } else {
                    format!("The steps of the winter of {}.", report.phase.year)
                }
            );
            winter::steps_before(&w, variant, a, steps, &mut out);
        }
        let _ = writeln!(
            out,
            "{}{}\n",
            if a.winter.is_some() { "6. " } else { "" },
            if de {
                format!("Anpassungen {}.", w.when(variant, report.phase))
            } else {
                format!("Adjustment orders for {}.", w.when(variant, report.phase))
            }
        );
        for (o, outcome) in a.public_orders() {
            let power = o.power.map(|p| w.power(variant, p)).unwrap_or_default();
            let what = match (o.order, de) {
                (Order::Build { unit }, false) => format!(
                    "Builds {} {} in {}.",
                    if unit.kind == UnitType::Army { "an" } else { "a" },
                    w.unit(unit.kind).to_lowercase(),
                    w.place(variant, unit.location)
                ),
                (Order::Build { unit }, true) => format!(
                    "baut eine {} in {} auf.",
                    w.unit(unit.kind),
                    w.place(variant, unit.location)
                ),
                (Order::Disband { unit }, false) => format!(
                    "Removes the {} in {}.",
                    w.unit(unit.kind).to_lowercase(),
                    w.place(variant, unit.location)
                ),
                (Order::Disband { unit }, true) => {
                    format!(
                        "baut die {} in {} ab.",
                        w.unit(unit.kind),
                        w.place(variant, unit.location)
                    )
                }
                (Order::Waive, false) => "Build waived.".to_string(),
                (Order::Waive, true) => "verzichtet auf einen Aufbau.".to_string(),
                (Order::Choose(piece), _) => choices::chosen_text(&w, variant, &a.choices, o.power, piece),
                _ => String::new(),
            };
            let note = match (outcome, de) {
                (
                    AdjustmentOutcome::Built
                    | AdjustmentOutcome::Disbanded
                    | AdjustmentOutcome::Waived
                    | AdjustmentOutcome::Chosen
                    | AdjustmentOutcome::Declared,
                    _,
                ) => "",
                (_, false) => "  (*void*)",
                (_, true) => "  (*ungenutzt*)",
            };
            let _ = writeln!(out, "{power}: {what}{note}");
        }
        choices::unchosen_lines(&w, variant, &a.choices, &mut out);
        for u in &a.civil_disorder {
            let power = w.power(variant, u.power);
            let line = if de {
                format!(
                    "{power}: baut die {} in {} ab (Zivilunruhen).",
                    w.unit(u.kind),
                    w.place(variant, u.location)
                )
            } else {
                format!(
                    "{power}: Removes the {} in {} (civil disorder).",
                    w.unit(u.kind).to_lowercase(),
                    w.place(variant, u.location)
                )
            };
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out);
        if a.winter.is_some() {
            winter::steps_after(&w, &mut out);
        }
    }
    let rejected: Vec<String> = report
        .orders
        .lines
        .iter()
        .filter_map(|l| {
            l.result.as_ref().err().map(|e| {
                let power = l
                    .power
                    .map(|p| format!("{}: ", w.power(variant, p)))
                    .unwrap_or_default();
                let reason = if de { error_de(&e.kind) } else { e.kind.to_string() };
                format!("{power}{}  (*{reason}*)", l.text)
            })
        })
        .collect();
    if !rejected.is_empty() {
        let _ = writeln!(
            out,
            "{}\n",
            if de {
                "Nicht angenommene Befehle:"
            } else {
                "Orders that were not accepted:"
            }
        );
        for r in rejected {
            let _ = writeln!(out, "{r}");
        }
        let _ = writeln!(out);
    }
    if report.ownership_updated {
        ownership(&w, variant, report, &mut out);
    }
    match &report.end {
        Some(crate::game::GameResult::SharedVictory(ps) | crate::game::GameResult::Draw(ps)) => {
            let shared = matches!(report.end, Some(crate::game::GameResult::SharedVictory(_)));
            let names: Vec<String> = ps.iter().map(|&p| w.power(variant, p)).collect();
            let names = names.join(if de { " und " } else { " and " });
            let line = match (de, shared) {
                (true, true) => format!("Das Spiel ist beendet: {names} gewinnen gemeinsam."),
                (true, false) => format!("Das Spiel ist beendet: unentschieden zwischen {names}."),
                (false, true) => format!("The game is over: {names} share the victory.  Thank you for playing."),
                (false, false) => format!("The game is over: a draw between {names}.  Thank you for playing."),
            };
            let _ = writeln!(out, "{line}");
        }
        Some(crate::game::GameResult::Victory(p) | crate::game::GameResult::Concession(p)) => {
            let p = *p;
            let centres = report.next.centre_count(map, p);
            let _ = writeln!(
                out,
                "{}",
                if de {
                    format!(
                        "Das Spiel ist beendet: {} gewinnt mit {centres} Versorgungszentren.",
                        w.power(variant, p)
                    )
                } else {
                    format!(
                        "The game is over: {} has won with {centres} supply centers.  Thank you for playing.",
                        w.power(variant, p)
                    )
                }
            );
        }
        None => {
            let _ = writeln!(out, "{}", next_phase_line(&w, variant, report.next.phase));
        }
    }
    out
}
