//! Reading every power's order lines for a phase ([`PhaseOrders::read`]): headings, lines for
//! other phases, conditional orders, retreats given in advance and ordinary orders, each to
//! where it belongs (the orders, the sender's ears alone, or a later phase).

use super::{LaterOrder, PhaseOrders, ReadLine, names_political_factors};
use crate::ids::PowerId;
use crate::order::advance::{AdvanceRead, read_advance};
use crate::order::quick::quick_order;
use crate::order::resolve::{OrderContext, for_each_order_read};
use crate::order::syntax::{RawOrder, read_power_header, read_power_prefix};
use crate::order::{OrderError, OrderErrorKind};
use crate::phase::{Phase, PhaseKind, read_phase_header};
use crate::position::Position;
use crate::variant::Variant;

impl PhaseOrders {
    /// Reads order lines for the position's phase. `power` is the sender, if known (lines may
    /// also carry a `Power:` prefix, or a `Power:` line for the lines below it).
    pub fn read<'a>(
        &mut self,
        variant: &Variant,
        position: &Position,
        power: Option<PowerId>,
        lines: impl IntoIterator<Item = &'a str>,
    ) {
        let mut reader = LineReader {
            variant,
            position,
            sender: power,
            current: power,
            section: None,
        };
        // Entries that came otherwise have no input line.
        self.note_origins(usize::MAX);
        let mut read_from = usize::MAX;
        let lines = lines.into_iter();
        self.lines.reserve(lines.size_hint().0);
        self.line_origins.reserve(lines.size_hint().0);
        for (index, line) in lines.enumerate() {
            self.note_origins(read_from);
            read_from = index;
            reader.line(self, line.trim());
        }
        self.note_origins(read_from);
    }

    /// Gives the entries added to `lines` and `sender_only` since the last call the input line
    /// `index`.
    fn note_origins(&mut self, index: usize) {
        self.line_origins.resize(self.lines.len(), index);
        self.private_origins.resize(self.sender_only.len(), index);
    }
}

/// What reading one sender's lines knows between lines.
struct LineReader<'v> {
    variant: &'v Variant,
    position: &'v Position,
    /// Who sent the lines, if known.
    sender: Option<PowerId>,
    /// The power the lines are for (the sender, or the last `Power:` heading).
    current: Option<PowerId>,
    /// The phase of the last phase heading.
    section: Option<Phase>,
}

