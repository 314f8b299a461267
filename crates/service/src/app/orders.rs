//! Orders: where a player gives them (the desk), keeping a power's lines for the phase at hand,
//! and reading them back with what waits for later phases.

use std::sync::Arc;

use spielleiter_engine::report::{Lang, politics_summary};
use spielleiter_engine::{Position, PowerId, Variant};

use super::ports::{Clock, GameUnit};
use super::position::current_position;
use super::turns::readiness;
use crate::domain::{DomainError, Game, GameStatus};
use crate::variants::of_game;

/// Where a player gives orders: the running game, its variant, the position, and the power.
#[derive(Debug, Clone)]
pub struct Desk {
    /// The game.
    pub game: Game,
    /// Its variant.
    pub variant: Arc<Variant>,
    /// The position to order in.
    pub position: Position,
    /// The player's power, by key.
    pub power_key: String,
    /// The same power on the map.
    pub power: PowerId,
}

impl Desk {
    /// The phase ordered for (`S1901M`).
    pub fn phase(&self) -> String {
        self.position.phase.to_string()
    }
}

/// The desk of `me` in game `id`: refused unless the game runs and `me` plays a power in it.
pub async fn desk(unit: &mut impl GameUnit, me: &str, id: &str) -> Result<Desk, DomainError> {
    let game = unit.game(id).await?;
    if game.status != GameStatus::Active {
        return Err(DomainError::NotRunning);
    }
    seat(unit, game, me, DomainError::OnlyPlayersOrder).await
}

/// The desk of `me` in game `id` whatever its status (to read orders against the position):
/// refused unless `me` plays a power in it and the game has a position to order in.
pub async fn reading_desk(unit: &mut impl GameUnit, me: &str, id: &str) -> Result<Desk, DomainError> {
    let game = unit.game(id).await?;
    seat(unit, game, me, DomainError::OnlyPlayersOrder).await
}

/// `me`'s place in `game`: its power and the position, or `refusal` if `me` plays none.
async fn seat(unit: &mut impl GameUnit, game: Game, me: &str, refusal: DomainError) -> Result<Desk, DomainError> {
    let power_key = unit
        .members(&game.id)
        .await?
        .into_iter()
        .find(|m| m.account == me)
        .and_then(|m| m.played_power().map(str::to_string))
        .ok_or(refusal)?;
    let variant = of_game(&game)?;
    let (_, position) = current_position(&variant, &game)?;
    let power = variant.map.power_by_name(&power_key).ok_or_else(|| {
        eprintln!("game {}: a member plays the unknown power {power_key}", game.id);
        DomainError::Unreadable("a member's power".into())
    })?;
    Ok(Desk {
        game,
        variant,
        position,
        power_key,
        power,
    })
}

/// Keeps `lines` as the desk's power's orders for the phase, replacing earlier ones, marked final
/// (`ready`) or not, if the phase is still open (an adjudication in progress is waited for, then
/// this is refused: orders are never kept for a past phase). Every line is kept as sent; they are
/// read again against the position when the phase is adjudicated. A new submission that is not
/// marked ready takes back an earlier mark.
pub async fn keep(
    unit: &mut impl GameUnit,
    clock: &impl Clock,
    desk: &Desk,
    lines: &[String],
    ready: bool,
) -> Result<(), DomainError> {
    let phase = desk.phase();
    if !unit
        .replace_orders(&desk.game.id, &desk.power_key, &phase, lines, clock.now_ms(), ready)
        .await?
    {
        return Err(DomainError::PhaseClosed(phase));
    }
    Ok(())
}

/// Marks the desk's power's orders for the phase final (`ready`) or takes the mark back, without
/// sending them again; without orders sent its units hold.
pub async fn mark_ready(
    unit: &mut impl GameUnit,
    clock: &impl Clock,
    desk: &Desk,
    ready: bool,
) -> Result<(), DomainError> {
    let phase = desk.phase();
    if !unit
        .set_ready(&desk.game.id, &desk.power_key, &phase, ready, clock.now_ms())
        .await?
    {
        return Err(DomainError::PhaseClosed(phase));
    }
    Ok(())
}

/// Whether the game adjudicates now because every awaited power's orders are final.
pub async fn complete_early(unit: &mut impl GameUnit, g: &Game) -> Result<bool, DomainError> {
    Ok(g.early && g.paused_remaining_ms.is_none() && readiness(unit, g).await?.complete())
}

