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

/// A usable link: right purpose, not expired, not revoked.
#[derive(sqlx::FromRow)]
pub struct LiveLink {
    pub id: i64,
    pub subject_id: i64,
    /// After it the link no longer opens anything.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// The link behind `token_hash` if it is usable right now. A plain read: no
/// row lock, so any number of views of one link run side by side. The use is
/// counted in memory (`auth::magic_links::LinkUses`) and written by
/// [`add_uses`]; revocation and expiry are read here on every view, so they
/// take effect on the very next one whatever is still unflushed.
pub async fn live(
    db: impl PgExecutor<'_>,
    purpose: &str,
    token_hash: &[u8],
) -> sqlx::Result<Option<LiveLink>> {
    sqlx::query_as(
        "SELECT id, subject_id, expires_at FROM magic_links
          WHERE token_hash = $1 AND purpose = $2 AND expires_at > now() AND revoked_at IS NULL",
    )
    .bind(token_hash)
    .bind(purpose)
    .fetch_optional(db)
    .await
}

/// Uses counted in memory since the last flush: `uses[i]` more uses of link
/// `ids[i]`, the last one at `last[i]`.
pub struct PendingUses<'a> {
    pub ids: &'a [i64],
    pub uses: &'a [i32],
    pub last: &'a [chrono::DateTime<chrono::Utc>],
}

/// Adds counted uses to their links in one statement (the caller sorts the
/// ids, so two servers flushing the same links lock them in the same order;
/// should they still collide, the loser's counts are kept for the next
/// flush). The count saturates rather than fail the CHECK. Commits asynchronously like any counter here: a crash
/// may lose the last second of counts, never a link or a revocation. Returns
/// how many links were updated (a deleted link's uses are dropped).
pub async fn add_uses(db: &sqlx::PgPool, pending: &PendingUses<'_>) -> sqlx::Result<u64> {
    let mut tx = db.begin().await?;
    sqlx::query("SET LOCAL synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    let done = sqlx::query(
        "UPDATE magic_links m
            SET use_count = least(m.use_count::bigint + u.n, 2147483647)::int,
                last_used_at = greatest(m.last_used_at, u.last)
           FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS u(id, n, last)
          WHERE m.id = u.id",
    )
    .bind(pending.ids)
    .bind(pending.uses)
    .bind(pending.last)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
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
