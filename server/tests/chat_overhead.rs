//! A chat turn, durable and plain (ADR 0029): when a turn ends, its
//! events, messages and cost rows are committed durably, and no chat code
//! turns `synchronous_commit` off; the first round's reads are one
//! statement that reads what the separate reads did; later rounds read the
//! history a fresh read gives; the per-stage timings of `maxy bench chat`
//! are never collected by the production wiring.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use serde_json::{json, Value};
use server::bench::fake_model::{last_tool_results, Answer, FakeModel, Script};
use server::llm::Block;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// The first request of the demo.
async fn first_request(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM requests ORDER BY id LIMIT 1")
        .fetch_one(db)
        .await
        .unwrap()
}

/// A conversation of the first user with a running turn: (user, conversation, turn).
async fn running_turn(db: &PgPool) -> (i64, i64, i64) {
    let user: i64 = sqlx::query_scalar("SELECT id FROM users ORDER BY id LIMIT 1")
        .fetch_one(db)
        .await
        .unwrap();
    let conversation = server::db::ai_conversations::create(db, user, None, "x")
        .await
        .unwrap()
        .id;
    let turn: i64 = sqlx::query_scalar(
        "INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'anthropic') RETURNING id",
    )
    .bind(conversation)
    .fetch_one(db)
    .await
    .unwrap();
    (user, conversation, turn)
}

/// Sends a message through the app and waits for its turn to end (the
/// page's stream shows `turn_finished`).
async fn turn(app: &TestApp, session: &str, text: &str) -> i64 {
    app.send_and_wait(session, &[("text", text)]).await.0
}

/// Every commit of a chat table, with the `synchronous_commit` its
/// transaction had when it committed: a deferred trigger runs at commit
/// time, after any `set_config` of the transaction's statements.
async fn watch_commits(db: &PgPool) {
    for sql in [
        "CREATE TABLE commit_modes (tbl text NOT NULL, mode text NOT NULL)",
        "CREATE FUNCTION note_commit_mode() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             INSERT INTO commit_modes VALUES (TG_TABLE_NAME, current_setting('synchronous_commit'));
             RETURN NULL;
         END $$",
    ] {
        sqlx::query(sql).execute(db).await.unwrap();
    }
    for table in ["ai_events", "ai_messages", "ai_turns", "llm_calls"] {
        sqlx::query(&format!(
            "CREATE CONSTRAINT TRIGGER note_commit_mode AFTER INSERT OR UPDATE ON {table}
             DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_commit_mode()"
        ))
        .execute(db)
        .await
        .unwrap();
    }
}

