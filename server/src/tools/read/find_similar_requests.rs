//! `find_similar_requests`: the 3 past requests of the same pool most like
//! this one — by embedding when both have a vector of the same model,
//! else by shared words — with the picks of their latest catalogue, so a
//! good past answer can be reused. `source` says which way answered.
use super::{answer, plural, request};
use crate::db::requests;
use crate::tools::args::FindSimilarRequests;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

const TOP: i64 = 3;

pub async fn run(ctx: &ToolContext, args: FindSimilarRequests) -> Result<ToolOutcome, ToolError> {
    let id = input::request_id(ctx, args.request_id)?;
    let r = request(ctx, id).await?;
    let found = requests::similar_with_picks(&ctx.db, r.id, TOP)
        .await
        .map_err(|e| input::unavailable("find_similar_requests", e))?;
    let (source, similar, picks) = (found.source, found.requests, found.picks);
    let items: Vec<_> = similar
        .iter()
        .map(|s| {
            let catalogue: Vec<_> = picks
                .iter()
                .filter(|p| p.request_id == s.id)
                .map(|p| {
                    json!({
                        "code": p.code,
                        "name": External::new(Kind::VenueName, p.name.as_str()),
                        "tier": p.tier,
                    })
                })
                .collect();
            json!({
                "id": s.id,
                "reference": s.reference,
                "similarity": (s.similarity * 1000.0).round() / 1000.0,
                "summary": External::bounded(Kind::Description, &s.description, 400),
                "catalogue": catalogue,
            })
        })
        .collect();
    let summary = format!(
        "{} proche{} de {}",
        plural(items.len(), "demande", "demandes"),
        if items.len() == 1 { "" } else { "s" },
        r.reference
    );
    Ok(answer(json!({"similar": items, "source": source}), summary))
}
