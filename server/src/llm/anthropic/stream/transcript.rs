//! A streamed answer shaped like Anthropic's documented streaming example
//! (text, then a tool call, pings in between), with accents and an emoji so
//! that chunk boundaries can fall inside multi-byte characters.
use super::{AssembledMessage, ContentBlock, StreamEvent, UsageUpdate};
use crate::llm::{StopReason, Usage};

pub(super) const TRANSCRIPT: &str = r#"event: message_start
data: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","stop_sequence":null,"usage":{"input_tokens":472,"cache_creation_input_tokens":120,"cache_read_input_tokens":2048,"output_tokens":2},"content":[],"stop_reason":null}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Je cherche des salles à Montréal"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" pour l'équipe 🎉"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", un instant…"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"search_venues","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Mon"}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"tréal\", \"capa"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"city\": 40}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

"#;

const MODEL: &str = "claude-sonnet-4-5-20250929";

pub(super) fn expected_events() -> Vec<StreamEvent> {
    let text = |text: &str| StreamEvent::TextDelta {
        index: 0,
        text: text.into(),
    };
    let input = |json: &str| StreamEvent::ToolInputDelta {
        index: 1,
        partial_json: json.into(),
    };
    vec![
        StreamEvent::MessageStart {
            model: MODEL.into(),
            usage: Usage {
                input_tokens: 472,
                output_tokens: 2,
                cache_write_tokens: 120,
                cache_read_tokens: 2048,
            },
        },
        StreamEvent::TextStart { index: 0 },
        text("Je cherche des salles à Montréal"),
        text(" pour l'équipe 🎉"),
        text(", un instant…"),
        StreamEvent::BlockStop { index: 0 },
        StreamEvent::ToolUseStart {
            index: 1,
            id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".into(),
            name: "search_venues".into(),
        },
        input(""),
        input(r#"{"city": "Mon"#),
        input(r#"tréal", "capa"#),
        input(r#"city": 40}"#),
        StreamEvent::BlockStop { index: 1 },
        StreamEvent::MessageDelta {
            stop_reason: Some(StopReason::ToolUse),
            usage: UsageUpdate {
                output_tokens: 89,
                ..UsageUpdate::default()
            },
        },
        StreamEvent::MessageStop,
    ]
}

pub(super) fn expected_message() -> AssembledMessage {
    AssembledMessage {
        model: MODEL.into(),
        content: vec![
            ContentBlock::Text(
                "Je cherche des salles à Montréal pour l'équipe 🎉, un instant…".into(),
            ),
            ContentBlock::ToolUse {
                id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".into(),
                name: "search_venues".into(),
                input: serde_json::json!({"city": "Montréal", "capacity": 40}),
            },
        ],
        usage: Usage {
            input_tokens: 472,
            output_tokens: 89,
            cache_write_tokens: 120,
            cache_read_tokens: 2048,
        },
        stop_reason: StopReason::ToolUse,
    }
}
