//! The sign-in limit's three counters (see the parent module), kept in
//! PostgreSQL (`db::sign_in_failures`) so that every server counts the same
//! failures.
//!
//! An attempt is one short transaction: the address block's and the
//! account's keys are locked (always in that order, so two attempts never
//! wait on each other in a circle), the three backlogs read, and either the
//! attempt refused (nothing written) or its failure counted in advance.
//! Parallel guesses from one block therefore pass one at a time, on any
//! server, and no more of them are checked than the limit allows.
use super::gcra::Gcra;
use super::{address_block, Throttled, PAIR_MEMORY, SIGN_IN_FAILURES_PER_BLOCK};
use super::{MINUTE, SIGN_IN_FAILURES_PER_EMAIL};
use crate::db::sign_in_failures::{self, BucketKey};
use sqlx::PgPool;
use std::net::IpAddr;
use std::time::Duration;

fn per_block() -> Gcra {
    Gcra::new(SIGN_IN_FAILURES_PER_BLOCK, MINUTE)
}

fn per_email() -> Gcra {
    Gcra::new(SIGN_IN_FAILURES_PER_EMAIL, MINUTE)
}

/// One failure fills it; it drains in [`PAIR_MEMORY`].
fn per_pair() -> Gcra {
    Gcra::new(1, PAIR_MEMORY)
}

/// Whether a sign-in from `ip` for `email` (normalised) may be checked.
/// When it may, the attempt is counted as a failure at once, so a burst of
/// parallel guesses cannot all pass while their passwords are being
/// checked; [`sign_in_succeeded`] takes it back. A refused attempt spends
/// nothing.
pub async fn try_sign_in(
    db: &PgPool,
    ip: IpAddr,
    email: &str,
) -> sqlx::Result<Result<(), Throttled>> {
    let buckets = buckets(ip, email);
    let mut tx = db.begin().await?;
    let before = locked_backlogs(&mut tx, &buckets).await?;
    match before.admit() {
        Ok(after) => {
            sign_in_failures::set(&mut *tx, &buckets, &after.in_order()).await?;
            tx.commit().await?;
            Ok(Ok(()))
        }
        Err(why) => {
            tx.rollback().await?;
            Ok(Err(why))
        }
    }
}

/// The attempt [`try_sign_in`] let through succeeded (or failed on our
/// side): it was not a failure after all.
pub async fn sign_in_succeeded(db: &PgPool, ip: IpAddr, email: &str) -> sqlx::Result<()> {
    let buckets = buckets(ip, email);
    let mut tx = db.begin().await?;
    let before = locked_backlogs(&mut tx, &buckets).await?;
    sign_in_failures::set(&mut *tx, &buckets, &before.taken_back().in_order()).await?;
    tx.commit().await
}

/// The buckets an attempt counts in: its block's, its account's, and the
/// pair's. The pair's key starts with the block, which holds no space.
fn buckets(ip: IpAddr, email: &str) -> [BucketKey; 3] {
    let block = address_block(ip).to_string();
    [
        BucketKey {
            counter: "block",
            key: block.clone(),
        },
        BucketKey {
            counter: "email",
            key: email.to_string(),
        },
        BucketKey {
            counter: "pair",
            key: format!("{block} {email}"),
        },
    ]
}

/// Locks the block's key, then the account's (the pair is covered by
/// both), and reads the three backlogs under those locks.
async fn locked_backlogs(
    tx: &mut sqlx::PgConnection,
    buckets: &[BucketKey; 3],
) -> sqlx::Result<Backlogs> {
    sign_in_failures::lock(tx, &buckets[0].key).await?;
    sign_in_failures::lock(tx, &buckets[1].key).await?;
    Ok(Backlogs::from(
        sign_in_failures::backlogs(tx, buckets).await?,
    ))
}

/// An attempt's three backlogs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Backlogs {
    block: Duration,
    email: Duration,
    pair: Duration,
}

impl From<Vec<Duration>> for Backlogs {
    fn from(read: Vec<Duration>) -> Self {
        match read[..] {
            [block, email, pair] => Backlogs { block, email, pair },
            _ => Backlogs::default(),
        }
    }
}

