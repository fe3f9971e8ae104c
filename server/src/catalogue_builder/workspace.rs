//! The training workspace (« Atelier »): past requests to train on, and
//! requests invented there.
//!
//! Decision: an invented request is STORED (source `manual`, flagged
//! `workspace_scenario`, reference `ATELIER-<id>`), because a training
//! catalogue belongs to a request (`catalogues.request_id` is required) and
//! the verdicts recorded on it (« Apprendre ») name that request. The flag
//! lets the requests list and the similar-requests lookup leave it out.
use super::rules::Kind;
use crate::db::catalogues::{self, NewScenario};
use crate::db::venue_search;
use crate::db::{app_error, catalogue_drafts};
use app::catalogue_builder::{InventedScenario, ScenarioOption};
use app::errors::AppError;
use app::room_configurations::Configuration;
use sqlx::PgPool;

/// The latest requests the workspace lists.
const SCENARIOS: i64 = 30;

pub async fn scenarios(db: &PgPool) -> Result<Vec<ScenarioOption>, AppError> {
    let rows = catalogues::scenarios(db, SCENARIOS)
        .await
        .map_err(app_error)?;
    Ok(rows
        .into_iter()
        .map(|r| ScenarioOption {
            request_id: r.id,
            reference: r.reference,
            summary: r.description,
            event_type: r.event_type,
            participants: r.participants,
            workspace_scenario: r.workspace_scenario,
            training_picks: r.training_picks,
        })
        .collect())
}

fn invalid(text: impl Into<String>) -> AppError {
    AppError::Invalid(text.into())
}

/// A short free text: trimmed, at most `max` characters, no NUL.
fn text(field: &str, value: &str, max: usize) -> Result<String, AppError> {
    let value = value.trim();
    if value.contains('\0') {
        return Err(invalid(format!("{field} contient un caractère nul.")));
    }
    let n = value.chars().count();
    if n > max {
        return Err(invalid(format!("{field} dépasse {max} caractères ({n}).")));
    }
    Ok(value.to_string())
}

/// Validates and stores an invented request, with its training draft (the
/// form says « Créer et entraîner »: its builder opens on that draft); the
/// request's id.
pub async fn invent(db: &PgPool, user_id: i64, s: InventedScenario) -> Result<i64, AppError> {
    let description = text("La description", &s.description, 2000)?;
    if description.is_empty() {
        return Err(invalid("Décrivez l'événement (une phrase suffit)."));
    }
    let participants = match s.participants {
        None => None,
        Some(n) if (1..=100_000).contains(&n) => i32::try_from(n).ok(),
        Some(n) => {
            return Err(invalid(format!(
                "Nombre de participants impossible : {n} (de 1 à 100 000)."
            )))
        }
    };
    let mut configurations = Vec::new();
    for c in &s.configurations {
        let c = Configuration::from_key(c.trim())
            .ok_or_else(|| invalid(format!("Configuration inconnue : « {c} ».")))?;
        if !configurations.contains(&c.key().to_string()) {
            configurations.push(c.key().to_string());
        }
    }
    let postal_codes: Vec<String> = s
        .postal_codes
        .split([',', ' ', ';'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(bad) = postal_codes
        .iter()
        .find(|c| c.len() != 5 || !c.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(invalid(format!(
            "Code postal invalide : « {bad} » (cinq chiffres)."
        )));
    }
    if postal_codes.len() > 50 {
        return Err(invalid("50 codes postaux au plus."));
    }
    let area = text("La zone", &s.area, 200)?;
    let event_type = text("Le type d'événement", &s.event_type, 100)?.to_lowercase();
    let pool = venue_search::pool_by_slug(db, s.pool.trim())
        .await
        .map_err(app_error)?
        .ok_or_else(|| invalid("Choisissez un pool."))?;
    let mut tx = db.begin().await.map_err(app_error)?;
    let id = catalogues::insert_scenario(
        &mut tx,
        &NewScenario {
            pool_id: pool.id,
            description: &description,
            participants,
            configurations: &configurations,
            postal_codes: &postal_codes,
            area: Some(area.as_str()).filter(|a| !a.is_empty()),
            event_type: Some(event_type.as_str()).filter(|e| !e.is_empty()),
            user_id,
        },
    )
    .await
    .map_err(app_error)?;
    catalogue_drafts::lock_draft(&mut tx, id, Kind::Training.key(), user_id)
        .await
        .map_err(app_error)?;
    tx.commit().await.map_err(app_error)?;
    Ok(id)
}
