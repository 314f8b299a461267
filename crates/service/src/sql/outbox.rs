//! Queuing a message in the outbox table, inside the caller's transaction (the outbox adapter
//! delivers it).

use spielleiter_engine::report::Lang;

use crate::auth::new_id;
use crate::store::now_ms;

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
