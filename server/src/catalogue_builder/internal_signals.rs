//! What the team knows about a venue and the organizer must never read:
//! team favourite, times proposed, response time, training moves. These
//! signals belong in the builder's internal note, never in a pick's reason.
//!
//! Reasons written before this rule (the search's sentences, the offline
//! planner's « (favori de l'équipe) », the demo's « Favori de l'équipe : »)
//! are stored with such fragments, some on catalogues already sent: every
//! reason is split at display time, so the organizer page never shows them
//! and the builder moves them to the note.
use crate::db::venue_search::Signals;

/// Whether one fragment of a sentence (« déjà proposé 2 fois ») is an
/// internal signal.
fn is_internal(fragment: &str) -> bool {
    let f = fragment.to_lowercase().replace('’', "'");
    let has = |s: &str| f.contains(s);
    has("favori de l'équipe")
        || has("favori équipe")
        || has("déjà proposé")
        || (has("répond en ") && has("en général"))
        || has("répond peu")
        || (has("répond à ") && has("des demandes"))
        || has("par l'équipe")
        || has("retours de l'équipe")
        || f.trim_start().starts_with("consigne")
        || f.trim_start().starts_with("historique :")
}

/// The fragment without the joining word that tied it to the sentence
/// (« mais », « et », « bémol : »), as the note shows it.
fn bare(fragment: &str) -> String {
    let mut f = fragment.trim().trim_end_matches('.').trim();
    for lead in ["mais ", "et ", "bémol : "] {
        if let Some(rest) = f.strip_prefix(lead) {
            f = rest.trim();
        }
    }
    f.to_string()
}

/// Splits `text` on `sep`, keeping each piece with the separator before it.
fn pieces<'a>(text: &'a str, seps: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    let (mut rest, mut before) = (text, "");
    loop {
        let next = seps
            .iter()
            .filter_map(|s| rest.find(s).map(|at| (at, *s)))
            .min_by_key(|(at, _)| *at);
        match next {
            Some((at, sep)) => {
                out.push((before, &rest[..at]));
                before = sep;
                rest = &rest[at + sep.len()..];
            }
            None => {
                out.push((before, rest));
                return out;
            }
        }
    }
}

