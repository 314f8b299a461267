//! The end of a game by agreement: a draw voted by every survivor and shared by all of them
//! (DIAS), or a concession of the game to one power by every other survivor. Survivors in civil
//! disorder have no say.

use spielleiter_engine::interchange::GameEnd;

use super::ports::{GameStore, GameUnit, Unit};
use super::position::{current_position, power_key, survivors};
use crate::domain::play::Electorate;
use crate::domain::{DomainError, Game, GameStatus, Member, Notification};
use crate::variants::of_game;

/// A draw vote recorded: the voter's power, the vote, whether the game ended in a draw, and the
/// survivors.
#[derive(Debug, serde::Serialize)]
pub struct DrawVoted {
    /// The voter's power.
    pub power: String,
    /// The vote.
    pub vote: bool,
    /// Whether every deciding survivor had voted yes: the game ended in a draw.
    pub drawn: bool,
    /// The powers still on the board.
    pub survivors: Vec<String>,
}

/// A concession recorded: the conceding power, to whom, and whether the game ended so.
#[derive(Debug, serde::Serialize)]
pub struct Conceded {
    /// The conceding power.
    pub power: String,
    /// The power conceded to (none: the concession was withdrawn).
    pub concede_to: Option<String>,
    /// Whether every other deciding survivor had conceded to the same power: the game ended.
    pub conceded: bool,
}

/// The game, its members and the electorate `me` votes in.
async fn electorate(
    unit: &mut impl GameUnit,
    id: &str,
    me: &str,
) -> Result<(Game, Vec<Member>, Electorate), DomainError> {
    let g = unit.game(id).await?;
    // Locks the game: the last two votes at the same moment are counted one after the other, so
    // neither misses the other.
    if g.status != GameStatus::Active || !unit.lock_running(id).await? {
        return Err(DomainError::NotRunning);
    }
    let members = unit.members(id).await?;
    let v = of_game(&g)?;
    let (_, position) = current_position(&v, &g)?;
    let e = Electorate::of(me, &members, survivors(&v, &position))?;
    Ok((g, members, e))
}

/// Ends the game with `end` and tells everyone who hears of it.
async fn finish(unit: &mut impl GameUnit, g: &Game, end: &GameEnd, news: &Notification) -> Result<(), DomainError> {
    if unit.finish(&g.id, end).await? {
        for reader in unit.audience(g).await? {
            unit.notify(&g.id, &reader, news).await?;
        }
    }
    Ok(())
}

/// Records `me`'s draw vote (yes, or no to withdraw a yes) and ends the game in a draw when every
/// deciding survivor has voted yes.
pub async fn vote(store: &impl GameStore, me: &str, id: &str, yes: bool) -> Result<DrawVoted, DomainError> {
    let mut unit = store.begin().await?;
    let (g, mut members, e) = electorate(&mut unit, id, me).await?;
    unit.set_draw_vote(id, me, yes).await?;
    members
        .iter_mut()
        .filter(|m| m.account == me)
        .for_each(|m| m.draw_vote = yes);
    let drawn = e.draw_reached(&members);
    if drawn {
        let end = GameEnd {
            kind: "draw".to_string(),
            powers: e.survivors.clone(),
        };
        let news = Notification::Drawn {
            game: g.name.clone(),
            powers: crate::variants::power_names(&*of_game(&g)?, &e.survivors),
        };
        finish(&mut unit, &g, &end, &news).await?;
    }
    unit.commit().await?;
    Ok(DrawVoted {
        power: e.power,
        vote: yes,
        drawn,
        survivors: e.survivors,
    })
}

