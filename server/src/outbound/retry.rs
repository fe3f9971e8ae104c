//! The retry loop of every remote-API client: a failed attempt is retried
//! after `Retry-After` when the server sends one (up to a ceiling), else
//! after an exponential backoff with jitter, a bounded number of times.

use std::future::Future;
use std::time::Duration;

/// Why one attempt failed, and whether another may succeed.
pub enum Failure<E> {
    /// Network failure, timeout, 429 or 5xx: worth another attempt.
    Retry {
        reason: String,
        retry_after: Option<Duration>,
    },
    /// The server refused the request or answered nonsense: final.
    Final(E),
}

/// How one client retries.
#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// Attempts per call, the first included.
    pub max_attempts: u32,
    /// The wait after the first failure; doubled after each later one.
    pub first_backoff: Duration,
    /// The longest `Retry-After` honoured; a longer one fails at once, so
    /// callers fall back instead of keeping someone waiting.
    pub max_retry_after: Duration,
}

impl RetryPolicy {
    /// Between half and all of `first_backoff * 2^(attempt-1)`, so clients
    /// that failed together do not retry together.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let full = self.first_backoff * 2u32.saturating_pow(attempt.saturating_sub(1));
        let fraction = f64::from(getrandom::u32().unwrap_or(u32::MAX / 2)) / f64::from(u32::MAX);
        full / 2 + full.mul_f64(fraction / 2.0)
    }

    /// Runs `attempt` until it succeeds, fails for good, or the policy gives
    /// up; then `unavailable` turns the last reason, prefixed by `place`
    /// (where the call went, already redacted), into the caller's error.
    /// `on_retry(attempt, wait, reason)` logs each retry in the caller's terms.
    pub async fn run<T, E, Fut>(
        &self,
        place: &str,
        unavailable: impl Fn(String) -> E,
        mut attempt: impl FnMut() -> Fut,
        on_retry: impl Fn(u32, Duration, &str),
    ) -> Result<T, E>
    where
        Fut: Future<Output = Result<T, Failure<E>>>,
    {
        let mut count = 1;
        loop {
            let (reason, retry_after) = match attempt().await {
                Ok(value) => return Ok(value),
                Err(Failure::Final(e)) => return Err(e),
                Err(Failure::Retry {
                    reason,
                    retry_after,
                }) => (reason, retry_after),
            };
            if count >= self.max_attempts {
                return Err(unavailable(format!(
                    "{place} {reason} (after {} attempts)",
                    self.max_attempts
                )));
            }
            let wait = match retry_after {
                Some(wait) if wait > self.max_retry_after => {
                    return Err(unavailable(format!(
                        "{place} {reason} and asks to retry after {} s, more than the {} s we wait",
                        wait.as_secs(),
                        self.max_retry_after.as_secs()
                    )))
                }
                Some(wait) => wait,
                None => self.backoff(count),
            };
            on_retry(count, wait, &reason);
            tokio::time::sleep(wait).await;
            count += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    const POLICY: RetryPolicy = RetryPolicy {
        max_attempts: 3,
        first_backoff: Duration::from_millis(10),
        max_retry_after: Duration::from_secs(1),
    };

    #[test]
    fn backoff_doubles_with_jitter() {
        let first_backoff = POLICY.first_backoff;
        for _ in 0..20 {
            let first = POLICY.backoff(1);
            assert!(
                first >= first_backoff / 2 && first <= first_backoff,
                "{first:?}"
            );
            let second = POLICY.backoff(2);
            assert!(
                second >= first_backoff && second <= first_backoff * 2,
                "{second:?}"
            );
        }
    }

    fn retry(reason: &str, retry_after: Option<Duration>) -> Failure<String> {
        Failure::Retry {
            reason: reason.into(),
            retry_after,
        }
    }

    #[tokio::test]
    async fn gives_up_after_the_last_attempt_and_says_where_and_why() {
        let calls = Cell::new(0);
        let result: Result<(), String> = POLICY
            .run(
                "http://api (m)",
                |m| m,
                || {
                    calls.set(calls.get() + 1);
                    async { Err(retry("answered 503", None)) }
                },
                |_, _, _| {},
            )
            .await;
        assert_eq!(calls.get(), 3);
        assert_eq!(
            result.unwrap_err(),
            "http://api (m) answered 503 (after 3 attempts)"
        );
    }

    #[tokio::test]
    async fn a_final_failure_is_not_retried_and_a_success_ends_the_loop() {
        let calls = Cell::new(0);
        let result: Result<(), String> = POLICY
            .run(
                "p",
                |m| m,
                || {
                    calls.set(calls.get() + 1);
                    async { Err(Failure::Final("refused".to_string())) }
                },
                |_, _, _| {},
            )
            .await;
        assert_eq!((calls.get(), result), (1, Err("refused".to_string())));

        let calls = Cell::new(0);
        let result: Result<u32, String> = POLICY
            .run(
                "p",
                |m| m,
                || {
                    calls.set(calls.get() + 1);
                    let n = calls.get();
                    async move {
                        if n < 2 {
                            Err(retry("timeout", Some(Duration::from_millis(5))))
                        } else {
                            Ok(n)
                        }
                    }
                },
                |_, _, _| {},
            )
            .await;
        assert_eq!(result, Ok(2));
    }

    #[tokio::test]
    async fn a_retry_after_beyond_the_ceiling_fails_at_once() {
        let calls = Cell::new(0);
        let result: Result<(), String> = POLICY
            .run(
                "p",
                |m| m,
                || {
                    calls.set(calls.get() + 1);
                    async { Err(retry("answered 429", Some(Duration::from_secs(60)))) }
                },
                |_, _, _| {},
            )
            .await;
        assert_eq!(calls.get(), 1);
        assert!(result.unwrap_err().contains("retry after 60 s"));
    }
}
