//! Deadlines in a game's time zone: the next deadline after a phase's length, optionally moved to
//! the next local time of day the game names ("20:00" in Europe/Berlin), and its local text.

use jiff::civil::Time;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

/// How a game sets its deadlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadlineRule {
    /// The game's time zone.
    pub zone: TimeZone,
    /// The zone's IANA name (`Europe/Berlin`).
    pub zone_name: String,
    /// A local time of day every deadline is moved to (the first one after the phase's length).
    pub at: Option<Time>,
}

/// A time zone name or time of day that is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeadlineError {
    /// Not an IANA time zone name.
    #[error("unknown time zone `{0}` (use a name such as Europe/Berlin or UTC)")]
    UnknownZone(String),
    /// Not a time of day as HH:MM.
    #[error("`{0}` is not a time of day (HH:MM, such as 20:00)")]
    BadTime(String),
}

impl DeadlineRule {
    /// Deadlines in UTC, at no particular time of day.
    pub fn utc() -> DeadlineRule {
        DeadlineRule {
            zone: TimeZone::UTC,
            zone_name: "UTC".to_string(),
            at: None,
        }
    }

    /// The rule of settings that were checked when they were stored; UTC should they no longer be
    /// valid (a zone dropped from the database).
    pub fn stored(zone_name: &str, at: Option<&str>) -> DeadlineRule {
        DeadlineRule::new(zone_name, at).unwrap_or_else(|_| DeadlineRule::utc())
    }

    /// The rule of a time zone name and an optional `HH:MM`.
    pub fn new(zone_name: &str, at: Option<&str>) -> Result<DeadlineRule, DeadlineError> {
        let zone = TimeZone::get(zone_name).map_err(|_| DeadlineError::UnknownZone(zone_name.to_string()))?;
        let at = match at {
            None => None,
            Some(text) => Some(parse_time(text).ok_or_else(|| DeadlineError::BadTime(text.to_string()))?),
        };
        Ok(DeadlineRule {
            zone,
            zone_name: zone_name.to_string(),
            at,
        })
    }

    /// The deadline of a phase of `seconds` that starts at `now_ms` (milliseconds since 1970).
    pub fn next(&self, now_ms: i64, seconds: i64) -> i64 {
        let earliest = now_ms.saturating_add(seconds.saturating_mul(1000));
        let Some(at) = self.at else {
            return earliest;
        };
        let Ok(t) = Timestamp::from_millisecond(earliest) else {
            return earliest;
        };
        let local = t.to_zoned(self.zone.clone());
        let mut date = local.date();
        // The first local `at` not before the earliest moment; a time that a change to summer
        // time skips moves forward by the gap (02:30 becomes 03:30).
        for _ in 0..3 {
            if let Ok(candidate) = date.to_datetime(at).to_zoned(self.zone.clone()) {
                let ms = candidate.timestamp().as_millisecond();
                if ms >= earliest {
                    return ms;
                }
            }
            match date.checked_add(1.day()) {
                Ok(d) => date = d,
                Err(_) => break,
            }
        }
        earliest
    }

    /// A deadline as local text: `2026-11-21 20:00 CET`.
    pub fn describe(&self, ms: i64) -> String {
        Timestamp::from_millisecond(ms)
            .map(|t| t.to_zoned(self.zone.clone()).strftime("%Y-%m-%d %H:%M %Z").to_string())
            .unwrap_or_default()
    }
}

fn parse_time(text: &str) -> Option<Time> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    Time::new(h, m, 0, 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> i64 {
        text.parse::<Timestamp>().expect("a timestamp").as_millisecond()
    }

    #[test]
    fn without_a_time_of_day_the_deadline_is_the_phase_length_later() {
        let rule = DeadlineRule::new("UTC", None).expect("UTC");
        assert_eq!(rule.next(1_000, 60), 61_000);
    }

    #[test]
    fn a_time_of_day_moves_the_deadline_to_the_next_local_occurrence() {
        let rule = DeadlineRule::new("Europe/Berlin", Some("20:00")).expect("a rule");
        // 10:00 UTC in winter is 11:00 in Berlin; one day later, the next 20:00 CET is 19:00 UTC.
        let deadline = rule.next(ms("2026-11-20T10:00:00Z"), 24 * 3600);
        assert_eq!(deadline, ms("2026-11-21T19:00:00Z"));
        assert_eq!(rule.describe(deadline), "2026-11-21 20:00 CET");
        // Past 20:00 local: the next evening.
        assert_eq!(rule.next(ms("2026-11-20T19:30:00Z"), 0), ms("2026-11-21T19:00:00Z"));
        // In summer 20:00 is 18:00 UTC.
        assert_eq!(rule.next(ms("2026-07-01T08:00:00Z"), 3600), ms("2026-07-01T18:00:00Z"));
    }

    #[test]
    fn a_time_skipped_by_the_change_to_summer_time_comes_right_after_the_gap() {
        let rule = DeadlineRule::new("Europe/Berlin", Some("02:30")).expect("a rule");
        // On 29 March 2026 Berlin's clocks jump from 02:00 to 03:00 (01:00 UTC).
        let deadline = rule.next(ms("2026-03-28T23:00:00Z"), 0);
        assert_eq!(deadline, ms("2026-03-29T01:30:00Z"));
        assert_eq!(rule.describe(deadline), "2026-03-29 03:30 CEST");
    }

    #[test]
    fn unknown_zones_and_bad_times_are_refused() {
        assert_eq!(
            DeadlineRule::new("Mars/Olympus", None),
            Err(DeadlineError::UnknownZone("Mars/Olympus".into()))
        );
        assert_eq!(
            DeadlineRule::new("UTC", Some("25:00")),
            Err(DeadlineError::BadTime("25:00".into()))
        );
        assert!(DeadlineRule::new("UTC", Some("8")).is_err());
    }
}