/// When a turn ends, a fresh connection reads all it wrote: its events, its
/// messages, one `llm_calls` row per model call with its tokens; and every
/// commit that wrote them waited for the disk (`synchronous_commit` on).
#[sqlx::test(migrations = "../migrations")]
async fn a_turns_events_and_cost_rows_are_on_disk_when_it_ends(db: PgPool) {
    seed_demo(&db).await;
    watch_commits(&db).await;
    // The watch sees a commit that does not wait for the disk.
    let (_, conversation, turn_id) = running_turn(&db).await;
    sqlx::query(
        "WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS r)
         UPDATE ai_turns SET heartbeat_at = now() FROM relaxed WHERE id = $1",
    )
    .bind(turn_id)
    .execute(&db)
    .await
    .unwrap();
    let seen: Vec<(String, String)> =
        sqlx::query_as("SELECT tbl, mode FROM commit_modes WHERE mode <> 'on'")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(seen, [("ai_turns".to_string(), "off".to_string())]);
    sqlx::query("DELETE FROM commit_modes")
        .execute(&db)
        .await
        .unwrap();
    server::db::ai_turns::finish(&db, turn_id, "done", None)
        .await
        .unwrap();
    let _ = conversation;
    let request_id = first_request(&db).await;
    let script: Script = Arc::new(move |body: &Value| {
        if last_tool_results(body).is_empty() {
            Answer::ToolUse {
                text: "Je lis la demande.".into(),
                name: "get_request".into(),
                input: json!({"request_id": request_id}),
            }
        } else {
            Answer::Text("Voici trois lieux.".into())
        }
    });
    let fake = FakeModel::start(script, Duration::ZERO, 8).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let conversation = turn(&app, &team, "Des lieux pour cette demande ?").await;

    let fresh = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with((*db.connect_options()).clone())
        .await
        .unwrap();
    let count = |sql: &'static str| {
        let fresh = fresh.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .bind(conversation)
                .fetch_one(&fresh)
                .await
                .unwrap()
        }
    };
    let calls: Vec<(String, i32, i32, i32)> = sqlx::query_as(
        "SELECT status, input_tokens, output_tokens, cache_read_tokens FROM llm_calls
          WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(&fresh)
    .await
    .unwrap();
    assert_eq!(
        calls,
        [
            ("ok".to_string(), 1200, 40, 1000),
            ("ok".to_string(), 1200, 40, 1000)
        ],
        "one row per model call, with its tokens"
    );
    // The user's message, the answer calling the tool, its result, the
    // last answer.
    assert_eq!(
        count("SELECT count(*) FROM ai_messages WHERE conversation_id = $1").await,
        4
    );
    let kinds: Vec<String> = sqlx::query_scalar(
        "SELECT event->>'type' FROM ai_events WHERE conversation_id = $1 ORDER BY seq",
    )
    .bind(conversation)
    .fetch_all(&fresh)
    .await
    .unwrap();
    assert_eq!(kinds.first().map(String::as_str), Some("user_message"));
    assert_eq!(kinds.last().map(String::as_str), Some("turn_finished"));
    for kind in ["tool_started", "tool_finished", "text_delta"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    assert_eq!(
        count("SELECT count(*) FROM ai_turns WHERE conversation_id = $1 AND status = 'done'").await,
        1
    );

    let relaxed: Vec<(String, String)> =
        sqlx::query_as("SELECT DISTINCT tbl, mode FROM commit_modes WHERE mode <> 'on'")
            .fetch_all(&fresh)
            .await
            .unwrap();
    assert_eq!(relaxed, [], "commits that did not wait for the disk");
    let watched: i64 = sqlx::query_scalar("SELECT count(DISTINCT tbl) FROM commit_modes")
        .fetch_one(&fresh)
        .await
        .unwrap();
    assert_eq!(watched, 4, "every chat table's commits were seen");
}

/// No chat code turns durable commits off: not the agent, not the tables a
/// turn writes.
#[test]
fn no_chat_code_relaxes_its_commits() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut files = vec![format!("{root}/db.rs"), format!("{root}/agent.rs")];
    let mut dirs = vec![std::path::PathBuf::from(format!("{root}/agent"))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path.display().to_string());
            }
        }
    }
    for table in [
        "ai_context",
        "ai_conversations",
        "ai_events",
        "ai_messages",
        "ai_pending_approvals",
        "ai_send",
        "ai_turns",
        "llm_calls",
    ] {
        files.push(format!("{root}/db/{table}.rs"));
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        for word in ["synchronous_commit", "relaxed_commit"] {
            assert!(!text.contains(word), "{file} says {word}");
        }
        assert!(
            !text.contains("joinhandle"),
            "{file} writes behind the turn"
        );
    }
}

