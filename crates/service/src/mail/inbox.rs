//! The inbox: every received mail is stored raw (one row per Message-ID) before it is answered,
//! so that a crash loses nothing; processing reads it, carries out its commands and queues the
//! reply in the outbox in the same transaction that marks it done (and forgets its raw text,
//! which holds a password).

use super::message::Letter;
use crate::api::AppState;
use crate::auth::new_id;
use crate::outbox::{Recipient, queue};
use crate::sql::inbox as stored;
use crate::store::{Store, now_ms};

/// The largest mail taken, in bytes.
pub const MAX_MAIL_BYTES: usize = 1 << 20;

/// How long a claimed mail is left to the process that claimed it.
const CLAIM_MS: i64 = 5 * 60_000;

/// What became of a received mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Stored under this inbox id; it is answered by processing.
    Stored(String),
    /// This mail (its Message-ID, sender and text) was received before; this one is dropped.
    Duplicate,
}

/// Why a mail is refused before it is stored.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// Over [`MAX_MAIL_BYTES`].
    #[error(
        "the mail has {0} bytes; the judge takes at most {MAX_MAIL_BYTES}: send orders as plain text without attachments"
    )]
    TooLarge(usize),
    /// The database failed.
    #[error("the mail could not be stored: {0}")]
    Store(#[from] sqlx::Error),
}

/// The key a mail is deduplicated by: its Message-ID with a hash of its sender and its body, or
/// (without a Message-ID) a hash of all its bytes. The same mail delivered twice (even through
/// other relays, which add their own header lines) is one mail; a Message-ID used again by
/// another sender or with another text is another mail, read and answered on its own.
fn message_key(raw: &[u8]) -> String {
    let headers = mail_parser::MessageParser::default().parse_headers(raw);
    let id = headers
        .as_ref()
        .and_then(|m| m.message_id().map(|id| id.trim().to_string()))
        .filter(|id| !id.is_empty());
    let Some(id) = id else {
        return format!("sha256:{}", crate::auth::sha256_hex(raw));
    };
    let from = headers
        .as_ref()
        .and_then(|m| m.from())
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_lowercase();
    let mut content = from.into_bytes();
    content.push(b'\n');
    content.extend_from_slice(body_of(raw));
    // A very long Message-ID is kept as its hash: the key is a unique index entry.
    let id = if id.len() > 200 {
        crate::auth::sha256_hex(id.as_bytes())
    } else {
        id
    };
    format!("id:{id}:{}", crate::auth::sha256_hex(&content))
}

/// The bytes after a mail's header block (all of them if it has none).
fn body_of(raw: &[u8]) -> &[u8] {
    let end = |gap: &[u8]| raw.windows(gap.len()).position(|w| w == gap).map(|i| i + gap.len());
    match (end(b"\r\n\r\n"), end(b"\n\n")) {
        (Some(a), Some(b)) => &raw[a.min(b)..],
        (Some(a), None) | (None, Some(a)) => &raw[a..],
        (None, None) => raw,
    }
}

/// Stores a received mail unless its Message-ID was seen before.
pub async fn receive(store: &Store, raw: &[u8], envelope_from: Option<&str>) -> Result<Received, Refused> {
    if raw.len() > MAX_MAIL_BYTES {
        return Err(Refused::TooLarge(raw.len()));
    }
    let id = new_id();
    if stored::store(&store.pool, &id, &message_key(raw), raw, envelope_from, now_ms()).await? {
        Ok(Received::Stored(id))
    } else {
        Ok(Received::Duplicate)
    }
}

/// What processing did with a stored mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Processed {
    /// Its commands were carried out and the reply queued under this outbox id.
    Answered(String),
    /// It could not be read (not a mail, or no sender to answer); it is marked done unanswered.
    Unreadable(String),
    /// It was sent by a program (a bounce, an auto-reply): not answered, so no mail loop starts.
    Ignored(String),
    /// Another process has it, or it was processed before.
    Elsewhere,
}

