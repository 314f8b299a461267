//! The options of a game created by mail (`CREATE game password variant [option …]`), in English
//! and German words: each sets one setting of the new game as the API's `POST /api/games` would.
//!
//! | English | German | setting |
//! |---|---|---|
//! | `press=full\|grey\|none` | `presse=voll\|grau\|keine` | press |
//! | `hours=N`, `minutes=N` | `stunden=N`, `minuten=N` | the time of every phase |
//! | `early` | `vorzeitig` | adjudicate once every power is ready |
//! | `nmr=N` | `nmr=N` | missed turns before civil disorder |
//! | `timezone=Europe/Berlin`, `at=20:00` | `zeitzone=…`, `um=20:00` | the game's clock |
//! | `retreats-with-moves` | `rueckzuege-mit-zuegen` | house rule, seed 000 §10b |
//! | `year-at-once` | `jahr-auf-einmal` | house rule, seed 003 |
//! | `ready-names` | `fertig-namen` | everyone sees who is ready |
//! | `calendar=NAME` | `kalender=NAME` | another calendar of the variant |
//! | `control=standard\|alternative` | `kontrolle=standard\|alternativ` | Hegemony 1.1.11 |
//! | `victory=N` | `sieg=N` | Hegemony 4.3.1 |

use crate::api::games::NewGame;

/// Sets the option `word` (`press=grey`, `jahr-auf-einmal`) on the new game; the word back if it
/// names no option or its value cannot be read.
pub(crate) fn apply(game: &mut NewGame, word: &str) -> Result<(), String> {
    let (key, value) = match word.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (word, None),
    };
    let key = crate::names::name_key(key).replace('-', "");
    let number = || value.and_then(|v| v.parse::<i64>().ok()).filter(|n| *n > 0);
    let bad = || word.to_string();
    match (key.as_str(), value) {
        ("press" | "presse", Some(v)) => game.press = press(v).ok_or_else(bad)?.to_string(),
        ("hours" | "stunden", Some(_)) => {
            game.set_phase_seconds(number().and_then(|n| n.checked_mul(3600)).ok_or_else(bad)?)
        }
        ("minutes" | "minuten", Some(_)) => {
            game.set_phase_seconds(number().and_then(|n| n.checked_mul(60)).ok_or_else(bad)?)
        }
        ("early" | "vorzeitig", None) => game.early = true,
        ("nmr", Some(_)) => game.nmr_limit = number().ok_or_else(bad)?,
        ("timezone" | "zeitzone", Some(v)) => game.time_zone = v.to_string(),
        ("at" | "um", Some(v)) => game.deadline_at = Some(v.to_string()),
        ("retreatswithmoves" | "rueckzuegemitzuegen" | "rückzügemitzügen", None) => game.retreats_with_moves = true,
        ("yearatonce" | "jahraufeinmal", None) => game.year_at_once = true,
        ("readynames" | "fertignamen", None) => game.ready_names = true,
        ("calendar" | "kalender", Some(v)) => game.calendar = Some(v.to_string()),
        ("control" | "kontrolle", Some(v)) => game.control_rule = Some(control(v).ok_or_else(bad)?.to_string()),
        ("victory" | "sieg", Some(_)) => {
            game.victory = Some(number().and_then(|n| u8::try_from(n).ok()).ok_or_else(bad)?);
        }
        _ => return Err(bad()),
    }
    Ok(())
}

fn press(word: &str) -> Option<&'static str> {
    match crate::names::name_key(word).as_str() {
        "full" | "voll" => Some("full"),
        "grey" | "gray" | "grau" => Some("grey"),
        "none" | "keine" => Some("none"),
        _ => None,
    }
}

fn control(word: &str) -> Option<&'static str> {
    match crate::names::name_key(word).as_str() {
        "standard" => Some("standard"),
        "alternative" | "alternativ" => Some("alternative"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_and_german_options_set_the_same_settings() {
        let mut en = NewGame::named("g", "standard");
        let mut de = NewGame::named("g", "standard");
        for w in [
            "press=grey",
            "hours=48",
            "early",
            "year-at-once",
            "ready-names",
            "nmr=3",
            "at=20:00",
        ] {
            apply(&mut en, w).expect("read");
        }
        for w in [
            "presse=grau",
            "stunden=48",
            "vorzeitig",
            "jahr-auf-einmal",
            "fertig-namen",
            "nmr=3",
            "um=20:00",
        ] {
            apply(&mut de, w).expect("read");
        }
        for g in [&en, &de] {
            assert_eq!(
                (g.press.as_str(), g.movement_seconds, g.adjustment_seconds),
                ("grey", 48 * 3600, 48 * 3600)
            );
            assert!(g.early && g.year_at_once && g.ready_names && !g.retreats_with_moves);
            assert_eq!((g.nmr_limit, g.deadline_at.as_deref()), (3, Some("20:00")));
        }
        for wrong in [
            "press=loud",
            "hours=0",
            "hours=x",
            "hours=9999999999999999",
            "colour=red",
            "early=yes",
            "victory=300",
        ] {
            assert_eq!(apply(&mut en, wrong), Err(wrong.to_string()), "{wrong}");
        }
    }
}
