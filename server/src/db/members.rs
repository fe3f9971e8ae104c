//! `members` and what hangs off them (rooms with capacities, attributes,
//! tags) as the assistant's venue sheets read them (runtime-checked
//! queries).
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberRow {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub status: String,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub address: Option<String>,
    pub website: Option<String>,
    pub pool: String,
    pub description: String,
    pub price_per_person_min_eur: Option<i32>,
    pub price_per_person_max_eur: Option<i32>,
    pub venue_hire_from_eur: Option<i32>,
    pub price_notes: Option<String>,
}

pub async fn by_code(db: impl PgExecutor<'_>, code: &str) -> sqlx::Result<Option<MemberRow>> {
    sqlx::query_as(
        "SELECT m.id, m.code, m.name, m.status, m.city, m.postal_code, m.address, m.website,
                p.slug AS pool, m.description, m.price_per_person_min_eur,
                m.price_per_person_max_eur, m.venue_hire_from_eur, m.price_notes
           FROM members m JOIN pools p ON p.id = m.pool_id
          WHERE m.code = $1",
    )
    .bind(code)
    .fetch_optional(db)
    .await
}

/// The ids of the codes that exist, as (code, id).
pub async fn ids_by_code(
    db: impl PgExecutor<'_>,
    codes: &[String],
) -> sqlx::Result<Vec<(String, i64)>> {
    sqlx::query_as("SELECT code, id FROM members WHERE code = ANY($1)")
        .bind(codes)
        .fetch_all(db)
        .await
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RoomRow {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub area_m2: Option<i32>,
    /// `{"theatre": 120, "cocktail": 200}`.
    pub capacities: serde_json::Value,
}

/// A member's rooms in display order, each with its capacity per layout.
pub async fn rooms(db: impl PgExecutor<'_>, member_id: i64) -> sqlx::Result<Vec<RoomRow>> {
    sqlx::query_as(
        "SELECT r.id, r.name, r.description, r.area_m2,
                coalesce(jsonb_object_agg(rc.configuration, rc.max_capacity)
                         FILTER (WHERE rc.configuration IS NOT NULL), '{}'::jsonb) AS capacities
           FROM rooms r LEFT JOIN room_capacities rc ON rc.room_id = r.id
          WHERE r.member_id = $1
          GROUP BY r.id
          ORDER BY r.position, r.id",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AttributeRow {
    pub key: String,
    /// How the team names it (« Chambres sur place »).
    pub label: String,
    pub value_type: String,
    pub value: serde_json::Value,
}

pub async fn attributes(
    db: impl PgExecutor<'_>,
    member_id: i64,
) -> sqlx::Result<Vec<AttributeRow>> {
    sqlx::query_as(
        "SELECT t.key, t.label, t.value_type, a.value
           FROM member_attributes a JOIN attribute_types t ON t.id = a.attribute_type_id
          WHERE a.member_id = $1
          ORDER BY t.key",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
}

pub async fn tags(db: impl PgExecutor<'_>, member_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT t.name FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
          WHERE mt.member_id = $1 ORDER BY lower(t.name)",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
}
