//! The SQL adapter of the ports (`crate::app::ports`): the game store as one sqlx `Any`
//! transaction per unit of work, on SQLite or PostgreSQL. Rows are read by column name into
//! checked domain values (`games`).

mod accounts;
mod forming;
pub(crate) mod games;
pub(crate) mod inbox;
pub(crate) mod limits;
mod master;
pub(crate) mod outbox;
mod phases;
pub(crate) mod reads;
pub(crate) mod sessions;
pub mod store;

use spielleiter_engine::interchange::{GameEnd, GameState};
use spielleiter_engine::report::Lang;
use std::collections::BTreeMap;

use sqlx::Row;

use crate::app::adjudication::{Advance, Claim, PhaseRecord};
use crate::app::games::NewGameRecord;
use crate::app::ports::{GameStore, GameUnit, NewPress, Unit};
use crate::app::results::StoredResult;
use crate::domain::play::Turns;
use crate::domain::{DomainError, Game, GameStatus, Member, Notification, Role};
use crate::store::Store;

impl From<sqlx::Error> for DomainError {
    fn from(e: sqlx::Error) -> Self {
        // The details go to the log, not to the client.
        eprintln!("database error: {e}");
        DomainError::Store
    }
}

/// One unit of work: a database transaction.
pub struct SqlUnit {
    tx: sqlx::Transaction<'static, sqlx::Any>,
}

impl SqlUnit {
    /// Begins a unit of work on the store's database.
    pub(crate) async fn begin(store: &Store) -> Result<SqlUnit, sqlx::Error> {
        Ok(SqlUnit {
            tx: store.pool.begin().await?,
        })
    }

    /// The transaction, for the parts of a use case not yet behind the ports.
    pub(crate) fn tx(&mut self) -> &mut sqlx::Transaction<'static, sqlx::Any> {
        &mut self.tx
    }
}

impl GameStore for Store {
    type Unit<'a> = SqlUnit;

    async fn begin(&self) -> Result<SqlUnit, DomainError> {
        Ok(SqlUnit::begin(self).await?)
    }
}

/// A `press` row read back; unreadable recipients are an error: read as "none" they would make
/// private press public.
fn press_of(game: &str, r: &sqlx::any::AnyRow) -> Result<NewPress, DomainError> {
    let recipients: String = r.try_get("recipients")?;
    Ok(NewPress {
        id: r.try_get("id")?,
        game: game.to_string(),
        phase: r.try_get("phase")?,
        from_account: r.try_get("from_account")?,
        from_power: r.try_get("from_power")?,
        recipients: serde_json::from_str(&recipients).map_err(|e| games::unreadable("press recipients", e))?,
        grey: r.try_get::<i64, _>("grey")? != 0,
        body: r.try_get("body")?,
        sent_ms: r.try_get("sent_ms")?,
    })
}

/// Whether an `INSERT` stored its row: false when the row exists already (a unique key, such as
/// a repeat of the same message or phase).
pub(crate) fn inserted(result: Result<sqlx::any::AnyQueryResult, sqlx::Error>) -> Result<bool, DomainError> {
    match result {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Whether a database error is a violated unique key (a row that exists already).
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| d.is_unique_violation())
}

impl GameUnit for SqlUnit {
    async fn game(&mut self, id: &str) -> Result<Game, DomainError> {
        games::game(&mut *self.tx, id).await
    }

    async fn members(&mut self, game: &str) -> Result<Vec<Member>, DomainError> {
        games::members(&mut *self.tx, game).await
    }

    async fn audience(&mut self, game: &Game) -> Result<Vec<(String, Lang)>, DomainError> {
        let rows = sqlx::query(
            "SELECT a.id, a.lang FROM accounts a WHERE a.id IN (SELECT account_id FROM members WHERE game_id = $1) OR a.id = $2 ORDER BY a.id",
        )
        .bind(&game.id)
        .bind(&game.master)
        .fetch_all(&mut *self.tx)
        .await?;
        rows.iter()
            .map(|r| {
                let lang: String = r.try_get("lang")?;
                let lang = lang
                    .parse()
                    .map_err(|e| games::unreadable("an account's language", e))?;
                Ok((r.try_get("id")?, lang))
            })
            .collect()
    }

    async fn ordered_powers(&mut self, game: &str, phase: &str) -> Result<Vec<(String, bool)>, DomainError> {
        let rows = sqlx::query("SELECT power, ready FROM orders WHERE game_id = $1 AND phase = $2 ORDER BY power")
            .bind(game)
            .bind(phase)
            .fetch_all(&mut *self.tx)
            .await?;
        let mark = |r: &sqlx::any::AnyRow| -> Result<(String, bool), sqlx::Error> {
            Ok((r.try_get("power")?, r.try_get::<i64, _>("ready")? != 0))
        };
        Ok(rows.iter().map(mark).collect::<Result<_, _>>()?)
    }