impl LineReader<'_> {
    /// Reads one trimmed line into `orders`.
    fn line(&mut self, orders: &mut PhaseOrders, text: &str) {
        if text.is_empty() || text.starts_with('#') {
            return;
        }
        // The plainest lines (most of them) are read at once: they are no heading, condition or
        // retreat given in advance.
        let now = self.position.phase;
        if self
            .section
            .is_none_or(|p| p == now && self.variant.calendar.has_phase(now))
        {
            if let Some(raw) = quick_order(&self.variant.map, text) {
                self.ordinary(orders, text, Some(Ok(raw)));
                return;
            }
        }
        if self.heading(orders, text) || self.other_phase(orders, text) {
            return;
        }
        // `IF … THEN …` is a conditional order; `if dislodged by …: …` a retreat in advance.
        let split = crate::order::condition::split(text);
        // The line read as an ordinary order on the way, if it was.
        let mut read = None;
        if self.position.phase.kind == PhaseKind::Movement && !matches!(split, Some(Ok(_))) {
            match read_advance(&self.variant.map, text) {
                AdvanceRead::Advance(advance) => return self.advance(orders, text, advance),
                AdvanceRead::Ordinary(raw) => read = raw,
            }
        }
        match split {
            Some(parts) => self.conditional(orders, text, parts),
            None => self.ordinary(orders, text, read),
        }
    }

    /// Whether the sender may order for power `q`: `None` for his own, or one a rule lets him
    /// order for; else why not.
    fn not_yours(&self, q: PowerId) -> Option<OrderError> {
        let map = &self.variant.map;
        let s = self.sender.filter(|&s| s != q)?;
        match crate::rules::may_order_for(self.variant, self.position, s, q) {
            Some(Ok(())) => None,
            Some(Err(kind)) => Some(OrderError::new(kind, 0)),
            None => Some(OrderError::new(
                OrderErrorKind::NotYourOrder {
                    sender: map.power(s).name.clone(),
                    power: map.power(q).name.clone(),
                },
                0,
            )),
        }
    }

    /// A `Power:` or phase heading: taken note of (a power the sender may not speak for is
    /// told to him alone).
    fn heading(&mut self, orders: &mut PhaseOrders, text: &str) -> bool {
        if let Some(p) = read_power_header(&self.variant.map, text) {
            // A power's own orders may not speak for another power.
            match self.not_yours(p) {
                Some(e) => orders.sender_only.push((self.sender, text.to_string(), e)),
                None => self.current = Some(p),
            }
            return true;
        }
        if let Some(phase) = read_phase_header(text) {
            self.section = Some(phase);
            return true;
        }
        false
    }

    /// A line under the heading of another phase: refused for a phase that is over or does not
    /// exist, kept for a later one. Whether it was such a line.
    fn other_phase(&self, orders: &mut PhaseOrders, text: &str) -> bool {
        let (variant, now) = (self.variant, self.position.phase);
        let Some(phase) = self.section else {
            return false;
        };
        if phase < now || !variant.calendar.has_phase(phase) {
            let kind = if phase < now {
                OrderErrorKind::PhaseOver(phase.to_string())
            } else {
                OrderErrorKind::NoSuchPhase(phase.to_string())
            };
            orders.lines.push(ReadLine {
                power: self.current,
                sender: self.sender,
                text: text.to_string(),
                result: Err(OrderError::new(kind, 0)),
                permission: None,
                condition: None,
            });
            return true;
        }
        if phase == now {
            return false;
        }
        // Checked now as far as the map tells (refused lines are told to the sender and not
        // kept); read for good when its phase begins.
        if let Some(mut e) = crate::conditions::check_later_line(variant, phase, self.current, text) {
            let shown = format!("{phase}: {text}");
            e.position += shown.len() - text.len();
            orders.sender_only.push((self.sender.or(self.current), shown, e));
            return true;
        }
        // Kept as its sender's, with the country it is for written out, so that it is read as
        // the sender's order for that country when its phase comes.
        let text = match (self.sender, self.current) {
            (Some(s), Some(c)) if s != c => format!("{}: {text}", variant.map.power(c).name),
            _ => text.to_string(),
        };
        orders.later.push(LaterOrder {
            power: self.sender.or(self.current),
            phase,
            text,
        });
        true
    }

    /// A retreat order given in advance (or why it cannot be one).
    fn advance(
        &self,
        orders: &mut PhaseOrders,
        text: &str,
        advance: Result<(Option<PowerId>, crate::order::advance::AdvanceRetreat), OrderError>,
    ) {
        let (p, advance) = match advance {
            Ok(read) => read,
            Err(e) => {
                // Told to whoever sent it (a controller under a neutral's heading too).
                orders
                    .sender_only
                    .push((self.sender.or(self.current), text.to_string(), e));
                return;
            }
        };
        // Retreats in advance only for the sender's own units: another country's (a neutral
        // he controls) retreat in its retreat phase.
        let other = p.or(self.current).filter(|&q| self.sender.is_some_and(|s| s != q));
        if let Some(q) = other {
            let e = self.not_yours(q).unwrap_or_else(|| {
                OrderError::new(
                    OrderErrorKind::AdvanceRetreatForOther(self.variant.map.power(q).name.clone()),
                    0,
                )
            });
            orders.sender_only.push((self.sender, text.to_string(), e));
            return;
        }
        match p.or(self.current) {
            Some(p) => orders.advance.push((p, advance)),
            None => orders
                .sender_only
                .push((None, text.to_string(), OrderError::new(OrderErrorKind::PowerNeeded, 0))),
        }
    }

    /// What an order is checked against.
    fn context(&self) -> OrderContext<'_> {
        OrderContext {
            map: &self.variant.map,
            phase: self.position.phase.kind,
            position: Some(self.position),
            default_power: self.current,
            leaders: &self.variant.leaders,
        }
    }

    /// A conditional line (`IF … THEN … ELSE …`).
    fn conditional(
        &self,
        orders: &mut PhaseOrders,
        text: &str,
        parts: Result<crate::order::condition::Parts<'_>, OrderError>,
    ) {
        let ctx = self.context();
        let (result, condition) = crate::conditions::read_conditional(self.variant, &ctx, parts);
        // A conditional line is the sender's own: one for another country (a neutral he
        // controls) is refused, and every refusal is told to him alone (its other branch and
        // condition were never carried out).
        let result = result.and_then(|o| match (o.power, self.sender) {
            (Some(p), Some(s)) if p != s => Err(OrderError::new(
                OrderErrorKind::ConditionalForOther(self.variant.map.power(p).name.clone()),
                0,
            )),
            _ => Ok(o),
        });
        match result {
            Err(e) => orders.sender_only.push((self.sender, text.to_string(), e)),
            Ok(o) => orders.lines.push(ReadLine {
                power: o.power.or(self.current),
                sender: self.sender,
                text: text.to_string(),
                permission: None,
                result: Ok(o.order),
                condition,
            }),
        }
    }

    /// An ordinary line of one order or several separated by commas, given its reading as one
    /// order when it was read on the way.
    fn ordinary(&self, orders: &mut PhaseOrders, text: &str, read: Option<Result<RawOrder, OrderError>>) {
        let map = &self.variant.map;
        for_each_order_read(&self.context(), text, read, |part, result| {
            let power = match &result {
                Ok(o) => o.power,
                Err(_) => read_power_prefix(map, part),
            }
            .or(self.current);
            // An order for another power's units that its sender may not give, or that cannot
            // be read, is told to him alone.
            // Political factors are secret even when refused (research D-22).
            let refused = match &result {
                Ok(o) => o.power.and_then(|q| self.not_yours(q)),
                Err(e) if names_political_factors(part) => Some(e.clone()),
                Err(e) => power
                    .filter(|&p| self.sender.is_some_and(|s| s != p))
                    .map(|_| e.clone()),
            };
            if let Some(e) = refused {
                orders.sender_only.push((self.sender, part.to_string(), e));
                return;
            }
            orders.lines.push(ReadLine {
                power,
                sender: self.sender,
                text: part.to_string(),
                permission: result.as_ref().ok().and_then(|o| o.permission),
                result: result.map(|o| o.order),
                condition: None,
            });
        });
    }
}
