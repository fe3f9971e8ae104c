//! `get_member_signals`: for 1 to 16 venues, what the team's history says
//! — favourites, how often and how fast the venue answers, catalogues of
//! the last year, requests won. Numbers only: nothing third-party.
use super::{answer, plural};
use crate::db::{member_signals, members};
use crate::tools::args::GetMemberSignals;
use crate::tools::input::{self, invalid};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

const MAX_CODES: usize = 16;

pub async fn run(ctx: &ToolContext, args: GetMemberSignals) -> Result<ToolOutcome, ToolError> {
    if args.codes.is_empty() || args.codes.len() > MAX_CODES {
        return Err(invalid(format!(
            "codes : de 1 à {MAX_CODES} codes de lieux (reçu {})",
            args.codes.len()
        )));
    }
    let mut codes: Vec<String> = Vec::with_capacity(args.codes.len());
    for code in &args.codes {
        let code = input::member_code(code)?;
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    let failed = |e| input::unavailable("get_member_signals", e);
    let found = members::ids_by_code(&ctx.db, &codes)
        .await
        .map_err(failed)?;
    let unknown: Vec<&str> = codes
        .iter()
        .filter(|c| !found.iter().any(|(f, _)| f == *c))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(ToolError::NotFound(format!(
            "lieu(x) inconnu(s) : {}",
            unknown.join(", ")
        )));
    }
    let ids: Vec<i64> = codes
        .iter()
        .filter_map(|c| found.iter().find(|(f, _)| f == c).map(|(_, id)| *id))
        .collect();
    let rows = member_signals::of_members(&ctx.db, &ids)
        .await
        .map_err(failed)?;
    let round = |x: f64, k: f64| (x * k).round() / k;
    let signals: Vec<_> = codes
        .iter()
        .zip(&rows)
        .map(|(code, s)| {
            json!({
                "code": code,
                "team_favorite": s.favorites > 0,
                "favorites": s.favorites,
                "response_rate": s.response_rate.map(|r| round(r, 100.0)),
                "median_response_hours": s.median_response_hours.map(|h| round(h, 10.0)),
                "catalogues_last_year": s.catalogues_last_year,
                "won": s.won,
            })
        })
        .collect();
    let favourites = rows.iter().filter(|s| s.favorites > 0).count();
    let summary = format!(
        "Signaux de {} ({} favori{} de l'équipe)",
        plural(signals.len(), "lieu", "lieux"),
        favourites,
        if favourites > 1 { "s" } else { "" }
    );
    Ok(answer(json!({ "signals": signals }), summary))
}
