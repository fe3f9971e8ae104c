//! The facts of one turn, read from the database: the caller's role and
//! profiles and the attached request's fields.

use super::eval::{Facts, RequestFacts};
use sqlx::PgPool;

#[derive(sqlx::FromRow)]
struct UserRow {
    role: String,
    profiles: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct RequestRow {
    participants: Option<i64>,
    event_type: Option<String>,
    status: String,
    pool: Option<String>,
    configurations: Vec<String>,
    postal_codes: Vec<String>,
    budget_eur: Option<f64>,
    has_catalogue: bool,
    organizer_comment: bool,
}

/// The facts `when` expressions see for `user_id` working at `station`.
///
/// A missing user is an error (`RowNotFound`): every turn has one. A
/// missing request reads as no request: it may have been deleted while
/// its conversation lives on.
pub async fn facts_for(
    db: &PgPool,
    user_id: i64,
    station: &str,
    request_id: Option<i64>,
    event: Option<&str>,
) -> sqlx::Result<Facts> {
    let user: UserRow = sqlx::query_as("SELECT role, profiles FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await?;
    let request = match request_id {
        Some(id) => request_facts(db, id).await?,
        None => None,
    };
    Ok(Facts {
        profiles: profiles(&user.role, user.profiles),
        station: station.to_string(),
        event: event.map(str::to_string),
        request,
    })
}

/// The role counts as a profile when it is `admin` (`'admin' in profiles`);
/// duplicates go, the first occurrence keeps its place.
fn profiles(role: &str, listed: Vec<String>) -> Vec<String> {
    let mut profiles: Vec<String> = Vec::with_capacity(listed.len() + 1);
    let role = (role == "admin").then(|| role.to_string());
    for profile in role.into_iter().chain(listed) {
        if !profiles.contains(&profile) {
            profiles.push(profile);
        }
    }
    profiles
}

async fn request_facts(db: &PgPool, request_id: i64) -> sqlx::Result<Option<RequestFacts>> {
    // organizer_comment: only a comment on a catalogue still `sent` counts;
    // once the team sends a reworked version the commented one is archived
    // and the comment has been answered.
    let row: Option<RequestRow> = sqlx::query_as(
        "SELECT r.participants::bigint AS participants,
                r.event_type,
                r.status,
                p.slug AS pool,
                r.configurations,
                r.postal_codes,
                r.budget_eur::double precision AS budget_eur,
                EXISTS (SELECT 1 FROM catalogues c WHERE c.request_id = r.id) AS has_catalogue,
                EXISTS (SELECT 1 FROM catalogues c
                          JOIN catalogue_feedback f ON f.catalogue_id = c.id
                         WHERE c.request_id = r.id AND c.status = 'sent') AS organizer_comment
           FROM requests r
           LEFT JOIN pools p ON p.id = r.pool_id
          WHERE r.id = $1",
    )
    .bind(request_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| RequestFacts {
        participants: r.participants,
        event_type: r.event_type,
        status: r.status,
        pool: r.pool,
        configurations: r.configurations,
        postal_codes: r.postal_codes,
        budget_eur: r.budget_eur,
        has_catalogue: r.has_catalogue,
        organizer_comment: r.organizer_comment,
    }))
}

#[cfg(test)]
mod tests {
    use super::profiles;

    #[test]
    fn admin_role_is_a_profile_and_duplicates_go() {
        let listed = vec!["sales".into(), "admin".into(), "sales".into()];
        assert_eq!(profiles("admin", listed), vec!["admin", "sales"]);
        assert_eq!(
            profiles("team", vec!["senior".into()]),
            vec!["senior".to_string()]
        );
    }
}
