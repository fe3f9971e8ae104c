//! Finding a venue to add by what the team types: its code or part of its
//! name, in every pool (issue 29: a venue of another pool is a choice the
//! team may make; the suggestion names its pool so it is a conscious one).
//! The request's own pool comes first.
use crate::db::catalogues::MemberState;
use app::catalogue_builder::MemberOption;
use sqlx::{PgExecutor, PgPool};

#[derive(sqlx::FromRow)]
struct Row {
    code: String,
    name: String,
    city: Option<String>,
    pool: String,
}

/// Up to `limit` active venues whose code is `query` or whose name
/// contains it (accents and case aside), the request's pool first.
pub async fn suggestions(
    db: &PgPool,
    pool_id: i64,
    query: &str,
    limit: i64,
) -> sqlx::Result<Vec<MemberOption>> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT m.code, m.name, m.city, p.name AS pool
           FROM members m JOIN pools p ON p.id = m.pool_id
          WHERE m.status = 'active'
            AND (lower(m.code) = lower($2) OR lower(m.code) = lower('#' || $2)
                 OR m.name ILIKE '%' || replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
          ORDER BY lower(m.code) IN (lower($2), lower('#' || $2)) DESC,
                   lower(m.name) = lower($2) DESC, m.pool_id = $1 DESC, m.name, m.id
          LIMIT $3",
    )
    .bind(pool_id)
    .bind(query)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| MemberOption {
            code: r.code,
            name: r.name,
            city: r.city.unwrap_or_default(),
            pool: r.pool,
        })
        .collect())
}

/// Venues of any pool named exactly `name` (case aside), for an add typed
/// by name that the request's pool does not have.
pub async fn by_exact_name(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<Vec<MemberState>> {
    sqlx::query_as(
        "SELECT id, code, name, pool_id, status FROM members
          WHERE lower(name) = lower($1) LIMIT 5",
    )
    .bind(name)
    .fetch_all(db)
    .await
}
