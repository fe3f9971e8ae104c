//! Paths as the guard and the logs see them.
//!
//! Nothing in front of the router normalises paths, and the page guard
//! matches them literally: `/./console`, `/%2e/console` or `/x/../console`
//! would slip past it to a page that a browser or the client router reads as
//! `/console`. Such paths are refused before the guard (no page of ours has
//! one). A trailing slash is redirected to the path without it: the router
//! matches paths exactly, so `/c/…/` fell through to the fallback, which
//! renders pages without the server's services (a 500). And wherever a path
//! is logged, magic-link tokens are redacted, in whatever shape the path
//! arrives.
use app::errors::AppError;
use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

/// Refuses (400) paths with dot segments, empty segments, backslashes or
/// control characters, encoded or not, and redirects (308: the method and
/// body are kept) a path with a trailing slash to the same path without it.
pub async fn refuse_unnormalised(request: Request<Body>, next: Next) -> Response {
    let uri = request.uri();
    if !is_normal(uri.path()) {
        return AppError::BadRequest("Adresse invalide.".into()).into_response();
    }
    match without_trailing_slash(uri.path()) {
        Some(path) => {
            let location = match uri.query() {
                Some(query) => format!("{path}?{query}"),
                None => path.to_string(),
            };
            Redirect::permanent(&location).into_response()
        }
        None => next.run(request).await,
    }
}

/// `/x/` → `/x`; `None` for `/` and for paths without a trailing slash. Only
/// called on normal paths, so what is left never starts with `//`.
fn without_trailing_slash(path: &str) -> Option<&str> {
    path.strip_suffix('/').filter(|rest| !rest.is_empty())
}

/// Whether `path` is already in the one shape our router uses.
pub fn is_normal(path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    if rest.is_empty() {
        return true;
    }
    // One trailing slash is harmless (`/console/` is `/console` to the guard).
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    rest.split('/').all(|segment| {
        let decoded = percent_decode(segment);
        !decoded.is_empty()
            && decoded != "."
            && decoded != ".."
            && !decoded
                .chars()
                .any(|c| c == '\\' || c == '/' || c.is_control() || c.is_whitespace())
    })
}

/// The path with every magic-link token replaced by `…`: the segment after
/// a `c` or `v` segment, and any segment long enough to be a token.
pub fn loggable(path: &str) -> String {
    let mut previous = String::new();
    path.split('/')
        .map(|segment| {
            let decoded = percent_decode(segment).to_ascii_lowercase();
            let after_link_prefix = previous == "c" || previous == "v";
            previous = decoded;
            if !segment.is_empty() && (after_link_prefix || looks_like_token(segment)) {
                "…"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Tokens are 43+ characters of URL-safe base64 (a signed link adds `.` and
/// its HMAC); none of our path segments is that long.
fn looks_like_token(segment: &str) -> bool {
    segment.len() >= 32
}

/// Percent-decoding, lossy: invalid escapes stay as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                let (h, l) = (hex(h).unwrap_or(0), hex(l).unwrap_or(0));
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_and_their_encodings_are_not_normal() {
        for path in [
            "/./console",
            "/%2e/console",
            "/%2E%2E/console",
            "/x/../console",
            "/x/%2e%2e/console",
            "//console",
            "/console//x",
            "/%5cconsole",
            "/con%0asole",
            "/c%2f..",
            "/a%20b",
            "console",
        ] {
            assert!(!is_normal(path), "{path}");
        }
        for path in [
            "/",
            "/console",
            "/console/",
            "/c/abc.def",
            "/api/venues/search",
        ] {
            assert!(is_normal(path), "{path}");
        }
    }

    #[test]
    fn a_trailing_slash_is_dropped_and_nothing_else() {
        assert_eq!(without_trailing_slash("/console/"), Some("/console"));
        assert_eq!(without_trailing_slash("/c/abc/"), Some("/c/abc"));
        assert_eq!(without_trailing_slash("/"), None);
        assert_eq!(without_trailing_slash("/console"), None);
    }

    #[test]
    fn magic_link_tokens_never_reach_the_logs() {
        let token =
            "Zk3v0pS9yQ2x8Lw1aB4cD5eF6gH7iJ8kL9mN0oP1qR2.hmacSiGnAtUrE0123456789abcdefABCDEF";
        for (path, logged) in [
            (format!("/c/{token}"), "/c/…"),
            (format!("/v/{token}"), "/v/…"),
            (format!("/./c/{token}"), "/./c/…"),
            (format!("/x/../v/{token}"), "/x/../v/…"),
            (format!("/%63/{token}"), "/%63/…"),
            (format!("/C/{token}"), "/C/…"),
            (format!("/nulle-part/{token}"), "/nulle-part/…"),
            ("/c/short".to_string(), "/c/…"),
        ] {
            assert_eq!(loggable(&path), logged);
        }
        assert_eq!(loggable("/chat"), "/chat");
        assert_eq!(loggable("/api/links/catalogue"), "/api/links/catalogue");
        assert_eq!(loggable("/"), "/");
    }
}
