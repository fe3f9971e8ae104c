//! `request_availability_check`: asks a venue whether it is free for the
//! request's dates. Once approved, a check and its magic link are created;
//! one check per venue and request waits for an answer at a time.
use super::unavailable;
use crate::db::write_targets;
use crate::tools::args::RequestAvailabilityCheck;
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// How long the venue may answer (the check and its link expire together).
pub const ANSWER_DAYS: u64 = 7;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckArgs {
    pub request_id: i64,
    pub member_id: i64,
    pub member_code: String,
}

impl CheckArgs {
    pub fn input(&self) -> RequestAvailabilityCheck {
        RequestAvailabilityCheck {
            request_id: self.request_id,
            member_code: self.member_code.clone(),
        }
    }
}

pub async fn resolve(
    conn: &mut PgConnection,
    args: &RequestAvailabilityCheck,
) -> Result<CheckArgs, ToolError> {
    let code = args.member_code.trim().to_string();
    let request = write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| ToolError::NotFound(format!("demande {}", args.request_id)))?;
    let member = write_targets::members_by_codes(&mut *conn, std::slice::from_ref(&code))
        .await
        .map_err(unavailable)?
        .into_iter()
        .next()
        .ok_or_else(|| ToolError::NotFound(format!("lieu {code}")))?;
    if write_targets::pending_availability_check(&mut *conn, request.id, member.id)
        .await
        .map_err(unavailable)?
    {
        return Err(ToolError::InvalidArguments(format!(
            "une demande de disponibilité attend déjà la réponse du lieu {code} pour la demande {} : \
             inutile d'en envoyer une autre",
            request.reference
        )));
    }
    Ok(CheckArgs {
        request_id: request.id,
        member_id: member.id,
        member_code: member.code,
    })
}

pub async fn describe(
    conn: &mut PgConnection,
    args: &CheckArgs,
) -> Result<(String, CardBody), ToolError> {
    let request = write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?;
    let member = write_targets::members_by_ids(&mut *conn, &[args.member_id])
        .await
        .map_err(unavailable)?
        .into_iter()
        .next();
    let reference = request.as_ref().map_or_else(
        || format!("n° {}", args.request_id),
        |r| r.reference.clone(),
    );
    let name = member
        .as_ref()
        .map_or_else(|| "(lieu supprimé)".to_string(), |m| m.name.clone());
    let city = member.and_then(|m| m.city).unwrap_or_default();
    let fmt = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let dates = match request.map(|r| (r.event_start_date, r.event_end_date)) {
        Some((Some(start), Some(end))) if end != start => {
            format!("du {} au {}", fmt(start), fmt(end))
        }
        Some((Some(start), _)) => fmt(start),
        _ => "(non précisées)".into(),
    };
    let rows = vec![
        CardField {
            label: "Demande".into(),
            value: reference.clone(),
        },
        CardField {
            label: "Lieu".into(),
            value: format!("{name} ({}) — {city}", args.member_code)
                .trim_end_matches(" — ")
                .to_string(),
        },
        CardField {
            label: "Dates".into(),
            value: dates,
        },
        CardField {
            label: "Réponse attendue sous".into(),
            value: format!("{ANSWER_DAYS} jours"),
        },
    ];
    let title = format!("Demander ses disponibilités à {name} pour la demande {reference}");
    Ok((title, CardBody::Fields { rows }))
}
