//! Queuing a message in the outbox table, inside the caller's transaction (the outbox adapter
//! delivers it).

use spielleiter_engine::report::Lang;

use crate::auth::new_id;
use crate::store::now_ms;
use sqlx::AnyPool;

/// The map pictures a queued result carries: those of an adjudicated phase of its game, drawn
/// in a language when the message is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhasePicture {
    /// The phase, such as `S1901M`.
    pub phase: String,
    /// The language of the pictures' titles and legends.
    pub lang: Lang,
}

/// Who a queued message goes to.
pub enum Recipient<'a> {
    /// An account: its name and registered address, once that address is confirmed (until then
    /// nothing is queued for it: mail about games, press and reminders go to confirmed addresses
    /// only, so nobody can have another person's mail sent to a stranger's address).
    Account(&'a str),
    /// An address without an account (the sender of a mail the judge answers).
    Address {
        /// The name to show.
        name: &'a str,
        /// The address.
        email: &'a str,
    },
}

/// Text as it may be stored and sent: no control characters but line ends and tabs (PostgreSQL
/// refuses NUL, and a mail's own text may hold anything); `one_line` also drops line ends.
fn printable(text: &str, one_line: bool) -> String {
    text.chars()
        .filter(|&c| !c.is_control() || (!one_line && (c == '\n' || c == '\t')))
        .collect()
}

/// Queues a message inside the caller's transaction, with the map of one of its game's
/// adjudicated phases if `picture` is given (a picture without a game is left out); returns its
/// id.
pub async fn queue(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: Option<&str>,
    to: Recipient<'_>,
    subject: &str,
    body: &str,
    in_reply_to: Option<&str>,
    picture: Option<&PhasePicture>,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    let (subject, body) = (printable(subject, true), printable(body, false));
    let picture = picture.filter(|_| game_id.is_some());
    let picture_phase = picture.map(|p| p.phase.as_str());
    let picture_lang = picture.map(|p| p.lang.code());
    match to {
        Recipient::Account(account) => {
            sqlx::query(
                "INSERT INTO outbox (id, game_id, account_id, to_name, to_email, subject, body, in_reply_to, created_ms, picture_phase, picture_lang) \
                 SELECT $1, $2, a.id, a.name, a.email, $3, $4, $5, $6, $8, $9 FROM accounts a \
                 WHERE a.id = $7 AND a.email_confirmed_ms IS NOT NULL",
            )
            .bind(&id)
            .bind(game_id)
            .bind(&subject)
            .bind(&body)
            .bind(in_reply_to)
            .bind(now)
            .bind(account)
            .bind(picture_phase)
            .bind(picture_lang)
            .execute(&mut **tx)
            .await?;
        }
        Recipient::Address { name, email } => {
            sqlx::query(
                "INSERT INTO outbox (id, game_id, to_name, to_email, subject, body, in_reply_to, created_ms, picture_phase, picture_lang) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&id)
            .bind(game_id)
            .bind(printable(name, true))
            .bind(printable(email, true))
            .bind(&subject)
            .bind(&body)
            .bind(in_reply_to)
            .bind(now)
            .bind(picture_phase)
            .bind(picture_lang)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(id)
}

/// A message due for delivery, as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct DueMessage {
    /// Its id.
    pub(crate) id: String,
    /// The recipient's name.
    pub(crate) to_name: String,
    /// The recipient's address.
    pub(crate) to_email: String,
    /// The subject line.
    pub(crate) subject: String,
    /// The text.
    pub(crate) body: String,
    /// The Message-ID it answers.
    pub(crate) in_reply_to: Option<String>,
    /// When it was queued.
    pub(crate) created_ms: i64,
    /// The tries so far.
    pub(crate) attempts: i64,
    /// The game it is about.
    pub(crate) game_id: Option<String>,
    /// The phase whose maps it carries.
    picture_phase: Option<String>,
    /// The language of those maps.
    picture_lang: Option<String>,
}

impl DueMessage {
    /// The game, phase and language of the maps the message carries, if any; an unreadable
    /// language is an error.
    pub(crate) fn picture(&self) -> Result<Option<(String, String, Lang)>, String> {
        let (Some(game), Some(phase)) = (&self.game_id, &self.picture_phase) else {
            return Ok(None);
        };
        let lang = self.picture_lang.as_deref().unwrap_or_default();
        let lang = lang
            .parse()
            .map_err(|_| format!("the stored language of its maps ({lang:?}) cannot be read"))?;
        Ok(Some((game.clone(), phase.clone(), lang)))
    }
}

/// Up to 100 messages due at `now` (not sent, not given up, their pause over, not claimed since
/// `claimed_before`), only the one with id `only` if given; oldest first.
pub(crate) async fn due(
    pool: &AnyPool,
    now: i64,
    claimed_before: i64,
    only: Option<&str>,
) -> Result<Vec<DueMessage>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, to_name, to_email, subject, body, in_reply_to, created_ms, attempts, game_id, picture_phase, \
         picture_lang FROM outbox WHERE sent_ms IS NULL AND failed_ms IS NULL AND next_try_ms <= $1 \
         AND (claimed_ms IS NULL OR claimed_ms < $2) AND ($3 = '' OR id = $3) ORDER BY created_ms, id LIMIT 100",
    )
    .bind(now)
    .bind(claimed_before)
    .bind(only.unwrap_or_default())
    .fetch_all(pool)
    .await
}

