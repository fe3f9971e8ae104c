//! Playbooks in the database: each save of a changed YAML is a new version
//! (`playbooks` holds the current one, `playbook_versions` every one), and
//! every change is audited in the same transaction.
//!
//! The row keeps the YAML as written (`source`, comments included) and its
//! parse as JSON (`definition`), plus the columns a decision filters on
//! (`goal`, `activation_when`, `activation_intent`, `exclusive_skills`).
//! A playbook is `active` (it may open), `observe` (scored and logged,
//! never opened: an accepted suggestion starts there) or `disabled`.
mod read;
mod shipped;

pub use read::{candidates, get, list, versions};

use super::definition::{self, Definition, DefinitionError};
use crate::audit::{self, Actor, Event};
use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgPool;

/// A playbook as stored, at its current version.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPlaybook {
    pub id: i64,
    pub name: String,
    pub version: i32,
    pub status: Status,
    pub source: String,
    pub definition: Definition,
    pub updated_at: DateTime<Utc>,
}

/// Whether a playbook takes part in decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Observe,
    Disabled,
}

impl Status {
    pub const ALL: [Status; 3] = [Status::Active, Status::Observe, Status::Disabled];

    /// The value of the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Observe => "observe",
            Status::Disabled => "disabled",
        }
    }

    /// As the console shows it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Active => "Actif",
            Status::Observe => "En observation",
            Status::Disabled => "Désactivé",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// One version of a playbook, for its history.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Version {
    pub version: i32,
    pub source: String,
    pub created_at: DateTime<Utc>,
    pub created_by_name: Option<String>,
}

/// What a save did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub id: i64,
    pub name: String,
    /// The current version after the save.
    pub version: i32,
    /// A new playbook.
    pub created: bool,
    /// Something was written (a new playbook or a new version).
    pub changed: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The YAML was refused; nothing was written.
    #[error("définition refusée : {0}")]
    Invalid(DefinitionError),
    #[error("erreur de base de données : {0}")]
    Db(#[from] sqlx::Error),
}

fn actor(by: Option<i64>) -> Actor {
    by.map_or(Actor::System, Actor::User)
}

/// Saves `source`: parsed and validated first (nothing is written when it
/// is refused), then inserted with `status_if_new`, or stored as a new
/// version when its text changed; unchanged text writes nothing.
pub async fn save(
    db: &PgPool,
    source: &str,
    status_if_new: Status,
    by: Option<i64>,
) -> Result<Saved, SaveError> {
    let definition = definition::parse(source).map_err(SaveError::Invalid)?;
    let json = serde_json::to_value(&definition).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let mut tx = db.begin().await?;
    let current: Option<(i64, i32, String)> =
        sqlx::query_as("SELECT id, version, source FROM playbooks WHERE name = $1 FOR UPDATE")
            .bind(&definition.name)
            .fetch_optional(&mut *tx)
            .await?;
    let (id, version, created) = match current {
        Some((id, version, stored)) if stored == source => {
            return Ok(Saved {
                id,
                name: definition.name,
                version,
                created: false,
                changed: false,
            });
        }
        Some((id, version, _)) => {
            sqlx::query(
                "UPDATE playbooks
                    SET goal = $2, activation_when = $3, activation_intent = $4,
                        exclusive_skills = $5, definition = $6, source = $7, version = $8
                  WHERE id = $1",
            )
            .bind(id)
            .bind(&definition.goal)
            .bind(&definition.activation.when)
            .bind(&definition.activation.intent)
            .bind(&definition.activation.exclusive_skills)
            .bind(&json)
            .bind(source)
            .bind(version + 1)
            .execute(&mut *tx)
            .await?;
            (id, version + 1, false)
        }
        None => {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO playbooks (name, goal, activation_when, activation_intent,
                                        exclusive_skills, definition, source, status, version, created_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9)
                 RETURNING id",
            )
            .bind(&definition.name)
            .bind(&definition.goal)
            .bind(&definition.activation.when)
            .bind(&definition.activation.intent)
            .bind(&definition.activation.exclusive_skills)
            .bind(&json)
            .bind(source)
            .bind(status_if_new.as_str())
            .bind(by)
            .fetch_one(&mut *tx)
            .await?;
            (id, 1, true)
        }
    };
    sqlx::query(
        "INSERT INTO playbook_versions (playbook_id, version, definition, source, created_by)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(version)
    .bind(&json)
    .bind(source)
    .bind(by)
    .execute(&mut *tx)
    .await?;
    let mut details = json!({ "name": definition.name, "version": version, "created": created });
    if created {
        details["status"] = status_if_new.as_str().into();
    }
    audit::write(
        &mut *tx,
        Event::new(actor(by), "playbook.saved")
            .on("playbook", id)
            .details(details),
    )
    .await?;
    tx.commit().await?;
    Ok(Saved {
        id,
        name: definition.name,
        version,
        created,
        changed: true,
    })
}

/// Sets the status of `name` (audited with the status it had). An unknown
/// name is `Db(RowNotFound)`; the same status writes nothing.
pub async fn set_status(
    db: &PgPool,
    name: &str,
    status: Status,
    by: Option<i64>,
) -> Result<(), SaveError> {
    let mut tx = db.begin().await?;
    let (id, previous): (i64, String) =
        sqlx::query_as("SELECT id, status FROM playbooks WHERE name = $1 FOR UPDATE")
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
    if previous == status.as_str() {
        return Ok(());
    }
    sqlx::query("UPDATE playbooks SET status = $2 WHERE id = $1")
        .bind(id)
        .bind(status.as_str())
        .execute(&mut *tx)
        .await?;
    audit::write(
        &mut *tx,
        Event::new(actor(by), "playbook.status")
            .on("playbook", id)
            .details(json!({ "name": name, "from": previous, "to": status.as_str() })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The shipped YAMLs: (file name, source).
pub fn shipped() -> &'static [(&'static str, &'static str)] {
    shipped::SHIPPED
}

/// Creates the shipped playbooks that are missing, active; returns how
/// many. One that exists is left as the admins have it, edits included: a
/// restart must never undo them. Running it twice writes nothing more.
pub async fn import_shipped(db: &PgPool, by: Option<i64>) -> Result<usize, SaveError> {
    let mut created = 0;
    for (_, source) in shipped() {
        let definition = definition::parse(source).map_err(SaveError::Invalid)?;
        if get(db, &definition.name).await?.is_some() {
            continue;
        }
        if save(db, source, Status::Active, by).await?.created {
            created += 1;
        }
    }
    Ok(created)
}
