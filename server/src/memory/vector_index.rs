//! The per-user vector index of memories and tasks (ADR 0017).
//!
//! A user's search reads only that user's rows, exactly: a covering B-tree
//! `(user_id) INCLUDE (id, embedding_model, embedding)`, partial on the
//! configured dimension, serves it as an index-only scan. The user's
//! vectors sit together in the index instead of one heap page per row (rows
//! are written over months, interleaved with everyone else's), so 10,000
//! memories are ~2,500 pages read instead of ~10,000, and the answer is
//! exact (recall 1.0), which an HNSW scan filtered on one user is not.
//!
//! A B-tree entry holds at most 2,704 bytes: past [`MAX_COVERED_DIMS`] the
//! vector does not fit, the index is not created (an insert would fail), and
//! the search scans the user's rows through `user_id` instead (exact, slower).
//!
//! Built at start-up for the memory pipeline's dimension, `CONCURRENTLY`
//! (writes go on) under an advisory lock (two servers starting together
//! build it once); an invalid index left by an interrupted build is rebuilt.
//! The lock is a session's: [`ensure`] wants a pool that reaches PostgreSQL
//! itself (`db::direct_pool`), not a transaction pooler (ADR 0040).
use sqlx::PgPool;

/// The largest dimension whose vector fits a B-tree entry with its key,
/// id and model name (4 bytes per dimension, 2,704 bytes per entry).
pub const MAX_COVERED_DIMS: u32 = 640;

/// Tables searched by the memory search, with the columns their search
/// reads besides `user_id` (all covered, so no heap page is read).
const TABLES: [(&str, &str); 2] = [
    ("ai_memories", "id, embedding_model, embedding"),
    ("tasks", "id, status, embedding_model, embedding"),
];

/// Arbitrary key of the advisory lock taken while building.
const LOCK_KEY: i64 = 0x6d65_6d6f_7279; // "memory"

/// The index name for `table` at `dims`.
pub fn name(table: &str, dims: u32) -> String {
    format!("{table}_user_vectors_{dims}")
}

/// Creates the covering indexes for `dims` when missing or invalid.
/// Returns the indexes built now (empty when all were there).
pub async fn ensure(db: &PgPool, dims: u32) -> sqlx::Result<Vec<String>> {
    if dims == 0 || dims > MAX_COVERED_DIMS {
        tracing::info!(
            dims,
            "memory vectors of {dims} dimensions do not fit a covering index: \
             searches scan each user's rows"
        );
        return Ok(Vec::new());
    }
    // CREATE INDEX CONCURRENTLY cannot run in a transaction: one plain
    // connection holds the session lock and runs the builds.
    let mut conn = db.acquire().await?;
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(LOCK_KEY)
        .execute(&mut *conn)
        .await?;
    let built = build_missing(&mut conn, dims).await;
    let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(LOCK_KEY)
        .execute(&mut *conn)
        .await;
    let built = built?;
    unlocked?;
    Ok(built)
}

async fn build_missing(conn: &mut sqlx::PgConnection, dims: u32) -> sqlx::Result<Vec<String>> {
    let mut built = Vec::new();
    for (table, covered) in TABLES {
        let index = name(table, dims);
        let valid: Option<bool> = sqlx::query_scalar(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname = $1",
        )
        .bind(&index)
        .fetch_optional(&mut *conn)
        .await?;
        match valid {
            Some(true) => continue,
            Some(false) => {
                tracing::warn!(index, "rebuilding an invalid memory vector index");
                sqlx::query(&format!("DROP INDEX CONCURRENTLY IF EXISTS {index}"))
                    .execute(&mut *conn)
                    .await?;
            }
            None => {}
        }
        // `table`, `covered`, `index` and `dims` come from this module, never from input.
        sqlx::query(&format!(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS {index} ON {table}
               (user_id) INCLUDE ({covered})
             WHERE embedding IS NOT NULL AND vector_dims(embedding) = {dims}"
        ))
        .execute(&mut *conn)
        .await?;
        tracing::info!(index, "memory vector index built");
        built.push(index);
    }
    Ok(built)
}