/// Concedes the game to the power `to` (none: withdraws the concession); the game ends when every
/// other deciding survivor has conceded to the same power.
pub async fn concede(store: &impl GameStore, me: &str, id: &str, to: Option<&str>) -> Result<Conceded, DomainError> {
    let mut unit = store.begin().await?;
    let (g, mut members, e) = electorate(&mut unit, id, me).await?;
    let v = of_game(&g)?;
    let to = e.concession(to.map(|name| power_key(&v, name)).transpose()?, |key| {
        crate::variants::power_name(&v, key)
    })?;
    unit.set_concession(id, me, to.as_deref()).await?;
    members
        .iter_mut()
        .filter(|m| m.account == me)
        .for_each(|m| m.concede_to = to.clone());
    let conceded = to
        .as_deref()
        .is_some_and(|winner| e.concession_reached(&members, winner));
    if let (true, Some(winner)) = (conceded, &to) {
        let end = GameEnd {
            kind: "concession".to_string(),
            powers: vec![winner.clone()],
        };
        let news = Notification::Conceded {
            game: g.name.clone(),
            winner: crate::variants::power_name(&v, winner),
        };
        finish(&mut unit, &g, &end, &news).await?;
    }
    unit.commit().await?;
    Ok(Conceded {
        power: e.power,
        concede_to: to,
        conceded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, POWERS, standard_game};
    use crate::domain::PressPolicy;

    fn store() -> FakeStore {
        FakeStore::with(standard_game(PressPolicy::Full, 0))
    }

    /// Takes every unit and centre from `power` in the stored position.
    fn eliminate(store: &FakeStore, power: &str) {
        store.edit_game(|g| {
            let mut state: spielleiter_engine::interchange::GameState =
                serde_json::from_str(g.state_json.as_deref().expect("a state")).expect("state JSON");
            state.units.remove(power);
            state.centers.remove(power);
            g.state_json = Some(serde_json::to_string(&state).expect("state JSON"));
        });
    }

    async fn everyone_but(store: &FakeStore, left_out: &[&str]) {
        for p in POWERS.iter().filter(|p| !left_out.contains(p)) {
            let voted = vote(store, &p.to_ascii_lowercase(), "g1", true).await.expect("a vote");
            assert!(!voted.drawn || left_out.is_empty());
        }
    }

    #[tokio::test]
    async fn a_draw_ends_the_game_when_the_last_survivor_votes_yes_and_everyone_hears_of_it() {
        let store = store();
        everyone_but(&store, &["TURKEY"]).await;
        assert!(store.data.borrow().ended.is_empty());
        assert!(store.sent().is_empty());
        let last = vote(&store, "turkey", "g1", true).await.expect("a vote");
        assert!(last.drawn);
        assert_eq!(last.survivors, POWERS.map(String::from));
        let data = store.data.borrow();
        assert_eq!(data.ended["g1"].kind, "draw");
        assert_eq!(data.games["g1"].status, GameStatus::Finished);
        drop(data);
        let sent = store.sent();
        // Seven players, the observer and the master, each once.
        assert_eq!(sent.len(), 9);
        assert!(sent.iter().any(|(a, _)| a == "gm") && sent.iter().any(|(a, _)| a == "obs"));
        assert!(
            sent.iter()
                .all(|(_, n)| matches!(n, Notification::Drawn { powers, .. } if powers.len() == 7))
        );
    }

    #[tokio::test]
    async fn a_withdrawn_vote_no_longer_counts() {
        let store = store();
        vote(&store, "austria", "g1", true).await.expect("a vote");
        vote(&store, "austria", "g1", false).await.expect("a withdrawal");
        assert!(!store.member("austria").draw_vote);
        everyone_but(&store, &["AUSTRIA"]).await;
        assert!(store.data.borrow().ended.is_empty());
    }

    #[tokio::test]
    async fn survivors_in_civil_disorder_have_no_say_but_share_the_draw() {
        let store = store();
        store.edit_member("turkey", |m| m.civil_disorder = true);
        let mut last = None;
        for p in POWERS.iter().filter(|p| **p != "TURKEY") {
            last = Some(vote(&store, &p.to_ascii_lowercase(), "g1", true).await.expect("a vote"));
        }
        assert!(last.expect("votes").drawn);
        assert!(store.data.borrow().ended["g1"].powers.contains(&"TURKEY".to_string()));
    }

    #[tokio::test]
    async fn only_players_of_surviving_powers_vote_and_a_refusal_changes_nothing() {
        let store = store();
        assert_eq!(
            vote(&store, "obs", "g1", true).await.unwrap_err(),
            DomainError::OnlyPlayersVote
        );
        assert_eq!(
            vote(&store, "gm", "g1", true).await.unwrap_err(),
            DomainError::OnlyPlayersVote
        );
        assert_eq!(
            vote(&store, "austria", "g2", true).await.unwrap_err(),
            DomainError::NoSuchGame
        );
        eliminate(&store, "ITALY");
        assert_eq!(
            vote(&store, "italy", "g1", true).await.unwrap_err(),
            DomainError::OnlySurvivorsVote
        );
        assert!(!store.member("italy").draw_vote);
        // Italy is gone: the six others decide alone.
        everyone_but(&store, &["ITALY", "TURKEY"]).await;
        let last = vote(&store, "turkey", "g1", true).await.expect("a vote");
        assert_eq!(last.survivors.len(), 6);
        assert!(last.drawn);
        assert_eq!(
            vote(&store, "turkey", "g1", true).await.unwrap_err(),
            DomainError::NotRunning
        );
    }

    #[tokio::test]
    async fn a_concession_ends_the_game_when_every_other_decider_concedes_to_the_same_power() {
        let store = store();
        let others: Vec<&str> = POWERS.iter().copied().filter(|p| *p != "FRANCE").collect();
        for p in &others[..5] {
            let c = concede(&store, &p.to_ascii_lowercase(), "g1", Some("France"))
                .await
                .expect("a concession");
            assert_eq!(c.concede_to.as_deref(), Some("FRANCE"));
            assert!(!c.conceded);
        }
        // A concession to another power does not count for France.
        concede(&store, "turkey", "g1", Some("england"))
            .await
            .expect("a concession");
        assert!(store.data.borrow().ended.is_empty());
        let last = concede(&store, "turkey", "g1", Some("FRANCE"))
            .await
            .expect("a concession");
        assert!(last.conceded);
        assert_eq!(store.data.borrow().ended["g1"].powers, ["FRANCE"]);
        let sent = store.sent();
        assert_eq!(sent.len(), 9);
        assert!(
            sent.iter()
                .all(|(_, n)| matches!(n, Notification::Conceded { winner, .. } if winner.key == "FRANCE" && winner.de == "Frankreich"))
        );
    }

    #[tokio::test]
    async fn a_concession_goes_to_another_surviving_power_and_may_be_withdrawn() {
        let store = store();
        let refused = |to: &'static str| {
            let store = &store;
            async move { concede(store, "austria", "g1", Some(to)).await.unwrap_err() }
        };
        assert_eq!(refused("Austria").await, DomainError::ConcedeToSelf);
        assert_eq!(refused("Atlantis").await, DomainError::UnknownPower("Atlantis".into()));
        eliminate(&store, "ITALY");
        assert!(matches!(refused("Italy").await, DomainError::Eliminated(p) if p.de == "Italien"));
        assert_eq!(store.member("austria").concede_to, None);
        concede(&store, "austria", "g1", Some("Russia"))
            .await
            .expect("a concession");
        assert_eq!(store.member("austria").concede_to.as_deref(), Some("RUSSIA"));
        let withdrawn = concede(&store, "austria", "g1", None).await.expect("a withdrawal");
        assert_eq!(withdrawn.concede_to, None);
        assert_eq!(store.member("austria").concede_to, None);
    }
}
