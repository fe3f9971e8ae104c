//! Reminders: creation (embedded within a bound, on the query lane),
//! completion (a recurring task spawns its next occurrence, copying the
//! parent's vector), snooze and the due list, all scoped to one user. A
//! reminder written without a vector (a creation past the bound, or an
//! occurrence of a parent that has none yet) is written with its
//! `memory.embed` job, in the same transaction ([`super::embed_job`]).
//!
//! Creation is two steps, [`prepare`] (checks and the embedding, which waits
//! on the network) and [`insert`] (on any connection, the caller's
//! transaction included), as for memories (`super::write`).
use super::recurrence::Rule;
use super::{embed, embed_job, validate, MemoryError, MemoryStore, NewTask, Task, TaskStatus};
use crate::db::tasks::{self, NewTaskRow, TaskRow};
use crate::db::user_data_embeddings::Table;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// PostgreSQL's foreign-key violation (an unknown `request_id`).
const FOREIGN_KEY_VIOLATION: &str = "23503";

/// A reminder checked and embedded (or not), not written yet.
#[derive(Clone, Debug)]
pub struct PreparedTask {
    title: String,
    description: String,
    due_at: Option<DateTime<Utc>>,
    /// The canonical rule.
    recurrence: Option<String>,
    request_id: Option<i64>,
    vector: Option<(pgvector::Vector, String)>,
}

pub async fn create(store: &MemoryStore, user_id: i64, new: NewTask) -> Result<Task, MemoryError> {
    let prepared = prepare(store, user_id, new).await?;
    let mut tx = store.db.begin().await?;
    let task = insert(&mut tx, user_id, &prepared).await?;
    tx.commit().await?;
    Ok(task)
}

/// Checks `new` and embeds it within the write bound; holds no connection.
pub async fn prepare(
    store: &MemoryStore,
    user_id: i64,
    new: NewTask,
) -> Result<PreparedTask, MemoryError> {
    let (title, description) = validate::task(&new.title, &new.description)?;
    let recurrence = match new.recurrence.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let rule = Rule::parse(text)?;
            if new.due_at.is_none() {
                return Err(MemoryError::InvalidRecurrence(
                    "un rappel récurrent demande une échéance".into(),
                ));
            }
            Some(rule.canonical())
        }
    };
    let text = embed::task_text(&title, &description);
    let vector = embed::for_write(store.embedder.as_ref(), user_id, "task", text).await;
    Ok(PreparedTask {
        title,
        description,
        due_at: new.due_at,
        recurrence,
        request_id: new.request_id,
        vector,
    })
}

/// Writes a prepared reminder for `user_id` on `conn` (a transaction: the
/// caller's, or [`create`]'s), with its embedding job when it has no
/// vector. An unknown request is [`MemoryError::NotFound`].
pub async fn insert(
    conn: &mut PgConnection,
    user_id: i64,
    p: &PreparedTask,
) -> Result<Task, MemoryError> {
    let row = NewTaskRow {
        title: &p.title,
        description: &p.description,
        due_at: p.due_at,
        recurrence: p.recurrence.as_deref(),
        request_id: p.request_id,
    };
    let inserted = tasks::insert(
        &mut *conn,
        user_id,
        &row,
        p.vector.as_ref().map(|(v, m)| (v, m.as_str())),
    )
    .await;
    match inserted {
        Ok(row) => {
            let saved = task(row);
            if !saved.embedded {
                embed_job::enqueue(&mut *conn, Table::Tasks, saved.id).await?;
            }
            Ok(saved)
        }
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some(FOREIGN_KEY_VIOLATION) => {
            Err(MemoryError::NotFound)
        }
        Err(e) => Err(e.into()),
    }
}

/// See [`MemoryStore::complete_task`]. Completing a done task again changes
/// nothing and returns the occurrence it spawned (if any); a cancelled task
/// is not open.
pub async fn complete(
    store: &MemoryStore,
    user_id: i64,
    id: i64,
) -> Result<Option<Task>, MemoryError> {
    let mut tx = store.db.begin().await?;
    let current = tasks::lock(&mut *tx, user_id, id)
        .await?
        .ok_or(MemoryError::NotFound)?;
    let done = match current.status.as_str() {
        "open" => tasks::mark_done(&mut *tx, id).await?,
        "done" => current,
        _ => return Err(MemoryError::NotOpen),
    };
    let next_due = match (done.recurrence.as_deref(), done.due_at) {
        // Rules are checked when written; one stored by other means that
        // this parser refuses completes the task without a next occurrence.
        (Some(text), Some(due)) => match Rule::parse(text) {
            Ok(rule) => rule.next(due, Utc::now()),
            Err(e) => {
                tracing::warn!(user_id, task_id = id, "recurring task not respawned: {e}");
                None
            }
        },
        _ => None,
    };
    let spawned = match next_due {
        Some(due) => {
            // The occurrence copies the parent's vector; a parent without
            // one (its own job still pending) leaves it a job of its own.
            let next = task(tasks::spawn_next(&mut *tx, id, due).await?);
            if !next.embedded {
                embed_job::enqueue(&mut *tx, Table::Tasks, next.id).await?;
            }
            Some(next)
        }
        None => None,
    };
    tx.commit().await?;
    Ok(spawned)
}

pub async fn snooze(
    store: &MemoryStore,
    user_id: i64,
    id: i64,
    until: DateTime<Utc>,
) -> Result<Task, MemoryError> {
    if until <= Utc::now() {
        return Err(MemoryError::InvalidDate(
            "le report doit tomber dans le futur",
        ));
    }
    let mut tx = store.db.begin().await?;
    let current = tasks::lock(&mut *tx, user_id, id)
        .await?
        .ok_or(MemoryError::NotFound)?;
    if current.status != "open" {
        return Err(MemoryError::NotOpen);
    }
    let row = tasks::set_due(&mut *tx, id, until).await?;
    tx.commit().await?;
    Ok(task(row))
}

pub async fn due(
    store: &MemoryStore,
    user_id: i64,
    until: DateTime<Utc>,
) -> Result<Vec<Task>, MemoryError> {
    let rows = tasks::due_before(&store.db, user_id, until).await?;
    Ok(rows.into_iter().map(task).collect())
}

fn task(row: TaskRow) -> Task {
    Task {
        id: row.id,
        title: row.title,
        description: row.description,
        due_at: row.due_at,
        status: match row.status.as_str() {
            "done" => TaskStatus::Done,
            "cancelled" => TaskStatus::Cancelled,
            _ => TaskStatus::Open,
        },
        recurrence: row.recurrence,
        parent_task_id: row.parent_task_id,
        request_id: row.request_id,
        embedded: row.embedded,
        created_at: row.created_at,
    }
}

/// The memory page's list: the user's open tasks by due date (overdue
/// first, undated last), at most `limit`, and how many are open in all.
pub async fn open(
    store: &MemoryStore,
    user_id: i64,
    limit: i64,
) -> Result<(Vec<Task>, i64), MemoryError> {
    let (rows, total) = tasks::open_by_due(&store.db, user_id, limit).await?;
    Ok((rows.into_iter().map(task).collect(), total))
}

/// The user's task `id` if it is open: [`MemoryError::NotFound`] otherwise
/// (done, cancelled, unknown or another's).
pub async fn open_one(store: &MemoryStore, user_id: i64, id: i64) -> Result<Task, MemoryError> {
    tasks::find_open(&store.db, user_id, id)
        .await?
        .map(task)
        .ok_or(MemoryError::NotFound)
}
