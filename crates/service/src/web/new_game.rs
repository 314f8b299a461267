//! The new-game form of the games page: every setting the API offers (times per kind of phase,
//! early adjudication, missed-turn limit, grace period, time zone and hour of the deadlines,
//! reminders, the variant's and the house rules), and after a refusal the form again with what
//! was typed and why it was refused.

use super::Form;
use crate::api::games::NewGame;
use crate::error::ApiError;

/// The new-game form's values as typed (text, as the inputs hold them), or the defaults.
pub(crate) struct GameForm {
    pub(crate) name: String,
    pub(crate) variant: String,
    pub(crate) press: String,
    /// Minutes per movement phase; retreat and build phases take these when left empty.
    pub(crate) minutes: String,
    pub(crate) retreat_minutes: String,
    pub(crate) build_minutes: String,
    pub(crate) early: bool,
    pub(crate) nmr_limit: String,
    pub(crate) grace_minutes: String,
    pub(crate) time_zone: String,
    /// `HH:MM`, or empty for none.
    pub(crate) deadline_at: String,
    pub(crate) reminder_hours: String,
    pub(crate) control_rule: String,
    pub(crate) victory: String,
    pub(crate) calendar: String,
    pub(crate) retreats_with_moves: bool,
    pub(crate) year_at_once: bool,
    pub(crate) ready_names: bool,
    /// Why the last attempt was refused.
    pub(crate) refusal: Option<String>,
}

impl GameForm {
    /// The form as a new page shows it.
    pub(crate) fn defaults() -> GameForm {
        GameForm {
            name: String::new(),
            variant: "standard".into(),
            press: "full".into(),
            minutes: "1440".into(),
            retreat_minutes: String::new(),
            build_minutes: String::new(),
            early: false,
            nmr_limit: "2".into(),
            grace_minutes: "0".into(),
            time_zone: "UTC".into(),
            deadline_at: String::new(),
            reminder_hours: "24".into(),
            control_rule: String::new(),
            victory: String::new(),
            calendar: String::new(),
            retreats_with_moves: false,
            year_at_once: false,
            ready_names: false,
            refusal: None,
        }
    }

    /// The form as posted.
    pub(crate) fn posted(form: &Form) -> GameForm {
        let text = |k: &str| form.get(k).trim().to_string();
        let tick = |k: &str| form.get(k) == "1";
        GameForm {
            name: form.get("name").to_string(),
            variant: text("variant"),
            press: text("press"),
            minutes: text("minutes"),
            retreat_minutes: text("retreat_minutes"),
            build_minutes: text("build_minutes"),
            early: tick("early"),
            nmr_limit: text("nmr_limit"),
            grace_minutes: text("grace_minutes"),
            time_zone: text("time_zone"),
            deadline_at: text("deadline_at"),
            reminder_hours: text("reminder_hours"),
            control_rule: text("control_rule"),
            victory: text("victory"),
            calendar: text("calendar"),
            retreats_with_moves: tick("retreats_with_moves"),
            year_at_once: tick("year_at_once"),
            ready_names: tick("ready_names"),
            refusal: None,
        }
    }

    /// The game the form asks for; a field that is no number where one is wanted is refused
    /// with its name (the service checks the ranges and the rest).
    pub(crate) fn new_game(&self) -> Result<NewGame, ApiError> {
        let movement = seconds(&self.minutes, "minutes", "Minuten je Bewegungsphase")?;
        let or_movement = |text: &str, en: &str, de: &str| match text {
            "" => Ok(movement),
            t => seconds(t, en, de),
        };
        Ok(NewGame {
            name: self.name.clone(),
            variant: or(&self.variant, "standard"),
            press: or(&self.press, "full"),
            movement_seconds: movement,
            retreat_seconds: or_movement(&self.retreat_minutes, "retreat minutes", "Minuten je Rückzugsphase")?,
            adjustment_seconds: or_movement(&self.build_minutes, "build minutes", "Minuten je Winterphase")?,
            early: self.early,
            nmr_limit: whole(&self.nmr_limit, 2, "missed turns", "verpasste Züge")?,
            grace_seconds: match self.grace_minutes.as_str() {
                "" | "0" => 0,
                t => seconds(t, "grace minutes", "Minuten Nachfrist")?,
            },
            time_zone: Some(self.time_zone.clone())
                .filter(|z| !z.is_empty())
                .unwrap_or_else(|| "UTC".into()),
            deadline_at: Some(self.deadline_at.clone()).filter(|a| !a.is_empty()),
            reminder_hours: whole(&self.reminder_hours, 24, "reminder hours", "Stunden für die Erinnerung")?,
            control_rule: Some(self.control_rule.clone()).filter(|r| !r.is_empty()),
            victory: self.victory.parse().ok(),
            retreats_with_moves: self.retreats_with_moves,
            year_at_once: self.year_at_once,
            ready_names: self.ready_names,
            calendar: Some(self.calendar.clone()).filter(|c| !c.is_empty()),
        })
    }
}

/// `text`, or `default` when it is empty.
fn or(text: &str, default: &str) -> String {
    if text.is_empty() { default } else { text }.to_string()
}

/// A number of minutes (decimals with a point or comma) as whole seconds, at least one.
fn seconds(text: &str, en: &str, de: &str) -> Result<i64, ApiError> {
    let minutes: f64 = text.replace(',', ".").parse().unwrap_or(f64::NAN);
    if !minutes.is_finite() || minutes <= 0.0 || minutes > 60.0 * 24.0 * 365.0 {
        return Err(not_a_number(en, de));
    }
    Ok((minutes * 60.0).round().max(1.0) as i64)
}

/// A whole number (`default` when left empty).
fn whole(text: &str, default: i64, en: &str, de: &str) -> Result<i64, ApiError> {
    match text {
        "" => Ok(default),
        t => t.parse().map_err(|_| not_a_number(en, de)),
    }
}

fn not_a_number(en: &str, de: &str) -> ApiError {
    ApiError::bad_request("bad_number", format!("{en}: a positive number")).de(format!("{de}: eine positive Zahl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(fields: &[(&str, &str)]) -> GameForm {
        GameForm::posted(&Form(
            fields.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ))
    }

    #[test]
    fn empty_retreat_and_build_times_take_the_movement_time_and_numbers_are_checked() {
        let defaults = GameForm::defaults().new_game().expect("the defaults make a game");
        assert_eq!((defaults.movement_seconds, defaults.nmr_limit), (86_400, 2));
        let posted = form(&[
            ("name", "G"),
            ("minutes", "90"),
            ("build_minutes", "1,5"),
            ("nmr_limit", "3"),
            ("grace_minutes", "30"),
            ("reminder_hours", "0"),
            ("early", "1"),
            ("deadline_at", "20:00"),
            ("time_zone", "Europe/Berlin"),
        ])
        .new_game()
        .expect("a game");
        assert_eq!(
            (
                posted.movement_seconds,
                posted.retreat_seconds,
                posted.adjustment_seconds
            ),
            (5400, 5400, 90)
        );
        assert_eq!(
            (posted.grace_seconds, posted.reminder_hours, posted.early),
            (1800, 0, true)
        );
        assert_eq!(posted.deadline_at.as_deref(), Some("20:00"));
        for bad in [
            ("minutes", "soon"),
            ("minutes", "-5"),
            ("nmr_limit", "two"),
            ("grace_minutes", "x"),
        ] {
            let mut fields = vec![("minutes", "60")];
            fields.retain(|(k, _)| *k != bad.0);
            fields.push(bad);
            assert!(form(&fields).new_game().is_err(), "{bad:?}");
        }
    }
}
