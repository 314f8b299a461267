//! What the mail and web adapters read to answer their users: accounts by address, games by
//! name, game and member lists. Rows are read by column name; an unreadable row is an error.

use spielleiter_engine::report::Lang;
use sqlx::{AnyPool, Row};

use super::games::unreadable;
use crate::domain::{DomainError, Game, GameStatus, Role};

/// The language of the first account registered with an address.
pub(crate) async fn lang_of_address(pool: &AnyPool, email: &str) -> Result<Option<Lang>, DomainError> {
    let row = sqlx::query("SELECT lang FROM accounts WHERE LOWER(email) = LOWER($1) ORDER BY created_ms LIMIT 1")
        .bind(email)
        .fetch_optional(pool)
        .await?;
    row.map(|r| {
        let lang: String = r.try_get("lang")?;
        lang.parse().map_err(|e| unreadable("an account's language", e))
    })
    .transpose()
}

/// A game's id and name, by its id, its exact name, or its name as names compare.
pub(crate) async fn game_named(pool: &AnyPool, name: &str) -> Result<Option<(String, String)>, DomainError> {
    let row = sqlx::query(
        "SELECT id, name FROM games WHERE name_key = $1 OR id = $2 OR name = $2 \
         ORDER BY CASE WHEN id = $2 THEN 0 WHEN name = $2 THEN 1 ELSE 2 END LIMIT 1",
    )
    .bind(crate::names::name_key(name))
    .bind(name)
    .fetch_optional(pool)
    .await?;
    Ok(row
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("name")?)))
        .transpose()?)
}

/// When the game's last phase was adjudicated, if any was.
pub(crate) async fn last_adjudicated_ms(pool: &AnyPool, game: &str) -> Result<Option<i64>, DomainError> {
    let row = sqlx::query("SELECT MAX(adjudicated_ms) AS last FROM phases WHERE game_id = $1")
        .bind(game)
        .fetch_one(pool)
        .await?;
    Ok(row.try_get("last")?)
}

/// What a log-in by mail checks: the name's key (failed log-ins count by it), the password hash,
/// the registered address and whether it is confirmed.
#[derive(Debug, Clone)]
pub(crate) struct Credentials {
    /// The account name's key.
    pub(crate) name_key: String,
    /// The password hash.
    pub(crate) password_hash: Option<String>,
    /// The registered address.
    pub(crate) email: String,
    /// Whether the address is confirmed.
    pub(crate) confirmed: bool,
}

/// The credentials of an account.
pub(crate) async fn credentials(pool: &AnyPool, account: &str) -> Result<Option<Credentials>, DomainError> {
    let row = sqlx::query("SELECT name_key, password_hash, email, email_confirmed_ms FROM accounts WHERE id = $1")
        .bind(account)
        .fetch_optional(pool)
        .await?;
    let read = |r: sqlx::any::AnyRow| -> Result<Credentials, sqlx::Error> {
        Ok(Credentials {
            name_key: r.try_get("name_key")?,
            password_hash: r.try_get("password_hash")?,
            email: r.try_get("email")?,
            confirmed: r.try_get::<Option<i64>, _>("email_confirmed_ms")?.is_some(),
        })
    };
    Ok(row.map(read).transpose()?)
}

/// The accounts with this confirmed address that are members (or the master) of the game, oldest
/// first, with the power each plays.
pub(crate) async fn members_of_address(
    pool: &AnyPool,
    g: &Game,
    email: &str,
) -> Result<Vec<(String, Option<String>)>, DomainError> {
    let rows = sqlx::query(
        "SELECT a.id, m.power FROM accounts a LEFT JOIN members m ON m.account_id = a.id AND m.game_id = $1 \
         WHERE LOWER(a.email) = LOWER($2) AND a.email_confirmed_ms IS NOT NULL \
         AND (m.account_id IS NOT NULL OR a.id = $3) ORDER BY a.created_ms",
    )
    .bind(&g.id)
    .bind(email)
    .bind(&g.master)
    .fetch_all(pool)
    .await?;
    let pairs = rows
        .iter()
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("power")?)));
    Ok(pairs.collect::<Result<_, _>>()?)
}

