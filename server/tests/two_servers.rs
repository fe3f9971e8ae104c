//! Two server processes on one database (issue #30). Sessions, turns,
//! events and approvals live in PostgreSQL, so a conversation whose turn
//! runs on one server is followed and approved through the other; and each
//! process hears the other's chat events and stop requests through
//! `LISTEN chat` (migration 0031) as they commit, not at its next poll.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use serde_json::Value;
use server::agent::live::{follow_other_processes, Live};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};
use tokio::sync::{watch, Notify};

#[sqlx::test(migrations = "../migrations")]
async fn a_turn_run_by_one_server_is_followed_and_approved_on_the_other(db: PgPool) {
    seed_demo(&db).await;
    let one = TestApp::start(db.clone()).await;
    let other = TestApp::start(db.clone()).await;
    // Signed in on the first; the session is a row, good on both.
    let team = one.sign_in(TEAM, PASSWORD).await;
    let request: i64 = sqlx::query_scalar(
        "SELECT r.id FROM requests r
          WHERE r.participants IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM catalogues c WHERE c.request_id = r.id AND c.status = 'draft')
          ORDER BY r.id LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let request_id = request.to_string();
    let sent = one
        .post_form(
            "/api/chat/send",
            &[
                ("text", "Qualifie cette demande"),
                ("request_id", &request_id),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let conversation = sent.json()["conversation_id"].as_i64().unwrap();

    // The turn runs on the first server; the second streams it whole.
    let events = other.events(&team, conversation, 0).await;
    let card = events
        .iter()
        .map(|(_, e)| e)
        .find(|e| e["type"] == "approval_requested")
        .unwrap_or_else(|| panic!("a card: {events:?}"));
    let picks = card["body"]["picks"].as_array().unwrap().len();
    assert!(picks > 0);
    assert!(
        events.iter().any(|(_, e)| e["type"] == "turn_finished"),
        "the turn's end reached the other server: {events:?}"
    );

    // Approved through the second server: written once.
    let decided = other
        .post_form(
            "/api/chat/decide",
            &[
                (
                    "approval_id",
                    &card["approval_id"].as_i64().unwrap().to_string(),
                ),
                ("decision[decision]", "approve"),
                (
                    "decision[arguments_hash]",
                    card["arguments_hash"].as_str().unwrap(),
                ),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{}", decided.body);
    assert_eq!(decided.json()["status"], "executed", "{}", decided.body);
    let drafts = format!(
        "SELECT count(*) FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE c.request_id = {request} AND c.status = 'draft'"
    );
    assert_eq!(usize::try_from(one.count(&drafts).await).unwrap(), picks);
    // And the decision is in the log the first server serves.
    let after = one
        .events(&team, conversation, events.last().unwrap().0)
        .await;
    let kinds: Vec<&Value> = after.iter().map(|(_, e)| &e["type"]).collect();
    assert_eq!(kinds, ["approval_decided"]);
}

/// A conversation of the team member, with no message yet.
async fn new_conversation(db: &PgPool, title: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO ai_conversations (user_id, title)
         SELECT id, $2 FROM users WHERE email = $1 RETURNING id",
    )
    .bind(TEAM)
    .bind(title)
    .fetch_one(db)
    .await
    .unwrap()
}

/// Whether `notify` fires within ten seconds of `by` (a bound for a failing
/// test, not a measure: nothing but the listener notifies here).
async fn fires(notify: Arc<Notify>, by: impl std::future::Future<Output = ()>) -> bool {
    let notified = notify.notified();
    tokio::pin!(notified);
    notified.as_mut().enable();
    by.await;
    tokio::time::timeout(Duration::from_secs(10), notified)
        .await
        .is_ok()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_process_hears_events_and_stops_written_by_another(db: PgPool) {
    seed_demo(&db).await;
    let live = Arc::new(Live::default());
    let (stop_listening, shutdown) = watch::channel(false);
    let listener = tokio::spawn(follow_other_processes(live.clone(), db.clone(), shutdown));
    // The LISTEN is up once a probe is heard.
    let mut up = false;
    for _ in 0..50 {
        let probe = sqlx::query("SELECT pg_notify('chat', 'events:0')").execute(&db);
        if fires(live.channel(0), async {
            probe.await.unwrap();
        })
        .await
        {
            up = true;
            break;
        }
    }
    assert!(up, "the listener never heard a probe");

    let conversation: i64 = new_conversation(&db, "Deux serveurs").await;
    // Another process appends two events in one statement: this one's
    // streams of that conversation wake.
    let append = sqlx::query(
        r#"INSERT INTO ai_events (conversation_id, seq, event)
           VALUES ($1, 1, '{"type": "text", "text": "a"}'), ($1, 2, '{"type": "text", "text": "b"}')"#,
    )
    .bind(conversation)
    .execute(&db);
    assert!(
        fires(live.channel(conversation), async {
            append.await.unwrap();
        })
        .await
    );
    // Another conversation's events do not wake this one.
    let elsewhere: i64 = new_conversation(&db, "Ailleurs").await;
    let this_one = live.channel(conversation);
    let quiet = this_one.notified();
    tokio::pin!(quiet);
    quiet.as_mut().enable();
    let other_append = sqlx::query(
        r#"INSERT INTO ai_events (conversation_id, seq, event) VALUES ($1, 1, '{"type": "text"}')"#,
    )
    .bind(elsewhere)
    .execute(&db);
    assert!(
        fires(live.channel(elsewhere), async {
            other_append.await.unwrap();
        })
        .await
    );
    // Heard in order: had it woken this conversation, it would have by now.
    assert!(
        tokio::time::timeout(Duration::ZERO, quiet.as_mut())
            .await
            .is_err(),
        "another conversation's events woke this one"
    );

    // The stop button pressed on another server: this one's turn hears it.
    sqlx::query("INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'offline')")
        .bind(conversation)
        .execute(&db)
        .await
        .unwrap();
    assert!(
        fires(live.stop_signal(conversation), async {
            assert!(server::db::ai_turns::request_stop(&db, conversation)
                .await
                .unwrap());
        })
        .await
    );

    stop_listening.send(true).unwrap();
    listener.await.unwrap();
}
