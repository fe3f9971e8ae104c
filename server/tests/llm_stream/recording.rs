//! The recording wrapper around a streamed call, on a real database: one
//! `llm_calls` row per stream, answered (with cache tokens and cost),
//! failed, refused, or cancelled by the caller.
use super::fake::{Chunk, FakeStream, Reply};
use super::{client, drain, hello, sse, sse_reply};
use futures_util::StreamExt;
use server::db::llm_calls::CallContext;
use server::llm::{ChatEvent, LlmProvider, Recording};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn rows(db: &PgPool) -> Vec<(String, String, Option<String>, i32, i32, i32, f64)> {
    sqlx::query_as(
        "SELECT task, status, error, input_tokens, cache_write_tokens, cache_read_tokens,
                cost_usd::float8 FROM llm_calls ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn recording_writes_one_row_per_stream(db: PgPool) {
    let fake = FakeStream::start(vec![
        sse_reply(sse::text_answer(&["Voici."])),
        sse_reply(
            sse::message_start(10, 0, 0)
                + &sse::text_start(0)
                + &sse::text_delta(0, "Je")
                + &sse::error("overloaded_error"),
        ),
        Reply::Status(400, "invalid_request_error", "bad".into()),
        Reply::Sse(vec![
            Chunk::text(
                sse::message_start(10, 0, 0) + &sse::text_start(0) + &sse::text_delta(0, "Je"),
            ),
            Chunk::PingUntilClosed,
        ]),
    ])
    .await;
    let recording = Recording::new(Arc::new(client(&fake)), db.clone(), CallContext::default());

    // Answered: tokens, cache tokens and cost.
    let items = drain(&recording, &hello()).await;
    assert!(matches!(items.last(), Some(Ok(ChatEvent::Finished(_)))));
    let calls = recording.calls();
    assert_eq!(
        calls.len(),
        1,
        "recorded before Finished reached the caller"
    );
    assert_eq!(calls[0].record.usage.cache_write_tokens, 1200);
    assert!(calls[0].id.is_some());
    // Failed after a delta, and refused before the stream opened.
    let items = drain(&recording, &hello()).await;
    assert!(matches!(items.last(), Some(Err(_))));
    assert!(recording.stream(&hello()).await.is_err());
    // Cancelled after the first delta.
    let mut stream = recording.stream(&hello()).await.unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::Started { .. }))
    ));
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while recording.calls().len() < 4 {
        assert!(
            Instant::now() < deadline,
            "the cancelled stream was not recorded"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let rows = rows(&db).await;
    assert_eq!(rows.len(), 4, "{rows:?}");
    let (task, status, error, input, write, read, cost) = &rows[0];
    assert_eq!(
        (task.as_str(), status.as_str(), error),
        ("chat", "ok", &None)
    );
    assert_eq!((*input, *write, *read), (1500, 1200, 0));
    let expected = (1500.0 * 3.0 + 1200.0 * 3.0 * 1.25 + 12.0 * 15.0) / 1e6;
    assert!((cost - expected).abs() < 1e-9, "{cost} vs {expected}");
    assert_eq!(rows[1].1, "error");
    assert!(rows[1].2.as_deref().unwrap().contains("overloaded_error"));
    // A stream cut after its start was billed for its input: so is its row.
    assert_eq!(rows[1].3, 10, "input tokens of the failed stream");
    assert!(rows[1].6 > 0.0, "the failed stream costs its input");
    assert_eq!(rows[2].1, "error");
    assert!(rows[2].2.as_deref().unwrap().contains("HTTP 400"));
    assert_eq!(
        (rows[3].1.as_str(), rows[3].2.as_deref()),
        ("error", Some("cancelled"))
    );
    assert_eq!(rows[3].3, 10, "input tokens of the cancelled stream");
    assert!(rows[3].6 > 0.0, "the cancelled stream costs its input");
    assert_eq!(rows[2].6, 0.0, "a refused call costs nothing");
    assert_eq!(recording.calls().len(), 4, "calls() includes every stream");
}
