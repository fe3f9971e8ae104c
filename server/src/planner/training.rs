//! « Qu'a-t-on appris ? », « les consignes pour les soirées »:
//! `search_training`, then the verdicts and the directives the team gave.
use super::answer::{date, one_sentence, plural};
use super::results::{self, Session};
use super::step::Next;
use super::turn::Turn;
use super::words::words;
use serde_json::{json, Map, Value};

/// Event types as `search_training` files them, and the words naming them.
#[rustfmt::skip]
const EVENT_TYPES: &[(&str, &[&str])] = &[
    ("seminaire", &["seminaire", "seminaires", "seminar"]),
    ("soiree", &["soiree", "soirees", "party", "fete", "festif", "festive", "festives"]),
    ("diner", &["diner", "diners", "dinner"]),
    ("dejeuner", &["dejeuner", "dejeuners", "lunch"]),
    ("cocktail", &["cocktail", "cocktails"]),
    ("conference", &["conference", "conferences"]),
    ("formation", &["formation", "formations"]),
    ("reunion", &["reunion", "reunions", "meeting"]),
    ("mariage", &["mariage", "mariages", "wedding"]),
];

/// Words that only ask for the training, not what about.
#[rustfmt::skip]
const ASKING: &[&str] = &[
    "qu", "a", "t", "on", "appris", "apprend", "quelles", "quels", "sont", "les", "des", "de",
    "du", "la", "le", "consigne", "consignes", "training", "trainings", "directive",
    "directives", "montre", "donne", "liste", "nos", "what", "did", "we", "learn", "learned",
    "pour", "sur", "l", "d", "entrainement", "lecons", "verdicts", "moi", "me", "en", "avons",
    "nous", "quoi", "ce", "que", "equipe", "the", "team",
];

pub fn next(turn: &Turn) -> Next {
    match turn.json("search_training") {
        None => Next::call("search_training", input(&turn.text)),
        Some(v) => Next::Say(answer(&results::sessions(v))),
    }
}

/// The event type and the topic the text names, if any.
pub fn input(text: &str) -> Value {
    let w = words(text);
    let mut input = Map::new();
    if let Some((kind, _)) = EVENT_TYPES
        .iter()
        .find(|(_, names)| w.iter().any(|x| names.contains(&x.as_str())))
    {
        input.insert("event_type".into(), json!(kind));
    }
    if w.iter().any(|x| !ASKING.contains(&x.as_str())) {
        input.insert("text".into(), json!(text.trim()));
    }
    Value::Object(input)
}

fn answer(sessions: &[Session]) -> String {
    if sessions.is_empty() {
        return "Aucune session d'entraînement ne correspond.".to_string();
    }
    let mut out = format!(
        "{} :",
        plural(
            sessions.len(),
            "session d'entraînement",
            "sessions d'entraînement"
        )
    );
    for s in sessions {
        let mut line = format!(
            "\n- {}",
            app::fr::capitalized(app::fr::training_verdict(&s.verdict))
        );
        // The kind of event in the team's words, never its key.
        let kind = s.event_type.as_deref().map(app::event_types::label);
        let category = s.category.as_deref().map(app::fr::training_category);
        let about: Vec<&str> = [s.member_code.as_deref(), kind.as_deref(), category]
            .into_iter()
            .flatten()
            .collect();
        if !about.is_empty() {
            line.push_str(&format!(" ({})", about.join(", ")));
        }
        if let Some(when) = &s.created_at {
            line.push_str(&format!(", {}", date(when)));
        }
        if let Some(reason) = &s.reason {
            line.push_str(&format!(" : {}", one_sentence(reason)));
        }
        if let Some(trigger) = &s.trigger {
            line.push_str(&format!("\n  Consigne « {trigger} »"));
            if !s.prefer.is_empty() {
                line.push_str(&format!(" : préférer {}", s.prefer.join(", ")));
            }
            if !s.avoid.is_empty() {
                line.push_str(&format!(" ; éviter {}", s.avoid.join(", ")));
            }
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_alone_has_no_topic() {
        assert_eq!(input("Qu'a-t-on appris ?"), json!({}));
        assert_eq!(
            input("les consignes pour les soirées festives en jardin"),
            json!({"event_type": "soiree", "text": "les consignes pour les soirées festives en jardin"})
        );
    }
}
