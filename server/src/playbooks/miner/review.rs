//! An admin's review of a suggestion: accept it (it becomes a playbook in
//! observe mode, scored and logged but never opening until an admin makes
//! it active), edit its draft, or dismiss it. Each is audited in the
//! transaction that changes the suggestion, and refused whole when it
//! cannot be done: an invalid YAML, a name already used, a suggestion
//! already reviewed leave everything as it was.
use crate::audit::{self, Actor, Event};
use crate::playbooks::definition::{self, DefinitionError};
use crate::playbooks::store;
use sqlx::PgPool;

/// Why a review was refused; the message is French, for the console.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("cette suggestion n'existe pas")]
    NotFound,
    #[error("cette suggestion a déjà été examinée")]
    AlreadyReviewed,
    /// The YAML does not parse; located (line, column, field).
    #[error("définition refusée : {0}")]
    Invalid(DefinitionError),
    #[error("un playbook s'appelle déjà « {0} » : changez le nom (name) avant d'accepter")]
    NameTaken(String),
    #[error("le playbook n'a pas pu être enregistré : {0}")]
    Save(String),
    #[error("erreur de base de données")]
    Db(#[from] sqlx::Error),
}

/// [`accept`]'s error.
pub type AcceptError = ReviewError;
/// [`edit_draft`]'s and [`dismiss`]'s error.
pub type EditError = ReviewError;

const OBJECT: &str = "suggested_playbook";

#[derive(sqlx::FromRow)]
struct OpenSuggestion {
    pattern_key: String,
    status: String,
    yaml: Option<String>,
}

/// Locks the suggestion for the rest of `tx`; refused unless it is new.
async fn lock_new(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    suggestion_id: i64,
) -> Result<OpenSuggestion, ReviewError> {
    let row = sqlx::query_as::<_, OpenSuggestion>(
        "SELECT pattern_key, status, draft ->> 'yaml' AS yaml
           FROM suggested_playbooks WHERE id = $1 FOR UPDATE",
    )
    .bind(suggestion_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(ReviewError::NotFound)?;
    if row.status != "new" {
        return Err(ReviewError::AlreadyReviewed);
    }
    Ok(row)
}

/// Makes the suggestion a playbook in observe mode, from `yaml` (the
/// admin's edit) or else its draft, and marks it accepted; the playbook's
/// name is returned. Nothing changes when the definition is invalid or its
/// name is already a playbook's (accepting must never overwrite one).
pub async fn accept(
    db: &PgPool,
    suggestion_id: i64,
    yaml: Option<&str>,
    by: i64,
) -> Result<String, AcceptError> {
    let mut tx = db.begin().await?;
    let open = lock_new(&mut tx, suggestion_id).await?;
    let source = match yaml {
        Some(edited) => edited.to_string(),
        None => open.yaml.unwrap_or_default(),
    };
    let parsed = definition::parse(&source).map_err(ReviewError::Invalid)?;
    let taken: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM playbooks WHERE name = $1)")
        .bind(&parsed.name)
        .fetch_one(&mut *tx)
        .await?;
    if taken {
        return Err(ReviewError::NameTaken(parsed.name));
    }
    // The store writes on its own connection; the suggestion stays locked
    // meanwhile, so a second accept waits and then finds it reviewed.
    let saved = store::save(db, &source, store::Status::Observe, Some(by))
        .await
        .map_err(|e| ReviewError::Save(e.to_string()))?;
    sqlx::query(
        "UPDATE suggested_playbooks
            SET status = 'accepted', reviewed_by = $2, reviewed_at = now(),
                accepted_playbook_id = $3
          WHERE id = $1",
    )
    .bind(suggestion_id)
    .bind(by)
    .bind(saved.id)
    .execute(&mut *tx)
    .await?;
    audit::write(
        &mut *tx,
        Event::new(Actor::User(by), "playbook.suggestion_accepted")
            .on(OBJECT, suggestion_id)
            .details(serde_json::json!({
                "pattern": open.pattern_key,
                "playbook": parsed.name,
                "playbook_id": saved.id,
                "edited": yaml.is_some(),
            })),
    )
    .await?;
    tx.commit().await?;
    Ok(parsed.name)
}

/// Replaces the draft's YAML with the admin's, validated first (a refusal
/// names the line and the field). The miner keeps an edited YAML when it
/// refreshes the counts.
pub async fn edit_draft(
    db: &PgPool,
    suggestion_id: i64,
    yaml: &str,
    by: i64,
) -> Result<(), EditError> {
    let mut tx = db.begin().await?;
    let open = lock_new(&mut tx, suggestion_id).await?;
    let parsed = definition::parse(yaml).map_err(ReviewError::Invalid)?;
    sqlx::query(
        "UPDATE suggested_playbooks
            SET draft = draft || jsonb_build_object('yaml', $2::text, 'edited_by', $3::bigint)
          WHERE id = $1",
    )
    .bind(suggestion_id)
    .bind(yaml)
    .bind(by)
    .execute(&mut *tx)
    .await?;
    audit::write(
        &mut *tx,
        Event::new(Actor::User(by), "playbook.suggestion_edited")
            .on(OBJECT, suggestion_id)
            .details(serde_json::json!({
                "pattern": open.pattern_key,
                "playbook": parsed.name,
            })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Sets the suggestion aside; the miner does not bring its pattern back
/// for the same week.
pub async fn dismiss(db: &PgPool, suggestion_id: i64, by: i64) -> Result<(), EditError> {
    let mut tx = db.begin().await?;
    let open = lock_new(&mut tx, suggestion_id).await?;
    sqlx::query(
        "UPDATE suggested_playbooks
            SET status = 'dismissed', reviewed_by = $2, reviewed_at = now()
          WHERE id = $1",
    )
    .bind(suggestion_id)
    .bind(by)
    .execute(&mut *tx)
    .await?;
    audit::write(
        &mut *tx,
        Event::new(Actor::User(by), "playbook.suggestion_dismissed")
            .on(OBJECT, suggestion_id)
            .details(serde_json::json!({ "pattern": open.pattern_key })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
