//! `search_members`: the venue search the Lieux page runs (three stages,
//! matched room, narrow-area hint), with the conversation's request's pool
//! as default, every pool without one; the answer says which pools were
//! searched and how the picks are ordered.
//!
//! Venue and room names and cities are the venues' words: wrapped. The
//! pipeline's sentences (reasons, notices, what it understood, the labels
//! of the defaults it applied) are ours but quote venue names, the request's
//! words, zone labels and the team's training (« préféré pour « festif » »):
//! wrapped whole, as the model must read what they quote.
use super::answer;
use crate::tools::args::SearchMembers;
use crate::tools::input::{self, invalid};
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use app::errors::AppError;
use app::venue_search::{SearchForm, VenuePick};
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: SearchMembers) -> Result<ToolOutcome, ToolError> {
    let form = form(ctx, &args).await?;
    let results = app::venue_search::VenueSearch::search(ctx.search.as_ref(), ctx.user_id, form)
        .await
        .map_err(|e| match e {
            AppError::Invalid(message) => invalid(message),
            other => {
                tracing::error!(error = ?other, "search_members: the venue search failed");
                ToolError::Unavailable
            }
        })?;
    let pick = |p: &VenuePick| {
        json!({
            "code": p.code,
            "name": External::new(Kind::VenueName, p.name.as_str()),
            "city": External::optional(Kind::Place, Some(&p.city)),
            "postal_code": p.postal_code,
            "matched_room": p.matched_room.as_ref().map(|m| json!({
                "id": m.id,
                "name": External::new(Kind::VenueName, m.name.as_str()),
                "configuration": m.configuration,
                "capacity": m.capacity,
            })),
            "reason": External::optional(Kind::SearchNote, Some(&p.reason)),
            "distance_km": p.distance_km.map(|d| (d * 10.0).round() / 10.0),
        })
    };
    let (r, c) = (results.recommended.len(), results.compatible.len());
    let summary = if !results.stats.ran() {
        // A place it cannot locate, a postal code that does not exist.
        "Recherche non lancée : zone inconnue".to_string()
    } else if r + c == 0 {
        "Aucun lieu trouvé".to_string()
    } else {
        // « trouvés », not « proposés »: what is proposed is the card that
        // may follow, tiered by whoever proposes it.
        format!(
            "{} lieu{} trouvé{} : {r} recommandé{}, {c} compatible{}",
            r + c,
            s(r + c, "x"),
            s(r + c, "s"),
            s(r, "s"),
            s(c, "s")
        )
    };
    Ok(answer(
        json!({
            "recommended": results.recommended.iter().map(pick).collect::<Vec<_>>(),
            "compatible": results.compatible.iter().map(pick).collect::<Vec<_>>(),
            "narrow_area": results.narrow_area,
            // False: no search ran, and the notices say why.
            "searched": results.stats.ran(),
            "notices": notes(&results.notices),
            "understood": notes(&results.understood),
            "pools_searched": External::new(Kind::SearchNote, results.pools.sentence().as_str()),
            "order": External::new(Kind::SearchNote, results.order.as_str()),
            "applied_defaults": results.applied_defaults.iter().map(|d| json!({
                "key": d.key,
                "label": External::new(Kind::SearchNote, d.label.as_str()),
                "source": d.source,
            })).collect::<Vec<_>>(),
        }),
        summary,
    ))
}

/// The search's sentences, each wrapped.
fn notes(sentences: &[String]) -> Vec<External> {
    sentences
        .iter()
        .map(|n| External::new(Kind::SearchNote, n.as_str()))
        .collect()
}

fn s(n: usize, suffix: &str) -> &str {
    if n > 1 {
        suffix
    } else {
        ""
    }
}

/// The search form from the arguments: checked here so a bad value is the
/// model's to fix, the pool defaulting to the request's, then the first.
async fn form(ctx: &ToolContext, args: &SearchMembers) -> Result<SearchForm, ToolError> {
    let most = crate::search::request::MAX_TEXT_CHARS;
    if args.text.chars().count() > most {
        return Err(invalid(format!("text dépasse {most} caractères")));
    }
    let participants = match args.participants {
        Some(0) => return Err(invalid("participants doit être au moins 1")),
        Some(n) if n > 100_000 => {
            return Err(invalid(format!("participants trop grand ({n})")));
        }
        other => other.map(i64::from),
    };
    let configurations = args
        .configurations
        .iter()
        .map(|c| input::configuration(c))
        .collect::<Result<Vec<_>, _>>()?;
    let postal_codes = input::postal_codes(&args.postal_codes)?;
    if let Some(n) = &args.near {
        input::near(n)?;
    }
    let pool = match args.pool.as_deref().map(str::trim) {
        Some(p) if !p.is_empty() => p.to_string(),
        _ => default_pool(ctx).await?,
    };
    Ok(SearchForm {
        pool,
        text: args.text.clone(),
        participants,
        configurations,
        postal_codes,
        near_lat: args.near.as_ref().map(|n| n.lat),
        near_lng: args.near.as_ref().map(|n| n.lng),
        radius_km: args.near.as_ref().map(|n| n.radius_km),
        // The conversation's request's kind of event: its training applies.
        event_type: request_event_type(ctx).await?,
        // The conversation's request's search preferences (and the
        // user's) apply as defaults, as on the Lieux page.
        request_id: ctx.request_id,
        skip_defaults: Vec::new(),
        // Named from the coordinates by the search (`search::request`).
        near_label: None,
    })
}

async fn request_event_type(ctx: &ToolContext) -> Result<Option<String>, ToolError> {
    let Some(id) = ctx.request_id else {
        return Ok(None);
    };
    Ok(crate::db::training_sessions::request_context(&ctx.db, id)
        .await
        .map_err(|e| input::unavailable("search_members", e))?
        .and_then(|r| r.event_type))
}

/// The conversation's request's pool, else every pool (empty): never the
/// first of the list, which found 1 venue where other pools had 6.
async fn default_pool(ctx: &ToolContext) -> Result<String, ToolError> {
    let failed = |e| input::unavailable("search_members", e);
    if let Some(id) = ctx.request_id {
        if let Some(r) = crate::db::requests::by_id(&ctx.db, id)
            .await
            .map_err(failed)?
        {
            return Ok(r.pool);
        }
    }
    Ok(String::new())
}
