//! `spielleiter serve` (the judge service: HTTP API, deadlines, mail in and out) and
//! `spielleiter mail ingest` (one mail from a mail server's pipe).

use std::io::Read as _;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use spielleiter_service::mail::inbox::{MAX_MAIL_BYTES, Processed, Received, Refused, process, receive};

/// Where the judge keeps its data.
#[derive(Args, Clone)]
pub struct StoreArgs {
    /// Folder for the embedded SQLite database and the outgoing mail (`mail/`), created if missing.
    #[arg(long, default_value = "spielleiter-data")]
    data: std::path::PathBuf,
    /// A database URL instead (`postgres://user:password@host/db`, or `sqlite://file`).
    #[arg(long)]
    database: Option<String>,
}

impl StoreArgs {
    fn database_url(&self) -> anyhow::Result<String> {
        std::fs::create_dir_all(&self.data)?;
        Ok(match &self.database {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.data.join("spielleiter.db").display()),
        })
    }
}

/// How outgoing mail leaves.
#[derive(Args, Clone)]
pub struct MailOutArgs {
    /// Folder for outgoing mail, one `.eml` file per message (default: `DATA/mail`); not used
    /// with --smtp-relay.
    #[arg(long)]
    mail_dir: Option<std::path::PathBuf>,
    /// Send mail through this SMTP relay: `smtp://host:25`, `smtp://user:pass@host:587?tls=required`
    /// (STARTTLS) or `smtps://user:pass@host` (TLS).
    #[arg(long)]
    smtp_relay: Option<String>,
    /// The judge's address: sender of every mail, and where players write to.
    #[arg(long, default_value = "Spielleiter <judge@localhost>")]
    mail_from: String,
    /// The address players reach the web pages at, when a proxy stands in front (e.g.
    /// https://diplomacy.example.org): forms must come from there, and mail about a game links
    /// to its page.
    #[arg(long)]
    public_url: Option<spielleiter_service::PublicUrl>,
}

/// Limits shared by `serve` and `mail ingest` (counted in the database, so alike in every process).
#[derive(Args)]
pub struct LimitArgs {
    /// Sign-ups allowed per hour from one client address or mail sender.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(i64).range(1..=1_000_000))]
    sign_ups_per_source: i64,
    /// Sign-ups allowed per day for one e-mail address (each mails it a code).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(i64).range(1..=1_000_000))]
    sign_ups_per_address: i64,
}

impl LimitArgs {
    /// The limits with these allowances, the others as by default.
    fn settings(&self) -> spielleiter_service::limits::LimitSettings {
        let sign_ups = spielleiter_service::limits::SignUpCaps {
            per_source: self.sign_ups_per_source,
            per_address: self.sign_ups_per_address,
            ..Default::default()
        };
        spielleiter_service::limits::LimitSettings {
            sign_ups,
            ..Default::default()
        }
    }
}

/// Options of `serve`.
#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    mail: MailOutArgs,
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: std::net::SocketAddr,
    /// Take players' mail with the built-in SMTP listener on this address (e.g. 127.0.0.1:2525).
    #[arg(long)]
    smtp: Option<std::net::SocketAddr>,
    /// Send the web pages' cookies without the Secure mark: only for plain HTTP on an address
    /// other than localhost (behind HTTPS or on localhost, leave it out).
    #[arg(long)]
    insecure_cookies: bool,
    /// A reverse proxy whose forwarded client address (`Forwarded`, `X-Forwarded-For`) is
    /// believed; repeat for several. Without it, and with --public-url, a proxy on loopback is.
    #[arg(long = "trusted-proxy", value_name = "ADDRESS")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// The header the trusted proxies write the client's address in: x-forwarded-for (appended
    /// to, as nginx's $proxy_add_x_forwarded_for does) or forwarded (RFC 7239). The other header
    /// is never read.
    #[arg(long, default_value = "x-forwarded-for")]
    forwarded_header: spielleiter_service::client_address::ForwardedHeader,
    /// Seconds a client has to send a request's headers (and an idle connection is kept).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    header_timeout: u64,
    /// Connections served at once (more wait).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections: u64,
    /// Connections at once from one client address, IPv6 per /64 (more are closed; proxies not
    /// counted).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections_per_address: u64,
    /// Crash tests only: hold every adjudication's transaction open this many milliseconds.
    #[arg(long, default_value_t = 0, hide = true)]
    adjudication_delay_ms: u64,
}

