//! Sending press: private messages, broadcasts and the master's announcements, in games with
//! full, grey or no press.

use super::ports::{Clock, GameStore, GameUnit, NewPress, Unit};
use super::position::{phase_of, power_key};
use crate::domain::play::{check_press_body, press_readers, press_seen_by, press_speaker};
use crate::domain::{DomainError, Notification, Speaker};
use crate::variants::of_game;

/// A message stored: its id, the powers it went to (none: everyone), and whether it had been
/// sent already (the same mail read a second time).
#[derive(Debug, serde::Serialize)]
pub struct PressSent {
    /// The message's id.
    pub id: String,
    /// The powers it went to.
    pub to: Vec<String>,
    /// Whether it had been sent already.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
}

/// A message to send: from whom, in which game, to which powers (empty: everyone), and the id
/// that recognises a repeat (none: a new id).
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    /// The sending account.
    pub me: &'a str,
    /// The game.
    pub game: &'a str,
    /// Recipient power names as written.
    pub to: &'a [String],
    /// The text.
    pub body: &'a str,
    /// The id to store it under, when a repeat must be recognised (mail read again).
    pub press_id: Option<String>,
}

/// Stores a message and queues it to each account that may read it, in one unit of work.
pub async fn send(store: &impl GameStore, clock: &impl Clock, m: Outgoing<'_>) -> Result<PressSent, DomainError> {
    let mut unit = store.begin().await?;
    let g = unit.game(m.game).await?;
    let v = of_game(&g)?;
    let members = unit.members(m.game).await?;
    let power = members
        .iter()
        .find(|x| x.account == m.me)
        .and_then(|x| x.played_power().map(str::to_string));
    let from = press_speaker(g.press, power.as_deref(), g.master == m.me)?;
    check_press_body(m.body)?;
    let mut recipients: Vec<String> = Vec::new();
    for name in m.to {
        let key = power_key(&v, name)?;
        if !recipients.contains(&key) {
            recipients.push(key);
        }
    }
    let press = NewPress {
        id: m.press_id.unwrap_or_else(crate::auth::new_id),
        game: g.id.clone(),
        phase: phase_of(&g)?,
        from_account: m.me.to_string(),
        from_power: power,
        recipients,
        grey: from == Speaker::Hidden,
        body: m.body.trim().to_string(),
        sent_ms: clock.now_ms(),
    };
    if !unit.add_press(&press).await? {
        return Ok(PressSent {
            id: press.id,
            to: press.recipients,
            repeat: true,
        });
    }
    let news = Notification::Press {
        game: g.name.clone(),
        from: from.named(|key| crate::variants::power_name(&v, key)),
        to: crate::variants::power_names(&v, &press.recipients),
        phase: press.phase.clone(),
        body: press.body.clone(),
    };
    for reader in press_readers(&unit.audience(&g).await?, &members, m.me, &press.recipients) {
        unit.notify(&g.id, &reader, &news).await?;
    }
    unit.commit().await?;
    Ok(PressSent {
        id: press.id,
        to: press.recipients,
        repeat: false,
    })
}

/// One message as its reader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadMessage {
    /// Who it shows as from.
    pub from: Speaker,
    /// The powers it went to; none: everyone.
    pub to: Vec<String>,
    /// The text.
    pub body: String,
    /// When it was sent (milliseconds since 1970).
    pub sent_ms: i64,
    /// The phase it was sent in.
    pub phase: String,
    /// Sent by the reader itself.
    pub own: bool,
    /// Sent after what the reader was last shown (never its own); only [`read_marking`] tells.
    pub new: bool,
}

/// The most new messages one look shows.
const MAX_NEW_SHOWN: usize = 500;

