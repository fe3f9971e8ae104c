//! Which request the user means: a number in the message (« demande #12 »,
//! « request 12 »), a reference (« D-2026-00042 »), else the conversation's
//! request, named by the system prompt line
//! `DEMANDE EN COURS : id=<id> référence=<reference>`.
use super::codes::{is_number, mentions_request};
use super::words::words;

/// The request a workflow works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub id: i64,
    /// A reference the user typed that the conversation does not know:
    /// `get_request` reads it by reference first (`plan`), and `id` is the
    /// request's only then (`turn::resolve`); until, a guess from its number.
    pub unverified_reference: Option<String>,
}

/// The marker the agent writes in the system prompt.
const MARKER: &str = "DEMANDE EN COURS";

/// The request of the system prompt: (id, reference).
pub fn from_system(system: &str) -> Option<(i64, Option<String>)> {
    let line = system
        .lines()
        .find(|l| l.trim_start().starts_with(MARKER))?;
    let field = |name: &str| {
        line.split_whitespace()
            .find_map(|part| part.strip_prefix(name))
            .map(str::to_string)
    };
    let id = field("id=")?.parse().ok()?;
    let reference = field("référence=").or_else(|| field("reference="));
    Some((id, reference.filter(|r| !r.is_empty())))
}

/// The request `text` names, falling back on the system prompt's.
pub fn find(system: &str, text: &str) -> Option<Target> {
    let conversation = from_system(system);
    let w = words(text);
    if let Some(id) = number_after_request_word(&w) {
        return Some(Target {
            id,
            unverified_reference: None,
        });
    }
    if let Some((reference, number)) = reference(&w) {
        if let Some((id, Some(known))) = &conversation {
            if known.eq_ignore_ascii_case(&reference) {
                return Some(Target {
                    id: *id,
                    unverified_reference: None,
                });
            }
        }
        return Some(Target {
            id: number,
            unverified_reference: Some(reference),
        });
    }
    conversation.map(|(id, _)| Target {
        id,
        unverified_reference: None,
    })
}

/// True when the words point at one request: its reference, « demande
/// #12 », or « la demande » / « cette demande ».
pub fn names_a_request(w: &[String]) -> bool {
    reference(w).is_some()
        || number_after_request_word(w).is_some()
        || w.iter()
            .any(|x| matches!(x.as_str(), "demande" | "dossier" | "request"))
}

/// « demande #12 », « demande n° 12 », « request 12 ».
fn number_after_request_word(w: &[String]) -> Option<i64> {
    for i in 0..w.len() {
        if !mentions_request(&w[i..=i]) {
            continue;
        }
        let mut j = i + 1;
        while j < w.len() && j <= i + 2 && matches!(w[j].as_str(), "#" | "n" | "no" | "numero") {
            j += 1;
        }
        if let Some(n) = w.get(j).filter(|n| is_number(n) && n.len() <= 12) {
            if let Ok(id) = n.parse::<i64>() {
                if id > 0 {
                    return Some(id);
                }
            }
        }
    }
    None
}

/// A reference « D-2026-00042 » (folded to `d 2026 00042`): the reference
/// as the app writes it, and its number (the app numbers references with
/// the request's id).
fn reference(w: &[String]) -> Option<(String, i64)> {
    w.windows(3).find_map(|t| {
        let ok = t[0] == "d"
            && t[1].len() == 4
            && is_number(&t[1])
            && is_number(&t[2])
            && t[2].len() <= 12;
        let id: i64 = t[2].parse().ok().filter(|_| ok)?;
        (id > 0).then(|| (format!("D-{}-{}", t[1], t[2]), id))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYSTEM: &str = "Tu es Maxy.\nDEMANDE EN COURS : id=42 référence=D-2026-00042\nRègles…";

    #[test]
    fn the_system_prompt_names_the_conversation_request() {
        assert_eq!(from_system(SYSTEM), Some((42, Some("D-2026-00042".into()))));
        assert_eq!(from_system("rien"), None);
        assert_eq!(from_system("DEMANDE EN COURS : id=abc"), None);
        assert_eq!(
            find(SYSTEM, "qualifie cette demande"),
            Some(Target {
                id: 42,
                unverified_reference: None
            })
        );
    }

    #[test]
    fn the_message_wins_over_the_conversation() {
        assert_eq!(
            find(SYSTEM, "qualifie la demande #12").map(|t| t.id),
            Some(12)
        );
        assert_eq!(find("", "qualifie la demande n° 7").map(|t| t.id), Some(7));
        assert_eq!(
            find(SYSTEM, "les mails de d-2026-00042"),
            Some(Target {
                id: 42,
                unverified_reference: None
            })
        );
        assert_eq!(
            find(SYSTEM, "qualifie D-2025-00017"),
            Some(Target {
                id: 17,
                unverified_reference: Some("D-2025-00017".into())
            })
        );
        assert_eq!(find("", "qualifie cette demande"), None);
    }
}
