//! `spielleiter loadtest`: order submissions per second and their latency on the judge service
//! with many running games, measured over HTTP against a service on SQLite in a temporary folder.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use serde_json::{Value, json};

/// Options of `spielleiter loadtest`.
#[derive(Args)]
pub struct LoadtestArgs {
    /// Running games (each with two players: France and Germany).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Order submissions to time, spread over the games.
    #[arg(long, default_value_t = 20_000)]
    submissions: usize,
    /// Clients sending at the same time.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// Keep the database in this folder instead of a temporary one.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A small blocking JSON client of the service.
#[derive(Clone)]
struct Client {
    agent: ureq::Agent,
    base: String,
    token: String,
}

impl Client {
    fn send(&self, method: &str, path: &str, body: &Value) -> Result<Value> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Bearer {}", self.token);
        let request = match method {
            "PUT" => self.agent.put(&url),
            _ => self.agent.post(&url),
        };
        let mut response = request
            .header("authorization", &auth)
            .send_json(body)
            .with_context(|| format!("{method} {path}"))?;
        let status = response.status().as_u16();
        let value: Value = response.body_mut().read_json().unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            bail!("{method} {path}: {status} {value}");
        }
        Ok(value)
    }
}

fn login(agent: &ureq::Agent, base: &str, name: &str) -> Result<Client> {
    let password = "load test password";
    let mut client = Client {
        agent: agent.clone(),
        base: base.to_string(),
        token: String::new(),
    };
    client.send(
        "POST",
        "/api/accounts",
        &json!({"name": name, "email": format!("{name}@example.org"), "password": password}),
    )?;
    let session = client.send("POST", "/api/sessions", &json!({"name": name, "password": password}))?;
    client.token = session["token"]
        .as_str()
        .ok_or_else(|| anyhow!("no token"))?
        .to_string();
    Ok(client)
}

/// Runs `work(i)` for i in 0..n on `threads` threads; the first error stops the run.
fn in_parallel<T: Send>(n: usize, threads: usize, work: impl Fn(usize) -> Result<T> + Sync) -> Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|scope| -> Result<()> {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return Ok(());
                        }
                        let value = work(i)?;
                        results.lock().map_err(|_| anyhow!("a client failed"))?.push(value);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().map_err(|_| anyhow!("a client panicked"))??;
        }
        Ok(())
    })?;
    results.into_inner().map_err(|_| anyhow!("a client failed"))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Starts a service, sets up the games, times the submissions and prints the figures.
pub fn run(args: &LoadtestArgs) -> Result<ExitCode> {
    if args.games == 0 || args.clients == 0 {
        bail!("--games and --clients must be at least 1");
    }
    let temporary = args.data.is_none();
    let dir = args
        .data
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("spielleiter-loadtest-{}", std::process::id())));
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    let config = spielleiter_service::Config {
        // The benchmark measures the judge, not the limiter.
        limits: spielleiter_service::limits::LimitSettings {
            orders_per_minute: u32::MAX,
            ..Default::default()
        },
        ..spielleiter_service::Config::embedded(&dir, ([127, 0, 0, 1], 0).into())
    };
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = match tokio::runtime::Runtime::new() {
            Ok(r) => r,
            Err(e) => {
                let _ = sender.send(Err(e.to_string()));
                return;
            }
        };
        runtime.block_on(async move {
            match spielleiter_service::bind(config).await {
                Ok(bound) => {
                    let _ = sender.send(Ok(bound.addr));
                    let _ = bound.run().await;
                }
                Err(e) => {
                    let _ = sender.send(Err(e.to_string()));
                }
            }
        });
    });
    let addr = receiver.recv()?.map_err(|e| anyhow!("starting the service: {e}"))?;
    let base = format!("http://{addr}");
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();

    let setup = Instant::now();
    let france = login(&agent, &base, "load-france")?;
    let germany = login(&agent, &base, "load-germany")?;
    let ids = in_parallel(args.games, args.clients, |i| {
        let game = france.send(
            "POST",
            "/api/games",
            &json!({"name": format!("load-{i}"), "movement_seconds": 86_400}),
        )?;
        let id = game["id"].as_str().ok_or_else(|| anyhow!("no game id"))?.to_string();
        france.send(
            "POST",
            &format!("/api/games/{id}/join"),
            &json!({"preferences": ["FRANCE"]}),
        )?;
        germany.send(
            "POST",
            &format!("/api/games/{id}/join"),
            &json!({"preferences": ["GERMANY"]}),
        )?;
        france.send("POST", &format!("/api/games/{id}/start"), &json!({}))?;
        Ok(id)
    })?;
    let setup = setup.elapsed();

    let ids = Arc::new(ids);
    let timed = Instant::now();
    let mut latencies = in_parallel(args.submissions, args.clients, |n| {
        let id = &ids[n % ids.len()];
        let (client, orders) = if (n / ids.len()) % 2 == 0 {
            (
                &france,
                json!({"orders": ["A Par - Bur", "F Bre - Mao", "A Mar - Spa"]}),
            )
        } else {
            (
                &germany,
                json!({"orders": ["A Mun - Ruh", "A Ber - Kie", "F Kie - Den"]}),
            )
        };
        let start = Instant::now();
        let echo = client.send("PUT", &format!("/api/games/{id}/orders"), &orders)?;
        let took = start.elapsed();
        if echo["errors"] != 0 {
            bail!("orders were not read as expected: {echo}");
        }
        Ok(took)
    })?;
    let elapsed = timed.elapsed();
    latencies.sort();
    let per_second = args.submissions as f64 / elapsed.as_secs_f64();
    let (p50, p99, max) = (
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        latencies.last().copied().unwrap_or_default(),
    );
    if args.json {
        println!(
            "{}",
            json!({"games": args.games, "submissions": args.submissions, "clients": args.clients,
                   "setup_seconds": setup.as_secs_f64(), "seconds": elapsed.as_secs_f64(),
                   "submissions_per_second": per_second,
                   "p50_ms": ms(p50), "p99_ms": ms(p99), "max_ms": ms(max)})
        );
    } else {
        println!(
            "{} running games (set up in {:.1} s), {} order submissions by {} clients in {:.2} s",
            args.games,
            setup.as_secs_f64(),
            args.submissions,
            args.clients,
            elapsed.as_secs_f64()
        );
        println!(
            "{per_second:.0} submissions/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(p50),
            ms(p99),
            ms(max)
        );
    }
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let sorted: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&sorted, 50.0), Duration::from_millis(50));
        assert_eq!(percentile(&sorted, 99.0), Duration::from_millis(99));
        assert_eq!(percentile(&sorted[..1], 99.0), Duration::from_millis(1));
        assert_eq!(percentile(&[], 99.0), Duration::ZERO);
    }
}
