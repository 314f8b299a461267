//! The address players reach the web pages at, as configured for a judge behind a proxy.

use std::fmt;
use std::str::FromStr;

/// An `http` or `https` origin: scheme, host and port, nothing after them. Checked when read, so
/// it can be compared with a browser's `Origin` and put in front of page paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String, /* plain HTTP to another host */ bool);

impl PublicUrl {
    /// The origin as browsers send it (`https://diplomacy.example.org`).
    pub fn origin(&self) -> &str {
        &self.0
    }

    /// The whole address of a page path (`/games/ID`).
    pub fn page(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }

    /// Whether a browser's `Origin` header names this address.
    pub fn is_origin(&self, origin: &str) -> bool {
        origin.trim_end_matches('/').eq_ignore_ascii_case(&self.0)
    }

    /// Whether the address is plain HTTP to a host other than this machine (where browsers do
    /// not keep Secure cookies).
    pub fn is_plain_http_elsewhere(&self) -> bool {
        self.1
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for PublicUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<PublicUrl, String> {
        let bad = |why: &str| {
            format!("`{text}` is not a public address ({why}): write it as https://host or https://host:port")
        };
        let url = url::Url::parse(text.trim()).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("it must start with https:// or http://"));
        }
        if url.host().is_none() {
            return Err(bad("no host"));
        }
        if url.path() != "/"
            || url.query().is_some()
            || url.fragment().is_some()
            || !url.username().is_empty()
            || url.password().is_some()
        {
            return Err(bad("only a host and port, no path, query or user"));
        }
        let this_machine = match url.host() {
            Some(url::Host::Domain(name)) => name == "localhost" || name.ends_with(".localhost"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        };
        // As browsers send it: lower case, punycode, no default port.
        Ok(PublicUrl(
            url.origin().ascii_serialization(),
            url.scheme() == "http" && !this_machine,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_read_without_a_trailing_slash_and_in_lower_case() {
        let url: PublicUrl = "HTTPS://Diplomacy.Example.org/".parse().unwrap();
        assert_eq!(url.origin(), "https://diplomacy.example.org");
        assert_eq!(url.page("/games/x"), "https://diplomacy.example.org/games/x");
        assert!(url.is_origin("https://diplomacy.example.org"));
        assert!(url.is_origin("https://DIPLOMACY.example.org"));
        assert!(!url.is_origin("http://diplomacy.example.org"));
        assert!(!url.is_origin("https://diplomacy.example.org.evil.net"));
        let local: PublicUrl = "http://127.0.0.1:8080".parse().unwrap();
        assert!(local.is_origin("http://127.0.0.1:8080"));
        assert!(!local.is_origin("http://127.0.0.1:8081"));
        assert_eq!(
            "http://[::1]:8080".parse::<PublicUrl>().unwrap().origin(),
            "http://[::1]:8080"
        );
    }

    #[test]
    fn paths_other_schemes_and_bad_ports_are_refused() {
        for bad in [
            "diplomacy.example.org",
            "ftp://diplomacy.example.org",
            "https://",
            "https://diplomacy.example.org/judge",
            "https://x.org?a=b",
            "https://user@x.org",
            "https://:secret@x.org",
            "https://x.org:port",
            "https://x .org",
            "https://[zzz]",
            "https://x.org/#top",
        ] {
            let e = bad.parse::<PublicUrl>().unwrap_err();
            assert!(e.contains("https://host"), "{bad}: {e}");
        }
    }
}
