//! How far each venue of a catalogue is from the request's zone: its
//! centre when it has one, else the centre of its postal codes (the
//! gazetteer's), else none — no distance is better than one from a
//! made-up point. Also names a venue's pool when it is not the request's.
use crate::db::catalogues::RequestInfo;
use sqlx::PgConnection;

pub struct Place {
    pub member_id: i64,
    pub distance_km: Option<f64>,
    pub other_pool: Option<String>,
}

/// The request zone's centre, if it has one a person would recognise.
pub fn zone_centre(request: &RequestInfo) -> Option<(f64, f64)> {
    if let (Some(lat), Some(lng)) = (request.center_lat, request.center_lng) {
        return Some((lat, lng));
    }
    let known: Vec<(f64, f64)> = request
        .postal_codes
        .iter()
        .filter_map(|c| crate::geo::postal_code_center(c))
        .collect();
    if known.is_empty() {
        return None;
    }
    let n = known.len() as f64;
    let (lat, lng) = known
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    Some((lat / n, lng / n))
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    lat: Option<f64>,
    lng: Option<f64>,
    pool_id: i64,
    pool: String,
}

pub async fn of_members(
    conn: &mut PgConnection,
    request: &RequestInfo,
    member_ids: &[i64],
) -> sqlx::Result<Vec<Place>> {
    if member_ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT m.id, m.lat, m.lng, m.pool_id, p.name AS pool
           FROM members m JOIN pools p ON p.id = m.pool_id
          WHERE m.id = ANY($1)",
    )
    .bind(member_ids)
    .fetch_all(&mut *conn)
    .await?;
    let centre = zone_centre(request);
    Ok(rows
        .into_iter()
        .map(|r| Place {
            member_id: r.id,
            distance_km: match (centre, r.lat, r.lng) {
                (Some(c), Some(lat), Some(lng)) => {
                    Some((crate::geo::distance_km(c, (lat, lng)) * 10.0).round() / 10.0)
                }
                _ => None,
            },
            other_pool: (r.pool_id != request.pool_id).then_some(r.pool),
        })
        .collect())
}
