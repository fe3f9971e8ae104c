//! How the team sees a tool at work: a French label per tool.

/// « Recherche de lieux… » for `search_members`; never a tool's key.
pub fn label(tool: &str) -> String {
    match tool {
        "list_requests" => "Lecture des demandes…",
        "get_request" => "Lecture de la demande…",
        "get_request_catalogues" => "Lecture des catalogues de la demande…",
        "list_request_emails" => "Lecture des e-mails de la demande…",
        "find_similar_requests" => "Recherche de demandes similaires…",
        "search_members" => "Recherche de lieux…",
        "get_member" => "Lecture de la fiche du lieu…",
        "get_member_full" => "Lecture de la fiche complète du lieu…",
        "get_member_signals" => "Lecture des signaux des lieux…",
        "count_members" => "Comptage des lieux…",
        "search_training" => "Lecture des leçons de l'équipe…",
        "search_knowledge" => "Recherche dans les connaissances…",
        "get_search_preferences" => "Lecture des préférences de recherche…",
        "user_data_semantic_search" => "Recherche dans votre mémoire…",
        "add_members_to_catalog" => "Proposition d'ajout au catalogue…",
        "update_request" => "Proposition de modification de la demande…",
        "request_availability_check" => "Proposition de demande de disponibilité…",
        "create_training_session" => "Proposition de leçon…",
        "add_knowledge_entry" => "Proposition de connaissance…",
        "save_memory" => "Proposition de souvenir…",
        "create_reminder" => "Proposition de rappel…",
        "seek_guidance" => "Recherche du parcours adapté…",
        "start_playbook" => "Ouverture d'un parcours…",
        "abandon_playbook" => "Abandon du parcours…",
        _ => "Outil de Maxy…",
    }
    .to_string()
}