/// Answers every stored mail not yet processed; returns how many were answered.
pub async fn process_pending(state: &AppState) -> Result<usize, sqlx::Error> {
    let ids = stored::unprocessed(&state.store.pool, now_ms() - CLAIM_MS).await?;
    let mut done = 0;
    for id in ids {
        // One mail that fails (the database refusing its reply, say) does not hold up the others;
        // its claim expires and it is tried again later.
        match process(state, &id).await {
            Ok(Processed::Answered(_)) => done += 1,
            Ok(_) => {}
            Err(e) => eprintln!("answering mail {id}: {e}"),
        }
    }
    Ok(done)
}

/// Claims, reads and answers one stored mail.
pub async fn process(state: &AppState, id: &str) -> Result<Processed, sqlx::Error> {
    let mine = now_ms();
    if !stored::claim(&state.store.pool, id, mine, mine - CLAIM_MS).await? {
        return Ok(Processed::Elsewhere);
    }
    let stored::StoredMail {
        raw,
        envelope_from,
        received_ms,
    } = stored::stored(&state.store.pool, id).await?;
    let mut tx;
    let read = raw.and_then(|raw| super::message::read(&raw, envelope_from.as_deref()).map_err(|e| e.to_string()));
    let outcome = match read {
        Ok(Letter {
            automatic: Some(why), ..
        }) => {
            eprintln!("mail {id} is not answered: {why}");
            tx = state.store.pool.begin().await?;
            Processed::Ignored(why)
        }
        Ok(letter) => {
            let reply = super::session::answer(state, &letter, id, received_ms).await;
            tx = state.store.pool.begin().await?;
            let reply_id = queue(
                &mut tx,
                reply.game_id.as_deref(),
                Recipient::Address {
                    name: &reply.to_name,
                    email: &reply.to_email,
                },
                &reply.subject,
                &reply.body,
                letter.message_id.map(|m| format!("<{m}>")).as_deref(),
                None,
            )
            .await?;
            Processed::Answered(reply_id)
        }
        Err(e) => {
            // Nobody to answer: the mail is kept in the log only.
            eprintln!("mail {id} is not answered: {e}");
            tx = state.store.pool.begin().await?;
            Processed::Unreadable(e.to_string())
        }
    };
    let still_mine = stored::finish(&mut tx, id, now_ms(), mine).await?;
    if !still_mine {
        // The claim ran out and another process took the mail: its reply is the one that counts.
        tx.rollback().await?;
        return Ok(Processed::Elsewhere);
    }
    tx.commit().await?;
    state.mail_sent.notify_one();
    Ok(outcome)
}

/// Answers stored mail every `tick`, and at once when `wake` is notified, until the process ends.
pub async fn run(state: AppState, tick: std::time::Duration) {
    loop {
        if let Err(e) = process_pending(&state).await {
            eprintln!("answering mail: {e}");
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = state.mail_received.notified() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mails_are_keyed_by_message_id_sender_and_body_or_by_their_bytes() {
        let mail = "Message-ID: <a@b>\r\nFrom: Anna <anna@example.org>\r\nSubject: s\r\n\r\nHELP\r\n";
        let key = message_key(mail.as_bytes());
        assert!(key.starts_with("id:a@b:"), "{key}");
        // The same mail again, with a relay's header line and the sender in other case.
        let relayed = format!("Received: from relay.example.net\r\n{}", mail.replace("anna@", "ANNA@"));
        assert_eq!(message_key(relayed.as_bytes()), key);
        // The same Message-ID with another body or from another sender is another mail.
        assert_ne!(message_key(mail.replace("HELP", "LIST").as_bytes()), key);
        assert_ne!(message_key(mail.replace("anna@", "eve@").as_bytes()), key);
        let long = format!("Message-ID: <{}@b>\r\n\r\nx", "a".repeat(500));
        assert!(message_key(long.as_bytes()).len() < 200);
        let one = message_key(b"Subject: s\r\n\r\nx");
        assert!(one.starts_with("sha256:"));
        assert_ne!(one, message_key(b"Subject: s\r\n\r\ny"));
    }
}