/// `mail` commands.
#[derive(Subcommand)]
pub enum MailCommand {
    /// Read one mail from standard input (as a mail server's pipe delivers it), carry out its
    /// commands and send the reply. Exit status 0: taken (or a duplicate); 65: refused (too
    /// large, or not a mail with a sender); 75: try again later.
    Ingest {
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        mail: MailOutArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// The SMTP envelope sender, if the mail server passes it (answers go there when the
        /// mail has no From).
        #[arg(long)]
        envelope_from: Option<String>,
    },
}

/// Runs `serve` until the process ends.
pub fn serve(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let data = &args.store.data;
    let config = spielleiter_service::Config {
        database_url: args.store.database_url()?,
        listen: args.listen,
        mail_dir: args.mail.mail_dir.clone().unwrap_or_else(|| data.join("mail")),
        adjudication_delay: std::time::Duration::from_millis(args.adjudication_delay_ms),
        limits: args.limits.settings(),
        mail_from: args.mail.mail_from.clone(),
        smtp_relay: args.mail.smtp_relay.clone(),
        smtp_listen: args.smtp,
        secure_cookies: !args.insecure_cookies,
        public_url: args.mail.public_url.clone(),
        trusted_proxies: args.trusted_proxies.clone(),
        forwarded_header: args.forwarded_header,
        connections: spielleiter_service::http_server::ConnectionLimits {
            header_read: std::time::Duration::from_secs(args.header_timeout),
            max_connections: args.max_connections as usize,
            per_address: args.max_connections_per_address as usize,
        },
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(spielleiter_service::serve(config))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs a `mail` command.
pub fn mail(command: &MailCommand) -> anyhow::Result<ExitCode> {
    let MailCommand::Ingest {
        store,
        mail,
        limits,
        envelope_from,
    } = command;
    let mut raw = Vec::new();
    std::io::stdin().take(MAX_MAIL_BYTES as u64 + 1).read_to_end(&mut raw)?;
    if raw.len() > MAX_MAIL_BYTES {
        eprintln!("refused: {}", Refused::TooLarge(raw.len()));
        return Ok(ExitCode::from(65));
    }
    let database_url = store.database_url()?;
    let mail_dir = mail.mail_dir.clone().unwrap_or_else(|| store.data.join("mail"));
    let delivery = spielleiter_service::outbox::configured(
        &mail.mail_from,
        mail.smtp_relay.as_deref(),
        &mail_dir,
        mail.public_url.as_ref(),
    )
    .map_err(|e| anyhow::anyhow!(e))?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let state =
            match spielleiter_service::open_state(&database_url, std::time::Duration::ZERO, limits.settings()).await {
                Ok(state) => state,
                Err(e) => {
                    eprintln!("try again later: the database cannot be opened: {e}");
                    return Ok(ExitCode::from(75));
                }
            };
        match receive(&state.store, &raw, envelope_from.as_deref()).await {
            // Once stored, the mail is ours: errors from here on are logged, and the exit status
            // stays 0 so that the mail server does not bounce a mail `serve` will still answer.
            Ok(Received::Stored(id)) => match process(&state, &id).await {
                Ok(Processed::Unreadable(why)) => {
                    eprintln!("refused: {why}");
                    Ok(ExitCode::from(65))
                }
                Ok(Processed::Ignored(why)) => {
                    println!("taken as {id}; not answered: {why}");
                    Ok(ExitCode::SUCCESS)
                }
                Ok(Processed::Answered(reply)) => {
                    match spielleiter_service::outbox::deliver_one(&state.store, &delivery, &reply).await {
                        Ok(sent) => println!("taken as {id}; {sent} message(s) sent"),
                        Err(e) => println!("taken as {id}; the reply waits in the outbox: {e}"),
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Ok(Processed::Elsewhere) => {
                    println!("taken as {id}; another process answers it");
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    println!("taken as {id}; it is answered later: {e}");
                    Ok(ExitCode::SUCCESS)
                }
            },
            Ok(Received::Duplicate) => {
                println!("duplicate: this mail (its Message-ID, sender and text) was taken before; not read again");
                Ok(ExitCode::SUCCESS)
            }
            Err(Refused::TooLarge(n)) => {
                eprintln!("refused: {}", Refused::TooLarge(n));
                Ok(ExitCode::from(65))
            }
            Err(Refused::Store(e)) => {
                eprintln!("try again later: {e}");
                Ok(ExitCode::from(75))
            }
        }
    })
}
