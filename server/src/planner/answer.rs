//! Writing French for the team, and streaming it as a model would: the
//! answer in small text deltas (a few words each), tool calls as a start
//! and their whole input, then one `Finished` with the whole answer.
use super::results::Pick;
use super::PLANNER_MODEL;
use crate::llm::{Block, ChatAnswer, ChatEvent, StopReason, Usage};
use std::time::Duration;

/// Words per text delta.
const WORDS_PER_DELTA: usize = 4;

/// The events of one answer, `Started` to `Finished`.
pub fn events(content: Vec<Block>, stop_reason: StopReason, latency: Duration) -> Vec<ChatEvent> {
    let mut out = vec![ChatEvent::Started {
        model: PLANNER_MODEL.to_string(),
        usage: Usage::default(),
    }];
    for block in &content {
        match block {
            Block::Text { text } => out.extend(
                chunks(text)
                    .into_iter()
                    .map(|text| ChatEvent::TextDelta { text }),
            ),
            Block::ToolUse { id, name, input } => {
                out.push(ChatEvent::ToolUseStart {
                    id: id.clone(),
                    name: name.clone(),
                });
                out.push(ChatEvent::ToolInputDelta {
                    id: id.clone(),
                    partial_json: input.to_string(),
                });
            }
            Block::ToolResult { .. } => {}
        }
    }
    out.push(ChatEvent::Finished(ChatAnswer {
        model: PLANNER_MODEL.to_string(),
        content,
        usage: Usage::default(),
        stop_reason,
        latency,
    }));
    out
}

/// `text` in pieces of a few words; joined, they give `text` back.
pub fn chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut words = 0;
    let mut in_word = false;
    for c in text.chars() {
        let space = c.is_whitespace();
        if !space && !in_word {
            if words == WORDS_PER_DELTA {
                out.push(std::mem::take(&mut current));
                words = 0;
            }
            words += 1;
        }
        in_word = !space;
        current.push(c);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// 1234 → « 1 234 » (no-break spaces between thousands).
pub fn number(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{a0}');
        }
        out.push(c);
    }
    out
}

/// `2026-03-12T09:30:00Z` → « 12/03/2026 »; anything else as it is.
pub fn date(iso: &str) -> String {
    let d = iso.get(..10).unwrap_or(iso);
    let parts: Vec<&str> = d.split('-').collect();
    match parts.as_slice() {
        [y, m, dd] if y.len() == 4 && m.len() == 2 && dd.len() == 2 => format!("{dd}/{m}/{y}"),
        _ => iso.to_string(),
    }
}

/// Third-party or long text made short and on one line, to quote.
pub fn short(text: &str, max_chars: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max_chars {
        return line;
    }
    let cut: String = line.chars().take(max_chars).collect();
    format!("{}…", cut.trim_end())
}

/// The first sentence of `text`, short, ending with a full stop.
pub fn one_sentence(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = line
        .char_indices()
        .find(|(i, c)| {
            matches!(c, '.' | '!' | '?' | ';') && line[i + c.len_utf8()..].starts_with(' ')
        })
        .map_or(line.len(), |(i, _)| i);
    // Long enough for the search's own reasons (room, distance, what the
    // sheet says, history, a caveat: about 280 characters at most).
    let first = short(line[..end].trim_end_matches(['.', ' ']), 320);
    if first.is_empty() || first.ends_with('…') {
        first
    } else {
        format!("{first}.")
    }
}

/// The label of a layout key (`theatre` → « théâtre »).
pub fn layout(key: &str) -> String {
    app::room_configurations::label_of(key).to_string()
}

/// « 3 lieux », « 1 lieu ».
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", number(n as u64), if n == 1 { one } else { many })
}

