//! The chat through HTTP, as the page uses it: server functions to send,
//! stop and decide; the SSE log to follow a turn and to resume it.
//! The assistant answers offline (the default): the deterministic planner
//! with the real tools, on the demo data.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::Value;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

/// Sends a message; the reply's JSON (`{conversation_id, seq}` or an error).
async fn send(
    app: &TestApp,
    session: &str,
    conversation: Option<i64>,
    request: Option<i64>,
    text: &str,
) -> support::app::Reply {
    let conversation = conversation.map(|c| c.to_string());
    let request = request.map(|r| r.to_string());
    let mut fields = vec![("text", text)];
    if let Some(c) = conversation.as_deref() {
        fields.push(("conversation_id", c));
    }
    if let Some(r) = request.as_deref() {
        fields.push(("request_id", r));
    }
    app.post_form("/api/chat/send", &fields, Some(session))
        .await
}

/// The SSE log after `after`, until the server says `idle`: (seq, event JSON).
async fn follow(app: &TestApp, session: &str, conversation: i64, after: i64) -> Vec<(i64, Value)> {
    let cookie = app.cookie(session);
    let response = reqwest::Client::new()
        .get(app.url(&format!(
            "/api/chat/conversations/{conversation}/events?after={after}"
        )))
        .header("cookie", cookie)
        .timeout(std::time::Duration::from_secs(60))
        .send()
        .await
        .expect("events");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .starts_with("text/event-stream"));
    let mut events = Vec::new();
    let mut stream = response.bytes_stream().eventsource();
    while let Some(event) = stream.next().await {
        let event = event.expect("sse");
        if event.event == "idle" {
            break;
        }
        let json: Value = serde_json::from_str(&event.data).expect("json");
        let seq = json["seq"].as_i64().expect("seq");
        assert_eq!(event.id, seq.to_string());
        events.push((seq, json["event"].clone()));
    }
    events
}

