//! Playbook runs in a conversation: at most one open (a unique index), its
//! steps done so far, and its end — completed, abandoned or replaced —
//! each written with its audit row in one transaction.
use crate::audit::{self, Actor, Event};
use crate::playbooks::definition::Definition;
use sqlx::PgPool;

/// The run that rules a conversation, with the definition it obeys (the
/// version it was opened with, not the playbook's latest).
#[derive(Clone, Debug, PartialEq)]
pub struct OpenRun {
    pub id: i64,
    pub playbook_id: i64,
    pub name: String,
    pub version: i32,
    pub definition: Definition,
    pub steps_done: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    playbook_id: i64,
    name: String,
    playbook_version: i32,
    definition: serde_json::Value,
    steps_done: Vec<String>,
}

pub async fn open_run(db: &PgPool, conversation_id: i64) -> sqlx::Result<Option<OpenRun>> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT r.id, r.playbook_id, p.name, r.playbook_version, r.steps_done,
                COALESCE(v.definition, p.definition) AS definition
           FROM playbook_runs r
           JOIN playbooks p ON p.id = r.playbook_id
           LEFT JOIN playbook_versions v
                  ON v.playbook_id = r.playbook_id AND v.version = r.playbook_version
          WHERE r.conversation_id = $1 AND r.status = 'open'",
    )
    .bind(conversation_id)
    .fetch_optional(db)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let definition: Definition = serde_json::from_value(row.definition).map_err(|e| {
        sqlx::Error::Decode(format!("playbook run {}: definition: {e}", row.id).into())
    })?;
    Ok(Some(OpenRun {
        id: row.id,
        playbook_id: row.playbook_id,
        name: row.name,
        version: row.playbook_version,
        definition,
        steps_done: row.steps_done,
    }))
}

/// How a run was opened (the `opened_by` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenedBy {
    /// A deterministic trigger (`when` without intent, `auto_trigger`).
    Trigger,
    /// The score reached ENFORCE (`seek_guidance`).
    Model,
    /// `start_playbook`.
    Explicit,
    /// The first write without an open playbook.
    ImplicitGate,
}

impl OpenedBy {
    fn as_str(self) -> &'static str {
        match self {
            OpenedBy::Trigger => "trigger",
            OpenedBy::Model => "model",
            OpenedBy::Explicit => "explicit",
            OpenedBy::ImplicitGate => "implicit_gate",
        }
    }
}

/// What opens a run.
pub struct Opening<'a> {
    pub playbook_id: i64,
    pub version: i32,
    pub name: &'a str,
    pub conversation_id: i64,
    pub station: &'a str,
    pub user_id: i64,
    pub opened_by: OpenedBy,
    /// Band and score when the score opened it (`None` for triggers).
    pub scored: Option<(&'static str, f64)>,
    /// Steps already done in this turn before it opened.
    pub steps_done: Vec<String>,
}

/// Opens a run; an open one in the conversation is closed as `replaced`
/// first (it loses its reserved actions with it). Returns the new run's id
/// and the replaced one's, if any.
pub async fn open(db: &PgPool, opening: Opening<'_>) -> sqlx::Result<(i64, Option<i64>)> {
    let mut tx = db.begin().await?;
    let replaced: Option<i64> = sqlx::query_scalar(
        "UPDATE playbook_runs SET status = 'replaced', closed_at = now(), closed_by = $2,
                closed_reason = $3
          WHERE conversation_id = $1 AND status = 'open' RETURNING id",
    )
    .bind(opening.conversation_id)
    .bind(opening.user_id)
    .bind(format!("remplacé par « {} »", opening.name))
    .fetch_optional(&mut *tx)
    .await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO playbook_runs
           (playbook_id, playbook_version, conversation_id, opened_by, band, score, station,
            opened_for, steps_done)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(opening.playbook_id)
    .bind(opening.version)
    .bind(opening.conversation_id)
    .bind(opening.opened_by.as_str())
    .bind(opening.scored.map(|s| s.0))
    .bind(opening.scored.map(|s| s.1))
    .bind(opening.station)
    .bind(opening.user_id)
    .bind(&opening.steps_done)
    .fetch_one(&mut *tx)
    .await?;
    let actor = Actor::User(opening.user_id);
    if let Some(old) = replaced {
        sqlx::query("UPDATE playbook_runs SET replaced_by = $2 WHERE id = $1")
            .bind(old)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let event = Event::new(Actor::User(opening.user_id), "playbook.replaced")
            .on("playbook_run", old)
            .details(serde_json::json!({"by": opening.name, "new_run": id}));
        audit::write(&mut *tx, event).await?;
    }
    let event = Event::new(actor, "playbook.opened")
        .on("playbook_run", id)
        .details(serde_json::json!({
            "playbook": opening.name, "version": opening.version,
            "opened_by": opening.opened_by.as_str(), "conversation": opening.conversation_id,
        }));
    audit::write(&mut *tx, event).await?;
    tx.commit().await?;
    Ok((id, replaced))
}

/// Adds a step to the run's progress (once).
pub async fn step_done(db: &PgPool, run_id: i64, skill: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "UPDATE playbook_runs
            SET steps_done = CASE WHEN $2 = ANY (steps_done) THEN steps_done
                                  ELSE array_append(steps_done, $2) END
          WHERE id = $1 RETURNING steps_done",
    )
    .bind(run_id)
    .bind(skill)
    .fetch_one(db)
    .await
}

/// How a run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    Completed,
    Abandoned,
}

/// Closes an open run (no-op when it is no longer open), audited.
pub async fn close(
    db: &PgPool,
    run_id: i64,
    closing: Closing,
    by: i64,
    reason: Option<&str>,
) -> sqlx::Result<bool> {
    let (status, action) = match closing {
        Closing::Completed => ("completed", "playbook.completed"),
        Closing::Abandoned => ("abandoned", "playbook.abandoned"),
    };
    let mut tx = db.begin().await?;
    let closed = sqlx::query(
        "UPDATE playbook_runs SET status = $2, closed_at = now(), closed_by = $3, closed_reason = $4
          WHERE id = $1 AND status = 'open'",
    )
    .bind(run_id)
    .bind(status)
    .bind(by)
    .bind(reason)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if closed {
        let event = Event::new(Actor::User(by), action)
            .on("playbook_run", run_id)
            .details(serde_json::json!({ "reason": reason }));
        audit::write(&mut *tx, event).await?;
    }
    tx.commit().await?;
    Ok(closed)
}
