//! The Spielleiter judge service: games, players, orders and results over a JSON HTTP API, stored
//! in SQLite (the embedded default) or PostgreSQL. It wraps the engine; the engine does no I/O.

pub mod api;
pub mod auth;
pub mod error;
pub mod lot;
pub mod scheduler;
pub mod store;

use std::net::SocketAddr;

/// Opens the database, then serves the API on `listen` until the process ends. Prints the address
/// it listens on (useful with port 0) before serving.
pub async fn serve(database_url: &str, listen: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let store = store::Store::open(database_url).await?;
    let state = api::AppState { store };
    tokio::spawn(scheduler::run(state.clone(), std::time::Duration::from_millis(500)));
    let app = api::router(state);
    let listener = tokio::net::TcpListener::bind(listen).await?;
    println!("listening on http://{}", listener.local_addr()?);
    use std::io::Write as _;
    std::io::stdout().flush()?;
    axum::serve(listener, app).await?;
    Ok(())
}
