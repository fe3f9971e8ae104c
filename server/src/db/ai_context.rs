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

/// The prompt's reads as three columns: the request whose id is the SQL
/// expression `request` (when set and existing) and the `recent` latest
/// training sessions and knowledge entries. The limits are written into the
/// statement, not bound: with a bound LIMIT, PostgreSQL's generic plan
/// guesses a tenth of the table and loses to a custom plan, which is planned
/// again on every call (half a millisecond of a chat turn's first reads).
/// They are our own numbers, never a user's input.
fn prompt_columns(request: &str, recent: u16) -> [(&'static str, String); 3] {
    [
        (
            "request",
            format!(
                "(SELECT to_jsonb(x) FROM (SELECT {REQUEST_COLUMNS}
                   FROM requests r JOIN pools p ON p.id = r.pool_id WHERE r.id = {request}) x)"
            ),
        ),
        (
            "training",
            format!(
                "(SELECT coalesce(jsonb_agg(x ORDER BY x.created_at DESC), '[]') FROM (
                   SELECT t.verdict, t.category, t.event_type, m.code AS member_code, t.reason,
                          t.directives, t.created_at
                     FROM training_sessions t LEFT JOIN members m ON m.id = t.member_id
                    ORDER BY t.created_at DESC LIMIT {recent}) x)"
            ),
        ),
        (
            "knowledge",
            format!(
                "(SELECT coalesce(jsonb_agg(x ORDER BY x.created_at DESC), '[]') FROM (
                   SELECT m.code AS member_code, k.title, k.created_at
                     FROM knowledge_entries k JOIN members m ON m.id = k.member_id
                    ORDER BY k.created_at DESC LIMIT {recent}) x)"
            ),
        ),
    ]
}

/// Everything a turn reads before its first model call, as five columns:
/// [`prompt_columns`], the last `window` messages of the conversation whose
/// id is the SQL expression `conversation` from the seq `from_seq` on (an
/// SQL expression too; newest first: the LIMIT keeps the newest) and its
/// approvals. The limits are written into the
/// statement, as in [`prompt_columns`], so it is planned once per
/// connection. The opening of a turn (`ai_send::send_user_message`)
/// reads them in its own statement; [`for_turn`] reads them alone.
pub(super) fn turn_columns(
    request: &str,
    conversation: &str,
    from_seq: &str,
    window: TurnWindow,
) -> Vec<(&'static str, String)> {
    let mut columns = prompt_columns(request, window.recent).to_vec();
    columns.push((
        "messages",
        format!(
            "(SELECT coalesce(jsonb_agg(x), '[]') FROM (
               SELECT {MESSAGE_COLUMNS} FROM ai_messages
                WHERE conversation_id = {conversation} AND seq >= {from_seq}
                ORDER BY seq DESC LIMIT {}) x)",
            window.messages
        ),
    ));
    columns.push((
        "outcomes",
        format!(
            "(SELECT coalesce(jsonb_agg(x), '[]') FROM (
               SELECT {OUTCOME_COLUMNS} FROM ai_pending_approvals
                WHERE conversation_id = {conversation}) x)"
        ),
    ));
    columns
}

/// How much a turn reads: the `recent` training sessions and knowledge
/// entries of the prompt, the last `messages` of the history.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnWindow {
    pub recent: u16,
    pub messages: u16,
}

type PromptRow = (
    Option<Json<RequestContext>>,
    Json<Vec<RecentTraining>>,
    Json<Vec<RecentKnowledge>>,
);

/// The request (when `request_id` is set and exists) and the `recent`
/// latest training sessions and knowledge entries, in one round trip.
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
        sqlx::query_as(&select(&prompt_columns("$1", recent)))
            .bind(request_id)
            .fetch_one(db)
            .await?;
    Ok((request.map(|Json(r)| r), training.0, knowledge.0))
}

fn select(columns: &[(&str, String)]) -> String {
    let list: Vec<String> = columns
        .iter()
        .map(|(name, expr)| format!("{expr} AS {name}"))
        .collect();
    format!("SELECT {}", list.join(",\n"))
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

impl TurnReads {
    /// The reads from a row holding [`turn_columns`] (`None` when they are
    /// NULL: the statement did not read them).
    pub(super) fn from_row(row: &sqlx::postgres::PgRow) -> sqlx::Result<Option<TurnReads>> {
        use sqlx::Row;
        let (
            Some(Json(training)),
            Some(Json(knowledge)),
            Some(Json(mut messages)),
            Some(Json(outcomes)),
        ) = (
            row.try_get::<Option<Json<Vec<RecentTraining>>>, _>("training")?,
            row.try_get::<Option<Json<Vec<RecentKnowledge>>>, _>("knowledge")?,
            row.try_get::<Option<Json<Vec<StoredMessage>>>, _>("messages")?,
            row.try_get::<Option<Json<Vec<ApprovalOutcome>>>, _>("outcomes")?,
        )
        else {
            return Ok(None);
        };
        let request: Option<Json<RequestContext>> = row.try_get("request")?;
        // Newest first in the query, oldest first out.
        messages.sort_by_key(|m| m.seq);
        Ok(Some(TurnReads {
            request: request.map(|Json(r)| r),
            training,
            knowledge,
            messages,
            outcomes,
        }))
    }
}

/// [`turn_columns`] alone: what a turn opened now would read
/// ([`for_prompt`], `ai_messages::last` and
/// `ai_conversations::approval_outcomes` in one statement).
pub async fn for_turn(
    db: impl PgExecutor<'_>,
    request_id: Option<i64>,
    conversation_id: i64,
    window: TurnWindow,
) -> sqlx::Result<TurnReads> {
    let row = sqlx::query(&select(&turn_columns("$1", "$2", "0", window)))
        .bind(request_id)
        .bind(conversation_id)
        .fetch_one(db)
        .await?;
    TurnReads::from_row(&row)?.ok_or_else(|| sqlx::Error::RowNotFound)
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
