//! `get_request_catalogues`: what a request's catalogues hold — each
//! standard catalogue, newest first, with its picks (tier, pinned room,
//! reason), the organizer's favourites and comment. « Quels lieux sont dans
//! le catalogue de la demande ? » is answered from here, never from a new
//! search. Venue names, cities, rooms, reasons and the organizer's comment
//! are wrapped.
use super::{answer, request};
use crate::db::request_catalogues;
use crate::tools::args::GetRequestCatalogues;
use crate::tools::input;
use crate::tools::output::{timestamp, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

/// The newest catalogues read (a request rarely has more than three).
const MAX_CATALOGUES: i64 = 5;

pub async fn run(ctx: &ToolContext, args: GetRequestCatalogues) -> Result<ToolOutcome, ToolError> {
    let id = input::request_id(ctx, args.request_id)?;
    let r = request(ctx, id).await?;
    let failed = |e| input::unavailable("get_request_catalogues", e);
    let catalogues = request_catalogues::catalogues(&ctx.db, id, MAX_CATALOGUES)
        .await
        .map_err(failed)?;
    let ids: Vec<i64> = catalogues.iter().map(|c| c.id).collect();
    let picks = request_catalogues::picks(&ctx.db, &ids)
        .await
        .map_err(failed)?;
    let items: Vec<_> = catalogues
        .iter()
        .map(|c| {
            let of_it: Vec<_> = picks
                .iter()
                .filter(|p| p.catalogue_id == c.id)
                .map(|p| {
                    json!({
                        "code": p.code,
                        "name": External::new(Kind::VenueName, p.name.as_str()),
                        "city": External::optional(Kind::Place, p.city.as_deref()),
                        "tier": p.tier,
                        "room": External::optional(Kind::VenueName, p.room.as_deref()),
                        "reason": External::optional(Kind::SearchNote, Some(p.explanation.as_str())),
                        "organizer_favorite": p.organizer_favorite,
                    })
                })
                .collect();
            json!({
                "id": c.id,
                "status": c.status,
                "created_at": timestamp(c.created_at),
                "sent_at": c.sent_at.map(timestamp),
                "organizer_comment": External::optional(Kind::OrganizerComment, c.comment.as_deref()),
                "picks": of_it,
            })
        })
        .collect();
    let summary = match catalogues.len() {
        0 => format!("Demande {} : aucun catalogue", r.reference),
        1 => format!("Demande {} : 1 catalogue", r.reference),
        n => format!("Demande {} : {n} catalogues", r.reference),
    };
    Ok(answer(
        json!({
            "request": {"id": r.id, "reference": r.reference},
            "catalogues": items,
        }),
        summary,
    ))
}
