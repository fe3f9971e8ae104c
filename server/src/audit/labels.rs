//! The audit log in the team's words: each action key (`auth.sign_in`) and
//! object type (`availability_check`) as the console shows it. Keys stay in
//! the table and in the API for tools; a person reads these labels.

/// The French label of an action key; an unknown key (a row written by a
/// newer server, say) reads as « Autre action », never as the key.
pub fn action(key: &str) -> &'static str {
    match key {
        "approval.executed" => "Proposition validée et exécutée",
        "approval.failed" => "Proposition validée, exécution en échec",
        "approval.rejected" => "Proposition refusée",
        "auth.sign_in" => "Connexion",
        "auth.sign_in_failed" => "Échec de connexion",
        "auth.sign_in_throttled" => "Connexion refusée (trop de tentatives)",
        "auth.sign_out" => "Déconnexion",
        "auth.sign_out_everywhere" => "Déconnexion de tous les appareils",
        "availability.answered" => "Réponse d'un lieu sur sa disponibilité",
        "availability.requested" => "Disponibilité demandée à un lieu",
        "catalogue.filled" => "Catalogue rempli",
        "catalogue.organizer_comment" => "Commentaire de l'organisateur",
        "catalogue.organizer_pick_comment" => "Commentaire de l'organisateur sur un lieu",
        "catalogue.pick_added" => "Lieu ajouté au catalogue",
        "catalogue.pick_moved" => "Lieu changé de section",
        "catalogue.pick_removed" => "Lieu retiré du catalogue",
        "catalogue.pick_reordered" => "Ordre des lieux changé",
        "catalogue.proposal_applied" => "Proposition de l'assistant appliquée",
        "catalogue.reason_edited" => "Raison d'un lieu modifiée",
        "catalogue.room_pinned" => "Salle retenue pour un lieu",
        "catalogue.sent" => "Catalogue envoyé",
        "catalogue.version_created" => "Nouvelle version du catalogue",
        // The job kind that delivers an e-mail (catalogue, availability check).
        "mail.send" => "E-mail envoyé",
        "mail.retried" => "Nouvel essai d'envoi d'un e-mail demandé",
        "magic_link.issued" => "Lien d'accès créé",
        "magic_link.revoked" => "Lien d'accès révoqué",
        "magic_link.used" => "Lien d'accès ouvert",
        // The job kind that embeds a saved note (the scan below finds it).
        "memory.embed" => "Souvenir indexé pour la recherche",
        "memory.summarised" => "Conversation résumée en mémoire",
        "playbook.saved" => "Playbook enregistré",
        "playbook.status" => "Statut d'un playbook changé",
        "playbook.abandoned" => "Playbook abandonné",
        "playbook.completed" => "Playbook terminé",
        "playbook.opened" => "Playbook ouvert",
        "playbook.replaced" => "Playbook remplacé par un autre",
        "playbook.suggestion_accepted" => "Playbook suggéré accepté (en observation)",
        "playbook.suggestion_dismissed" => "Playbook suggéré écarté",
        "playbook.suggestion_edited" => "Playbook suggéré modifié",
        // The job kind that turns calls made outside any playbook into suggestions.
        "playbooks.mine" => "Motifs observés analysés",
        "playbook.station_settings" => "Réglages de guidage d'une station modifiés",
        "request.updated" => "Demande modifiée",
        "search_preferences.updated" => "Préférences de recherche modifiées",
        "user.created" => "Compte créé",
        "user.disabled" => "Compte désactivé",
        "user.enabled" => "Compte réactivé",
        "user.password_reset" => "Mot de passe réinitialisé",
        "user.role_changed" => "Rôle d'un compte changé",
        "user.sessions_ended" => "Sessions d'un compte fermées",
        "user.updated" => "Compte modifié",
        _ => "Autre action",
    }
}

/// What the row is about: « demande n° 42 », « compte n° 2 ».
pub fn object(kind: &str, id: Option<i64>) -> String {
    let noun = match kind {
        "ai_conversation" => "conversation",
        "ai_pending_approval" => "proposition",
        "availability_check" => "demande de disponibilité",
        "catalogue" => "catalogue",
        "magic_link" => "lien d'accès",
        "playbook" => "parcours",
        "playbook_run" => "parcours",
        "request" => "demande",
        "suggested_playbook" => "playbook suggéré",
        "user" => "compte",
        _ => "objet",
    };
    match id {
        Some(id) => format!("{noun} n° {id}"),
        None => noun.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every action key written anywhere in the server's sources (a string
    /// literal `"<area>.<name>"` with an area the log uses) has a label.
    #[test]
    fn every_action_written_has_a_french_label() {
        const AREAS: &[&str] = &[
            "approval",
            "auth",
            "availability",
            "catalogue",
            "magic_link",
            "memory",
            "playbook",
            "playbooks",
            "request",
            "search_preferences",
            "user",
        ];
        fn sources(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                // The `when` language's field paths (`request.participants`)
                // look like action keys and are none.
                if path.ends_with("playbooks/when") || path.ends_with("playbooks/when.rs") {
                    continue;
                }
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        let mut texts = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut texts,
        );
        let mut keys: Vec<String> = texts
            .iter()
            .flat_map(|t| t.split('"').skip(1).step_by(2))
            .filter(|s| {
                s.split_once('.').is_some_and(|(area, name)| {
                    AREAS.contains(&area)
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                })
            })
            .map(str::to_string)
            .collect();
        keys.sort();
        keys.dedup();
        assert!(keys.len() >= 25, "the scan finds the actions: {keys:?}");
        for key in keys {
            assert_ne!(action(&key), "Autre action", "no label for `{key}`");
        }
    }

    #[test]
    fn objects_read_in_french() {
        assert_eq!(object("request", Some(42)), "demande n° 42");
        assert_eq!(object("user", None), "compte");
    }
}
