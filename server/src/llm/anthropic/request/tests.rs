use super::*;
use crate::llm::chat::{ChatMessage, ToolSpec};
use crate::llm::Task;
use serde_json::json;

fn request(system: &str, messages: Vec<ChatMessage>) -> ChatRequest {
    ChatRequest {
        task: Task::Chat,
        system: system.into(),
        tools: vec![ToolSpec {
            name: "get_request".into(),
            description: "Lit une demande.".into(),
            input_schema: json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
        }]
        .into(),
        messages,
        max_tokens: 800,
        time_limit: None,
    }
}

fn body(model: &str, request: &ChatRequest) -> serde_json::Value {
    serde_json::to_value(ChatWireRequest::new(model, request)).unwrap_or_default()
}

#[test]
fn a_short_request_has_the_streamed_messages_shape_and_no_breakpoint() {
    let r = request("Tu es Maxy.", vec![ChatMessage::user_text("Bonjour")]);
    assert_eq!(
        body("claude-sonnet-4-5", &r),
        json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 800,
            "stream": true,
            "tools": [{"name": "get_request", "description": "Lit une demande.",
                       "input_schema": {"type": "object", "properties": {"id": {"type": "integer"}}}}],
            "system": [{"type": "text", "text": "Tu es Maxy."}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Bonjour"}]}]
        })
    );
}

#[test]
fn tool_calls_and_results_are_blocks_and_same_role_messages_merge() {
    let long = "x".repeat(5000);
    let r = request(
        &long,
        vec![
            ChatMessage::user_text("Lis la demande 7"),
            ChatMessage::user_text(""),
            ChatMessage::user_text("stp"),
            ChatMessage {
                role: ChatRole::Assistant,
                content: vec![Block::ToolUse {
                    id: "toolu_1".into(),
                    name: "get_request".into(),
                    input: json!({"id": 7}),
                }],
            },
            ChatMessage {
                role: ChatRole::User,
                content: vec![Block::ToolResult {
                    tool_use_id: "toolu_1".into(),
                    content: "{\"request\":{}}".into(),
                    is_error: true,
                }],
            },
        ],
    );
    let body = body("claude-sonnet-4-5", &r);
    assert_eq!(
        body["system"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [
                {"type": "text", "text": "Lis la demande 7"},
                {"type": "text", "text": "stp"}]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "get_request", "input": {"id": 7},
                 "cache_control": {"type": "ephemeral"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "{\"request\":{}}",
                 "is_error": true, "cache_control": {"type": "ephemeral"}}]}
        ])
    );
}

#[test]
fn the_minimum_depends_on_the_model() {
    assert_eq!(minimum_cacheable_tokens("claude-haiku-4-5"), 2048);
    assert_eq!(minimum_cacheable_tokens("claude-sonnet-4-5-20250929"), 1024);
    assert_eq!(minimum_cacheable_tokens("claude-opus-4-1"), 1024);
    assert_eq!(minimum_cacheable_tokens("mystery"), 1024);
    // ~1500 tokens of system: cached for Sonnet, not for Haiku.
    let r = request(&"y".repeat(6000), vec![ChatMessage::user_text("a")]);
    assert!(body("claude-sonnet-4-5", &r)["system"][0]
        .get("cache_control")
        .is_some());
    assert!(body("claude-haiku-4-5", &r)["system"][0]
        .get("cache_control")
        .is_none());
}