/// The press `me` may read in a game, as [`read`], each message marked new when sent after what
/// `me` was last shown, and the newest one shown noted as seen (the caller commits `unit`). The
/// last `last` messages are shown, and more where more are new (at most [`MAX_NEW_SHOWN`] of
/// them, oldest first): no new message is noted as seen unshown.
pub async fn read_marking(
    unit: &mut impl GameUnit,
    me: &str,
    id: &str,
    since_ms: Option<i64>,
    last: Option<usize>,
) -> Result<(Vec<ReadMessage>, usize), DomainError> {
    let (mut messages, _) = read(unit, me, id, since_ms, None).await?;
    let seen = unit.press_seen(id, me).await?;
    for m in &mut messages {
        m.new = !m.own && m.sent_ms > seen;
    }
    let first_new = messages.iter().position(|m| m.new).unwrap_or(messages.len());
    let new = messages.len() - first_new;
    // A flood of press is shown a bounded part at a time, oldest new first: the rest stays new.
    messages.truncate(first_new + new.min(MAX_NEW_SHOWN));
    let shown = last.map_or(messages.len(), |last| last.max(new.min(MAX_NEW_SHOWN)));
    let earlier = messages.len().saturating_sub(shown);
    messages.drain(..earlier);
    if let Some(newest) = messages.iter().map(|m| m.sent_ms).max().filter(|&n| n > seen) {
        unit.mark_press_seen(id, me, newest).await?;
    }
    Ok((messages, earlier))
}

