//! The life of a write tool call after the model asked for it: a pending
//! approval (created with the exact canonical arguments and their hash), a
//! person's decision, and the one execution an approval may lead to.
//!
//! - [`create`] stores the call; the card shows the arguments' hash.
//! - [`decide`] checks the caller owns the conversation (otherwise
//!   [`ApprovalError::NotFound`], the same answer as for an unknown id),
//!   then: **approve** = the executor's network work first (an embedding,
//!   holding no connection), then one conditional UPDATE `pending|failed →
//!   approved` (still open, unexpired, same hash, same arguments) in a
//!   transaction that also runs the executor and records `executed` or
//!   `failed` — the row stays locked meanwhile, so a second click, a second
//!   server or a racing rejection waits, then finds it decided. A crash
//!   before the commit leaves the approval open and nothing written; a
//!   transient database error runs the transaction again; a `failed` card
//!   may be approved again (`execute`, ADR 0028). **reject** =
//!   `pending|failed → rejected` with the reason, which goes back to the
//!   model.
//! - [`expire_due`] sweeps cards past their expiry.
//! - [`pending_for_conversation`] rebuilds the cards still waiting, so they
//!   survive a restart and reappear when the conversation is reopened.
//!
//! Cards are rebuilt from the stored arguments (`tools::write::describe`),
//! not stored: `arguments` stays exactly what executes, a card can never
//! show something else than what its approval runs, and no migration was
//! needed. The price is that a card shown again says the venue's current
//! name (a rename shows through), which is what a person deciding now
//! should see anyway.
use crate::auth::tokens::SigningKey;
use crate::db::ai_pending_approvals::{self as rows, ApprovalRow, NewApproval};
use crate::executors;
use crate::tools::{write, Mode, Proposal};
use app::chat::{ApprovalCard, CardBody, CardField, Decision};
use chrono::{DateTime, Utc};
use sqlx::PgPool;
use std::time::Duration;

pub mod canonical;
mod decide;
mod error;
mod execute;
pub mod follow_up;

pub use error::ApprovalError;

/// How long a card can be approved when the caller does not say.
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);

/// The longest rejection reason, in characters.
pub const MAX_REASON_CHARS: usize = 1000;

/// A stored call waiting for a person.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingApproval {
    pub id: i64,
    /// Hex sha256 of the canonical arguments (what the card sends back).
    pub arguments_hash: String,
    pub expires_at: DateTime<Utc>,
}

/// What a decision did.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionOutcome {
    pub approval_id: i64,
    pub conversation_id: i64,
    /// The provider's tool_use id the model's call is answered with.
    pub tool_call_id: String,
    pub tool_name: String,
    /// `executed`, `failed` or `rejected`.
    pub status: String,
    /// French, for the team: what was written, why it failed, or the
    /// rejection's reason.
    pub detail: String,
    /// The tool result the model reads. A rejection ends with « Ne refais
    /// pas cet appel. »
    pub for_model: String,
}

/// An approval that [`expire_due`] moved to `expired`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpiredApproval {
    pub approval_id: i64,
    pub conversation_id: i64,
}

/// Stores a write tool call (its canonical `arguments`, from
/// `tools::write::propose`) as a pending approval.
pub async fn create(
    db: &PgPool,
    conversation_id: i64,
    message_id: i64,
    tool_call_id: &str,
    tool_name: &str,
    arguments: &serde_json::Value,
    ttl: Duration,
) -> Result<PendingApproval, ApprovalError> {
    if executors::find(tool_name).is_none() {
        return Err(ApprovalError::UnknownTool(tool_name.to_string()));
    }
    let hash = canonical::hash(arguments);
    let row = NewApproval {
        conversation_id,
        message_id,
        tool_call_id,
        tool_name,
        arguments,
        arguments_hash: &hash,
        ttl,
    };
    let (id, expires_at) = rows::insert(db, &row).await.map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => ApprovalError::Duplicate,
        _ => ApprovalError::Db(e),
    })?;
    Ok(PendingApproval {
        id,
        arguments_hash: canonical::hex(&hash),
        expires_at,
    })
}

