//! A conversation's title, set when its first message creates it: what the
//! request is (« Séminaire 80 pers. · Lyon · mars ») when the conversation
//! is about one, else the first message said shortly (greetings off, at most
//! [`MAX_CHARS`] characters, cut between words). The sidebar is read at a
//! glance: a pasted e-mail verbatim says nothing there.
use crate::db::ai_context::RequestContext;
use app::external_text::for_people;
use chrono::Datelike;

/// The longest title, in characters (the ellipsis included).
pub const MAX_CHARS: usize = 60;

/// « Séminaire 80 pers. · Lyon · mars »: the kind of event and its size,
/// where, and when, as far as the request says; « Demande D-2026-00043 »
/// when it says none of them.
pub fn of_request(request: &RequestContext) -> String {
    let what = match (request.event_type.as_deref(), request.participants) {
        (Some(kind), Some(n)) if !kind.trim().is_empty() => Some(format!(
            "{} {n} pers.",
            app::fr::capitalized(&app::event_types::label(kind))
        )),
        (Some(kind), None) if !kind.trim().is_empty() => {
            Some(app::fr::capitalized(&app::event_types::label(kind)))
        }
        (_, Some(n)) => Some(format!("{n} pers.")),
        _ => None,
    };
    let area = request
        .area
        .as_deref()
        .map(|a| flat(&for_people(a)))
        .filter(|a| !a.is_empty());
    let month = request
        .event_start_date
        .and_then(|d| app::fr::MONTHS.get(d.month0() as usize))
        .map(|m| m.to_string());
    let parts: Vec<String> = [what, area, month].into_iter().flatten().collect();
    if parts.is_empty() {
        return format!("Demande {}", request.reference);
    }
    shortened(&parts.join(" · "))
}

/// The first message said shortly: one line, greetings and the assistant's
/// name off the front, capitalised, cut between words.
pub fn of_message(text: &str) -> String {
    let line = flat(&for_people(text));
    let mut rest = line.as_str();
    loop {
        let trimmed = rest.trim_start_matches([' ', ',', '!', '.', ';', ':', '-']);
        let lower = trimmed.to_lowercase();
        let greeting = ["bonjour", "bonsoir", "salut", "hello", "coucou", "maxy"]
            .into_iter()
            .find(|g| {
                lower.starts_with(g)
                    && !lower[g.len()..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphanumeric)
            });
        match greeting {
            // The greetings are ASCII: their length in `lower` is theirs in `trimmed`.
            Some(g) if trimmed.is_char_boundary(g.len()) => rest = &trimmed[g.len()..],
            _ => {
                rest = trimmed;
                break;
            }
        }
    }
    let said = if rest.is_empty() { line.as_str() } else { rest };
    shortened(&app::fr::capitalized(said))
}

/// Whitespace runs (new lines included) as one space.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most [`MAX_CHARS`] characters: cut at the last space that leaves room
/// for « … » (mid-word only when one word is longer than that).
fn shortened(text: &str) -> String {
    if text.chars().count() <= MAX_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_CHARS - 1).collect();
    let cut = match head.rfind(' ') {
        Some(space) if space > 0 => &head[..space],
        _ => head.as_str(),
    };
    format!("{}…", cut.trim_end_matches([' ', ',', ';', ':', '·', '-']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(
        event_type: Option<&str>,
        participants: Option<i32>,
        area: Option<&str>,
        month: Option<u32>,
    ) -> RequestContext {
        RequestContext {
            id: 43,
            reference: "D-2026-00043".into(),
            pool_id: 1,
            pool_name: "Hôtels".into(),
            status: "new".into(),
            event_type: event_type.map(str::to_string),
            participants,
            configurations: vec![],
            postal_codes: vec![],
            area: area.map(str::to_string),
            budget_eur: None,
            event_start_date: month.and_then(|m| chrono::NaiveDate::from_ymd_opt(2027, m, 12)),
            description: "Bonjour, nous cherchons…".into(),
            team_memo: None,
            search_hints: None,
        }
    }

    #[test]
    fn a_request_reads_as_what_where_and_when() {
        assert_eq!(
            of_request(&request(Some("seminaire"), Some(80), Some("Lyon"), Some(3))),
            "Séminaire 80 pers. · Lyon · mars"
        );
        assert_eq!(
            of_request(&request(Some("soiree"), None, Some("Paris  8e"), None)),
            "Soirée d'entreprise · Paris 8e"
        );
        assert_eq!(
            of_request(&request(None, Some(120), None, Some(8))),
            "120 pers. · août"
        );
        assert_eq!(
            of_request(&request(None, None, None, None)),
            "Demande D-2026-00043"
        );
    }

    #[test]
    fn a_message_loses_its_greeting_and_is_cut_between_words() {
        assert_eq!(
            of_message("Bonjour Maxy,\n trouve un rooftop pour 80 personnes dans le 8e"),
            "Trouve un rooftop pour 80 personnes dans le 8e"
        );
        assert_eq!(of_message("Salut !"), "Salut !");
        assert_eq!(of_message("Bonjourno"), "Bonjourno");
        let long = of_message(
            "Peux-tu qualifier la demande de la société Vérane pour leur séminaire annuel de printemps à Lyon",
        );
        assert!(long.chars().count() <= MAX_CHARS, "{long}");
        assert!(long.ends_with('…'), "{long}");
        assert!(
            long.starts_with("Peux-tu qualifier la demande de la société Vérane pour"),
            "{long}"
        );
        // Cut between words: what stays before « … » is whole words.
        assert!(!long.contains("printe"), "{long}");
        let word = of_message(&"é".repeat(100));
        assert_eq!(word.chars().count(), MAX_CHARS);
    }

    #[test]
    fn a_wrapper_tag_never_reaches_a_title() {
        let title = of_message(
            "<external_content type=\"email\">\nNous cherchons un lieu\n</external_content>",
        );
        assert_eq!(title, "Nous cherchons un lieu");
    }
}
