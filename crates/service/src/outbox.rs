//! The outbox: every outgoing message (results, announcements, press, replies to mail, deadline
//! reminders) is written to the `outbox` table in the same transaction as the change it reports.
//! A background task claims each due message, hands it to a [`Delivery`] (a folder of `.eml`
//! files by default, an SMTP relay when configured) and marks it sent. A claim expires after ten
//! minutes, so a message whose process died is sent by another; a failed send is tried again
//! later, with growing pauses, until the relay refuses it for good or the tries run out.
//! Result mails name their phase; its map pictures are drawn when they are sent.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message, MultiPart, SinglePart};

use spielleiter_engine::report::Lang;

use crate::sql::outbox as stored;
use crate::store::{Store, now_ms};

/// How long a claimed message is left to the process that claimed it (longer than the slowest
/// SMTP exchange: every step of it may take the relay's 30-second timeout).
const CLAIM_MS: i64 = 10 * 60_000;

/// How often a message is tried before it is given up.
const MAX_ATTEMPTS: i64 = 10;

/// A message to one address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMessage {
    /// The outbox id, stable across retries (it is also the Message-ID's local part).
    pub id: String,
    /// The recipient's name.
    pub to_name: String,
    /// The recipient's e-mail address.
    pub to_email: String,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub body: String,
    /// The Message-ID this message answers, if it is a reply.
    pub in_reply_to: Option<String>,
    /// When the message was queued (milliseconds since 1970); its Date header.
    pub created_ms: i64,
    /// Files sent with the text (the maps of a result), in order.
    pub attachments: Vec<Attachment>,
    /// The game the message is about, if any.
    pub game_id: Option<String>,
}

pub use crate::attachment::Attachment;
pub use crate::sql::outbox::{PhasePicture, Recipient, queue};

/// Why a delivery failed, and whether trying again can help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryError {
    /// The relay refused the message for good (an SMTP 5xx reply, a bad address).
    pub permanent: bool,
    /// What went wrong, for the log and the outbox row.
    pub message: String,
}

impl DeliveryError {
    fn temporary(message: impl Into<String>) -> Self {
        DeliveryError {
            permanent: false,
            message: message.into(),
        }
    }
}

/// Where outgoing messages go.
pub trait Delivery: Send + Sync {
    /// Delivers one message; delivering the same id again must not make a second message where
    /// the medium allows (the folder replaces the file; SMTP cannot take a message back).
    fn deliver(&self, message: &OutgoingMessage) -> Result<(), DeliveryError>;
}

/// The judge's own address, the sender of every message.
#[derive(Debug, Clone)]
pub struct Sender(pub Mailbox);

impl Sender {
    /// Reads an address such as `Spielleiter <judge@example.org>`.
    pub fn parse(text: &str) -> Result<Sender, String> {
        text.parse::<Mailbox>()
            .map(Sender)
            .map_err(|e| format!("`{text}` is not a mail address: {e}"))
    }

    /// The message as MIME text: UTF-8 plain text, encoded headers, a Message-ID from the outbox
    /// id and the Date of queueing, so that every retry is the same message.
    pub fn compose(&self, m: &OutgoingMessage) -> Result<Message, DeliveryError> {
        let bad = |e: String| DeliveryError {
            permanent: true,
            message: e,
        };
        // A name that is empty or only the address again is left out.
        let name =
            Some(m.to_name.trim().to_string()).filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case(m.to_email.trim()));
        let to = Mailbox::new(
            name,
            m.to_email
                .trim()
                .parse()
                .map_err(|e| bad(format!("recipient `{}`: {e}", m.to_email)))?,
        );
        let domain = self.0.email.domain().to_string();
        let mut builder = Message::builder()
            .from(self.0.clone())
            .to(to)
            .subject(m.subject.clone())
            .message_id(Some(format!("<{}@{domain}>", m.id)))
            .date(std::time::UNIX_EPOCH + Duration::from_millis(m.created_ms.max(0) as u64))
            .user_agent("Spielleiter".into())
            // Marks the mail as sent by a program, so auto-responders do not answer it (RFC 3834).
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                if m.in_reply_to.is_some() {
                    "auto-replied"
                } else {
                    "auto-generated"
                }
                .to_string(),
            ));
        if let Some(id) = &m.in_reply_to {
            builder = builder.in_reply_to(id.clone()).references(id.clone());
        }
        if m.attachments.is_empty() {
            return builder
                .header(ContentType::TEXT_PLAIN)
                .body(m.body.clone())
                .map_err(|e| bad(e.to_string()));
        }
        let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(m.body.clone()));
        for a in &m.attachments {
            let kind = ContentType::parse(&a.content_type).map_err(|e| bad(format!("{}: {e}", a.content_type)))?;
            parts = parts.singlepart(lettre::message::Attachment::new(a.filename.clone()).body(a.data.to_vec(), kind));
        }
        builder.multipart(parts).map_err(|e| bad(e.to_string()))
    }
}

