//! The address of the client behind a request: the peer of the connection, or, when the peer is
//! a trusted reverse proxy, the address the proxy names in the one forwarding header the
//! operator says it writes (`X-Forwarded-For` by default, or `Forwarded`): the other header is
//! never read, since a proxy passes a client's own copy of it through unchanged. Login limits are kept per client address, so behind a proxy one person's wrong
//! logins must not count against everyone.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The network a client address stands for when clients are counted: an IPv4 address itself,
/// an IPv6 address its /64 (one subscriber usually holds a whole /64, so counting single IPv6
/// addresses would let one client take as many as it likes). IPv4 written as IPv6 counts as IPv4.
pub fn counted_network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & (u128::MAX << 64)).into()),
        },
    }
}

/// The forwarding header a trusted proxy writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1` (nginx `$proxy_add_x_forwarded_for`, Caddy, HAProxy).
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client` (RFC 7239).
    Forwarded,
}

impl std::str::FromStr for ForwardedHeader {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(ForwardedHeader::XForwardedFor),
            "forwarded" => Ok(ForwardedHeader::Forwarded),
            _ => Err(format!("`{s}`: the header is x-forwarded-for or forwarded")),
        }
    }
}

/// Which peers are reverse proxies whose forwarding header is believed, and which header that is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    addresses: Vec<IpAddr>,
    loopback: bool,
    header: ForwardedHeader,
}

impl TrustedProxies {
    /// Trusts the given addresses; and with `loopback`, any loopback peer (a proxy on the same
    /// machine, the usual setup behind `--public-url`).
    pub fn new(addresses: Vec<IpAddr>, loopback: bool) -> TrustedProxies {
        TrustedProxies {
            addresses,
            loopback,
            header: ForwardedHeader::default(),
        }
    }

    /// The same proxies, read from `header`.
    pub fn reading(self, header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies { header, ..self }
    }

    /// Trusts nobody: the peer address is the client's.
    pub fn none() -> TrustedProxies {
        TrustedProxies::default()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        (self.loopback && ip.is_loopback()) || self.addresses.iter().any(|a| canonical(*a) == ip)
    }

    /// Whether a peer is a trusted proxy.
    pub fn is_proxy(&self, peer: IpAddr) -> bool {
        self.trusts(peer)
    }

    /// The client of a request that came from `peer`: the peer itself unless it is a trusted
    /// proxy; else the last address of the forwarding chain that is not a trusted proxy (the
    /// addresses before it were written by the client and prove nothing). A header that cannot
    /// be read leaves the peer.
    pub fn client(&self, peer: SocketAddr, headers: &HeaderMap) -> SocketAddr {
        if !self.trusts(peer.ip()) {
            return peer;
        }
        for hop in forwarded_chain(headers, self.header).into_iter().rev() {
            match hop {
                Some(ip) if self.trusts(ip) => continue,
                Some(ip) => return SocketAddr::new(ip, peer.port()),
                None => break,
            }
        }
        peer
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The hops of the forwarding chain in `header`, client first; `None` for an entry that is no
/// address (`unknown`, an obfuscated name), where reading the chain stops: nothing is guessed.
fn forwarded_chain(headers: &HeaderMap, header: ForwardedHeader) -> Vec<Option<IpAddr>> {
    let joined = |name: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect::<Vec<_>>()
            .join(",")
    };
    let hops: Vec<Option<IpAddr>> = match header {
        ForwardedHeader::Forwarded => joined("forwarded").split(',').map(forwarded_for).collect(),
        ForwardedHeader::XForwardedFor => joined("x-forwarded-for")
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| address(s.trim()))
            .collect(),
    };
    hops.into_iter().map(|hop| hop.map(canonical)).collect()
}

/// The `for=` address of one element of a `Forwarded` header.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("for")
            .then(|| address(value.trim().trim_matches('"')))
            .flatten()
    })
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:80`.
fn address(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    text.parse::<SocketAddr>().ok().map(|s| s.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_per_64_and_mapped_ipv4_as_ipv4() {
        let net = |s: &str| counted_network(s.parse().expect("an address")).to_string();
        assert_eq!(net("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
        assert_eq!(net("2001:db8:1:2:ffff:1:2:3"), net("2001:db8:1:2::9"));
        assert_ne!(net("2001:db8:1:3::1"), net("2001:db8:1:2::1"));
        assert_eq!(net("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(net("203.0.113.7"), "203.0.113.7");
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().expect("a header value"));
        }
        h
    }

    fn peer(ip: &str) -> SocketAddr {
        SocketAddr::new(ip.parse().expect("an address"), 4000)
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_claims() {
        let proxies = TrustedProxies::new(vec!["10.0.0.1".parse().expect("ip")], false);
        let claims = headers(&[("x-forwarded-for", "1.2.3.4")]);
        assert_eq!(proxies.client(peer("10.0.0.2"), &claims), peer("10.0.0.2"));
        assert_eq!(
            TrustedProxies::none().client(peer("127.0.0.1"), &claims),
            peer("127.0.0.1")
        );
    }

    #[test]
    fn behind_a_trusted_proxy_the_last_untrusted_hop_is_the_client() {
        let proxies = TrustedProxies::new(vec!["10.0.0.1".parse().expect("ip")], true);
        // The client wrote a false first entry; the proxy appended the real address.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.7")]);
        assert_eq!(
            proxies.client(peer("127.0.0.1"), &h).ip(),
            "203.0.113.7".parse::<IpAddr>().expect("ip")
        );
        let chained = headers(&[("x-forwarded-for", "203.0.113.7, 10.0.0.1")]);
        assert_eq!(
            proxies.client(peer("127.0.0.1"), &chained).ip().to_string(),
            "203.0.113.7"
        );
        let rfc = headers(&[("forwarded", "for=\"[2001:db8::7]:4711\";proto=https")]);
        let rfc_proxies = proxies.clone().reading(ForwardedHeader::Forwarded);
        assert_eq!(rfc_proxies.client(peer("::1"), &rfc).ip().to_string(), "2001:db8::7");
        let unknown_first = headers(&[("x-forwarded-for", "unknown, 203.0.113.9")]);
        assert_eq!(
            proxies.client(peer("127.0.0.1"), &unknown_first).ip().to_string(),
            "203.0.113.9"
        );
        let mapped = headers(&[("x-forwarded-for", "::ffff:198.51.100.2")]);
        assert_eq!(
            proxies.client(peer("127.0.0.1"), &mapped).ip().to_string(),
            "198.51.100.2"
        );
    }

    #[test]
    fn only_the_header_the_proxy_writes_is_read() {
        let proxies = TrustedProxies::new(Vec::new(), true);
        // The proxy appends to X-Forwarded-For; the client's own Forwarded passes through.
        let forged = headers(&[("forwarded", "for=6.6.6.6"), ("x-forwarded-for", "203.0.113.5")]);
        assert_eq!(
            proxies.client(peer("127.0.0.1"), &forged).ip().to_string(),
            "203.0.113.5"
        );
        let rfc = proxies.reading(ForwardedHeader::Forwarded);
        let forged = headers(&[("x-forwarded-for", "6.6.6.6"), ("forwarded", "for=203.0.113.5")]);
        assert_eq!(rfc.client(peer("127.0.0.1"), &forged).ip().to_string(), "203.0.113.5");
    }

    #[test]
    fn unreadable_or_missing_headers_leave_the_peer() {
        let proxies = TrustedProxies::new(Vec::new(), true);
        for h in [
            headers(&[]),
            headers(&[("x-forwarded-for", "1.2.3.4, unknown")]),
            headers(&[("x-forwarded-for", "_hidden")]),
        ] {
            assert_eq!(proxies.client(peer("127.0.0.1"), &h), peer("127.0.0.1"), "{h:?}");
        }
    }
}
