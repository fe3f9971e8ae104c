//! The decoder on a transcript shaped like llama.cpp's and OpenAI's streams
//! (a role chunk, text, two tool calls whose arguments are cut inside JSON
//! strings, the finish reason, the usage chunk, `[DONE]`), cut into reads
//! at every byte, so a cut may fall inside a UTF-8 character.
use super::decode;
use crate::llm::chat::{Block, ChatAnswer, ChatEvent};
use crate::llm::{LlmError, StopReason, Usage};
use futures_util::stream::{self, StreamExt};
use futures_util::FutureExt;
use proptest::prelude::*;
use std::time::{Duration, Instant};

const TRANSCRIPT: &str = concat!(
    "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},\"finish_reason\":null}]}\n\n",
    ": keep-alive comment\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Je cherche à Montréal \"},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"pour l'équipe 🎉\"},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"search_members\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\": \\\"Mon\"}}]},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"tréal\\\", \\\"n\\\": 40}\"}}]},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"count_members\",\"arguments\":\"{\\\"pool\\\"\"}}]},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\": \\\"paris\\\"}\"}}]},\"finish_reason\":null}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
    "data: {\"model\":\"qwen3-32b\",\"choices\":[],\"usage\":{\"prompt_tokens\":1500,\"completion_tokens\":42,\"total_tokens\":1542,\"prompt_tokens_details\":{\"cached_tokens\":1024}}}\n\n",
    "data: [DONE]\n\n",
);

