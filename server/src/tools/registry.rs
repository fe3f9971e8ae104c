//! The tool list the model sees and the dispatch of its calls: names,
//! read or write, descriptions, schemas. Write tools are only described
//! and proposed here; what runs them once approved lives elsewhere, out of reach.
use super::{
    read, schema, write, Access, Mode, Proposal, ToolContext, ToolError, ToolOutcome, Toolbox,
};
use crate::llm::{ToolList, ToolSpec};
use std::sync::OnceLock;

/// The playbook tools every station has: they run in the agent loop
/// (`playbooks::runtime`), neither reading data nor writing it.
pub const GUIDANCE: [&str; 3] = ["seek_guidance", "start_playbook", "abandon_playbook"];

/// What each tool does, for the model (French, as the team speaks).
fn description(name: &str) -> Option<&'static str> {
    Some(match name {
        "list_requests" => "Compte et liste les demandes d'organisateurs (hors scénarios d'entraînement) avec les filtres de la page Demandes : statut, pool, dates de l'événement, les miennes, texte (mots, référence, organisateur). Renvoie le total, le décompte par statut et les plus récentes.",
        "get_request_catalogues" => "Les catalogues d'une demande, du plus récent au plus ancien : statut (brouillon, envoyé, archivé), lieux avec leur rang, salle épinglée et justification, favoris et commentaire de l'organisateur. Sans request_id : la demande en cours.",
        "get_request" => "Lit une demande d'organisateur : pool, statut, participants, configurations, codes postaux, type d'événement, budget, date, zone, description, memo équipe et consignes de recherche. Sans request_id : la demande en cours.",
        "list_request_emails" => "Liste les e-mails échangés sur une demande, du plus récent au plus ancien (objet et corps inclus).",
        "find_similar_requests" => "Trouve les 3 demandes passées les plus proches dans le même pool, avec les lieux de leur dernier catalogue.",
        "search_members" => "Recherche de lieux (filtres SQL, similarité, classement) : renvoie 4 recommandés et 4 compatibles avec la salle qui correspond, une phrase de justification et la distance. Le pool par défaut est celui de la demande en cours ; sans demande, tous les pools. La réponse dit quels pools ont été cherchés et dans quel ordre sont les lieux.",
        "get_member" => "Fiche courte d'un lieu par son code (#102) : ville, pool, salles avec leurs capacités par configuration, description.",
        "get_member_full" => "Fiche complète d'un lieu par son code : la fiche courte plus attributs, tags, tarifs et connaissances de l'équipe.",
        "get_member_signals" => "Signaux de 1 à 16 lieux : favoris de l'équipe, taux et délai médian de réponse, catalogues de l'année écoulée, demandes gagnées.",
        "count_members" => "Compte les lieux actifs d'un pool (ou de tous), par codes postaux, départements ou rayon autour d'un point, hors codes postaux, départements ou types de lieu exclus, par caractéristiques de la fiche (tags : terrasse, parking, accessible-pmr…) et capacité minimale dans une configuration.",
        "search_training" => "Cherche les leçons de l'équipe (sessions d'entraînement : verdicts, raisons, directives) par type d'événement ou par texte, les plus récentes d'abord.",
        "search_knowledge" => "Cherche dans la base de connaissances sur les lieux (titre et contenu), éventuellement pour un seul lieu, les plus récentes d'abord.",
        "get_search_preferences" => "Préférences de recherche connues : consignes de recherche, pool et zone de la demande, nombre de favoris de l'utilisateur. À lire avant search_members.",
        "user_data_semantic_search" => "Cherche dans la mémoire de l'utilisateur (ses mémoires et ses rappels) par le sens, puis par les mots, puis les plus récentes : renvoie la source de la réponse (vector, fts, recency) et, pour chaque résultat, sa confiance (« correspond » ou « peut-être »), son type (memory ou task), son id et son échéance ; quand rien ne correspond (nothing_matched, avec une note), les résultats ne sont que les plus récents et ne répondent pas à la question. À utiliser quand l'utilisateur fait référence à ce qu'il a dit ou demandé de retenir.",
        "add_members_to_catalog" => "Propose d'ajouter des lieux au catalogue brouillon d'une demande (au plus 4 recommandés et 4 compatibles, salle épinglée si connue) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "update_request" => "Propose de modifier des champs d'une demande (statut, memo, consignes, participants, type, configurations, codes postaux) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "request_availability_check" => "Propose de demander à un lieu s'il est disponible aux dates de la demande (lien envoyé au lieu) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "create_training_session" => "Propose d'enregistrer une leçon de l'équipe (verdict sur un lieu ou consigne générale avec directives) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "add_knowledge_entry" => "Propose d'ajouter un fait sur un lieu à la base de connaissances ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "save_memory" => "Propose de retenir un fait durable dans la mémoire de l'utilisateur (préférence, contrainte d'un lieu ou d'un organisateur) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "create_reminder" => "Propose de créer un rappel pour l'utilisateur (titre, échéance AAAA-MM-JJ ou RFC 3339, récurrence none/daily/weekly/monthly, demande liée) ; une personne l'approuve sur une carte avant que quoi que ce soit soit écrit.",
        "seek_guidance" => "Décrit ce que tu t'apprêtes à faire et renvoie les parcours (playbooks) et les outils qui s'y prêtent, avec leur score et leur bande (imposé, suggéré, observé) ; un parcours imposé s'ouvre. À appeler avant une action en plusieurs étapes.",
        "start_playbook" => "Ouvre un parcours (playbook) par son nom : ses étapes s'imposent ensuite dans l'ordre. Un parcours déjà ouvert est remplacé et perd ses actions réservées. Refusé si le profil de l'utilisateur ne peut pas l'ouvrir.",
        "abandon_playbook" => "Abandonne le parcours ouvert avant sa fin, avec la raison ; refusé si le profil de l'utilisateur ne le permet pas.",
        _ => return None,
    })
}

