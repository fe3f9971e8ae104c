//! What every client of a remote API (embeddings, LLM) does the same way:
//! the retry loop, reading `Retry-After`, quoting an error body, and
//! describing a network failure. Vendor wire formats stay in their own modules.
mod retry;

pub use retry::{Failure, RetryPolicy};
use std::time::Duration;

/// How much of an error body is quoted in an error message.
const MAX_QUOTED: usize = 200;

/// The response's `Retry-After`, when it sends a readable one.
pub fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_retry_after)
}

/// 429 and 5xx may succeed on another attempt; any other 4xx is final.
pub fn worth_retrying(status: reqwest::StatusCode) -> bool {
    status == reqwest::StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

/// `Retry-After` as seconds or an HTTP date (a date in the past: now).
fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = at.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

/// The start of a server's error text, trimmed, for an error message.
pub fn quote(text: &str) -> String {
    let quoted: String = text.trim().chars().take(MAX_QUOTED).collect();
    if quoted.is_empty() {
        "(empty body)".into()
    } else {
        quoted
    }
}

/// Why a request got no HTTP answer, in words, without the URL (callers
/// name the place themselves, redacted).
pub fn network_failure_reason(e: reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("did not answer within {} ms", timeout.as_millis());
    }
    if e.is_connect() {
        return "is unreachable".to_string();
    }
    // The chain of causes, without the URL reqwest would repeat.
    let e = e.without_url();
    let mut reason = format!("request failed: {e}");
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        reason.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    reason
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("soon"), None);
        let past = parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT");
        assert_eq!(past, Some(Duration::ZERO));
        let later = (chrono::Utc::now() + chrono::Duration::seconds(30)).to_rfc2822();
        let wait = parse_retry_after(&later).unwrap_or_default();
        assert!(wait > Duration::from_secs(25) && wait <= Duration::from_secs(30));
    }

    #[test]
    fn quotes_are_short_and_never_empty() {
        assert_eq!(quote("  bad input \n"), "bad input");
        assert_eq!(quote(""), "(empty body)");
        assert_eq!(quote(&"x".repeat(500)).len(), MAX_QUOTED);
    }
}
