//! Embeddings for the memory store: the text a row is embedded from, and the
//! two bounded calls (a row being written, a query being searched).
//!
//! A person waits for both, so both go through the query lane (a row as a
//! document, `embed_interactive`: never behind the venue backlog of the
//! document lane, ADR 0033) and each call is cut after [`WRITE_BOUND`] /
//! [`QUERY_BOUND`] whatever the client's own timeouts. A failure is never an
//! error here: the write stores NULL and queues the row's `memory.embed` job
//! ([`super::embed_job`]), the search falls back to full text. Logs carry
//! the user and the cause, never the text.
use crate::embeddings::{embed_as, EmbeddingProvider, InputType, Urgency};
use std::time::Duration;

/// Longest wait for a row's vector before saving it without one.
pub const WRITE_BOUND: Duration = Duration::from_secs(2);
/// Longest wait for a query's vector before searching by keywords.
pub const QUERY_BOUND: Duration = Duration::from_secs(2);

/// What a memory is embedded from (the backfill must use the same text).
pub fn memory_text(title: &str, content: &str) -> String {
    joined(title, content)
}

/// What a task is embedded from (the backfill must use the same text).
pub fn task_text(title: &str, description: &str) -> String {
    joined(title, description)
}

fn joined(title: &str, body: &str) -> String {
    match (title.trim(), body.trim()) {
        ("", body) => body.to_string(),
        (title, "") => title.to_string(),
        (title, body) => format!("{title}\n{body}"),
    }
}

/// The vector of a row being written (a document, on the query lane), and
/// the model name to store with it; `None` (after one warn line) when the
/// pipeline fails in any way: the caller queues the row's job.
pub async fn for_write(
    embedder: &dyn EmbeddingProvider,
    user_id: i64,
    kind: &'static str,
    text: String,
) -> Option<(pgvector::Vector, String)> {
    let vector = bounded(
        embedder,
        text,
        InputType::Document,
        Urgency::Interactive,
        WRITE_BOUND,
    )
    .await;
    match vector {
        Ok(v) => Some((pgvector::Vector::from(v), embedder.model().to_string())),
        Err(cause) => {
            tracing::warn!(
                user_id,
                kind,
                model = embedder.model(),
                "memory row saved without embedding (its job will embed it): {cause}"
            );
            None
        }
    }
}

/// The vector of a search query; `None` (logged) when the pipeline fails.
pub async fn for_query(
    embedder: &dyn EmbeddingProvider,
    user_id: i64,
    query: &str,
) -> Option<pgvector::Vector> {
    let text = query.to_string();
    let vector = bounded(
        embedder,
        text,
        InputType::Query,
        Urgency::Interactive,
        QUERY_BOUND,
    );
    match vector.await {
        Ok(v) => Some(pgvector::Vector::from(v)),
        Err(cause) => {
            tracing::warn!(
                user_id,
                model = embedder.model(),
                "memory search without query vector, falling back to full text: {cause}"
            );
            None
        }
    }
}

/// One text through the provider within `bound`; the vector's size is
/// checked here too, so a provider without a canary cannot poison a row.
async fn bounded(
    embedder: &dyn EmbeddingProvider,
    text: String,
    input_type: InputType,
    urgency: Urgency,
    bound: Duration,
) -> Result<Vec<f32>, String> {
    let call = embed_as(embedder, std::slice::from_ref(&text), input_type, urgency);
    let mut vectors = match tokio::time::timeout(bound, call).await {
        Err(_) => return Err(format!("no answer within {} ms", bound.as_millis())),
        Ok(Err(e)) => return Err(e.to_string()),
        Ok(Ok(v)) => v,
    };
    let expected = embedder.dimensions() as usize;
    match vectors.pop() {
        Some(v) if vectors.is_empty() && v.len() == expected => Ok(v),
        Some(v) => Err(format!(
            "unexpected answer: {} vector(s) of {} dimensions, 1 of {expected} expected",
            vectors.len() + 1,
            v.len()
        )),
        None => Err("no vector in the answer".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_text_is_title_then_body() {
        assert_eq!(
            memory_text(" Pavillon ", " fermé en août "),
            "Pavillon\nfermé en août"
        );
        assert_eq!(task_text("Relancer", ""), "Relancer");
        assert_eq!(memory_text("", "fait"), "fait");
    }
}
