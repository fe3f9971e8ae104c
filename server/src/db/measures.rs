//! The daily sums behind the console's « Mesures » (Paris calendar days,
//! `created_at >= since`). Each query groups one table by day (and by one
//! key where the chart splits by it); every `created_at` it filters on is
//! indexed.
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgPool;

/// A day's number for one key (a task, a status, a source…).
#[derive(Debug, sqlx::FromRow)]
pub struct Keyed {
    pub day: NaiveDate,
    pub key: String,
    pub value: f64,
}

/// One day of model calls for one task.
#[derive(Debug, sqlx::FromRow)]
pub struct CallsDay {
    pub day: NaiveDate,
    pub task: String,
    pub cost_usd: f64,
    pub plain: i64,
    pub cache_read: i64,
    pub cache_write: i64,
    pub output: i64,
}

pub async fn calls(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<CallsDay>> {
    sqlx::query_as(
        "SELECT (created_at AT TIME ZONE 'Europe/Paris')::date AS day, task,
                sum(cost_usd)::float8 AS cost_usd,
                sum(input_tokens)::int8 AS plain,
                sum(cache_read_tokens)::int8 AS cache_read,
                sum(cache_write_tokens)::int8 AS cache_write,
                sum(output_tokens)::int8 AS output
           FROM llm_calls WHERE created_at >= $1
          GROUP BY 1, 2",
    )
    .bind(since)
    .fetch_all(db)
    .await
}

/// One day of venue searches: percentiles of the total and per stage
/// (stages a search skipped are NULL and left out), median candidates out
/// of each stage, and who ranked.
#[derive(Debug, Default, sqlx::FromRow)]
pub struct SearchDay {
    pub day: Option<NaiveDate>,
    pub searches: i64,
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
    pub sql_p95: Option<f64>,
    pub embed_p95: Option<f64>,
    pub vector_p95: Option<f64>,
    pub llm_p95: Option<f64>,
    pub sql_candidates: Option<f64>,
    pub vector_candidates: Option<f64>,
    pub llm_candidates: Option<f64>,
    pub ranked_llm: i64,
    pub ranked_deterministic: i64,
    pub ranked_direct: i64,
}

const SEARCH_COLUMNS: &str = "count(*) AS searches,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY total_ms) AS p50,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS p95,
    percentile_cont(0.99) WITHIN GROUP (ORDER BY total_ms) AS p99,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY sql_ms) AS sql_p95,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY embed_ms) AS embed_p95,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY vector_ms) AS vector_p95,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY llm_ms) AS llm_p95,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY sql_candidates) AS sql_candidates,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY vector_candidates) AS vector_candidates,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY llm_candidates) AS llm_candidates,
    count(*) FILTER (WHERE ranking_source = 'llm') AS ranked_llm,
    count(*) FILTER (WHERE ranking_source = 'deterministic') AS ranked_deterministic,
    count(*) FILTER (WHERE ranking_source = 'direct') AS ranked_direct";

pub async fn searches(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<SearchDay>> {
    sqlx::query_as(&format!(
        "SELECT (created_at AT TIME ZONE 'Europe/Paris')::date AS day, {SEARCH_COLUMNS}
           FROM search_runs WHERE created_at >= $1 GROUP BY 1"
    ))
    .bind(since)
    .fetch_all(db)
    .await
}

/// The same over the whole period (`day` is `None`).
pub async fn searches_overall(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<SearchDay> {
    sqlx::query_as(&format!(
        "SELECT NULL::date AS day, {SEARCH_COLUMNS}
           FROM search_runs WHERE created_at >= $1"
    ))
    .bind(since)
    .fetch_one(db)
    .await
}

/// What became of the search's picks in the catalogues sent each day
/// (training catalogues are never sent).
pub async fn acceptance(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<Keyed>> {
    sqlx::query_as(
        "SELECT (c.sent_at AT TIME ZONE 'Europe/Paris')::date AS day, k.key, sum(k.value)::float8 AS value
           FROM catalogues c
          CROSS JOIN LATERAL (VALUES ('kept', c.search_kept), ('moved', c.search_moved),
                                     ('replaced', c.search_replaced)) AS k(key, value)
          WHERE c.sent_at >= $1 AND c.search_picks IS NOT NULL
          GROUP BY 1, 2",
    )
    .bind(since)
    .fetch_all(db)
    .await
}

/// Rows of `table` counted by day and by `column` (a fixed list: the
/// names are never the caller's text).
async fn counted(db: &PgPool, since: DateTime<Utc>, table: Counted) -> sqlx::Result<Vec<Keyed>> {
    let (table, column) = match table {
        Counted::MemorySources => ("memory_searches", "source"),
        Counted::Approvals => ("ai_pending_approvals", "status"),
        Counted::PlaybookBands => ("guidance_decisions", "band"),
    };
    sqlx::query_as(&format!(
        "SELECT (created_at AT TIME ZONE 'Europe/Paris')::date AS day, {column} AS key,
                count(*)::float8 AS value
           FROM {table} WHERE created_at >= $1 GROUP BY 1, 2"
    ))
    .bind(since)
    .fetch_all(db)
    .await
}

#[derive(Clone, Copy)]
enum Counted {
    MemorySources,
    Approvals,
    PlaybookBands,
}

pub async fn memory_sources(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<Keyed>> {
    counted(db, since, Counted::MemorySources).await
}

/// Write proposals by the day they were made and their status now.
pub async fn approvals(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<Keyed>> {
    counted(db, since, Counted::Approvals).await
}

pub async fn playbook_bands(db: &PgPool, since: DateTime<Utc>) -> sqlx::Result<Vec<Keyed>> {
    counted(db, since, Counted::PlaybookBands).await
}

/// The median time from a proposal to its decision, in seconds.
pub async fn approval_median_decide_s(
    db: &PgPool,
    since: DateTime<Utc>,
) -> sqlx::Result<Option<f64>> {
    sqlx::query_scalar(
        "SELECT percentile_cont(0.5) WITHIN GROUP
                    (ORDER BY extract(epoch FROM decided_at - created_at))
           FROM ai_pending_approvals
          WHERE created_at >= $1 AND decided_at IS NOT NULL",
    )
    .bind(since)
    .fetch_one(db)
    .await
}
