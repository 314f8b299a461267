//! Games and members as rows: read by column name into checked domain values (a row that cannot
//! be read is an error, never a default).

use spielleiter_engine::report::Lang;

use crate::domain::{DomainError, Game, GameStatus, Member, PressPolicy, Role, RuleOptions};

/// A `games` row as stored.
#[derive(sqlx::FromRow)]
struct GameRecord {
    id: String,
    name: String,
    variant: String,
    master_id: String,
    status: String,
    press: String,
    lot_seed: Option<i64>,
    state_json: Option<String>,
    deadline_ms: Option<i64>,
    movement_seconds: i64,
    retreat_seconds: i64,
    adjustment_seconds: i64,
    early: i64,
    nmr_limit: i64,
    grace_seconds: i64,
    in_grace: i64,
    paused_remaining_ms: Option<i64>,
    extensions: i64,
    phase: Option<String>,
    time_zone: String,
    deadline_at: Option<String>,
    pending_json: Option<String>,
    reminder_hours: i64,
    control_rule: Option<String>,
    victory: Option<i64>,
    retreats_with_moves: i64,
    year_at_once: i64,
    ready_names: i64,
    calendar: Option<String>,
}

/// The stored word `word` read as one of a closed set, or an error naming `what`.
fn word<T>(what: &str, word: &str, read: impl Fn(&str) -> Option<T>) -> Result<T, DomainError> {
    read(word).ok_or_else(|| unreadable(what, format!("`{word}`")))
}

/// An unreadable stored value: logged with its details, reported without them.
pub(crate) fn unreadable(what: &str, detail: impl std::fmt::Display) -> DomainError {
    eprintln!("unreadable stored data ({what}): {detail}");
    DomainError::Unreadable(what.to_string())
}

impl GameRecord {
    fn into_game(self) -> Result<Game, DomainError> {
        // Orders waiting for later phases that cannot be read are an error, never "none waiting".
        let pending = self
            .pending_json
            .map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(|e| unreadable("the orders waiting for later phases", e))?
            .unwrap_or_default();
        Ok(Game {
            status: word("the game's status", &self.status, GameStatus::from_stored)?,
            press: word("the game's press rule", &self.press, PressPolicy::from_stored)?,
            id: self.id,
            name: self.name,
            variant: self.variant,
            master: self.master_id,
            lot_seed: self.lot_seed,
            state_json: self.state_json,
            deadline_ms: self.deadline_ms,
            seconds: [self.movement_seconds, self.retreat_seconds, self.adjustment_seconds],
            early: self.early != 0,
            nmr_limit: self.nmr_limit,
            grace_seconds: self.grace_seconds,
            in_grace: self.in_grace != 0,
            paused_remaining_ms: self.paused_remaining_ms,
            extensions: self.extensions,
            phase: self.phase,
            time_zone: self.time_zone,
            deadline_at: self.deadline_at,
            pending,
            reminder_hours: self.reminder_hours,
            options: RuleOptions {
                control_rule: self.control_rule,
                victory: self
                    .victory
                    .map(|v| u8::try_from(v).map_err(|_| unreadable("the game's victory condition", v)))
                    .transpose()?,
                retreats_with_moves: self.retreats_with_moves != 0,
                year_at_once: self.year_at_once != 0,
                ready_names: self.ready_names != 0,
                calendar: self.calendar,
            },
        })
    }
}

/// The game with this id.
pub(crate) async fn game(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    id: &str,
) -> Result<Game, DomainError> {
    let record: Option<GameRecord> = sqlx::query_as(
        "SELECT id, name, variant, master_id, status, press, lot_seed, state_json, deadline_ms, \
         movement_seconds, retreat_seconds, adjustment_seconds, early, nmr_limit, grace_seconds, in_grace, \
         paused_remaining_ms, extensions, phase, time_zone, deadline_at, pending_json, reminder_hours, \
         control_rule, victory, retreats_with_moves, year_at_once, ready_names, calendar FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(executor)
    .await?;
    record.ok_or(DomainError::NoSuchGame)?.into_game()
}

/// A `members` row with its account's language.
#[derive(sqlx::FromRow)]
struct MemberRecord {
    account_id: String,
    role: String,
    power: Option<String>,
    missed: i64,
    civil_disorder: i64,
    draw_vote: i64,
    concede_to: Option<String>,
    lang: String,
}

impl MemberRecord {
    fn into_member(self) -> Result<Member, DomainError> {
        Ok(Member {
            role: word("a member's role", &self.role, Role::from_stored)?,
            lang: word("an account's language", &self.lang, |w| w.parse::<Lang>().ok())?,
            account: self.account_id,
            power: self.power,
            missed: self.missed,
            civil_disorder: self.civil_disorder != 0,
            draw_vote: self.draw_vote != 0,
            concede_to: self.concede_to,
        })
    }
}

/// The members of a game, by account.
pub(crate) async fn members(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    game: &str,
) -> Result<Vec<Member>, DomainError> {
    let records: Vec<MemberRecord> = sqlx::query_as(
        "SELECT m.account_id, m.role, m.power, m.missed, m.civil_disorder, m.draw_vote, m.concede_to, a.lang \
         FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 ORDER BY m.account_id",
    )
    .bind(game)
    .fetch_all(executor)
    .await?;
    records.into_iter().map(MemberRecord::into_member).collect()
}

/// A member with the account's name.
#[derive(sqlx::FromRow)]
struct NamedMemberRecord {
    name: String,
    #[sqlx(flatten)]
    member: MemberRecord,
}

/// The members of a game with their account names, in the order they joined.
pub(crate) async fn named_members(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    game: &str,
) -> Result<Vec<(String, Member)>, DomainError> {
    let records: Vec<NamedMemberRecord> = sqlx::query_as(
        "SELECT a.name, m.account_id, m.role, m.power, m.missed, m.civil_disorder, m.draw_vote, m.concede_to, a.lang \
         FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 ORDER BY m.joined_ms, a.name",
    )
    .bind(game)
    .fetch_all(executor)
    .await?;
    records
        .into_iter()
        .map(|r| Ok((r.name, r.member.into_member()?)))
        .collect()
}

/// How the game ended, once it did (a stored result that cannot be read is an error, never "no
/// result").
pub(crate) async fn result_of(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    game: &str,
) -> Result<Option<spielleiter_engine::interchange::GameEnd>, DomainError> {
    let row = sqlx::query("SELECT result_json FROM games WHERE id = $1")
        .bind(game)
        .fetch_optional(executor)
        .await?
        .ok_or(DomainError::NoSuchGame)?;
    let text: Option<String> = sqlx::Row::try_get(&row, "result_json")?;
    text.map(|t| serde_json::from_str(&t).map_err(|e| unreadable("the game's result", e)))
        .transpose()
}
