//! Counts over `member_search` (one narrow row per active member, kept by
//! the triggers of migration 0011) for `count_members`. Runtime-checked.
use sqlx::{Acquire, Postgres, QueryBuilder};

pub struct CountFilter<'a> {
    pub pool_id: Option<i64>,
    /// With `departments`, either will do.
    pub postal_codes: &'a [String],
    /// Two digits ("93"): every postal code starting with them.
    pub departments: &'a [String],
    /// Centre and radius in metres.
    pub radius: Option<(f64, f64, f64)>,
    /// Ruled out whatever else matches: postal codes, départements, kinds
    /// of venue (tag names, lower case).
    pub excluded_postal_codes: &'a [String],
    pub excluded_departments: &'a [String],
    pub excluded_kinds: &'a [String],
    /// Tag names (lower case) a venue must all carry.
    pub tags: &'a [String],
    /// A layout and the capacity one of its rooms must hold; `None` for
    /// the layout: any layout.
    pub capacity: Option<(Option<app::room_configurations::Configuration>, i32)>,
}

/// The `member_search` column of a layout's largest capacity (a closed
/// list: the only text of the query that is not bound).
fn column(c: app::room_configurations::Configuration) -> &'static str {
    use app::room_configurations::Configuration as C;
    match c {
        C::Reunion => "cap_reunion",
        C::U => "cap_u",
        C::Theatre => "cap_theatre",
        C::Cabaret => "cap_cabaret",
        C::Ecole => "cap_ecole",
        C::Banquet => "cap_banquet",
        C::Cocktail => "cap_cocktail",
    }
}

/// Every tag name of the catalogue (a few dozen).
pub async fn tag_names(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT name FROM tags ORDER BY name")
        .fetch_all(db)
        .await
}

/// Active members matching every filter given.
pub async fn count<'c>(
    db: impl Acquire<'c, Database = Postgres>,
    f: &CountFilter<'_>,
) -> sqlx::Result<i64> {
    let mut q: QueryBuilder<Postgres> =
        QueryBuilder::new("SELECT count(*) FROM member_search s WHERE true");
    if let Some(pool_id) = f.pool_id {
        q.push(" AND s.pool_id = ").push_bind(pool_id);
    }
    super::venue_search::push_area(&mut q, f.postal_codes, f.departments, f.radius);
    super::venue_search::push_exclusions(
        &mut q,
        f.excluded_postal_codes,
        f.excluded_departments,
        f.excluded_kinds,
    );
    if !f.tags.is_empty() {
        q.push(
            " AND (SELECT count(DISTINCT lower(t.name)) FROM member_tags mt JOIN tags t ON t.id = mt.tag_id \
               WHERE mt.member_id = s.member_id AND lower(t.name) = ANY(",
        )
        .push_bind(f.tags)
        .push(")) = ")
        .push_bind(i64::try_from(f.tags.len()).unwrap_or(i64::MAX));
    }
    if let Some((configuration, min)) = f.capacity {
        let columns: Vec<&str> = match configuration {
            Some(c) => vec![column(c)],
            None => app::room_configurations::Configuration::ALL
                .into_iter()
                .map(column)
                .collect(),
        };
        q.push(" AND (");
        for (i, c) in columns.into_iter().enumerate() {
            if i > 0 {
                q.push(" OR ");
            }
            q.push("s.").push(c).push(" >= ").push_bind(min);
        }
        q.push(")");
    }
    // An unnamed statement, in a transaction of its own: sqlx parses and
    // runs it in two round trips, which a transaction pooler would hand to
    // two different server connections (ADR 0040).
    let mut tx = db.begin().await?;
    let count = q
        .build_query_scalar()
        .persistent(false)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(count)
}
