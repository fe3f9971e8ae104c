//! The model's JSON answer, validated before anything of it is shown:
//! `{"recommended": [{"memberCode", "explanation"}], "compatible": […],
//! "rejected": [{"memberCode", "reason"}]}`, optionally inside a ```json fence.
//!
//! Codes must be among the finalists shown (others are dropped), a venue
//! appears once across the tiers (its first place wins), each tier keeps at
//! most four, and every explanation is one non-empty sentence of at most
//! [`MAX_EXPLANATION_CHARS`]. Items dropped this way are reported, not
//! fatal; an answer that is not that JSON, or whose every pick was
//! dropped, is unusable.
use serde_json::Value;

pub const PER_TIER: usize = 4;
pub const MAX_EXPLANATION_CHARS: usize = 300;

/// One venue the model placed, with its sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub member_id: i64,
    pub code: String,
    /// The explanation (picks) or the reason (rejections).
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ranking {
    pub recommended: Vec<Choice>,
    pub compatible: Vec<Choice>,
    pub rejected: Vec<Choice>,
}

#[derive(Debug, PartialEq)]
pub struct Parsed {
    pub ranking: Ranking,
    /// What was left out and why, for the logs.
    pub dropped: Vec<String>,
}

/// `known`: (code, member id) of the finalists shown to the model.
pub fn parse(text: &str, known: &[(&str, i64)]) -> Result<Parsed, String> {
    let json: Value = serde_json::from_str(crate::llm::unfenced(text))
        .map_err(|e| format!("not JSON ({e}): {}", preview(text)))?;
    let Value::Object(object) = json else {
        return Err(format!("not a JSON object: {}", preview(text)));
    };
    let list = |key: &str, required: bool| -> Result<Vec<Value>, String> {
        match object.get(key) {
            Some(Value::Array(items)) => Ok(items.clone()),
            None | Some(Value::Null) if !required => Ok(Vec::new()),
            Some(_) => Err(format!("\"{key}\" is not a list")),
            None => Err(format!("\"{key}\" is missing")),
        }
    };
    let tiers = [
        (list("recommended", true)?, "explanation", PER_TIER),
        (list("compatible", true)?, "explanation", PER_TIER),
        (list("rejected", false)?, "reason", known.len()),
    ];
    let listed_picks = tiers[0].0.len() + tiers[1].0.len();
    let mut seen: Vec<i64> = Vec::new();
    let mut dropped = Vec::new();
    let mut out: Vec<Vec<Choice>> = Vec::new();
    for (items, text_key, cap) in &tiers {
        let mut kept = Vec::new();
        for item in items {
            match choice(item, text_key, known) {
                Err(why) => dropped.push(why),
                Ok(c) if seen.contains(&c.member_id) => {
                    dropped.push(format!("{} listed twice: its first place is kept", c.code))
                }
                Ok(c) if kept.len() >= *cap => {
                    dropped.push(format!("{} beyond the {cap} allowed in its tier", c.code))
                }
                Ok(c) => {
                    seen.push(c.member_id);
                    kept.push(c);
                }
            }
        }
        out.push(kept);
    }
    let rejected = out.pop().unwrap_or_default();
    let compatible = out.pop().unwrap_or_default();
    let recommended = out.pop().unwrap_or_default();
    if listed_picks > 0 && recommended.is_empty() && compatible.is_empty() {
        return Err(format!(
            "none of the {listed_picks} picks is usable: {}",
            dropped.join("; ")
        ));
    }
    Ok(Parsed {
        ranking: Ranking {
            recommended,
            compatible,
            rejected,
        },
        dropped,
    })
}

fn choice(item: &Value, text_key: &str, known: &[(&str, i64)]) -> Result<Choice, String> {
    let Some(raw) = item.get("memberCode").and_then(Value::as_str) else {
        return Err(format!(
            "an item without a memberCode: {}",
            preview(&item.to_string())
        ));
    };
    let code = normalise_code(raw);
    let Some((code, member_id)) = known.iter().find(|(k, _)| *k == code) else {
        return Err(format!("{} is not among the finalists", preview(raw)));
    };
    let text = item
        .get(text_key)
        .and_then(Value::as_str)
        .and_then(one_sentence)
        .ok_or_else(|| format!("{code} has no {text_key}"))?;
    Ok(Choice {
        member_id: *member_id,
        code: code.to_string(),
        text,
    })
}

/// "#102", " #102 " and "102" name the same venue.
fn normalise_code(raw: &str) -> String {
    let code = raw.trim();
    if !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit()) {
        format!("#{code}")
    } else {
        code.to_string()
    }
}

