//! `create_training_session`: what the team taught, as `training_sessions`
//! stores it (source `chat`): a verdict on a venue, or a guideline with
//! structured directives (`{trigger, prefer, avoid}`, seed 000).
use super::text::required;
use super::unavailable;
use crate::db::write_targets;
use crate::tools::args::{CreateTrainingSession, Directives};
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// The table's CHECK values.
pub const VERDICTS: &[&str] = &["approved", "rejected", "demoted", "guideline"];
pub const CATEGORIES: &[&str] = &["geo", "capacity", "ambiance", "service", "other"];
pub const MAX_REASON_CHARS: usize = 1000;
const MAX_DIRECTIVE_CHARS: usize = 100;
const MAX_DIRECTIVE_ITEMS: usize = 20;

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
}

fn invalid(text: String) -> ToolError {
    ToolError::InvalidArguments(text)
}

fn one_of(field: &str, value: &str, allowed: &[&str]) -> Result<String, ToolError> {
    let value = value.trim();
    if allowed.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(invalid(format!(
            "« {field} » inconnu : « {value} » (valeurs permises : {})",
            allowed.join(", ")
        )))
    }
}

fn items(field: &str, list: &[String]) -> Result<Vec<String>, ToolError> {
    if list.len() > MAX_DIRECTIVE_ITEMS {
        return Err(invalid(format!(
            "« directives.{field} » : au plus {MAX_DIRECTIVE_ITEMS} éléments"
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for item in list {
        let item = required(&format!("directives.{field}"), item, MAX_DIRECTIVE_CHARS)?;
        if !out.contains(&item) {
            out.push(item);
        }
    }
    Ok(out)
}

fn check_directives(d: &Directives) -> Result<Directives, ToolError> {
    Ok(Directives {
        trigger: required("directives.trigger", &d.trigger, MAX_DIRECTIVE_CHARS)?,
        prefer: items("prefer", &d.prefer)?,
        avoid: items("avoid", &d.avoid)?,
    })
}

pub async fn resolve(
    conn: &mut PgConnection,
    args: &CreateTrainingSession,
) -> Result<TrainingArgs, ToolError> {
    let verdict = one_of("verdict", &args.verdict, VERDICTS)?;
    let category = one_of("category", &args.category, CATEGORIES)?;
    let reason = required("reason", &args.reason, MAX_REASON_CHARS)?;
    let directives = args.directives.as_ref().map(check_directives).transpose()?;
    if verdict == "guideline" && directives.is_none() {
        return Err(invalid(
            "une consigne générale (verdict « guideline ») a besoin de « directives » \
             ({trigger, prefer, avoid})"
                .into(),
        ));
    }
    let code = args
        .member_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    if verdict != "guideline" && code.is_none() {
        return Err(invalid(format!(
            "un verdict « {verdict} » porte sur un lieu : donne « member_code »"
        )));
    }
    let event_type = match &args.event_type {
        Some(t) if !t.trim().is_empty() => Some(required("event_type", t, 60)?.to_lowercase()),
        _ => None,
    };
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
    Ok(TrainingArgs {
        request_id: args.request_id,
        member_id: member.as_ref().map(|m| m.id),
        member_code: member.map(|m| m.code),
        verdict,
        reason,
        category,
        event_type,
        directives,
    })
}

pub fn verdict_label(verdict: &str) -> &str {
    match verdict {
        "approved" => "bon choix",
        "rejected" => "à ne plus proposer",
        "demoted" => "compatible plutôt que recommandé",
        "guideline" => "consigne générale",
        other => other,
    }
}

pub fn category_label(category: &str) -> &str {
    match category {
        "geo" => "géographie",
        "capacity" => "capacité",
        "ambiance" => "ambiance",
        "service" => "service",
        "other" => "autre",
        other => other,
    }
}

pub async fn describe(
    conn: &mut PgConnection,
    args: &TrainingArgs,
) -> Result<(String, CardBody), ToolError> {
    let mut rows = vec![
        CardField {
            label: "Verdict".into(),
            value: verdict_label(&args.verdict).into(),
        },
        CardField {
            label: "Catégorie".into(),
            value: category_label(&args.category).into(),
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
        verdict => format!("Enregistrer une leçon : {}", verdict_label(verdict)),
    };
    Ok((title, CardBody::Fields { rows }))
}
