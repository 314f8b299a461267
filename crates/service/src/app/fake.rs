//! An in-memory fake of the ports, for the use cases' tests: a unit of work copies the data
//! and writes it back on commit, so a refused request changes nothing, as with the database.

pub(crate) mod accounts;

use std::cell::RefCell;
use std::collections::BTreeMap;

use spielleiter_engine::interchange::{GameEnd, GameState};
use spielleiter_engine::report::Lang;

use super::adjudication::{Advance, Claim, PhaseRecord};
use super::games::NewGameRecord;
use super::ports::{Clock, GameStore, GameUnit, NewPress, Unit};
use super::results::StoredResult;
use crate::domain::play::Turns;
use crate::domain::{DomainError, Game, GameStatus, Member, Notification, Role};

/// Everything the fake store keeps.
#[derive(Debug, Clone, Default)]
pub(crate) struct Data {
    /// Games by id.
    pub(crate) games: BTreeMap<String, Game>,
    /// Members per game.
    pub(crate) members: BTreeMap<String, Vec<Member>>,
    /// The language of each account (the master's too).
    pub(crate) langs: BTreeMap<String, Lang>,
    /// The orders stored, per game and phase, per power.
    pub(crate) orders: BTreeMap<(String, String), BTreeMap<String, Vec<String>>>,
    /// The orders marked ready: game, phase, power.
    pub(crate) ready: std::collections::BTreeSet<(String, String, String)>,
    /// The adjudicated phases stored.
    pub(crate) phases: Vec<PhaseRecord>,
    /// Press stored.
    pub(crate) press: Vec<NewPress>,
    /// How far each reader read each game's press: game, account, sending time.
    pub(crate) press_seen: BTreeMap<(String, String), i64>,
    /// Games ended, with how.
    pub(crate) ended: BTreeMap<String, GameEnd>,
    /// Notifications queued: game, account, language, what.
    pub(crate) outbox: Vec<(String, String, Lang, Notification)>,
    /// The phases whose reminders were sent: game, phase.
    pub(crate) reminded: std::collections::BTreeSet<(String, String)>,
    /// The players' wishes, in the order they joined: game, account, powers.
    pub(crate) wishes: Vec<(String, String, Vec<String>)>,
    /// The accounts whose notification carries the maps of a phase.
    pub(crate) with_maps: Vec<(String, String)>,
    /// Accounts by id.
    pub(crate) accounts: BTreeMap<String, crate::domain::account::Account>,
    /// Open sessions: token hash, account.
    pub(crate) sessions: Vec<(String, String)>,
    /// Mail queued to addresses: address, language, what.
    pub(crate) mail: Vec<(String, Lang, Notification)>,
}

/// The fake store.
#[derive(Debug, Default)]
pub(crate) struct FakeStore {
    /// The data as committed.
    pub(crate) data: RefCell<Data>,
}

/// A fixed clock.
pub(crate) struct FixedClock(pub(crate) i64);

impl Clock for FixedClock {
    fn now_ms(&self) -> i64 {
        self.0
    }
}

/// A unit of work of the fake: a copy of the data, written back on commit.
pub(crate) struct FakeUnit<'a> {
    store: &'a FakeStore,
    data: Data,
}

impl GameStore for FakeStore {
    type Unit<'a> = FakeUnit<'a>;

    async fn begin(&self) -> Result<FakeUnit<'_>, DomainError> {
        Ok(FakeUnit {
            store: self,
            data: self.data.borrow().clone(),
        })
    }
}

impl FakeUnit<'_> {
    fn mark_ready(&mut self, game: &str, power: &str, phase: &str, ready: bool) {
        let key = (game.to_string(), phase.to_string(), power.to_string());
        if ready {
            self.data.ready.insert(key);
        } else {
            self.data.ready.remove(&key);
        }
    }

    fn member(&mut self, game: &str, pick: impl Fn(&Member) -> bool) -> Option<&mut Member> {
        self.data.members.get_mut(game)?.iter_mut().find(|m| pick(m))
    }
}