/// The first sentence, whitespace collapsed, at most
/// [`MAX_EXPLANATION_CHARS`]; `None` when nothing is left.
pub fn one_sentence(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let flat: String = words
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let chars: Vec<char> = flat.chars().collect();
    // A sentence ends at . ! ? followed by a space and a capital ("env. 200 m" goes on).
    let end = (0..chars.len().saturating_sub(2))
        .find(|&i| {
            matches!(chars[i], '.' | '!' | '?')
                && chars[i + 1] == ' '
                && chars[i + 2].is_uppercase()
        })
        .map_or(chars.len(), |i| i + 1);
    let sentence: String = chars[..end].iter().collect();
    let sentence = sentence.trim();
    if sentence.is_empty() {
        return None;
    }
    if sentence.chars().count() <= MAX_EXPLANATION_CHARS {
        return Some(sentence.to_string());
    }
    let cut: String = sentence.chars().take(MAX_EXPLANATION_CHARS - 1).collect();
    let cut = match cut.rsplit_once(' ') {
        Some((head, _)) if head.chars().count() > MAX_EXPLANATION_CHARS / 2 => head,
        _ => cut.as_str(),
    };
    Some(format!("{}…", cut.trim_end_matches([' ', ',', ';', ':'])))
}

/// The start of a text, for error messages and logs.
fn preview(text: &str) -> String {
    let short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: [(&str, i64); 10] = [
        ("#1", 1),
        ("#2", 2),
        ("#3", 3),
        ("#4", 4),
        ("#5", 5),
        ("#6", 6),
        ("#7", 7),
        ("#8", 8),
        ("#9", 9),
        ("#10", 10),
    ];

    fn codes(c: &[Choice]) -> Vec<&str> {
        c.iter().map(|c| c.code.as_str()).collect()
    }

    #[test]
    fn a_fenced_answer_is_read() {
        let text = "```json\n{\"recommended\":[{\"memberCode\":\"#2\",\"explanation\":\" Belle  vue.\"}],\n\"compatible\":[{\"memberCode\":\"3\",\"explanation\":\"Proche.\"}],\"rejected\":[{\"memberCode\":\"#4\",\"reason\":\"Trop petit.\"}]}\n```";
        let p = parse(text, &KNOWN).unwrap();
        assert_eq!(codes(&p.ranking.recommended), ["#2"]);
        assert_eq!(p.ranking.recommended[0].text, "Belle vue.");
        assert_eq!(codes(&p.ranking.compatible), ["#3"]);
        assert_eq!(p.ranking.compatible[0].member_id, 3);
        assert_eq!(codes(&p.ranking.rejected), ["#4"]);
        assert!(p.dropped.is_empty());
    }

    #[test]
    fn unknown_duplicate_and_surplus_codes_are_dropped() {
        let pick = |c: &str| format!("{{\"memberCode\":\"{c}\",\"explanation\":\"Bien.\"}}");
        let rec: Vec<String> = ["#1", "#999", "#2", "#1", "#3", "#4", "#5"]
            .iter()
            .map(|c| pick(c))
            .collect();
        let com: Vec<String> = ["#2", "#6", "#7"].iter().map(|c| pick(c)).collect();
        let text = format!(
            "{{\"recommended\":[{}],\"compatible\":[{}],\"rejected\":[{{\"memberCode\":\"#6\",\"reason\":\"x\"}}]}}",
            rec.join(","),
            com.join(",")
        );
        let p = parse(&text, &KNOWN).unwrap();
        assert_eq!(codes(&p.ranking.recommended), ["#1", "#2", "#3", "#4"]);
        assert_eq!(codes(&p.ranking.compatible), ["#6", "#7"]);
        assert!(p.ranking.rejected.is_empty(), "#6 is already a pick");
        assert_eq!(p.dropped.len(), 5, "{:?}", p.dropped);
    }

    #[test]
    fn unusable_answers_are_refused() {
        for text in [
            "Voici mon classement : #1, #2.",
            "[]",
            "{\"compatible\": []}",
            "{\"recommended\": {}, \"compatible\": []}",
            "{\"recommended\":[{\"memberCode\":\"#42\",\"explanation\":\"x\"}],\"compatible\":[]}",
            "{\"recommended\":[{\"memberCode\":\"#1\",\"explanation\":\"  \"}],\"compatible\":[]}",
        ] {
            assert!(parse(text, &KNOWN).is_err(), "{text}");
        }
        let none = parse("{\"recommended\":[],\"compatible\":[]}", &KNOWN).unwrap();
        assert_eq!(
            none.ranking,
            Ranking::default(),
            "nothing convincing is an answer"
        );
    }

    #[test]
    fn explanations_become_one_short_sentence() {
        assert_eq!(
            one_sentence("Salle de 120 places à env. 300 m. Ignore le reste!").as_deref(),
            Some("Salle de 120 places à env. 300 m.")
        );
        assert_eq!(one_sentence(" \n\t ").as_deref(), None);
        let long = one_sentence(&"mot ".repeat(200)).unwrap();
        assert!(long.chars().count() <= MAX_EXPLANATION_CHARS, "{long}");
        assert!(long.ends_with("mot…"), "{long}");
        let unbroken = one_sentence(&"x".repeat(500)).unwrap();
        assert_eq!(unbroken.chars().count(), MAX_EXPLANATION_CHARS);
    }
}
