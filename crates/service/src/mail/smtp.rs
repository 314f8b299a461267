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

async fn converse(mut stream: TcpStream, state: &AppState, hostname: &str) -> std::io::Result<()> {
    send(
        &mut stream,
        &reply(220, [0, 0, 0], &format!("{hostname} Spielleiter ESMTP ready")),
    )
    .await?;
    let mut requests = RequestReceiver::default();
    let mut envelope = Envelope::default();
    // While a mail's text is read: the receiver, the bytes so far, and how many were thrown away
    // because the mail is too large.
    let mut data: Option<(DataReceiver, Vec<u8>, usize)> = None;
    let mut chunk = vec![0u8; 16 * 1024];
    // After an overlong line: the rest of it is skipped, up to its end.
    let mut skipping_line = false;
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
        loop {
            if let Some((receiver, text, dropped)) = &mut data {
                let done = receiver.ingest(&mut bytes, text);
                if text.len() > MAX_MAIL_BYTES {
                    *dropped += text.len();
                    text.clear();
                }
                if !done {
                    break;
                }
                let Some((_, text, dropped)) = data.take() else { break };
                let answer = if dropped > 0 {
                    reply(
                        552,
                        [5, 3, 4],
                        &format!(
                            "message too large: the judge takes at most {MAX_MAIL_BYTES} bytes; send orders as plain text"
                        ),
                    )
                } else {
                    store(state, &text, envelope.from.as_deref()).await
                };
                envelope = Envelope::default();
                send(&mut stream, &answer).await?;
                continue;
            }
            if skipping_line {
                let rest = bytes.as_slice();
                match rest.iter().position(|&b| b == b'\n') {
                    Some(end) => {
                        bytes = rest[end + 1..].iter();
                        skipping_line = false;
                    }
                    None => break,
                }
            }
            let request = match requests.ingest(&mut bytes) {
                Ok(request) => request.into_owned(),
                Err(SmtpError::NeedsMoreData { .. }) => break,
                Err(SmtpError::ResponseTooLong) => {
                    skipping_line = true;
                    send(&mut stream, &reply(500, [5, 5, 6], "line too long")).await?;
                    continue;
                }
                Err(SmtpError::UnknownCommand) => {
                    send(&mut stream, &reply(500, [5, 5, 1], "unknown command")).await?;
                    continue;
                }
                Err(e) => {
                    send(&mut stream, &reply(501, [5, 5, 4], &e.to_string())).await?;
                    continue;
                }
            };
            let answer = match request {
                Request::Ehlo { .. } => {
                    envelope = Envelope::default();
                    let mut ehlo = EhloResponse::new(hostname);
                    ehlo.capabilities = smtp_proto::EXT_SIZE
                        | smtp_proto::EXT_8BIT_MIME
                        | smtp_proto::EXT_ENHANCED_STATUS_CODES
                        | smtp_proto::EXT_PIPELINING;
                    ehlo.size = MAX_MAIL_BYTES;
                    let mut out = Vec::new();
                    let _ = ehlo.write(&mut out);
                    out
                }
                Request::Helo { .. } | Request::Lhlo { .. } => {
                    envelope = Envelope::default();
                    reply(250, [0, 0, 0], hostname)
                }
                Request::Mail { .. } if envelope.started => reply(503, [5, 5, 1], "a mail is open already: RSET first"),
                Request::Mail { from } => {
                    if from.size > MAX_MAIL_BYTES {
                        envelope = Envelope::default();
                        reply(
                            552,
                            [5, 3, 4],
                            &format!("message too large: the judge takes at most {MAX_MAIL_BYTES} bytes"),
                        )
                    } else {
                        envelope = Envelope {
                            started: true,
                            // Kept when empty: the null sender marks a delivery report.
                            from: Some(from.address),
                            recipients: 0,
                        };
                        reply(250, [2, 1, 0], "sender OK")
                    }
                }
                Request::Rcpt { .. } if !envelope.started => reply(503, [5, 5, 1], "MAIL FROM first"),
                Request::Rcpt { .. } if envelope.recipients >= MAX_RECIPIENTS => {
                    reply(452, [4, 5, 3], "too many recipients")
                }
                Request::Rcpt { .. } => {
                    envelope.recipients += 1;
                    reply(250, [2, 1, 5], "recipient OK")
                }
                Request::Data if envelope.recipients == 0 => reply(503, [5, 5, 1], "RCPT TO first"),
                Request::Data => {
                    // The receiver starts as after a line end, so that an empty mail's lone
                    // "." ends it too.
                    let mut receiver = DataReceiver::new();
                    let mut primer = Vec::new();
                    receiver.ingest(&mut b"\r\n".iter(), &mut primer);
                    data = Some((receiver, Vec::new(), 0));
                    reply(354, [0, 0, 0], "send the mail, end with <CRLF>.<CRLF>")
                }
                Request::Rset => {
                    envelope = Envelope::default();
                    reply(250, [2, 0, 0], "reset")
                }
                Request::Noop { .. } => reply(250, [2, 0, 0], "OK"),
                Request::Vrfy { .. } => reply(252, [2, 5, 2], "cannot verify, but will take the mail"),
                Request::Help { .. } => reply(
                    214,
                    [2, 0, 0],
                    "send a mail with HELP in its text for the judge's commands",
                ),
                Request::Quit => {
                    send(&mut stream, &reply(221, [2, 0, 0], "bye")).await?;
                    return Ok(());
                }
                Request::StartTls
                | Request::Auth { .. }
                | Request::Bdat { .. }
                | Request::Burl { .. }
                | Request::Etrn { .. }
                | Request::Atrn { .. }
                | Request::Expn { .. } => reply(502, [5, 5, 1], "not offered"),
            };
            send(&mut stream, &answer).await?;
        }
    }
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
