//! The built-in SMTP listener (`serve --smtp ADDR`): takes mail for the judge over plain SMTP
//! (RFC 5321 with SIZE, 8BITMIME and enhanced status codes; the protocol is read and written by
//! `smtp-proto`) and stores each message in the inbox before it says 250, so an accepted mail is
//! never lost. An oversized mail is refused with 552, a repeated Message-ID is accepted and
//! dropped, and the sender learns both from the reply line.

use std::sync::Arc;
use std::time::Duration;

use smtp_proto::request::receiver::{DataReceiver, RequestReceiver};
use smtp_proto::{EhloResponse, Error as SmtpError, Request, Response};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

use super::inbox::{MAX_MAIL_BYTES, Received, Refused, receive};
use crate::api::AppState;

/// How long the listener waits for a client's next bytes.
const IDLE: Duration = Duration::from_secs(300);

/// How long one client may take to read a reply.
const WRITE_LIMIT: Duration = Duration::from_secs(60);

/// How long one connection may last in all.
const SESSION_LIMIT: Duration = Duration::from_secs(30 * 60);

/// Connections served at once; more wait for a free place.
const MAX_CONNECTIONS: usize = 64;

/// Most recipients of one mail.
const MAX_RECIPIENTS: usize = 100;

/// Answers SMTP clients on `listener` until the process ends.
pub async fn run(listener: TcpListener, state: AppState, hostname: String) {
    let places = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let Ok(place) = places.clone().acquire_owned().await else {
            return;
        };
        let state = state.clone();
        let hostname = hostname.clone();
        tokio::spawn(async move {
            if let Err(e) = converse(stream, &state, &hostname).await {
                eprintln!("SMTP client {peer}: {e}");
            }
            drop(place);
        });
    }
}

/// One mail being received.
#[derive(Default)]
struct Envelope {
    /// Whether MAIL was accepted (a bounce has the empty sender, so `from` is none).
    started: bool,
    from: Option<String>,
    recipients: usize,
}

/// Writes a reply, giving up on a client that does not read.
async fn send(stream: &mut TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    tokio::time::timeout(WRITE_LIMIT, stream.write_all(bytes))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "the client does not read"))?
}

fn reply(code: u16, esc: [u8; 3], message: &str) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = Response::new(code, esc[0], esc[1], esc[2], message).write(&mut out);
    out
}

/// A mail's text being read: the receiver, the bytes so far, and how many were thrown away
/// because the mail is too large.
type Reading = (DataReceiver, Vec<u8>, usize);

/// What one SMTP conversation keeps between requests.
struct Conversation<'a> {
    hostname: &'a str,
    envelope: Envelope,
    /// While a mail's text is read.
    data: Option<Reading>,
    /// After an overlong line: the rest of it is skipped, up to its end.
    skipping_line: bool,
}

async fn converse(mut stream: TcpStream, state: &AppState, hostname: &str) -> std::io::Result<()> {
    send(
        &mut stream,
        &reply(220, [0, 0, 0], &format!("{hostname} Spielleiter ESMTP ready")),
    )
    .await?;
    let mut requests = RequestReceiver::default();
    let mut talk = Conversation {
        hostname,
        envelope: Envelope::default(),
        data: None,
        skipping_line: false,
    };
    let mut chunk = vec![0u8; 16 * 1024];
    let started = std::time::Instant::now();
    loop {
        if started.elapsed() > SESSION_LIMIT {
            send(&mut stream, &reply(421, [4, 4, 2], "connection open too long, closing")).await?;
            return Ok(());
        }
        let n = match tokio::time::timeout(IDLE, stream.read(&mut chunk)).await {
            Ok(read) => read?,
            Err(_) => {
                send(&mut stream, &reply(421, [4, 4, 2], "idle too long, closing")).await?;
                return Ok(());
            }
        };
        if n == 0 {
            return Ok(());
        }
        let mut bytes = chunk[..n].iter();
        while let Some(step) = talk.next(&mut bytes, &mut requests, state).await {
            send(&mut stream, &step.answer).await?;
            if step.quit {
                return Ok(());
            }
        }
    }
}

/// An answer to send, and whether the conversation ends after it.
struct Step {
    answer: Vec<u8>,
    quit: bool,
}

impl Step {
    fn answer(answer: Vec<u8>) -> Option<Step> {
        Some(Step { answer, quit: false })
    }
}

