use super::*;
use crate::llm::chat::{ChatRole, ToolSpec};
use crate::llm::Task;

/// A text of about `tokens` tokens by the four-characters estimate.
fn text_of(tokens: usize) -> String {
    "abcd".repeat(tokens)
}

fn request(system_tokens: usize, messages: Vec<ChatMessage>) -> ChatRequest {
    ChatRequest {
        task: Task::Chat,
        system: text_of(system_tokens),
        tools: Vec::new().into(),
        messages,
        max_tokens: 1000,
        time_limit: None,
    }
}

fn tool_call(id: &str) -> ChatMessage {
    ChatMessage {
        role: ChatRole::Assistant,
        content: vec![
            Block::Text {
                text: "Je regarde.".into(),
            },
            Block::ToolUse {
                id: id.into(),
                name: "get_request".into(),
                input: serde_json::json!({"id": 7}),
            },
        ],
    }
}

fn tool_result(id: &str, tokens: usize) -> ChatMessage {
    ChatMessage {
        role: ChatRole::User,
        content: vec![Block::ToolResult {
            tool_use_id: id.into(),
            content: text_of(tokens),
            is_error: false,
        }],
    }
}

fn at(message: usize, block: usize) -> BlockRef {
    BlockRef { message, block }
}

#[test]
fn a_long_conversation_gets_system_and_history_breakpoints() {
    let messages = vec![
        ChatMessage::user_text(text_of(10)),
        ChatMessage::assistant_text(text_of(10)),
        ChatMessage::user_text("Et à Lyon ?"),
    ];
    let plan = plan(&request(1100, messages), 1024);
    assert!(plan.system);
    assert_eq!(plan.messages, vec![at(1, 0)]);
    assert!(plan.marks(1, 0) && !plan.marks(2, 0));
}

#[test]
fn a_short_prefix_gets_no_breakpoint() {
    let messages = vec![
        ChatMessage::user_text("Bonjour"),
        ChatMessage::assistant_text("Bonjour !"),
        ChatMessage::user_text("Merci"),
    ];
    assert_eq!(plan(&request(100, messages), 1024), CachePlan::default());
}

#[test]
fn tools_count_toward_the_system_prefix() {
    let mut short = request(10, vec![ChatMessage::user_text("Salut")]);
    assert!(!plan(&short, 1024).system);
    short.tools = vec![ToolSpec {
        name: "search_members".into(),
        description: text_of(1100),
        input_schema: serde_json::json!({"type": "object"}),
    }]
    .into();
    let with_tools = plan(&short, 1024);
    assert!(with_tools.system);
    assert!(
        with_tools.messages.is_empty(),
        "one message: no history to mark"
    );
}

#[test]
fn the_history_breakpoint_waits_for_the_prefix_to_reach_the_minimum() {
    // System alone is too short; with the history it is long enough.
    let messages = vec![
        ChatMessage::user_text(text_of(600)),
        ChatMessage::assistant_text(text_of(600)),
        ChatMessage::user_text("Et ensuite ?"),
    ];
    let plan = plan(&request(100, messages), 1024);
    assert!(!plan.system);
    assert_eq!(plan.messages, vec![at(1, 0)]);
}

#[test]
fn haiku_needs_a_longer_prefix() {
    let messages = vec![
        ChatMessage::user_text("a"),
        ChatMessage::assistant_text("b"),
        ChatMessage::user_text("c"),
    ];
    let r = request(1500, messages);
    assert_eq!(plan(&r, 1024).count(), 2);
    assert_eq!(plan(&r, 2048).count(), 0);
}

#[test]
fn tool_results_in_the_newest_message_get_a_rolling_breakpoint() {
    let messages = vec![
        ChatMessage::user_text("Trouve des lieux à Lyon"),
        tool_call("toolu_1"),
        tool_result("toolu_1", 50),
    ];
    let plan = plan(&request(1100, messages), 1024);
    assert!(plan.system);
    assert_eq!(plan.messages, vec![at(1, 1), at(2, 0)]);
}

#[test]
fn the_last_block_skips_empty_texts() {
    let mut answer = tool_call("toolu_1");
    answer.content.push(Block::Text {
        text: String::new(),
    });
    let messages = vec![
        ChatMessage::user_text("Trouve"),
        answer,
        tool_result("toolu_1", 5),
    ];
    let plan = plan(&request(1100, messages), 1024);
    assert_eq!(plan.messages, vec![at(1, 1), at(2, 0)]);

    let empty = vec![
        ChatMessage::user_text("a"),
        ChatMessage::assistant_text(""),
        ChatMessage::user_text("b"),
    ];
    let plan = super::plan(&request(1100, empty), 1024);
    assert!(plan.system && plan.messages.is_empty(), "{plan:?}");
}

#[test]
fn no_system_no_system_breakpoint_and_no_messages_no_history() {
    let r = request(0, vec![]);
    assert_eq!(plan(&r, 0), CachePlan::default());
    let r = request(0, vec![ChatMessage::user_text(text_of(2000))]);
    assert_eq!(plan(&r, 1024), CachePlan::default());
}
