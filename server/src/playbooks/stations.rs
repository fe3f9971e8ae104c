//! Stations: the places the assistant works (the team chat, the training
//! workspace), each with its tools and its guidance settings
//! `{enforce, suggest, margin, max_mode}` that admins edit. A new station
//! starts in observe (migration 0027): scores are computed and logged, and
//! nothing opens until an admin raises the cap.
use super::decide::{Band, Guidance};
use crate::audit::{self, Actor, Event};
use crate::tools::Mode;
use sqlx::PgPool;

/// The team chat.
pub const CHAT: &str = "chat";
/// The training workspace.
pub const TRAINING: &str = "training";

/// One station as admins see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Station {
    pub name: String,
    /// French (« Chat de l'équipe »).
    pub label: String,
    pub guidance: Guidance,
    /// The tools the assistant has there, guidance tools included.
    pub tools: Vec<&'static str>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

#[derive(Debug, thiserror::Error)]
pub enum StationError {
    #[error("cette station n'existe pas : {0}")]
    Unknown(String),
    #[error("réglage refusé : {0}")]
    Invalid(#[from] super::decide::GuidanceError),
    #[error("base de données : {0}")]
    Db(#[from] sqlx::Error),
}

/// The station a conversation of `mode` runs in.
pub fn for_mode(mode: Mode) -> &'static str {
    match mode {
        Mode::Chat => CHAT,
        Mode::Training => TRAINING,
    }
}

/// The tools of a station: the assistant's tools of its mode, then the
/// guidance tools (`seek_guidance`, `start_playbook`, `abandon_playbook`).
pub fn tools(name: &str) -> Vec<&'static str> {
    let mode = if name == TRAINING {
        Mode::Training
    } else {
        Mode::Chat
    };
    crate::tools::read::NAMES
        .iter()
        .chain(crate::tools::write::NAMES)
        .copied()
        .filter(|name| crate::tools::schema::for_tool(name, mode).is_some())
        .chain(crate::tools::GUIDANCE)
        .collect()
}

#[derive(sqlx::FromRow)]
struct Row {
    name: String,
    label: String,
    enforce_threshold: f64,
    suggest_threshold: f64,
    margin: f64,
    max_mode: String,
    updated_at: chrono::DateTime<chrono::Utc>,
}

impl From<Row> for Station {
    fn from(r: Row) -> Self {
        Station {
            tools: tools(&r.name),
            guidance: Guidance {
                enforce: r.enforce_threshold,
                suggest: r.suggest_threshold,
                margin: r.margin,
                // The column's CHECK admits only the three bands.
                max_mode: Band::parse(&r.max_mode).unwrap_or(Band::Observe),
            },
            name: r.name,
            label: r.label,
            updated_at: r.updated_at,
        }
    }
}

const COLUMNS: &str =
    "name, label, enforce_threshold, suggest_threshold, margin, max_mode, updated_at";

pub async fn list(db: &PgPool) -> sqlx::Result<Vec<Station>> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM stations ORDER BY name = 'chat' DESC, name"
    ))
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Station::from).collect())
}

pub async fn get(db: &PgPool, name: &str) -> sqlx::Result<Option<Station>> {
    let row: Option<Row> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM stations WHERE name = $1"))
            .bind(name)
            .fetch_optional(db)
            .await?;
    Ok(row.map(Station::from))
}

/// The settings in force at `name`; a station missing from the table (it
/// never is after the migration) is treated as new: observe.
pub async fn guidance(db: &PgPool, name: &str) -> sqlx::Result<Guidance> {
    Ok(get(db, name)
        .await?
        .map(|s| s.guidance)
        .unwrap_or(Guidance {
            enforce: 0.85,
            suggest: 0.5,
            margin: 0.05,
            max_mode: Band::Observe,
        }))
}

/// Changes a station's settings: validated first (nothing written when
/// refused), audited with the values before and after.
pub async fn update(
    db: &PgPool,
    name: &str,
    guidance: Guidance,
    by: Option<i64>,
) -> Result<(), StationError> {
    guidance.validate()?;
    let mut tx = db.begin().await?;
    let before: Option<Row> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM stations WHERE name = $1 FOR UPDATE"
    ))
    .bind(name)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(before) = before else {
        return Err(StationError::Unknown(name.to_string()));
    };
    sqlx::query(
        "UPDATE stations SET enforce_threshold = $2, suggest_threshold = $3, margin = $4,
                max_mode = $5, updated_by = $6
          WHERE name = $1",
    )
    .bind(name)
    .bind(guidance.enforce)
    .bind(guidance.suggest)
    .bind(guidance.margin)
    .bind(guidance.max_mode.as_str())
    .bind(by)
    .execute(&mut *tx)
    .await?;
    let actor = by.map_or(Actor::System, Actor::User);
    let details = serde_json::json!({
        "station": name,
        "before": {"enforce": before.enforce_threshold, "suggest": before.suggest_threshold,
                   "margin": before.margin, "max_mode": before.max_mode},
        "after": {"enforce": guidance.enforce, "suggest": guidance.suggest,
                  "margin": guidance.margin, "max_mode": guidance.max_mode.as_str()},
    });
    audit::write(
        &mut *tx,
        Event::new(actor, "playbook.station_settings").details(details),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
