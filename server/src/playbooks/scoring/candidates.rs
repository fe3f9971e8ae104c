//! The candidates the labelled set is scored against: the shipped playbooks
//! (their goal and intent) and the skills (their objective).
//!
//! The guidance tools (`seek_guidance`, `start_playbook`,
//! `abandon_playbook`) are left out: they are how the assistant asks or
//! opens, never the answer to a described action.
use super::{Described, Kind};
use crate::playbooks::skills;

/// The skills as candidates, guidance tools left out.
pub fn skills() -> Vec<Described> {
    skills::all()
        .iter()
        .filter(|s| !skills::GUIDANCE_TOOLS.contains(&s.name))
        .map(|s| Described {
            name: s.name.to_string(),
            kind: Kind::Skill,
            text: s.objective.to_string(),
        })
        .collect()
}

/// The shipped playbooks as candidates.
pub fn playbooks() -> Vec<Described> {
    PROVISIONAL
        .iter()
        .map(|(name, text)| Described {
            name: name.to_string(),
            kind: Kind::Playbook,
            text: text.to_string(),
        })
        .collect()
}

/// The shipped playbooks' goal and intent while their definitions are
/// being written.
const PROVISIONAL: [(&str, &str); 3] = [
    (
        "qualification-demande",
        "la demande de l'organisateur est qualifiée : date, nombre de personnes, budget et type d'événement connus. qualifier une nouvelle demande d'organisateur",
    ),
    (
        "groupe-plus-de-200",
        "le groupe de plus de 200 personnes a un lieu qui l'accueille. traiter une demande pour un grand groupe de plus de 200 personnes",
    ),
    (
        "reprise-catalogue-commentaire",
        "le catalogue est repris selon le commentaire de l'organisateur. retravailler un catalogue après le commentaire de l'organisateur",
    ),
];

/// Every candidate: the playbooks, then the skills.
pub fn all() -> Vec<Described> {
    let mut out = playbooks();
    out.extend(skills());
    out
}