/// The card of a freshly created approval.
pub fn card(pending: &PendingApproval, tool_name: &str, proposal: &Proposal) -> ApprovalCard {
    ApprovalCard {
        approval_id: pending.id,
        tool_name: tool_name.to_string(),
        title: proposal.title.clone(),
        expires_at: pending.expires_at.to_rfc3339(),
        arguments_hash: pending.arguments_hash.clone(),
        body: proposal.body.clone(),
        read_before: Vec::new(),
        after_emails: false,
    }
}

/// Approves (runs the write, at most once) or rejects approval
/// `approval_id` for `user_id`. `links` signs the magic links a write may
/// issue (availability checks).
pub async fn decide(
    db: &PgPool,
    links: &SigningKey,
    user_id: i64,
    approval_id: i64,
    decision: Decision,
) -> Result<DecisionOutcome, ApprovalError> {
    decide_with_memory(db, links, None, user_id, approval_id, decision).await
}

/// [`decide`], with the memory store the memory executors write through
/// (`save_memory`, `create_reminder`; without it they refuse).
pub async fn decide_with_memory(
    db: &PgPool,
    links: &SigningKey,
    memory: Option<&crate::memory::MemoryStore>,
    user_id: i64,
    approval_id: i64,
    decision: Decision,
) -> Result<DecisionOutcome, ApprovalError> {
    let no_mail = crate::mail::Outbox::disabled();
    decide_with_mail(db, links, memory, &no_mail, user_id, approval_id, decision).await
}

/// [`decide_with_memory`], with the outbox an approved availability check
/// e-mails its venue through (disabled: the link is passed on by hand).
pub async fn decide_with_mail(
    db: &PgPool,
    links: &SigningKey,
    memory: Option<&crate::memory::MemoryStore>,
    outbox: &crate::mail::Outbox,
    user_id: i64,
    approval_id: i64,
    decision: Decision,
) -> Result<DecisionOutcome, ApprovalError> {
    match decision {
        Decision::Approve { arguments_hash } => {
            let writers = decide::Writers {
                links,
                memory,
                outbox,
            };
            decide::approve(db, &writers, user_id, approval_id, &arguments_hash).await
        }
        Decision::Reject { reason } => decide::reject(db, user_id, approval_id, &reason).await,
    }
}

/// Moves every pending approval past its expiry to `expired` (on `db`, a
/// pool or the caller's transaction).
pub async fn expire_due(
    db: impl sqlx::PgExecutor<'_>,
) -> Result<Vec<ExpiredApproval>, ApprovalError> {
    Ok(rows::expire_due(db)
        .await?
        .into_iter()
        .map(|(approval_id, conversation_id)| ExpiredApproval {
            approval_id,
            conversation_id,
        })
        .collect())
}

/// The cards of `conversation_id` still waiting, oldest first. The caller
/// has checked the conversation is the user's.
pub async fn pending_for_conversation(
    db: &PgPool,
    conversation_id: i64,
) -> Result<Vec<ApprovalCard>, ApprovalError> {
    let pending = rows::pending_for_conversation(db, conversation_id).await?;
    let mut conn = db.acquire().await?;
    let mut cards = Vec::with_capacity(pending.len());
    for row in pending {
        let described =
            write::describe(&mut conn, mode_of(&row), &row.tool_name, &row.arguments).await;
        let (title, body) = described.unwrap_or_else(|e| {
            // Never lose a card: show its raw arguments rather than nothing.
            tracing::warn!(approval = row.id, error = %e, "cannot describe a pending approval");
            let rows = vec![CardField {
                label: "Arguments".into(),
                value: canonical::canonical(&row.arguments),
            }];
            (row.tool_name.clone(), CardBody::Fields { rows })
        });
        cards.push(ApprovalCard {
            approval_id: row.id,
            tool_name: row.tool_name.clone(),
            title,
            expires_at: row.expires_at.to_rfc3339(),
            arguments_hash: canonical::hex(&row.arguments_hash),
            body,
            // Where it came from is in the conversation's log.
            read_before: Vec::new(),
            after_emails: false,
        });
    }
    Ok(cards)
}

fn mode_of(row: &ApprovalRow) -> Mode {
    if row.mode == "training" {
        Mode::Training
    } else {
        Mode::Chat
    }
}
