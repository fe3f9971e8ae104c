//! Writing and listing memories: validate, embed within a bound (on the
//! query lane), save (with or without a vector), all scoped to one user. A
//! row saved without a vector is saved with its `memory.embed` job, in the
//! same transaction ([`super::embed_job`], ADR 0033).
//!
//! A save is two steps, [`prepare`] (validation and the embedding, which
//! waits on the network) and [`insert`] (on any connection, the caller's
//! transaction included), so an approval can prepare before it takes a
//! pooled connection and write inside its own transaction (ADR 0028).
use super::{
    embed, embed_job, validate, Memory, MemoryError, MemoryOrigin, MemoryStore, NewMemory,
};
use crate::db::ai_memories::{self, MemoryRow};
use crate::db::user_data_embeddings::Table;
use sqlx::PgConnection;

/// Most memories one page of the list returns.
pub const MAX_PAGE: i64 = 200;

/// A memory checked and embedded (or not, when the pipeline failed), not
/// written yet.
#[derive(Clone, Debug)]
pub struct PreparedMemory {
    title: String,
    content: String,
    origin: MemoryOrigin,
    conversation_id: Option<i64>,
    vector: Option<(pgvector::Vector, String)>,
}

pub async fn save(
    store: &MemoryStore,
    user_id: i64,
    new: NewMemory,
) -> Result<Memory, MemoryError> {
    let prepared = prepare(store, user_id, new).await?;
    let mut tx = store.db.begin().await?;
    let memory = insert(&mut tx, user_id, &prepared).await?;
    tx.commit().await?;
    Ok(memory)
}

/// Validates `new` and embeds it within the write bound; holds no connection.
pub async fn prepare(
    store: &MemoryStore,
    user_id: i64,
    new: NewMemory,
) -> Result<PreparedMemory, MemoryError> {
    let (title, content) = validate::memory(&new.title, &new.content)?;
    let text = embed::memory_text(&title, &content);
    let vector = embed::for_write(store.embedder.as_ref(), user_id, "memory", text).await;
    Ok(PreparedMemory {
        title,
        content,
        origin: new.origin,
        conversation_id: new.conversation_id,
        vector,
    })
}

/// Writes a prepared memory for `user_id` on `conn` (a transaction: the
/// caller's, or [`save`]'s), with its embedding job when it has no vector.
pub async fn insert(
    conn: &mut PgConnection,
    user_id: i64,
    p: &PreparedMemory,
) -> Result<Memory, MemoryError> {
    let row = ai_memories::insert(
        &mut *conn,
        user_id,
        &p.title,
        &p.content,
        origin_label(p.origin),
        p.conversation_id,
        p.vector.as_ref().map(|(v, m)| (v, m.as_str())),
    )
    .await?;
    // No row: the conversation is not one of this user's.
    let saved = row.map(memory).ok_or(MemoryError::NotFound)?;
    if !saved.embedded {
        embed_job::enqueue(&mut *conn, Table::Memories, saved.id).await?;
    }
    Ok(saved)
}

pub async fn update(
    store: &MemoryStore,
    user_id: i64,
    id: i64,
    title: &str,
    content: &str,
) -> Result<Memory, MemoryError> {
    let (title, content) = validate::memory(title, content)?;
    let text = embed::memory_text(&title, &content);
    let vector = embed::for_write(store.embedder.as_ref(), user_id, "memory", text).await;
    let mut tx = store.db.begin().await?;
    let row = ai_memories::update(
        &mut *tx,
        user_id,
        id,
        &title,
        &content,
        vector.as_ref().map(|(v, m)| (v, m.as_str())),
    )
    .await?;
    let updated = row.map(memory).ok_or(MemoryError::NotFound)?;
    if !updated.embedded {
        embed_job::enqueue(&mut *tx, Table::Memories, updated.id).await?;
    }
    tx.commit().await?;
    Ok(updated)
}

pub async fn delete(store: &MemoryStore, user_id: i64, id: i64) -> Result<(), MemoryError> {
    if ai_memories::delete(&store.db, user_id, id).await? {
        Ok(())
    } else {
        Err(MemoryError::NotFound)
    }
}

pub async fn list(
    store: &MemoryStore,
    user_id: i64,
    limit: i64,
    offset: i64,
) -> Result<Vec<Memory>, MemoryError> {
    let rows =
        ai_memories::list(&store.db, user_id, limit.clamp(1, MAX_PAGE), offset.max(0)).await?;
    Ok(rows.into_iter().map(memory).collect())
}

pub fn origin_label(origin: MemoryOrigin) -> &'static str {
    match origin {
        MemoryOrigin::Tool => "tool",
        MemoryOrigin::Summary => "summary",
        MemoryOrigin::Manual => "manual",
    }
}

fn origin(label: &str) -> MemoryOrigin {
    match label {
        "summary" => MemoryOrigin::Summary,
        "manual" => MemoryOrigin::Manual,
        // The column's CHECK allows only the three labels.
        _ => MemoryOrigin::Tool,
    }
}

fn memory(row: MemoryRow) -> Memory {
    Memory {
        id: row.id,
        title: row.title,
        content: row.content,
        origin: origin(&row.source),
        conversation_id: row.conversation_id,
        embedded: row.embedded,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}
