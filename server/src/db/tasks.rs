//! `tasks`: a team member's reminders, one-off or recurring, each scoped to
//! its user (every query filters on `user_id`: another user's id reads as
//! absent). A recurring task's next occurrence is spawned here, copying the
//! parent's vector in SQL.
use super::memory_vectors::HitRow;
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TaskRow {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub due_at: Option<DateTime<Utc>>,
    /// `open`, `done` or `cancelled`.
    pub status: String,
    pub recurrence: Option<String>,
    pub parent_task_id: Option<i64>,
    pub request_id: Option<i64>,
    pub embedded: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, title, description, due_at, status, recurrence, parent_task_id,
                       request_id, embedding IS NOT NULL AS embedded, created_at";

/// What a new task holds besides its owner and vector.
pub struct NewTaskRow<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub due_at: Option<DateTime<Utc>>,
    pub recurrence: Option<&'a str>,
    pub request_id: Option<i64>,
}

/// Inserts a task; an unknown `request_id` fails on the foreign key.
pub async fn insert(
    db: impl PgExecutor<'_>,
    user_id: i64,
    new: &NewTaskRow<'_>,
    embedding: super::ai_memories::Embedding<'_>,
) -> sqlx::Result<TaskRow> {
    sqlx::query_as(&format!(
        "INSERT INTO tasks (user_id, title, description, due_at, recurrence, request_id,
                            embedding, embedding_model)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING {COLUMNS}"
    ))
    .bind(user_id)
    .bind(new.title)
    .bind(new.description)
    .bind(new.due_at)
    .bind(new.recurrence)
    .bind(new.request_id)
    .bind(embedding.map(|(v, _)| v))
    .bind(embedding.map(|(_, m)| m))
    .fetch_one(db)
    .await
}

/// The user's task, locked until the transaction ends (completion and
/// snooze read then write it).
pub async fn lock(db: impl PgExecutor<'_>, user_id: i64, id: i64) -> sqlx::Result<Option<TaskRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM tasks WHERE user_id = $1 AND id = $2 FOR UPDATE"
    ))
    .bind(user_id)
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn mark_done(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<TaskRow> {
    sqlx::query_as(&format!(
        "UPDATE tasks SET status = 'done', completed_at = now() WHERE id = $1 RETURNING {COLUMNS}"
    ))
    .bind(id)
    .fetch_one(db)
    .await
}

/// Spawns the next occurrence of `parent_id`, due at `due_at`, with the
/// parent's text, rule, request, vector and model (the same text has the
/// same vector: no embedding call). At most one child per parent
/// (`tasks_parent_once_idx`): a second call returns the existing child.
pub async fn spawn_next(
    db: impl PgExecutor<'_>,
    parent_id: i64,
    due_at: DateTime<Utc>,
) -> sqlx::Result<TaskRow> {
    sqlx::query_as(&format!(
        "WITH spawned AS (
             INSERT INTO tasks (user_id, title, description, due_at, recurrence, parent_task_id,
                                request_id, embedding, embedding_model)
             SELECT user_id, title, description, $2, recurrence, id, request_id,
                    embedding, embedding_model
               FROM tasks WHERE id = $1
             ON CONFLICT (parent_task_id) WHERE parent_task_id IS NOT NULL DO NOTHING
             RETURNING {COLUMNS})
         SELECT * FROM spawned
         UNION ALL
         SELECT {COLUMNS} FROM tasks WHERE parent_task_id = $1
         LIMIT 1"
    ))
    .bind(parent_id)
    .bind(due_at)
    .fetch_one(db)
    .await
}

pub async fn set_due(
    db: impl PgExecutor<'_>,
    id: i64,
    due_at: DateTime<Utc>,
) -> sqlx::Result<TaskRow> {
    sqlx::query_as(&format!(
        "UPDATE tasks SET due_at = $2 WHERE id = $1 RETURNING {COLUMNS}"
    ))
    .bind(id)
    .bind(due_at)
    .fetch_one(db)
    .await
}

/// Open tasks due before `until` (overdue included), soonest first
/// (served by `tasks_user_status_due_idx`).
pub async fn due_before(
    db: impl PgExecutor<'_>,
    user_id: i64,
    until: DateTime<Utc>,
) -> sqlx::Result<Vec<TaskRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM tasks
          WHERE user_id = $1 AND status = 'open' AND due_at <= $2
          ORDER BY due_at, id"
    ))
    .bind(user_id)
    .bind(until)
    .fetch_all(db)
    .await
}

/// Full-text hits over open and done tasks, best rank first (see
/// `ai_memories::fts`; per-user GIN `tasks_user_search_tsv_idx`, 0026).
pub async fn fts(
    db: impl PgExecutor<'_>,
    user_id: i64,
    query: &str,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    sqlx::query_as(
        "SELECT 'task'::text AS kind, t.id, t.title, t.description AS content, t.due_at,
                t.created_at, ts_rank(t.search_tsv, q)::float8 AS score
           FROM tasks t, maxy_fts_any($2) q
          WHERE t.user_id = $1 AND t.status <> 'cancelled' AND t.search_tsv @@ q
          ORDER BY score DESC, t.created_at DESC, t.id DESC
          LIMIT $3",
    )
    .bind(user_id)
    .bind(query)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The user's latest open or done tasks (tops up the recency step).
pub async fn latest(
    db: impl PgExecutor<'_>,
    user_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    sqlx::query_as(
        "SELECT 'task'::text AS kind, id, title, description AS content, due_at,
                created_at, 0::float8 AS score
           FROM tasks WHERE user_id = $1 AND status <> 'cancelled'
          ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The user's open tasks by due date (the earliest first, undated ones
/// last), at most `limit`, and how many are open in all.
pub async fn open_by_due(
    db: &sqlx::PgPool,
    user_id: i64,
    limit: i64,
) -> sqlx::Result<(Vec<TaskRow>, i64)> {
    let rows = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM tasks
          WHERE user_id = $1 AND status = 'open'
          ORDER BY due_at NULLS LAST, id
          LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    let open: i64 =
        sqlx::query_scalar("SELECT count(*) FROM tasks WHERE user_id = $1 AND status = 'open'")
            .bind(user_id)
            .fetch_one(db)
            .await?;
    Ok((rows, open))
}

/// The user's task `id` if it is open (`None` otherwise, or another's).
pub async fn find_open(
    db: impl PgExecutor<'_>,
    user_id: i64,
    id: i64,
) -> sqlx::Result<Option<TaskRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM tasks WHERE user_id = $1 AND id = $2 AND status = 'open'"
    ))
    .bind(user_id)
    .bind(id)
    .fetch_optional(db)
    .await
}