impl GameUnit for FakeUnit<'_> {
    async fn game(&mut self, id: &str) -> Result<Game, DomainError> {
        self.data.games.get(id).cloned().ok_or(DomainError::NoSuchGame)
    }

    async fn members(&mut self, game: &str) -> Result<Vec<Member>, DomainError> {
        Ok(self.data.members.get(game).cloned().unwrap_or_default())
    }

    async fn audience(&mut self, game: &Game) -> Result<Vec<(String, Lang)>, DomainError> {
        let mut accounts: Vec<String> = self.members(&game.id).await?.into_iter().map(|m| m.account).collect();
        accounts.push(game.master.clone());
        accounts.sort();
        accounts.dedup();
        let lang = |a: &String| self.data.langs.get(a).copied().unwrap_or(Lang::En);
        Ok(accounts.iter().map(|a| (a.clone(), lang(a))).collect())
    }

    async fn ordered_powers(&mut self, game: &str, phase: &str) -> Result<Vec<(String, bool)>, DomainError> {
        let powers: Vec<String> = self.stored_orders(game, phase).await?.into_keys().collect();
        let ready = |p: &String| {
            self.data
                .ready
                .contains(&(game.to_string(), phase.to_string(), p.clone()))
        };
        Ok(powers.iter().map(|p| (p.clone(), ready(p))).collect())
    }

    async fn set_draw_vote(&mut self, game: &str, account: &str, yes: bool) -> Result<(), DomainError> {
        if let Some(m) = self.member(game, |m| m.account == account) {
            m.draw_vote = yes;
        }
        Ok(())
    }

    async fn set_concession(&mut self, game: &str, account: &str, to: Option<&str>) -> Result<(), DomainError> {
        if let Some(m) = self.member(game, |m| m.account == account) {
            m.concede_to = to.map(str::to_string);
        }
        Ok(())
    }

    async fn finish(&mut self, game: &str, end: &GameEnd) -> Result<bool, DomainError> {
        let Some(g) = self.data.games.get_mut(game).filter(|g| g.status == GameStatus::Active) else {
            return Ok(false);
        };
        g.status = GameStatus::Finished;
        g.deadline_ms = None;
        self.data.ended.insert(game.to_string(), end.clone());
        Ok(true)
    }

    async fn start_grace(&mut self, game: &Game) -> Result<bool, DomainError> {
        let Some(g) = self
            .data
            .games
            .get_mut(&game.id)
            .filter(|g| !g.in_grace && g.phase == game.phase)
        else {
            return Ok(false);
        };
        g.in_grace = true;
        g.deadline_ms = g.deadline_ms.map(|d| d + game.grace_seconds * 1000);
        Ok(true)
    }

    async fn set_turns(&mut self, game: &str, power: &str, account: &str, turns: Turns) -> Result<(), DomainError> {
        if let Some(m) = self.member(game, |m| m.played_power() == Some(power) && m.account == account) {
            m.missed = turns.missed;
            m.civil_disorder = turns.civil_disorder;
        }
        Ok(())
    }

    async fn add_press(&mut self, press: &NewPress) -> Result<bool, DomainError> {
        if self.data.press.iter().any(|p| p.id == press.id) {
            return Ok(false);
        }
        self.data.press.push(press.clone());
        Ok(true)
    }

    async fn notify(&mut self, game: &str, to: &(String, Lang), n: &Notification) -> Result<(), DomainError> {
        self.data.outbox.push((game.to_string(), to.0.clone(), to.1, n.clone()));
        Ok(())
    }

    async fn notify_with_maps(
        &mut self,
        game: &str,
        to: &(String, Lang),
        n: &Notification,
        phase: &str,
    ) -> Result<(), DomainError> {
        self.data.with_maps.push((to.0.clone(), phase.to_string()));
        self.notify(game, to, n).await
    }

    async fn claim_phase(&mut self, game: &str, phase: &str, claim: Claim) -> Result<bool, DomainError> {
        let Some(g) = self.data.games.get(game) else {
            return Ok(false);
        };
        let running = g.status == GameStatus::Active && g.phase.as_deref() == Some(phase);
        Ok(running
            && match claim {
                Claim::Now => true,
                Claim::NotPaused => g.paused_remaining_ms.is_none(),
                Claim::DeadlinePassed(now) => {
                    g.paused_remaining_ms.is_none() && g.deadline_ms.is_some_and(|d| d <= now)
                }
            })
    }

    async fn stored_orders(&mut self, game: &str, phase: &str) -> Result<BTreeMap<String, Vec<String>>, DomainError> {
        let key = (game.to_string(), phase.to_string());
        Ok(self.data.orders.get(&key).cloned().unwrap_or_default())
    }

    async fn store_phase(&mut self, record: &PhaseRecord) -> Result<bool, DomainError> {
        if self
            .data
            .phases
            .iter()
            .any(|p| p.game == record.game && p.phase == record.phase)
        {
            return Ok(false);
        }
        self.data.phases.push(record.clone());
        Ok(true)
    }

    async fn clear_votes(&mut self, game: &str) -> Result<(), DomainError> {
        for m in self.data.members.get_mut(game).into_iter().flatten() {
            m.draw_vote = false;
            m.concede_to = None;
        }
        Ok(())
    }

    async fn advance(&mut self, game: &str, next: &Advance) -> Result<(), DomainError> {
        let g = self.data.games.get_mut(game).ok_or(DomainError::NoSuchGame)?;
        g.state_json = Some(serde_json::to_string(&next.state).map_err(|_| DomainError::Store)?);
        g.phase = Some(next.phase.clone());
        g.deadline_ms = next.deadline_ms;
        g.status = next.status;
        g.pending = next.pending.clone();
        g.paused_remaining_ms = next.paused_remaining_ms;
        g.extensions = 0;
        g.in_grace = false;
        if let Some(end) = &next.result {
            self.data.ended.insert(game.to_string(), end.clone());
        }
        Ok(())
    }

    async fn replace_orders(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        lines: &[String],
        _now_ms: i64,
        ready: bool,
    ) -> Result<bool, DomainError> {
        let open = self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.status == GameStatus::Active && g.phase.as_deref() == Some(phase));
        if open {
            let key = (game.to_string(), phase.to_string());
            self.data
                .orders
                .entry(key)
                .or_default()
                .insert(power.to_string(), lines.to_vec());
            self.mark_ready(game, power, phase, ready);
        }
        Ok(open)
    }

    async fn set_ready(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        ready: bool,
        now_ms: i64,
    ) -> Result<bool, DomainError> {
        let stored = self.orders_of(game, power, phase).await?;
        let Some(lines) = stored else {
            if !ready {
                return Ok(true);
            }
            return self.replace_orders(game, power, phase, &[], now_ms, ready).await;
        };
        self.replace_orders(game, power, phase, &lines, now_ms, ready).await
    }

    async fn orders_of(&mut self, game: &str, power: &str, phase: &str) -> Result<Option<Vec<String>>, DomainError> {
        Ok(self.stored_orders(game, phase).await?.remove(power))
    }

    async fn extend_deadline(&mut self, game: &Game, ms: i64, max: i64) -> Result<bool, DomainError> {
        let Some(g) = self.data.games.get_mut(&game.id) else {
            return Ok(false);
        };
        let open = g.phase == game.phase && g.extensions < max && g.paused_remaining_ms.is_none();
        if open {
            g.deadline_ms = g.deadline_ms.map(|d| d + ms);
            g.extensions += 1;
        }
        Ok(open)
    }

    async fn pause(&mut self, game: &Game, remaining_ms: i64) -> Result<bool, DomainError> {
        let Some(g) = self.data.games.get_mut(&game.id) else {
            return Ok(false);
        };
        let open = g.phase == game.phase && g.paused_remaining_ms.is_none() && g.status == GameStatus::Active;
        if open {
            g.paused_remaining_ms = Some(remaining_ms);
            g.deadline_ms = None;
        }
        Ok(open)
    }

    async fn resume(&mut self, game: &str, deadline_ms: i64) -> Result<bool, DomainError> {
        let Some(g) = self
            .data
            .games
            .get_mut(game)
            .filter(|g| g.paused_remaining_ms.is_some())
        else {
            return Ok(false);
        };
        g.paused_remaining_ms = None;
        g.deadline_ms = Some(deadline_ms);
        Ok(true)
    }

    async fn account_named(&mut self, name: &str) -> Result<Option<String>, DomainError> {
        Ok(self.data.langs.contains_key(name).then(|| name.to_string()))
    }

    async fn seat_player(
        &mut self,
        game: &str,
        power: &str,
        account: &str,
        was_observer: bool,
        _now_ms: i64,
    ) -> Result<(), DomainError> {
        let members = self.data.members.entry(game.to_string()).or_default();
        if was_observer {
            members.retain(|m| m.account != account);
        }
        let lang = self.data.langs.get(account).copied().unwrap_or(Lang::En);
        let seat = Member { lang, ..player(power) };
        let seat = Member {
            account: account.to_string(),
            ..seat
        };
        match members.iter_mut().find(|m| m.played_power() == Some(power)) {
            Some(m) => *m = seat,
            None => members.push(seat),
        }
        Ok(())
    }

    async fn insert_game(&mut self, game: &NewGameRecord) -> Result<bool, DomainError> {
        let key = crate::names::name_key;
        if self.data.games.values().any(|g| key(&g.name) == game.name_key) {
            return Ok(false);
        }
        let s = &game.settings;
        let g = Game {
            id: game.id.clone(),
            name: s.name.clone(),
            variant: s.variant.clone(),
            master: game.master.clone(),
            status: GameStatus::Forming,
            press: s.press,
            lot_seed: None,
            state_json: None,
            deadline_ms: None,
            seconds: s.seconds,
            early: s.early,
            nmr_limit: s.nmr_limit,
            grace_seconds: s.grace_seconds,
            in_grace: false,
            paused_remaining_ms: None,
            extensions: 0,
            phase: None,
            time_zone: s.time_zone.clone(),
            deadline_at: s.deadline_at.clone(),
            pending: crate::domain::Pending::default(),
            reminder_hours: s.reminder_hours,
            options: s.options.clone(),
        };
        self.data.games.insert(game.id.clone(), g);
        Ok(true)
    }

    async fn claim_reminder(&mut self, game: &str, phase: &str) -> Result<bool, DomainError> {
        let open = self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.phase.as_deref() == Some(phase));
        let new = open && self.data.reminded.insert((game.to_string(), phase.to_string()));
        Ok(new)
    }

    async fn lock_running(&mut self, game: &str) -> Result<bool, DomainError> {
        Ok(self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.status == GameStatus::Active))
    }

    async fn lock_forming(&mut self, game: &str) -> Result<bool, DomainError> {
        Ok(self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.status == GameStatus::Forming))
    }

    async fn add_member(
        &mut self,
        game: &str,
        account: &str,
        role: Role,
        preferences: &[String],
        _now_ms: i64,
    ) -> Result<bool, DomainError> {
        let members = self.data.members.entry(game.to_string()).or_default();
        if members.iter().any(|m| m.account == account) {
            return Ok(false);
        }
        members.push(Member {
            account: account.to_string(),
            role,
            power: None,
            lang: self.data.langs.get(account).copied().unwrap_or(Lang::En),
            ..player("")
        });
        self.data
            .wishes
            .push((game.to_string(), account.to_string(), preferences.to_vec()));
        Ok(true)
    }

    async fn start_game(
        &mut self,
        game: &str,
        seed: i64,
        state: &GameState,
        deadline_ms: i64,
        phase: &str,
    ) -> Result<bool, DomainError> {
        let Some(g) = self
            .data
            .games
            .get_mut(game)
            .filter(|g| g.status == GameStatus::Forming)
        else {
            return Ok(false);
        };
        g.status = GameStatus::Active;
        g.lot_seed = Some(seed);
        g.state_json = Some(serde_json::to_string(state).map_err(|_| DomainError::Store)?);
        g.deadline_ms = Some(deadline_ms);
        g.phase = Some(phase.to_string());
        Ok(true)
    }

    async fn remove_member(&mut self, game: &str, account: &str) -> Result<bool, DomainError> {
        let forming = self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.status == GameStatus::Forming);
        let members = self.data.members.entry(game.to_string()).or_default();
        let before = members.len();
        if forming {
            members.retain(|m| m.account != account);
            self.data.wishes.retain(|(g, a, _)| !(g == game && a == account));
        }
        Ok(members.len() < before)
    }

    async fn set_wishes(&mut self, game: &str, account: &str, preferences: &[String]) -> Result<bool, DomainError> {
        let forming = self
            .data
            .games
            .get(game)
            .is_some_and(|g| g.status == GameStatus::Forming);
        if !forming || self.member(game, |m| m.account == account).is_none() {
            return Ok(false);
        }
        self.data.wishes.retain(|(g, a, _)| !(g == game && a == account));
        self.data
            .wishes
            .push((game.to_string(), account.to_string(), preferences.to_vec()));
        Ok(true)
    }

    async fn wishes(&mut self, game: &str) -> Result<Vec<(String, Vec<String>)>, DomainError> {
        let players: Vec<String> = self
            .members(game)
            .await?
            .into_iter()
            .filter(|m| m.role == Role::Player)
            .map(|m| m.account)
            .collect();
        let wish = |a: &String| {
            let found = self.data.wishes.iter().find(|(g, acc, _)| g == game && acc == a);
            found.map(|(_, _, w)| w.clone()).unwrap_or_default()
        };
        Ok(players.iter().map(|a| (a.clone(), wish(a))).collect())
    }

    async fn assign_power(&mut self, game: &str, account: &str, power: &str) -> Result<(), DomainError> {
        if let Some(m) = self.member(game, |m| m.account == account) {
            m.power = Some(power.to_string());
        }
        Ok(())
    }

    async fn result(&mut self, game: &str, phase: &str) -> Result<Option<StoredResult>, DomainError> {
        Ok(self.results(game).await?.into_iter().find(|r| r.phase == phase))
    }

    async fn results(&mut self, game: &str) -> Result<Vec<StoredResult>, DomainError> {
        Ok(self
            .data
            .phases
            .iter()
            .filter(|p| p.game == game)
            .map(|p| StoredResult {
                phase: p.phase.clone(),
                before: p.before.clone(),
                result: p.published.clone(),
                report_en: p.report_en.clone(),
                report_de: p.report_de.clone(),
                notices: p.notices.clone(),
            })
            .collect())
    }

    async fn press_since(&mut self, game: &str, since_ms: i64) -> Result<Vec<NewPress>, DomainError> {
        let mut press: Vec<NewPress> = self
            .data
            .press
            .iter()
            .filter(|p| p.game == game && p.sent_ms > since_ms)
            .cloned()
            .collect();
        press.sort_by(|a, b| (a.sent_ms, &a.id).cmp(&(b.sent_ms, &b.id)));
        Ok(press)
    }

    async fn press_seen(&mut self, game: &str, account: &str) -> Result<i64, DomainError> {
        let key = (game.to_string(), account.to_string());
        Ok(self.data.press_seen.get(&key).copied().unwrap_or(0))
    }

    async fn mark_press_seen(&mut self, game: &str, account: &str, seen_ms: i64) -> Result<(), DomainError> {
        let seen = self
            .data
            .press_seen
            .entry((game.to_string(), account.to_string()))
            .or_insert(0);
        *seen = (*seen).max(seen_ms);
        Ok(())
    }
}