fn expected_events() -> Vec<ChatEvent> {
    let input = |id: &str, json: &str| ChatEvent::ToolInputDelta {
        id: id.into(),
        partial_json: json.into(),
    };
    vec![
        ChatEvent::Started {
            model: "qwen3-32b".into(),
            usage: Default::default(),
        },
        ChatEvent::TextDelta {
            text: "Je cherche à Montréal ".into(),
        },
        ChatEvent::TextDelta {
            text: "pour l'équipe 🎉".into(),
        },
        ChatEvent::ToolUseStart {
            id: "call_a".into(),
            name: "search_members".into(),
        },
        input("call_a", r#"{"city": "Mon"#),
        input("call_a", r#"tréal", "n": 40}"#),
        ChatEvent::ToolUseStart {
            id: "call_b".into(),
            name: "count_members".into(),
        },
        input("call_b", r#"{"pool""#),
        input("call_b", r#": "paris"}"#),
    ]
}

fn expected_answer() -> (Vec<Block>, Usage, StopReason) {
    (
        vec![
            Block::Text {
                text: "Je cherche à Montréal pour l'équipe 🎉".into(),
            },
            Block::ToolUse {
                id: "call_a".into(),
                name: "search_members".into(),
                input: serde_json::json!({"city": "Montréal", "n": 40}),
            },
            Block::ToolUse {
                id: "call_b".into(),
                name: "count_members".into(),
                input: serde_json::json!({"pool": "paris"}),
            },
        ],
        Usage {
            input_tokens: 476,
            output_tokens: 42,
            cache_write_tokens: 0,
            cache_read_tokens: 1024,
        },
        StopReason::ToolUse,
    )
}

/// Decodes `pieces` read one after the other.
fn run(pieces: Vec<Vec<u8>>) -> Vec<Result<ChatEvent, LlmError>> {
    let bytes = stream::iter(pieces.into_iter().map(Ok::<_, std::io::Error>));
    // Reads from memory never wait: the future is ready at once.
    decode(bytes, "configured", Instant::now())
        .collect()
        .now_or_never()
        .unwrap_or_default()
}

fn run_text(text: &str) -> Vec<Result<ChatEvent, LlmError>> {
    run(vec![text.as_bytes().to_vec()])
}

/// Splits the events into the deltas and the final answer, checking that
/// everything succeeded and `Finished` came last.
fn check(results: Vec<Result<ChatEvent, LlmError>>) -> (Vec<ChatEvent>, ChatAnswer) {
    let mut events: Vec<ChatEvent> = results
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("an error: {e}")))
        .collect();
    match events.pop() {
        Some(ChatEvent::Finished(answer)) => (events, answer),
        other => panic!("the last event is not Finished: {other:?}"),
    }
}

fn assert_transcript(results: Vec<Result<ChatEvent, LlmError>>) {
    let (events, answer) = check(results);
    assert_eq!(events, expected_events());
    let (content, usage, stop_reason) = expected_answer();
    assert_eq!(answer.content, content);
    assert_eq!(answer.usage, usage);
    assert_eq!(answer.stop_reason, stop_reason);
    assert_eq!(answer.model, "qwen3-32b");
}

#[test]
fn the_transcript_decodes_into_deltas_and_the_whole_answer() {
    assert_transcript(run_text(TRANSCRIPT));
}

#[test]
fn a_cut_at_any_byte_gives_the_same_events() {
    let bytes = TRANSCRIPT.as_bytes();
    for cut in 1..bytes.len() {
        assert_transcript(run(vec![bytes[..cut].to_vec(), bytes[cut..].to_vec()]));
    }
}

#[test]
fn byte_by_byte_reads_give_the_same_events() {
    assert_transcript(run(TRANSCRIPT.bytes().map(|b| vec![b]).collect()));
}

proptest! {
    #[test]
    fn any_chunking_gives_the_same_events(mut cuts in proptest::collection::vec(0..TRANSCRIPT.len(), 0..12)) {
        cuts.sort_unstable();
        cuts.dedup();
        let bytes = TRANSCRIPT.as_bytes();
        let mut pieces = Vec::new();
        let mut from = 0;
        for cut in cuts {
            pieces.push(bytes[from..cut].to_vec());
            from = cut;
        }
        pieces.push(bytes[from..].to_vec());
        assert_transcript(run(pieces));
    }
}

#[test]
fn invalid_arguments_at_the_end_are_an_error() {
    let text = concat!(
        "data: {\"model\":\"m\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"get_member\",\"arguments\":\"{\\\"code\\\": \"}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let results = run_text(text);
    let last = results
        .last()
        .map(|r| r.as_ref().err().map(|e| e.to_string()));
    let Some(Some(message)) = last else {
        panic!("an error last: {results:?}")
    };
    assert!(
        message.contains("get_member") && message.contains("invalid arguments JSON"),
        "{message}"
    );
    assert!(matches!(
        results.last(),
        Some(Err(LlmError::InvalidResponse(_)))
    ));
}

#[test]
fn a_stream_cut_before_done_is_unavailable() {
    let cut = &TRANSCRIPT[..TRANSCRIPT.find("data: [DONE]").unwrap_or(0)];
    let results = run_text(cut);
    assert!(
        matches!(results.last(), Some(Err(LlmError::Unavailable(m))) if m.contains("[DONE]")),
        "{results:?}"
    );
    // Nothing follows an error, and no Finished came.
    assert!(!results
        .iter()
        .any(|r| matches!(r, Ok(ChatEvent::Finished(_)))));
}

#[test]
fn calls_without_ids_get_one_and_stop_after_calls_means_tool_use() {
    let text = concat!(
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"count_members\",\"arguments\":{\"pool\":\"lyon\"}}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let (events, answer) = check(run_text(text));
    assert_eq!(
        events[0],
        ChatEvent::Started {
            model: "configured".into(),
            usage: Default::default(),
        }
    );
    assert_eq!(
        events[1],
        ChatEvent::ToolUseStart {
            id: "call_0".into(),
            name: "count_members".into()
        }
    );
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    assert_eq!(
        answer.content,
        vec![Block::ToolUse {
            id: "call_0".into(),
            name: "count_members".into(),
            input: serde_json::json!({"pool": "lyon"}),
        }]
    );
    // No usage chunk: zero tokens, not an error.
    assert_eq!(answer.usage, Usage::default());
    assert!(answer.latency < Duration::from_secs(5));
}

#[test]
fn an_error_chunk_and_garbage_are_errors_not_panics() {
    let error =
        run_text("data: {\"error\":{\"message\":\"upstream overloaded\",\"code\":502}}\n\n");
    assert!(
        matches!(&error[..], [Err(LlmError::Unavailable(m))] if m.contains("upstream overloaded")),
        "{error:?}"
    );
    let garbage = run_text("data: {\"choices\": 7}\n\n");
    assert!(
        matches!(&garbage[..], [Err(LlmError::InvalidResponse(_))]),
        "{garbage:?}"
    );
    let nothing = run_text("data: [DONE]\n\n");
    assert!(
        matches!(&nothing[..], [Err(LlmError::InvalidResponse(_))]),
        "{nothing:?}"
    );
}

#[test]
fn finish_reasons_length_and_stop_map() {
    for (reason, expected) in [
        ("stop", StopReason::EndTurn),
        ("length", StopReason::MaxTokens),
    ] {
        let text = format!(
            "data: {{\"model\":\"m\",\"choices\":[{{\"delta\":{{\"content\":\"ok\"}},\"finish_reason\":\"{reason}\"}}]}}\n\ndata: [DONE]\n\n"
        );
        let (_, answer) = check(run_text(&text));
        assert_eq!(answer.stop_reason, expected, "{reason}");
    }
}
