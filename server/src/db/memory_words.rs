//! Full-text ranks of texts that are not rows: the labelled cases of the
//! memory calibration are ranked by the same expression as the memory
//! tables' `search_tsv` columns (`maxy_memory_tsv`, migration 0025) and the
//! same query (`maxy_fts_any`), so the tuned weights fit the search.
use sqlx::PgExecutor;

/// `ts_rank` of each (title, body) for `query`, in order; 0 for a text
/// sharing no word with it (the search's full-text step would not return
/// it) or for a query made of stop words only.
pub async fn ranks(
    db: impl PgExecutor<'_>,
    query: &str,
    titles: &[String],
    bodies: &[String],
) -> sqlx::Result<Vec<f64>> {
    sqlx::query_scalar(
        "SELECT coalesce(CASE WHEN maxy_memory_tsv(t.title, t.body) @@ q
                              THEN ts_rank(maxy_memory_tsv(t.title, t.body), q) END, 0)::float8
           FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(title, body, n)
           LEFT JOIN maxy_fts_any($1) q ON true
          ORDER BY t.n",
    )
    .bind(query)
    .bind(titles)
    .bind(bodies)
    .fetch_all(db)
    .await
}
