//! Games: creation with checked settings, joining with power preferences, and the start with its
//! published, seeded lot.

use spielleiter_engine::interchange::{GameState, position_from_state, state_from_position};
use spielleiter_engine::{Position, Variant};

use super::ports::{Clock, GameStore, GameUnit, Unit};
use super::position::power_key;
use crate::domain::{DomainError, Game, GameSettings, GameStatus, MasterAction, Notification, Role, RuleOptions};
use crate::domain::{SeatError, SettingError};
use crate::variants::{of_game, variant};

/// A game created: its id, name and variant, forming.
#[derive(Debug, serde::Serialize)]
pub struct CreatedGame {
    /// The new game's id.
    pub id: String,
    /// Its name as given, trimmed.
    pub name: String,
    /// Its variant.
    pub variant: String,
    /// Forming.
    pub status: GameStatus,
}

/// A new game as stored: its id, the key its name compares by, its master and its settings.
#[derive(Debug, Clone)]
pub struct NewGameRecord {
    /// The id.
    pub id: String,
    /// The name's key ([`crate::names::name_key`]).
    pub name_key: String,
    /// The master's account.
    pub master: String,
    /// The settings, checked (the name trimmed).
    pub settings: GameSettings,
    /// When it was created.
    pub created_ms: i64,
}

/// Creates a game with `me` as its master after checking every setting.
pub async fn create(
    store: &impl GameStore,
    clock: &impl Clock,
    me: &str,
    settings: &GameSettings,
) -> Result<CreatedGame, DomainError> {
    let v = variant(&settings.variant)?;
    settings.check()?;
    check_options(&v, &settings.options)?;
    crate::deadlines::DeadlineRule::new(&settings.time_zone, settings.deadline_at.as_deref())
        .map_err(|e| DomainError::Setting(SettingError::BadDeadlineRule(e.to_string())))?;
    let name = settings.name.trim();
    if !crate::names::is_game_name(name) {
        return Err(DomainError::Setting(SettingError::BadGameName));
    }
    let record = NewGameRecord {
        id: crate::auth::new_id(),
        name_key: crate::names::name_key(name),
        master: me.to_string(),
        settings: GameSettings {
            name: name.to_string(),
            deadline_at: settings.deadline_at.as_ref().map(|t| t.trim().to_string()),
            ..settings.clone()
        },
        created_ms: clock.now_ms(),
    };
    let mut unit = store.begin().await?;
    if !unit.insert_game(&record).await? {
        return Err(DomainError::Setting(SettingError::GameNameTaken(name.to_string())));
    }
    unit.commit().await?;
    Ok(CreatedGame {
        id: record.id,
        name: name.to_string(),
        variant: settings.variant.clone(),
        status: GameStatus::Forming,
    })
}

/// The start state of variant `v` with the game's options in it.
fn start_state(v: &Variant, position: &Position, options: &RuleOptions) -> GameState {
    let mut state = state_from_position(v, position);
    state.options.control_rule = options.control_rule.clone();
    state.options.victory = options.victory;
    state.options.retreats_with_moves = options.retreats_with_moves;
    state.options.calendar = options.calendar.clone();
    state
}

/// Refuses game options the variant does not have or allow: the engine reads them from the
/// variant's start state as it will at the start.
fn check_options(v: &Variant, options: &RuleOptions) -> Result<(), DomainError> {
    if options.is_empty() {
        return Ok(());
    }
    let state = start_state(v, &Position::initial(v), options);
    position_from_state(v, &state)
        .map(|_| ())
        .map_err(|e| DomainError::Setting(SettingError::BadRuleOption(e.to_string())))
}

/// A member added: the game, the role, and the preferences as read.
#[derive(Debug, serde::Serialize)]
pub struct Joined {
    /// The game's id.
    pub game: String,
    /// Player or observer.
    pub role: Role,
    /// The powers wished for, in order, by key.
    pub preferences: Vec<String>,
}

/// Adds `me` to a forming game as a player with a preference list of powers (each once), or to
/// any game as an observer.
pub async fn join(
    store: &impl GameStore,
    clock: &impl Clock,
    me: &str,
    id: &str,
    wanted: &[String],
    observer: bool,
) -> Result<Joined, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    let preferences = wishes_of(&g, wanted)?;
    let role = if observer { Role::Observer } else { Role::Player };
    if role == Role::Player {
        // Locks the game: concurrent joins are counted one after the other.
        if !unit.lock_forming(id).await? {
            return Err(DomainError::Seat(SeatError::JoinAsObserver));
        }
        let players = unit
            .members(id)
            .await?
            .iter()
            .filter(|m| m.role == Role::Player)
            .count();
        if players >= of_game(&g)?.map.powers().len() {
            return Err(DomainError::Seat(SeatError::GameFull));
        }
    }
    if !unit.add_member(id, me, role, &preferences, clock.now_ms()).await? {
        return Err(DomainError::Seat(SeatError::MemberAlready));
    }
    unit.commit().await?;
    Ok(Joined {
        game: id.to_string(),
        role,
        preferences,
    })
}