/// Delivery into a folder: one `ID.eml` file per message, written atomically (the embedded
/// default: the judge runs with no mail server at all).
pub struct MailFolder {
    /// The folder.
    pub dir: PathBuf,
    /// The judge's address.
    pub sender: Sender,
}

impl Delivery for MailFolder {
    fn deliver(&self, m: &OutgoingMessage) -> Result<(), DeliveryError> {
        let text = self.sender.compose(m)?.formatted();
        let failed =
            |path: &std::path::Path, e: std::io::Error| DeliveryError::temporary(format!("{}: {e}", path.display()));
        std::fs::create_dir_all(&self.dir).map_err(|e| failed(&self.dir, e))?;
        let tmp = self.dir.join(format!(".{}.tmp", m.id));
        let path = self.dir.join(format!("{}.eml", m.id));
        std::fs::write(&tmp, text).map_err(|e| failed(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| failed(&path, e))
    }
}

/// Delivery through an SMTP relay, configured by URL: `smtp://host:25` (plain),
/// `smtp://user:password@host:587?tls=required` (STARTTLS), `smtps://user:password@host` (TLS).
pub struct SmtpRelay {
    transport: lettre::SmtpTransport,
    sender: Sender,
}

impl SmtpRelay {
    /// A relay from its URL.
    pub fn new(url: &str, sender: Sender) -> Result<SmtpRelay, String> {
        let transport = lettre::SmtpTransport::from_url(url)
            .map_err(|e| format!("SMTP relay URL `{}`: {e}", redact(url)))?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        Ok(SmtpRelay { transport, sender })
    }
}

/// A relay URL with its password hidden, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_string(),
    }
}

impl Delivery for SmtpRelay {
    fn deliver(&self, m: &OutgoingMessage) -> Result<(), DeliveryError> {
        use lettre::Transport as _;
        let message = self.sender.compose(m)?;
        self.transport.send(&message).map(|_| ()).map_err(|e| DeliveryError {
            permanent: e.is_permanent(),
            message: e.to_string(),
        })
    }
}

/// A delivery that ends every message about a game with a signature naming the game's web
/// page (when the judge knows its public address).
pub struct WithGameLinks {
    /// Where the messages go.
    pub inner: Arc<dyn Delivery>,
    /// The judge's public address.
    pub public_url: crate::PublicUrl,
}

impl Delivery for WithGameLinks {
    fn deliver(&self, m: &OutgoingMessage) -> Result<(), DeliveryError> {
        let Some(game) = &m.game_id else {
            return self.inner.deliver(m);
        };
        let mut signed = m.clone();
        let page = self.public_url.page(&format!("/games/{game}"));
        signed.body = format!("{}\n-- \n{page}\n", m.body.trim_end());
        self.inner.deliver(&signed)
    }
}

/// The delivery a process is configured for: the SMTP relay at `smtp_relay` if given, else the
/// folder `mail_dir`; every message is sent as `mail_from`, and those about a game link to its
/// page when `public_url` is given.
pub fn configured(
    mail_from: &str,
    smtp_relay: Option<&str>,
    mail_dir: &std::path::Path,
    public_url: Option<&crate::PublicUrl>,
) -> Result<Arc<dyn Delivery>, String> {
    let sender = Sender::parse(mail_from)?;
    let delivery: Arc<dyn Delivery> = match smtp_relay {
        Some(url) => Arc::new(SmtpRelay::new(url, sender)?),
        None => Arc::new(MailFolder {
            dir: mail_dir.to_path_buf(),
            sender,
        }),
    };
    Ok(match public_url {
        Some(url) => Arc::new(WithGameLinks {
            inner: delivery,
            public_url: url.clone(),
        }),
        None => delivery,
    })
}

