//! What the team's history says about venues, for `get_member_signals`:
//! favourites (`team_favorites`), reactivity (`response_signals`),
//! catalogues of the last year (`catalogue_picks` × `catalogues`) and
//! requests won (`requests.won_member_id`). Runtime-checked query.
use sqlx::PgExecutor;

#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SignalRow {
    pub member_id: i64,
    /// Team members who favourited the venue.
    pub favorites: i64,
    /// Share of asks the venue answered (any kind but `no_answer`).
    pub response_rate: Option<f64>,
    pub median_response_hours: Option<f64>,
    /// Catalogues sent to organizers in the last 365 days naming it.
    pub catalogues_last_year: i64,
    pub won: i64,
}

/// One row per id, in the order given.
pub async fn of_members(db: impl PgExecutor<'_>, ids: &[i64]) -> sqlx::Result<Vec<SignalRow>> {
    sqlx::query_as(
        "SELECT m.id AS member_id,
                (SELECT count(*) FROM team_favorites f WHERE f.member_id = m.id) AS favorites,
                (SELECT avg((s.kind <> 'no_answer')::int)::float8
                   FROM response_signals s WHERE s.member_id = m.id) AS response_rate,
                (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s.response_hours)
                   FROM response_signals s
                  WHERE s.member_id = m.id AND s.response_hours IS NOT NULL) AS median_response_hours,
                (SELECT count(DISTINCT c.id) FROM catalogue_picks p
                   JOIN catalogues c ON c.id = p.catalogue_id
                  WHERE p.member_id = m.id AND c.kind = 'standard'
                    AND c.sent_at > now() - interval '1 year') AS catalogues_last_year,
                (SELECT count(*) FROM requests r WHERE r.won_member_id = m.id) AS won
           FROM unnest($1::bigint[]) WITH ORDINALITY AS m(id, position)
          ORDER BY m.position",
    )
    .bind(ids)
    .fetch_all(db)
    .await
}

/// How many venues `user_id` has favourited.
pub async fn favorites_of_user(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM team_favorites WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await
}
