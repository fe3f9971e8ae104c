//! What a change did, read from the page's address (`?fait=…`): every
//! change of the console redirects to the page that shows its result, with
//! this key, so the message is the same with JavaScript and without.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The sentence for the outcome key `fait`, if it is one.
pub fn message(fait: &str) -> Option<String> {
    let simple = match fait {
        "enregistre" => Some("Playbook enregistré : la nouvelle version est en vigueur."),
        "statut" => Some("Statut modifié."),
        "reglages" => Some("Réglages de la station enregistrés."),
        "brouillon" => Some("Brouillon de la suggestion enregistré."),
        "ecarte" => Some("Suggestion écartée."),
        _ => None,
    };
    if let Some(sentence) = simple {
        return Some(sentence.to_string());
    }
    if let Some(count) = fait.strip_prefix("analyse-") {
        return count.parse::<usize>().ok().map(|n| match n {
            0 => "Semaine analysée : aucun motif.".to_string(),
            1 => "Semaine analysée : 1 motif.".to_string(),
            n => format!("Semaine analysée : {n} motifs."),
        });
    }
    fait.strip_prefix("accepte-")
        .filter(|name| !name.is_empty())
        .map(|name| format!("Suggestion acceptée : le playbook {name} est en observation."))
}

/// The outcome of the last change, as a status line, or nothing.
#[component]
pub fn Done() -> impl IntoView {
    let query = use_query_map();
    move || {
        query
            .read()
            .get("fait")
            .and_then(|fait| message(&fait))
            .map(|text| {
                view! {
                    <p role="status" class="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800" data-testid="console-done">
                        {text}
                    </p>
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::message;

    #[test]
    fn every_outcome_reads_in_french() {
        assert_eq!(
            message("analyse-14").as_deref(),
            Some("Semaine analysée : 14 motifs.")
        );
        assert_eq!(
            message("analyse-1").as_deref(),
            Some("Semaine analysée : 1 motif.")
        );
        assert!(message("accepte-x").is_some_and(|m| m.contains("x est en observation")));
        assert_eq!(message("accepte-"), None);
        assert_eq!(message("analyse-beaucoup"), None);
        assert_eq!(message("n'importe quoi"), None);
    }
}
