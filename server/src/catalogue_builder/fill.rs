//! « Remplir depuis la recherche »: the venue search the Lieux page and the
//! `search_members` tool run (called, not copied), on the request's own
//! criteria, fills the empty slots of each tier with its picks — matched
//! room pinned, the reason generated from that room
//! ([`super::pick_reason`]) — and remembers them for the acceptance rate.
//!
//! The search runs outside the transaction (it takes model calls); the
//! version is checked before it and again, under the row lock, after it:
//! an edit made meanwhile wins and the fill is refused, nothing written
//! (nor audited).
use super::pick_reason::{self, Scope};
use super::rules::{self, Kind};
use super::{guard, internal_signals, view};
use crate::audit::{
    self,
    catalogue::{Change, Venue, Written},
};
use crate::db::app_error;
use crate::db::catalogues::{self, NewPick, RequestInfo};
use crate::search::request::MAX_TEXT_CHARS;
use crate::search::SearchService;
use app::catalogue_builder::{CatalogueView, Tier};
use app::errors::AppError;
use app::venue_search::{SearchForm, VenuePick};
use sqlx::PgPool;

/// The search form of a request: its pool, criteria and text (event type,
/// description, the team's search hints).
pub fn search_form(r: &RequestInfo) -> SearchForm {
    let text: Vec<&str> = [
        r.event_type.as_deref(),
        Some(r.description.as_str()),
        r.search_hints.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(str::trim)
    .filter(|t| !t.is_empty())
    .collect();
    SearchForm {
        pool: r.pool_slug.clone(),
        text: text.join(". ").chars().take(MAX_TEXT_CHARS).collect(),
        participants: r.participants.map(i64::from),
        configurations: r.configurations.clone(),
        postal_codes: r.postal_codes.clone(),
        near_lat: r.center_lat,
        near_lng: r.center_lng,
        radius_km: r.radius_km,
        // The team's lessons for this kind of event apply to the fill.
        event_type: r.event_type.clone(),
        // The request's search preferences (and the caller's) apply as defaults.
        request_id: Some(r.id),
        skip_defaults: Vec::new(),
        // The request's own words for its zone, not its coordinates.
        near_label: r.area.clone(),
    }
}

pub async fn fill(
    db: &PgPool,
    search: &SearchService,
    user_id: i64,
    catalogue_id: i64,
    version: i32,
) -> Result<CatalogueView, AppError> {
    let before = catalogues::by_id(db, catalogue_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    guard(&before, version)?;
    let request = catalogues::request(db, before.request_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let results = search.search(Some(user_id), &search_form(&request)).await?;

    let mut tx = db.begin().await.map_err(app_error)?;
    let catalogue = catalogues::lock(&mut tx, catalogue_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    guard(&catalogue, version)?;
    let picks = catalogues::picks(&mut *tx, catalogue_id)
        .await
        .map_err(app_error)?;
    let limits = rules::limits(Kind::from_key(&catalogue.kind));
    let mut total = picks.len();
    let (mut remembered, mut remembered_tiers) = (Vec::new(), Vec::new());
    let mut left_out = 0;
    // For the audit log: what this fill wrote, what it found already there.
    let (mut added, mut already) = (Vec::new(), 0);
    let mut placed = Vec::new();
    let mut notices = results.notices.clone();
    // The search preferences it applied, said as on the Lieux page.
    notices.extend(
        results
            .applied_defaults
            .iter()
            .map(|d| format!("Défaut appliqué — {} ({})", d.label, d.source_label())),
    );
    for tier in Tier::BOTH {
        let found: &[VenuePick] = match tier {
            Tier::Recommended => &results.recommended,
            Tier::Compatible => &results.compatible,
        };
        let mut in_tier = picks.iter().filter(|p| p.tier == tier.key()).count();
        let slots = limits.max_per_tier.unwrap_or(usize::MAX);
        for p in found {
            if picks.iter().any(|q| q.member_id == p.member_id) {
                // Already there (the assistant or the team chose it too):
                // still one of the search's picks, wherever it stands.
                remembered.push(p.member_id);
                remembered_tiers.push(tier.key().to_string());
                already += 1;
                continue;
            }
            if in_tier >= slots || total >= limits.max_picks {
                left_out += 1;
                continue;
            }
            // Replaced by the sentence of the pinned room below; kept (minus
            // any internal signal) when no room could be pinned.
            let reason = rules::clip_reason(&internal_signals::for_organizer(&p.reason));
            let pick = NewPick {
                member_id: p.member_id,
                tier: tier.key(),
                position: i32::try_from(in_tier).unwrap_or(i32::MAX),
                explanation: &reason,
                room_id: p.matched_room.as_ref().map(|r| r.id),
                added_by: "ai",
            };
            catalogues::insert_pick(&mut tx, catalogue_id, &pick, user_id)
                .await
                .map_err(app_error)?;
            added.push(Written {
                venue: Venue {
                    id: p.member_id,
                    code: &p.code,
                },
                tier: tier.key(),
                position: pick.position,
                room_id: pick.room_id,
            });
            placed.push(p.member_id);
            in_tier += 1;
            total += 1;
            remembered.push(p.member_id);
            remembered_tiers.push(tier.key().to_string());
        }
    }
    if results.recommended.is_empty() && results.compatible.is_empty() {
        notices.push("La recherche n'a trouvé aucun lieu pour ces critères.".into());
    }
    if left_out > 0 {
        notices.push(format!(
            "{left_out} lieu{} de la recherche non ajouté{} : plus d'emplacement libre dans son rang.",
            if left_out > 1 { "x" } else { "" },
            if left_out > 1 { "s" } else { "" }
        ));
    }
    pick_reason::refresh(&mut tx, catalogue_id, Scope::Only(&placed))
        .await
        .map_err(app_error)?;
    catalogues::remember_search_picks(&mut tx, catalogue_id, &remembered, &remembered_tiers)
        .await
        .map_err(app_error)?;
    catalogues::refresh_acceptance(&mut tx, catalogue_id)
        .await
        .map_err(app_error)?;
    let version = catalogues::bump_version(&mut tx, catalogue_id, user_id)
        .await
        .map_err(app_error)?;
    let change = Change::Filled {
        added,
        already,
        left_out,
    };
    audit::catalogue::record(&mut tx, user_id, catalogue_id, Some(version), &change)
        .await
        .map_err(app_error)?;
    let mut view = view::load(&mut tx, catalogue_id).await?;
    tx.commit().await.map_err(app_error)?;
    view.notices = notices;
    Ok(view)
}
