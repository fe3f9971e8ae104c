//! The rules serde cannot check: slugs, non-empty texts, skills that exist,
//! exclusive skills among the steps, `when` and guards that parse. Each
//! refusal is placed with the [`Outline`] of the source.
use super::{Definition, DefinitionError, Outline};
use crate::playbooks::{skills, when};

/// The first rule `definition` breaks, located in the source's `outline`.
pub fn check(definition: &Definition, outline: &Outline) -> Result<(), DefinitionError> {
    let refuse = |field: String, message: String| {
        let spot = outline.locate(&field);
        Err(DefinitionError {
            line: spot.map(|s| s.line),
            column: spot.map(|s| s.column),
            field: Some(field),
            message,
        })
    };
    if definition.name.trim().is_empty() {
        return refuse("name".into(), "le nom est obligatoire".into());
    }
    if !is_slug(&definition.name) {
        return refuse(
            "name".into(),
            format!(
                "« {} » n'est pas un nom valide : des mots en minuscules sans accents, chiffres et tirets (ex. qualification-demande)",
                definition.name
            ),
        );
    }
    if definition
        .title
        .as_deref()
        .is_some_and(|t| t.trim().is_empty())
    {
        return refuse(
            "title".into(),
            "le titre, quand il est donné, ne peut pas être vide".into(),
        );
    }
    if definition.goal.trim().is_empty() {
        return refuse(
            "goal".into(),
            "le but est obligatoire : une phrase qui dit ce qui est accompli".into(),
        );
    }
    let activation = &definition.activation;
    if let Some(when) = &activation.when {
        expression(outline, "activation.when", when)?;
    }
    if activation
        .intent
        .as_deref()
        .is_some_and(|i| i.trim().is_empty())
    {
        return refuse(
            "activation.intent".into(),
            "l'intention est vide : décrivez-la ou retirez-la".into(),
        );
    }
    if activation.auto_trigger && activation.when.is_none() {
        return refuse(
            "activation.auto_trigger".into(),
            "auto_trigger demande une condition when : sans elle, rien ne déclenche le parcours"
                .into(),
        );
    }
    if definition.steps.is_empty() {
        return refuse("steps".into(), "au moins une étape est nécessaire".into());
    }
    for (i, step) in definition.steps.iter().enumerate() {
        if !skills::exists(&step.skill) {
            return refuse(format!("steps[{i}].skill"), unknown_skill(&step.skill));
        }
        if let Some(guard) = &step.guard {
            expression(outline, &format!("steps[{i}].guard"), guard)?;
        }
        if step.guard_message.is_some() && step.guard.is_none() {
            return refuse(
                format!("steps[{i}].guard_message"),
                "guard_message sans guard : il n'y a pas de garde à expliquer".into(),
            );
        }
        if step
            .guard_message
            .as_deref()
            .is_some_and(|m| m.trim().is_empty())
        {
            return refuse(
                format!("steps[{i}].guard_message"),
                "le message de la garde est vide".into(),
            );
        }
    }
    for (i, skill) in activation.exclusive_skills.iter().enumerate() {
        let field = format!("activation.exclusive_skills[{i}]");
        if !skills::exists(skill) {
            return refuse(field, unknown_skill(skill));
        }
        if !definition.steps.iter().any(|s| &s.skill == skill) {
            return refuse(
                field,
                format!("la skill exclusive « {skill} » doit être une des étapes du parcours"),
            );
        }
    }
    for (list, names) in [
        ("open", &definition.profiles.open),
        ("abandon", &definition.profiles.abandon),
    ] {
        for (i, profile) in names.iter().enumerate() {
            if profile.trim().is_empty() || profile.chars().any(char::is_whitespace) {
                return refuse(
                    format!("profiles.{list}[{i}]"),
                    format!("« {profile} » n'est pas un profil : un mot sans espace (ex. sales)"),
                );
            }
        }
    }
    Ok(())
}

/// Parses a `when` or guard at `field`; its error's column becomes the
/// column in the YAML file (where the text starts plus the column in it).
fn expression(outline: &Outline, field: &str, text: &str) -> Result<(), DefinitionError> {
    when::parse(text).map(|_| ()).map_err(|e| {
        let start = outline.value(field).or_else(|| outline.locate(field));
        DefinitionError {
            line: start.map(|s| s.line),
            column: start.map(|s| s.column + e.column.saturating_sub(1)),
            field: Some(field.to_string()),
            message: e.message,
        }
    })
}

fn unknown_skill(name: &str) -> String {
    format!(
        "« {name} » n'est pas une skill de l'assistant (voir la liste des skills dans la console)"
    )
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, as the table's check.
fn is_slug(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}