/// The press `me` may read in a game: sent after `since_ms` (all: none), the last `last` of
/// them (all: none), oldest first, with how many earlier ones `last` left out.
pub async fn read(
    unit: &mut impl GameUnit,
    me: &str,
    id: &str,
    since_ms: Option<i64>,
    last: Option<usize>,
) -> Result<(Vec<ReadMessage>, usize), DomainError> {
    let g = unit.game(id).await?;
    let members = unit.members(id).await?;
    crate::domain::play::member_or_master(&g, &members, me)?;
    let mine = members
        .iter()
        .find(|m| m.account == me)
        .and_then(|m| m.played_power().map(str::to_string));
    let mut messages: Vec<ReadMessage> = unit
        .press_since(id, since_ms.unwrap_or(i64::MIN))
        .await?
        .into_iter()
        .filter_map(|p| {
            let from = press_seen_by(
                &p.from_account,
                p.from_power.as_deref(),
                &p.recipients,
                p.grey,
                me,
                mine.as_deref(),
            )?;
            Some(ReadMessage {
                from,
                to: p.recipients,
                body: p.body,
                sent_ms: p.sent_ms,
                phase: p.phase,
                own: p.from_account == me,
                new: false,
            })
        })
        .collect();
    let earlier = last.map_or(0, |last| messages.len().saturating_sub(last));
    messages.drain(..earlier);
    Ok((messages, earlier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::{FakeStore, FixedClock, standard_game};
    use crate::domain::PressPolicy;

    async fn send_as(store: &FakeStore, me: &str, to: &[&str], body: &str) -> Result<PressSent, DomainError> {
        let to: Vec<String> = to.iter().map(|s| s.to_string()).collect();
        let m = Outgoing {
            me,
            game: "g1",
            to: &to,
            body,
            press_id: None,
        };
        send(store, &FixedClock(5), m).await
    }

    fn readers(store: &FakeStore) -> Vec<String> {
        store.sent().into_iter().map(|(a, _)| a).collect()
    }

    #[tokio::test]
    async fn private_press_reaches_the_players_of_its_recipients_alone() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        let sent = send_as(&store, "england", &["France", "FRANCE"], "  Channel?  ")
            .await
            .expect("sent");
        assert_eq!(sent.to, ["FRANCE"]);
        assert!(!sent.repeat);
        assert_eq!(readers(&store), ["france"]);
        let stored = store.data.borrow().press[0].clone();
        assert_eq!(
            (stored.body.as_str(), stored.phase.as_str(), stored.sent_ms),
            ("Channel?", "S1901M", 5)
        );
        assert_eq!(stored.from_power.as_deref(), Some("ENGLAND"));
        let Notification::Press { from, to, .. } = &store.sent()[0].1 else {
            panic!("press")
        };
        let to: Vec<(&str, &str)> = to.iter().map(|p| (p.key.as_str(), p.de.as_str())).collect();
        assert_eq!(to, [("FRANCE", "Frankreich")]);
        assert!(matches!(from, Speaker::Power(p) if p.en == "England" && p.de == "England"));
    }

    #[tokio::test]
    async fn a_broadcast_reaches_every_member_and_the_master_but_not_its_sender() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        send_as(&store, "russia", &[], "Peace in our time").await.expect("sent");
        let mut got = readers(&store);
        got.sort();
        assert_eq!(
            got,
            [
                "austria", "england", "france", "germany", "gm", "italy", "obs", "turkey"
            ]
        );
        let langs: Vec<_> = store
            .data
            .borrow()
            .outbox
            .iter()
            .map(|(_, a, l, _)| (a.clone(), *l))
            .collect();
        assert!(langs.contains(&("germany".into(), spielleiter_engine::report::Lang::De)));
    }

    #[tokio::test]
    async fn grey_press_hides_a_power_but_not_the_master() {
        let store = FakeStore::with(standard_game(PressPolicy::Grey, 0));
        send_as(&store, "italy", &["Austria"], "Lepanto?").await.expect("sent");
        send_as(&store, "gm", &[], "Deadline moved").await.expect("sent");
        let sent = store.sent();
        assert!(matches!(
            &sent[0].1,
            Notification::Press {
                from: Speaker::Hidden,
                ..
            }
        ));
        assert!(sent[1..].iter().all(|(_, n)| matches!(
            n,
            Notification::Press {
                from: Speaker::Master,
                ..
            }
        )));
        let press = &store.data.borrow().press;
        assert!(press[0].grey && !press[1].grey);
    }

    #[tokio::test]
    async fn no_press_games_let_only_the_master_speak() {
        let store = FakeStore::with(standard_game(PressPolicy::None, 0));
        assert_eq!(
            send_as(&store, "italy", &[], "Hello").await.unwrap_err(),
            DomainError::NoPress
        );
        assert!(store.data.borrow().press.is_empty() && store.sent().is_empty());
        send_as(&store, "gm", &["Italy"], "Your orders were late")
            .await
            .expect("sent");
        assert_eq!(readers(&store), ["italy"]);
    }

    #[tokio::test]
    async fn strangers_observers_bad_lengths_and_unknown_powers_are_refused() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        let refused = DomainError::OnlyMembersSendPress;
        assert_eq!(send_as(&store, "stranger", &[], "Hi").await.unwrap_err(), refused);
        assert_eq!(send_as(&store, "obs", &[], "Hi").await.unwrap_err(), refused);
        let too_long = "x".repeat(crate::domain::play::MAX_PRESS + 1);
        for body in ["", "   ", too_long.as_str()] {
            let e = send_as(&store, "italy", &[], body).await.unwrap_err();
            assert!(matches!(e, DomainError::BadPressLength { .. }));
        }
        let e = send_as(&store, "italy", &["Atlantis"], "Hi").await.unwrap_err();
        assert_eq!(e, DomainError::UnknownPower("Atlantis".into()));
        assert!(store.data.borrow().press.is_empty() && store.sent().is_empty());
    }

    #[tokio::test]
    async fn the_same_message_read_twice_is_sent_once() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        let again = || Outgoing {
            me: "turkey",
            game: "g1",
            to: &[],
            body: "Once",
            press_id: Some("mail-1".into()),
        };
        assert!(!send(&store, &FixedClock(1), again()).await.expect("sent").repeat);
        assert!(send(&store, &FixedClock(2), again()).await.expect("sent").repeat);
        assert_eq!(store.data.borrow().press.len(), 1);
        assert_eq!(store.sent().len(), 8);
    }

    #[tokio::test]
    async fn every_new_message_is_shown_even_beyond_the_window_before_it_counts_as_seen() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        for (body, ms) in [("One", 5), ("Two", 6), ("Three", 7)] {
            let m = Outgoing {
                me: "england",
                game: "g1",
                to: &[],
                body,
                press_id: None,
            };
            send(&store, &FixedClock(ms), m).await.expect("sent");
        }
        let mut unit = store.begin().await.expect("a unit");
        let (read, earlier) = read_marking(&mut unit, "france", "g1", None, Some(1))
            .await
            .expect("press");
        assert_eq!((read.len(), earlier), (3, 0), "all three are new");
        let (read, earlier) = read_marking(&mut unit, "france", "g1", None, Some(1))
            .await
            .expect("press");
        assert_eq!((read.len(), earlier, read[0].body.as_str()), (1, 2, "Three"));
    }

    #[tokio::test]
    async fn a_reader_sees_what_came_since_its_last_look_as_new_and_its_own_never() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        let send_at = |me: &'static str, body: &'static str, ms: i64| {
            let store = &store;
            async move {
                let m = Outgoing {
                    me,
                    game: "g1",
                    to: &[],
                    body,
                    press_id: None,
                };
                send(store, &FixedClock(ms), m).await.expect("sent");
            }
        };
        send_at("england", "One", 5).await;
        send_at("france", "Two", 6).await;
        let look = |me: &'static str| {
            let store = &store;
            async move {
                let mut unit = store.begin().await.expect("a unit");
                let (read, _) = read_marking(&mut unit, me, "g1", None, None).await.expect("press");
                unit.commit().await.expect("committed");
                read.iter().map(|m| (m.body.clone(), m.new)).collect::<Vec<_>>()
            }
        };
        let first = look("france").await;
        assert_eq!(first, [("One".to_string(), true), ("Two".to_string(), false)]);
        assert!(look("france").await.iter().all(|(_, new)| !new));
        send_at("italy", "Three", 7).await;
        let third = look("france").await;
        assert_eq!(third.last(), Some(&("Three".to_string(), true)));
        assert_eq!(third.iter().filter(|(_, new)| *new).count(), 1);
    }

    async fn read_as(store: &FakeStore, me: &str) -> Vec<ReadMessage> {
        let mut unit = store.begin().await.expect("a unit");
        read(&mut unit, me, "g1", None, None).await.expect("press").0
    }

    #[tokio::test]
    async fn each_reader_reads_only_the_press_for_the_own_power_and_grey_senders_stay_hidden() {
        let store = FakeStore::with(standard_game(PressPolicy::Grey, 0));
        send_as(&store, "england", &["France"], "Channel?").await.expect("sent");
        send_as(&store, "italy", &[], "Hello all").await.expect("sent");
        send_as(&store, "gm", &["Italy"], "Late again").await.expect("sent");
        let france = read_as(&store, "france").await;
        assert_eq!(france.len(), 2);
        assert!(france.iter().all(|m| m.from == Speaker::Hidden));
        let england = read_as(&store, "england").await;
        let own = england.iter().find(|m| m.body == "Channel?").expect("the own message");
        assert_eq!(
            own.from,
            Speaker::Power("ENGLAND".into()),
            "the sender sees the own name"
        );
        assert_eq!(england.len(), 2, "not the master's note to Italy");
        let italy = read_as(&store, "italy").await;
        let mut bodies: Vec<&str> = italy.iter().map(|m| m.body.as_str()).collect();
        bodies.sort();
        assert_eq!(bodies, ["Hello all", "Late again"]);
        let note = italy
            .iter()
            .find(|m| m.body == "Late again")
            .expect("the master's note");
        assert_eq!(note.from, Speaker::Master);
        assert_eq!(read_as(&store, "obs").await.len(), 1, "observers read broadcasts");
        let mut unit = store.begin().await.expect("a unit");
        let refused = read(&mut unit, "stranger", "g1", None, None).await.unwrap_err();
        assert_eq!(refused, DomainError::OnlyMembersSeeResults);
        let (last, earlier) = read(&mut unit, "italy", "g1", None, Some(1)).await.expect("press");
        assert_eq!((last.len(), earlier), (1, 1));
    }

    #[tokio::test]
    async fn a_replacing_player_reads_what_the_power_sent_and_the_replaced_one_no_longer_does() {
        let store = FakeStore::with(standard_game(PressPolicy::Full, 0));
        send_as(&store, "england", &["France"], "Channel?").await.expect("sent");
        store.edit_member("england", |m| m.account = "newcomer".into());
        assert_eq!(read_as(&store, "newcomer").await.len(), 1);
        let mut unit = store.begin().await.expect("a unit");
        let gone = read(&mut unit, "england", "g1", None, None).await.unwrap_err();
        assert_eq!(gone, DomainError::OnlyMembersSeeResults);
    }
}
