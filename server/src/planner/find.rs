//! « Trouve un rooftop pour 80 personnes dans le 8e »: the venue search
//! with the user's words, then the picks, recommended first, with the
//! search's notices and the hint to narrow a too wide area.
//!
//! « Trouve des lieux pour cette demande » names no criteria but a request:
//! the search then runs on the request's fields, as the qualify workflow's
//! does, without proposing anything.
use super::answer::{pick_line, plural};
use super::codes::mentions_request;
use super::intent::asks_for_venues;
use super::qualify::search_input;
use super::results::Search;
use super::step::Next;
use super::turn::Turn;
use super::words::words;
use serde_json::json;

pub fn next(turn: &Turn) -> Next {
    if let Some(v) = turn.json("search_members") {
        let mut out = answer(&Search::read(v));
        // Searched from a request: say which, and with what.
        if let Some(r) = turn
            .json("get_request")
            .map(|r| r.get("request").unwrap_or(r))
        {
            out = format!("{}\n{out}", for_request(r));
        }
        return Next::Say(out);
    }
    let about_request = mentions_request(&words(&turn.text)) && !asks_for_venues(&turn.text);
    match (&turn.target, about_request) {
        (Some(target), true) => match turn.json("get_request") {
            None => Next::call("get_request", json!({ "request_id": target.id })),
            Some(v) => Next::call(
                "search_members",
                search_input(v.get("request").unwrap_or(v)),
            ),
        },
        _ => {
            let mut input = json!({ "text": turn.text.trim() });
            // A pool the words name is the one searched (the answer says so).
            if let Some((slug, _)) = super::pools::named(&words(&turn.text)) {
                input["pool"] = json!(slug);
            }
            Next::call("search_members", input)
        }
    }
}

/// « Recherche pour la demande D-2025-00035 : 40 personnes, cocktail ou
/// banquet, 8 km autour de Paris 14e, réseau Hôtels, le 12/06/2026. »
fn for_request(r: &serde_json::Value) -> String {
    use super::results::{plain_at, strings, text};
    let mut facts = Vec::new();
    if let Some(n) = r.get("participants").and_then(serde_json::Value::as_u64) {
        facts.push(format!("{n} personnes"));
    }
    let layouts = strings(r, "configurations");
    if !layouts.is_empty() {
        facts.push(layouts.join(" ou "));
    }
    let codes = strings(r, "postal_codes");
    if !codes.is_empty() {
        facts.push(codes.join(", "));
    } else if let Some(area) = plain_at(r, "area") {
        facts.push(area);
    }
    if let Some(pool) = text(r, "pool") {
        facts.push(format!("réseau {}", super::pools::name_of(pool)));
    }
    if let Some(day) = text(r, "event_start_date") {
        facts.push(format!("le {}", super::answer::date(day)));
    }
    let reference = text(r, "reference").unwrap_or("en cours");
    if facts.is_empty() {
        format!("Recherche pour la demande {reference}.")
    } else {
        format!(
            "Recherche pour la demande {reference} : {}.",
            facts.join(", ")
        )
    }
}

/// The search's answer in French.
pub fn answer(found: &Search) -> String {
    let total = found.recommended.len() + found.compatible.len();
    let mut out = if !found.searched && !found.notices.is_empty() {
        // « Je ne sais pas situer Lyon… »: why nothing was searched comes first.
        found.notices.join("\n")
    } else if total == 0 {
        "Aucun lieu ne correspond à cette recherche.".to_string()
    } else {
        format!("J'ai trouvé {} :", plural(total, "lieu", "lieux"))
    };
    // Which pools and what order: never narrowed or sorted silently.
    if let (Some(pools), true) = (&found.pools_searched, found.searched) {
        out.push_str(&format!("\n{pools}"));
    }
    if !found.understood.is_empty() {
        out.push_str(&format!("\nCompris : {}.", found.understood.join(" ; ")));
    }
    if let (Some(order), true) = (&found.order, total > 0) {
        out.push_str(&format!("\n{order}"));
    }
    for (title, picks) in [
        ("Recommandés", &found.recommended),
        ("Compatibles", &found.compatible),
    ] {
        if picks.is_empty() {
            continue;
        }
        out.push_str(&format!("\n\n{title} :"));
        for p in picks {
            out.push('\n');
            out.push_str(&pick_line(p));
        }
    }
    if found.searched && !found.notices.is_empty() {
        out.push('\n');
        for notice in &found.notices {
            out.push_str(&format!("\n{notice}"));
        }
    }
    if found.narrow_area {
        out.push_str(
            "\n\nPrécisez la zone : un arrondissement, une ville ou un repère \
             (« dans le 8e », « près de la gare de Lyon »).",
        );
    }
    out
}
