//! Reading stored playbooks: the list for the console, one by name, the
//! candidates of every decision, and a playbook's history of versions.
use super::{Status, StoredPlaybook, Version};
use crate::playbooks::definition::Definition;
use chrono::{DateTime, Utc};
use sqlx::PgPool;

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    version: i32,
    status: String,
    source: String,
    definition: serde_json::Value,
    updated_at: DateTime<Utc>,
}

const SELECT: &str =
    "SELECT id, name, version, status, source, definition, updated_at FROM playbooks";

/// A row as stored; a status or definition the server cannot read is a
/// decode error, not a silently skipped playbook.
fn stored(row: Row) -> sqlx::Result<StoredPlaybook> {
    let status = Status::parse(&row.status).ok_or_else(|| {
        sqlx::Error::Decode(format!("unknown playbook status `{}`", row.status).into())
    })?;
    let definition: Definition =
        serde_json::from_value(row.definition).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(StoredPlaybook {
        id: row.id,
        name: row.name,
        version: row.version,
        status,
        source: row.source,
        definition,
        updated_at: row.updated_at,
    })
}

fn all_stored(rows: Vec<Row>) -> sqlx::Result<Vec<StoredPlaybook>> {
    rows.into_iter().map(stored).collect()
}

/// Every playbook, by name.
pub async fn list(db: &PgPool) -> sqlx::Result<Vec<StoredPlaybook>> {
    let rows = sqlx::query_as::<_, Row>(&format!("{SELECT} ORDER BY name"))
        .fetch_all(db)
        .await?;
    all_stored(rows)
}

/// The playbook called `name`.
pub async fn get(db: &PgPool, name: &str) -> sqlx::Result<Option<StoredPlaybook>> {
    let row = sqlx::query_as::<_, Row>(&format!("{SELECT} WHERE name = $1"))
        .bind(name)
        .fetch_optional(db)
        .await?;
    row.map(stored).transpose()
}

/// What every decision weighs: active playbooks (they may open) and those
/// in observe (scored and logged only), by name.
pub async fn candidates(db: &PgPool) -> sqlx::Result<Vec<StoredPlaybook>> {
    let rows = sqlx::query_as::<_, Row>(&format!(
        "{SELECT} WHERE status IN ('active', 'observe') ORDER BY name"
    ))
    .fetch_all(db)
    .await?;
    all_stored(rows)
}

/// The versions of `name`, newest first (empty for an unknown name).
pub async fn versions(db: &PgPool, name: &str) -> sqlx::Result<Vec<Version>> {
    sqlx::query_as::<_, Version>(
        "SELECT v.version, v.source, v.created_at, u.display_name AS created_by_name
           FROM playbook_versions v
           JOIN playbooks p ON p.id = v.playbook_id
           LEFT JOIN users u ON u.id = v.created_by
          WHERE p.name = $1
          ORDER BY v.version DESC",
    )
    .bind(name)
    .fetch_all(db)
    .await
}