impl Toolbox {
    /// Every tool, read then write, with its schema for `mode`. Built once
    /// per mode: generating the schemas cost about a millisecond per turn.
    pub fn specs(mode: Mode) -> ToolList {
        static CHAT: OnceLock<ToolList> = OnceLock::new();
        static TRAINING: OnceLock<ToolList> = OnceLock::new();
        let cell = match mode {
            Mode::Chat => &CHAT,
            Mode::Training => &TRAINING,
        };
        cell.get_or_init(|| Self::build_specs(mode)).clone()
    }

    fn build_specs(mode: Mode) -> ToolList {
        read::NAMES
            .iter()
            .chain(write::NAMES)
            .chain(&GUIDANCE)
            .filter_map(|&name| {
                Some(ToolSpec {
                    name: name.to_string(),
                    description: description(name)?.to_string(),
                    input_schema: schema::for_tool(name, mode)?,
                })
            })
            .collect()
    }

    /// Read or write; `None` for a name that is no tool.
    pub fn access(name: &str) -> Option<Access> {
        if read::NAMES.contains(&name) {
            Some(Access::Read)
        } else if write::NAMES.contains(&name) {
            Some(Access::Write)
        } else if GUIDANCE.contains(&name) {
            Some(Access::Guidance)
        } else {
            None
        }
    }

    /// Runs a read tool. A write tool's name is refused here too: it never
    /// runs without a person's approval.
    pub async fn run_read(
        ctx: &ToolContext,
        name: &str,
        input: &serde_json::Value,
    ) -> Result<ToolOutcome, ToolError> {
        read::run(ctx, name, input).await
    }

    /// Validates a write tool call and describes it for its approval card.
    pub async fn propose(
        ctx: &ToolContext,
        mode: Mode,
        name: &str,
        input: &serde_json::Value,
    ) -> Result<Proposal, ToolError> {
        write::propose(ctx, mode, name, input).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_description_and_a_schema() {
        for &name in read::NAMES.iter().chain(write::NAMES) {
            assert!(description(name).is_some(), "{name}");
            assert!(schema::for_tool(name, Mode::Chat).is_some(), "{name}");
        }
        for &name in write::NAMES {
            assert!(
                description(name).is_some_and(|d| d.contains("une personne l'approuve")),
                "{name}"
            );
        }
    }

    #[test]
    fn access_by_name() {
        assert_eq!(Toolbox::access("get_member"), Some(Access::Read));
        assert_eq!(Toolbox::access("update_request"), Some(Access::Write));
        assert_eq!(Toolbox::access("drop_database"), None);
    }
}