    async fn set_draw_vote(&mut self, game: &str, account: &str, yes: bool) -> Result<(), DomainError> {
        sqlx::query("UPDATE members SET draw_vote = $1 WHERE game_id = $2 AND account_id = $3")
            .bind(i64::from(yes))
            .bind(game)
            .bind(account)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn set_concession(&mut self, game: &str, account: &str, to: Option<&str>) -> Result<(), DomainError> {
        sqlx::query("UPDATE members SET concede_to = $1 WHERE game_id = $2 AND account_id = $3")
            .bind(to)
            .bind(game)
            .bind(account)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn finish(&mut self, game: &str, end: &GameEnd) -> Result<bool, DomainError> {
        let end = serde_json::to_string(end).map_err(|e| games::unreadable("a game's result", e))?;
        let ended = sqlx::query(
            "UPDATE games SET status = 'finished', result_json = $1, deadline_ms = NULL WHERE id = $2 AND status = 'active'",
        )
        .bind(end)
        .bind(game)
        .execute(&mut *self.tx)
        .await?;
        Ok(ended.rows_affected() == 1)
    }

    async fn start_grace(&mut self, game: &Game) -> Result<bool, DomainError> {
        let moved = sqlx::query(
            "UPDATE games SET deadline_ms = deadline_ms + $1, in_grace = 1 WHERE id = $2 AND in_grace = 0 AND phase = $3",
        )
        .bind(game.grace_seconds * 1000)
        .bind(&game.id)
        .bind(&game.phase)
        .execute(&mut *self.tx)
        .await?;
        Ok(moved.rows_affected() == 1)
    }

    async fn set_turns(&mut self, game: &str, power: &str, account: &str, turns: Turns) -> Result<(), DomainError> {
        sqlx::query(
            "UPDATE members SET missed = $1, civil_disorder = $2 \
             WHERE game_id = $3 AND power = $4 AND account_id = $5 AND role = 'player'",
        )
        .bind(turns.missed)
        .bind(i64::from(turns.civil_disorder))
        .bind(game)
        .bind(power)
        .bind(account)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    async fn add_press(&mut self, press: &NewPress) -> Result<bool, DomainError> {
        let recipients =
            serde_json::to_string(&press.recipients).map_err(|e| games::unreadable("press recipients", e))?;
        let stored = sqlx::query(
            "INSERT INTO press (id, game_id, phase, from_account, from_power, recipients, grey, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&press.id)
        .bind(&press.game)
        .bind(&press.phase)
        .bind(&press.from_account)
        .bind(&press.from_power)
        .bind(recipients)
        .bind(i64::from(press.grey))
        .bind(&press.body)
        .bind(press.sent_ms)
        .execute(&mut *self.tx)
        .await;
        // The same message again (a mail processed a second time): it was sent already.
        inserted(stored)
    }

    async fn notify(&mut self, game: &str, to: &(String, Lang), n: &Notification) -> Result<(), DomainError> {
        let (subject, body) = crate::i18n::notification(n, to.1);
        let recipient = outbox::Recipient::Account(&to.0);
        outbox::queue(&mut self.tx, Some(game), recipient, &subject, &body, None, None).await?;
        Ok(())
    }

    async fn notify_with_maps(
        &mut self,
        game: &str,
        to: &(String, Lang),
        n: &Notification,
        phase: &str,
    ) -> Result<(), DomainError> {
        let (subject, body) = crate::i18n::notification(n, to.1);
        let recipient = outbox::Recipient::Account(&to.0);
        let picture = outbox::PhasePicture {
            phase: phase.to_string(),
            lang: to.1,
        };
        outbox::queue(
            &mut self.tx,
            Some(game),
            recipient,
            &subject,
            &body,
            None,
            Some(&picture),
        )
        .await?;
        Ok(())
    }

    async fn claim_phase(&mut self, game: &str, phase: &str, claim: Claim) -> Result<bool, DomainError> {
        phases::claim(&mut self.tx, game, phase, claim).await
    }

    async fn stored_orders(&mut self, game: &str, phase: &str) -> Result<BTreeMap<String, Vec<String>>, DomainError> {
        phases::stored_orders(&mut self.tx, game, phase).await
    }

    async fn store_phase(&mut self, record: &PhaseRecord) -> Result<bool, DomainError> {
        phases::store(&mut self.tx, record).await
    }

    async fn clear_votes(&mut self, game: &str) -> Result<(), DomainError> {
        sqlx::query("UPDATE members SET draw_vote = 0, concede_to = NULL WHERE game_id = $1")
            .bind(game)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn advance(&mut self, game: &str, next: &Advance) -> Result<(), DomainError> {
        phases::advance(&mut self.tx, game, next).await
    }

    async fn replace_orders(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        lines: &[String],
        now_ms: i64,
        ready: bool,
    ) -> Result<bool, DomainError> {
        phases::replace_orders(&mut self.tx, game, power, phase, lines, now_ms, ready).await
    }

    async fn set_ready(
        &mut self,
        game: &str,
        power: &str,
        phase: &str,
        ready: bool,
        now_ms: i64,
    ) -> Result<bool, DomainError> {
        phases::set_ready(&mut self.tx, game, power, phase, ready, now_ms).await
    }

    async fn orders_of(&mut self, game: &str, power: &str, phase: &str) -> Result<Option<Vec<String>>, DomainError> {
        phases::orders_of(&mut self.tx, game, power, phase).await
    }

    async fn extend_deadline(&mut self, game: &Game, ms: i64, max: i64) -> Result<bool, DomainError> {
        master::extend_deadline(&mut self.tx, game, ms, max).await
    }

    async fn pause(&mut self, game: &Game, remaining_ms: i64) -> Result<bool, DomainError> {
        master::pause(&mut self.tx, game, remaining_ms).await
    }

    async fn resume(&mut self, game: &str, deadline_ms: i64) -> Result<bool, DomainError> {
        master::resume(&mut self.tx, game, deadline_ms).await
    }

    async fn account_named(&mut self, name: &str) -> Result<Option<String>, DomainError> {
        master::account_named(&mut self.tx, name).await
    }

    async fn seat_player(
        &mut self,
        game: &str,
        power: &str,
        account: &str,
        was_observer: bool,
        now_ms: i64,
    ) -> Result<(), DomainError> {
        master::seat_player(&mut self.tx, game, power, account, was_observer, now_ms).await
    }

    async fn insert_game(&mut self, game: &NewGameRecord) -> Result<bool, DomainError> {
        forming::insert_game(&mut self.tx, game).await
    }

    async fn claim_reminder(&mut self, game: &str, phase: &str) -> Result<bool, DomainError> {
        let claimed = sqlx::query(
            "UPDATE games SET reminded_phase = $1 WHERE id = $2 AND phase = $1 \
             AND (reminded_phase IS NULL OR reminded_phase <> $1)",
        )
        .bind(phase)
        .bind(game)
        .execute(&mut *self.tx)
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    async fn lock_running(&mut self, game: &str) -> Result<bool, DomainError> {
        forming::lock_status(&mut self.tx, game, GameStatus::Active).await
    }

    async fn lock_forming(&mut self, game: &str) -> Result<bool, DomainError> {
        forming::lock_status(&mut self.tx, game, GameStatus::Forming).await
    }

    async fn add_member(
        &mut self,
        game: &str,
        account: &str,
        role: Role,
        preferences: &[String],
        now_ms: i64,
    ) -> Result<bool, DomainError> {
        forming::add_member(&mut self.tx, game, account, role, preferences, now_ms).await
    }

    async fn start_game(
        &mut self,
        game: &str,
        seed: i64,
        state: &GameState,
        deadline_ms: i64,
        phase: &str,
    ) -> Result<bool, DomainError> {
        forming::start_game(&mut self.tx, game, seed, state, deadline_ms, phase).await
    }

    async fn remove_member(&mut self, game: &str, account: &str) -> Result<bool, DomainError> {
        forming::remove_member(&mut self.tx, game, account).await
    }

    async fn set_wishes(&mut self, game: &str, account: &str, preferences: &[String]) -> Result<bool, DomainError> {
        forming::set_wishes(&mut self.tx, game, account, preferences).await
    }

    async fn wishes(&mut self, game: &str) -> Result<Vec<(String, Vec<String>)>, DomainError> {
        forming::wishes(&mut self.tx, game).await
    }

    async fn assign_power(&mut self, game: &str, account: &str, power: &str) -> Result<(), DomainError> {
        forming::assign_power(&mut self.tx, game, account, power).await
    }

    async fn result(&mut self, game: &str, phase: &str) -> Result<Option<StoredResult>, DomainError> {
        phases::result(&mut self.tx, game, phase).await
    }

    async fn results(&mut self, game: &str) -> Result<Vec<StoredResult>, DomainError> {
        phases::results(&mut self.tx, game).await
    }

    async fn press_since(&mut self, game: &str, since_ms: i64) -> Result<Vec<NewPress>, DomainError> {
        let rows = sqlx::query(
            "SELECT id, phase, from_account, from_power, recipients, grey, body, sent_ms FROM press \
             WHERE game_id = $1 AND sent_ms > $2 ORDER BY sent_ms, id",
        )
        .bind(game)
        .bind(since_ms)
        .fetch_all(&mut *self.tx)
        .await?;
        rows.iter().map(|r| press_of(game, r)).collect()
    }

    async fn press_seen(&mut self, game: &str, account: &str) -> Result<i64, DomainError> {
        let seen: Option<i64> =
            sqlx::query_scalar("SELECT seen_ms FROM press_seen WHERE game_id = $1 AND account_id = $2")
                .bind(game)
                .bind(account)
                .fetch_optional(&mut *self.tx)
                .await?;
        Ok(seen.unwrap_or(0))
    }

    async fn mark_press_seen(&mut self, game: &str, account: &str, seen_ms: i64) -> Result<(), DomainError> {
        sqlx::query(
            "INSERT INTO press_seen (game_id, account_id, seen_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, account_id) DO UPDATE SET seen_ms = excluded.seen_ms \
             WHERE press_seen.seen_ms < excluded.seen_ms",
        )
        .bind(game)
        .bind(account)
        .bind(seen_ms)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }
}

impl Unit for SqlUnit {
    async fn commit(self) -> Result<(), DomainError> {
        Ok(self.tx.commit().await?)
    }
}
