//! The candidates the labelled set is scored against: the shipped playbooks
//! (their goal and intent) and the skills (their objective).
//!
//! The guidance tools (`seek_guidance`, `start_playbook`,
//! `abandon_playbook`) are left out: they are how the assistant asks or
//! opens, never the answer to a described action.
use super::{Described, Kind};
use crate::playbooks::definition::{self, DefinitionError};
use crate::playbooks::{skills, store};

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

/// The shipped playbooks as candidates, described as the runtime describes
/// them ([`definition::Definition::describe_for_scoring`]: intent and goal).
pub fn playbooks() -> Result<Vec<Described>, DefinitionError> {
    store::shipped()
        .iter()
        .map(|(_, source)| {
            let d = definition::parse(source)?;
            Ok(Described {
                text: d.describe_for_scoring(),
                name: d.name,
                kind: Kind::Playbook,
            })
        })
        .collect()
}

/// Every candidate: the playbooks, then the skills.
pub fn all() -> Result<Vec<Described>, DefinitionError> {
    let mut out = playbooks()?;
    out.extend(skills());
    Ok(out)
}
