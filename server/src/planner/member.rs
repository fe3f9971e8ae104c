//! « #102 », « fiche complète de #157 »: one venue's sheet (`get_member`)
//! or its whole sheet (`get_member_full`), described with its rooms and
//! their capacities. The venue's own texts are quoted briefly, as data.
use super::answer::{layout, number, short};
use super::results::{items, plain_at, strings, text};
use super::step::{Call, Next};
use super::turn::Turn;
use serde_json::{json, Value};

pub fn next(turn: &Turn, codes: &[String], full: bool) -> Next {
    let tool = if full {
        "get_member_full"
    } else {
        "get_member"
    };
    let calls: Vec<Call> = codes
        .iter()
        .map(|code| Call {
            name: tool,
            input: json!({ "code": code }),
        })
        .filter(|c| !turn.made(c.name, &c.input))
        .collect();
    if !calls.is_empty() {
        return Next::Call(calls);
    }
    let sheets: Vec<String> = turn
        .steps
        .iter()
        .filter(|s| s.name == tool)
        .filter_map(|s| match &s.outcome {
            super::turn::Outcome::Json(v) => Some(describe(v.get("member").unwrap_or(v), full)),
            _ => None,
        })
        .collect();
    if sheets.is_empty() {
        return Next::Say("Je n'ai pas pu lire la fiche de ce lieu.".to_string());
    }
    Next::Say(sheets.join("\n\n"))
}

fn describe(m: &Value, full: bool) -> String {
    let code = text(m, "code").unwrap_or("?");
    let mut out = format!("{} ({code})", text(m, "name").unwrap_or(code));
    let place: Vec<&str> = [text(m, "city"), text(m, "postal_code")]
        .into_iter()
        .flatten()
        .collect();
    if !place.is_empty() {
        out.push_str(&format!(", {}", place.join(" ")));
    }
    if let Some(pool) = text(m, "pool") {
        out.push_str(&format!(" — pool {}", super::pools::name_of(pool)));
    }
    let rooms = items(m, "rooms");
    out.push_str(&format!(
        "\n{} :",
        if rooms.is_empty() {
            "Aucune salle renseignée"
        } else {
            "Salles"
        }
    ));
    for room in rooms {
        out.push_str(&format!("\n- {}", text(room, "name").unwrap_or("Salle")));
        let capacities: Vec<String> = room
            .get("capacities")
            .and_then(Value::as_object)
            .map(|c| {
                c.iter()
                    .filter_map(|(k, v)| Some(format!("{} {}", layout(k), number(v.as_u64()?))))
                    .collect()
            })
            .unwrap_or_default();
        if !capacities.is_empty() {
            out.push_str(&format!(" : {}", capacities.join(", ")));
        }
    }
    if let Some(d) = plain_at(m, "description") {
        out.push_str(&format!(
            "\nDescription (texte du lieu) : « {} »",
            short(&d, 240)
        ));
    }
    if full {
        out.push_str(&extras(m));
    }
    out
}

/// « Chambres sur place : 35 », « DJ autorisé : non »: in words, never a
/// key or `true`.
fn attribute(label: &str, key: &str, value: &Value) -> String {
    // « Restauration (in : interne, …) »: the legend is for the admin page.
    let label = label.split(" (").next().unwrap_or(label).trim();
    let shown = match value {
        Value::Bool(true) => "oui".to_string(),
        Value::Bool(false) => "non".to_string(),
        Value::Number(n) => n.as_u64().map_or_else(|| n.to_string(), number),
        Value::String(s) => {
            let text = super::results::plain(s);
            match (key, text.as_str()) {
                ("catering", "in") => "traiteur interne".to_string(),
                ("catering", "out") => "traiteur libre".to_string(),
                ("catering", "both") => "traiteur interne ou libre".to_string(),
                _ => short(&text, 60),
            }
        }
        other => short(&other.to_string(), 60),
    };
    format!("{label} : {shown}")
}

/// What only the full sheet has: attributes, tags, the team's knowledge.
fn extras(m: &Value) -> String {
    let mut out = String::new();
    if let Some(attributes) = m.get("attributes").and_then(Value::as_object) {
        let labels = m.get("attribute_labels");
        let shown: Vec<String> = attributes
            .iter()
            .take(12)
            .map(|(k, v)| {
                let label = labels
                    .and_then(|l| l.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or(k);
                attribute(label, k, v)
            })
            .collect();
        if !shown.is_empty() {
            out.push_str(&format!("\nAttributs : {}.", shown.join(" ; ")));
        }
    }
    let tags = strings(m, "tags");
    if !tags.is_empty() {
        // Tags are written as slugs (« accessible-pmr »); read as words.
        let words: Vec<String> = tags.iter().map(|t| app::fr::tag(t)).collect();
        out.push_str(&format!("\nTags : {}.", words.join(", ")));
    }
    let knowledge = items(m, "knowledge");
    if !knowledge.is_empty() {
        out.push_str("\nCe que l'équipe sait :");
        for entry in knowledge.iter().take(5) {
            let title = plain_at(entry, "title").unwrap_or_default();
            let content = plain_at(entry, "content").unwrap_or_default();
            out.push_str(&format!(
                "\n- {} : {}",
                short(&title, 80),
                short(&content, 160)
            ));
        }
    }
    out
}
