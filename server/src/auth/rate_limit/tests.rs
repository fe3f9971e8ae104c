use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
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
fn only_refused_links_count() {
    let limits = LinkLimits::default();
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
