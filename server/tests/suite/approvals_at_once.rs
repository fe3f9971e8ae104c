//! Approvals as the team hit them (issue #25): many cards approved at the
//! same moment through the page's endpoint (`/api/chat/decide`), on a
//! server whose pool has the default size, while the memory pipeline takes
//! its time to embed. Every approved write runs exactly once; a transient
//! database error is retried; a card that still fails says so in French and
//! can be approved again, and then runs once.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::approvals_fixture as fixture;
use crate::support;

use axum::routing::post;
use axum::{Json, Router};
use fixture::{count, pending, plant, propose, World};
use reqwest::StatusCode;
use serde_json::{json, Value};
use server::config::{Config, Env};
use server::tools::Mode;
use sqlx::PgPool;
use std::time::Duration;
use support::app::{Reply, TestApp};

/// How long the memory pipeline takes to embed one text: the local model
/// on a busy machine. The client sends one request at a time, so the last
/// of 35 texts wait past the write bound (2 s) and are saved without a
/// vector, for the backfill, as seed 003 wants.
const EMBEDDING_DELAY: Duration = Duration::from_millis(80);

/// OpenAI's `/v1/embeddings` wire, answering after [`EMBEDDING_DELAY`].
async fn slow_embedding_server() -> std::net::SocketAddr {
    async fn embeddings(Json(body): Json<Value>) -> Json<Value> {
        tokio::time::sleep(EMBEDDING_DELAY).await;
        let n = body["input"].as_array().map_or(1, Vec::len);
        let data: Vec<_> = (0..n)
            .map(|i| json!({"object": "embedding", "index": i, "embedding": vec![0.05_f32; 384]}))
            .collect();
        Json(json!({"object": "list", "data": data, "model": body["model"]}))
    }
    support::serve_in_background(Router::new().route("/v1/embeddings", post(embeddings))).await
}

/// A server on the test database with the pool a production server opens
/// by default (its size, its acquire timeout), and the slow memory pipeline.
async fn server_with_default_pool(db: &PgPool) -> TestApp {
    let url = support::url_of(db).await;
    let config = Config::from_source(&Env::from_pairs([("DATABASE_URL", url.as_str())])).unwrap();
    assert_eq!(config.database.max_connections, 10, "the default pool");
    let pool = server::db::connect(&config.database).await.unwrap();
    let memory = format!("http://{}/v1", slow_embedding_server().await);
    TestApp::start_with(pool, &[("MAXY_MEMORY_EMBEDDING_URL", memory.as_str())]).await
}

/// A signed-in session of `user`.
async fn session(db: &PgPool, user: i64) -> String {
    let env = Env::from_pairs([("MAXY_SECRET_KEY", support::SECRET_KEY)]);
    let settings = server::config::AuthSettings::from_source(&env).unwrap();
    server::auth::sessions::start(db, user, &settings, None)
        .await
        .unwrap()
}

/// One card: its id and the hash it shows.
struct Card {
    id: i64,
    hash: String,
}

/// Proposes `name(input)` in the user's conversation and stores the card.
async fn card(db: &PgPool, w: &World, call: &str, name: &str, input: Value) -> Card {
    let proposal = propose(db, w, Mode::Chat, name, input)
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let p = pending(db, w.conversation, w.message, call, name, &proposal).await;
    Card {
        id: p.id,
        hash: p.arguments_hash,
    }
}

/// « Approuver » (or « Réessayer ») as the card's button posts it.
async fn approve(app: &TestApp, session: &str, card: &Card) -> Reply {
    let id = card.id.to_string();
    app.post_form(
        "/api/chat/decide",
        &[
            ("approval_id", id.as_str()),
            ("decision[decision]", "approve"),
            ("decision[arguments_hash]", card.hash.as_str()),
        ],
        Some(session),
    )
    .await
}

async fn status_of(db: &PgPool, id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM ai_pending_approvals WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
}

/// 50 different cards, as a busy afternoon leaves them: 20 memories, 15
/// reminders, 10 venue notes, 5 availability checks.
async fn fifty_cards(db: &PgPool, w: &World) -> Vec<Card> {
    let mut cards = Vec::new();
    for i in 0..20 {
        let input = json!({"title": format!("Fait {i}"),
                           "content": format!("Le lieu n°{i} ne reçoit pas de groupes le dimanche.")});
        cards.push(card(db, w, &format!("memory-{i}"), "save_memory", input).await);
    }
    for i in 0..15 {
        let input = json!({"title": format!("Relancer le lieu n°{i}"),
                           "due_at": format!("2027-01-{:02}", i + 1),
                           "request_id": w.request_id});
        cards.push(card(db, w, &format!("reminder-{i}"), "create_reminder", input).await);
    }
    for i in 0..10 {
        let input = json!({"member_code": format!("#{}", 101 + i),
                           "title": format!("Note {i}"),
                           "content": format!("Parking de {i} places.")});
        cards.push(card(db, w, &format!("note-{i}"), "add_knowledge_entry", input).await);
    }
    for i in 0..5 {
        let input = json!({"request_id": w.request_id, "member_code": format!("#{}", 101 + i)});
        cards.push(
            card(
                db,
                w,
                &format!("check-{i}"),
                "request_availability_check",
                input,
            )
            .await,
        );
    }
    cards
}

