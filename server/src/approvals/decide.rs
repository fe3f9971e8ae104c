//! Approve and reject, each a single conditional transition of the row
//! (see the module doc of `approvals`); an approval's write runs through
//! [`super::execute`].
use super::execute::{self, Job, Ran};
use super::{canonical, mode_of, ApprovalError, DecisionOutcome, MAX_REASON_CHARS};
use crate::audit::{self, Actor, Event};
use crate::auth::tokens::SigningKey;
use crate::db::ai_pending_approvals::{self as rows, ApprovalRow};
use crate::executors::{self, ExecContext, ExecError};
use sqlx::PgPool;

/// A card that still waits for a decision: `pending`, or `failed` (it may
/// be approved again, or refused).
fn open(status: &str) -> bool {
    status == "pending" || status == "failed"
}

/// Refuses what is not open any more, or past its expiry (marking a
/// pending one expired; a failed one keeps saying why it failed).
async fn still_open(db: &PgPool, row: &ApprovalRow) -> Result<(), ApprovalError> {
    match row.status.as_str() {
        status if open(status) && row.expired => {
            rows::expire_one(db, row.id).await?;
            Err(ApprovalError::Expired)
        }
        status if open(status) => Ok(()),
        "expired" => Err(ApprovalError::Expired),
        _ => Err(ApprovalError::AlreadyDecided),
    }
}

/// Why a conditional UPDATE moved nothing: what the row looks like now.
async fn why_not(db: &PgPool, id: i64) -> Result<ApprovalError, ApprovalError> {
    Ok(match rows::status(db, id).await? {
        None => ApprovalError::NotFound,
        Some((status, _)) if status == "expired" => ApprovalError::Expired,
        Some((status, _)) if !open(&status) => ApprovalError::AlreadyDecided,
        Some((_, true)) => {
            rows::expire_one(db, id).await?;
            ApprovalError::Expired
        }
        // Still open and unexpired: the arguments changed under us.
        Some(_) => ApprovalError::Altered,
    })
}

/// What an approved write may write through besides the database.
pub struct Writers<'a> {
    pub links: &'a SigningKey,
    pub memory: Option<&'a crate::memory::MemoryStore>,
    pub outbox: &'a crate::mail::Outbox,
}

pub async fn approve(
    db: &PgPool,
    writers: &Writers<'_>,
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
    let ctx = ExecContext {
        user_id,
        conversation_id: row.conversation_id,
        mode: mode_of(&row),
        links: writers.links,
        memory: writers.memory,
        outbox: writers.outbox,
    };
    let executor = executors::find(&row.tool_name);
    // Before any connection is taken: the network work (an embedding).
    let prepared = match executor {
        Some(executor) => executor.prepare(&ctx, &row.arguments).await,
        None => Err(ExecError::Refused(format!(
            "aucun exécuteur pour l'outil {}",
            row.tool_name
        ))),
    };
    let job = Job {
        executor,
        prepared,
        ctx,
    };
    let Some(ran) = execute::run(db, &row, user_id, &job).await? else {
        return Err(why_not(db, id).await?);
    };
    let outcome = match ran {
        Ran::Executed(done) => DecisionOutcome {
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
        },
        Ran::Failed(error) => DecisionOutcome {
            approval_id: id,
            conversation_id: row.conversation_id,
            tool_call_id: row.tool_call_id.clone(),
            tool_name: row.tool_name.clone(),
            status: "failed".into(),
            detail: failed_detail(&error),
            for_model: format!(
                "L'équipe a approuvé l'appel {}, mais il n'a pas pu être exécuté : {error}. \
                 Vérifie l'état avec les outils de lecture avant de proposer autre chose.",
                row.tool_name
            ),
        },
    };
    record(db, user_id, &outcome).await;
    Ok(outcome)
}

/// What a failed card says after its « Échec » label: the reason as a
/// sentence, that nothing was written, and what the person can do.
fn failed_detail(error: &str) -> String {
    let error = error.trim().trim_end_matches('.');
    let mut chars = error.chars();
    let sentence = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
        None => "L'action n'a pas pu être exécutée".to_string(),
    };
    format!("{sentence}. Rien n'a été enregistré ; « Réessayer » relance la même action.")
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
