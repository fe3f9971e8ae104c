//! `member_embeddings`: one vector per venue, with the model, dimension and
//! sha256 of the text it was computed from (ADR 0003).
use sqlx::PgExecutor;

/// A venue vector ready to store.
pub struct NewEmbedding<'a> {
    pub member_id: i64,
    pub text_hash: &'a [u8],
    pub vector: &'a [f32],
}

/// Inserts or replaces the vectors of `rows`, all `dims` long, in one
/// statement. Members deleted since their text was read are skipped rather
/// than failing the whole batch on the foreign key. Returns the rows written.
pub async fn upsert(
    db: impl PgExecutor<'_>,
    rows: &[NewEmbedding<'_>],
    model: &str,
    dims: i32,
) -> sqlx::Result<u64> {
    let ids: Vec<i64> = rows.iter().map(|r| r.member_id).collect();
    let hashes: Vec<Vec<u8>> = rows.iter().map(|r| r.text_hash.to_vec()).collect();
    // The vectors travel as one flat real[] sliced per row in SQL: a plain
    // array type `sqlx::query!` can check, and one round trip per batch.
    let flat: Vec<f32> = rows.iter().flat_map(|r| r.vector.iter().copied()).collect();
    let written = sqlx::query!(
        "INSERT INTO member_embeddings (member_id, embedding, model, dims, text_hash, embedded_at)
         SELECT u.member_id, ($3::real[])[(u.ord - 1) * $5::int + 1 : u.ord * $5::int]::vector,
                $4, $5::int, u.text_hash, now()
           FROM unnest($1::bigint[], $2::bytea[]) WITH ORDINALITY AS u(member_id, text_hash, ord)
          WHERE EXISTS (SELECT 1 FROM members m WHERE m.id = u.member_id)
         ON CONFLICT (member_id) DO UPDATE
            SET embedding = EXCLUDED.embedding, model = EXCLUDED.model, dims = EXCLUDED.dims,
                text_hash = EXCLUDED.text_hash, embedded_at = EXCLUDED.embedded_at",
        &ids,
        &hashes,
        &flat,
        model,
        dims
    )
    .execute(db)
    .await?;
    Ok(written.rows_affected())
}

/// The next `limit` member ids after `after`, in id order (keyset paging for
/// the backfill: a rerun walks the same order and skips what is current).
pub async fn member_ids_after(
    db: impl PgExecutor<'_>,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        "SELECT id FROM members WHERE id > $1 ORDER BY id LIMIT $2",
        after,
        limit
    )
    .fetch_all(db)
    .await
}

/// How many venues exist (the backfill's progress bar length).
pub async fn member_count(db: impl PgExecutor<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM members"#)
        .fetch_one(db)
        .await
}
