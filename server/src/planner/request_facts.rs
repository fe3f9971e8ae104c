//! « Combien de participants pour la demande D-2025-00043 ? », « quel
//! budget ? », « où en est la demande ? »: `get_request`, then the facts
//! asked for — each stated from the request as stored, or said missing.
//! Nothing is counted or searched in their place.
use super::answer::{date, layout, number, short};
use super::results::{count, plain_at, strings, text};
use super::step::Next;
use super::the_request;
use super::turn::Turn;
use super::words::{any, phrase, words};
use serde_json::Value;

/// The facts a question can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    Participants,
    Budget,
    When,
    Zone,
    Status,
    Kind,
    Layouts,
    Memo,
}

fn asked(text: &str) -> Vec<Fact> {
    let w = words(text);
    let mut facts = Vec::new();
    let has = |keys: &[&str]| any(&w, keys, &[]);
    // « ils sont combien ? », « combien seront-ils ? »: the head count.
    let how_many_they_are = any(&w, &["combien"], &[])
        && w.iter()
            .any(|x| matches!(x.as_str(), "ils" | "elles" | "seront" | "serons" | "monde"));
    if how_many_they_are
        || has(&[
            "participants",
            "personnes",
            "pax",
            "invites",
            "jauge",
            "nombre",
        ])
    {
        facts.push(Fact::Participants);
    }
    if has(&["budget", "prix", "tarif", "euros"]) {
        facts.push(Fact::Budget);
    }
    if has(&["date", "dates", "quand", "jour"]) {
        facts.push(Fact::When);
    }
    if has(&["zone", "secteur", "postal", "quartier", "ville"])
        || w.iter().any(|x| x == "ou") && !phrase(&w, "ou en est")
    {
        facts.push(Fact::Zone);
    }
    if has(&["statut", "status", "etat"]) || phrase(&w, "ou en est") {
        facts.push(Fact::Status);
    }
    if has(&["type", "evenement", "genre"]) {
        facts.push(Fact::Kind);
    }
    if has(&["configuration", "configurations", "disposition", "format"]) {
        facts.push(Fact::Layouts);
    }
    if has(&["memo", "note", "notes"]) {
        facts.push(Fact::Memo);
    }
    facts
}

/// True when the text asks one of a request's facts (« quel budget ? »,
/// « c'est où ? »): in a conversation opened from a request, that request.
pub fn asks_a_fact(text: &str) -> bool {
    !asked(text).is_empty()
}

pub fn next(turn: &Turn) -> Next {
    let (_, request) = match the_request::read(
        turn,
        "De quelle demande parlez-vous ? Donnez sa référence (« D-2025-00043 ») ou ouvrez la \
         conversation depuis la page de la demande.",
    ) {
        Ok(read) => read,
        Err(first) => return first,
    };
    Next::Say(answer(request, &asked(&turn.text)))
}

fn answer(r: &Value, asked: &[Fact]) -> String {
    let reference = text(r, "reference").unwrap_or("?");
    let all = [
        Fact::Status,
        Fact::Kind,
        Fact::Participants,
        Fact::Layouts,
        Fact::When,
        Fact::Zone,
        Fact::Budget,
    ];
    let facts: &[Fact] = if asked.is_empty() { &all } else { asked };
    let lines: Vec<String> = facts.iter().map(|f| fact(r, *f)).collect();
    let id = count(r, "id").unwrap_or(0);
    if lines.len() == 1 {
        return format!(
            "Demande {reference} : {}.\n\nLa demande : /demandes/{id}",
            lines[0]
        );
    }
    format!(
        "Demande {reference} :\n{}\n\nLa demande : /demandes/{id}",
        lines
            .iter()
            .map(|l| format!("- {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}

fn fact(r: &Value, f: Fact) -> String {
    match f {
        Fact::Participants => match count(r, "participants") {
            Some(n) => format!("{} participants", number(n)),
            None => "nombre de participants non renseigné".into(),
        },
        Fact::Budget => match count(r, "budget_eur") {
            Some(n) => format!("budget {}\u{a0}€", number(n)),
            None => "budget non renseigné".into(),
        },
        Fact::When => match text(r, "event_start_date") {
            Some(d) => format!("événement le {}", date(d)),
            None => "date non renseignée".into(),
        },
        Fact::Zone => {
            let area = plain_at(r, "area");
            let codes = strings(r, "postal_codes");
            match (area, codes.is_empty()) {
                (Some(a), false) => format!("zone {} ({})", short(&a, 80), codes.join(", ")),
                (Some(a), true) => format!("zone {}", short(&a, 80)),
                (None, false) => format!("codes postaux {}", codes.join(", ")),
                (None, true) => "zone non renseignée".into(),
            }
        }
        Fact::Status => format!(
            "statut : {}",
            text(r, "status")
                .map(app::requests::status_label)
                .unwrap_or("inconnu")
                .to_lowercase()
        ),
        Fact::Kind => match plain_at(r, "event_type") {
            Some(k) => format!("type d'événement : {}", app::event_types::label(&k)),
            None => "type d'événement non renseigné".into(),
        },
        Fact::Layouts => {
            let layouts: Vec<String> = strings(r, "configurations")
                .iter()
                .map(|c| layout(c))
                .collect();
            if layouts.is_empty() {
                "configurations non renseignées".into()
            } else {
                format!("configurations : {}", layouts.join(", "))
            }
        }
        Fact::Memo => match plain_at(r, "team_memo") {
            Some(m) => format!("mémo de l'équipe : « {} »", short(&m, 300)),
            None => "pas de mémo".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_fact_asked_and_only_it() {
        let r = json!({"id": 43, "reference": "D-2025-00043", "participants": 60, "budget_eur": null, "status": "qualifying"});
        assert_eq!(
            answer(
                &r,
                &asked("combien de participants pour la demande D-2025-00043 ?")
            ),
            "Demande D-2025-00043 : 60 participants.\n\nLa demande : /demandes/43"
        );
        let both = answer(&r, &asked("participants et budget de la demande ?"));
        assert!(
            both.contains("- 60 participants") && both.contains("- budget non renseigné"),
            "{both}"
        );
        assert!(answer(&r, &asked("où en est la demande ?")).contains("statut : en qualification"));
    }
}
