//! Approve and reject, each a single conditional transition of the row
//! (see the module doc of `approvals`).
use super::{canonical, mode_of, ApprovalError, DecisionOutcome, MAX_REASON_CHARS};
use crate::audit::{self, Actor, Event};
use crate::auth::tokens::SigningKey;
use crate::db::ai_pending_approvals::{self as rows, ApprovalRow};
use crate::executors::{self, ExecContext, ExecError};
use sqlx::{Acquire, PgPool};

/// Refuses what is not pending any more, or past its expiry (marking it).
async fn still_open(db: &PgPool, row: &ApprovalRow) -> Result<(), ApprovalError> {
    match row.status.as_str() {
        "pending" if row.expired => {
            rows::expire_one(db, row.id).await?;
            Err(ApprovalError::Expired)
        }
        "pending" => Ok(()),
        "expired" => Err(ApprovalError::Expired),
        _ => Err(ApprovalError::AlreadyDecided),
    }
}

/// Why a conditional UPDATE moved nothing: what the row looks like now.
async fn why_not(db: &PgPool, id: i64) -> Result<ApprovalError, ApprovalError> {
    Ok(match rows::status(db, id).await? {
        None => ApprovalError::NotFound,
        Some((status, _)) if status == "expired" => ApprovalError::Expired,
        Some((status, _)) if status != "pending" => ApprovalError::AlreadyDecided,
        Some((_, true)) => {
            rows::expire_one(db, id).await?;
            ApprovalError::Expired
        }
        // Still pending and unexpired: the arguments changed under us.
        Some(_) => ApprovalError::Altered,
    })
}

pub async fn approve(
    db: &PgPool,
    links: &SigningKey,
    memory: Option<&crate::memory::MemoryStore>,
    user_id: i64,
    id: i64,
    shown_hash: &str,
) -> Result<DecisionOutcome, ApprovalError> {
    let row = rows::find_owned(db, user_id, id)
        .await?
        .ok_or(ApprovalError::NotFound)?;
    still_open(db, &row).await?;
    let shown = canonical::unhex(shown_hash).ok_or(ApprovalError::Altered)?;
    // The card's hash, the stored hash and the stored arguments must agree:
    // a row edited behind the hash is refused like an altered card.
    if shown != row.arguments_hash || canonical::hash(&row.arguments)[..] != row.arguments_hash[..]
    {
        return Err(ApprovalError::Altered);
    }
    let mut tx = db.begin().await?;
    if !rows::claim(&mut tx, id, user_id, &row.arguments_hash, &row.arguments).await? {
        tx.rollback().await?;
        return Err(why_not(db, id).await?);
    }
    let ctx = ExecContext {
        user_id,
        conversation_id: row.conversation_id,
        mode: mode_of(&row),
        links,
        memory,
    };
    // A savepoint: a failed write is undone, the `failed` status is kept.
    let ran = match executors::find(&row.tool_name) {
        Some(executor) => {
            let mut savepoint = tx.begin().await?;
            match executor.execute(&ctx, &mut savepoint, &row.arguments).await {
                Ok(done) => {
                    savepoint.commit().await?;
                    Ok(done)
                }
                Err(e) => {
                    savepoint.rollback().await?;
                    Err(e)
                }
            }
        }
        None => Err(ExecError::Refused(format!(
            "aucun exécuteur pour l'outil {}",
            row.tool_name
        ))),
    };
    let outcome = match ran {
        Ok(done) => {
            rows::finish(&mut tx, id, Some(&done.result), None).await?;
            DecisionOutcome {
                approval_id: id,
                conversation_id: row.conversation_id,
                tool_call_id: row.tool_call_id.clone(),
                tool_name: row.tool_name.clone(),
                status: "executed".into(),
                for_model: format!(
                    "L'équipe a approuvé l'appel {} ; il a été exécuté. Résultat : {}",
                    row.tool_name,
                    canonical::canonical(&done.result)
                ),
                detail: done.detail,
            }
        }
        Err(e) => {
            let error = match &e {
                ExecError::Refused(text) => text.clone(),
                ExecError::Db(cause) => {
                    tracing::error!(approval = id, error = %cause, "an approved write failed");
                    "l'écriture a échoué (base de données)".to_string()
                }
            };
            rows::finish(&mut tx, id, None, Some(&error)).await?;
            DecisionOutcome {
                approval_id: id,
                conversation_id: row.conversation_id,
                tool_call_id: row.tool_call_id.clone(),
                tool_name: row.tool_name.clone(),
                status: "failed".into(),
                detail: format!("Échec : {error}"),
                for_model: format!(
                    "L'équipe a approuvé l'appel {}, mais il n'a pas pu être exécuté : {error}. \
                     Vérifie l'état avec les outils de lecture avant de proposer autre chose.",
                    row.tool_name
                ),
            }
        }
    };
    tx.commit().await?;
    record(db, user_id, &outcome).await;
    Ok(outcome)
}

pub async fn reject(
    db: &PgPool,
    user_id: i64,
    id: i64,
    reason: &str,
) -> Result<DecisionOutcome, ApprovalError> {
    let row = rows::find_owned(db, user_id, id)
        .await?
        .ok_or(ApprovalError::NotFound)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(ApprovalError::InvalidReason(
            "Indiquez la raison du refus : Maxy en tiendra compte.".into(),
        ));
    }
    let n = reason.chars().count();
    if n > MAX_REASON_CHARS {
        return Err(ApprovalError::InvalidReason(format!(
            "La raison du refus dépasse {MAX_REASON_CHARS} caractères ({n})."
        )));
    }
    still_open(db, &row).await?;
    if !rows::reject(db, id, user_id, reason).await? {
        return Err(why_not(db, id).await?);
    }
    let outcome = DecisionOutcome {
        approval_id: id,
        conversation_id: row.conversation_id,
        tool_call_id: row.tool_call_id,
        tool_name: row.tool_name.clone(),
        status: "rejected".into(),
        detail: format!("Refusé : {reason}"),
        for_model: format!(
            "L'équipe a refusé l'appel {}. Raison : « {reason} ». Ne refais pas cet appel.",
            row.tool_name
        ),
    };
    record(db, user_id, &outcome).await;
    Ok(outcome)
}

/// Every decision goes to the audit log (after the commit: a failing log
/// never undoes a decision).
async fn record(db: &PgPool, user_id: i64, outcome: &DecisionOutcome) {
    let action = match outcome.status.as_str() {
        "executed" => "approval.executed",
        "failed" => "approval.failed",
        _ => "approval.rejected",
    };
    let event = Event::new(Actor::User(user_id), action)
        .on("ai_pending_approval", outcome.approval_id)
        .details(serde_json::json!({
            "tool": outcome.tool_name,
            "conversation_id": outcome.conversation_id,
        }));
    audit::record(db, event).await;
}
