//! `get_member_full`: the short sheet plus attributes, tags, prices and
//! the team's latest knowledge about the venue. Every text the venue or
//! the team wrote — names, room texts, address, website, price notes, text
//! values of attributes, knowledge — is wrapped; tags and attribute keys
//! are the catalogue's own vocabulary.
use super::answer;
use super::get_member::{load, sheet};
use crate::db::{knowledge_entries, members};
use crate::tools::args::GetMember;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::{json, Map, Value};

/// Knowledge entries shown with the sheet (search_knowledge finds older).
const KNOWLEDGE: i64 = 10;

pub async fn run(ctx: &ToolContext, args: GetMember) -> Result<ToolOutcome, ToolError> {
    let (member, rooms) = load(ctx, &args.code).await?;
    let failed = |e| input::unavailable("get_member_full", e);
    let attributes = members::attributes(&ctx.db, member.id)
        .await
        .map_err(failed)?;
    let tags = members::tags(&ctx.db, member.id).await.map_err(failed)?;
    let knowledge = knowledge_entries::of_member(&ctx.db, member.id, KNOWLEDGE)
        .await
        .map_err(failed)?;
    let mut out = sheet(&member, &rooms, true);
    // Maxy's own names for its attribute keys, for answers people read.
    let labels: Map<String, Value> = attributes
        .iter()
        .map(|a| (a.key.clone(), json!(a.label)))
        .collect();
    let attributes: Map<String, Value> = attributes
        .into_iter()
        .map(|a| {
            let value = match a.value.as_str() {
                // A text value is the venue's own wording (whatever the
                // attribute's declared type).
                Some(text) => json!(External::bounded(Kind::VenueText, text, 500)),
                None => a.value,
            };
            (a.key, value)
        })
        .collect();
    out["attributes"] = Value::Object(attributes);
    out["attribute_labels"] = Value::Object(labels);
    out["tags"] = json!(tags);
    out["address"] = json!(External::optional(
        Kind::VenueText,
        member.address.as_deref()
    ));
    out["website"] = json!(External::optional(Kind::Website, member.website.as_deref()));
    out["prices"] = json!({
        "per_person_min_eur": member.price_per_person_min_eur,
        "per_person_max_eur": member.price_per_person_max_eur,
        "venue_hire_from_eur": member.venue_hire_from_eur,
        "notes": External::optional(Kind::VenueText, member.price_notes.as_deref()),
    });
    out["knowledge"] = json!(knowledge
        .iter()
        .map(|k| json!({
            "title": External::bounded(Kind::Knowledge, &k.title, 200),
            "content": External::bounded(Kind::Knowledge, &k.content, 2000),
            "source": k.source,
        }))
        .collect::<Vec<_>>());
    let summary = format!("Lieu {} : {} (fiche complète)", member.code, member.name);
    Ok(answer(json!({ "member": out }), summary))
}
