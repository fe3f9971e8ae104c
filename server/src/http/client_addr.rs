//! The client's address, decided once per request.
//!
//! It is the socket's peer, unless that peer is one of
//! `MAXY_TRUSTED_PROXIES`: then it is the nearest hop of `X-Forwarded-For`
//! that is not itself a trusted proxy. Entries further left were written by
//! the client and prove nothing, so they are never read; a peer that is not a
//! configured proxy cannot choose its address by sending the header.
use crate::config::AuthSettings;
use crate::state::AppState;
use app::auth::ClientAddr;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, SocketAddr};

/// Puts the request's [`ClientAddr`] (the address rate limits and the audit
/// log use) in its extensions.
pub async fn resolve(
    State(state): State<AppState>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let addr = client_addr(peer, request.headers(), &state.config.auth);
    request.extensions_mut().insert(ClientAddr(addr));
    next.run(request).await
}

/// The client's address as the request's extensions say (the unspecified
/// address when the request did not cross [`resolve`]).
pub fn of(request: &Request<Body>) -> IpAddr {
    request
        .extensions()
        .get::<ClientAddr>()
        .map(|ClientAddr(ip)| *ip)
        .unwrap_or(IpAddr::from([0, 0, 0, 0]))
}

/// The client behind `peer`, believing `X-Forwarded-For` only as far as
/// trusted proxies wrote it.
pub fn client_addr(peer: IpAddr, headers: &HeaderMap, settings: &AuthSettings) -> IpAddr {
    let mut client = peer.to_canonical();
    if !settings.is_trusted_proxy(client) {
        return client;
    }
    // Proxies append: the rightmost entry is what the nearest proxy saw.
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for hop in hops.iter().rev() {
        let Some(ip) = parse_hop(hop) else {
            // A trusted proxy wrote something we cannot read: keep the last
            // address we are sure of rather than guess.
            return client;
        };
        client = ip;
        if !settings.is_trusted_proxy(ip) {
            break;
        }
    }
    client
}

/// `203.0.113.7`, `2001:db8::1`, `[2001:db8::1]:443` or `203.0.113.7:5000`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Env;
    use axum::http::HeaderValue;

    fn settings(proxies: &str) -> AuthSettings {
        let pairs = [("MAXY_TRUSTED_PROXIES", proxies)];
        AuthSettings::from_source(&Env::from_pairs(
            pairs.into_iter().filter(|(_, v)| !v.is_empty()),
        ))
        .unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        headers
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_cannot_choose_its_address() {
        let headers = forwarded(&["198.51.100.1"]);
        assert_eq!(
            client_addr(ip("203.0.113.9"), &headers, &settings("")),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_addr(ip("203.0.113.9"), &headers, &settings("10.0.0.0/8")),
            ip("203.0.113.9"),
            "the peer is not one of the proxies"
        );
    }

    #[test]
    fn behind_trusted_proxies_the_nearest_untrusted_hop_is_the_client() {
        let s = settings("10.0.0.0/8,127.0.0.1");
        // The client forged the first entry; our two proxies appended the rest.
        let headers = forwarded(&["1.1.1.1, 203.0.113.7", "10.0.0.2"]);
        assert_eq!(
            client_addr(ip("127.0.0.1"), &headers, &s),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_addr(ip("127.0.0.1"), &HeaderMap::new(), &s),
            ip("127.0.0.1"),
            "no header: the proxy itself"
        );
        assert_eq!(
            client_addr(ip("127.0.0.1"), &forwarded(&["10.0.0.3"]), &s),
            ip("10.0.0.3"),
            "only proxies: the furthest one"
        );
        assert_eq!(
            client_addr(ip("127.0.0.1"), &forwarded(&["junk, 10.0.0.3"]), &s),
            ip("10.0.0.3"),
            "an unreadable hop stops the walk"
        );
        assert_eq!(
            client_addr(ip("127.0.0.1"), &forwarded(&["[2001:db8::5]:443"]), &s),
            ip("2001:db8::5")
        );
        assert_eq!(
            client_addr(
                ip("::ffff:127.0.0.1"),
                &forwarded(&["::ffff:203.0.113.7"]),
                &s
            ),
            ip("203.0.113.7"),
            "IPv4-mapped addresses are plain IPv4"
        );
    }
}