/// Parenthesised groups whose items are internal are taken out (items
/// that are not stay in their parentheses).
fn without_internal_groups(text: &str, internal: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        let items: Vec<&str> = rest[open + 1..close].split(", ").collect();
        let kept: Vec<&str> = items.iter().copied().filter(|i| !is_internal(i)).collect();
        internal.extend(items.iter().filter(|i| is_internal(i)).map(|i| bare(i)));
        if kept.is_empty() {
            // The space before the group goes with it.
            out.push_str(rest[..open].trim_end_matches(' '));
        } else {
            out.push_str(&rest[..=open]);
            out.push_str(&kept.join(", "));
            out.push(')');
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The reason as an organizer may read it, and the internal fragments it
/// held (for the team's note).
pub fn split(reason: &str) -> (String, Vec<String>) {
    let mut internal = Vec::new();
    let trimmed = reason.trim();
    if trimmed.is_empty() {
        return (String::new(), internal);
    }
    let mut text = without_internal_groups(trimmed, &mut internal);
    // « Favori de l'équipe : « Verrière » reçoit… »: a label, then the sentence.
    if let Some((head, tail)) = text.split_once(" : ") {
        if is_internal(head) {
            internal.push(bare(head));
            text = tail.to_string();
        }
    }
    let parts = pieces(&text, &[", ", " ; ", " — "]);
    let mut kept: Vec<(&str, &str)> = Vec::new();
    for (sep, part) in parts {
        if is_internal(part) {
            internal.push(bare(part));
        } else {
            kept.push((sep, part));
        }
    }
    if internal.is_empty() {
        // Nothing to take out: the reason stays exactly as written (a person's
        // edit is shown back as typed, in the builder as on the organizer's page).
        return (trimmed.to_string(), internal);
    }
    let mut out = String::new();
    for (i, (sep, part)) in kept.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(part);
    }
    let mut out = out
        .trim()
        .trim_end_matches(['.', ',', ';', ':', ' '])
        .to_string();
    if out.is_empty() {
        return (String::new(), internal);
    }
    if let Some(first) = out.chars().next() {
        out = first.to_uppercase().collect::<String>() + &out[first.len_utf8()..];
    }
    if !out.ends_with(['.', '!', '?', '…']) {
        out.push('.');
    }
    (out, internal)
}

/// The reason an organizer reads: [`split`]'s first half.
pub fn for_organizer(reason: &str) -> String {
    split(reason).0
}

/// The team's internal note on a pick: the live signals of its venue
/// (`signals.past_picks` counts this pick too), then what an older reason
/// held that the signals do not already say. No fragment twice.
pub fn team_note(signals: Option<&Signals>, legacy: &[String]) -> Vec<String> {
    let mut note: Vec<String> = Vec::new();
    if let Some(s) = signals {
        if s.favourite {
            note.push("favori de l'équipe".into());
        }
        let before = s.past_picks - 1;
        if before >= 1 {
            note.push(format!("déjà proposé {before} fois"));
        }
        match (s.median_response_hours, s.answer_rate) {
            (Some(h), Some(rate)) => note.push(format!(
                "répond en {} h en général ({} % de réponses)",
                h.round(),
                (rate * 100.0).round()
            )),
            (None, Some(rate)) => note.push(format!(
                "répond à {} % des demandes",
                (rate * 100.0).round()
            )),
            _ => {}
        }
    }
    // The signals say it now, better than an old sentence did.
    let said = |fragment: &str, note: &[String]| {
        let key: String = fragment.chars().take(8).collect::<String>().to_lowercase();
        note.iter().any(|n| n.to_lowercase().starts_with(&key))
    };
    for fragment in legacy {
        if !fragment.is_empty() && !said(fragment, &note) {
            note.push(fragment.clone());
        }
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_sentence_loses_its_history() {
        let (text, internal) = split(
            "Salle « Verrière » : 120 places en cocktail pour 100 personnes, à 800 m, \
             favori de l'équipe, déjà proposé 2 fois, répond en 8 h en général.",
        );
        assert_eq!(
            text,
            "Salle « Verrière » : 120 places en cocktail pour 100 personnes, à 800 m."
        );
        assert_eq!(
            internal,
            [
                "favori de l'équipe",
                "déjà proposé 2 fois",
                "répond en 8 h en général"
            ]
        );
    }

    #[test]
    fn the_planner_note_in_parentheses_goes_and_the_favourite_twice_too() {
        let (text, internal) = split(
            "Salle « Loft » : 80 places en cocktail pour 60 personnes, favori de l'équipe \
             (favori de l'équipe, consigne : éviter sous-sol).",
        );
        assert_eq!(
            text,
            "Salle « Loft » : 80 places en cocktail pour 60 personnes."
        );
        assert_eq!(internal.len(), 3, "{internal:?}");
        let note = team_note(None, &internal);
        assert_eq!(
            note.iter().filter(|n| n.contains("favori")).count(),
            1,
            "never « (favori de l'équipe) » twice: {note:?}"
        );
    }

    #[test]
    fn the_demo_labels_and_catches_go() {
        assert_eq!(
            for_organizer(
                "Favori de l'équipe : « Salon » reçoit 90 personnes en banquet, avec un jardin."
            ),
            "« Salon » reçoit 90 personnes en banquet, avec un jardin."
        );
        assert_eq!(
            for_organizer("Alternative solide : « Cave » (40 personnes en cocktail), mais peu de retours de l'équipe sur ce lieu."),
            "Alternative solide : « Cave » (40 personnes en cocktail)."
        );
        assert_eq!(
            for_organizer("Bonne option de repli avec un jardin ; bémol : peu de retours de l'équipe sur ce lieu."),
            "Bonne option de repli avec un jardin."
        );
    }

    #[test]
    fn a_clean_reason_is_untouched() {
        for r in [
            "Terrasse plein sud.",
            "Jauge idéale (120 personnes en cocktail) et un jardin, à 1,2 km seulement.",
            "",
        ] {
            assert_eq!(for_organizer(r), r);
        }
    }

    #[test]
    fn the_note_comes_from_the_live_signals_without_repeating_an_old_sentence() {
        let s = Signals {
            past_picks: 3,
            favourite: true,
            median_response_hours: Some(7.6),
            answer_rate: Some(0.9),
            ..Signals::default()
        };
        let note = team_note(
            Some(&s),
            &["favori de l'équipe".into(), "déjà proposé 5 fois".into()],
        );
        assert_eq!(
            note,
            [
                "favori de l'équipe",
                "déjà proposé 2 fois",
                "répond en 8 h en général (90 % de réponses)"
            ]
        );
    }
}