impl Unit for FakeUnit<'_> {
    async fn commit(self) -> Result<(), DomainError> {
        *self.store.data.borrow_mut() = self.data;
        Ok(())
    }
}

/// The seven powers of the standard map, by key.
pub(crate) const POWERS: [&str; 7] = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"];

/// A running standard game `g1` at its start (Spring 1901), mastered by `gm`, with `press`,
/// deadline at `deadline_ms`, and the given missed-turn limit, grace and early settings left at
/// their defaults (2, none, no).
pub(crate) fn standard_game(press: crate::domain::PressPolicy, deadline_ms: i64) -> Game {
    let v = crate::variants::variant("standard").expect("the standard variant");
    let position = spielleiter_engine::Position::initial(&v);
    let state = spielleiter_engine::interchange::state_from_position(&v, &position);
    Game {
        id: "g1".into(),
        name: "Zugspitze".into(),
        variant: "standard".into(),
        master: "gm".into(),
        status: GameStatus::Active,
        press,
        lot_seed: Some(7),
        state_json: Some(serde_json::to_string(&state).expect("a state as JSON")),
        deadline_ms: Some(deadline_ms),
        seconds: [86_400, 43_200, 43_200],
        early: false,
        nmr_limit: 2,
        grace_seconds: 0,
        in_grace: false,
        paused_remaining_ms: None,
        extensions: 0,
        phase: Some(state.phase),
        time_zone: "UTC".into(),
        deadline_at: None,
        pending: crate::domain::Pending::default(),
        reminder_hours: 0,
        options: Default::default(),
    }
}

