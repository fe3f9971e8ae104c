//! Reading what the team taught: [`search`] (by event type and/or a text,
//! the `search_training` tool's semantics) and [`relevant_training`] (what
//! matters to one request: the same kind of event, or a description
//! similar by meaning). The text is searched by meaning when an embedder is
//! given and sessions have vectors of its model, else by its words (French
//! full text); `source` says which way answered (`vector`, `fts`,
//! `recent`), as seed 003's fallback chain asks.
use crate::db::training_sessions::{self, SessionRow};
use crate::embeddings::{EmbeddingProvider, InputType};
use sqlx::PgPool;

/// Below this cosine similarity a session is not "about the same thing":
/// small sentence-embedding models put unrelated French texts around
/// 0.3-0.5 and paraphrases above 0.7.
pub const MIN_SIMILARITY: f64 = 0.6;
/// The most sessions any reader gets at once.
pub const MAX_LIMIT: i64 = 50;

#[derive(Clone, Copy, Debug, Default)]
pub struct Query<'a> {
    pub text: Option<&'a str>,
    pub event_type: Option<&'a str>,
    pub limit: i64,
}

/// Sessions, newest first, and which way found them.
#[derive(Clone, Debug)]
pub struct Found {
    pub sessions: Vec<SessionRow>,
    pub source: &'static str,
}

fn blank_to_none(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|t| !t.is_empty())
}

/// Sessions of `event_type` (case and accents ignored) about `text`: by
/// meaning, else by words, else — when nothing shares a word — the newest
/// (of that type), so the reader is never left with silence.
pub async fn search(
    db: &PgPool,
    embedder: Option<&dyn EmbeddingProvider>,
    q: &Query<'_>,
) -> sqlx::Result<Found> {
    let text = blank_to_none(q.text);
    let event_type = blank_to_none(q.event_type);
    let limit = q.limit.clamp(1, MAX_LIMIT);
    if let Some(t) = text {
        let sessions = by_meaning(db, embedder, t, event_type, limit).await?;
        if !sessions.is_empty() {
            return Ok(Found {
                sessions,
                source: "vector",
            });
        }
        let sessions = training_sessions::search(db, Some(t), event_type, limit).await?;
        if !sessions.is_empty() {
            return Ok(Found {
                sessions,
                source: "fts",
            });
        }
    }
    Ok(Found {
        sessions: training_sessions::search(db, None, event_type, limit).await?,
        source: "recent",
    })
}

/// What one request should learn from: the sessions of its kind of event
/// and those whose text is near its description (by meaning, else by
/// words), merged newest first, at most `limit`.
pub async fn relevant_training(
    db: &PgPool,
    embedder: Option<&dyn EmbeddingProvider>,
    event_type: Option<&str>,
    description: &str,
    limit: i64,
) -> sqlx::Result<Found> {
    let limit = limit.clamp(1, MAX_LIMIT);
    let mut sessions = match blank_to_none(event_type) {
        Some(t) => training_sessions::search(db, None, Some(t), limit).await?,
        None => Vec::new(),
    };
    let mut source = if sessions.is_empty() {
        "none"
    } else {
        "event_type"
    };
    if let Some(text) = blank_to_none(Some(description)) {
        let mut similar = by_meaning(db, embedder, text, None, limit).await?;
        let mut how = "vector";
        if similar.is_empty() {
            similar = training_sessions::search(db, Some(text), None, limit).await?;
            how = "fts";
        }
        if !similar.is_empty() {
            source = if sessions.is_empty() {
                how
            } else if how == "vector" {
                "event_type+vector"
            } else {
                "event_type+fts"
            };
        }
        for s in similar {
            if !sessions.iter().any(|x| x.id == s.id) {
                sessions.push(s);
            }
        }
    }
    sessions.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    sessions.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(Found { sessions, source })
}

/// [`relevant_training`] for a stored request; `None` when it does not exist.
pub async fn for_request(
    db: &PgPool,
    embedder: Option<&dyn EmbeddingProvider>,
    request_id: i64,
    limit: i64,
) -> sqlx::Result<Option<Found>> {
    let Some(r) = training_sessions::request_context(db, request_id).await? else {
        return Ok(None);
    };
    relevant_training(db, embedder, r.event_type.as_deref(), &r.description, limit)
        .await
        .map(Some)
}

/// The sessions nearest by meaning; empty when no embedder is given or it
/// does not answer (the words then answer: never silence).
async fn by_meaning(
    db: &PgPool,
    embedder: Option<&dyn EmbeddingProvider>,
    text: &str,
    event_type: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<SessionRow>> {
    let Some(embedder) = embedder else {
        return Ok(Vec::new());
    };
    let vector = match embedder.embed(&[text.to_string()], InputType::Query).await {
        Ok(mut v) if v.len() == 1 => pgvector::Vector::from(v.remove(0)),
        Ok(_) => return Ok(Vec::new()),
        Err(e) => {
            tracing::warn!(error = %e, "training search: no query vector, full text answers");
            return Ok(Vec::new());
        }
    };
    training_sessions::search_by_vector(
        db,
        &vector,
        embedder.model(),
        event_type,
        MIN_SIMILARITY,
        limit,
    )
    .await
}
