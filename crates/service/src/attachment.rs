//! A file sent with a message (the map pictures of a result): made by the pictures, carried by
//! the outbox. Its own module, so that neither of them depends on the other for it.

use std::sync::Arc;

/// A file sent with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file name the recipient sees.
    pub filename: String,
    /// Its MIME type, such as `image/png`.
    pub content_type: String,
    /// Its bytes (shared by every message that carries the same file).
    pub data: Arc<[u8]>,
}
