//! `create_training_session`: what the team taught, as `training_sessions`
//! stores it (source `chat`): a verdict on a venue, or a guideline with
//! structured directives (`{trigger, prefer, avoid}`, seed 000). Checked by
//! the same rules as the « Apprendre » button (`training::validate`).
use super::unavailable;
use crate::db::write_targets;
use crate::tools::args::{CreateTrainingSession, Directives};
use crate::tools::ToolError;
use crate::training::{directives, validate};
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

pub use crate::training::validate::{CATEGORIES, MAX_REASON_CHARS, VERDICTS};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainingArgs {
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub member_code: Option<String>,
    pub verdict: String,
    pub reason: String,
    pub category: String,
    pub event_type: Option<String>,
    pub directives: Option<Directives>,
}

impl TrainingArgs {
    pub fn input(&self) -> CreateTrainingSession {
        CreateTrainingSession {
            request_id: self.request_id,
            member_code: self.member_code.clone(),
            verdict: self.verdict.clone(),
            reason: self.reason.clone(),
            category: self.category.clone(),
            event_type: self.event_type.clone(),
            directives: self.directives.clone(),
        }
    }

    /// The session as the shared writer takes it.
    pub fn valid(&self) -> validate::Valid {
        validate::Valid {
            request_id: self.request_id,
            member_id: self.member_id,
            catalogue_id: None,
            verdict: self.verdict.clone(),
            reason: self.reason.clone(),
            category: self.category.clone(),
            event_type: self.event_type.clone(),
            directives: self.directives.as_ref().map(|d| directives::Directives {
                trigger: d.trigger.clone(),
                prefer: d.prefer.clone(),
                avoid: d.avoid.clone(),
            }),
        }
    }
}

fn invalid(text: String) -> ToolError {
    ToolError::InvalidArguments(text)
}

pub async fn resolve(
    conn: &mut PgConnection,
    args: &CreateTrainingSession,
) -> Result<TrainingArgs, ToolError> {
    let checked = args
        .directives
        .as_ref()
        .map(|d| directives::check(&d.trigger, &d.prefer, &d.avoid))
        .transpose()
        .map_err(|e| invalid(e.0))?;
    let code = args
        .member_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    if let Some(id) = args.request_id {
        write_targets::request(&mut *conn, id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ToolError::NotFound(format!("demande {id}")))?;
    }
    let member = match code {
        Some(code) => Some(
            write_targets::members_by_codes(&mut *conn, &[code.to_string()])
                .await
                .map_err(unavailable)?
                .into_iter()
                .next()
                .ok_or_else(|| ToolError::NotFound(format!("lieu {code}")))?,
        ),
        None => None,
    };
    let valid = validate::check(&validate::Draft {
        request_id: args.request_id,
        member_id: member.as_ref().map(|m| m.id),
        catalogue_id: None,
        verdict: args.verdict.clone(),
        reason: args.reason.clone(),
        category: args.category.clone(),
        event_type: args.event_type.clone(),
        directives: checked,
    })
    .map_err(|e| invalid(e.0))?;
    Ok(TrainingArgs {
        request_id: valid.request_id,
        member_id: valid.member_id,
        member_code: member.map(|m| m.code),
        verdict: valid.verdict,
        reason: valid.reason,
        category: valid.category,
        event_type: valid.event_type,
        directives: valid.directives.map(|d| Directives {
            trigger: d.trigger,
            prefer: d.prefer,
            avoid: d.avoid,
        }),
    })
}

pub async fn describe(
    conn: &mut PgConnection,
    args: &TrainingArgs,
) -> Result<(String, CardBody), ToolError> {
    let mut rows = vec![
        CardField {
            label: "Verdict".into(),
            value: app::fr::training_verdict(&args.verdict).into(),
        },
        CardField {
            label: "Catégorie".into(),
            value: app::fr::training_category(&args.category).into(),
        },
    ];
    if let Some(id) = args.request_id {
        let request = write_targets::request(&mut *conn, id)
            .await
            .map_err(unavailable)?;
        rows.push(CardField {
            label: "Demande".into(),
            value: request.map_or_else(|| format!("n° {id}"), |r| r.reference),
        });
    }
    if let (Some(id), Some(code)) = (args.member_id, &args.member_code) {
        let name = write_targets::members_by_ids(&mut *conn, &[id])
            .await
            .map_err(unavailable)?
            .into_iter()
            .next()
            .map_or_else(|| "(lieu supprimé)".to_string(), |m| m.name);
        rows.push(CardField {
            label: "Lieu".into(),
            value: format!("{name} ({code})"),
        });
    }
    if let Some(t) = &args.event_type {
        rows.push(CardField {
            label: "Type d'événement".into(),
            value: t.clone(),
        });
    }
    rows.push(CardField {
        label: "Raison".into(),
        value: args.reason.clone(),
    });
    if let Some(d) = &args.directives {
        rows.push(CardField {
            label: "Quand".into(),
            value: d.trigger.clone(),
        });
        if !d.prefer.is_empty() {
            rows.push(CardField {
                label: "Préférer".into(),
                value: d.prefer.join(", "),
            });
        }
        if !d.avoid.is_empty() {
            rows.push(CardField {
                label: "Éviter".into(),
                value: d.avoid.join(", "),
            });
        }
    }
    let title = match args.verdict.as_str() {
        "guideline" => "Enregistrer une consigne générale".to_string(),
        verdict => format!(
            "Enregistrer une leçon : {}",
            app::fr::training_verdict(verdict)
        ),
    };
    Ok((title, CardBody::Fields { rows }))
}