/// The pause before the next try after `attempts` failed ones: 30 s, doubling, at most an hour.
fn backoff_ms(attempts: i64) -> i64 {
    let doublings = attempts.clamp(1, 8) - 1;
    (30_000i64 << doublings).min(3_600_000)
}

/// Claims, delivers and marks sent every message that is due now; returns how many were sent.
/// Messages queued together (one adjudication's results) are sent together, oldest first.
pub async fn deliver_due(store: &Store, delivery: &Arc<dyn Delivery>) -> Result<usize, sqlx::Error> {
    deliver(store, delivery, None).await
}

/// Delivers one message now, if it is due (`mail ingest` sends its reply and leaves the rest of
/// the outbox to `serve`).
pub async fn deliver_one(store: &Store, delivery: &Arc<dyn Delivery>, id: &str) -> Result<usize, sqlx::Error> {
    deliver(store, delivery, Some(id)).await
}

async fn deliver(store: &Store, delivery: &Arc<dyn Delivery>, only: Option<&str>) -> Result<usize, sqlx::Error> {
    let mut sent = 0;
    loop {
        let now = now_ms();
        let rows = stored::due(&store.pool, now, now - CLAIM_MS, only).await?;
        if rows.is_empty() {
            return Ok(sent);
        }
        let mut progress = false;
        // The pictures of this batch, each drawn once for every message that carries it.
        let mut pictures = Pictures::default();
        for r in rows {
            let mine = now_ms();
            if !stored::claim(&store.pool, &r.id, mine, mine - CLAIM_MS).await? {
                continue;
            }
            progress = true;
            let outcome = match r.picture() {
                Ok(picture) => send(store, delivery, &mut pictures, &r, picture).await?,
                Err(why) => Err(DeliveryError {
                    permanent: true,
                    message: why,
                }),
            };
            if record(store, &r, mine, outcome).await? {
                sent += 1;
            }
        }
        if !progress {
            return Ok(sent);
        }
    }
}

/// Hands a claimed message to the delivery, with the maps of `picture` if it carries them.
async fn send(
    store: &Store,
    delivery: &Arc<dyn Delivery>,
    pictures: &mut Pictures,
    r: &stored::DueMessage,
    picture: Option<(String, String, Lang)>,
) -> Result<Result<(), DeliveryError>, sqlx::Error> {
    let mut m = OutgoingMessage {
        id: r.id.clone(),
        to_name: r.to_name.clone(),
        to_email: r.to_email.clone(),
        subject: r.subject.clone(),
        body: r.body.clone(),
        in_reply_to: r.in_reply_to.clone(),
        created_ms: r.created_ms,
        attachments: Vec::new(),
        game_id: r.game_id.clone(),
    };
    if let Some((game, phase, lang)) = picture {
        // A database error leaves the message claimed: it is tried again when the claim runs out.
        m.attachments = pictures.get(store, &game, &phase, lang).await?;
    }
    let worker = delivery.clone();
    Ok(tokio::task::spawn_blocking(move || worker.deliver(&m))
        .await
        .unwrap_or_else(|e| Err(DeliveryError::temporary(format!("the delivery task failed: {e}")))))
}

/// Records what became of a delivery under the claim `mine`: sent, or tried again later (given
/// up for good after a permanent error or too many tries). Whether it was sent.
async fn record(
    store: &Store,
    m: &stored::DueMessage,
    mine: i64,
    outcome: Result<(), DeliveryError>,
) -> Result<bool, sqlx::Error> {
    let Err(e) = outcome else {
        stored::mark_sent(&store.pool, &m.id, mine, now_ms()).await?;
        return Ok(true);
    };
    let attempts = m.attempts + 1;
    let give_up = e.permanent || attempts >= MAX_ATTEMPTS;
    eprintln!(
        "delivering message {} to {} (try {attempts}): {}{}",
        m.id,
        m.to_email,
        e.message,
        if give_up { "; given up" } else { "" }
    );
    let failed = stored::FailedTry {
        attempts,
        error: &e.message,
        next_try_ms: now_ms() + backoff_ms(attempts),
        given_up_ms: give_up.then(now_ms),
    };
    stored::mark_failed(&store.pool, &m.id, mine, &failed).await?;
    Ok(false)
}

