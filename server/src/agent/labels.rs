//! How the team sees a tool at work: a French label per tool.

/// « Recherche de lieux… » for `search_members`; the name itself otherwise.
pub fn label(tool: &str) -> String {
    match tool {
        "get_request" => "Lecture de la demande…",
        "list_request_emails" => "Lecture des e-mails de la demande…",
        "find_similar_requests" => "Recherche de demandes similaires…",
        "search_members" => "Recherche de lieux…",
        "get_member" => "Lecture de la fiche du lieu…",
        "get_member_full" => "Lecture de la fiche complète du lieu…",
        "get_member_signals" => "Lecture des signaux des lieux…",
        "count_members" => "Comptage des lieux…",
        "search_training" => "Lecture du training…",
        "search_knowledge" => "Recherche dans les connaissances…",
        "get_search_preferences" => "Lecture des préférences de recherche…",
        other => return format!("Outil {other}…"),
    }
    .to_string()
}
