//! Per-key rate limits (GCRA, `governor`) for sign-in and magic links.
//!
//! Limits live in memory: each server process counts on its own, which still
//! bounds guessing to (processes × quota). Keys are client addresses and, for
//! sign-in, the e-mail tried, so a distributed attack on one account is
//! slowed too.
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

#[derive(Clone)]
pub struct RateLimits {
    sign_in_by_ip: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    sign_in_by_email: Arc<DefaultKeyedRateLimiter<String>>,
    links_by_ip: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
}

/// Forget idle keys now and then so the maps stay small.
const SWEEP_ABOVE: usize = 10_000;

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            sign_in_by_ip: Arc::new(RateLimiter::keyed(per_minute(10))),
            sign_in_by_email: Arc::new(RateLimiter::keyed(per_minute(5))),
            links_by_ip: Arc::new(RateLimiter::keyed(per_minute(60))),
        }
    }
}

impl RateLimits {
    /// One sign-in attempt from `ip` for `email`: `false` when over the limit.
    pub fn allow_sign_in(&self, ip: IpAddr, email: &str) -> bool {
        sweep(&self.sign_in_by_ip);
        sweep(&self.sign_in_by_email);
        let by_ip = self.sign_in_by_ip.check_key(&ip).is_ok();
        let by_email = self
            .sign_in_by_email
            .check_key(&email.trim().to_lowercase())
            .is_ok();
        by_ip && by_email
    }

    /// One magic-link request from `ip`.
    pub fn allow_link(&self, ip: IpAddr) -> bool {
        sweep(&self.links_by_ip);
        self.links_by_ip.check_key(&ip).is_ok()
    }
}

fn sweep<K: std::hash::Hash + Eq + Clone>(limiter: &DefaultKeyedRateLimiter<K>) {
    if limiter.len() > SWEEP_ABOVE {
        limiter.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_attempt_on_one_account_is_refused() {
        let limits = RateLimits::default();
        let ip: IpAddr = [127, 0, 0, 1].into();
        for _ in 0..5 {
            assert!(limits.allow_sign_in(ip, "Camille@Example.org"));
        }
        assert!(
            !limits.allow_sign_in(ip, "camille@example.org"),
            "case does not dodge the limit"
        );
        let other: IpAddr = [127, 0, 0, 2].into();
        assert!(limits.allow_sign_in(other, "someone.else@example.org"));
    }
}
