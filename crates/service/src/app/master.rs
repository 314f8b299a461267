//! The game master's controls of a running game: extend the deadline (capped), pause and resume
//! the clock, and give a power to a new player. Each change is announced to everyone in the game
//! in the same unit of work.

use super::ports::{Clock, GameStore, GameUnit};
use super::position::power_key;
use crate::domain::{DomainError, Game, GameStatus, MasterAction, MasterError, Notification, Role};
use crate::variants::of_game;

/// The longest single extension.
pub const MAX_EXTENSION_SECONDS: i64 = 7 * 24 * 3600;
/// Extensions allowed per phase.
pub const MAX_EXTENSIONS: i64 = 3;

/// A deadline extended: the new deadline, the extensions of this phase, and the most allowed.
#[derive(Debug, serde::Serialize)]
pub struct Extended {
    /// The new deadline (milliseconds since 1970).
    pub deadline_ms: Option<i64>,
    /// Extensions granted in this phase.
    pub extensions: i64,
    /// The most a phase may have.
    pub max_extensions: i64,
}

/// The clock stopped or started again: whether it stands, and the time left or the deadline.
#[derive(Debug, serde::Serialize)]
pub struct Clocked {
    /// Whether the game is paused now.
    pub paused: bool,
    /// While paused: the time left when it was paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<i64>,
    /// Once resumed: the deadline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<i64>,
}

/// A power given to a new player.
#[derive(Debug, serde::Serialize)]
pub struct Replaced {
    /// The power.
    pub power: String,
    /// The new player's account name as given.
    pub player: String,
}

/// The game, if `me` is its master (else refused for `action`) and it is running.
pub async fn running_game_of_master(
    unit: &mut impl GameUnit,
    me: &str,
    id: &str,
    action: MasterAction,
) -> Result<Game, DomainError> {
    let g = unit.game(id).await?;
    crate::domain::play::master_only(&g, me, action)?;
    if g.status != GameStatus::Active {
        return Err(DomainError::NotRunning);
    }
    Ok(g)
}

/// Tells everyone in the game and commits.
async fn announce(mut unit: impl GameUnit, g: &Game, news: &Notification) -> Result<(), DomainError> {
    for reader in unit.audience(g).await? {
        unit.notify(&g.id, &reader, news).await?;
    }
    unit.commit().await
}

/// Extends the current deadline of `me`'s running game by `seconds`.
pub async fn extend(store: &impl GameStore, me: &str, id: &str, seconds: i64) -> Result<Extended, DomainError> {
    let mut unit = store.begin().await?;
    let g = running_game_of_master(&mut unit, me, id, MasterAction::Extend).await?;
    if !(1..=MAX_EXTENSION_SECONDS).contains(&seconds) {
        return Err(DomainError::Master(MasterError::BadExtension));
    }
    if g.paused_remaining_ms.is_some() {
        return Err(DomainError::Master(MasterError::Paused));
    }
    if !unit.extend_deadline(&g, seconds * 1000, MAX_EXTENSIONS).await? {
        return Err(DomainError::Master(MasterError::ExtensionsUsed(MAX_EXTENSIONS)));
    }
    let now = unit.game(id).await?;
    let news = Notification::DeadlineExtended {
        game: g.name.clone(),
        minutes: seconds / 60,
        deadline: now
            .deadline_ms
            .map(|d| g.deadline_rule().describe(d))
            .unwrap_or_default(),
    };
    announce(unit, &g, &news).await?;
    Ok(Extended {
        deadline_ms: now.deadline_ms,
        extensions: now.extensions,
        max_extensions: MAX_EXTENSIONS,
    })
}

/// Stops the clock of `me`'s running game, keeping the time left.
pub async fn pause(store: &impl GameStore, clock: &impl Clock, me: &str, id: &str) -> Result<Clocked, DomainError> {
    let mut unit = store.begin().await?;
    let g = running_game_of_master(&mut unit, me, id, MasterAction::Pause).await?;
    let remaining = g.deadline_ms.map_or(0, |d| (d - clock.now_ms()).max(0));
    // Only the phase whose deadline was read: an adjudication in between makes this a conflict.
    if !unit.pause(&g, remaining).await? {
        return Err(DomainError::Master(MasterError::PausedAlready));
    }
    announce(unit, &g, &Notification::Paused { game: g.name.clone() }).await?;
    Ok(Clocked {
        paused: true,
        remaining_ms: Some(remaining),
        deadline_ms: None,
    })
}

/// Starts the clock of `me`'s paused game again with the time that was left (at least a minute,
/// so nobody is surprised by an adjudication the moment play resumes).
pub async fn resume(store: &impl GameStore, clock: &impl Clock, me: &str, id: &str) -> Result<Clocked, DomainError> {
    let mut unit = store.begin().await?;
    let g = running_game_of_master(&mut unit, me, id, MasterAction::Resume).await?;
    let remaining = g
        .paused_remaining_ms
        .ok_or(DomainError::Master(MasterError::NotPaused))?;
    let deadline = clock.now_ms() + remaining.max(60_000);
    if !unit.resume(&g.id, deadline).await? {
        return Err(DomainError::Master(MasterError::NotPaused));
    }
    let news = Notification::Resumed {
        game: g.name.clone(),
        deadline: g.deadline_rule().describe(deadline),
    };
    announce(unit, &g, &news).await?;
    Ok(Clocked {
        paused: false,
        remaining_ms: None,
        deadline_ms: Some(deadline),
    })
}

