//! Session cookies: minted at sign-in, looked up on every request, ended at
//! sign-out. The browser holds a random token; the database, its sha256.
use super::tokens;
use crate::config::AuthSettings;
use axum::http::{header, HeaderMap};
use cookie::{Cookie, SameSite};

pub const COOKIE_NAME: &str = "maxy_session";

/// The session token the browser sent, if any.
pub fn token_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| Cookie::split_parse(v).filter_map(Result::ok))
        .find(|c| c.name() == COOKIE_NAME)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
}

/// `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, Secure behind TLS.
pub fn set_cookie(token: &str, settings: &AuthSettings) -> String {
    let max_age = cookie::time::Duration::seconds(
        i64::try_from(settings.session_ttl.as_secs()).unwrap_or(i64::MAX),
    );
    Cookie::build((COOKIE_NAME, token.to_string()))
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
    Cookie::build((COOKIE_NAME, ""))
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
    use axum::http::HeaderValue;

    #[test]
    fn the_session_token_is_found_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; maxy_session=tok-123; b=2"),
        );
        assert_eq!(token_from(&headers).as_deref(), Some("tok-123"));
        headers.insert(header::COOKIE, HeaderValue::from_static("maxy_session="));
        assert_eq!(token_from(&headers), None);
    }
}