/// The account that plays `power` in the game, if any.
pub(crate) async fn player_of(pool: &AnyPool, game: &str, power: &str) -> Result<Option<String>, DomainError> {
    let row = sqlx::query("SELECT account_id FROM members WHERE game_id = $1 AND role = 'player' AND power = $2")
        .bind(game)
        .bind(power)
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|r| r.try_get("account_id")).transpose()?)
}

/// The accounts waiting to confirm this address, oldest first, with their pending code hashes.
pub(crate) async fn pending_codes(pool: &AnyPool, email: &str) -> Result<Vec<(String, Option<String>)>, DomainError> {
    let rows = sqlx::query(
        "SELECT id, pending_code_hash FROM accounts WHERE LOWER(pending_email) = LOWER($1) ORDER BY created_ms",
    )
    .bind(email)
    .fetch_all(pool)
    .await?;
    let pairs = rows
        .iter()
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("pending_code_hash")?)));
    Ok(pairs.collect::<Result<_, _>>()?)
}

/// The accounts with this confirmed address, oldest first.
pub(crate) async fn accounts_of_address(pool: &AnyPool, email: &str) -> Result<Vec<String>, DomainError> {
    let rows = sqlx::query(
        "SELECT id FROM accounts WHERE LOWER(email) = LOWER($1) AND email_confirmed_ms IS NOT NULL ORDER BY created_ms",
    )
    .bind(email)
    .fetch_all(pool)
    .await?;
    Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?)
}

/// A game in the list of games.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct GameLine {
    /// Its name.
    pub(crate) name: String,
    /// Its variant.
    pub(crate) variant: String,
    /// Its status, as stored.
    status: String,
    /// Its phase, once started.
    pub(crate) phase: Option<String>,
    /// Its deadline.
    pub(crate) deadline_ms: Option<i64>,
    /// Its time zone.
    pub(crate) time_zone: String,
    /// Its time of day for deadlines.
    pub(crate) deadline_at: Option<String>,
    /// How many players joined.
    pub(crate) players: i64,
}

impl GameLine {
    /// The game's status (a word that names none is an error).
    pub(crate) fn status(&self) -> Result<GameStatus, DomainError> {
        GameStatus::from_stored(&self.status).ok_or_else(|| unreadable("a game's status", &self.status))
    }
}

/// The first 200 games, oldest first.
pub(crate) async fn game_lines(pool: &AnyPool) -> Result<Vec<GameLine>, DomainError> {
    Ok(sqlx::query_as(
        "SELECT g.name, g.variant, g.status, g.phase, g.deadline_ms, g.time_zone, g.deadline_at, \
         (SELECT COUNT(*) FROM members m WHERE m.game_id = g.id AND m.role = 'player') AS players \
         FROM games g ORDER BY g.created_ms LIMIT 200",
    )
    .fetch_all(pool)
    .await?)
}

/// A member in a game's list of members.
#[derive(Debug, Clone)]
pub(crate) struct MemberLine {
    /// The account's name.
    pub(crate) name: String,
    /// Player or observer.
    pub(crate) role: Role,
    /// The power played.
    pub(crate) power: Option<String>,
    /// Whether the power is in civil disorder.
    pub(crate) civil_disorder: bool,
}

/// The members of a game by power, then name.
pub(crate) async fn member_lines(pool: &AnyPool, game: &str) -> Result<Vec<MemberLine>, DomainError> {
    let rows = sqlx::query(
        "SELECT a.name, m.role, m.power, m.civil_disorder FROM members m JOIN accounts a ON a.id = m.account_id \
         WHERE m.game_id = $1 ORDER BY m.power, a.name",
    )
    .bind(game)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            let role: String = r.try_get("role")?;
            Ok(MemberLine {
                name: r.try_get("name")?,
                role: Role::from_stored(&role).ok_or_else(|| unreadable("a member's role", &role))?,
                power: r.try_get("power")?,
                civil_disorder: r.try_get::<i64, _>("civil_disorder")? != 0,
            })
        })
        .collect()
}

