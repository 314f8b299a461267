//! Delivery of the outbox: messages are written to the outbox in the same transaction as the
//! change they report; a background task claims each unsent message, hands it to a [`Delivery`]
//! and marks it sent. A claim expires after a minute, so a message whose process died is sent by
//! another, and a delivery is keyed by the message id, so a repeat replaces rather than duplicates.

use std::path::PathBuf;
use std::time::Duration;

use sqlx::Row;

use crate::store::{Store, now_ms};

/// How long a claimed message is left to the process that claimed it.
const CLAIM_MS: i64 = 60_000;

/// A message to one account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMessage {
    /// The outbox id, stable across retries.
    pub id: String,
    /// The recipient's name.
    pub to_name: String,
    /// The recipient's e-mail address.
    pub to_email: String,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub body: String,
    /// When the message was queued (milliseconds since 1970).
    pub created_ms: i64,
}

/// Where outgoing messages go (a mail folder now; SMTP later).
pub trait Delivery: Send + Sync {
    /// Delivers one message; delivering the same id again must not make a second message.
    fn deliver(&self, message: &OutgoingMessage) -> Result<(), String>;
}

/// Delivery into a folder: one `ID.eml` file per message, written atomically.
pub struct MailFolder {
    /// The folder.
    pub dir: PathBuf,
}

impl Delivery for MailFolder {
    fn deliver(&self, m: &OutgoingMessage) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let text = format!(
            "Message-ID: <{}@spielleiter>\r\nTo: {} <{}>\r\nSubject: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            m.id,
            m.to_name,
            m.to_email,
            m.subject,
            m.body.replace('\n', "\r\n")
        );
        let tmp = self.dir.join(format!(".{}.tmp", m.id));
        let path = self.dir.join(format!("{}.eml", m.id));
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Claims, delivers and marks sent every message that is due now; returns how many were sent.
pub async fn deliver_due(store: &Store, delivery: &dyn Delivery) -> Result<usize, sqlx::Error> {
    let now = now_ms();
    let rows = sqlx::query(
        "SELECT o.id, a.name, a.email, o.subject, o.body, o.created_ms FROM outbox o JOIN accounts a ON a.id = o.account_id \
         WHERE o.sent_ms IS NULL AND (o.claimed_ms IS NULL OR o.claimed_ms < $1) ORDER BY o.created_ms, o.id LIMIT 100",
    )
    .bind(now - CLAIM_MS)
    .fetch_all(&store.pool)
    .await?;
    let mut sent = 0;
    for r in rows {
        let m = OutgoingMessage {
            id: r.get(0),
            to_name: r.get(1),
            to_email: r.get(2),
            subject: r.get(3),
            body: r.get(4),
            created_ms: r.get(5),
        };
        // The claim is dated now, not at the start of the batch, so it stays ours for a minute.
        let mine = now_ms();
        let claimed = sqlx::query(
            "UPDATE outbox SET claimed_ms = $1 WHERE id = $2 AND sent_ms IS NULL AND (claimed_ms IS NULL OR claimed_ms < $3)",
        )
        .bind(mine)
        .bind(&m.id)
        .bind(mine - CLAIM_MS)
        .execute(&store.pool)
        .await?
        .rows_affected();
        if claimed == 0 {
            continue;
        }
        match delivery.deliver(&m) {
            Ok(()) => {
                sqlx::query("UPDATE outbox SET sent_ms = $1 WHERE id = $2 AND claimed_ms = $3")
                    .bind(now_ms())
                    .bind(&m.id)
                    .bind(mine)
                    .execute(&store.pool)
                    .await?;
                sent += 1;
            }
            // Left claimed: tried again when the claim expires.
            Err(e) => eprintln!("delivering message {}: {e}", m.id),
        }
    }
    Ok(sent)
}

/// Delivers due messages every `tick` until the process ends.
pub async fn run(store: Store, delivery: Box<dyn Delivery>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    loop {
        interval.tick().await;
        if let Err(e) = deliver_due(&store, delivery.as_ref()).await {
            eprintln!("delivering the outbox: {e}");
        }
    }
}
