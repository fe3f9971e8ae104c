//! `count_members`: how many active venues match a pool, an area (postal
//! codes, départements, a radius), what is ruled out and a capacity in a
//! layout — over `member_search` with the search's own area and exclusion
//! clauses, so the count agrees with what a search can find.
use super::{answer, plural};
use crate::db::member_search::{self, CountFilter};
use crate::tools::args::CountMembers;
use crate::tools::input::{self, invalid};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use app::room_configurations::Configuration;
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: CountMembers) -> Result<ToolOutcome, ToolError> {
    let postal_codes = input::postal_codes(&args.postal_codes)?;
    let departments = input::departments(&args.departments)?;
    let radius = args.near.as_ref().map(input::near).transpose()?;
    let excluded_postal_codes = input::postal_codes(&args.excluded_postal_codes)?;
    let excluded_departments = input::departments(&args.excluded_departments)?;
    let excluded_kinds = input::kinds(&args.excluded_kinds)?;
    let tags = input::tags(&args.tags)?;
    let excluded_tags = input::tags(&args.excluded_tags)?;
    let configuration = match args.configuration.as_deref() {
        Some(c) => Some(
            Configuration::from_key(&input::configuration(c)?)
                .ok_or_else(|| invalid(format!("configuration inconnue « {c} »")))?,
        ),
        None => None,
    };
    let min = match args.min_capacity {
        Some(0) => return Err(invalid("min_capacity doit être au moins 1")),
        Some(n) => Some(i32::try_from(n).map_err(|_| invalid("min_capacity trop grand"))?),
        None => None,
    };
    let capacity = match (configuration, min) {
        (None, None) => None,
        (c, n) => Some((c, n.unwrap_or(1))),
    };
    let failed = |e| input::unavailable("count_members", e);
    // A tag no venue can carry would count 0 as if it were an answer; a
    // tag named by its label (« accessible PMR ») is the catalogue's.
    let (tags, excluded_tags) = if tags.is_empty() && excluded_tags.is_empty() {
        (tags, excluded_tags)
    } else {
        let catalogue = member_search::tag_names(&ctx.db).await.map_err(failed)?;
        (
            catalogue_tags(&catalogue, &tags)?,
            catalogue_tags(&catalogue, &excluded_tags)?,
        )
    };
    let pool = match args.pool.as_deref().map(str::trim) {
        Some(slug) if !slug.is_empty() => Some(
            crate::db::venue_search::pool_by_slug(&ctx.db, slug)
                .await
                .map_err(failed)?
                .ok_or_else(|| ToolError::NotFound(format!("pool « {slug} »")))?,
        ),
        _ => None,
    };
    // Kinds and tags ruled out are one clause: a tag the sheet must not carry.
    let mut excluded = excluded_kinds;
    for t in excluded_tags {
        if !excluded.contains(&t) {
            excluded.push(t);
        }
    }
    let filter = CountFilter {
        pool_id: pool.as_ref().map(|p| p.id),
        postal_codes: &postal_codes,
        departments: &departments,
        radius,
        excluded_postal_codes: &excluded_postal_codes,
        excluded_departments: &excluded_departments,
        excluded_kinds: &excluded,
        tags: &tags,
        capacity,
    };
    let count = member_search::count(&ctx.db, &filter)
        .await
        .map_err(failed)?;
    let mut summary = plural(
        usize::try_from(count).unwrap_or(0),
        "lieu actif",
        "lieux actifs",
    );
    if let Some(p) = &pool {
        summary.push_str(&format!(" dans le pool {}", p.name));
    }
    if !tags.is_empty() {
        let quoted = crate::search::criteria::tag_words::quoted(&tags);
        let marked = app::fr::agree(count, "marqué", "marqués");
        summary.push_str(&format!(" {marked} {}", quoted.join(" et ")));
    }
    Ok(answer(json!({ "count": count }), summary))
}

/// Each typed tag as the catalogue spells it (lower case, as the count
/// compares), each once; a name no tag has is refused.
fn catalogue_tags(catalogue: &[String], typed: &[String]) -> Result<Vec<String>, ToolError> {
    let mut out: Vec<String> = Vec::new();
    for t in typed {
        let tag = crate::search::criteria::tag_words::catalogue_tag(catalogue, t)
            .ok_or_else(|| {
                invalid(format!(
                    "caractéristique inconnue « {} » : les fiches des lieux ne la portent pas",
                    crate::tools::output::truncate(t, 40)
                ))
            })?
            .to_lowercase();
        if !out.contains(&tag) {
            out.push(tag);
        }
    }
    Ok(out)
}