/// An adjudicated phase as its pictures need it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct PictureRow {
    /// The phase.
    pub(crate) phase: String,
    /// The state before it.
    pub(crate) state_json: String,
    /// The published result.
    pub(crate) result_json: String,
    /// The report in English.
    pub(crate) report_en: String,
    /// The report in German.
    pub(crate) report_de: String,
    /// What the adjudication read, if kept.
    pub(crate) input_json: Option<String>,
    /// What its pictures show, if kept.
    pub(crate) outcome_json: Option<String>,
}

/// How many phases of the game have been adjudicated.
pub(crate) async fn phase_count(pool: &AnyPool, game: &str) -> Result<usize, DomainError> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM phases WHERE game_id = $1")
        .bind(game)
        .fetch_one(pool)
        .await?;
    Ok(usize::try_from(row.try_get::<i64, _>("n")?).unwrap_or(0))
}

/// The `at`-th adjudicated phase of the game (from 0, oldest first), if there is one.
pub(crate) async fn nth_phase(pool: &AnyPool, game: &str, at: usize) -> Result<Option<PictureRow>, DomainError> {
    Ok(sqlx::query_as(
        "SELECT phase, state_json, result_json, report_en, report_de, input_json, outcome_json FROM phases \
         WHERE game_id = $1 ORDER BY adjudicated_ms, phase LIMIT 1 OFFSET $2",
    )
    .bind(game)
    .bind(i64::try_from(at).unwrap_or(i64::MAX))
    .fetch_optional(pool)
    .await?)
}

/// A phase's pictures' source: the game's variant and name, and the phase (none: no such
/// phase). A database error stays one, so that a mail waiting for its pictures is tried again.
pub(crate) async fn picture_source(
    pool: &AnyPool,
    game: &str,
    phase: &str,
) -> Result<Option<(String, String, PictureRow)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT g.variant, g.name, p.phase, p.state_json, p.result_json, p.report_en, p.report_de, p.input_json, \
         p.outcome_json FROM phases p JOIN games g ON g.id = p.game_id WHERE p.game_id = $1 AND p.phase = $2",
    )
    .bind(game)
    .bind(phase)
    .fetch_optional(pool)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let picture = <PictureRow as sqlx::FromRow<'_, sqlx::any::AnyRow>>::from_row(&r)?;
    Ok(Some((r.try_get("variant")?, r.try_get("name")?, picture)))
}

/// The running games whose deadline is within their reminder time and whose phase has not been
/// reminded yet.
pub(crate) async fn reminder_candidates(pool: &AnyPool, now_ms: i64) -> Result<Vec<String>, DomainError> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND paused_remaining_ms IS NULL AND reminder_hours > 0 \
         AND deadline_ms > $1 AND deadline_ms - reminder_hours * 3600000 <= $1 \
         AND (reminded_phase IS NULL OR reminded_phase <> phase)",
    )
    .bind(now_ms)
    .fetch_all(pool)
    .await?;
    Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?)
}

/// A game in the web's list of games, with the viewer's part in it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct ViewerGameLine {
    /// Its id.
    pub(crate) id: String,
    /// Its name.
    pub(crate) name: String,
    /// Its variant.
    pub(crate) variant: String,
    /// Its status, as stored.
    status: String,
    /// Its phase, once started.
    pub(crate) phase: Option<String>,
    /// How many players joined.
    pub(crate) players: i64,
    /// Whether the viewer masters it (1) or not (0).
    master: i64,
    /// The viewer's role as stored, if a member.
    role: Option<String>,
    /// The viewer's power, once given.
    pub(crate) power: Option<String>,
    /// The variant's other calendar the game is played with, if one.
    pub(crate) calendar: Option<String>,
    /// The deadline of the current phase, if the clock runs.
    pub(crate) deadline_ms: Option<i64>,
    /// Its master's name.
    pub(crate) master_name: Option<String>,
    /// Its time zone and time of day for deadlines.
    time_zone: String,
    deadline_at: Option<String>,
    /// Whether the master paused it (1) or not (0).
    paused: i64,
}

