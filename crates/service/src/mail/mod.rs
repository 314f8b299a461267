//! Play by e-mail: mail arrives by the built-in SMTP listener or `spielleiter mail ingest`, is
//! stored raw in the inbox, read (MIME, quoted replies and signatures left out), its commands
//! carried out, and answered through the outbox.

pub mod body;
pub mod commands;
pub mod inbox;
pub mod message;
pub mod options;
pub mod quotes;
pub mod session;
pub mod smtp;