/// A player's stored orders: those for the current phase and those waiting for later phases.
#[derive(Debug, serde::Serialize)]
pub struct StoredOrders {
    /// The current phase.
    pub phase: String,
    /// The player's power.
    pub power: String,
    /// The lines stored for the current phase.
    pub orders: Vec<String>,
    /// Lines waiting for later phases (`PHASE: order`).
    pub pending: Vec<String>,
    /// Whether the player marked the orders for the current phase final.
    pub ready: bool,
    /// The player's own political factors, influence and control (Hegemony; none elsewhere),
    /// never another player's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub politics: Vec<String>,
}

/// `me`'s orders for the current phase, and those waiting for later phases.
pub async fn mine(unit: &mut impl GameUnit, me: &str, id: &str) -> Result<StoredOrders, DomainError> {
    let game = unit.game(id).await?;
    let desk = seat(unit, game, me, DomainError::OnlyPlayersHaveOrders).await?;
    let phase = desk.phase();
    let lines = unit.orders_of(id, &desk.power_key, &phase).await?.unwrap_or_default();
    // Orders sent earlier for a phase these lines give orders for are replaced by them.
    let replaced =
        spielleiter_engine::game::phases_ordered(&desk.variant, desk.position.phase, lines.iter().map(String::as_str));
    let pending = desk
        .game
        .pending
        .of(&desk.power_key)
        .into_iter()
        .filter(|l| spielleiter_engine::adjudication::pending_phase(l).is_none_or(|p| !replaced.contains(&p)))
        .collect();
    let politics = politics_summary(&desk.variant, &desk.position, desk.power, Lang::En);
    let marks = unit.ordered_powers(id, &phase).await?;
    let ready = marks.iter().any(|(p, ready)| *ready && p == &desk.power_key);
    Ok(StoredOrders {
        phase,
        power: desk.power_key,
        orders: lines,
        pending,
        ready,
        politics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock, standard_game};
    use crate::app::ports::{GameStore, Unit};
    use crate::domain::PressPolicy;

    async fn keep_as(store: &FakeStore, me: &str, lines: &[&str]) -> Result<(), DomainError> {
        let mut unit = store.begin().await.expect("a unit");
        let desk = desk(&mut unit, me, "g1").await?;
        let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        keep(&mut unit, &FixedClock(1), &desk, &lines, false).await?;
        unit.commit().await
    }

    async fn mine_of(store: &FakeStore, me: &str) -> Result<StoredOrders, DomainError> {
        mine(&mut store.begin().await.expect("a unit"), me, "g1").await
    }

    #[tokio::test]
    async fn a_player_keeps_orders_for_the_phase_and_new_ones_replace_them() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        keep_as(&store, "france", &["A Par - Bur", "F Bre - Mid"])
            .await
            .expect("kept");
        keep_as(&store, "france", &["A Par - Pic", "F1901M: A Pic - Bel"])
            .await
            .expect("kept");
        let mine = mine_of(&store, "france").await.expect("orders");
        assert_eq!((mine.phase.as_str(), mine.power.as_str()), ("S1901M", "FRANCE"));
        assert_eq!(mine.orders, ["A Par - Pic", "F1901M: A Pic - Bel"]);
        assert_eq!(
            mine_of(&store, "germany").await.expect("orders").orders,
            Vec::<String>::new()
        );
    }

    #[tokio::test]
    async fn a_player_reads_the_own_political_standing_and_nobody_elses() {
        use crate::app::games::{create, join, start};
        let store = FakeStore::default();
        let settings = crate::domain::GameSettings {
            name: "Europa".into(),
            variant: "hegemony-1701".into(),
            press: PressPolicy::Full,
            seconds: [3600; 3],
            early: false,
            nmr_limit: 2,
            grace_seconds: 0,
            time_zone: "UTC".into(),
            deadline_at: None,
            reminder_hours: 0,
            options: Default::default(),
        };
        let id = create(&store, &FixedClock(0), "gm", &settings)
            .await
            .expect("created")
            .id;
        for (p, wish) in [("ann", "Austria"), ("bob", "England")] {
            join(&store, &FixedClock(0), p, &id, &[wish.to_string()], false)
                .await
                .expect("joined");
        }
        start(&store, &FixedClock(0), "gm", &id, 1).await.expect("started");
        let read = |me: &'static str| {
            let (store, id) = (&store, id.clone());
            async move { mine(&mut store.begin().await.expect("a unit"), me, &id).await }
        };
        let ann = read("ann").await.expect("Austria's");
        assert_eq!(ann.power, "AUSTRIA");
        assert!(
            ann.politics[0].starts_with("Political factors in stock: "),
            "{:?}",
            ann.politics
        );
        let bob = read("bob").await.expect("England's");
        assert_eq!(bob.power, "ENGLAND");
        assert!(
            bob.politics[0].starts_with("Political factors in stock: "),
            "{:?}",
            bob.politics
        );
        assert_eq!(read("gm").await.unwrap_err(), DomainError::OnlyPlayersHaveOrders);
        let standard = FakeStore::with(standard_game(PressPolicy::Full, 0));
        assert!(mine_of(&standard, "france").await.expect("orders").politics.is_empty());
    }

    #[tokio::test]
    async fn only_players_of_a_running_game_keep_orders() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        for me in ["obs", "gm", "stranger"] {
            assert_eq!(
                keep_as(&store, me, &["A Par H"]).await.unwrap_err(),
                DomainError::OnlyPlayersOrder
            );
        }
        store.edit_game(|g| g.status = GameStatus::Finished);
        assert_eq!(
            keep_as(&store, "france", &["A Par H"]).await.unwrap_err(),
            DomainError::NotRunning
        );
        assert!(store.data.borrow().orders.is_empty());
    }

    #[tokio::test]
    async fn a_player_reads_the_own_orders_also_when_the_game_has_ended_by_agreement() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        keep_as(&store, "france", &["A Par - Bur"]).await.expect("kept");
        store.edit_game(|g| g.status = GameStatus::Finished);
        assert_eq!(mine_of(&store, "france").await.expect("orders").orders, ["A Par - Bur"]);
        assert_eq!(
            mine_of(&store, "obs").await.unwrap_err(),
            DomainError::OnlyPlayersHaveOrders
        );
        let mut unit = store.begin().await.expect("a unit");
        assert_eq!(
            desk(&mut unit, "france", "g1").await.unwrap_err(),
            DomainError::NotRunning
        );
        assert!(reading_desk(&mut unit, "france", "g1").await.is_ok());
    }

    #[tokio::test]
    async fn orders_for_a_phase_adjudicated_meanwhile_are_refused() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        let mut unit = store.begin().await.expect("a unit");
        let desk = desk(&mut unit, "france", "g1").await.expect("a desk");
        // The phase moves on between reading the desk and keeping the orders.
        store.edit_game(|g| g.phase = Some("F1901M".into()));
        let mut unit = store.begin().await.expect("a unit");
        let refused = keep(&mut unit, &FixedClock(1), &desk, &["A Par H".into()], false)
            .await
            .unwrap_err();
        assert_eq!(refused, DomainError::PhaseClosed("S1901M".into()));
    }

    async fn mark_as(store: &FakeStore, me: &str, ready: bool) -> Result<(), DomainError> {
        let mut unit = store.begin().await.expect("a unit");
        let desk = desk(&mut unit, me, "g1").await?;
        mark_ready(&mut unit, &FixedClock(1), &desk, ready).await?;
        unit.commit().await
    }

    async fn complete(store: &FakeStore, g: &Game) -> bool {
        complete_early(&mut store.begin().await.expect("a unit"), g)
            .await
            .expect("readiness")
    }

    #[tokio::test]
    async fn an_early_game_is_complete_when_every_awaited_power_is_ready() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        store.edit_game(|g| g.early = true);
        for p in ["austria", "england", "france", "germany", "italy", "russia"] {
            keep_as(&store, p, &["Hold"]).await.expect("kept");
            mark_as(&store, p, true).await.expect("marked");
        }
        let g = store.data.borrow().games["g1"].clone();
        // Turkey has sent orders but not marked them final.
        keep_as(&store, "turkey", &["A Con H"]).await.expect("kept");
        assert!(!complete(&store, &g).await, "orders sent are not final");
        mark_as(&store, "turkey", true).await.expect("marked");
        assert!(complete(&store, &g).await);
        let stored = mine_of(&store, "turkey").await.expect("stored");
        assert!(
            stored.ready && stored.orders == ["A Con H"],
            "the mark keeps the orders"
        );
        // A new submission without the mark takes it back.
        keep_as(&store, "turkey", &["A Con - Bul"]).await.expect("kept");
        assert!(!complete(&store, &g).await);
        assert!(!mine_of(&store, "turkey").await.expect("stored").ready);
        // Ready without orders: every unit holds.
        mark_as(&store, "austria", false).await.expect("marked");
        store.data.borrow_mut().orders.values_mut().for_each(|o| {
            o.remove("AUSTRIA");
        });
        mark_as(&store, "austria", true).await.expect("marked");
        mark_as(&store, "turkey", true).await.expect("marked");
        assert!(complete(&store, &g).await);
        assert!(mine_of(&store, "austria").await.expect("stored").orders.is_empty());
        let not_early = Game { early: false, ..g };
        assert!(!complete(&store, &not_early).await);
    }
}
