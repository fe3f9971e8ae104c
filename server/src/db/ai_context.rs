//! What the assistant's system prompt says besides its rules: the request
//! the conversation is about (DEMANDE EN COURS) and recent signals (similar
//! requests, training, knowledge). Read-only.
use super::ai_conversations::{ApprovalOutcome, OUTCOME_COLUMNS};
use super::ai_messages::{StoredMessage, MESSAGE_COLUMNS};
use sqlx::types::Json;
use sqlx::{FromRow, PgExecutor};

#[derive(Clone, Debug, PartialEq, FromRow, serde::Deserialize)]
pub struct RequestContext {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub pool_name: String,
    pub status: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub postal_codes: Vec<String>,
    pub area: Option<String>,
    pub budget_eur: Option<i32>,
    pub event_start_date: Option<chrono::NaiveDate>,
    pub description: String,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
}

const REQUEST_COLUMNS: &str =
    "r.id, r.reference, r.pool_id, p.name AS pool_name, r.status, r.event_type,
     r.participants, r.configurations, r.postal_codes, r.area, r.budget_eur,
     r.event_start_date, r.description, r.team_memo, r.search_hints";

pub async fn request(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<RequestContext>> {
    sqlx::query_as(&format!(
        "SELECT {REQUEST_COLUMNS} FROM requests r JOIN pools p ON p.id = r.pool_id WHERE r.id = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The prompt's reads as three columns: the request `$1` (when set and
/// existing) and the `recent` latest training sessions and knowledge
/// entries. The limits are written into the statement, not bound: with a
/// bound LIMIT, PostgreSQL's generic plan guesses a tenth of the table and
/// loses to a custom plan, which is planned again on every call (half a
/// millisecond of a chat turn's first reads). They are our own numbers,
/// never a user's input.
fn prompt_columns(recent: u16) -> String {
    format!(
        "(SELECT to_jsonb(x) FROM (SELECT {REQUEST_COLUMNS}
             FROM requests r JOIN pools p ON p.id = r.pool_id WHERE r.id = $1) x),
         (SELECT coalesce(jsonb_agg(x ORDER BY x.created_at DESC), '[]') FROM (
             SELECT t.verdict, t.category, t.event_type, m.code AS member_code, t.reason,
                    t.directives, t.created_at
               FROM training_sessions t LEFT JOIN members m ON m.id = t.member_id
              ORDER BY t.created_at DESC LIMIT {recent}) x),
         (SELECT coalesce(jsonb_agg(x ORDER BY x.created_at DESC), '[]') FROM (
             SELECT m.code AS member_code, k.title, k.created_at
               FROM knowledge_entries k JOIN members m ON m.id = k.member_id
              ORDER BY k.created_at DESC LIMIT {recent}) x)"
    )
}

type PromptRow = (
    Option<Json<RequestContext>>,
    Json<Vec<RecentTraining>>,
    Json<Vec<RecentKnowledge>>,
);

/// The request (when `request_id` is set and exists) and the `recent`
/// latest training sessions and knowledge entries, in one round trip: the
/// turn waits for this before it can call the model.
pub async fn for_prompt(
    db: impl PgExecutor<'_>,
    request_id: Option<i64>,
    recent: u16,
) -> sqlx::Result<(
    Option<RequestContext>,
    Vec<RecentTraining>,
    Vec<RecentKnowledge>,
)> {
    let (request, training, knowledge): PromptRow =
        sqlx::query_as(&format!("SELECT {}", prompt_columns(recent)))
            .bind(request_id)
            .fetch_one(db)
            .await?;
    Ok((request.map(|Json(r)| r), training.0, knowledge.0))
}

/// Everything a turn reads before its first model call.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnReads {
    pub request: Option<RequestContext>,
    pub training: Vec<RecentTraining>,
    pub knowledge: Vec<RecentKnowledge>,
    /// The conversation's last `window` messages, oldest first.
    pub messages: Vec<StoredMessage>,
    /// Its write calls' approvals.
    pub outcomes: Vec<ApprovalOutcome>,
}

/// [`for_prompt`], the conversation's last `window` messages
/// (`ai_messages::last`) and its approvals
/// (`ai_conversations::approval_outcomes`), in one statement: a turn's first
/// reads are one round trip, not three at once competing for the CPU. The
/// limits are written into the statement, as in [`prompt_columns`], so it is
/// planned once per connection.
pub async fn for_turn(
    db: impl PgExecutor<'_>,
    request_id: Option<i64>,
    recent: u16,
    conversation_id: i64,
    window: u16,
) -> sqlx::Result<TurnReads> {
    type Row = (
        Option<Json<RequestContext>>,
        Json<Vec<RecentTraining>>,
        Json<Vec<RecentKnowledge>>,
        Json<Vec<StoredMessage>>,
        Json<Vec<ApprovalOutcome>>,
    );
    let (request, training, knowledge, Json(mut messages), Json(outcomes)): Row =
        sqlx::query_as(&format!(
            "SELECT {},
           (SELECT coalesce(jsonb_agg(x), '[]') FROM (
               SELECT {MESSAGE_COLUMNS} FROM ai_messages
                WHERE conversation_id = $2 ORDER BY seq DESC LIMIT {window}) x),
           (SELECT coalesce(jsonb_agg(x), '[]') FROM (
               SELECT {OUTCOME_COLUMNS} FROM ai_pending_approvals WHERE conversation_id = $2) x)",
            prompt_columns(recent)
        ))
        .bind(request_id)
        .bind(conversation_id)
        .fetch_one(db)
        .await?;
    // Newest first in the query (the LIMIT keeps the newest), oldest first out.
    messages.sort_by_key(|m| m.seq);
    Ok(TurnReads {
        request: request.map(|Json(r)| r),
        training: training.0,
        knowledge: knowledge.0,
        messages,
        outcomes,
    })
}

/// A past request of the same pool that resembles this one.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct SimilarRequest {
    pub reference: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub description: String,
}

/// The three past requests of the pool whose words best match (any word
/// counts: the query ORs the description's lexemes).
pub async fn similar_requests(
    db: impl PgExecutor<'_>,
    request: &RequestContext,
) -> sqlx::Result<Vec<SimilarRequest>> {
    sqlx::query_as(
        "WITH q AS (SELECT nullif(replace(plainto_tsquery('french', $3)::text, '&', '|'), '')::tsquery AS q)
         SELECT r.reference, r.event_type, r.participants, r.description
           FROM requests r, q
          WHERE r.pool_id = $2 AND r.id <> $1 AND q.q IS NOT NULL AND r.search_tsv @@ q.q
            AND NOT r.workspace_scenario
          ORDER BY ts_rank(r.search_tsv, q.q) DESC, r.created_at DESC
          LIMIT 3",
    )
    .bind(request.id)
    .bind(request.pool_id)
    .bind(format!(
        "{} {}",
        request.event_type.as_deref().unwrap_or(""),
        request.description
    ))
    .fetch_all(db)
    .await
}

#[derive(Clone, Debug, PartialEq, FromRow, serde::Deserialize)]
pub struct RecentTraining {
    pub verdict: String,
    pub category: String,
    pub event_type: Option<String>,
    pub member_code: Option<String>,
    pub reason: String,
    pub directives: Option<Json<serde_json::Value>>,
}

#[derive(Clone, Debug, PartialEq, FromRow, serde::Deserialize)]
pub struct RecentKnowledge {
    pub member_code: String,
    pub title: String,
}