/// Gives `power` of `me`'s running game to the account named `player` (an observer becomes the
/// player; a power nobody played gets its first player). The power's orders and press stay the
/// power's.
pub async fn replace(
    store: &impl GameStore,
    clock: &impl Clock,
    me: &str,
    id: &str,
    power: &str,
    player: &str,
) -> Result<Replaced, DomainError> {
    let mut unit = store.begin().await?;
    let g = running_game_of_master(&mut unit, me, id, MasterAction::Replace).await?;
    let v = of_game(&g)?;
    let power = power_key(&v, power)?;
    let player = player.trim();
    let new = unit
        .account_named(player)
        .await?
        .ok_or(DomainError::Master(MasterError::NoSuchAccount))?;
    let members = unit.members(id).await?;
    let existing = members.iter().find(|m| m.account == new).map(|m| m.role);
    if existing == Some(Role::Player) {
        return Err(DomainError::Master(MasterError::PlaysAlready));
    }
    unit.seat_player(id, &power, &new, existing == Some(Role::Observer), clock.now_ms())
        .await?;
    let news = Notification::NewPlayer {
        game: g.name.clone(),
        player: player.to_string(),
        power: crate::variants::power_name(&v, &power),
    };
    announce(unit, &g, &news).await?;
    Ok(Replaced {
        power,
        player: player.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock, standard_game};
    use crate::domain::PressPolicy;

    const DEADLINE: i64 = 10_000_000;

    fn store() -> FakeStore {
        FakeStore::with(standard_game(PressPolicy::Full, DEADLINE))
    }

    fn game(store: &FakeStore) -> Game {
        store.data.borrow().games["g1"].clone()
    }

    #[tokio::test]
    async fn the_master_extends_a_deadline_three_times_a_phase_and_everyone_hears_of_it() {
        let store = store();
        let refused = extend(&store, "france", "g1", 3600).await.unwrap_err();
        assert_eq!(
            refused,
            DomainError::Master(MasterError::OnlyMaster(MasterAction::Extend))
        );
        for bad in [0, MAX_EXTENSION_SECONDS + 1] {
            assert_eq!(
                extend(&store, "gm", "g1", bad).await.unwrap_err(),
                DomainError::Master(MasterError::BadExtension)
            );
        }
        for n in 1..=3 {
            let done = extend(&store, "gm", "g1", 3600).await.expect("extended");
            assert_eq!((done.extensions, done.deadline_ms), (n, Some(DEADLINE + n * 3_600_000)));
        }
        assert_eq!(
            extend(&store, "gm", "g1", 60).await.unwrap_err(),
            DomainError::Master(MasterError::ExtensionsUsed(3))
        );
        let sent = store.sent();
        assert_eq!(sent.len(), 27);
        assert!(matches!(&sent[0].1, Notification::DeadlineExtended { minutes: 60, .. }));
    }

    #[tokio::test]
    async fn a_paused_clock_keeps_the_time_left_and_resumes_with_at_least_a_minute() {
        let store = store();
        let paused = pause(&store, &FixedClock(DEADLINE - 30_000), "gm", "g1")
            .await
            .expect("paused");
        assert_eq!(paused.remaining_ms, Some(30_000));
        assert_eq!(
            (game(&store).deadline_ms, game(&store).paused_remaining_ms),
            (None, Some(30_000))
        );
        let again = pause(&store, &FixedClock(DEADLINE), "gm", "g1").await.unwrap_err();
        assert_eq!(again, DomainError::Master(MasterError::PausedAlready));
        assert_eq!(
            extend(&store, "gm", "g1", 60).await.unwrap_err(),
            DomainError::Master(MasterError::Paused)
        );
        let resumed = resume(&store, &FixedClock(5), "gm", "g1").await.expect("resumed");
        assert_eq!(resumed.deadline_ms, Some(5 + 60_000));
        assert_eq!(
            resume(&store, &FixedClock(5), "gm", "g1").await.unwrap_err(),
            DomainError::Master(MasterError::NotPaused)
        );
        let told: Vec<_> = store.sent().into_iter().map(|(_, n)| n).collect();
        assert!(matches!(told.first(), Some(Notification::Paused { .. })));
        assert!(matches!(told.last(), Some(Notification::Resumed { .. })));
    }

    #[tokio::test]
    async fn a_power_goes_to_an_observer_and_its_record_starts_afresh() {
        let store = store();
        store.edit_member("italy", |m| {
            m.civil_disorder = true;
            m.missed = 3;
        });
        let done = replace(&store, &FixedClock(1), "gm", "g1", "Italy", " obs ")
            .await
            .expect("replaced");
        assert_eq!((done.power.as_str(), done.player.as_str()), ("ITALY", "obs"));
        let obs = store.member("obs");
        assert_eq!(
            (obs.power.as_deref(), obs.role, obs.missed),
            (Some("ITALY"), Role::Player, 0)
        );
        assert!(!obs.civil_disorder);
        assert!(store.data.borrow().members["g1"].iter().all(|m| m.account != "italy"));
        let refused = replace(&store, &FixedClock(1), "gm", "g1", "France", "obs")
            .await
            .unwrap_err();
        assert_eq!(refused, DomainError::Master(MasterError::PlaysAlready));
        let nobody = replace(&store, &FixedClock(1), "gm", "g1", "France", "nobody")
            .await
            .unwrap_err();
        assert_eq!(nobody, DomainError::Master(MasterError::NoSuchAccount));
        let unknown = replace(&store, &FixedClock(1), "gm", "g1", "Atlantis", "obs")
            .await
            .unwrap_err();
        assert_eq!(unknown, DomainError::UnknownPower("Atlantis".into()));
    }
}