/// The map pictures of one batch of messages, each drawn once for all the messages that carry it.
#[derive(Default)]
struct Pictures(HashMap<(String, String, Lang), Vec<Attachment>>);

impl Pictures {
    /// The pictures of a game's phase in a language; none if they could not be drawn (the
    /// text goes without them).
    async fn get(
        &mut self,
        store: &Store,
        game: &str,
        phase: &str,
        lang: Lang,
    ) -> Result<Vec<Attachment>, sqlx::Error> {
        let key = (game.to_string(), phase.to_string(), lang);
        if let Some(done) = self.0.get(&key) {
            return Ok(done.clone());
        }
        let drawn = crate::pictures::result_attachments(store, game, phase, lang).await?;
        self.0.insert(key, drawn.clone());
        Ok(drawn)
    }
}

/// Delivers due messages every `tick` (and at once when `wake` is notified) until the process ends.
pub async fn run(store: Store, delivery: Arc<dyn Delivery>, tick: Duration, wake: Arc<tokio::sync::Notify>) {
    loop {
        if let Err(e) = deliver_due(&store, &delivery).await {
            eprintln!("delivering the outbox: {e}");
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = wake.notified() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MimeHeaders;

    fn message() -> OutgoingMessage {
        OutgoingMessage {
            id: "abc123".into(),
            to_name: "Jürgen".into(),
            to_email: "juergen@example.org".into(),
            subject: "Ergebnis Frühjahr 1901".into(),
            body: "Österreich: A Wien - Galizien.\n".into(),
            in_reply_to: Some("<x@y>".into()),
            created_ms: 1_700_000_000_000,
            attachments: Vec::new(),
            game_id: None,
        }
    }

    #[test]
    fn a_composed_message_is_mime_with_encoded_headers_and_a_stable_id() {
        let sender = Sender::parse("Spielleiter <judge@example.org>").expect("an address");
        let text = String::from_utf8(sender.compose(&message()).expect("a message").formatted()).expect("ASCII");
        assert!(text.contains("Message-ID: <abc123@example.org>"), "{text}");
        assert!(text.contains("In-Reply-To: <x@y>"), "{text}");
        assert!(text.contains("Auto-Submitted: auto-replied"), "{text}");
        assert!(
            text.contains("=?utf-8?b?RnLDvGhqYWhy?="),
            "the subject is encoded: {text}"
        );
        assert!(text.contains("charset=utf-8"), "{text}");
        // Composing again gives the same message (retries are the same mail).
        let again = String::from_utf8(sender.compose(&message()).expect("a message").formatted()).expect("ASCII");
        assert_eq!(text, again);
        let parsed = mail_parser::MessageParser::default()
            .parse(text.as_bytes())
            .expect("parses");
        assert_eq!(parsed.subject(), Some("Ergebnis Frühjahr 1901"));
        assert_eq!(
            parsed.body_text(0).as_deref().map(str::trim_end),
            Some("Österreich: A Wien - Galizien.")
        );
    }

    #[test]
    fn an_attachment_makes_a_mixed_message_with_the_text_first() {
        let sender = Sender::parse("Spielleiter <judge@example.org>").expect("an address");
        let mut m = message();
        let picture: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        m.attachments.push(Attachment {
            filename: "s1901m.png".into(),
            content_type: "image/png".into(),
            data: picture.clone().into(),
        });
        let raw = sender.compose(&m).expect("a message").formatted();
        let parsed = mail_parser::MessageParser::default().parse(&raw).expect("parses");
        assert_eq!(
            parsed.body_text(0).as_deref().map(str::trim_end),
            Some("Österreich: A Wien - Galizien.")
        );
        let attached: Vec<_> = parsed.attachments().collect();
        assert_eq!(attached.len(), 1);
        assert_eq!(attached[0].attachment_name(), Some("s1901m.png"));
        let kind = attached[0].content_type().expect("a type");
        assert_eq!((kind.ctype(), kind.subtype()), ("image", Some("png")));
        assert_eq!(attached[0].contents(), picture.as_slice());
    }

    #[test]
    fn a_bad_attachment_type_is_refused_for_good() {
        let sender = Sender::parse("judge@example.org").expect("an address");
        let mut m = message();
        m.attachments.push(Attachment {
            filename: "x".into(),
            content_type: "not a type".into(),
            data: Vec::new().into(),
        });
        assert!(sender.compose(&m).is_err_and(|e| e.permanent));
    }

    #[test]
    fn a_recipient_without_a_name_is_the_bare_address() {
        let sender = Sender::parse("judge@example.org").expect("an address");
        let mut m = message();
        m.to_name = m.to_email.clone();
        let text = String::from_utf8(sender.compose(&m).expect("a message").formatted()).expect("ASCII");
        assert!(text.contains("To: juergen@example.org\r\n"), "{text}");
    }

    #[test]
    fn a_bad_recipient_is_refused_for_good() {
        let sender = Sender::parse("judge@example.org").expect("an address");
        let mut m = message();
        m.to_email = "not an address".into();
        assert!(sender.compose(&m).is_err_and(|e| e.permanent));
    }

    /// A delivery that fails as told, counting its calls.
    struct Flaky {
        failures: std::sync::Mutex<Vec<DeliveryError>>,
        calls: std::sync::atomic::AtomicUsize,
    }

    impl Delivery for Flaky {
        fn deliver(&self, _: &OutgoingMessage) -> Result<(), DeliveryError> {
            self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            match self.failures.lock().map(|mut f| f.pop()) {
                Ok(Some(e)) => Err(e),
                _ => Ok(()),
            }
        }
    }

    async fn queued(store: &Store, email: &str) -> String {
        let mut tx = store.pool.begin().await.expect("a transaction");
        let id = queue(
            &mut tx,
            None,
            Recipient::Address { name: "A", email },
            "s",
            "b\0",
            None,
            None,
        )
        .await
        .expect("queued");
        tx.commit().await.expect("committed");
        id
    }

    async fn row(store: &Store, id: &str) -> (Option<i64>, Option<i64>, i64, Option<String>) {
        stored::state_of(&store.pool, id).await.expect("the row")
    }

    #[tokio::test]
    async fn a_failed_send_is_tried_again_later_and_a_refused_one_given_up() {
        let store = Store::open("sqlite::memory:").await.expect("a database");
        let flaky = Arc::new(Flaky {
            failures: std::sync::Mutex::new(vec![DeliveryError::temporary("connection refused")]),
            calls: Default::default(),
        });
        let delivery: Arc<dyn Delivery> = flaky.clone();
        let id = queued(&store, "a@example.org").await;
        assert_eq!(deliver_due(&store, &delivery).await.expect("runs"), 0);
        let (sent, failed, attempts, error) = row(&store, &id).await;
        assert_eq!(
            (sent, failed, attempts, error.as_deref()),
            (None, None, 1, Some("connection refused"))
        );
        // Not due again at once: the pause comes first.
        assert_eq!(deliver_due(&store, &delivery).await.expect("runs"), 0);
        assert_eq!(flaky.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
        stored::all_due_now(&store.pool).await.expect("due");
        assert_eq!(deliver_due(&store, &delivery).await.expect("runs"), 1);
        assert!(row(&store, &id).await.0.is_some(), "sent on the second try");

        let refused = Arc::new(Flaky {
            failures: std::sync::Mutex::new(vec![DeliveryError {
                permanent: true,
                message: "550 no such user".into(),
            }]),
            calls: Default::default(),
        });
        let delivery: Arc<dyn Delivery> = refused.clone();
        let id = queued(&store, "nobody@example.org").await;
        deliver_due(&store, &delivery).await.expect("runs");
        stored::all_due_now(&store.pool).await.expect("due");
        deliver_due(&store, &delivery).await.expect("runs");
        let (sent, failed, attempts, _) = row(&store, &id).await;
        assert_eq!((sent, failed.is_some(), attempts), (None, true, 1), "given up at once");
        assert_eq!(refused.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn retries_wait_longer_each_time_up_to_an_hour() {
        assert_eq!(backoff_ms(1), 30_000);
        assert_eq!(backoff_ms(2), 60_000);
        assert_eq!(backoff_ms(9), 3_600_000);
        assert!(
            redact("smtp://u:secret@host:587").contains("host:587")
                && !redact("smtp://u:secret@host").contains("secret")
        );
    }
}
