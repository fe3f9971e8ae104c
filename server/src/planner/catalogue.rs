//! « Quels lieux sont dans le catalogue de la demande ? »: read from
//! `get_request_catalogues`, never from a new search — the answer lists what
//! the catalogue holds, with the organizer's favourites and comment, and
//! links to the builder.
use super::answer::{date, plural, short};
use super::results::{items, plain_at, text};
use super::step::Next;
use super::turn::Turn;
use serde_json::{json, Value};

pub fn next(turn: &Turn) -> Next {
    let Some(target) = &turn.target else {
        return Next::Say(
            "De quelle demande voulez-vous voir le catalogue ? Donnez sa référence \
             (« D-2025-00043 ») ou ouvrez la conversation depuis la demande."
                .to_string(),
        );
    };
    match turn.json("get_request_catalogues") {
        None => Next::call("get_request_catalogues", json!({ "request_id": target.id })),
        Some(v) => Next::Say(answer(v, target.id)),
    }
}

fn status(s: &str) -> &'static str {
    match s {
        "draft" => "brouillon",
        "sent" => "envoyé",
        "archived" => "archivé",
        _ => "",
    }
}

pub fn answer(v: &Value, id: i64) -> String {
    let reference = v
        .get("request")
        .and_then(|r| text(r, "reference"))
        .unwrap_or("?")
        .to_string();
    let catalogues = items(v, "catalogues");
    let builder = format!("/demandes/{id}/catalogue");
    let Some(latest) = catalogues.first() else {
        return format!(
            "La demande {reference} n'a pas encore de catalogue. Pour en préparer un : \
             « Qualifie cette demande », ou le constructeur : {builder}"
        );
    };
    let picks = items(latest, "picks");
    let mut out = format!(
        "Catalogue {} de la demande {reference}",
        status(text(latest, "status").unwrap_or(""))
    );
    if let Some(sent) = text(latest, "sent_at") {
        out.push_str(&format!(" (envoyé le {})", date(sent)));
    }
    out.push_str(&format!(" : {}.", plural(picks.len(), "lieu", "lieux")));
    for (tier, title) in [
        ("recommended", "Recommandés"),
        ("compatible", "Compatibles"),
    ] {
        let of_tier: Vec<&Value> = picks
            .iter()
            .filter(|p| text(p, "tier") == Some(tier))
            .collect();
        if of_tier.is_empty() {
            continue;
        }
        out.push_str(&format!("\n\n{title} :"));
        for p in of_tier {
            out.push_str(&format!(
                "\n- {} ({}{})",
                plain_at(p, "name").unwrap_or_default(),
                text(p, "code").unwrap_or("?"),
                plain_at(p, "city")
                    .map(|c| format!(", {c}"))
                    .unwrap_or_default()
            ));
            if let Some(room) = plain_at(p, "room") {
                out.push_str(&format!(" — {room}"));
            }
            if p.get("organizer_favorite").and_then(Value::as_bool) == Some(true) {
                out.push_str(" ★ favori de l'organisateur");
            }
        }
    }
    if let Some(comment) = plain_at(latest, "organizer_comment") {
        out.push_str(&format!(
            "\n\nCommentaire de l'organisateur : « {} »",
            short(&comment, 400)
        ));
    }
    if catalogues.len() > 1 {
        out.push_str(&format!(
            "\n\n{} plus ancien(s) sur la page de la demande.",
            plural(catalogues.len() - 1, "autre catalogue", "autres catalogues")
        ));
    }
    out.push_str(&format!("\n\nLe constructeur : {builder}"));
    out
}