impl Conversation<'_> {
    /// Reads on in `bytes` to the next thing to answer; none when they are used up.
    async fn next(
        &mut self,
        bytes: &mut std::slice::Iter<'_, u8>,
        requests: &mut RequestReceiver,
        state: &AppState,
    ) -> Option<Step> {
        if self.data.is_some() {
            return match self.read_text(bytes) {
                Some(reading) => Step::answer(self.received(reading, state).await),
                None => None,
            };
        }
        if self.skipping_line {
            let rest = bytes.as_slice();
            let end = rest.iter().position(|&b| b == b'\n')?;
            *bytes = rest[end + 1..].iter();
            self.skipping_line = false;
        }
        let request = match requests.ingest(bytes) {
            Ok(request) => request.into_owned(),
            Err(SmtpError::NeedsMoreData { .. }) => return None,
            Err(SmtpError::ResponseTooLong) => {
                self.skipping_line = true;
                return Step::answer(reply(500, [5, 5, 6], "line too long"));
            }
            Err(SmtpError::UnknownCommand) => return Step::answer(reply(500, [5, 5, 1], "unknown command")),
            Err(e) => return Step::answer(reply(501, [5, 5, 4], &e.to_string())),
        };
        if matches!(request, Request::Quit) {
            return Some(Step {
                answer: reply(221, [2, 0, 0], "bye"),
                quit: true,
            });
        }
        Step::answer(self.answer(request))
    }

    /// Reads a mail's text on; the whole of it once its end came.
    fn read_text(&mut self, bytes: &mut std::slice::Iter<'_, u8>) -> Option<Reading> {
        let (receiver, text, dropped) = self.data.as_mut()?;
        let done = receiver.ingest(bytes, text);
        if text.len() > MAX_MAIL_BYTES {
            *dropped += text.len();
            text.clear();
        }
        if done { self.data.take() } else { None }
    }

    /// Stores a mail read whole (unless it was too large) and says how it went.
    async fn received(&mut self, (_, text, dropped): Reading, state: &AppState) -> Vec<u8> {
        let from = std::mem::take(&mut self.envelope).from;
        if dropped > 0 {
            return reply(
                552,
                [5, 3, 4],
                &format!(
                    "message too large: the judge takes at most {MAX_MAIL_BYTES} bytes; send orders as plain text"
                ),
            );
        }
        store(state, &text, from.as_deref()).await
    }

    /// The answer to a request other than QUIT.
    fn answer(&mut self, request: Request<String>) -> Vec<u8> {
        match request {
            Request::Ehlo { .. } => {
                self.envelope = Envelope::default();
                ehlo(self.hostname)
            }
            Request::Helo { .. } | Request::Lhlo { .. } => {
                self.envelope = Envelope::default();
                reply(250, [0, 0, 0], self.hostname)
            }
            Request::Mail { .. } if self.envelope.started => {
                reply(503, [5, 5, 1], "a mail is open already: RSET first")
            }
            Request::Mail { from } => self.mail_from(from),
            Request::Rcpt { .. } if !self.envelope.started => reply(503, [5, 5, 1], "MAIL FROM first"),
            Request::Rcpt { .. } if self.envelope.recipients >= MAX_RECIPIENTS => {
                reply(452, [4, 5, 3], "too many recipients")
            }
            Request::Rcpt { .. } => {
                self.envelope.recipients += 1;
                reply(250, [2, 1, 5], "recipient OK")
            }
            Request::Data if self.envelope.recipients == 0 => reply(503, [5, 5, 1], "RCPT TO first"),
            Request::Data => {
                // The receiver starts as after a line end, so that an empty mail's lone "." ends
                // it too.
                let mut receiver = DataReceiver::new();
                let mut primer = Vec::new();
                receiver.ingest(&mut b"\r\n".iter(), &mut primer);
                self.data = Some((receiver, Vec::new(), 0));
                reply(354, [0, 0, 0], "send the mail, end with <CRLF>.<CRLF>")
            }
            Request::Rset => {
                self.envelope = Envelope::default();
                reply(250, [2, 0, 0], "reset")
            }
            Request::Noop { .. } => reply(250, [2, 0, 0], "OK"),
            Request::Vrfy { .. } => reply(252, [2, 5, 2], "cannot verify, but will take the mail"),
            Request::Help { .. } => reply(
                214,
                [2, 0, 0],
                "send a mail with HELP in its text for the judge's commands",
            ),
            Request::Quit => reply(221, [2, 0, 0], "bye"),
            Request::StartTls
            | Request::Auth { .. }
            | Request::Bdat { .. }
            | Request::Burl { .. }
            | Request::Etrn { .. }
            | Request::Atrn { .. }
            | Request::Expn { .. } => reply(502, [5, 5, 1], "not offered"),
        }
    }

    /// MAIL FROM: a new envelope, unless the announced size is too large.
    fn mail_from(&mut self, from: smtp_proto::MailFrom<String>) -> Vec<u8> {
        if from.size > MAX_MAIL_BYTES {
            self.envelope = Envelope::default();
            return reply(
                552,
                [5, 3, 4],
                &format!("message too large: the judge takes at most {MAX_MAIL_BYTES} bytes"),
            );
        }
        self.envelope = Envelope {
            started: true,
            // Kept when empty: the null sender marks a delivery report.
            from: Some(from.address),
            recipients: 0,
        };
        reply(250, [2, 1, 0], "sender OK")
    }
}

/// The EHLO answer: the extensions the listener offers.
fn ehlo(hostname: &str) -> Vec<u8> {
    let mut ehlo = EhloResponse::new(hostname);
    ehlo.capabilities = smtp_proto::EXT_SIZE
        | smtp_proto::EXT_8BIT_MIME
        | smtp_proto::EXT_ENHANCED_STATUS_CODES
        | smtp_proto::EXT_PIPELINING;
    ehlo.size = MAX_MAIL_BYTES;
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = ehlo.write(&mut out);
    out
}

/// Stores a received mail and says how it went.
async fn store(state: &AppState, text: &[u8], from: Option<&str>) -> Vec<u8> {
    match receive(&state.store, text, from).await {
        Ok(Received::Stored(id)) => {
            state.mail_received.notify_one();
            reply(250, [2, 0, 0], &format!("queued as {id}; the judge answers by mail"))
        }
        Ok(Received::Duplicate) => reply(
            250,
            [2, 0, 0],
            "duplicate: this mail (its Message-ID, sender and text) was received before and is not read again",
        ),
        Err(Refused::TooLarge(_)) => reply(552, [5, 3, 4], "message too large"),
        Err(Refused::Store(e)) => {
            eprintln!("storing a received mail: {e}");
            reply(451, [4, 3, 0], "the mail could not be stored; try again later")
        }
    }
}
