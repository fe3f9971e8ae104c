//! What the Lieux page needs to act on a search's results: the request it
//! serves (« Ajouter au catalogue de D-… », with the venues its draft
//! already holds) and the similar request's page.
use app::venue_search::{RequestTarget, SearchResults};
use sqlx::PgPool;

pub async fn complete(
    db: &PgPool,
    request_id: Option<i64>,
    results: &mut SearchResults,
) -> sqlx::Result<()> {
    if let Some(similar) = results.similar_request.as_mut() {
        similar.request_id = sqlx::query_scalar("SELECT request_id FROM catalogues WHERE id = $1")
            .bind(similar.catalogue_id)
            .fetch_optional(db)
            .await?;
        // The request being served is no example for itself.
        if similar.request_id.is_some() && similar.request_id == request_id {
            results.similar_request = None;
        }
    }
    let Some(request_id) = request_id else {
        return Ok(());
    };
    let reference: Option<String> =
        sqlx::query_scalar("SELECT reference FROM requests WHERE id = $1")
            .bind(request_id)
            .fetch_optional(db)
            .await?;
    let Some(reference) = reference else {
        return Ok(());
    };
    // The venues of its standard draft (none yet: the first add prepares it).
    let in_catalogue: Vec<i64> = sqlx::query_scalar(
        "SELECT p.member_id FROM catalogue_picks p
           JOIN catalogues c ON c.id = p.catalogue_id
          WHERE c.request_id = $1 AND c.kind = 'standard' AND c.status = 'draft'",
    )
    .bind(request_id)
    .fetch_all(db)
    .await?;
    results.for_request = Some(RequestTarget {
        request_id,
        reference,
        in_catalogue,
    });
    Ok(())
}
