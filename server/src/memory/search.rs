//! `user_data_semantic_search` (seed 003 part 7): vector → full text →
//! recency over one user's memories and tasks, with the step that answered.
//!
//! - **vector**: the query embedded as a query, exact cosine over the rows
//!   of the configured model and dimension, hits at or above the floor;
//!   when that answer is weak, full-text hits are fused in ([`super::fused`]).
//! - **fts**: when the vector path finds nothing (no query vector, or no row
//!   above the floor): unaccented French, any query word suffices.
//! - **recency**: when both find nothing, the latest memories (topped up with
//!   tasks), so a user with rows never gets an empty answer.
//!
//! An embedding outage is never an error: the chain starts at full text.
//! Every search is logged (user, source, best similarity, hit count; never
//! the query at `info`) and, unless it runs for a page rendered on a GET
//! (`record` false: GET never writes), recorded in `memory_searches`.
use super::validate::{self, MAX_HITS};
use super::{
    embed, fused, Confidence, Hit, HitKind, MemoryError, MemoryStore, SearchAnswer, SearchSource,
    SourceSplit,
};
use crate::db::memory_vectors::{self, HitRow};
use crate::db::{ai_memories, memory_searches, tasks};

/// Rows the recency step returns (the seed's "five latest").
pub const RECENCY_ROWS: usize = 5;

pub async fn search(
    store: &MemoryStore,
    user_id: i64,
    query: &str,
    limit: usize,
    record: bool,
) -> Result<SearchAnswer, MemoryError> {
    let query = validate::query(query)?;
    let limit = limit.clamp(1, MAX_HITS);
    let answer = chain(store, user_id, &query, limit).await?;
    let source = label(answer.source);
    tracing::info!(
        user_id,
        source,
        best_similarity = answer.best_similarity,
        hits = answer.hits.len(),
        floor = store.floor,
        record,
        "memory search"
    );
    if !record {
        return Ok(answer);
    }
    let hits = i32::try_from(answer.hits.len()).unwrap_or(i32::MAX);
    // The log row is for monitoring: losing it must not lose the answer.
    if let Err(e) =
        memory_searches::record(&store.db, user_id, source, answer.best_similarity, hits).await
    {
        tracing::warn!(user_id, "memory search not recorded: {e}");
    }
    Ok(answer)
}

async fn chain(
    store: &MemoryStore,
    user_id: i64,
    query: &str,
    limit: usize,
) -> Result<SearchAnswer, MemoryError> {
    let db = &store.db;
    let rows = limit as i64;
    let mut best_similarity = None;
    if let Some(vector) = embed::for_query(store.embedder.as_ref(), user_id, query).await {
        let nearest = memory_vectors::nearest(
            db,
            user_id,
            &vector,
            store.embedder.dimensions(),
            store.embedder.model(),
            rows,
        )
        .await?;
        best_similarity = nearest.first().map(|r| r.score);
        let above: Vec<Hit> = nearest
            .into_iter()
            .filter(|r| r.score >= store.floor)
            .map(|r| hit(r, SearchSource::Vector))
            .collect();
        if let Some(best) = above.first().map(|h| h.score) {
            let hits = if fused::is_weak(above.len(), best, store.floor, limit) {
                fused::fuse(above, fts(store, user_id, query, limit).await?, limit)
            } else {
                above
            };
            return Ok(SearchAnswer {
                source: SearchSource::Vector,
                hits,
                best_similarity,
            });
        }
    }
    let hits = fts(store, user_id, query, limit).await?;
    if !hits.is_empty() {
        return Ok(SearchAnswer {
            source: SearchSource::Fts,
            hits,
            best_similarity,
        });
    }
    let recent = limit.min(RECENCY_ROWS) as i64;
    let mut rows = ai_memories::latest(db, user_id, recent).await?;
    if (rows.len() as i64) < recent {
        rows.extend(tasks::latest(db, user_id, recent - rows.len() as i64).await?);
    }
    Ok(SearchAnswer {
        source: SearchSource::Recency,
        hits: rows
            .into_iter()
            .map(|r| hit(r, SearchSource::Recency))
            .collect(),
        best_similarity,
    })
}

/// Full-text hits of both tables, best rank first.
async fn fts(
    store: &MemoryStore,
    user_id: i64,
    query: &str,
    limit: usize,
) -> Result<Vec<Hit>, MemoryError> {
    let mut rows = ai_memories::fts(&store.db, user_id, query, limit as i64).await?;
    rows.extend(tasks::fts(&store.db, user_id, query, limit as i64).await?);
    rows.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.created_at.cmp(&a.created_at))
    });
    rows.truncate(limit);
    Ok(rows
        .into_iter()
        .map(|r| hit(r, SearchSource::Fts))
        .collect())
}

pub async fn source_split(
    store: &MemoryStore,
    user_id: i64,
    days: i32,
) -> Result<SourceSplit, MemoryError> {
    let mut split = SourceSplit::default();
    for (source, n) in memory_searches::split(&store.db, user_id, days.clamp(1, 366)).await? {
        match source.as_str() {
            "vector" => split.vector = n,
            "fts" => split.fts = n,
            _ => split.recency = n,
        }
    }
    Ok(split)
}

pub fn label(source: SearchSource) -> &'static str {
    match source {
        SearchSource::Vector => "vector",
        SearchSource::Fts => "fts",
        SearchSource::Recency => "recency",
    }
}

fn hit(row: HitRow, matched_by: SearchSource) -> Hit {
    Hit {
        kind: if row.kind == "task" {
            HitKind::Task
        } else {
            HitKind::Memory
        },
        id: row.id,
        title: row.title,
        content: row.content,
        score: row.score,
        matched_by,
        // Provisional until the tuned rule lands: vector and fts hits are
        // « peut-être », recency hits are shown as the latest.
        confidence: if matched_by == SearchSource::Recency {
            Confidence::Recent
        } else {
            Confidence::Maybe
        },
        due_at: row.due_at,
        created_at: row.created_at,
    }
}
