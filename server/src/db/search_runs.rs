//! `search_runs`: one row per venue search (timings, candidates per stage,
//! sources), for the metrics page: p50/p95/p99 come from `percentile_cont`.
use sqlx::PgExecutor;

pub struct NewRun<'a> {
    pub pool_id: Option<i64>,
    pub user_id: Option<i64>,
    pub criteria: serde_json::Value,
    pub semantic_query: &'a str,
    pub sql_candidates: Option<i32>,
    pub vector_candidates: Option<i32>,
    pub result_count: i32,
    pub sql_ms: Option<i32>,
    pub embed_ms: Option<i32>,
    pub total_ms: i32,
    pub similarity_source: &'a str,
    pub ranking_source: &'a str,
    pub embedding_model: Option<&'a str>,
    pub result_member_ids: Vec<i64>,
    pub error: Option<&'a str>,
    /// Stage 3's share when a language model ranked: finalists sent, time
    /// spent in its calls, their cost (0 otherwise).
    pub llm_candidates: Option<i32>,
    pub llm_ms: Option<i32>,
    pub cost_usd: f64,
}

pub async fn insert(db: impl PgExecutor<'_>, r: &NewRun<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO search_runs (pool_id, user_id, criteria, semantic_query, sql_candidates, vector_candidates,
                                  result_count, sql_ms, embed_ms, total_ms, similarity_source,
                                  ranking_source, embedding_model, result_member_ids, error,
                                  llm_candidates, llm_ms, cost_usd)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::float8)
         RETURNING id",
        r.pool_id,
        r.user_id,
        r.criteria,
        r.semantic_query,
        r.sql_candidates,
        r.vector_candidates,
        r.result_count,
        r.sql_ms,
        r.embed_ms,
        r.total_ms,
        r.similarity_source,
        r.ranking_source,
        r.embedding_model,
        &r.result_member_ids,
        r.error,
        r.llm_candidates,
        r.llm_ms,
        r.cost_usd.max(0.0)
    )
    .fetch_one(db)
    .await
}
