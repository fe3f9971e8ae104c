//! A catalogue as the builder shows it: the request's summary, the picks in
//! their tiers with the rooms that may be pinned (only those holding the
//! group in a requested configuration), the warnings, the acceptance rate.
//! Each pick's reason is shown as the organizer will read it; what the team
//! knows about the venue (favourite, times proposed, response time) is its
//! internal note, from the live signals ([`super::internal_signals`]).
use super::internal_signals;
use super::rules::{self, Kind};
use crate::db::app_error;
use crate::db::catalogues::{self, PickRow, RequestInfo};
use crate::db::venue_search::Signals;
use crate::db::write_targets::{RequestBrief, RoomCapacity};
use app::catalogue_builder::{
    Acceptance, CatalogueView, PickView, RequestSummary, RoomChoice, Tier,
};
use app::errors::AppError;
use app::room_configurations::label_of;
use sqlx::PgConnection;

/// What an empty draft says instead of a warning per tier.
pub const EMPTY_HINT: &str =
    "Catalogue vide : remplissez-le depuis la recherche, ou ajoutez les lieux un par un.";

/// The warnings to show: each tier over the norm, and the short tiers as
/// one sentence (two on one draft said the same thing twice).
fn one_short_warning(
    warnings: Vec<rules::Warning>,
    recommended: usize,
    compatible: usize,
) -> Vec<String> {
    let short = warnings.iter().filter(|w| !w.over_norm).count();
    let mut out: Vec<String> = warnings
        .iter()
        .filter(|w| w.over_norm || short < 2)
        .map(|w| w.text.clone())
        .collect();
    if short >= 2 {
        let norm = app::catalogue_builder::SLOTS_PER_TIER;
        out.push(format!(
            "Catalogue à {recommended} + {compatible} sur {norm} + {norm} : c'est permis — mieux 4 + 2 forts que 4 + 4 bancals — ne complétez qu'avec des lieux solides."
        ));
    }
    out
}

/// The fields of a request the room check needs.
pub fn brief(r: &RequestInfo) -> RequestBrief {
    RequestBrief {
        id: r.id,
        reference: r.reference.clone(),
        pool_id: r.pool_id,
        participants: r.participants,
        configurations: r.configurations.clone(),
        event_start_date: r.event_start_date,
        event_end_date: r.event_end_date,
    }
}

/// The room `room_id` of these rows as a choice, when it holds the group.
pub fn choice(request: &RequestBrief, rows: &[RoomCapacity], room_id: i64) -> Option<RoomChoice> {
    let of_room: Vec<&RoomCapacity> = rows.iter().filter(|r| r.room_id == room_id).collect();
    let first = of_room.first()?;
    rules::fitting(request, &of_room).map(|(configuration, capacity)| RoomChoice {
        id: room_id,
        name: first.room_name.clone(),
        configuration: configuration.to_string(),
        capacity,
    })
}

pub fn summary(r: &RequestInfo) -> RequestSummary {
    let fmt = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let dates = match (r.event_start_date, r.event_end_date) {
        (Some(start), Some(end)) if end != start => {
            Some(format!("du {} au {}", fmt(start), fmt(end)))
        }
        (Some(start), _) => Some(fmt(start)),
        _ => None,
    };
    let mut area: Vec<String> = r.area.iter().cloned().collect();
    if !r.postal_codes.is_empty() {
        area.push(r.postal_codes.join(", "));
    }
    if let Some(km) = r.radius_km {
        let radius = app::fr::distance_km(km);
        // « 8 km autour de Paris 11e » already says its radius.
        if !area.iter().any(|a| a.contains(&radius)) {
            area.push(format!("rayon {radius}"));
        }
    }
    RequestSummary {
        reference: r.reference.clone(),
        description: r.description.chars().take(400).collect(),
        event_type: r.event_type.clone(),
        participants: r.participants,
        configurations: r
            .configurations
            .iter()
            .map(|c| label_of(c).to_string())
            .collect(),
        area: area.join(" · "),
        dates,
        pool: r.pool_name.clone(),
        workspace_scenario: r.workspace_scenario,
    }
}

