//! One training session, checked before anything is written: verdict,
//! category, reason, event type, directives, and the venue a verdict is
//! about. Every refusal is a French sentence naming the problem.
use super::directives::{self, Directives};
use super::event_type;
use serde::{Deserialize, Serialize};

/// The table's CHECK values.
pub const VERDICTS: &[&str] = &["approved", "rejected", "demoted", "guideline"];
pub const CATEGORIES: &[&str] = &["geo", "capacity", "ambiance", "service", "other"];
pub const MAX_REASON_CHARS: usize = 1000;

/// Where a session comes from (`training_sessions.source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    LearnButton,
    Chat,
    Workspace,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::LearnButton => "learn_button",
            Source::Chat => "chat",
            Source::Workspace => "workspace",
        }
    }
}

/// A session as a form or a tool gives it (untrusted).
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub catalogue_id: Option<i64>,
    pub verdict: String,
    pub reason: String,
    pub category: String,
    pub event_type: Option<String>,
    /// Already checked by [`directives::check`] / [`directives::check_json`].
    pub directives: Option<Directives>,
}

/// A session that may be written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Valid {
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub catalogue_id: Option<i64>,
    pub verdict: String,
    pub reason: String,
    pub category: String,
    /// Stored form (lower-case, trimmed); compared by [`event_type::key`].
    pub event_type: Option<String>,
    pub directives: Option<Directives>,
}

/// What is wrong, in French.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

impl From<directives::Invalid> for Invalid {
    fn from(e: directives::Invalid) -> Self {
        Invalid(e.0)
    }
}

/// `value` if it is one of `allowed`; `what` names the field (« verdict »,
/// « catégorie »), `article` its indefinite article.
fn one_of(what: &str, article: &str, value: &str, allowed: &[&str]) -> Result<String, Invalid> {
    let value = value.trim();
    if allowed.contains(&value) {
        Ok(value.to_string())
    } else if value.is_empty() {
        Err(Invalid(format!("Choisissez {article} {what}.")))
    } else {
        let unknown = if article == "une" {
            "inconnue"
        } else {
            "inconnu"
        };
        Err(Invalid(format!(
            "{} {unknown} : « {value} » (valeurs permises : {}).",
            app::fr::capitalized(what),
            allowed.join(", ")
        )))
    }
}

/// Checks a draft; nothing is read from the database (the writer checks
/// that the request, venue and catalogue exist).
pub fn check(draft: &Draft) -> Result<Valid, Invalid> {
    let verdict = one_of("verdict", "un", &draft.verdict, VERDICTS)?;
    let category = one_of("catégorie", "une", &draft.category, CATEGORIES)?;
    let reason = draft.reason.trim().to_string();
    if reason.contains('\0') {
        return Err(Invalid("La raison contient un caractère nul.".into()));
    }
    let n = reason.chars().count();
    if n > MAX_REASON_CHARS {
        return Err(Invalid(format!(
            "La raison est trop longue ({n} caractères, {MAX_REASON_CHARS} au plus)."
        )));
    }
    if reason.is_empty() && matches!(verdict.as_str(), "rejected" | "demoted") {
        return Err(Invalid(format!(
            "Dites pourquoi le lieu est {} : la raison est obligatoire.",
            if verdict == "rejected" {
                "écarté"
            } else {
                "rétrogradé"
            }
        )));
    }
    let event_type = match draft.event_type.as_deref().and_then(event_type::normalize) {
        None => None,
        Some(t) if t.chars().count() > event_type::MAX_CHARS => {
            return Err(Invalid(format!(
                "Le type d'événement est trop long ({} caractères au plus).",
                event_type::MAX_CHARS
            )))
        }
        Some(t) if event_type::key(&t).is_empty() => {
            return Err(Invalid(format!(
                "Le type d'événement ne contient ni lettre ni chiffre : « {t} »."
            )))
        }
        Some(t) => Some(t),
    };
    if verdict == "guideline" {
        if draft.directives.is_none() {
            return Err(Invalid(
                "Une consigne générale a besoin d'une directive : un déclencheur et des mots à préférer ou à éviter."
                    .into(),
            ));
        }
        if draft.member_id.is_some() {
            return Err(Invalid(
                "Une consigne générale ne porte pas sur un lieu : choisissez un autre verdict pour ce lieu."
                    .into(),
            ));
        }
    } else if draft.member_id.is_none() {
        return Err(Invalid(format!(
            "Le verdict « {} » porte sur un lieu : lequel ?",
            app::fr::training_verdict(&verdict)
        )));
    }
    for (label, id) in [
        ("demande", draft.request_id),
        ("lieu", draft.member_id),
        ("catalogue", draft.catalogue_id),
    ] {
        if id.is_some_and(|id| id <= 0) {
            return Err(Invalid(format!("Identifiant de {label} invalide.")));
        }
    }
    Ok(Valid {
        request_id: draft.request_id,
        member_id: draft.member_id,
        catalogue_id: draft.catalogue_id,
        verdict,
        reason,
        category,
        event_type,
        directives: draft.directives.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> Draft {
        Draft {
            request_id: Some(1),
            member_id: Some(2),
            verdict: "rejected".into(),
            reason: "pas d'extérieur".into(),
            category: "ambiance".into(),
            event_type: Some("  Cocktail ".into()),
            ..Draft::default()
        }
    }

    #[test]
    fn a_rejection_is_normalised() {
        let v = check(&draft()).unwrap();
        assert_eq!(v.event_type.as_deref(), Some("cocktail"));
        assert_eq!(v.verdict, "rejected");
    }

    #[test]
    fn each_rule_has_its_message() {
        let msg = |f: fn(&mut Draft)| {
            let mut d = draft();
            f(&mut d);
            check(&d).unwrap_err().0
        };
        assert!(msg(|d| d.verdict = "bof".into()).contains("« bof »"));
        assert!(msg(|d| d.verdict = String::new()).contains("verdict"));
        assert!(msg(|d| d.category = "prix".into()).contains("« prix »"));
        assert!(msg(|d| d.reason = "  ".into()).contains("raison est obligatoire"));
        assert!(msg(|d| d.reason = "x".repeat(1001)).contains("trop longue"));
        assert!(msg(|d| d.event_type = Some("e".repeat(61))).contains("trop long"));
        assert!(msg(|d| d.member_id = None).contains("porte sur un lieu"));
        assert!(msg(|d| d.verdict = "guideline".into()).contains("directive"));
        assert!(msg(|d| d.request_id = Some(-1)).contains("demande"));
    }

    #[test]
    fn an_approval_needs_no_reason() {
        let mut d = draft();
        d.verdict = "approved".into();
        d.reason = String::new();
        assert!(check(&d).is_ok());
    }
}
