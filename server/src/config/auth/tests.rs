use super::*;

fn auth(pairs: &[(&str, &str)]) -> Result<AuthSettings, ConfigError> {
    AuthSettings::from_source(&Env::from_pairs(pairs.iter().copied()))
}

fn message(pairs: &[(&str, &str)]) -> String {
    auth(pairs).err().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn no_proxy_is_trusted_by_default() -> Result<(), ConfigError> {
    let a = auth(&[])?;
    assert!(a.trusted_proxies.is_empty());
    assert!(!a.is_trusted_proxy([127, 0, 0, 1].into()));
    Ok(())
}

#[test]
fn trusted_proxies_take_addresses_and_blocks() -> Result<(), ConfigError> {
    let a = auth(&[(
        "MAXY_TRUSTED_PROXIES",
        " 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8",
    )])?;
    assert_eq!(a.trusted_proxies.len(), 4);
    for trusted in ["127.0.0.1", "10.1.2.3", "::1", "fd00::5", "::ffff:10.9.9.9"] {
        let ip: IpAddr = trusted.parse().unwrap();
        assert!(a.is_trusted_proxy(ip), "{trusted}");
    }
    for other in ["127.0.0.2", "11.0.0.1", "2001:db8::1"] {
        let ip: IpAddr = other.parse().unwrap();
        assert!(!a.is_trusted_proxy(ip), "{other}");
    }
    Ok(())
}

#[test]
fn bad_trusted_proxies_name_the_variable_and_the_entry() {
    for (value, entry) in [
        ("10.0.0.0/33", "10.0.0.0/33"),
        ("127.0.0.1,proxy.local", "proxy.local"),
        ("127.0.0.1,,::1", ""),
        ("*", "*"),
    ] {
        let m = message(&[("MAXY_TRUSTED_PROXIES", value)]);
        assert!(
            m.starts_with("MAXY_TRUSTED_PROXIES is invalid"),
            "{value}: {m}"
        );
        assert!(m.contains(&format!("got {entry:?}")), "{value}: {m}");
        assert_eq!(m.lines().count(), 1, "{m}");
    }
}

#[test]
fn sessions_have_an_idle_and_an_absolute_lifetime() -> Result<(), ConfigError> {
    let a = auth(&[])?;
    assert_eq!(a.session_ttl, Duration::from_secs(7 * 86_400));
    assert_eq!(a.session_max_age, Duration::from_secs(30 * 86_400));
    let b = auth(&[
        ("MAXY_SESSION_TTL_HOURS", "8"),
        ("MAXY_SESSION_MAX_DAYS", "1"),
    ])?;
    assert_eq!(b.session_max_age, Duration::from_secs(86_400));
    Ok(())
}

#[test]
fn an_absolute_lifetime_shorter_than_the_idle_one_is_refused() {
    for pairs in [
        &[("MAXY_SESSION_MAX_DAYS", "0")][..],
        &[("MAXY_SESSION_MAX_DAYS", "a month")],
        &[("MAXY_SESSION_MAX_DAYS", "366")],
        &[("MAXY_SESSION_MAX_DAYS", "6")],
        &[
            ("MAXY_SESSION_TTL_HOURS", "25"),
            ("MAXY_SESSION_MAX_DAYS", "1"),
        ],
    ] {
        let m = message(pairs);
        assert!(m.starts_with("MAXY_SESSION_MAX_DAYS"), "{pairs:?}: {m}");
        assert_eq!(m.lines().count(), 1, "{m}");
    }
}