/// The per-stage timings are `tracing` events: production code carries no
/// benchmark plumbing (no timing log threaded through the agent), and only
/// `bench/` starts recording them.
#[test]
fn stage_timings_are_collected_by_the_benchmark_only() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut collecting = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let name = path.strip_prefix(root).unwrap().display().to_string();
            assert!(
                !text.contains("Option<Arc<StageLog>>"),
                "{name} threads a timing log through production code"
            );
            if text.contains("stages::collect()") {
                collecting.push(name);
            }
        }
    }
    assert_eq!(collecting, ["bench/chat.rs"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_turns_reads_in_one_statement_are_the_separate_reads(db: PgPool) {
    use server::db::{ai_context, ai_conversations, ai_messages};
    seed_demo(&db).await;
    let (_, conversation, _) = running_turn(&db).await;
    let request_id = first_request(&db).await;
    let text = |t: &str| vec![Block::Text { text: t.into() }];
    for n in 0..7 {
        ai_messages::append(
            &db,
            conversation,
            "user",
            &text(&format!("question {n}")),
            None,
        )
        .await
        .unwrap();
        let call = Block::ToolUse {
            id: format!("toolu_{n}"),
            name: "update_request".into(),
            input: json!({"request_id": request_id}),
        };
        let asked = ai_messages::append(&db, conversation, "assistant", &[call], Some("m"))
            .await
            .unwrap();
        if n % 3 == 0 {
            server::approvals::create(
                &db,
                conversation,
                asked.id,
                &format!("toolu_{n}"),
                "update_request",
                &json!({"request_id": request_id, "status": "qualified"}),
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        }
    }
    for (request, window) in [(Some(request_id), 5), (None, 30), (Some(-1), 1)] {
        let one = ai_context::for_turn(
            &db,
            request,
            conversation,
            ai_context::TurnWindow {
                recent: 3,
                messages: window,
            },
        )
        .await
        .unwrap();
        let (r, training, knowledge) = ai_context::for_prompt(&db, request, 3).await.unwrap();
        assert_eq!(one.request, r);
        assert_eq!(one.training, training);
        assert_eq!(one.knowledge, knowledge);
        assert_eq!(
            one.messages,
            ai_messages::last(&db, conversation, i64::from(window))
                .await
                .unwrap()
        );
        let mut outcomes = ai_conversations::approval_outcomes(&db, conversation)
            .await
            .unwrap();
        let mut got = one.outcomes.clone();
        outcomes.sort_by_key(|o| o.id);
        got.sort_by_key(|o| o.id);
        assert_eq!(got, outcomes);
        assert_eq!(got.len(), 3);
        assert_eq!(one.messages.len(), usize::from(window.min(14)));
    }
    // The send that opens a turn reads the same, its own message included.
    let (user, _): (i64, i64) = sqlx::query_as(
        "UPDATE ai_conversations SET request_id = $2 WHERE id = $1 RETURNING user_id, id",
    )
    .bind(conversation)
    .bind(request_id)
    .fetch_one(&db)
    .await
    .unwrap();
    let running: i64 = sqlx::query_scalar("SELECT id FROM ai_turns WHERE conversation_id = $1")
        .bind(conversation)
        .fetch_one(&db)
        .await
        .unwrap();
    server::db::ai_turns::finish(&db, running, "done", None)
        .await
        .unwrap();
    for window in [5, 30, 1] {
        let window = ai_context::TurnWindow {
            recent: 3,
            messages: window,
        };
        let sent = send(&db, user, conversation, "encore une question", window).await;
        let server::db::ai_send::Sent::Opened { turn_id, reads, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        let fresh = ai_context::for_turn(&db, Some(request_id), conversation, window)
            .await
            .unwrap();
        assert_eq!(*reads, fresh, "window {window:?}");
        assert_eq!(
            reads.messages.last().unwrap().content.0,
            text("encore une question")
        );
        assert!(reads.request.is_some());
        // While the turn runs, a send is refused and nothing is read.
        let busy = send(&db, user, conversation, "et alors ?", window).await;
        assert!(
            matches!(busy, server::db::ai_send::Sent::Busy(_)),
            "{busy:?}"
        );
        server::db::ai_turns::finish(&db, turn_id, "done", None)
            .await
            .unwrap();
    }
    // Someone else's conversation: nothing found, nothing written.
    let window = ai_context::TurnWindow {
        recent: 3,
        messages: 30,
    };
    let other = send(&db, user + 1_000_000, conversation, "intrus", window).await;
    assert!(
        matches!(other, server::db::ai_send::Sent::NotFound),
        "{other:?}"
    );
    // A conversation with nothing yet reads empty lists.
    let (_, empty, _) = running_turn(&db).await;
    let none = ai_context::for_turn(
        &db,
        None,
        empty,
        ai_context::TurnWindow {
            recent: 3,
            messages: 30,
        },
    )
    .await
    .unwrap();
    assert!(none.messages.is_empty() && none.outcomes.is_empty() && none.request.is_none());
}

/// Removes the prompt-caching markers: where breakpoint 2 sits depends on
/// which message is last, not on what the history holds.
fn without_cache_marks(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("cache_control");
            map.values_mut().for_each(without_cache_marks);
        }
        Value::Array(items) => items.iter_mut().for_each(without_cache_marks),
        _ => {}
    }
}

/// How many tool-result messages a request body carries.
fn tool_rounds(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|m| m.to_string().contains("\"tool_result\""))
                .count()
        })
        .unwrap_or(0)
}

