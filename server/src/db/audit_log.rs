//! `audit_log`: append-only record of who did what. The one exception to
//! append-only: a summary row (`summary_of` set) has its count raised while
//! its minute lasts (see `audit::throttle`).
use serde_json::Value;
use sqlx::PgExecutor;

/// One entry to append.
pub struct NewEntry<'a> {
    pub actor_id: Option<i64>,
    pub actor_kind: &'a str,
    pub action: &'a str,
    pub object_type: Option<&'a str>,
    pub object_id: Option<i64>,
    pub ip: Option<std::net::IpAddr>,
    pub details: Value,
}

pub async fn insert(db: impl PgExecutor<'_>, e: &NewEntry<'_>) -> sqlx::Result<()> {
    let ip = e.ip.map(|ip| ip.to_string());
    sqlx::query!(
        "INSERT INTO audit_log (actor_id, actor_kind, action, object_type, object_id, ip, details)
         VALUES ($1, $2, $3, $4, $5, $6::text::inet, $7)",
        e.actor_id,
        e.actor_kind,
        e.action,
        e.object_type,
        e.object_id,
        ip,
        e.details
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Adds `rows` to the summary row of `action` for the current minute,
/// writing it at the first call: one row however many processes add to it.
pub async fn add_to_summary(
    db: impl PgExecutor<'_>,
    actor_kind: &str,
    action: &str,
    rows: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        r#"INSERT INTO audit_log (actor_kind, action, summary_of, details)
           VALUES ($1, $2, date_trunc('minute', now()), jsonb_build_object('summarised', $3::bigint))
           ON CONFLICT (action, summary_of) WHERE summary_of IS NOT NULL
           DO UPDATE SET details = jsonb_set(audit_log.details, '{summarised}',
               to_jsonb(coalesce((audit_log.details->>'summarised')::bigint, 0) + $3::bigint))"#,
        actor_kind,
        action,
        rows
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A stored entry, with the actor's display name.
pub struct Entry {
    pub at: chrono::DateTime<chrono::Utc>,
    pub actor: Option<String>,
    pub actor_kind: String,
    pub action: String,
    pub object_type: Option<String>,
    pub object_id: Option<i64>,
    /// For a summary row: how many rows it stands for.
    pub summarised: Option<i64>,
}

/// The latest `limit` entries whose actor is of one of `actor_kinds`.
pub async fn latest(
    db: impl PgExecutor<'_>,
    actor_kinds: &[&str],
    limit: i64,
) -> sqlx::Result<Vec<Entry>> {
    let kinds: Vec<String> = actor_kinds.iter().map(|k| k.to_string()).collect();
    sqlx::query_as!(
        Entry,
        r#"SELECT a.at, u.display_name AS "actor?", a.actor_kind, a.action, a.object_type, a.object_id,
                  CASE WHEN a.summary_of IS NOT NULL THEN (a.details->>'summarised')::bigint END AS summarised
             FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
            WHERE a.actor_kind = ANY($1)
            ORDER BY a.at DESC, a.id DESC LIMIT $2"#,
        &kinds,
        limit
    )
    .fetch_all(db)
    .await
}
