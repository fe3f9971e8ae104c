//! Server-sent events as Anthropic writes them (`event:` line, `data:` JSON,
//! blank line), to script the fake.
use serde_json::json;

pub const MODEL: &str = "claude-sonnet-4-5-20250929";

fn event(name: &str, data: serde_json::Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

pub fn message_start(input: u32, cache_write: u32, cache_read: u32) -> String {
    event(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": "msg_01Stream", "type": "message", "role": "assistant", "model": MODEL,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": input, "cache_creation_input_tokens": cache_write,
                      "cache_read_input_tokens": cache_read, "output_tokens": 1}}}),
    )
}

pub fn ping() -> String {
    event("ping", json!({"type": "ping"}))
}

pub fn text_start(index: usize) -> String {
    event(
        "content_block_start",
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "text", "text": ""}}),
    )
}

pub fn text_delta(index: usize, text: &str) -> String {
    event(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "text_delta", "text": text}}),
    )
}

pub fn tool_start(index: usize, id: &str, name: &str) -> String {
    event(
        "content_block_start",
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
    )
}

pub fn input_delta(index: usize, partial_json: &str) -> String {
    event(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "input_json_delta", "partial_json": partial_json}}),
    )
}

pub fn block_stop(index: usize) -> String {
    event(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": index}),
    )
}

pub fn message_end(stop_reason: &str, output: u32) -> String {
    event(
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": stop_reason, "stop_sequence": null},
               "usage": {"output_tokens": output}}),
    ) + &event("message_stop", json!({"type": "message_stop"}))
}

pub fn error(kind: &str) -> String {
    event(
        "error",
        json!({"type": "error", "error": {"type": kind, "message": "Overloaded"}}),
    )
}

/// A whole text answer.
pub fn text_answer(parts: &[&str]) -> String {
    let mut out = message_start(1500, 1200, 0) + &text_start(0) + &ping();
    for part in parts {
        out += &text_delta(0, part);
    }
    out + &block_stop(0) + &message_end("end_turn", 12)
}
