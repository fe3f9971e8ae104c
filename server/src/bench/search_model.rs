//! The fake model's answers to the venue search's two calls, as a model
//! that follows their prompts would give them: the request read into the
//! JSON the reading asks for (the rules' reading of the same text), and a
//! ranking that recommends the first four finalists listed and keeps the
//! next four as compatible. A search through `maxy serve` whose model is
//! the fake then makes both calls and has both answers validated, as in
//! production, instead of retrying a chat answer and falling back.
use super::fake_model::{Answer, Script};
use crate::search::{criteria, llm_rank, reading};
use serde_json::{json, Value};
use std::sync::Arc;

/// `chat` answers every call that is neither of the search's.
pub fn answering_searches(chat: Script) -> Script {
    let (reading_system, ranking_system) = (reading::prompt::system(), llm_rank::prompt::system());
    Arc::new(move |body: &Value| {
        let system = system_text(body);
        if system == reading_system {
            Answer::Text(read(&user_text(body)).to_string())
        } else if system == ranking_system {
            Answer::Text(rank(&user_text(body)).to_string())
        } else {
            chat(body)
        }
    })
}

/// The reading's answer: what the rules read in the wrapped request.
fn read(user: &str) -> Value {
    let request = match (
        user.find("<external_content"),
        user.rfind("</external_content>"),
    ) {
        (Some(start), Some(end)) if start < end => {
            app::external_text::for_people(&user[start..end + "</external_content>".len()])
        }
        _ => String::new(),
    };
    let read = criteria::extract(&request);
    json!({
        "participants": read.participants,
        "participants_max": read.participants_max,
        "participants_about": read.participants_about,
        "configurations": read.configurations.iter().map(|c| c.key()).collect::<Vec<_>>(),
        "postal_codes": read.postal_codes,
        "near": read.near.map(|n| json!({"place": n.label, "radius_km": n.radius_km})),
        "member_codes": read.member_codes,
        "broad_area": read.broad_area,
        "semantic_query": read.semantic_query,
    })
}

/// The ranking's answer from the finalists' lines (« [1] #102 — … »).
fn rank(user: &str) -> Value {
    let codes = llm_rank::prompt::listed_codes(user);
    let pick = |code: &&str| json!({"memberCode": code, "explanation": "Jauge et emplacement adaptés à la demande."});
    json!({
        "recommended": codes.iter().take(4).map(pick).collect::<Vec<_>>(),
        "compatible": codes.iter().skip(4).take(4).map(pick).collect::<Vec<_>>(),
        "rejected": [],
    })
}

/// The system prompt, sent as a string or as text blocks.
fn system_text(body: &Value) -> String {
    text_of(&body["system"])
}

/// The first user message's text, sent as a string or as text blocks.
fn user_text(body: &Value) -> String {
    text_of(&body["messages"][0]["content"])
}

/// A string, or the text of a list of content blocks.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .concat(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::external;

    #[test]
    fn the_reading_answer_is_the_rules_reading_and_passes_validation() {
        let text = "rooftop festif dans le 8e pour 100 personnes en cocktail";
        let user = reading::prompt::user(text);
        let answer = read(&user).to_string();
        let parsed = reading::answer::parse(&answer, text).expect("a valid reading");
        assert_eq!(parsed.criteria.participants, Some(100));
        assert_eq!(parsed.criteria.postal_codes, vec!["75008".to_string()]);
        assert!(parsed.dropped.is_empty(), "{:?}", parsed.dropped);
    }

    #[test]
    fn the_ranking_answer_keeps_the_first_eight_listed() {
        let user = format!(
            "Voici 10 lieux candidats :\n{}",
            (1..=10)
                .map(|i| format!(
                    "[{i}] #{} — {}\n",
                    100 + i,
                    external::wrap("venue_name", "Lieu")
                ))
                .collect::<String>()
        );
        let known: Vec<(String, i64)> = (1..=10).map(|i| (format!("#{}", 100 + i), i)).collect();
        let known: Vec<(&str, i64)> = known.iter().map(|(c, i)| (c.as_str(), *i)).collect();
        let parsed =
            llm_rank::answer::parse(&rank(&user).to_string(), &known).expect("a valid ranking");
        let codes =
            |tier: &[llm_rank::Choice]| tier.iter().map(|c| c.code.clone()).collect::<Vec<_>>();
        assert_eq!(
            codes(&parsed.ranking.recommended),
            ["#101", "#102", "#103", "#104"]
        );
        assert_eq!(
            codes(&parsed.ranking.compatible),
            ["#105", "#106", "#107", "#108"]
        );
    }

    #[test]
    fn other_calls_go_to_the_chat_script() {
        let script = answering_searches(Arc::new(|_| Answer::Text("Bonjour".into())));
        let chat = json!({"system": [{"type": "text", "text": "Tu es Maxy."}],
                          "messages": [{"role": "user", "content": "Des lieux ?"}]});
        assert_eq!(script(&chat), Answer::Text("Bonjour".into()));
        let ranking = json!({"system": llm_rank::prompt::system(),
                             "messages": [{"role": "user", "content": "[1] #101 — x"}]});
        assert!(matches!(script(&ranking), Answer::Text(t) if t.contains("#101")));
    }
}