impl Backlogs {
    /// The backlogs once this attempt counts as a failure, or why it is
    /// refused. A refused attempt changes nothing: in particular a block
    /// refused for its own failures never touches the account's counter.
    fn admit(self) -> Result<Backlogs, Throttled> {
        if per_block().is_full(self.block) {
            return Err(Throttled::Address);
        }
        if per_email().is_full(self.email) && per_pair().is_full(self.pair) {
            return Err(Throttled::Account);
        }
        Ok(Backlogs {
            block: per_block().with_failure(self.block),
            email: per_email().with_failure(self.email),
            pair: per_pair().with_failure(self.pair),
        })
    }

    /// The backlogs with this attempt's failure taken back.
    fn taken_back(self) -> Backlogs {
        Backlogs {
            block: per_block().without_failure(self.block),
            email: per_email().without_failure(self.email),
            pair: per_pair().without_failure(self.pair),
        }
    }

    /// In the order of [`buckets`].
    fn in_order(self) -> [Duration; 3] {
        [self.block, self.email, self.pair]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZERO: Backlogs = Backlogs {
        block: Duration::ZERO,
        email: Duration::ZERO,
        pair: Duration::ZERO,
    };

    fn failures(from: Backlogs, n: u32) -> Backlogs {
        (0..n).fold(from, |b, _| b.admit().expect("admitted"))
    }

    #[test]
    fn a_block_is_refused_after_its_failures_whatever_the_account() {
        // Failures on as many accounts, each new to this block.
        let noisy = (0..SIGN_IN_FAILURES_PER_BLOCK).fold(ZERO, |b, _| Backlogs {
            email: Duration::ZERO,
            pair: Duration::ZERO,
            ..b.admit().expect("admitted")
        });
        assert_eq!(noisy.admit(), Err(Throttled::Address));
        let fresh_account = Backlogs {
            email: Duration::ZERO,
            pair: Duration::ZERO,
            ..noisy
        };
        assert_eq!(fresh_account.admit(), Err(Throttled::Address));
        // One failure drains every six seconds.
        let later = Backlogs {
            block: noisy.block - Duration::from_secs(7),
            ..noisy
        };
        assert!(later.admit().is_ok());
    }

    #[test]
    fn an_attacked_account_refuses_only_the_blocks_that_failed_on_it() {
        let attacked = failures(ZERO, SIGN_IN_FAILURES_PER_EMAIL);
        let attacker = Backlogs {
            block: Duration::ZERO,
            ..attacked
        };
        assert_eq!(attacker.admit(), Err(Throttled::Account));
        let user_elsewhere = Backlogs {
            pair: Duration::ZERO,
            ..attacker
        };
        let guessed = user_elsewhere.admit().expect("a fresh block is checked");
        assert_eq!(
            guessed.admit(),
            Err(Throttled::Account),
            "one guess per block while the account is attacked"
        );
    }

    #[test]
    fn a_success_takes_its_failure_back() {
        let one = ZERO.admit().unwrap();
        assert_eq!(one.taken_back(), ZERO);
        let many = failures(ZERO, 3);
        let back = many.admit().unwrap().taken_back();
        assert_eq!((back.block, back.email), (many.block, many.email));
        // The pair's bucket holds one failure: a success clears it.
        assert_eq!(back.pair, Duration::ZERO);
    }

    #[test]
    fn backlogs_read_in_the_order_of_the_buckets() {
        let read = vec![
            Duration::from_secs(1),
            Duration::from_secs(2),
            Duration::from_secs(3),
        ];
        assert_eq!(Backlogs::from(read.clone()).in_order().to_vec(), read);
        let keys = buckets("2001:db8:1:2::7".parse().unwrap(), "a@b.fr");
        assert_eq!(
            keys.iter().map(|b| b.counter).collect::<Vec<_>>(),
            ["block", "email", "pair"],
            "the order the SQL reads and writes"
        );
        assert_eq!(keys[2].key, "2001:db8:1:2:: a@b.fr");
    }
}