#[sqlx::test(migrations = "../migrations")]
async fn fifty_cards_approved_at_the_same_moment_each_run_exactly_once(db: PgPool) {
    let w = plant(&db).await;
    let cards = fifty_cards(&db, &w).await;
    let app = server_with_default_pool(&db).await;
    let team = session(&db, w.user).await;

    let replies =
        futures_util::future::join_all(cards.iter().map(|c| approve(&app, &team, c))).await;

    let lost: Vec<String> = cards
        .iter()
        .zip(&replies)
        .filter(|(_, r)| r.status != StatusCode::OK || r.json()["status"] != "executed")
        .map(|(c, r)| format!("card {} ({}): {}", c.id, r.status, r.body))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of 50 lost:\n{}",
        lost.len(),
        lost.join("\n")
    );
    for card in &cards {
        assert_eq!(status_of(&db, card.id).await, "executed");
    }
    // Each write once: as many rows as cards, no text twice.
    assert_eq!(count(&db, "SELECT count(*) FROM ai_memories").await, 20);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT content) FROM ai_memories").await,
        20
    );
    let embedded = "SELECT count(*) FROM ai_memories WHERE embedding IS NOT NULL";
    assert!(
        count(&db, embedded).await > 0,
        "embedded at write time while the pipeline keeps up"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 15);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT title) FROM tasks").await,
        15
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM knowledge_entries").await,
        10
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM availability_checks").await,
        5
    );
    // The conversation's log says each decision once.
    let decided = format!(
        "SELECT count(DISTINCT event->>'approval_id') FROM ai_events
          WHERE conversation_id = {} AND event->>'type' = 'approval_decided'
            AND event->>'status' = 'executed'",
        w.conversation
    );
    assert_eq!(count(&db, &decided).await, 50);
    let events = format!(
        "SELECT count(*) FROM ai_events
          WHERE conversation_id = {} AND event->>'type' = 'approval_decided'",
        w.conversation
    );
    assert_eq!(count(&db, &events).await, 50);
}

/// Makes the first `failures` inserts into `table` fail as a serialization
/// conflict does (SQLSTATE 40001, what PostgreSQL asks clients to retry).
/// The sequence counts every attempt: it is not rolled back with them.
async fn flaky_inserts(db: &PgPool, table: &str, failures: i64) {
    sqlx::raw_sql(&format!(
        "CREATE SEQUENCE flaky_attempts;
         CREATE FUNCTION flaky_insert() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF nextval('flaky_attempts') <= {failures} THEN
                 RAISE EXCEPTION 'simulated conflict' USING ERRCODE = 'serialization_failure';
             END IF;
             RETURN NEW;
         END $$;
         CREATE TRIGGER flaky BEFORE INSERT ON {table}
             FOR EACH ROW EXECUTE FUNCTION flaky_insert();"
    ))
    .execute(db)
    .await
    .unwrap();
}

async fn attempts(db: &PgPool) -> i64 {
    count(db, "SELECT last_value FROM flaky_attempts").await
}

#[sqlx::test(migrations = "../migrations")]
async fn a_transient_database_error_is_retried_and_the_memory_written_once(db: PgPool) {
    let w = plant(&db).await;
    let memory = card(
        &db,
        &w,
        "memory-1",
        "save_memory",
        json!({"content": "Le Pavillon ferme en août."}),
    )
    .await;
    flaky_inserts(&db, "ai_memories", 2).await;
    let app = server_with_default_pool(&db).await;
    let team = session(&db, w.user).await;

    let reply = approve(&app, &team, &memory).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["status"], "executed", "{}", reply.body);
    assert_eq!(attempts(&db).await, 3, "two conflicts, then the write");
    assert_eq!(count(&db, "SELECT count(*) FROM ai_memories").await, 1);
    assert_eq!(status_of(&db, memory.id).await, "executed");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_card_that_still_fails_says_so_and_runs_once_approved_again(db: PgPool) {
    let w = plant(&db).await;
    let reminder = card(
        &db,
        &w,
        "reminder-1",
        "create_reminder",
        json!({"title": "Relancer la barge", "due_at": "2027-01-15"}),
    )
    .await;
    // The database keeps refusing, longer than the retries last.
    flaky_inserts(&db, "tasks", 1_000).await;
    let app = server_with_default_pool(&db).await;
    let team = session(&db, w.user).await;

    let reply = approve(&app, &team, &reminder).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let event = reply.json();
    assert_eq!(event["status"], "failed", "{}", reply.body);
    let detail = event["detail"].as_str().unwrap();
    assert!(
        detail.contains("Rien n'a été enregistré") && detail.contains("Réessayer"),
        "the card says what happened and what to do: {detail}"
    );
    assert!(
        !detail.starts_with("Échec"),
        "the label says it already: {detail}"
    );
    assert!(attempts(&db).await > 1, "retried before giving up");
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 0);
    assert_eq!(status_of(&db, reminder.id).await, "failed");

    // The database is back: « Réessayer » runs the same card, once.
    sqlx::raw_sql("DROP TRIGGER flaky ON tasks")
        .execute(&db)
        .await
        .unwrap();
    let reply = approve(&app, &team, &reminder).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["status"], "executed", "{}", reply.body);
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 1);
    assert_eq!(status_of(&db, reminder.id).await, "executed");
    let again = approve(&app, &team, &reminder).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 1);
}
