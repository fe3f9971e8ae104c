//! `audit_log`: append-only record of who did what.
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

/// A stored entry, with the actor's display name.
pub struct Entry {
    pub at: chrono::DateTime<chrono::Utc>,
    pub actor: Option<String>,
    pub actor_kind: String,
    pub action: String,
    pub object_type: Option<String>,
    pub object_id: Option<i64>,
}

pub async fn latest(db: impl PgExecutor<'_>, limit: i64) -> sqlx::Result<Vec<Entry>> {
    sqlx::query_as!(
        Entry,
        r#"SELECT a.at, u.display_name AS "actor?", a.actor_kind, a.action, a.object_type, a.object_id
             FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
            ORDER BY a.at DESC, a.id DESC LIMIT $1"#,
        limit
    )
    .fetch_all(db)
    .await
}