fn pick_view(
    p: PickRow,
    request: &RequestBrief,
    rooms: &[RoomCapacity],
    signals: &[Signals],
) -> PickView {
    let mine: Vec<RoomCapacity> = rooms
        .iter()
        .filter(|r| r.member_id == p.member_id)
        .cloned()
        .collect();
    let mut room_ids: Vec<i64> = mine.iter().map(|r| r.room_id).collect();
    room_ids.dedup();
    let room_options: Vec<RoomChoice> = room_ids
        .iter()
        .filter_map(|id| choice(request, &mine, *id))
        .collect();
    let room = p.room_id.and_then(|id| choice(request, &mine, id));
    let room_unfit = match (p.room_id, &room) {
        (Some(id), None) => mine.iter().find(|r| r.room_id == id).map(|r| {
            format!(
                "La salle « {} » ne reçoit plus le groupe : épinglez-en une autre.",
                r.room_name
            )
        }),
        _ => None,
    };
    let (reason, legacy) = internal_signals::split(&p.explanation);
    let signals = signals.iter().find(|s| s.member_id == p.member_id);
    PickView {
        member_id: p.member_id,
        code: p.code,
        name: p.name,
        city: p.city.unwrap_or_default(),
        postal_code: p.postal_code.unwrap_or_default(),
        tier: if p.tier == "recommended" {
            Tier::Recommended
        } else {
            Tier::Compatible
        },
        position: p.position,
        reason,
        team_note: internal_signals::team_note(signals, &legacy),
        room,
        room_unfit,
        room_options,
        added_by: p.added_by,
        distance_km: None,
        other_pool: None,
    }
}

/// The catalogue `catalogue_id` now (`NotFound` when there is none).
pub async fn load(conn: &mut PgConnection, catalogue_id: i64) -> Result<CatalogueView, AppError> {
    let catalogue = catalogues::by_id(&mut *conn, catalogue_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let request = catalogues::request(&mut *conn, catalogue.request_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let picks = catalogues::picks(&mut *conn, catalogue_id)
        .await
        .map_err(app_error)?;
    let member_ids: Vec<i64> = picks.iter().map(|p| p.member_id).collect();
    let rooms = catalogues::rooms_of_members(&mut *conn, &member_ids)
        .await
        .map_err(app_error)?;
    let signals = catalogues::team_signals(&mut *conn, &member_ids)
        .await
        .map_err(app_error)?;
    let request_brief = brief(&request);
    let kind = Kind::from_key(&catalogue.kind);
    let places = super::distance::of_members(&mut *conn, &request, &member_ids)
        .await
        .map_err(app_error)?;
    let (recommended, compatible): (Vec<PickView>, Vec<PickView>) = picks
        .into_iter()
        .map(|p| {
            let mut view = pick_view(p, &request_brief, &rooms, &signals);
            if let Some(place) = places.iter().find(|x| x.member_id == view.member_id) {
                view.distance_km = place.distance_km;
                view.other_pool = place.other_pool.clone();
            }
            view
        })
        .partition(|p| p.tier == Tier::Recommended);
    // An empty draft gets one hint, not a warning per tier.
    let warnings = if recommended.is_empty() && compatible.is_empty() {
        vec![EMPTY_HINT.to_string()]
    } else {
        match rules::check(kind, recommended.len(), compatible.len()) {
            Ok(warnings) => one_short_warning(warnings, recommended.len(), compatible.len()),
            Err(over_limit) => vec![over_limit],
        }
    };
    let acceptance = match (
        catalogue.search_picks,
        catalogue.search_kept,
        catalogue.search_moved,
        catalogue.search_replaced,
    ) {
        (Some(search_picks), Some(kept), Some(moved), Some(replaced)) => Some(Acceptance {
            search_picks,
            kept,
            moved,
            replaced,
        }),
        _ => None,
    };
    let last_edit = catalogue.edited_at_time.as_ref().map(|time| {
        let who = catalogue.edited_by_name.as_deref().unwrap_or("l'équipe");
        format!("Modifié par {who} à {time}")
    });
    Ok(CatalogueView {
        catalogue_id,
        request_id: request.id,
        kind: catalogue.kind,
        status: catalogue.status,
        version: catalogue.version,
        request: summary(&request),
        recommended,
        compatible,
        warnings,
        max_picks: rules::limits(kind).max_picks,
        acceptance,
        last_edit,
        sent_on: catalogue.sent_on,
        notices: Vec::new(),
    })
}
