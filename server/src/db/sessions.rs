//! `user_sessions`: server-side sessions, stored by the sha256 of their token.
use app::auth::{Role, SessionUser};
use sqlx::PgExecutor;
use std::time::Duration;

pub async fn create(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    user_id: i64,
    ttl: Duration,
    user_agent: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO user_sessions (token_hash, user_id, expires_at, user_agent)
         VALUES ($1, $2, now() + make_interval(secs => $3), left($4, 300))",
        token_hash,
        user_id,
        ttl.as_secs_f64(),
        user_agent
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The live session's user (not expired, not older than `max_age`, user not
/// disabled). Slides the expiry forward, at most once an hour, so active users
/// stay signed in — but never past `max_age` after sign-in.
pub async fn user_for(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    ttl: Duration,
    max_age: Duration,
) -> sqlx::Result<Option<SessionUser>> {
    // A data-modifying CTE always runs, referenced or not.
    let row = sqlx::query!(
        r#"WITH live AS (
             UPDATE user_sessions s
                SET last_seen_at = now(),
                    expires_at = LEAST(GREATEST(s.expires_at, now() + make_interval(secs => $2)),
                                       s.created_at + make_interval(secs => $3))
              WHERE s.token_hash = $1 AND s.expires_at > now()
                AND s.last_seen_at < now() - interval '1 hour'
              RETURNING s.user_id)
           SELECT u.id, u.email, u.display_name, u.role, u.profiles
             FROM user_sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = $1 AND s.expires_at > now()
              AND s.created_at > now() - make_interval(secs => $3)
              AND u.disabled_at IS NULL"#,
        token_hash,
        ttl.as_secs_f64(),
        max_age.as_secs_f64()
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| SessionUser {
        id: r.id,
        email: r.email,
        display_name: r.display_name,
        role: Role::parse(&r.role).unwrap_or(Role::Team),
        profiles: r.profiles,
    }))
}

pub async fn delete(db: impl PgExecutor<'_>, token_hash: &[u8]) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "DELETE FROM user_sessions WHERE token_hash = $1 RETURNING user_id",
        token_hash
    )
    .fetch_optional(db)
    .await
}

/// Signs a user out everywhere; returns how many sessions ended.
pub async fn delete_all_for_user(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<u64> {
    let done = sqlx::query!("DELETE FROM user_sessions WHERE user_id = $1", user_id)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// Removes expired sessions (called from time to time).
pub async fn delete_expired(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let done = sqlx::query!("DELETE FROM user_sessions WHERE expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
