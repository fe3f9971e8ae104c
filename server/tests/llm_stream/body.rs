//! The request body on the wire: tool calls and results as blocks,
//! same-role messages merged, and the cache breakpoints where the plan puts
//! them (none when the prefix is too short to be cached).
use super::fake::FakeStream;
use super::{client, drain, events, hello, request, sse, sse_reply};
use serde_json::json;
use server::llm::{Block, ChatMessage, ChatRole};

fn tool_call(id: &str) -> ChatMessage {
    ChatMessage {
        role: ChatRole::Assistant,
        content: vec![Block::ToolUse {
            id: id.into(),
            name: "search_members".into(),
            input: json!({"ville": "Lyon"}),
        }],
    }
}

fn tool_result(id: &str, content: &str) -> ChatMessage {
    ChatMessage {
        role: ChatRole::User,
        content: vec![Block::ToolResult {
            tool_use_id: id.into(),
            content: content.into(),
            is_error: false,
        }],
    }
}

/// The (message, block) positions of `cache_control` markers in a body.
fn markers(body: &serde_json::Value) -> Vec<(usize, usize)> {
    let mut out = vec![];
    for (m, message) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (b, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if let Some(marker) = block.get("cache_control") {
                assert_eq!(marker, &json!({"type": "ephemeral"}));
                out.push((m, b));
            }
        }
    }
    out
}

#[tokio::test]
async fn the_body_carries_blocks_merged_roles_and_cache_breakpoints() {
    let fake = FakeStream::start(vec![
        sse_reply(sse::text_answer(&["a"])),
        sse_reply(sse::text_answer(&["b"])),
    ])
    .await;
    let llm = client(&fake);
    // A long history ending on tool results: all three breakpoints.
    let mut long = request(vec![
        ChatMessage::user_text("Trouve des lieux à Lyon"),
        ChatMessage::user_text("pour 80 personnes"),
        ChatMessage::assistant_text("Je cherche."),
        tool_call("toolu_1"),
        tool_result("toolu_1", &"lieu ".repeat(400)),
        tool_call("toolu_2"),
        tool_result("toolu_2", "{\"count\": 12}"),
    ]);
    long.system = "Règles. ".repeat(600);
    events(drain(&llm, &long).await);
    // A short conversation: nothing worth caching.
    events(drain(&llm, &hello()).await);

    let seen = fake.seen();
    let body = &seen[0].body;
    assert_eq!(
        body["system"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
    let roles: Vec<_> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant", "user"],
        "same-role messages merged"
    );
    assert_eq!(
        body["messages"][0]["content"],
        json!([{"type": "text", "text": "Trouve des lieux à Lyon"},
               {"type": "text", "text": "pour 80 personnes"}])
    );
    assert_eq!(
        body["messages"][1]["content"][1],
        json!({"type": "tool_use", "id": "toolu_1", "name": "search_members", "input": {"ville": "Lyon"}})
    );
    assert_eq!(body["messages"][2]["role"], "user");
    assert_eq!(body["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(body["messages"][2]["content"][0]["tool_use_id"], "toolu_1");
    assert_eq!(
        body["messages"][4]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_2", "content": "{\"count\": 12}",
               "is_error": false, "cache_control": {"type": "ephemeral"}})
    );
    assert_eq!(
        markers(body),
        [(3, 0), (4, 0)],
        "history before the newest message, and the newest tool results"
    );

    let short = &seen[1].body;
    assert!(short["system"][0].get("cache_control").is_none());
    assert!(markers(short).is_empty());
}

#[tokio::test]
async fn a_long_history_marks_the_message_before_the_newest() {
    let fake = FakeStream::start(vec![sse_reply(sse::text_answer(&["a"]))]).await;
    let mut r = request(vec![
        ChatMessage::user_text("Première question"),
        ChatMessage::assistant_text("réponse ".repeat(700)),
        ChatMessage::user_text("Et à Lyon ?"),
    ]);
    r.system = "court".into();
    events(drain(&client(&fake), &r).await);
    let body = &fake.seen()[0].body;
    assert!(
        body["system"][0].get("cache_control").is_none(),
        "tools + system are short"
    );
    assert_eq!(markers(body), [(1, 0)]);
}
