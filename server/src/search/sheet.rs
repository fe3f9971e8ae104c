//! A venue's sheet for the team (`/lieux/<id>`): one member with its pool,
//! rooms × layouts, tags and typed attributes in words, prices, and the
//! catalogues that hold it. Read-only queries; the venue's own text is
//! returned as text for the page to escape.
use app::errors::AppError;
use app::room_configurations::Configuration;
use app::venue_search::sheet::{SheetCatalogue, SheetRoom, VenueSheet};
use sqlx::PgPool;

#[derive(sqlx::FromRow)]
struct MemberRow {
    id: i64,
    code: String,
    name: String,
    address: Option<String>,
    postal_code: Option<String>,
    city: Option<String>,
    pool: String,
    status: String,
    description: String,
    website: Option<String>,
    price_min: Option<i32>,
    price_max: Option<i32>,
}

#[derive(sqlx::FromRow)]
struct CapacityRow {
    room_id: i64,
    room_name: String,
    area_m2: Option<i32>,
    configuration: Option<String>,
    max_capacity: Option<i32>,
}

#[derive(sqlx::FromRow)]
struct AttributeRow {
    label: String,
    value: serde_json::Value,
}

#[derive(sqlx::FromRow)]
struct CatalogueRow {
    request_id: i64,
    reference: String,
    status: String,
    tier: String,
    kind: String,
}

