//! What an open run allows: pure checks over its definition, the steps it
//! has done and the caller's facts.
use super::runs::OpenRun;
use super::{title, tool_label, FOR_THE_ASSISTANT};
use crate::playbooks::store::StoredPlaybook;
use crate::playbooks::when::Facts;
use crate::tools::Access;

/// The playbook that reserves `tool` (it lists it in `exclusive_skills`).
pub fn reserved_by<'a>(playbooks: &'a [StoredPlaybook], tool: &str) -> Option<&'a StoredPlaybook> {
    playbooks.iter().find(|p| {
        p.definition
            .activation
            .exclusive_skills
            .iter()
            .any(|s| s == tool)
    })
}

/// `Ok` when `run` allows calling `tool` now; otherwise the reason, in
/// French, for the model and the person.
pub fn check(
    run: &OpenRun,
    playbooks: &[StoredPlaybook],
    tool: &str,
    access: Access,
    facts: &Facts,
) -> Result<(), String> {
    let definition = &run.definition;
    let own = definition
        .activation
        .exclusive_skills
        .iter()
        .any(|s| s == tool);
    if !own {
        if let Some(owner) = reserved_by(playbooks, tool).filter(|p| p.name != run.name) {
            return Err(format!(
                "« {} » est réservé au parcours « {} » ; le parcours ouvert est « {} ».{FOR_THE_ASSISTANT}start_playbook avec le nom « {} » l'ouvrirait à la place du parcours en cours, si la personne le veut.",
                tool_label(tool),
                title(&owner.definition),
                title(definition),
                owner.name
            ));
        }
    }
    let steps = &definition.steps;
    let Some(index) = steps.iter().position(|s| s.skill == tool) else {
        if access == Access::Write {
            return Err(format!(
                "Le parcours « {} » est ouvert et ne prévoit pas « {} » : terminez-le, ou abandonnez-le d'abord.{FOR_THE_ASSISTANT}abandon_playbook l'abandonne, si la personne le demande.",
                title(definition),
                tool_label(tool)
            ));
        }
        return Ok(());
    };
    if let Some((missing_at, missing)) = steps[..index]
        .iter()
        .enumerate()
        .find(|(_, s)| !s.optional && !run.steps_done.contains(&s.skill))
    {
        return Err(format!(
            "Étape hors ordre dans le parcours « {} » : « {} » est l'étape {} sur {} ; faites d'abord « {} » (étape {}).",
            title(definition),
            tool_label(tool),
            index + 1,
            steps.len(),
            tool_label(&missing.skill),
            missing_at + 1
        ));
    }
    if let Some(guard) = &steps[index].guard {
        let holds = match crate::playbooks::when::parse(guard) {
            Ok(expr) => expr.eval(facts),
            Err(e) => {
                tracing::error!(playbook = %run.name, error = %e, "a stored guard does not parse");
                false
            }
        };
        if !holds {
            let why = steps[index].guard_message.clone().unwrap_or_else(|| {
                format!("la condition de cette étape n'est pas remplie ({guard})")
            });
            return Err(format!(
                "Étape « {} » du parcours « {} » refusée : {why}.",
                tool_label(tool),
                title(definition),
                why = why.trim_end_matches('.')
            ));
        }
    }
    Ok(())
}

/// Every required step is done.
pub fn complete(run: &OpenRun) -> bool {
    run.definition
        .steps
        .iter()
        .filter(|s| !s.optional)
        .all(|s| run.steps_done.contains(&s.skill))
}
