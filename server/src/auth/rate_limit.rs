//! Failure-based rate limits for sign-in and magic links.
//!
//! Only failures count: a wrong password, an unknown account, a refused link.
//! Successful sign-ins and valid links never spend anything, so a busy team
//! behind one address is never throttled by its own work. (An attempt is
//! counted when it is let through and taken back when it succeeds, so that
//! parallel guesses cannot all slip through while their passwords are being
//! checked.)
//!
//! Addresses are counted per block ([`address_block`]: IPv4 /32, IPv6 /64),
//! because one IPv6 host usually owns a whole /64. Sign-in has three counters:
//! - per address block: too many failures from one block refuse its attempts
//!   before anything else is looked at (the e-mail's counter is not touched);
//! - per e-mail: too many failures on one account mark it *under attack*;
//! - per (e-mail, block): while an account is under attack, only blocks that
//!   have failed on it recently are refused. A correct password from a fresh
//!   address still gets in, so an attacker cannot lock a user out; a
//!   distributed attacker gets one guess per block per [`PAIR_MEMORY`].
//!
//! Sign-in failures are counted in PostgreSQL ([`sign_in`]), so every
//! server shares them: spreading guesses over servers gains nothing.
//! Refused magic links are counted in memory ([`LinkLimits`]).
mod bucket;
mod gcra;
pub mod sign_in;

use bucket::Buckets;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Failed sign-ins one address block may make per minute.
pub const SIGN_IN_FAILURES_PER_BLOCK: u32 = 10;
/// Failed sign-ins on one account per minute before it counts as attacked.
pub const SIGN_IN_FAILURES_PER_EMAIL: u32 = 5;
/// Refused magic links one address block may try per minute.
pub const LINK_FAILURES_PER_BLOCK: u32 = 20;
/// How long a block that failed on an attacked account stays refused on it.
pub const PAIR_MEMORY: Duration = Duration::from_secs(15 * 60);

const MINUTE: Duration = Duration::from_secs(60);

/// The key of an address: IPv4 as is, IPv6 cut to its /64.
pub fn address_block(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !(u128::MAX >> 64);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// Why a sign-in attempt is refused before the password is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throttled {
    /// Too many failures from this address block.
    Address,
    /// The account is under attack and this block took part.
    Account,
}

/// The magic-link limit, kept in this process's memory: it is checked on
/// every view of an organizer's page (thousands a second), and a link is a
/// signed token nobody can guess, so what it bounds is the work refused
/// links cost, not guessing. Each server counts on its own.
#[derive(Clone)]
pub struct LinkLimits {
    by_block: Arc<Buckets<IpAddr>>,
}

impl Default for LinkLimits {
    fn default() -> Self {
        LinkLimits {
            by_block: Arc::new(Buckets::new(LINK_FAILURES_PER_BLOCK, MINUTE)),
        }
    }
}

impl LinkLimits {
    /// Whether `ip` may try a magic link now: its block has not used up its
    /// refusals. Unlike sign-in, nothing is counted in advance: many valid
    /// views at once from one block (an office behind one proxy, a load
    /// test) must never fill the bucket while they are in flight. Guesses
    /// in flight when the bucket fills still finish: a few more than the
    /// limit, bounded by the client's concurrency, not by time.
    pub fn try_link(&self, ip: IpAddr) -> bool {
        !self.by_block.is_full(&address_block(ip), Instant::now())
    }

    /// A link request ended refused (unknown, expired, revoked…): it counts.
    pub fn link_refused(&self, ip: IpAddr) {
        self.by_block.add(address_block(ip), Instant::now());
    }
}

#[cfg(test)]
mod tests;