fn kinds(events: &[(i64, Value)]) -> Vec<String> {
    events
        .iter()
        .map(|(_, e)| e["type"].as_str().unwrap_or("").to_string())
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_gets_a_clear_answer_and_writes_nothing(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;

    // An unknown conversation.
    let reply = app
        .post_form(
            "/api/chat/conversation",
            &[("conversation_id", "999999")],
            Some(&team),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    let reply = send(&app, &team, Some(999_999), None, "bonjour").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);

    // Someone else's conversation reads as absent, everywhere.
    let theirs = send(&app, &admin, None, None, "aide").await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.body);
    let theirs = theirs.json()["conversation_id"].as_i64().unwrap();
    follow(&app, &admin, theirs, 0).await;
    let id = theirs.to_string();
    for path in ["/api/chat/conversation", "/api/chat/stop"] {
        let reply = app
            .post_form(path, &[("conversation_id", &id)], Some(&team))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{path}: {}",
            reply.body
        );
    }
    let reply = send(&app, &team, Some(theirs), None, "je lis ?").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let reply = app
        .get(
            &format!("/api/chat/conversations/{theirs}/events"),
            Some(&team),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);

    let messages_before = app.count("SELECT count(*) FROM ai_messages").await;
    // Empty, too long, far too long.
    let reply = send(&app, &team, None, None, "   ").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.body.contains("Écrivez un message"), "{}", reply.body);
    let long = "a".repeat(app::chat::MAX_MESSAGE_CHARS + 1);
    let reply = send(&app, &team, None, None, &long).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.body.contains("trop long"), "{}", reply.body);
    let huge = "a".repeat(1024 * 1024);
    let reply = send(&app, &team, None, None, &huge).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    // An unknown request.
    let reply = send(&app, &team, None, Some(999_999), "qualifie").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        app.count("SELECT count(*) FROM ai_messages").await,
        messages_before
    );
    // Anonymous callers get nothing.
    let reply = app
        .get(&format!("/api/chat/conversations/{theirs}/events"), None)
        .await;
    assert!(matches!(
        reply.status,
        StatusCode::UNAUTHORIZED | StatusCode::SEE_OTHER
    ));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_turn_streams_and_a_reconnect_resumes_where_it_was(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let reply = send(
        &app,
        &team,
        None,
        None,
        "Trouve un rooftop pour 80 personnes dans le 8e",
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let all = follow(&app, &team, conversation, 0).await;
    let kinds = kinds(&all);
    assert_eq!(kinds.first().map(String::as_str), Some("user_message"));
    assert_eq!(kinds.get(1).map(String::as_str), Some("turn_started"));
    assert_eq!(all[1].1["offline"], true);
    assert!(kinds.contains(&"tool_started".to_string()), "{kinds:?}");
    assert!(kinds.contains(&"tool_finished".to_string()), "{kinds:?}");
    assert!(kinds.contains(&"text_delta".to_string()), "{kinds:?}");
    assert_eq!(kinds.last().map(String::as_str), Some("turn_finished"));
    assert_eq!(all.last().unwrap().1["status"], "done");
    // Seqs are 1, 2, 3… without holes.
    for (i, (seq, _)) in all.iter().enumerate() {
        assert_eq!(*seq, i64::try_from(i).unwrap() + 1);
    }
    // A page that saw the first three events resumes with exactly the rest.
    let rest = follow(&app, &team, conversation, 3).await;
    assert_eq!(rest, all[3..].to_vec());
    // The whole answer, as the page shows it after a reload.
    let log = app
        .post_form(
            "/api/chat/conversation",
            &[("conversation_id", &conversation.to_string())],
            Some(&team),
        )
        .await;
    assert_eq!(log.status, StatusCode::OK, "{}", log.body);
    let log = log.json();
    assert_eq!(log["running"], false);
    assert_eq!(log["offline"], true);
    assert_eq!(log["events"].as_array().map(Vec::len), Some(all.len()));
    // The model's history: the message, the call, its result, the answer.
    let roles: Vec<String> =
        sqlx::query_scalar("SELECT role FROM ai_messages WHERE conversation_id = $1 ORDER BY seq")
            .bind(conversation)
            .fetch_all(&app.db)
            .await
            .unwrap();
    assert_eq!(roles, ["user", "assistant", "tool", "assistant"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn qualify_a_request_offline_proposes_one_card_and_approving_writes_the_catalogue(
    db: PgPool,
) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    // A demo request without a draft catalogue.
    let request: i64 = sqlx::query_scalar(
        "SELECT r.id FROM requests r
          WHERE r.participants IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM catalogues c WHERE c.request_id = r.id AND c.status = 'draft')
          ORDER BY r.id LIMIT 1",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    let reply = send(&app, &team, None, Some(request), "Qualifie cette demande").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let events = follow(&app, &team, conversation, 0).await;
    let tools: Vec<&str> = events
        .iter()
        .filter(|(_, e)| e["type"] == "tool_started")
        .filter_map(|(_, e)| e["name"].as_str())
        .collect();
    for step in [
        "find_similar_requests",
        "search_members",
        "get_member_signals",
    ] {
        assert!(tools.contains(&step), "{step} in {tools:?}");
    }
    let cards: Vec<&Value> = events
        .iter()
        .filter(|(_, e)| e["type"] == "approval_requested")
        .map(|(_, e)| e)
        .collect();
    assert_eq!(cards.len(), 1, "one card: {events:?}");
    let card = cards[0];
    assert_eq!(card["tool_name"], "add_members_to_catalog");
    let picks = card["body"]["picks"].as_array().unwrap();
    let tier = |t: &str| picks.iter().filter(|p| p["tier"] == t).count();
    // The search stays in the request's zone: fewer venues, never padding.
    assert!(!picks.is_empty() && tier("recommended") <= 4, "{picks:?}");
    assert!(tier("compatible") <= 4);
    assert!(picks
        .iter()
        .all(|p| !p["reason"].as_str().unwrap_or("").is_empty()));
    assert!(
        picks.iter().any(|p| p["room_name"].is_string()),
        "rooms pinned: {picks:?}"
    );
    // Nothing written before the approval.
    let drafts = format!(
        "SELECT count(*) FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE c.request_id = {request} AND c.status = 'draft'"
    );
    let drafts = drafts.as_str();
    assert_eq!(app.count(drafts).await, 0);

    let approval = card["approval_id"].as_i64().unwrap().to_string();
    let hash = card["arguments_hash"].as_str().unwrap();
    let decided = app
        .post_form(
            "/api/chat/decide",
            &[
                ("approval_id", approval.as_str()),
                ("decision[decision]", "approve"),
                ("decision[arguments_hash]", hash),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{}", decided.body);
    assert_eq!(decided.json()["status"], "executed", "{}", decided.body);
    let written = app.count(drafts).await;
    assert_eq!(usize::try_from(written).unwrap(), picks.len());
    let pinned = app
        .count("SELECT count(*) FROM catalogue_picks WHERE added_by = 'ai' AND room_id IS NOT NULL")
        .await;
    assert!(pinned > 0);
    // The decision is in the log, after the turn.
    let after = follow(&app, &team, conversation, events.last().unwrap().0).await;
    assert_eq!(kinds(&after), ["approval_decided"]);
    // A second click executes nothing.
    let again = app
        .post_form(
            "/api/chat/decide",
            &[
                ("approval_id", approval.as_str()),
                ("decision[decision]", "approve"),
                ("decision[arguments_hash]", hash),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(
        usize::try_from(app.count(drafts).await).unwrap(),
        picks.len()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_card_nobody_decides_expires_and_the_open_page_is_told(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let request: i64 = sqlx::query_scalar(
        "SELECT id FROM requests WHERE participants IS NOT NULL ORDER BY id LIMIT 1",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    let reply = send(&app, &team, None, Some(request), "Qualifie cette demande").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let events = follow(&app, &team, conversation, 0).await;
    let card = events
        .iter()
        .find(|(_, e)| e["type"] == "approval_requested")
        .map(|(_, e)| e.clone())
        .expect("a card");
    let live = server::agent::Live::default();
    assert_eq!(
        server::agent::expiry::sweep(&app.db, &live).await.unwrap(),
        0,
        "a fresh card does not expire"
    );
    sqlx::query("UPDATE ai_pending_approvals SET expires_at = now() - interval '1 second'")
        .execute(&app.db)
        .await
        .unwrap();
    assert_eq!(
        server::agent::expiry::sweep(&app.db, &live).await.unwrap(),
        1
    );
    assert_eq!(
        server::agent::expiry::sweep(&app.db, &live).await.unwrap(),
        0,
        "each card is announced once"
    );
    let after = follow(&app, &team, conversation, events.last().unwrap().0).await;
    assert_eq!(kinds(&after), ["approval_decided"]);
    assert_eq!(after[0].1["status"], "expired");
    assert_eq!(after[0].1["approval_id"], card["approval_id"]);
    // Approving it now is refused and writes nothing.
    let picks = "SELECT count(*) FROM catalogue_picks";
    let before = app.count(picks).await;
    let approval = card["approval_id"].as_i64().unwrap().to_string();
    let decided = app
        .post_form(
            "/api/chat/decide",
            &[
                ("approval_id", approval.as_str()),
                ("decision[decision]", "approve"),
                (
                    "decision[arguments_hash]",
                    card["arguments_hash"].as_str().unwrap(),
                ),
            ],
            Some(&team),
        )
        .await;
    assert!(decided.status.is_client_error(), "{}", decided.body);
    assert_eq!(app.count(picks).await, before);
}

#[sqlx::test(migrations = "../migrations")]
async fn messages_appended_at_once_from_many_connections_get_distinct_seqs(db: PgPool) {
    seed_demo(&db).await;
    let user: i64 = sqlx::query_scalar("SELECT id FROM users ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let conversation = server::db::ai_conversations::create(&db, user, None, "x")
        .await
        .unwrap()
        .id;
    let writes = (0..24).map(|i| {
        let db = db.clone();
        async move {
            let text = format!("message {i}");
            server::db::ai_messages::append(
                &db,
                conversation,
                "user",
                &[server::llm::Block::Text { text }],
                None,
            )
            .await
            .map(|m| m.seq)
        }
    });
    let mut seqs: Vec<i32> = futures_util::future::try_join_all(writes).await.unwrap();
    seqs.sort_unstable();
    assert_eq!(
        seqs,
        (0..24).collect::<Vec<i32>>(),
        "no seq taken twice, none skipped"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_live_turn_blocks_a_new_message_and_a_dead_one_does_not(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let reply = send(&app, &team, None, None, "Bonjour").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let events = follow(&app, &team, conversation, 0).await;
    let last = events.last().unwrap().0;
    // A turn another server is running (its heartbeat is fresh): refused.
    let turn: i64 = sqlx::query_scalar(
        "INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'anthropic') RETURNING id",
    )
    .bind(conversation)
    .fetch_one(&app.db)
    .await
    .unwrap();
    let blocked = send(&app, &team, Some(conversation), None, "Et ensuite ?").await;
    assert_eq!(blocked.status, StatusCode::CONFLICT, "{}", blocked.body);
    let messages = "SELECT count(*) FROM ai_messages WHERE role = 'user'";
    assert_eq!(
        app.count(messages).await,
        1,
        "the refused message is not stored"
    );
    // Its server died (no heartbeat for two minutes): closed, and the new
    // message goes through.
    sqlx::query("UPDATE ai_turns SET heartbeat_at = now() - interval '2 minutes' WHERE id = $1")
        .bind(turn)
        .execute(&app.db)
        .await
        .unwrap();
    let sent = send(&app, &team, Some(conversation), None, "Et ensuite ?").await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let after = follow(&app, &team, conversation, last).await;
    let kinds = kinds(&after);
    assert_eq!(
        &kinds[..3],
        ["notice", "turn_finished", "user_message"],
        "{kinds:?}"
    );
    assert_eq!(after[1].1["status"], "failed");
    assert_eq!(
        after[2].1["author"].as_str().map(str::is_empty),
        Some(false)
    );
    assert_eq!(app.count(messages).await, 2);
}
