//! The HTTP listener: HTTP/1.1 connections served by hyper with a time limit for reading a
//! request's headers (a client that trickles them, or keeps an idle connection, is cut off),
//! at most so many connections at once and per client address, and the client address of each
//! request (behind a trusted proxy, the one it forwards for) given to the handlers as
//! `ConnectInfo`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_service::Service as _;

use crate::client_address::{TrustedProxies, counted_network};

/// The limits of the listener.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// How long a client has to send a request's headers (also how long an idle connection
    /// is kept open between requests).
    pub header_read: Duration,
    /// Connections served at once; further ones wait in the kernel's queue.
    pub max_connections: usize,
    /// Connections at once from one client address (not counted for trusted proxies); further
    /// ones are closed at once.
    pub per_address: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read: Duration::from_secs(10),
            max_connections: 1024,
            per_address: 64,
        }
    }
}

/// Connections open per client address.
#[derive(Default)]
struct OpenPerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted for its address until dropped.
struct AddressSlot {
    open: Arc<OpenPerAddress>,
    ip: Option<IpAddr>,
}

impl OpenPerAddress {
    /// Counts a connection from `ip` unless it already has `most` open.
    fn take(self: &Arc<Self>, ip: IpAddr, most: usize) -> Option<AddressSlot> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            open: self.clone(),
            ip: Some(ip),
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let Some(ip) = self.ip else { return };
        let mut open = self.open.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&ip);
            }
        }
    }
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    proxies: TrustedProxies,
    limits: ConnectionLimits,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let open = Arc::new(OpenPerAddress::default());
    let proxies = Arc::new(proxies);
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                eprintln!("accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = if proxies.is_proxy(peer.ip()) {
            AddressSlot {
                open: open.clone(),
                ip: None,
            }
        } else {
            match open.take(counted_network(peer.ip()), limits.per_address.max(1)) {
                Some(slot) => slot,
                None => continue,
            }
        };
        let (app, proxies) = (app.clone(), proxies.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                let client = proxies.client(peer, request.headers());
                request.extensions_mut().insert(ConnectInfo(client));
                let mut app = app.clone();
                async move { app.call(request.map(axum::body::Body::new)).await }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            if let Err(e) = served
                && !e.is_timeout()
                && !e.is_incomplete_message()
            {
                // Clients that go away are no news; anything else is worth a line.
                if !e.is_closed() && !e.is_canceled() {
                    eprintln!("serving {peer}: {e}");
                }
            }
            drop((permit, slot));
        });
    }
}
