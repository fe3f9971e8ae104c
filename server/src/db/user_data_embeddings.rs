//! The embedding columns of the user-data tables (`ai_memories`, `tasks`)
//! and of `training_sessions`, as the backfill, the `memory.embed` job and
//! the start-up sweep see them: which rows still need a vector of the
//! configured model and dimension, claiming a batch of them (after a cursor
//! for the backfill, by id for the job), and storing a vector only where it
//! is still needed.
//!
//! The three tables share the same pair of columns (`embedding vector`,
//! `embedding_model text`, ADR 0003), so one set of queries serves them; the
//! table name comes from [`Table`], never from input.
//!
//! Runtime-checked (`query`, not `query!`): the table name is a parameter
//! of the SQL text.
use sqlx::{PgConnection, PgExecutor};

/// A table whose rows carry an embedding the backfill maintains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Memories,
    Tasks,
    TrainingSessions,
}

impl Table {
    pub const ALL: [Table; 3] = [Table::Memories, Table::Tasks, Table::TrainingSessions];

    pub fn name(self) -> &'static str {
        match self {
            Table::Memories => "ai_memories",
            Table::Tasks => "tasks",
            Table::TrainingSessions => "training_sessions",
        }
    }

    /// The table called `name` (as [`Table::name`] writes it).
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The rows without a vector of `$1` (model) and `$2` (dimension): never
/// embedded (an outage, a mismatch), or embedded by another model or size.
const NEEDS: &str = "(embedding IS NULL OR embedding_model IS DISTINCT FROM $1
                      OR vector_dims(embedding) <> $2)";

/// How many rows of `table` still need a vector.
pub async fn count_pending(
    db: impl PgExecutor<'_>,
    table: Table,
    model: &str,
    dims: i32,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(&format!(
        "SELECT count(*) FROM {} WHERE {NEEDS}",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .fetch_one(db)
    .await
}

/// Up to `limit` ids of `table`'s rows that still need a vector, in id
/// order, without locking them: what the start-up sweep queues as jobs
/// (`training::embed::enqueue_missing`), by the backfill's own predicate.
pub async fn pending_ids(
    db: impl PgExecutor<'_>,
    table: Table,
    model: &str,
    dims: i32,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(&format!(
        "SELECT id FROM {} WHERE {NEEDS} ORDER BY id LIMIT $3",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Locks, in `tx`, up to `limit` rows after `after` (id order) that still
/// need a vector. Rows another transaction holds (a second backfill, a
/// write in progress) are skipped, not waited for: whoever holds them
/// embeds them, so no row is embedded twice.
pub async fn claim(
    tx: &mut PgConnection,
    table: Table,
    model: &str,
    dims: i32,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(&format!(
        "SELECT id FROM {} WHERE {NEEDS} AND id > $3
          ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .bind(after)
    .bind(limit)
    .fetch_all(tx)
    .await
}

/// Locks, in `tx`, the rows among `ids` that still need a vector, in id
/// order: what one `memory.embed` batch embeds. Rows another transaction
/// holds are skipped, as in [`claim`] (see [`still_pending`]).
pub async fn claim_ids(
    tx: &mut PgConnection,
    table: Table,
    model: &str,
    dims: i32,
    ids: &[i64],
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(&format!(
        "SELECT id FROM {} WHERE {NEEDS} AND id = ANY($3)
          ORDER BY id FOR UPDATE SKIP LOCKED",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .bind(ids)
    .fetch_all(tx)
    .await
}

/// The rows among `ids` that still need a vector, without locking (nor
/// waiting for) them: after [`claim_ids`], the ones it skipped because
/// another transaction holds them (a backfill batch, a write in progress).
pub async fn still_pending(
    db: impl PgExecutor<'_>,
    table: Table,
    model: &str,
    dims: i32,
    ids: &[i64],
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(&format!(
        "SELECT id FROM {} WHERE {NEEDS} AND id = ANY($3) ORDER BY id",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .bind(ids)
    .fetch_all(db)
    .await
}

/// The (id, title, body) of memories or tasks among `ids`, in id order; the
/// body is the memory's content or the task's description.
pub async fn titled_texts(
    db: impl PgExecutor<'_>,
    table: Table,
    ids: &[i64],
) -> sqlx::Result<Vec<(i64, String, String)>> {
    let body = match table {
        Table::Memories => "content",
        Table::Tasks => "description",
        // Sessions have no title: their text is built by `training::embed`.
        Table::TrainingSessions => return Ok(Vec::new()),
    };
    sqlx::query_as(&format!(
        "SELECT id, title, {body} FROM {} WHERE id = ANY($1) ORDER BY id",
        table.name()
    ))
    .bind(ids)
    .fetch_all(db)
    .await
}

/// Stores one vector, only if the row still needs one (a row rewritten
/// with its own fresh vector meanwhile is left as it is). True when written.
pub async fn store(
    db: impl PgExecutor<'_>,
    table: Table,
    id: i64,
    vector: &pgvector::Vector,
    model: &str,
    dims: i32,
) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!(
        "UPDATE {} SET embedding = $3, embedding_model = $1 WHERE id = $4 AND {NEEDS}",
        table.name()
    ))
    .bind(model)
    .bind(dims)
    .bind(vector)
    .bind(id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