pub async fn load(db: &PgPool, member_id: i64) -> Result<VenueSheet, AppError> {
    let member: MemberRow = sqlx::query_as(
        "SELECT m.id, m.code, m.name, m.address, m.postal_code, m.city, p.name AS pool,
                m.status, m.description, m.website,
                m.price_per_person_min_eur AS price_min, m.price_per_person_max_eur AS price_max
           FROM members m JOIN pools p ON p.id = m.pool_id
          WHERE m.id = $1",
    )
    .bind(member_id)
    .fetch_optional(db)
    .await
    .map_err(crate::db::app_error)?
    .ok_or(AppError::NotFound)?;
    let capacities: Vec<CapacityRow> = sqlx::query_as(
        "SELECT r.id AS room_id, r.name AS room_name, r.area_m2, c.configuration, c.max_capacity
           FROM rooms r LEFT JOIN room_capacities c ON c.room_id = r.id
          WHERE r.member_id = $1
          ORDER BY r.position, r.id",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;
    let tags: Vec<String> = sqlx::query_scalar(
        "SELECT t.name FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
          WHERE mt.member_id = $1 ORDER BY lower(t.name)",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;
    let attributes: Vec<AttributeRow> = sqlx::query_as(
        "SELECT t.label, a.value FROM member_attributes a
           JOIN attribute_types t ON t.id = a.attribute_type_id
          WHERE a.member_id = $1 ORDER BY t.label",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;
    let catalogues: Vec<CatalogueRow> = sqlx::query_as(
        "SELECT r.id AS request_id, r.reference, c.status, p.tier, c.kind
           FROM catalogue_picks p
           JOIN catalogues c ON c.id = p.catalogue_id
           JOIN requests r ON r.id = c.request_id
          WHERE p.member_id = $1
          ORDER BY c.updated_at DESC, c.id DESC
          LIMIT 50",
    )
    .bind(member_id)
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;

    let amenities = amenities(
        &tags,
        attributes.iter().filter_map(attribute_text).collect(),
    );
    Ok(VenueSheet {
        member_id: member.id,
        code: member.code,
        name: member.name,
        address: member.address.unwrap_or_default(),
        postal_code: member.postal_code.unwrap_or_default(),
        city: member.city.unwrap_or_default(),
        pool: member.pool,
        active: member.status == "active",
        description: member.description,
        website: member.website.filter(|w| !w.trim().is_empty()),
        rooms: rooms(capacities),
        amenities,
        prices: prices(member.price_min, member.price_max),
        catalogues: catalogues
            .into_iter()
            .map(|c| SheetCatalogue {
                request_id: c.request_id,
                reference: c.reference,
                status: match c.status.as_str() {
                    "sent" => "Envoyé",
                    "archived" => "Archivé",
                    _ => "Brouillon",
                }
                .to_string(),
                tier: app::catalogue_builder::Tier::parse(&c.tier)
                    .map(|t| t.label().to_string())
                    .unwrap_or_default(),
                training: c.kind == "training",
            })
            .collect(),
    })
}

/// Rows grouped by room, layouts in the order the team reads them.
fn rooms(rows: Vec<CapacityRow>) -> Vec<SheetRoom> {
    let mut out: Vec<(i64, SheetRoom)> = Vec::new();
    for row in rows {
        let i = match out.iter().position(|(id, _)| *id == row.room_id) {
            Some(i) => i,
            None => {
                out.push((
                    row.room_id,
                    SheetRoom {
                        name: row.room_name.clone(),
                        area_m2: row.area_m2,
                        capacities: Vec::new(),
                    },
                ));
                out.len() - 1
            }
        };
        if let (Some(c), Some(n), Some((_, room))) =
            (row.configuration, row.max_capacity, out.get_mut(i))
        {
            room.capacities.push((c, n));
        }
    }
    let rank = |key: &str| {
        Configuration::ALL
            .iter()
            .position(|c| c.key() == key)
            .unwrap_or(usize::MAX)
    };
    out.into_iter()
        .map(|(_, mut room)| {
            room.capacities.sort_by_key(|(c, _)| rank(c));
            room
        })
        .collect()
}

/// « Parking : 20 », « Terrasse », nothing for a `false`. A label that
/// explains its stored values (« Restauration (in : interne, out : traiteur
/// libre, both) ») shows the value in those words, not the stored key.
/// The « Atouts »: the tags read as words (stored as slugs,
/// « accessible-pmr »), then the typed attributes; a tag an attribute
/// already says, with more (« Accès PMR », « Parking : 40 »), is left out
/// rather than said twice.
fn amenities(tags: &[String], attributes: Vec<String>) -> Vec<String> {
    let said: Vec<&str> = attributes
        .iter()
        .flat_map(|a| super::criteria::tag_words::named(a))
        .collect();
    tags.iter()
        .filter(|t| !said.contains(&t.to_lowercase().as_str()))
        .map(|t| app::fr::tag(t))
        .chain(attributes)
        .collect()
}

fn attribute_text(a: &AttributeRow) -> Option<String> {
    let (label, legend) = match a.label.split_once(" (") {
        Some((base, rest)) if rest.contains(" : ") => (base.trim(), rest.trim_end_matches(')')),
        _ => (a.label.trim(), ""),
    };
    let worded = |key: &str| {
        legend
            .split(", ")
            .filter_map(|pair| pair.split_once(" : "))
            .find(|(k, _)| k.trim() == key)
            .map_or_else(|| key.to_string(), |(_, v)| v.trim().to_string())
    };
    match &a.value {
        serde_json::Value::Bool(true) => Some(label.to_string()),
        serde_json::Value::Bool(false) => None,
        serde_json::Value::Number(n) => Some(match n.as_i64() {
            Some(i) => format!("{label} : {}", app::fr::int(i)),
            None => format!("{label} : {n}"),
        }),
        serde_json::Value::String(s) if !s.trim().is_empty() => {
            Some(format!("{label} : {}", worded(s.trim())))
        }
        _ => None,
    }
}

fn prices(min: Option<i32>, max: Option<i32>) -> Option<String> {
    match (min, max) {
        (Some(a), Some(b)) if a != b => Some(format!("de {a} à {b} € par personne")),
        (Some(a), _) | (None, Some(a)) => Some(format!("{a} € par personne")),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::amenities;

    #[test]
    fn a_tag_an_attribute_already_says_is_not_said_twice() {
        let tags: Vec<String> = ["accessible-pmr", "rooftop", "parking"]
            .map(String::from)
            .to_vec();
        let attributes = vec!["Accès PMR".to_string(), "Parking : 40".to_string()];
        assert_eq!(
            amenities(&tags, attributes),
            ["rooftop", "Accès PMR", "Parking : 40"]
        );
        assert_eq!(
            amenities(&tags, Vec::new()),
            ["accessible PMR", "rooftop", "parking"]
        );
    }
}