/// The player of `power`: account `power` in lower case, reading English.
pub(crate) fn player(power: &str) -> Member {
    Member {
        account: power.to_ascii_lowercase(),
        role: crate::domain::Role::Player,
        power: Some(power.to_string()),
        missed: 0,
        civil_disorder: false,
        draw_vote: false,
        concede_to: None,
        lang: Lang::En,
    }
}

impl FakeStore {
    /// A store holding `game` with a player for each of the seven powers and an observer `obs`;
    /// the players of Germany and the master read German.
    pub(crate) fn with(game: Game) -> FakeStore {
        let mut members: Vec<Member> = POWERS.iter().map(|p| player(p)).collect();
        members
            .iter_mut()
            .filter(|m| m.account == "germany")
            .for_each(|m| m.lang = Lang::De);
        members.push(Member {
            role: crate::domain::Role::Observer,
            power: None,
            ..player("OBS")
        });
        let mut data = Data {
            langs: members.iter().map(|m| (m.account.clone(), m.lang)).collect(),
            ..Data::default()
        };
        data.langs.insert("gm".into(), Lang::De);
        data.members.insert(game.id.clone(), members);
        data.games.insert(game.id.clone(), game);
        FakeStore {
            data: RefCell::new(data),
        }
    }

    /// Changes the stored member of `account`.
    pub(crate) fn edit_member(&self, account: &str, edit: impl FnOnce(&mut Member)) {
        let mut data = self.data.borrow_mut();
        let member = data.members.values_mut().flatten().find(|m| m.account == account);
        edit(member.expect("a member with that account"));
    }

    /// Changes the stored game `g1`.
    pub(crate) fn edit_game(&self, edit: impl FnOnce(&mut Game)) {
        edit(self.data.borrow_mut().games.get_mut("g1").expect("game g1"));
    }

    /// The stored member of `account`.
    pub(crate) fn member(&self, account: &str) -> Member {
        let data = self.data.borrow();
        data.members
            .values()
            .flatten()
            .find(|m| m.account == account)
            .cloned()
            .expect("a member")
    }

    /// The notifications queued so far: account and what.
    pub(crate) fn sent(&self) -> Vec<(String, Notification)> {
        self.data
            .borrow()
            .outbox
            .iter()
            .map(|(_, a, _, n)| (a.clone(), n.clone()))
            .collect()
    }
}
