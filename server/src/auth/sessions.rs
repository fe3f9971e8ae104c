//! Session cookies: minted at sign-in, looked up on every request, ended at
//! sign-out. The browser holds a random token; the database, its sha256.
use super::tokens;
use crate::config::AuthSettings;
use axum::http::HeaderMap;
use cookie::{Cookie, SameSite};

/// The cookie's name over plain http (local use).
pub const COOKIE_NAME: &str = "maxy_session";
/// Its name over https: browsers keep a `__Host-` cookie only when it is
/// `Secure`, has `Path=/` and no `Domain`, so neither a sibling sub-domain nor
/// a plain-http page can plant or overwrite it.
pub const SECURE_COOKIE_NAME: &str = "__Host-maxy_session";

/// The name the session cookie has under `settings`.
pub fn cookie_name(settings: &AuthSettings) -> &'static str {
    if settings.secure_cookies() {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    }
}

/// The session token the browser sent, if any. Only the cookie name in use is
/// read: over https, a plain `maxy_session` is ignored.
pub fn token_from(headers: &HeaderMap, settings: &AuthSettings) -> Option<String> {
    crate::request_cookies::named(headers, cookie_name(settings))
        .next()
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
}

/// `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, Secure behind TLS.
/// It lives as long as the session's absolute lifetime; the idle expiry is
/// the server's to decide (it slides with use).
pub fn set_cookie(token: &str, settings: &AuthSettings) -> String {
    let max_age = cookie::time::Duration::seconds(
        i64::try_from(settings.session_max_age.as_secs()).unwrap_or(i64::MAX),
    );
    Cookie::build((cookie_name(settings), token.to_string()))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(settings.secure_cookies())
        .max_age(max_age)
        .build()
        .to_string()
}

/// `Set-Cookie` that removes the session cookie.
pub fn clear_cookie(settings: &AuthSettings) -> String {
    Cookie::build((cookie_name(settings), ""))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(settings.secure_cookies())
        .max_age(cookie::time::Duration::ZERO)
        .build()
        .to_string()
}

/// Starts a session for `user_id` and returns its token.
pub async fn start(
    db: &sqlx::PgPool,
    user_id: i64,
    settings: &AuthSettings,
    user_agent: Option<&str>,
) -> anyhow::Result<String> {
    let token = tokens::random_token()?;
    crate::db::sessions::create(
        db,
        &tokens::hash(&token),
        user_id,
        settings.session_ttl,
        user_agent,
    )
    .await?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Env;
    use axum::http::{header, HeaderValue};

    fn settings(public_url: &str) -> AuthSettings {
        AuthSettings::from_source(&Env::from_pairs([("MAXY_PUBLIC_URL", public_url)])).unwrap()
    }

    #[test]
    fn the_session_token_is_found_among_other_cookies() {
        let http = settings("http://127.0.0.1:3000");
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; maxy_session=tok-123; b=2"),
        );
        assert_eq!(token_from(&headers, &http).as_deref(), Some("tok-123"));
        headers.insert(header::COOKIE, HeaderValue::from_static("maxy_session="));
        assert_eq!(token_from(&headers, &http), None);
    }

    #[test]
    fn over_https_only_the_host_prefixed_cookie_counts() {
        let https = settings("https://maxy.example.org");
        let cookie = set_cookie("tok-1", &https);
        assert!(cookie.starts_with("__Host-maxy_session=tok-1;"), "{cookie}");
        assert!(
            cookie.contains("Secure") && cookie.contains("Path=/"),
            "{cookie}"
        );
        assert!(!cookie.contains("Domain"), "{cookie}");
        assert!(clear_cookie(&https).starts_with("__Host-maxy_session=;"));

        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("maxy_session=planted"),
        );
        assert_eq!(token_from(&headers, &https), None, "a planted cookie");
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("maxy_session=planted; __Host-maxy_session=mine"),
        );
        assert_eq!(token_from(&headers, &https).as_deref(), Some("mine"));
    }

    #[test]
    fn the_cookie_lives_as_long_as_the_absolute_lifetime() {
        let cookie = set_cookie("t", &settings("http://127.0.0.1:3000"));
        assert!(
            cookie.contains(&format!("Max-Age={}", 30 * 86_400)),
            "{cookie}"
        );
    }
}
