//! « Des demandes similaires ? »: `find_similar_requests` on the request,
//! listed with what their last catalogue held.
use super::answer::short;
use super::results::{items, plain_at, text};
use super::step::Next;
use super::turn::Turn;
use serde_json::{json, Value};

pub fn next(turn: &Turn) -> Next {
    let Some(target) = &turn.target else {
        return Next::Say(
            "Similaires à quelle demande ? Donnez sa référence (« D-2025-00043 ») ou ouvrez la \
             conversation depuis la demande."
                .to_string(),
        );
    };
    match turn.json("find_similar_requests") {
        None => Next::call("find_similar_requests", json!({ "request_id": target.id })),
        Some(v) => Next::Say(answer(v)),
    }
}

fn answer(v: &Value) -> String {
    let found = items(v, "similar");
    if found.is_empty() {
        return "Je ne trouve pas de demande passée comparable dans le même pool.".to_string();
    }
    let mut out = "Les demandes passées les plus proches (même pool) :".to_string();
    for s in found {
        out.push_str(&format!(
            "\n- {} : {}",
            text(s, "reference").unwrap_or("?"),
            short(&plain_at(s, "summary").unwrap_or_default(), 140)
        ));
        let venues: Vec<String> = items(s, "catalogue")
            .iter()
            .take(4)
            .map(|p| {
                format!(
                    "{} ({})",
                    plain_at(p, "name").unwrap_or_default(),
                    text(p, "code").unwrap_or("?")
                )
            })
            .collect();
        if !venues.is_empty() {
            out.push_str(&format!(" — catalogue : {}", venues.join(", ")));
        }
    }
    out
}
