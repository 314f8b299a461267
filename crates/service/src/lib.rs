//! The Spielleiter judge service: games, players, orders, press and results through web pages, a
//! JSON HTTP API and e-mail, stored in SQLite (the embedded default) or PostgreSQL. It wraps the
//! engine; the engine does no I/O.

pub mod api;
pub(crate) mod app;
pub mod argon;
mod attachment;
pub mod auth;
pub mod client_address;
pub mod deadlines;
pub mod domain;
pub mod error;
pub mod http;
pub mod http_server;
mod i18n;
pub mod limits;
pub mod lot;
pub mod mail;
pub mod names;
pub mod outbox;
mod pictures;
mod public_url;
pub mod reminders;
pub mod scheduler;
mod sql;
pub use sql::store;
mod variants;
pub use public_url::PublicUrl;
mod web;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How a `serve` process is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// `sqlite://…` or `postgres://…`.
    pub database_url: String,
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// The folder outgoing mail is written to, one `.eml` file per message.
    pub mail_dir: PathBuf,
    /// How long each adjudication holds its transaction open (zero except in crash tests).
    pub adjudication_delay: Duration,
    /// Allowances of login attempts and order submissions.
    pub limits: limits::LimitSettings,
    /// The judge's own address: the sender of every message, where players send their mail.
    pub mail_from: String,
    /// An SMTP relay for outgoing mail (`smtp://`, `smtps://`, `?tls=required`); none: the mail
    /// folder.
    pub smtp_relay: Option<String>,
    /// Where the built-in SMTP listener takes mail, if anywhere.
    pub smtp_listen: Option<SocketAddr>,
    /// Mark the web pages' cookies Secure (browsers then send them over HTTPS and to localhost
    /// only); off only for plain HTTP on another address.
    pub secure_cookies: bool,
    /// The address players reach the web pages at (`https://diplomacy.example.org`), when a
    /// proxy stands in front: forms must come from it, and result mails link to game pages there.
    pub public_url: Option<PublicUrl>,
    /// Reverse proxies whose forwarded client address is believed (with a public address and
    /// none named: a proxy on loopback).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The forwarding header the trusted proxies write (the other one is never read).
    pub forwarded_header: client_address::ForwardedHeader,
    /// The listener's header-read timeout and connection limits.
    pub connections: http_server::ConnectionLimits,
}

impl Config {
    /// The defaults for a data folder: SQLite and mail files in it, HTTP on `listen`, no SMTP.
    pub fn embedded(data: &std::path::Path, listen: SocketAddr) -> Config {
        Config {
            database_url: format!("sqlite://{}?mode=rwc", data.join("spielleiter.db").display()),
            listen,
            mail_dir: data.join("mail"),
            adjudication_delay: Duration::ZERO,
            limits: limits::LimitSettings::default(),
            mail_from: "Spielleiter <judge@localhost>".into(),
            smtp_relay: None,
            smtp_listen: None,
            secure_cookies: true,
            public_url: None,
            trusted_proxies: Vec::new(),
            forwarded_header: client_address::ForwardedHeader::default(),
            connections: http_server::ConnectionLimits::default(),
        }
    }

    /// The proxies whose forwarding headers are believed: those named, or, when none is named
    /// and a public address is given, a proxy on the same machine (loopback).
    pub fn proxies(&self) -> client_address::TrustedProxies {
        let loopback = self.trusted_proxies.is_empty() && self.public_url.is_some();
        client_address::TrustedProxies::new(self.trusted_proxies.clone(), loopback).reading(self.forwarded_header)
    }
}

/// A service whose database is open, whose background tasks run, and whose socket is bound.
pub struct Bound {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The address the SMTP listener takes mail on, if it runs.
    pub smtp_addr: Option<SocketAddr>,
    listener: tokio::net::TcpListener,
    app: axum::Router,
    proxies: client_address::TrustedProxies,
    connections: http_server::ConnectionLimits,
}

/// Opens the database (bringing the schema up to date), starts the deadline scheduler and the
/// outbox delivery, and binds the listening socket.
pub async fn bind(config: Config) -> Result<Bound, Box<dyn std::error::Error>> {
    if let Some(url) = config.public_url.as_ref().filter(|u| u.is_plain_http_elsewhere())
        && config.secure_cookies
    {
        return Err(format!(
            "the public address {url} is plain HTTP: browsers would not keep the Secure log-in cookie there; \
             serve it over HTTPS, or give --insecure-cookies"
        )
        .into());
    }
    let sender = outbox::Sender::parse(&config.mail_from)?;
    let delivery = outbox::configured(
        &config.mail_from,
        config.smtp_relay.as_deref(),
        &config.mail_dir,
        config.public_url.as_ref(),
    )?;
    let mut state = open_state(&config.database_url, config.adjudication_delay, config.limits).await?;
    state.secure_cookies = config.secure_cookies;
    state.public_url = config.public_url.clone();
    tokio::spawn(scheduler::run(state.clone(), Duration::from_millis(500)));
    tokio::spawn(reminders::run(state.clone(), Duration::from_secs(5)));
    tokio::spawn(mail::inbox::run(state.clone(), Duration::from_secs(5)));
    tokio::spawn(outbox::run(
        state.store.clone(),
        delivery,
        Duration::from_millis(500),
        state.mail_sent.clone(),
    ));
    let smtp_addr = match config.smtp_listen {
        Some(addr) => {
            let smtp = tokio::net::TcpListener::bind(addr).await?;
            let addr = smtp.local_addr()?;
            let hostname = sender.0.email.domain().to_string();
            tokio::spawn(mail::smtp::run(smtp, state.clone(), hostname));
            Some(addr)
        }
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    Ok(Bound {
        addr: listener.local_addr()?,
        smtp_addr,
        listener,
        app: http::router(state),
        proxies: config.proxies(),
        connections: config.connections,
    })
}

/// Opens the database (bringing the schema up to date) and makes the state the handlers share,
/// without starting any background task (`mail ingest` uses it to answer one mail).
pub async fn open_state(
    database_url: &str,
    adjudication_delay: Duration,
    limits: limits::LimitSettings,
) -> Result<api::AppState, sqlx::Error> {
    let store = store::Store::open(database_url).await?;
    Ok(api::AppState {
        store,
        adjudication_delay,
        limits: limits::Limits::new(limits),
        mail_received: Arc::new(tokio::sync::Notify::new()),
        mail_sent: Arc::new(tokio::sync::Notify::new()),
        game_changed: tokio::sync::broadcast::channel(64).0,
        secure_cookies: true,
        public_url: None,
    })
}

impl Bound {
    /// Answers requests until the process ends.
    pub async fn run(self) -> std::io::Result<()> {
        http_server::serve(self.listener, self.app, self.proxies, self.connections).await
    }
}

/// Serves until the process ends, after printing the address it listens on (useful with port 0).
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let bound = bind(config).await?;
    println!("listening on http://{}", bound.addr);
    if let Some(smtp) = bound.smtp_addr {
        println!("taking mail on smtp://{smtp}");
    }
    use std::io::Write as _;
    std::io::stdout().flush()?;
    bound.run().await?;
    Ok(())
}
