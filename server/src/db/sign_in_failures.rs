//! `sign_in_failures`: the sign-in rate limit's buckets, one row per
//! (counter, key), shared by every server (`auth::rate_limit::sign_in`).
//!
//! A row holds when its failures will all have drained; backlogs go in and
//! out as seconds ahead of the database's clock, so servers whose clocks
//! differ still count the same way.
use sqlx::{PgConnection, PgExecutor};
use std::time::Duration;

/// The class of the advisory locks taken on a key (`'SI'`): apart from the
/// one-number locks used elsewhere.
const LOCK_CLASS: i32 = 0x5349;

/// One bucket: which counter, and whose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketKey {
    pub counter: &'static str,
    pub key: String,
}

/// Serialises, until the transaction ends, everything counted on `key`
/// (same counter or not): a check and the count that follows it are one
/// step for parallel attempts. Callers lock their keys in one fixed order.
pub async fn lock(conn: &mut PgConnection, key: &str) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
        .bind(LOCK_CLASS)
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}

/// Each bucket's backlog, in the order given (zero for a bucket never
/// counted or drained).
pub async fn backlogs(
    db: impl PgExecutor<'_>,
    buckets: &[BucketKey],
) -> sqlx::Result<Vec<Duration>> {
    let (counters, keys) = columns(buckets);
    let seconds: Vec<f64> = sqlx::query_scalar(
        "SELECT coalesce(extract(epoch FROM greatest(f.drained_at - now(), interval '0')), 0)::float8
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(counter, key, n)
           LEFT JOIN sign_in_failures f USING (counter, key)
          ORDER BY k.n",
    )
    .bind(counters)
    .bind(keys)
    .fetch_all(db)
    .await?;
    Ok(seconds
        .into_iter()
        .map(|s| Duration::try_from_secs_f64(s).unwrap_or_default())
        .collect())
}

/// Sets each bucket's backlog; a zero backlog removes its row.
pub async fn set(
    db: impl PgExecutor<'_>,
    buckets: &[BucketKey],
    backlogs: &[Duration],
) -> sqlx::Result<()> {
    let (counters, keys) = columns(buckets);
    let seconds: Vec<f64> = backlogs.iter().map(Duration::as_secs_f64).collect();
    // The DELETE and the INSERT touch different keys: no row is both.
    sqlx::query(
        "WITH k AS (SELECT * FROM unnest($1::text[], $2::text[], $3::float8[]) AS k(counter, key, secs)),
              drained AS (DELETE FROM sign_in_failures f USING k
                           WHERE f.counter = k.counter AND f.key = k.key AND k.secs <= 0)
         INSERT INTO sign_in_failures (counter, key, drained_at)
         SELECT counter, key, now() + make_interval(secs => secs) FROM k WHERE secs > 0
         ON CONFLICT (counter, key) DO UPDATE SET drained_at = excluded.drained_at",
    )
    .bind(counters)
    .bind(keys)
    .bind(seconds)
    .execute(db)
    .await?;
    Ok(())
}

/// Removes the rows whose failures have all drained (they count as zero
/// already; this only keeps the table small). Returns how many.
pub async fn delete_drained(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let done = sqlx::query("DELETE FROM sign_in_failures WHERE drained_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

fn columns(buckets: &[BucketKey]) -> (Vec<&str>, Vec<&str>) {
    buckets.iter().map(|b| (b.counter, b.key.as_str())).unzip()
}
