use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

const VICTIM: &str = "camille.martin@reciprok.fr";

impl RateLimits {
    /// An attempt let through whose password turned out wrong.
    fn fail(&self, ip: IpAddr, email: &str, now: Instant) {
        assert_eq!(self.try_sign_in_at(ip, email, now), Ok(()), "{ip} {email}");
    }

    /// An attempt let through whose password was right.
    fn succeed(&self, ip: IpAddr, email: &str, now: Instant) -> Result<(), Throttled> {
        self.try_sign_in_at(ip, email, now)?;
        self.sign_in_succeeded_at(ip, email, now);
        Ok(())
    }
}

#[test]
fn ipv6_addresses_are_counted_per_64_and_ipv4_per_address() {
    assert_eq!(
        address_block(ip("2001:db8:1:2:aaaa::1")),
        address_block(ip("2001:db8:1:2:ffff::9"))
    );
    assert_ne!(
        address_block(ip("2001:db8:1:2::1")),
        address_block(ip("2001:db8:1:3::1"))
    );
    assert_eq!(
        address_block(ip("2001:db8:1:2:3:4:5:6")),
        ip("2001:db8:1:2::")
    );
    assert_ne!(
        address_block(ip("192.0.2.1")),
        address_block(ip("192.0.2.2"))
    );
    assert_eq!(address_block(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
}

#[test]
fn only_failures_count() {
    let limits = RateLimits::default();
    let now = Instant::now();
    let office = ip("192.0.2.10");
    for _ in 0..1000 {
        assert_eq!(limits.succeed(office, VICTIM, now), Ok(()));
    }
    for n in 0..SIGN_IN_FAILURES_PER_BLOCK {
        limits.fail(office, &format!("user{n}@x.fr"), now);
    }
    assert_eq!(
        limits.try_sign_in_at(office, VICTIM, now),
        Err(Throttled::Address)
    );
    // One failure drains every six seconds.
    let later = now + Duration::from_secs(7);
    assert_eq!(limits.succeed(office, VICTIM, later), Ok(()));
}

#[test]
fn parallel_attempts_cannot_all_slip_through() {
    let limits = RateLimits::default();
    let now = Instant::now();
    let attacker = ip("203.0.113.7");
    // Ten let through, none answered yet: the eleventh waits.
    for n in 0..SIGN_IN_FAILURES_PER_BLOCK {
        assert_eq!(
            limits.try_sign_in_at(attacker, &format!("u{n}@x.fr"), now),
            Ok(())
        );
    }
    assert_eq!(
        limits.try_sign_in_at(attacker, "u99@x.fr", now),
        Err(Throttled::Address)
    );
}

#[test]
fn an_ipv6_host_cannot_dodge_its_limit_inside_its_64() {
    let limits = RateLimits::default();
    let now = Instant::now();
    for n in 0..SIGN_IN_FAILURES_PER_BLOCK {
        let hop = ip(&format!("2001:db8:0:1::{:x}", n + 1));
        limits.fail(hop, &format!("user{n}@x.fr"), now);
    }
    assert_eq!(
        limits.try_sign_in_at(ip("2001:db8:0:1:ffff::1"), VICTIM, now),
        Err(Throttled::Address)
    );
    assert_eq!(limits.succeed(ip("2001:db8:0:2::1"), VICTIM, now), Ok(()));
}

#[test]
fn an_attacker_cannot_lock_a_user_out_from_a_fresh_address() {
    let limits = RateLimits::default();
    let now = Instant::now();
    let attacker = ip("203.0.113.7");
    for _ in 0..SIGN_IN_FAILURES_PER_EMAIL {
        limits.fail(attacker, VICTIM, now);
    }
    assert_eq!(
        limits.try_sign_in_at(attacker, VICTIM, now),
        Err(Throttled::Account),
        "the attacker's block is refused on this account"
    );
    assert_eq!(
        limits.succeed(ip("198.51.100.20"), VICTIM, now),
        Ok(()),
        "the user's fresh address is still checked"
    );
    assert_eq!(
        limits.succeed(attacker, "someone.else@x.fr", now),
        Ok(()),
        "other accounts are not affected"
    );
    // A second attacking block gets one guess, then is refused too.
    let second = ip("203.0.113.99");
    limits.fail(second, VICTIM, now);
    assert_eq!(
        limits.try_sign_in_at(second, VICTIM, now),
        Err(Throttled::Account)
    );
    // Once the account cools down, everybody may try again.
    let later = now + Duration::from_secs(61);
    assert_eq!(limits.succeed(attacker, VICTIM, later), Ok(()));
}

#[test]
fn a_refused_attempt_does_not_spend_the_accounts_allowance() {
    let limits = RateLimits::default();
    let now = Instant::now();
    let noisy = ip("203.0.113.7");
    for n in 0..SIGN_IN_FAILURES_PER_BLOCK {
        limits.fail(noisy, &format!("user{n}@x.fr"), now);
    }
    for _ in 0..100 {
        assert_eq!(
            limits.try_sign_in_at(noisy, VICTIM, now),
            Err(Throttled::Address)
        );
    }
    assert!(!limits.sign_in_by_email.is_full(VICTIM, now));
    assert_eq!(
        limits.sign_in_by_email.len(),
        SIGN_IN_FAILURES_PER_BLOCK as usize,
        "the victim's address has no counter at all"
    );
}

#[test]
fn only_refused_links_count() {
    let limits = RateLimits::default();
    let visitor = ip("192.0.2.44");
    for _ in 0..1000 {
        assert!(limits.try_link(visitor), "valid links never count");
    }
    for _ in 0..LINK_FAILURES_PER_BLOCK {
        assert!(limits.try_link(visitor));
        limits.link_refused(visitor);
    }
    assert!(!limits.try_link(visitor));
    assert!(limits.try_link(ip("192.0.2.45")));
}
