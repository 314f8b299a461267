//! The Spielleiter judge service: games, players, orders and results over a JSON HTTP API, stored
//! in SQLite (the embedded default) or PostgreSQL. It wraps the engine; the engine does no I/O.

pub mod api;
pub mod auth;
pub mod deadlines;
pub mod error;
pub mod limits;
pub mod lot;
pub mod outbox;
pub mod scheduler;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
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
}

/// A service whose database is open, whose background tasks run, and whose socket is bound.
pub struct Bound {
    /// The address it listens on.
    pub addr: SocketAddr,
    listener: tokio::net::TcpListener,
    app: axum::Router,
}

/// Opens the database (bringing the schema up to date), starts the deadline scheduler and the
/// outbox delivery, and binds the listening socket.
pub async fn bind(config: Config) -> Result<Bound, Box<dyn std::error::Error>> {
    let store = store::Store::open(&config.database_url).await?;
    let state = api::AppState {
        store: store.clone(),
        adjudication_delay: config.adjudication_delay,
        limits: limits::Limits::new(config.limits),
    };
    tokio::spawn(scheduler::run(state.clone(), Duration::from_millis(500)));
    let delivery = Box::new(outbox::MailFolder { dir: config.mail_dir });
    tokio::spawn(outbox::run(store, delivery, Duration::from_millis(500)));
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    Ok(Bound {
        addr: listener.local_addr()?,
        listener,
        app: api::router(state),
    })
}

impl Bound {
    /// Answers requests until the process ends.
    pub async fn run(self) -> std::io::Result<()> {
        // The client's address keys the login rate limit.
        axum::serve(
            self.listener,
            self.app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    }
}

/// Serves until the process ends, after printing the address it listens on (useful with port 0).
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let bound = bind(config).await?;
    println!("listening on http://{}", bound.addr);
    use std::io::Write as _;
    std::io::stdout().flush()?;
    bound.run().await?;
    Ok(())
}