/// Claims a message for delivery at `mine` unless another delivery claimed it since
/// `claimed_before`; whether it is ours.
pub(crate) async fn claim(pool: &AnyPool, id: &str, mine: i64, claimed_before: i64) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query(
        "UPDATE outbox SET claimed_ms = $1 WHERE id = $2 AND sent_ms IS NULL AND (claimed_ms IS NULL OR claimed_ms < $3)",
    )
    .bind(mine)
    .bind(id)
    .bind(claimed_before)
    .execute(pool)
    .await?;
    Ok(claimed.rows_affected() == 1)
}

/// Marks a message claimed at `mine` as sent at `now`.
pub(crate) async fn mark_sent(pool: &AnyPool, id: &str, mine: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE outbox SET sent_ms = $1, last_error = NULL WHERE id = $2 AND claimed_ms = $3")
        .bind(now)
        .bind(id)
        .bind(mine)
        .execute(pool)
        .await?;
    Ok(())
}

/// What became of a failed try.
#[derive(Debug, Clone)]
pub(crate) struct FailedTry<'a> {
    /// The tries so far, this one included.
    pub(crate) attempts: i64,
    /// Why it failed.
    pub(crate) error: &'a str,
    /// When to try again.
    pub(crate) next_try_ms: i64,
    /// When it was given up, if it was.
    pub(crate) given_up_ms: Option<i64>,
}

/// Records a failed try of a message claimed at `mine` and lets the claim go.
pub(crate) async fn mark_failed(
    pool: &AnyPool,
    id: &str,
    mine: i64,
    failed: &FailedTry<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET attempts = $1, last_error = $2, claimed_ms = NULL, next_try_ms = $3, failed_ms = $4 \
         WHERE id = $5 AND claimed_ms = $6",
    )
    .bind(failed.attempts)
    .bind(failed.error)
    .bind(failed.next_try_ms)
    .bind(failed.given_up_ms)
    .bind(id)
    .bind(mine)
    .execute(pool)
    .await?;
    Ok(())
}

/// What the outbox holds for a message: when sent, when given up, tries, the last error.
#[cfg(test)]
pub(crate) async fn state_of(
    pool: &AnyPool,
    id: &str,
) -> Result<(Option<i64>, Option<i64>, i64, Option<String>), sqlx::Error> {
    use sqlx::Row as _;
    let r = sqlx::query("SELECT sent_ms, failed_ms, attempts, last_error FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    Ok((
        r.try_get("sent_ms")?,
        r.try_get("failed_ms")?,
        r.try_get("attempts")?,
        r.try_get("last_error")?,
    ))
}

/// Makes every waiting message due now (tests of the retries).
#[cfg(test)]
pub(crate) async fn all_due_now(pool: &AnyPool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE outbox SET next_try_ms = 0").execute(pool).await?;
    Ok(())
}
