//! Running an approved write, so that it is never lost (ADR 0028).
//!
//! One attempt is one transaction: claim the card (`pending` or `failed` →
//! `approved`, the row stays locked), run the executor in a savepoint,
//! record `executed` or `failed`, commit. The write and its status commit
//! together or not at all, so an attempt rolled back leaves the card open
//! and nothing written. A transient database error (no connection in time,
//! a connection lost, a serialization conflict or deadlock) rolls the
//! attempt back and starts it again, through the one retry loop
//! ([`crate::outbound::RetryPolicy`]). When the retries are spent, the card
//! is recorded `failed` — it can be approved again.
//!
//! An attempt holds one pooled connection and never waits on the network
//! meanwhile: the executor's network work ([`Executor::prepare`]) was done
//! before, once for every attempt.
use super::ApprovalError;
use crate::db::ai_pending_approvals::{self as rows, ApprovalRow};
use crate::db::is_transient;
use crate::executors::{ExecContext, ExecError, Executed, Executor, Prepared};
use crate::outbound::{Failure, RetryPolicy};
use sqlx::{Acquire, PgPool};
use std::time::Duration;

/// Four attempts, about 0.1 s, 0.2 s and 0.4 s apart (with jitter, so
/// approvals that failed together do not retry together).
const RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 4,
    first_backoff: Duration::from_millis(100),
    // The database sends no Retry-After.
    max_retry_after: Duration::ZERO,
};

/// What the card's error says when the database kept failing.
const DATABASE_DOWN: &str = "la base de données était momentanément indisponible";

/// How an approval ended.
pub enum Ran {
    Executed(Executed),
    /// The French reason, as recorded on the card.
    Failed(String),
}

/// Why the attempts stopped without an outcome.
enum Stop {
    /// The card was not open any more (or its arguments changed): the
    /// caller says why.
    NotClaimed,
    Db(sqlx::Error),
    /// The retries are spent; the last reason.
    GaveUp(String),
}

/// The write to run: its executor and what it prepared (or why it could
/// not be prepared, recorded as the card's failure).
pub struct Job<'a> {
    pub executor: Option<&'static dyn Executor>,
    pub prepared: Result<Prepared, ExecError>,
    pub ctx: ExecContext<'a>,
}

/// Claims and runs approval `row` for `user_id`, retrying transient errors;
/// `None` when the card could not be claimed (the caller says why).
pub async fn run(
    db: &PgPool,
    row: &ApprovalRow,
    user_id: i64,
    job: &Job<'_>,
) -> Result<Option<Ran>, ApprovalError> {
    let ran = RETRY
        .run(
            "the database",
            Stop::GaveUp,
            || attempt(db, row, user_id, job),
            |n, wait, reason| {
                tracing::warn!(
                    approval = row.id,
                    attempt = n,
                    wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                    "an approved write is tried again: {reason}"
                );
            },
        )
        .await;
    match ran {
        Ok(ran) => Ok(Some(ran)),
        Err(Stop::NotClaimed) => Ok(None),
        Err(Stop::Db(e)) => Err(ApprovalError::Db(e)),
        Err(Stop::GaveUp(reason)) => {
            tracing::error!(approval = row.id, "an approved write gave up: {reason}");
            // Said on the card, so the person knows and can approve again;
            // if even this fails, the card stays open and the caller gets
            // the error.
            let recorded = record_failure(db, row, user_id, DATABASE_DOWN).await?;
            Ok(recorded.then(|| Ran::Failed(DATABASE_DOWN.to_string())))
        }
    }
}

/// A transient error is worth another attempt; anything else stops.
fn failure(e: sqlx::Error) -> Failure<Stop> {
    if is_transient(&e) {
        Failure::Retry {
            reason: e.to_string(),
            retry_after: None,
        }
    } else {
        Failure::Final(Stop::Db(e))
    }
}

async fn attempt(
    db: &PgPool,
    row: &ApprovalRow,
    user_id: i64,
    job: &Job<'_>,
) -> Result<Ran, Failure<Stop>> {
    let mut tx = db.begin().await.map_err(failure)?;
    let claimed = rows::claim(
        &mut tx,
        row.id,
        user_id,
        &row.arguments_hash,
        &row.arguments,
    )
    .await
    .map_err(failure)?;
    if !claimed {
        let _ = tx.rollback().await;
        return Err(Failure::Final(Stop::NotClaimed));
    }
    let ran = match (job.executor, &job.prepared) {
        (_, Err(e)) => Err(reason(row.id, e)),
        (None, Ok(_)) => Err(format!("aucun exécuteur pour l'outil {}", row.tool_name)),
        (Some(executor), Ok(prepared)) => {
            // A savepoint: a refused write is undone, its `failed` kept.
            let mut savepoint = tx.begin().await.map_err(failure)?;
            match executor
                .execute(&job.ctx, &mut savepoint, &row.arguments, prepared)
                .await
            {
                Ok(done) => {
                    savepoint.commit().await.map_err(failure)?;
                    Ok(done)
                }
                Err(ExecError::Db(e)) if is_transient(&e) => {
                    // The whole attempt goes, the claim with it.
                    drop(savepoint);
                    let _ = tx.rollback().await;
                    return Err(failure(e));
                }
                Err(e) => {
                    savepoint.rollback().await.map_err(failure)?;
                    Err(reason(row.id, &e))
                }
            }
        }
    };
    let finished = match &ran {
        Ok(done) => rows::finish(&mut tx, row.id, Some(&done.result), None).await,
        Err(error) => rows::finish(&mut tx, row.id, None, Some(error)).await,
    };
    finished.map_err(failure)?;
    tx.commit().await.map_err(failure)?;
    Ok(match ran {
        Ok(done) => Ran::Executed(done),
        Err(error) => Ran::Failed(error),
    })
}

/// The card's failure in French; a database cause goes to the log only.
fn reason(id: i64, e: &ExecError) -> String {
    match e {
        ExecError::Refused(text) => text.clone(),
        ExecError::Db(cause) => {
            tracing::error!(approval = id, error = %cause, "an approved write failed");
            "l'écriture a échoué (base de données)".to_string()
        }
    }
}

/// Claims the card and records it `failed` with `error`, in one short
/// transaction; `false` when the card was not open any more.
async fn record_failure(
    db: &PgPool,
    row: &ApprovalRow,
    user_id: i64,
    error: &str,
) -> Result<bool, ApprovalError> {
    let mut tx = db.begin().await?;
    if !rows::claim(
        &mut tx,
        row.id,
        user_id,
        &row.arguments_hash,
        &row.arguments,
    )
    .await?
    {
        tx.rollback().await?;
        return Ok(false);
    }
    rows::finish(&mut tx, row.id, None, Some(error)).await?;
    tx.commit().await?;
    Ok(true)
}