/// A tool round is two writes (the answer before the calls, the results
/// after) and later rounds do not re-read the history: what the model reads
/// in a later round must be what a fresh read of the stored conversation
/// gives, and the page's events must keep their order.
#[sqlx::test(migrations = "../migrations")]
async fn later_rounds_read_the_history_a_fresh_read_gives(db: PgPool) {
    seed_demo(&db).await;
    let request_id = first_request(&db).await;
    // Two tool rounds (the second with a bad argument: a tool error the
    // model reads), then text; the next turn answers at once.
    let script: Script = Arc::new(move |body: &Value| match tool_rounds(body) {
        0 => Answer::ToolUse {
            text: "Je lis la demande.".into(),
            name: "get_request".into(),
            input: json!({"request_id": request_id}),
        },
        1 => Answer::ToolUse {
            text: String::new(),
            name: "get_request".into(),
            input: json!({"request_id": "pas un nombre"}),
        },
        _ => Answer::Text("Voici la demande.".into()),
    });
    let fake = FakeModel::start(script, Duration::ZERO, 5).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let conversation = turn(&app, &team, "Lis la demande, avec outil").await;

    let bodies = fake.seen();
    assert_eq!(bodies.len(), 3, "three model calls in the first turn");
    let kinds: Vec<String> = sqlx::query_scalar(
        "SELECT event->>'type' FROM ai_events WHERE conversation_id = $1 ORDER BY seq",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "user_message",
            "turn_started",
            "text_delta",
            "tool_started",
            "tool_finished",
            "tool_started",
            "tool_finished",
            "text_delta",
            "turn_finished"
        ]
    );
    // The send wrote the start event with the turn it opened.
    let (named, opened): (i64, i64) = sqlx::query_as(
        "SELECT (e.event->>'turn_id')::int8, t.id FROM ai_events e
           JOIN ai_turns t ON t.id = e.turn_id
          WHERE e.conversation_id = $1 AND e.event->>'type' = 'turn_started'",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(named, opened, "the start event names its turn");
    let roles: Vec<(i32, String)> =
        sqlx::query_as("SELECT seq, role FROM ai_messages WHERE conversation_id = $1 ORDER BY seq")
            .bind(conversation)
            .fetch_all(&db)
            .await
            .unwrap();
    let expected: Vec<(i32, String)> = [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    .iter()
    .enumerate()
    .map(|(i, r)| (i32::try_from(i).unwrap(), r.to_string()))
    .collect();
    assert_eq!(roles, expected, "numbered without a gap");

    // The next turn's first call reads the stored conversation afresh: its
    // history starts with what the third call of the first turn read.
    let sent = app
        .post_form(
            "/api/chat/send",
            &[
                ("text", "Et ensuite ?"),
                ("conversation_id", &conversation.to_string()),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while fake.seen().len() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the second turn's call"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut later = bodies[2]["messages"].clone();
    let mut fresh = fake.seen()[3]["messages"].clone();
    without_cache_marks(&mut later);
    without_cache_marks(&mut fresh);
    let later = later.as_array().unwrap();
    let fresh = fresh.as_array().unwrap();
    assert_eq!(later.len(), 5, "{later:?}");
    assert_eq!(
        &fresh[..5],
        &later[..],
        "the round's history is the stored one"
    );
    assert!(
        later[4].to_string().contains("is_error"),
        "the bad argument's error is read"
    );
}

/// The send that opens a turn, and reads for it, is planned once per
/// connection (a generic plan), not again on every turn: its limits are
/// written into it.
#[sqlx::test(migrations = "../migrations")]
async fn the_turns_first_reads_keep_one_plan(db: PgPool) {
    use server::db::{ai_context, ai_turns};
    seed_demo(&db).await;
    let (user, conversation, turn) = running_turn(&db).await;
    ai_turns::finish(&db, turn, "done", None).await.unwrap();
    let window = ai_context::TurnWindow {
        recent: 3,
        messages: 30,
    };
    // One connection: the plans counted are its own.
    let one = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with((*db.connect_options()).clone())
        .await
        .unwrap();
    for _ in 0..12 {
        let sent = send(&one, user, conversation, "bonjour", window).await;
        let server::db::ai_send::Sent::Opened { turn_id, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        ai_turns::finish(&one, turn_id, "done", None).await.unwrap();
    }
    let (generic, custom): (i64, i64) = sqlx::query_as(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%INSERT INTO ai_turns%'
            AND statement LIKE '%FROM ai_pending_approvals%'
            AND statement NOT LIKE '%pg_prepared_statements%'",
    )
    .fetch_one(&one)
    .await
    .unwrap();
    assert!(
        generic >= 6 && custom <= 6,
        "generic {generic}, custom {custom}: planned again on every call"
    );
}

/// A team member's message sent as the chat service sends it.
async fn send(
    db: &PgPool,
    user: i64,
    conversation: i64,
    text: &str,
    window: server::db::ai_context::TurnWindow,
) -> server::db::ai_send::Sent {
    send_knowing(db, user, conversation, text, window, &[]).await
}

/// [`send`], the caller holding `known` messages of the conversation.
async fn send_knowing(
    db: &PgPool,
    user: i64,
    conversation: i64,
    text: &str,
    window: server::db::ai_context::TurnWindow,
    known: &[server::db::ai_messages::StoredMessage],
) -> server::db::ai_send::Sent {
    let event = app::chat::ChatEvent::UserMessage {
        text: text.into(),
        author: "Camille".into(),
    };
    let started = app::chat::ChatEvent::TurnStarted {
        turn_id: 0,
        offline: true,
        model: "offline-planner".into(),
    };
    server::db::ai_send::send_user_message(
        db,
        user,
        conversation,
        "offline",
        text,
        [&event, &started],
        window,
        known,
    )
    .await
    .unwrap()
}

/// The messages a send already knows are not read again; what it reads
/// after them (another server's messages, or more than a window of them)
/// makes the same window a fresh read gives.
#[sqlx::test(migrations = "../migrations")]
async fn a_send_reads_only_the_messages_after_those_it_knows(db: PgPool) {
    use server::db::ai_send::Sent;
    use server::db::{ai_context, ai_messages};
    seed_demo(&db).await;
    let (user, conversation, running) = running_turn(&db).await;
    server::db::ai_turns::finish(&db, running, "done", None)
        .await
        .unwrap();
    let text = |t: &str| vec![Block::Text { text: t.into() }];
    let append = |n: usize| {
        let db = db.clone();
        async move {
            for i in 0..n {
                // Written by another server: this one does not know them.
                ai_messages::append(
                    &db,
                    conversation,
                    "user",
                    &text(&format!("ailleurs {i}")),
                    None,
                )
                .await
                .unwrap();
            }
        }
    };
    append(7).await;
    for window in [5u16, 30] {
        let window = ai_context::TurnWindow {
            recent: 3,
            messages: window,
        };
        let mut known: Vec<ai_messages::StoredMessage> = Vec::new();
        for (step, elsewhere) in [
            (0, 0),
            (1, 2),
            (2, 0),
            (3, usize::from(window.messages) + 3),
        ] {
            append(elsewhere).await;
            let said = format!("question {step}");
            let sent = send_knowing(&db, user, conversation, &said, window, &known).await;
            let Sent::Opened { turn_id, reads, .. } = sent else {
                panic!("the turn opens: {sent:?}");
            };
            let fresh = ai_context::for_turn(&db, None, conversation, window)
                .await
                .unwrap();
            assert_eq!(reads.messages, fresh.messages, "{window:?}, step {step}");
            assert_eq!(reads.messages.last().unwrap().content.0, text(&said));
            server::db::ai_turns::finish(&db, turn_id, "done", None)
                .await
                .unwrap();
            known = reads.messages;
        }
        // What is known is taken as it is, not read again: a known message
        // altered here comes back altered.
        let mut altered = known.clone();
        let last = altered.len() - 1;
        altered[last].content = sqlx::types::Json(text("tenu en mémoire"));
        let sent = send_knowing(&db, user, conversation, "et encore", window, &altered).await;
        let Sent::Opened { turn_id, reads, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        let kept = usize::from(window.messages) - 1;
        assert_eq!(reads.messages.len(), usize::from(window.messages));
        assert_eq!(reads.messages[..kept], altered[altered.len() - kept..]);
        assert_eq!(reads.messages[kept - 1].content.0, text("tenu en mémoire"));
        server::db::ai_turns::finish(&db, turn_id, "done", None)
            .await
            .unwrap();
    }
}
