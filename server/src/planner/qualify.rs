//! « Qualifie cette demande » / « Propose un catalogue » (seed 000): one
//! step per call — get_request, find_similar_requests, search_members with
//! the request's fields, get_member_signals on the picks, search_training,
//! then one add_members_to_catalog (a card a person approves), and a French
//! summary once the card is pending.
//!
//! The request's texts are third-party: the description goes to the search
//! as its text (data to search with), and nothing in them changes what the
//! workflow calls.
//!
//! A refusal teaches ([`constraints`]): venues the team refused in this
//! conversation are left out, and a zone stated in the message or in the
//! refusal's reason replaces the request's in the search.
use super::answer::{plural, short};
use super::constraints::{self, Constraints};
use super::picks::{self, Chosen, Tier};
use super::results::{self, items, plain_at, strings, text, Search};
use super::step::Next;
use super::the_request;
use super::turn::Turn;
use serde_json::{json, Map, Value};

/// The search reads at most this much of the description.
const MAX_SEARCH_TEXT: usize = 2000;

/// `get_member_signals` takes up to 16 codes.
const MAX_SIGNALS: usize = 16;

pub fn next(turn: &Turn) -> Next {
    let (id, request) = match the_request::read(
        turn,
        "Quelle demande dois-je qualifier ? Ouvrez la conversation depuis la demande, ou \
         donnez son numéro (« qualifie la demande #42 »).",
    ) {
        Ok(read) => read,
        Err(first) => return first,
    };
    if turn.step("find_similar_requests").is_none() {
        return Next::call("find_similar_requests", json!({ "request_id": id }));
    }
    let constraints = constraints::read(turn);
    let Some(mut found) = turn.json("search_members").map(Search::read) else {
        return Next::call("search_members", search_for(request, &constraints));
    };
    let refused = |p: &results::Pick| constraints.refused.contains(&p.code);
    found.recommended.retain(|p| !refused(p));
    found.compatible.retain(|p| !refused(p));
    let mut codes = found.codes();
    codes.truncate(MAX_SIGNALS);
    if codes.is_empty() {
        return Next::Say(nothing_found(request, &found, &constraints));
    }
    let Some(signals) = turn.json("get_member_signals").map(results::signals) else {
        return Next::call("get_member_signals", json!({ "codes": codes }));
    };
    let Some(sessions) = turn.json("search_training").map(results::sessions) else {
        return Next::call("search_training", training_input(request));
    };
    let (chosen, excluded) = picks::choose(&found, &signals, &sessions);
    if turn.step("add_members_to_catalog").is_none() {
        if chosen.is_empty() {
            return Next::Say(format!(
                "La recherche a trouvé des lieux, mais l'équipe les a tous écartés lors \
                 d'entraînements passés ({}). Je ne propose pas de catalogue.",
                excluded
                    .iter()
                    .map(|(c, _)| c.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let picks: Vec<Value> = chosen.iter().map(Chosen::to_json).collect();
        return Next::call(
            "add_members_to_catalog",
            json!({ "request_id": id, "picks": picks }),
        );
    }
    Next::Say(summary(turn, request, &chosen, &excluded, &constraints))
}

/// [`search_input`] with what the team stated: its zone replaces the
/// request's.
pub fn search_for(request: &Value, constraints: &Constraints) -> Value {
    let mut input = search_input(request);
    if let (Some((zone, _)), Some(map)) = (&constraints.zone, input.as_object_mut()) {
        zone.apply(map);
    }
    input
}

/// The search with the request's structured fields, and its description as
/// the text (unwrapped: data to search with).
pub fn search_input(request: &Value) -> Value {
    let mut input = Map::new();
    input.insert("text".into(), json!(describe(request)));
    if let Some(n) = request.get("participants").and_then(Value::as_u64) {
        if let Ok(n) = u32::try_from(n) {
            input.insert("participants".into(), json!(n));
        }
    }
    for key in ["configurations", "postal_codes"] {
        let values = strings(request, key);
        if !values.is_empty() {
            input.insert(key.into(), json!(values));
        }
    }
    // The request's zone (« 17 km autour de Bougival ») read as the search
    // reads words, when it has no postal codes: the search stays in it
    // (« Chercher des lieux pour cette demande » picked Paris 3e first).
    if !input.contains_key("postal_codes") {
        if let Some(zone) = plain_at(request, "area").and_then(|a| constraints::zone_in(&a)) {
            zone.apply(&mut input);
        }
    }
    if let Some(pool) = text(request, "pool").filter(|p| is_slug(p)) {
        input.insert("pool".into(), json!(pool));
    }
    Value::Object(input)
}

/// The description, or the event type when there is none.
fn describe(request: &Value) -> String {
    let description = plain_at(request, "description")
        .or_else(|| text(request, "event_type").map(str::to_string))
        .unwrap_or_else(|| "événement".to_string());
    super::words::cut(&description, MAX_SEARCH_TEXT).to_string()
}

fn training_input(request: &Value) -> Value {
    let mut input = Map::new();
    if let Some(kind) = text(request, "event_type") {
        input.insert("event_type".into(), json!(kind.to_lowercase()));
    }
    if let Some(d) = plain_at(request, "description") {
        input.insert("text".into(), json!(short(&d, 300)));
    }
    Value::Object(input)
}

/// A pool slug as the pools table spells it (`paris`, `ile-de-france`).
fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn reference(request: &Value) -> String {
    text(request, "reference").unwrap_or("en cours").to_string()
}

fn nothing_found(request: &Value, found: &Search, constraints: &Constraints) -> String {
    let mut out = format!(
        "La recherche ne trouve aucun lieu assez bon pour la demande {} : je ne propose pas \
         de catalogue plutôt que des lieux faibles.",
        reference(request)
    );
    if !constraints.is_empty() {
        out.push_str(&format!(
            "\nPris en compte : {}.",
            constraints.said().join(" ; ")
        ));
    }
    for notice in &found.notices {
        out.push_str(&format!("\n- {notice}"));
    }
    if found.narrow_area {
        out.push_str("\nPrécisez la zone (un arrondissement, une ville ou un repère) et relancez.");
    }
    out
}

/// The answer once the card is pending.
fn summary(
    turn: &Turn,
    request: &Value,
    chosen: &[Chosen],
    excluded: &[(String, String)],
    constraints: &Constraints,
) -> String {
    let recommended = chosen
        .iter()
        .filter(|c| c.tier == Tier::Recommended)
        .count();
    let compatible = chosen.len() - recommended;
    let mut out = format!(
        "J'ai préparé {} ({recommended} recommandé{} + {compatible} compatible{}) pour la \
         demande {} ; la carte dit si elle complète ou remplace le brouillon actuel : \
         validez-la pour l'appliquer.",
        plural(chosen.len(), "lieu", "lieux"),
        if recommended > 1 { "s" } else { "" },
        if compatible > 1 { "s" } else { "" },
        reference(request),
    );
    if chosen.len() < 2 * picks::PER_TIER {
        out.push_str(" Je n'en propose pas davantage : les autres résultats étaient trop faibles.");
    }
    if !constraints.is_empty() {
        out.push_str(&format!(
            "\nPris en compte : {}.",
            constraints.said().join(" ; ")
        ));
    }
    for c in chosen {
        let tier = match c.tier {
            Tier::Recommended => "recommandé",
            Tier::Compatible => "compatible",
        };
        out.push_str(&format!("\n- {} ({}), {tier}", c.pick.name, c.pick.code));
        if !c.notes.is_empty() {
            out.push_str(&format!(" — {}", c.notes.join(", ")));
        }
    }
    let similar: Vec<String> = turn
        .json("find_similar_requests")
        .map(|v| items(v, "similar"))
        .unwrap_or(&[])
        .iter()
        .filter_map(|s| text(s, "reference").map(str::to_string))
        .collect();
    if !similar.is_empty() {
        out.push_str(&format!(
            "\nDemandes similaires consultées : {}.",
            similar.join(", ")
        ));
    }
    let sessions = turn
        .json("search_training")
        .map(results::sessions)
        .unwrap_or_default();
    if !sessions.is_empty() {
        out.push_str(&format!(
            "\nEntraînement pris en compte : {}.",
            plural(sessions.len(), "session", "sessions")
        ));
    }
    for s in &sessions {
        let Some(trigger) = &s.trigger else { continue };
        let mut rule = format!("\nConsigne « {} »", short(trigger, 60));
        if !s.prefer.is_empty() {
            rule.push_str(&format!(" : préférer {}", s.prefer.join(", ")));
        }
        if !s.avoid.is_empty() {
            rule.push_str(&format!(" ; éviter {}", s.avoid.join(", ")));
        }
        out.push_str(&rule);
    }
    for (code, why) in excluded {
        out.push_str(&format!("\nÉcarté : {code} ({why})"));
    }
    out
}
