//! `search_preferences`: one row per team member or per request (migration
//! 0019), read by every search and replaced by the preferences forms.
//! Runtime-checked queries (`query`, not `query!`).
use app::search_preferences::{Centre, PoolSpecialities, SearchPreferences, Zone};
use sqlx::{PgExecutor, Row};

/// Whose preferences a row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    User(i64),
    Request(i64),
}

const COLUMNS: &str = "zone_label, zone_postal_codes, zone_lat, zone_lng, zone_radius_km,
                       favorites_first, specialities";

fn from_row(row: &sqlx::postgres::PgRow) -> sqlx::Result<SearchPreferences> {
    let label: Option<String> = row.try_get("zone_label")?;
    let codes: Option<Vec<String>> = row.try_get("zone_postal_codes")?;
    let lat: Option<f64> = row.try_get("zone_lat")?;
    let lng: Option<f64> = row.try_get("zone_lng")?;
    let radius: Option<f64> = row.try_get("zone_radius_km")?;
    let specialities: serde_json::Value = row.try_get("specialities")?;
    let centre = match (lat, lng, radius) {
        (Some(lat), Some(lng), Some(radius_km)) => Some(Centre {
            lat,
            lng,
            radius_km,
        }),
        _ => None,
    };
    let zone = label.map(|label| Zone {
        label,
        postal_codes: codes.unwrap_or_default(),
        centre,
    });
    let mut specialities: Vec<PoolSpecialities> = specialities
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(pool, tags)| PoolSpecialities {
                    pool: pool.clone(),
                    tags: tags
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|t| t.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .filter(|s| !s.tags.is_empty())
                .collect()
        })
        .unwrap_or_default();
    specialities.sort_by(|a, b| a.pool.cmp(&b.pool));
    Ok(SearchPreferences {
        zone,
        favorites_first: row.try_get("favorites_first")?,
        specialities,
    })
}

/// The owner's preferences; empty when none were saved.
pub async fn of(db: impl PgExecutor<'_>, owner: Owner) -> sqlx::Result<SearchPreferences> {
    let (column, id) = match owner {
        Owner::User(id) => ("user_id", id),
        Owner::Request(id) => ("request_id", id),
    };
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM search_preferences WHERE {column} = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await?;
    row.as_ref()
        .map_or(Ok(SearchPreferences::default()), from_row)
}

/// Replaces the owner's preferences (one row per owner).
pub async fn save(
    db: impl PgExecutor<'_>,
    owner: Owner,
    prefs: &SearchPreferences,
    updated_by: i64,
) -> sqlx::Result<()> {
    let (user_id, request_id, conflict) = match owner {
        Owner::User(id) => (Some(id), None, "(user_id) WHERE user_id IS NOT NULL"),
        Owner::Request(id) => (None, Some(id), "(request_id) WHERE request_id IS NOT NULL"),
    };
    let zone = prefs.zone.as_ref();
    let centre = zone.and_then(|z| z.centre);
    let codes = zone
        .map(|z| z.postal_codes.clone())
        .filter(|c| !c.is_empty());
    let specialities: serde_json::Map<String, serde_json::Value> = prefs
        .specialities
        .iter()
        .map(|s| (s.pool.clone(), serde_json::json!(s.tags)))
        .collect();
    sqlx::query(&format!(
        "INSERT INTO search_preferences (user_id, request_id, zone_label, zone_postal_codes, zone_lat,
                                         zone_lng, zone_radius_km, favorites_first, specialities, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT {conflict} DO UPDATE SET
             zone_label = EXCLUDED.zone_label, zone_postal_codes = EXCLUDED.zone_postal_codes,
             zone_lat = EXCLUDED.zone_lat, zone_lng = EXCLUDED.zone_lng,
             zone_radius_km = EXCLUDED.zone_radius_km, favorites_first = EXCLUDED.favorites_first,
             specialities = EXCLUDED.specialities, updated_by = EXCLUDED.updated_by"
    ))
    .bind(user_id)
    .bind(request_id)
    .bind(zone.map(|z| z.label.as_str()))
    .bind(codes)
    .bind(centre.map(|c| c.lat))
    .bind(centre.map(|c| c.lng))
    .bind(centre.map(|c| c.radius_km))
    .bind(prefs.favorites_first)
    .bind(serde_json::Value::Object(specialities))
    .bind(updated_by)
    .execute(db)
    .await?;
    Ok(())
}

/// A request's reference and pool slug, `None` when it does not exist.
pub async fn request_pool(
    db: impl PgExecutor<'_>,
    request_id: i64,
) -> sqlx::Result<Option<(String, String)>> {
    sqlx::query_as(
        "SELECT r.reference, p.slug FROM requests r JOIN pools p ON p.id = r.pool_id WHERE r.id = $1",
    )
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// The pool slugs that exist among `slugs`.
pub async fn known_pools(db: impl PgExecutor<'_>, slugs: &[String]) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT slug FROM pools WHERE slug = ANY($1)")
        .bind(slugs)
        .fetch_all(db)
        .await
}

/// Of `member_ids`: whether a team member favourited each one, and whether
/// it carries one of `tags` (case-insensitive).
pub async fn pick_marks(
    db: impl PgExecutor<'_>,
    member_ids: &[i64],
    tags: &[String],
) -> sqlx::Result<Vec<(i64, bool, bool)>> {
    let lower: Vec<String> = tags.iter().map(|n| n.to_lowercase()).collect();
    sqlx::query_as(
        "SELECT m.id,
                EXISTS (SELECT 1 FROM team_favorites f WHERE f.member_id = m.id),
                EXISTS (SELECT 1 FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
                         WHERE mt.member_id = m.id AND lower(t.name) = ANY($2))
           FROM unnest($1::bigint[]) AS m(id)",
    )
    .bind(member_ids)
    .bind(&lower)
    .fetch_all(db)
    .await
}
