//! `get_search_preferences`: what steers a search — the stored search
//! preferences of the user and of the request (`search_preferences`,
//! migration 0019: zone, favourites first, pool specialities), the
//! defaults `search_members` will apply from them and where each comes
//! from, plus the request's search hints (wrapped: the team writes them
//! from what organizers said), its pool and area, and how many venues the
//! user has favourited.
//!
//! The request's area and the zone labels are wrapped (an organizer's or a
//! team member's wording); the specialities are tags of the catalogue,
//! checked when saved, and are not.
use super::{answer, request};
use crate::db::member_signals;
use crate::db::search_preferences::{self as prefs, Owner};
use crate::search::defaults::Defaults;
use crate::tools::args::GetSearchPreferences;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use app::search_preferences::SearchPreferences;
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: GetSearchPreferences) -> Result<ToolOutcome, ToolError> {
    let id = input::request_id(ctx, args.request_id)?;
    let r = request(ctx, id).await?;
    let favorites = member_signals::favorites_of_user(&ctx.db, ctx.user_id)
        .await
        .map_err(|e| input::unavailable("get_search_preferences", e))?;
    let unavailable = |e| input::unavailable("get_search_preferences", e);
    let user = prefs::of(&ctx.db, Owner::User(ctx.user_id))
        .await
        .map_err(unavailable)?;
    let of_request = prefs::of(&ctx.db, Owner::Request(r.id))
        .await
        .map_err(unavailable)?;
    let defaults = Defaults::resolve(&user, &of_request, &r.pool, &[]);
    let stored = !user.is_empty() || !of_request.is_empty();
    let summary = format!(
        "Préférences de recherche de {}{}{}",
        r.reference,
        if stored {
            " (préférences enregistrées)"
        } else {
            ""
        },
        if r.search_hints
            .as_deref()
            .is_some_and(|h| !h.trim().is_empty())
        {
            " (avec consignes)"
        } else {
            ""
        }
    );
    Ok(answer(
        json!({"preferences": {
            "request_id": r.id,
            "reference": r.reference,
            "pool": r.pool,
            "area": External::optional(Kind::Area, r.area.as_deref()),
            "postal_codes": r.postal_codes,
            "search_hints": External::optional(Kind::SearchHints, r.search_hints.as_deref()),
            "user_favorites": favorites,
            "stored": {
                "request": stored_json(&of_request),
                "user": stored_json(&user),
            },
            "defaults_applied_by_search_members": defaults_json(&defaults),
        }}),
        summary,
    ))
}

fn stored_json(p: &SearchPreferences) -> serde_json::Value {
    json!({
        "zone": p.zone.as_ref().map(|z| json!({
            "label": External::new(Kind::ZoneLabel, z.label.as_str()),
            "postal_codes": z.postal_codes,
            "centre": z.centre.map(|c| json!({"lat": c.lat, "lng": c.lng, "radius_km": c.radius_km})),
        })),
        "favorites_first": p.favorites_first,
        "specialities": p.specialities.iter().map(|s| json!({"pool": s.pool, "tags": s.tags})).collect::<Vec<_>>(),
    })
}

/// The defaults a search of the request's pool gets (an explicit filter
/// in the tool call still wins), each with its source.
fn defaults_json(d: &Defaults) -> serde_json::Value {
    json!({
        "zone": d.zone.as_ref().map(|(z, source)| json!({
            "label": External::new(Kind::ZoneLabel, z.label.as_str()),
            "source": source,
        })),
        "favorites_first": d.favorites_first.map(|(on, source)| json!({"value": on, "source": source})),
        "specialities": d.tags.as_ref().map(|(tags, source)| json!({"tags": tags, "source": source})),
    })
}
