//! The players' side of the mail tests: real mailboxes (the `aiosmtpd` SMTP server from PyPI,
//! writing a Maildir) and a real SMTP client (lettre) that sends raw mails to the judge.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mail_parser::MimeHeaders;

/// A Python interpreter that has `aiosmtpd`: the machine's, or a virtual environment in the
/// target folder, made once with pip (the registry is reachable on every machine of ours).
fn python_with_aiosmtpd() -> PathBuf {
    let has = |python: &Path| {
        Command::new(python)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let system = PathBuf::from("python3");
    if has(&system) {
        return system;
    }
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aiosmtpd-venv");
    let python = venv.join("bin").join("python");
    if !has(&python) {
        let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status();
        assert!(made.is_ok_and(|s| s.success()), "python3 -m venv {}", venv.display());
        let installed = Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "aiosmtpd==1.4.6"])
            .status();
        assert!(installed.is_ok_and(|s| s.success()), "pip install aiosmtpd");
    }
    python
}

/// A free port on loopback (bound and released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// One received mail.
#[derive(Debug, Clone)]
pub struct Mail {
    /// The envelope recipient (`X-RcptTo`, added by aiosmtpd).
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    /// Each attached file: its name, MIME type and bytes.
    pub attachments: Vec<(String, String, Vec<u8>)>,
}

/// Every player's mailbox: an SMTP server on loopback that keeps each mail in a Maildir.
pub struct Mailboxes {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl Drop for Mailboxes {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Mailboxes {
    pub fn start(name: &str) -> Mailboxes {
        let python = python_with_aiosmtpd();
        let dir = std::env::temp_dir().join(format!("spielleiter-mailboxes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let port = free_port();
        let child = Command::new(python)
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{port}"),
                "-c",
                "aiosmtpd.handlers.Mailbox",
            ])
            .arg(&dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("aiosmtpd starts");
        let boxes = Mailboxes { child, port, dir };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(30), "aiosmtpd does not listen");
            std::thread::sleep(Duration::from_millis(100));
        }
        boxes
    }

    /// Every mail received so far, oldest first.
    pub fn all(&self) -> Vec<Mail> {
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(self.dir.join("new"))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| {
                (
                    e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH),
                    e.path(),
                )
            })
            .collect();
        files.sort();
        files
            .iter()
            .filter_map(|(_, path)| std::fs::read(path).ok())
            .filter_map(|raw| {
                let m = mail_parser::MessageParser::default().parse(&raw)?;
                Some(Mail {
                    to: m.header_raw("X-RcptTo").unwrap_or_default().trim().to_lowercase(),
                    subject: m.subject().unwrap_or_default().to_string(),
                    body: m.body_text(0).map(|b| b.replace("\r\n", "\n")).unwrap_or_default(),
                    in_reply_to: m.in_reply_to().as_text().map(str::to_string),
                    attachments: m
                        .attachments()
                        .map(|a| {
                            let kind = a
                                .content_type()
                                .map(|t| format!("{}/{}", t.ctype(), t.subtype().unwrap_or_default()))
                                .unwrap_or_default();
                            (
                                a.attachment_name().unwrap_or_default().to_string(),
                                kind,
                                a.contents().to_vec(),
                            )
                        })
                        .collect(),
                })
            })
            .collect()
    }

    /// The mails to `address` whose subject contains `subject`.
    pub fn to(&self, address: &str, subject: &str) -> Vec<Mail> {
        self.all()
            .into_iter()
            .filter(|m| m.to == address.to_lowercase() && m.subject.contains(subject))
            .collect()
    }

    /// Waits until `address` has at least `count` mails whose subject contains `subject`.
    pub fn wait_for(&self, address: &str, subject: &str, count: usize) -> Vec<Mail> {
        let start = Instant::now();
        loop {
            let found = self.to(address, subject);
            if found.len() >= count {
                return found;
            }
            assert!(
                start.elapsed() < Duration::from_secs(90),
                "{address} got {} of {count} mails about `{subject}`; all mail: {:#?}",
                found.len(),
                self.all().iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// Sends a raw mail by SMTP to the judge's listener at `host:port`; the listener's reply line, or
/// its refusal.
pub fn send(listener: &str, from: &str, raw: &[u8]) -> Result<String, String> {
    use lettre::Transport as _;
    let (host, port) = listener.rsplit_once(':').expect("host:port");
    let transport = lettre::SmtpTransport::builder_dangerous(host)
        .port(port.parse().expect("a port"))
        .build();
    let envelope = lettre::address::Envelope::new(
        Some(from.parse().expect("an address")),
        vec!["judge@spielleiter.test".parse().expect("an address")],
    )
    .expect("an envelope");
    transport
        .send_raw(&envelope, raw)
        .map(|r| r.message().collect::<Vec<_>>().join(" "))
        .map_err(|e| e.to_string())
}