impl ViewerGameLine {
    /// Whether the master paused the game.
    pub(crate) fn paused(&self) -> bool {
        self.paused != 0
    }

    /// The deadline in the game's time zone, in words.
    pub(crate) fn deadline_words(&self, ms: i64) -> String {
        crate::deadlines::DeadlineRule::stored(&self.time_zone, self.deadline_at.as_deref()).describe(ms)
    }
}

impl ViewerGameLine {
    /// The game's status (a word that names none is an error).
    pub(crate) fn status(&self) -> Result<GameStatus, DomainError> {
        GameStatus::from_stored(&self.status).ok_or_else(|| unreadable("a game's status", &self.status))
    }

    /// The viewer's role, if a member (a word that names none is an error).
    pub(crate) fn role(&self) -> Result<Option<Role>, DomainError> {
        let role = self.role.as_deref();
        role.map(|r| Role::from_stored(r).ok_or_else(|| unreadable("a member's role", r)))
            .transpose()
    }

    /// Whether the viewer masters the game.
    pub(crate) fn master(&self) -> bool {
        self.master != 0
    }
}

/// `SELECT` of the columns of a [`ViewerGameLine`] for the viewer `$1`, then the condition.
macro_rules! viewer_lines_where {
    ($rest:literal) => {
        concat!(
            "SELECT g.id, g.name, g.variant, g.status, g.phase, \
             (SELECT COUNT(*) FROM members m WHERE m.game_id = g.id AND m.role = 'player') AS players, \
             CAST(CASE WHEN g.master_id = $1 THEN 1 ELSE 0 END AS BIGINT) AS master, \
             (SELECT m.role FROM members m WHERE m.game_id = g.id AND m.account_id = $1) AS role, \
             (SELECT m.power FROM members m WHERE m.game_id = g.id AND m.account_id = $1) AS power, \
             g.calendar, g.deadline_ms, g.time_zone, g.deadline_at, \
             (SELECT a.name FROM accounts a WHERE a.id = g.master_id) AS master_name, \
             CAST(CASE WHEN g.paused_remaining_ms IS NULL THEN 0 ELSE 1 END AS BIGINT) AS paused \
             FROM games g WHERE ",
            $rest
        )
    };
}

/// The games list of the web pages: the viewer's own games (all of them, newest first) or the
/// others (the newest 200, games still forming first).
pub(crate) async fn viewer_game_lines(pool: &AnyPool, me: &str, own: bool) -> Result<Vec<ViewerGameLine>, DomainError> {
    let query = if own {
        viewer_lines_where!(
            "g.master_id = $1 OR EXISTS (SELECT 1 FROM members m WHERE m.game_id = g.id AND m.account_id = $1) \
             ORDER BY g.created_ms DESC"
        )
    } else {
        viewer_lines_where!(
            "NOT (g.master_id = $1 OR EXISTS (SELECT 1 FROM members m WHERE m.game_id = g.id AND m.account_id = $1)) \
             ORDER BY CASE g.status WHEN 'forming' THEN 0 WHEN 'active' THEN 1 ELSE 2 END, g.created_ms DESC LIMIT 200"
        )
    };
    Ok(sqlx::query_as(query).bind(me).fetch_all(pool).await?)
}

/// The running, unpaused games whose deadline has passed at `now_ms` or that adjudicate early.
pub(crate) async fn deadline_candidates(pool: &AnyPool, now_ms: i64) -> Result<Vec<String>, DomainError> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND paused_remaining_ms IS NULL AND (deadline_ms <= $1 OR early = 1)",
    )
    .bind(now_ms)
    .fetch_all(pool)
    .await?;
    Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?)
}
