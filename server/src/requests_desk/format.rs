//! Database rows to what the pages show: French dates and labels.
use crate::db::request_emails::EmailRow;
use crate::db::requests::{DetailRow, ListRow, Similar};
use app::fr;
use app::requests::{RequestDetail, RequestEmail, RequestRow, SimilarPick, SimilarRequest};
use app::room_configurations::Configuration;
use chrono::NaiveDate;

/// The longest summary of a similar request.
const SUMMARY_CHARS: usize = 240;

/// `value` cut to `max` characters (an ellipsis marks the cut).
pub fn cut(value: &str, max: usize) -> String {
    match value.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &value[..end]),
        None => value.to_string(),
    }
}

fn day(d: NaiveDate) -> String {
    fr::date(d)
}

/// `12/03/2026`, or `du 12/03/2026 au 14/03/2026`.
pub fn event_dates(start: Option<NaiveDate>, end: Option<NaiveDate>) -> Option<String> {
    match (start, end) {
        (Some(s), Some(e)) if e != s => Some(format!("du {} au {}", day(s), day(e))),
        (Some(s), _) => Some(day(s)),
        (None, Some(e)) => Some(format!("jusqu'au {}", day(e))),
        (None, None) => None,
    }
}

/// Name and company, whichever are known.
fn organizer(name: Option<&str>, company: Option<&str>) -> Option<String> {
    let parts: Vec<&str> = [name, company]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

pub fn list_row(r: ListRow) -> RequestRow {
    RequestRow {
        id: r.id,
        organizer: organizer(r.organizer_name.as_deref(), r.organizer_company.as_deref()),
        reference: r.reference,
        event_type: r.event_type,
        participants: r.participants,
        event_dates: event_dates(r.event_start_date, r.event_end_date),
        pool: r.pool,
        status: r.status,
        assigned_to: r.assigned_to,
        picks: r.picks,
        created_on: fr::paris_date(r.created_at),
    }
}

/// Beyond this distance from the nearest named place, the zone's centre is
/// « près de » it rather than at it.
const AT_PLACE_KM: f64 = 1.5;

/// The search zone of a centre and radius, in the team's words: « 5 km
/// autour de Paris 14e », « 2 km autour d'un point près de Boulogne-
/// Billancourt ». Coordinates mean nothing to a person; the nearest
/// arrondissement or commune of the gazetteer does.
pub fn zone(lat: f64, lng: f64, radius_km: f64) -> String {
    let places = app::geo::ARRONDISSEMENTS
        .iter()
        .map(|a| (a.name, a.lat, a.lng))
        .chain(app::geo::COMMUNES.iter().map(|c| (c.name, c.lat, c.lng)));
    let nearest = places
        .map(|(name, plat, plng)| (name, app::geo::distance_km((lat, lng), (plat, plng))))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let radius = fr::distance_km(radius_km);
    match nearest {
        Some((name, d)) if d <= AT_PLACE_KM => format!("{radius} autour de {name}"),
        Some((name, _)) => format!("{radius} autour d'un point près de {name}"),
        None => format!("{radius} autour du point choisi"),
    }
}

pub fn detail(r: DetailRow, emails: Vec<EmailRow>, similar: Similar) -> RequestDetail {
    let radius = match (r.center_lat, r.center_lng, r.radius_km) {
        (Some(lat), Some(lng), Some(km)) => Some(zone(lat, lng, km)),
        _ => None,
    }
    // The team often writes the zone as we would word it: say it once.
    .filter(|radius| r.area.as_deref() != Some(radius.as_str()));
    let configurations = r
        .configurations
        .iter()
        .map(|c| Configuration::from_key(c).map_or_else(|| c.clone(), |c| c.label().to_string()))
        .collect();
    let Similar {
        source,
        requests,
        picks,
    } = similar;
    let similar = requests
        .into_iter()
        .map(|s| SimilarRequest {
            picks: picks
                .iter()
                .filter(|p| p.request_id == s.id)
                .map(|p| SimilarPick {
                    code: p.code.clone(),
                    name: p.name.clone(),
                    tier: p.tier.clone(),
                })
                .collect(),
            id: s.id,
            reference: s.reference,
            pool: r.pool.clone(),
            status: s.status,
            summary: cut(&s.description, SUMMARY_CHARS),
        })
        .collect();
    RequestDetail {
        id: r.id,
        reference: r.reference,
        pool: r.pool,
        source: r.source,
        status: r.status,
        organizer_name: r.organizer_name,
        organizer_company: r.organizer_company,
        organizer_email: r.organizer_email,
        organizer_phone: r.organizer_phone,
        description: r.description,
        complementary_info: r.complementary_info,
        event_type: r.event_type,
        participants: r.participants,
        configurations,
        event_dates: event_dates(r.event_start_date, r.event_end_date),
        date_flexible: r.date_flexible,
        date_notes: r.date_notes,
        budget_eur: r.budget_eur,
        budget_note: r.budget_note,
        area: r.area,
        postal_codes: r.postal_codes,
        radius,
        team_memo: r.team_memo,
        search_hints: r.search_hints,
        assigned_to: r.assigned_to,
        created_on: fr::paris_date(r.created_at),
        emails: emails
            .into_iter()
            .map(|e| RequestEmail {
                direction: e.direction,
                from_address: e.from_address,
                subject: e.subject,
                body: e.body,
                at: fr::paris_datetime(e.received_at),
            })
            .collect(),
        similar,
        similar_source: source.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_in_french() {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day);
        assert_eq!(event_dates(d(3, 12), None).as_deref(), Some("12/03/2026"));
        assert_eq!(
            event_dates(d(3, 12), d(3, 12)).as_deref(),
            Some("12/03/2026")
        );
        assert_eq!(
            event_dates(d(3, 12), d(3, 14)).as_deref(),
            Some("du 12/03/2026 au 14/03/2026")
        );
        assert_eq!(event_dates(None, None), None);
    }

    #[test]
    fn a_zone_names_its_place_never_its_coordinates() {
        let plain = |s: String| s.replace('\u{a0}', " ");
        let (lat, lng) = (48.8331, 2.3264); // Paris 14e
        assert_eq!(plain(zone(lat, lng, 8.0)), "8 km autour de Paris 14e");
        // The issue's « 48,8650 ; 2,1400 »: a commune west of Paris.
        assert_eq!(
            plain(zone(48.8650, 2.1400, 1.5)),
            "1,5 km autour de Bougival"
        );
        // Far from every place of the gazetteer: near the nearest one.
        let far = plain(zone(47.0, -3.0, 12.0));
        assert!(far.starts_with("12 km autour d'un point près de "), "{far}");
        assert!(!far.chars().any(|c| c.is_ascii_digit() && far.contains(';')));
    }

    #[test]
    fn cuts_count_characters_not_bytes() {
        assert_eq!(cut("éééé", 2), "éé…");
        assert_eq!(cut("éé", 2), "éé");
    }
}