/// The powers wished for, as keys, each once; a name that is no power a player can play is
/// refused.
fn wishes_of(g: &Game, wanted: &[String]) -> Result<Vec<String>, DomainError> {
    let v = of_game(g)?;
    let mut preferences: Vec<String> = Vec::new();
    for p in wanted {
        let key = power_key(&v, p)?;
        // A neutral country (Hegemony) has a name but no player: a wish for it would be lost.
        if !v.map.powers().iter().any(|power| power.key.eq_ignore_ascii_case(&key)) {
            return Err(DomainError::NotPlayable(p.clone()));
        }
        if !preferences.contains(&key) {
            preferences.push(key);
        }
    }
    Ok(preferences)
}

/// `me` leaves a game that has not started (a player or an observer).
pub async fn leave(store: &impl GameStore, me: &str, id: &str) -> Result<(), DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    if g.status != GameStatus::Forming {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    // Locks the game against a start meanwhile (the lot must see the members it published).
    if !unit.lock_forming(id).await? {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    if !unit.remove_member(id, me).await? {
        return Err(DomainError::Seat(SeatError::NotJoined));
    }
    unit.commit().await
}

/// A player of a game that has not started wishes for other powers; returns them as keys.
pub async fn change_wishes(
    store: &impl GameStore,
    me: &str,
    id: &str,
    wanted: &[String],
) -> Result<Vec<String>, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    if g.status != GameStatus::Forming {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    let preferences = wishes_of(&g, wanted)?;
    if !unit.lock_forming(id).await? {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    let player = unit
        .members(id)
        .await?
        .iter()
        .any(|m| m.account == me && m.role == Role::Player);
    if !player || !unit.set_wishes(id, me, &preferences).await? {
        return Err(DomainError::Seat(SeatError::NotJoined));
    }
    unit.commit().await?;
    Ok(preferences)
}

/// A game started: its lot's seed and first phase.
#[derive(Debug, serde::Serialize)]
pub struct Started {
    /// The game's id.
    pub game: String,
    /// Active.
    pub status: GameStatus,
    /// The seed of the lot that settled equal wishes (published).
    pub lot_seed: i64,
    /// The first phase.
    pub phase: String,
}

/// Starts a forming game (master only): powers by preference, ties by the lot seeded with
/// `seed`; tells each player the power and the first deadline.
pub async fn start(
    store: &impl GameStore,
    clock: &impl Clock,
    me: &str,
    id: &str,
    seed: i64,
) -> Result<Started, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(id).await?;
    crate::domain::play::master_only(&g, me, MasterAction::Start)?;
    if g.status != GameStatus::Forming {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    let v = of_game(&g)?;
    let position = Position::initial(&v);
    let phase = position.phase.to_string();
    let rule = g.deadline_rule();
    // The first phase's own length (a Hegemony game starts in winter).
    let deadline = rule.next(clock.now_ms(), g.phase_seconds(position.phase.kind));
    // Claims the start (a second start, or a join at the same moment, waits and then finds the
    // game running).
    if !unit
        .start_game(id, seed, &start_state(&v, &position, &g.options), deadline, &phase)
        .await?
    {
        return Err(DomainError::Seat(SeatError::StartedAlready));
    }
    let wishes = unit.wishes(id).await?;
    let powers: Vec<String> = v.map.powers().iter().map(|p| p.key.to_ascii_uppercase()).collect();
    if wishes.len() < 2 || wishes.len() > powers.len() {
        return Err(DomainError::Seat(SeatError::PlayerCount(powers.len())));
    }
    let preferences: Vec<Vec<String>> = wishes.iter().map(|(_, w)| w.clone()).collect();
    let assigned = crate::lot::assign(seed as u64, &preferences, &powers);
    let members = unit.members(id).await?;
    for ((account, _), power) in wishes.iter().zip(&assigned) {
        unit.assign_power(id, account, power).await?;
        let news = Notification::GameStarted {
            game: g.name.clone(),
            power: crate::variants::power_name(&v, power),
            seed,
            first_deadline: rule.describe(deadline),
            retreats_with_moves: g.options.retreats_with_moves,
            year_at_once: g.options.year_at_once,
        };
        let lang = members.iter().find(|m| &m.account == account).map(|m| m.lang);
        let lang = lang.ok_or_else(|| DomainError::Unreadable("a player's membership".into()))?;
        unit.notify(id, &(account.clone(), lang), &news).await?;
    }
    unit.commit().await?;
    Ok(Started {
        game: id.to_string(),
        status: GameStatus::Active,
        lot_seed: seed,
        phase,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock};
    use crate::domain::{MasterError, PressPolicy};

    fn settings(name: &str) -> GameSettings {
        GameSettings {
            name: name.into(),
            variant: "standard".into(),
            press: PressPolicy::Grey,
            seconds: [3600, 1800, 1800],
            early: true,
            nmr_limit: 3,
            grace_seconds: 600,
            time_zone: "Europe/Berlin".into(),
            deadline_at: Some(" 20:00 ".into()),
            reminder_hours: 0,
            options: RuleOptions::default(),
        }
    }

    async fn new_game(store: &FakeStore) -> String {
        create(store, &FixedClock(0), "gm", &settings("  Zugspitze "))
            .await
            .expect("created")
            .id
    }

    #[tokio::test]
    async fn a_game_is_created_with_checked_settings_and_a_name_nobody_has() {
        let store = FakeStore::default();
        let created = create(&store, &FixedClock(0), "gm", &settings("  Zugspitze "))
            .await
            .expect("created");
        assert_eq!(
            (created.name.as_str(), created.status),
            ("Zugspitze", GameStatus::Forming)
        );
        let g = store.data.borrow().games[&created.id].clone();
        assert_eq!(
            (g.press, g.seconds, g.deadline_at.as_deref()),
            (PressPolicy::Grey, [3600, 1800, 1800], Some("20:00"))
        );
        let taken = create(&store, &FixedClock(0), "other", &settings("ZUGSPITZE"))
            .await
            .unwrap_err();
        assert_eq!(
            taken,
            DomainError::Setting(SettingError::GameNameTaken("ZUGSPITZE".into()))
        );
        let refusals = [
            (
                GameSettings {
                    name: " ".into(),
                    ..settings("a")
                },
                SettingError::BadGameName,
            ),
            (
                GameSettings {
                    nmr_limit: 0,
                    ..settings("b")
                },
                SettingError::BadNmrLimit,
            ),
            (
                GameSettings {
                    time_zone: "Mars/Olympus".into(),
                    ..settings("c")
                },
                SettingError::BadDeadlineRule(String::new()),
            ),
        ];
        for (s, expected) in refusals {
            let e = create(&store, &FixedClock(0), "gm", &s).await.unwrap_err();
            match (e, expected) {
                (DomainError::Setting(SettingError::BadDeadlineRule(why)), SettingError::BadDeadlineRule(_)) => {
                    assert!(why.contains("Mars/Olympus"), "{why}")
                }
                (e, expected) => assert_eq!(e, DomainError::Setting(expected)),
            }
        }
        let unknown = GameSettings {
            variant: "chess".into(),
            ..settings("d")
        };
        assert_eq!(
            create(&store, &FixedClock(0), "gm", &unknown).await.unwrap_err(),
            DomainError::UnknownVariant("chess".into())
        );
        assert_eq!(store.data.borrow().games.len(), 1);
    }

    #[tokio::test]
    async fn players_join_once_with_their_wishes_until_the_game_is_full_or_started() {
        let store = FakeStore::default();
        let id = new_game(&store).await;
        let wishes = ["France".to_string(), "fra".to_string(), "England".to_string()];
        let joined = join(&store, &FixedClock(1), "ann", &id, &wishes[..1], false)
            .await
            .expect("joined");
        assert_eq!(
            (joined.role, joined.preferences.as_slice()),
            (Role::Player, ["FRANCE".to_string()].as_slice())
        );
        let again = join(&store, &FixedClock(1), "ann", &id, &[], true).await.unwrap_err();
        assert_eq!(again, DomainError::Seat(SeatError::MemberAlready));
        let bad = join(&store, &FixedClock(1), "bob", &id, &["Atlantis".to_string()], false)
            .await
            .unwrap_err();
        assert_eq!(bad, DomainError::UnknownPower("Atlantis".into()));
        for p in ["b", "c", "d", "e", "f", "g"] {
            join(&store, &FixedClock(1), p, &id, &[], false).await.expect("joined");
        }
        let full = join(&store, &FixedClock(1), "h", &id, &[], false).await.unwrap_err();
        assert_eq!(full, DomainError::Seat(SeatError::GameFull));
        assert_eq!(
            join(&store, &FixedClock(1), "h", &id, &[], true)
                .await
                .expect("observer")
                .role,
            Role::Observer
        );
    }

    #[tokio::test]
    async fn the_master_starts_by_wishes_and_a_published_lot_and_tells_each_player_the_power() {
        let store = FakeStore::default();
        let id = new_game(&store).await;
        let refused = start(&store, &FixedClock(0), "gm", &id, 7).await.unwrap_err();
        assert_eq!(refused, DomainError::Seat(SeatError::PlayerCount(7)));
        assert_eq!(store.data.borrow().games[&id].status, GameStatus::Forming);
        join(&store, &FixedClock(1), "ann", &id, &["Turkey".to_string()], false)
            .await
            .expect("joined");
        join(&store, &FixedClock(1), "bob", &id, &["Turkey".to_string()], false)
            .await
            .expect("joined");
        let not_master = start(&store, &FixedClock(0), "ann", &id, 7).await.unwrap_err();
        assert_eq!(
            not_master,
            DomainError::Master(MasterError::OnlyMaster(MasterAction::Start))
        );
        let started = start(&store, &FixedClock(0), "gm", &id, 7).await.expect("started");
        assert_eq!((started.lot_seed, started.phase.as_str()), (7, "S1901M"));
        {
            let data = store.data.borrow();
            let powers: Vec<_> = data.members[&id].iter().filter_map(|m| m.power.clone()).collect();
            assert_eq!(powers.len(), 2);
            assert!(powers.contains(&"TURKEY".to_string()));
            // The same seed gives the same lot.
            let expected = crate::lot::assign(
                7,
                &[vec!["TURKEY".into()], vec!["TURKEY".into()]],
                &POWER_KEYS.map(String::from),
            );
            assert_eq!(powers, expected);
            assert_eq!(data.outbox.len(), 2);
            assert!(
                data.outbox
                    .iter()
                    .all(|(_, _, _, n)| matches!(n, Notification::GameStarted { seed: 7, .. }))
            );
        }
        let again = start(&store, &FixedClock(0), "gm", &id, 8).await.unwrap_err();
        assert_eq!(again, DomainError::Seat(SeatError::StartedAlready));
        let late = join(&store, &FixedClock(1), "cid", &id, &[], false).await.unwrap_err();
        assert_eq!(late, DomainError::Seat(SeatError::JoinAsObserver));
    }

    #[tokio::test]
    async fn game_options_are_checked_against_the_variant_and_start_in_its_first_state() {
        let store = FakeStore::default();
        let options = |control: Option<&str>, victory: Option<u8>| RuleOptions {
            control_rule: control.map(str::to_string),
            victory,
            ..RuleOptions::default()
        };
        let standard = GameSettings {
            options: options(None, Some(3)),
            ..settings("Plain")
        };
        let refused = create(&store, &FixedClock(0), "gm", &standard).await.unwrap_err();
        assert!(
            matches!(&refused, DomainError::Setting(SettingError::BadRuleOption(why)) if why.contains("political")),
            "{refused:?}"
        );
        let hegemony = |name: &str, o: RuleOptions| GameSettings {
            variant: "hegemony-1701".into(),
            deadline_at: None,
            options: o,
            ..settings(name)
        };
        for (control, victory) in [(Some("feudal"), None), (None, Some(6))] {
            let bad = hegemony("Bad", options(control, victory));
            let refused = create(&store, &FixedClock(0), "gm", &bad).await.unwrap_err();
            assert!(
                matches!(refused, DomainError::Setting(SettingError::BadRuleOption(_))),
                "{refused:?}"
            );
        }
        let good = hegemony("Europa", options(Some("alternative"), Some(3)));
        let id = create(&store, &FixedClock(0), "gm", &good).await.expect("created").id;
        for p in ["ann", "bob"] {
            join(&store, &FixedClock(1), p, &id, &[], false).await.expect("joined");
        }
        let neutral = join(&store, &FixedClock(1), "cid", &id, &["Bavaria".to_string()], false).await;
        assert_eq!(neutral.unwrap_err(), DomainError::NotPlayable("Bavaria".into()));
        let started = start(&store, &FixedClock(0), "gm", &id, 1).await.expect("started");
        let data = store.data.borrow();
        let g = &data.games[&id];
        let state: GameState = serde_json::from_str(g.state_json.as_deref().expect("a state")).expect("JSON");
        assert_eq!(
            (state.options.control_rule.as_deref(), state.options.victory),
            (Some("alternative"), Some(3))
        );
        // Hegemony starts in winter: the first deadline is an adjustment phase's (30 minutes).
        assert!(started.phase.starts_with('W'), "{}", started.phase);
        assert_eq!(g.deadline_ms, Some(1_800_000));
    }

    const POWER_KEYS: [&str; 7] = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"];
}
