//! Rows of `ai_memories` and `tasks` still waiting for a vector, and the
//! guarded write of their vectors: what a backfill needs, in one place so
//! the two tables follow the same rules.
//!
//! The write only fills a row that is still without a vector and unchanged
//! since it was read (`updated_at`): a user who edits a memory while the
//! backfill embeds its old text keeps the NULL (and the next pass embeds
//! the new text); a rerun after an interruption never embeds a row twice.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

/// Which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Memories,
    Tasks,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Memories => "ai_memories",
            Table::Tasks => "tasks",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Table::Memories => "content",
            Table::Tasks => "description",
        }
    }
}

/// A row to embed: its text is `memory::embed::memory_text(title, body)`
/// (or `task_text`), the same text the write path embeds.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Pending {
    pub id: i64,
    pub title: String,
    pub body: String,
    pub updated_at: DateTime<Utc>,
}

/// The next `limit` rows without a vector after `after`, in id order (keyset
/// paging, served by the `*_embedding_missing_idx` partial indexes).
pub async fn pending(
    db: impl PgExecutor<'_>,
    table: Table,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<Pending>> {
    sqlx::query_as(&format!(
        "SELECT id, title, {body} AS body, updated_at FROM {table}
          WHERE embedding IS NULL AND id > $1 ORDER BY id LIMIT $2",
        body = table.body(),
        table = table.name()
    ))
    .bind(after)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// How many rows still wait for a vector (a progress bar's length).
pub async fn pending_count(db: impl PgExecutor<'_>, table: Table) -> sqlx::Result<i64> {
    sqlx::query_scalar(&format!(
        "SELECT count(*) FROM {} WHERE embedding IS NULL",
        table.name()
    ))
    .fetch_one(db)
    .await
}

/// Writes the vectors of `rows` (all `dims` long, in the order of `rows`)
/// in one statement, each only if the row is still without a vector and
/// unchanged since read. Returns the rows written.
pub async fn fill(
    db: impl PgExecutor<'_>,
    table: Table,
    rows: &[Pending],
    vectors: &[Vec<f32>],
    model: &str,
    dims: i32,
) -> sqlx::Result<u64> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let read_at: Vec<DateTime<Utc>> = rows.iter().map(|r| r.updated_at).collect();
    // One flat real[] sliced per row, as `member_embeddings::upsert` does.
    let flat: Vec<f32> = vectors.iter().flat_map(|v| v.iter().copied()).collect();
    let done = sqlx::query(&format!(
        "UPDATE {table} t
            SET embedding = ($3::real[])[(u.ord - 1) * $5::int + 1 : u.ord * $5::int]::vector,
                embedding_model = $4
           FROM unnest($1::bigint[], $2::timestamptz[]) WITH ORDINALITY AS u(id, read_at, ord)
          WHERE t.id = u.id AND t.embedding IS NULL AND t.updated_at = u.read_at",
        table = table.name()
    ))
    .bind(&ids)
    .bind(&read_at)
    .bind(&flat)
    .bind(model)
    .bind(dims)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
