//! The assistant's tools as skills (seed 004): each carries a French
//! `cognitive.objective`, one sentence saying what it achieves for the team.
//! The scorer embeds these sentences and matches a described action against
//! them, so they say the *outcome* in the team's words (« mesurer la
//! fiabilité de lieux »), not the mechanics of the call.
//!
//! Every tool of [`crate::tools::read::NAMES`] and
//! [`crate::tools::write::NAMES`] is a skill, plus the three guidance tools
//! each station exposes beside them ([`GUIDANCE_TOOLS`]).

/// One skill: a tool name and what it achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    pub name: &'static str,
    /// The `cognitive.objective`: French, one sentence, written to be matched.
    pub objective: &'static str,
}

/// The tools every station exposes for guidance, beside its other tools.
pub const GUIDANCE_TOOLS: [&str; 3] = crate::tools::GUIDANCE;

const fn skill(name: &'static str, objective: &'static str) -> Skill {
    Skill { name, objective }
}

static SKILLS: &[Skill] = &[
    // Read tools.
    skill(
        "list_requests",
        "faire le point sur les demandes d'organisateurs : combien, dans quel statut, lesquelles sont les miennes ou les plus récentes",
    ),
    skill(
        "get_request",
        "lire une demande d'organisateur : participants, configuration, zone, date, budget, description, memo et consignes de l'équipe",
    ),
    skill(
        "get_request_catalogues",
        "revoir les catalogues envoyés pour une demande : lieux proposés, favoris et commentaire de l'organisateur",
    ),
    skill(
        "list_request_emails",
        "relire les e-mails échangés avec l'organisateur sur une demande",
    ),
    skill(
        "find_similar_requests",
        "s'inspirer des demandes passées les plus proches et des lieux qui leur ont été proposés",
    ),
    skill(
        "search_members",
        "trouver des lieux qui conviennent à une demande : capacité, configuration, zone et style de l'événement",
    ),
    skill(
        "get_member",
        "consulter la fiche courte d'un lieu : ville, salles et capacités par configuration",
    ),
    skill(
        "get_member_full",
        "tout savoir d'un lieu : attributs, tags, tarifs et connaissances de l'équipe",
    ),
    skill(
        "get_member_signals",
        "mesurer la fiabilité et la popularité de lieux : favoris, taux et délai de réponse, catalogues et demandes gagnées",
    ),
    skill(
        "count_members",
        "estimer l'offre disponible : combien de lieux peuvent accueillir un nombre de personnes dans une zone",
    ),
    skill(
        "search_training",
        "retrouver les leçons de l'équipe pour ne pas répéter une erreur passée",
    ),
    skill(
        "search_knowledge",
        "retrouver ce que l'équipe sait d'un lieu dans la base de connaissances",
    ),
    skill(
        "get_search_preferences",
        "connaître les préférences de recherche : consignes, pool et zone de la demande, favoris",
    ),
    skill(
        "user_data_semantic_search",
        "retrouver ce que l'utilisateur a demandé de retenir : ses souvenirs et ses rappels",
    ),
    // Write tools (a person approves each before anything is written).
    skill(
        "add_members_to_catalog",
        "composer le catalogue d'une demande en y ajoutant des lieux recommandés et compatibles",
    ),
    skill(
        "update_request",
        "qualifier une demande en mettant à jour son statut, son memo, ses consignes ou ses critères",
    ),
    skill(
        "request_availability_check",
        "demander à un lieu s'il est disponible aux dates de l'événement",
    ),
    skill(
        "create_training_session",
        "enregistrer une leçon de l'équipe : un verdict sur un lieu ou une consigne générale",
    ),
    skill(
        "add_knowledge_entry",
        "consigner un fait sur un lieu dans la base de connaissances de l'équipe",
    ),
    skill(
        "save_memory",
        "retenir durablement une préférence ou une contrainte de l'utilisateur, d'un lieu ou d'un organisateur",
    ),
    skill(
        "create_reminder",
        "programmer un rappel pour l'utilisateur à une échéance, éventuellement récurrent",
    ),
    // Guidance tools.
    skill(
        "seek_guidance",
        "savoir quel parcours ou quelle action convient avant d'agir, avec leur score",
    ),
    skill(
        "start_playbook",
        "ouvrir explicitement un parcours de l'équipe pour en suivre les étapes dans l'ordre",
    ),
    skill(
        "abandon_playbook",
        "abandonner le parcours en cours quand il ne correspond plus au travail à faire",
    ),
];

/// Every skill: the read tools, the write tools, then the guidance tools.
pub fn all() -> &'static [Skill] {
    SKILLS
}

/// The objective of the skill `name`, if it is one.
pub fn objective(name: &str) -> Option<&'static str> {
    SKILLS.iter().find(|s| s.name == name).map(|s| s.objective)
}

/// Whether `name` is a skill a playbook may name in its steps.
pub fn exists(name: &str) -> bool {
    objective(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{read, write};

    #[test]
    fn every_tool_has_an_objective_and_no_objective_lacks_a_tool() {
        let tools: Vec<&str> = read::NAMES
            .iter()
            .chain(write::NAMES)
            .copied()
            .chain(GUIDANCE_TOOLS)
            .collect();
        for name in &tools {
            assert!(exists(name), "no objective for `{name}`");
        }
        for skill in all() {
            assert!(
                tools.contains(&skill.name),
                "objective without a tool: `{}`",
                skill.name
            );
        }
        assert_eq!(all().len(), tools.len(), "one skill per tool");
    }

    #[test]
    fn objectives_are_one_french_sentence() {
        for skill in all() {
            let o = skill.objective;
            assert!(!o.trim().is_empty(), "{}", skill.name);
            assert!(
                !o.contains('\n') && !o.ends_with('.'),
                "{}: {o}",
                skill.name
            );
            assert!(o.chars().count() <= 160, "{}: too long", skill.name);
        }
    }

    #[test]
    fn unknown_names_are_no_skills() {
        assert!(exists("get_member_signals"));
        assert!(!exists("drop_database"));
        assert_eq!(objective(""), None);
    }
}
