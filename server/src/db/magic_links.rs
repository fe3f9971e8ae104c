//! `magic_links`: organizer and venue links, stored by the sha256 of their token.
use sqlx::PgExecutor;
use std::time::Duration;

pub async fn insert(
    db: impl PgExecutor<'_>,
    purpose: &str,
    subject_id: i64,
    token_hash: &[u8],
    ttl: Duration,
    created_by: Option<i64>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO magic_links (purpose, subject_id, token_hash, expires_at, created_by)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5) RETURNING id",
        purpose,
        subject_id,
        token_hash,
        ttl.as_secs_f64(),
        created_by
    )
    .fetch_one(db)
    .await
}

/// A usable link: right purpose, not expired, not revoked. Counts the use.
#[derive(sqlx::FromRow)]
pub struct LiveLink {
    pub id: i64,
    pub subject_id: i64,
}

/// Every opening of a link updates its row, and everyone behind one link
/// (an organizer's colleagues, a page reloaded) updates the *same* row: each
/// update waits for the previous one's commit. A durable commit waits for
/// the disk (about 5 ms here), which capped a popular link at ~200 views/s.
/// This statement alone commits asynchronously (`synchronous_commit` off for
/// its own transaction): the row is released as soon as the commit is
/// written to memory. A crash may lose the last few milliseconds of use
/// counts, never a link or a revocation (those are other statements). Call
/// it on the pool, not inside a transaction (whose commit it would relax).
pub async fn use_live(
    db: impl PgExecutor<'_>,
    purpose: &str,
    token_hash: &[u8],
) -> sqlx::Result<Option<LiveLink>> {
    sqlx::query_as(
        "WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
         UPDATE magic_links SET last_used_at = now(), use_count = use_count + 1
          WHERE token_hash = $1 AND purpose = $2 AND expires_at > now() AND revoked_at IS NULL
            AND EXISTS (SELECT 1 FROM relaxed)
          RETURNING id, subject_id",
    )
    .bind(token_hash)
    .bind(purpose)
    .fetch_optional(db)
    .await
}

/// Revokes a link; `false` when it did not exist or was already revoked.
pub async fn revoke(db: impl PgExecutor<'_>, link_id: i64, by: Option<i64>) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE magic_links SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL",
        link_id,
        by
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
