//! What a stream that follows a conversation reads at each wake-up: the new
//! events and whether a turn still runs, in one statement
//! (`ai_events::after_and_running`, `http::chat_events`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::chat::ChatEvent;
use server::db::{ai_conversations, ai_events, ai_turns};
use sqlx::PgPool;
use support::app::seed_demo;

fn delta(text: &str) -> ChatEvent {
    ChatEvent::TextDelta { text: text.into() }
}

fn texts(events: &[app::chat::SeqEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match &e.event {
            ChatEvent::TextDelta { text } => text.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn one_read_gives_the_new_events_and_the_running_turn(db: PgPool) {
    seed_demo(&db).await;
    let user: i64 = sqlx::query_scalar("SELECT id FROM users ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let conversation = ai_conversations::create(&db, user, None, "x")
        .await
        .unwrap()
        .id;

    // Nothing yet, nothing running.
    let (events, running) = ai_events::after_and_running(&db, conversation, 0, 500)
        .await
        .unwrap();
    assert!(events.is_empty());
    assert_eq!(running, None);

    let turn: i64 = sqlx::query_scalar(
        "INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'anthropic') RETURNING id",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    let (events, running) = ai_events::after_and_running(&db, conversation, 0, 500)
        .await
        .unwrap();
    assert!(events.is_empty(), "a running turn with no event yet");
    assert_eq!(running, Some(turn));

    let last = ai_events::append(
        &db,
        conversation,
        Some(turn),
        &[delta("Bon"), delta("jour"), delta(" !")],
    )
    .await
    .unwrap();
    let (events, running) = ai_events::after_and_running(&db, conversation, 0, 500)
        .await
        .unwrap();
    assert_eq!(texts(&events), ["Bon", "jour", " !"], "in order");
    assert_eq!(running, Some(turn), "on a read with events too");
    assert_eq!(events.last().unwrap().seq, last);

    // From a seq on, and at most the limit.
    let first = events[0].seq;
    let (after_first, _) = ai_events::after_and_running(&db, conversation, first, 500)
        .await
        .unwrap();
    assert_eq!(texts(&after_first), ["jour", " !"]);
    let (one, running) = ai_events::after_and_running(&db, conversation, 0, 1)
        .await
        .unwrap();
    assert_eq!(texts(&one), ["Bon"]);
    assert_eq!(running, Some(turn));
    let (caught_up, running) = ai_events::after_and_running(&db, conversation, last, 500)
        .await
        .unwrap();
    assert!(caught_up.is_empty());
    assert_eq!(running, Some(turn));

    // Ended: the events stay, the turn no longer runs.
    assert!(ai_turns::finish(&db, turn, "done", None).await.unwrap());
    let (events, running) = ai_events::after_and_running(&db, conversation, first, 500)
        .await
        .unwrap();
    assert_eq!(texts(&events), ["jour", " !"]);
    assert_eq!(running, None);

    // Another conversation's turn is not this one's.
    let other = ai_conversations::create(&db, user, None, "y")
        .await
        .unwrap()
        .id;
    sqlx::query("INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'anthropic')")
        .bind(other)
        .execute(&db)
        .await
        .unwrap();
    let (_, running) = ai_events::after_and_running(&db, conversation, 0, 500)
        .await
        .unwrap();
    assert_eq!(running, None);
}