/// One line per venue: name, code, city, matched room, reason.
pub fn pick_line(p: &Pick) -> String {
    let mut line = format!("- {} ({}", p.name, p.code);
    match (&p.city, &p.postal_code) {
        (Some(city), Some(pc)) => line.push_str(&format!(", {city} {pc}")),
        (Some(city), None) => line.push_str(&format!(", {city}")),
        (None, Some(pc)) => line.push_str(&format!(", {pc}")),
        (None, None) => {}
    }
    line.push(')');
    // The search's reason opens with the room (« Salle « Mezzanine » : 84
    // places en cocktail… »): said once, by the reason.
    let reason = p.reason.as_deref().map(one_sentence);
    let room_name = p.room.as_ref().and_then(|room| room.name.as_deref());
    if let (Some(name), Some(reason)) = (room_name, &reason) {
        if reason.contains(&format!("« {name} »")) {
            line.push_str(&format!(" — {reason}"));
            return line;
        }
    }
    if let Some(room) = &p.room {
        let name = room.name.as_deref().unwrap_or("salle");
        line.push_str(&format!(" — {name}"));
        if let Some(cap) = room.capacity {
            line.push_str(&format!(", {} personnes", number(cap)));
            if let Some(conf) = &room.configuration {
                line.push_str(&format!(" {}", app::room_configurations::phrase_of(conf)));
            }
        }
    }
    if let Some(reason) = reason {
        line.push_str(&format!(" : {reason}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_that_names_the_room_says_it_alone() {
        let found = super::super::results::Search::read(&serde_json::json!({"recommended": [{
            "code": "#203", "name": "Le Caveau", "city": "Paris", "postal_code": "75005",
            "matched_room": {"id": 1, "name": "Mezzanine", "configuration": "cocktail", "capacity": 84},
            "reason": "Salle « Mezzanine » : 84 places en cocktail pour 60 personnes, à 2,2 km.",
        }]}));
        assert_eq!(
            pick_line(&found.recommended[0]),
            "- Le Caveau (#203, Paris 75005) — Salle « Mezzanine » : 84 places en cocktail pour 60 personnes, à 2,2 km."
        );
    }

    #[test]
    fn a_room_in_u_reads_en_u_once() {
        let found = super::super::results::Search::read(&serde_json::json!({"recommended": [{
            "code": "#153", "name": "Cap Europe", "city": "Paris", "postal_code": "75008",
            "matched_room": {"id": 1, "name": "Salle Lavoisier", "configuration": "u", "capacity": 53},
        }]}));
        assert_eq!(
            pick_line(&found.recommended[0]),
            "- Cap Europe (#153, Paris 75008) — Salle Lavoisier, 53 personnes en U"
        );
    }

    #[test]
    fn chunks_give_the_text_back_a_few_words_at_a_time() {
        let text = "J'ai préparé 8 lieux (4 recommandés + 4 compatibles) ;\n- validez la carte.";
        let parts = chunks(text);
        assert_eq!(parts.concat(), text);
        assert!(parts.len() >= 3);
        assert!(parts
            .iter()
            .all(|p| p.split_whitespace().count() <= WORDS_PER_DELTA));
        assert!(chunks("").is_empty());
    }

    #[test]
    fn french_numbers_dates_and_sentences() {
        assert_eq!(number(1234), "1\u{a0}234");
        assert_eq!(number(12), "12");
        assert_eq!(number(1_000_000), "1\u{a0}000\u{a0}000");
        assert_eq!(date("2026-03-12T09:30:00Z"), "12/03/2026");
        assert_eq!(date("hier"), "hier");
        assert_eq!(
            one_sentence("Grand rooftop. Vue sur Paris."),
            "Grand rooftop."
        );
        assert_eq!(one_sentence("v1.2 est là"), "v1.2 est là.");
        assert_eq!(short("a  b\nc", 10), "a b c");
        assert_eq!(short("abcdef", 3), "abc…");
        let long = "mot ".repeat(100);
        assert!(
            one_sentence(&long).ends_with('…'),
            "no full stop after the ellipsis"
        );
    }
}
