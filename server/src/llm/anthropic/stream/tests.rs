use super::transcript::{expected_events, expected_message, TRANSCRIPT};
use super::*;
use crate::llm::{LlmError, StopReason};
use futures_util::stream::{self, StreamExt};
use std::convert::Infallible;

type Decoded = Vec<Result<StreamEvent, StreamError>>;

/// Everything [`decode`] yields for these chunks.
pub(super) fn decode_chunks(chunks: Vec<Vec<u8>>) -> Decoded {
    let bytes = stream::iter(chunks.into_iter().map(Ok::<_, Infallible>));
    collect(decode(bytes))
}

fn collect(events: impl futures_util::Stream<Item = Result<StreamEvent, StreamError>>) -> Decoded {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a test runtime")
        .block_on(events.collect())
}

fn decode_text(text: &str) -> Decoded {
    decode_chunks(vec![text.as_bytes().to_vec()])
}

/// The events, or the first error.
fn events_of(decoded: Decoded) -> Vec<StreamEvent> {
    decoded
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn assemble(events: Vec<StreamEvent>) -> Result<AssembledMessage, StreamError> {
    let mut assembler = MessageAssembler::new();
    for event in events {
        assembler.push(event)?;
    }
    assembler.finish()
}

fn sse(name: &str, data: &str) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// The transcript up to (not including) its `message_delta`.
fn transcript_before_the_end() -> &'static str {
    let end = TRANSCRIPT
        .find("event: message_delta")
        .expect("a message_delta");
    &TRANSCRIPT[..end]
}

#[test]
fn the_documented_transcript_decodes_into_typed_events() {
    assert_eq!(events_of(decode_text(TRANSCRIPT)), expected_events());
}

#[test]
fn the_transcript_assembles_into_text_tool_call_and_usage() {
    let message = assemble(events_of(decode_text(TRANSCRIPT))).expect("a message");
    assert_eq!(message, expected_message());
    assert_eq!(
        message.text(),
        "Je cherche des salles à Montréal pour l'équipe 🎉, un instant…"
    );
}

#[test]
fn crlf_line_endings_decode_the_same() {
    let crlf = TRANSCRIPT.replace('\n', "\r\n");
    assert_eq!(events_of(decode_text(&crlf)), expected_events());
}

#[test]
fn one_byte_chunks_decode_the_same() {
    for text in [TRANSCRIPT.to_string(), TRANSCRIPT.replace('\n', "\r\n")] {
        let chunks = text.bytes().map(|b| vec![b]).collect();
        assert_eq!(events_of(decode_chunks(chunks)), expected_events());
    }
}

#[test]
fn reqwest_style_bytes_chunks_are_accepted() {
    let (head, tail) = TRANSCRIPT.split_at(TRANSCRIPT.len() / 2);
    let chunks =
        [head, tail].map(|s| Ok::<_, Infallible>(bytes::Bytes::copy_from_slice(s.as_bytes())));
    assert_eq!(
        events_of(collect(decode(stream::iter(chunks)))),
        expected_events()
    );
}

#[test]
fn an_error_event_ends_the_stream_with_a_retryable_error() {
    let text = format!(
        "{}{}",
        transcript_before_the_end(),
        sse(
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
        )
    );
    let mut decoded = decode_text(&text);
    let error = decoded.pop().expect("an error").expect_err("an error");
    assert_eq!(
        error,
        StreamError::Api {
            kind: "overloaded_error".into(),
            message: "Overloaded".into()
        }
    );
    assert!(error.is_retryable());
    assert!(matches!(LlmError::from(error), LlmError::Unavailable(_)));
    // Everything before the error came through.
    let before = events_of(decoded);
    assert_eq!(before, expected_events()[..before.len()]);
    assert_eq!(before.len(), expected_events().len() - 2);
}

#[test]
fn only_transient_api_errors_are_retryable() {
    let api = |kind: &str| StreamError::Api {
        kind: kind.into(),
        message: "…".into(),
    };
    for kind in ["overloaded_error", "api_error", "rate_limit_error"] {
        assert!(api(kind).is_retryable(), "{kind}");
    }
    for kind in [
        "invalid_request_error",
        "authentication_error",
        "permission_error",
    ] {
        assert!(!api(kind).is_retryable(), "{kind}");
        assert!(matches!(
            LlmError::from(api(kind)),
            LlmError::InvalidResponse(_)
        ));
    }
}

#[test]
fn nothing_is_read_after_an_error() {
    let text = format!(
        "{}{}",
        sse(
            "error",
            r#"{"type":"error","error":{"type":"api_error","message":"Internal"}}"#
        ),
        TRANSCRIPT
    );
    let decoded = decode_text(&text);
    assert_eq!(decoded.len(), 1, "{decoded:?}");
}

#[test]
fn a_stream_without_message_stop_is_incomplete() {
    let mut decoded = decode_text(transcript_before_the_end());
    assert_eq!(decoded.pop(), Some(Err(StreamError::Incomplete)));
    assert!(StreamError::Incomplete.is_retryable());
    // The assembler agrees when fed the events that did come.
    assert_eq!(assemble(events_of(decoded)), Err(StreamError::Incomplete));
}

#[test]
fn an_empty_stream_is_incomplete() {
    assert_eq!(decode_text(""), vec![Err(StreamError::Incomplete)]);
}

#[test]
fn malformed_json_in_a_known_event_names_the_event() {
    let text = format!(
        "{}{}",
        transcript_before_the_end(),
        sse("message_delta", r#"{"type":"message_delta","delta":{"#)
    );
    let error = decode_text(&text)
        .pop()
        .expect("an item")
        .expect_err("an error");
    assert!(
        matches!(&error, StreamError::Malformed { event, .. } if event == "message_delta"),
        "{error:?}"
    );
    assert!(error.to_string().contains("message_delta"), "{error}");
    assert!(!error.is_retryable());
}

#[test]
fn a_known_event_missing_a_field_is_malformed() {
    let text = sse(
        "content_block_delta",
        r#"{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}"#,
    );
    let decoded = decode_text(&text);
    assert!(
        matches!(&decoded[..], [Err(StreamError::Malformed { event, .. })] if event == "content_block_delta"),
        "{decoded:?}"
    );
}

#[test]
fn unknown_events_blocks_and_deltas_are_ignored() {
    let (start, rest) = TRANSCRIPT.split_at(
        TRANSCRIPT
            .find("event: content_block_start")
            .expect("a block"),
    );
    let extras = [
        sse("future_event", r#"{"type":"future_event","whatever":[1,2]}"#),
        sse("future_event", "not even json"),
        sse(
            "content_block_start",
            r#"{"type":"content_block_start","index":7,"content_block":{"type":"thinking","thinking":""}}"#,
        ),
        sse(
            "content_block_delta",
            r#"{"type":"content_block_delta","index":7,"delta":{"type":"thinking_delta","thinking":"Hmm"}}"#,
        ),
        sse("content_block_stop", r#"{"type":"content_block_stop","index":7}"#),
    ]
    .concat();
    let decoded = events_of(decode_text(&format!("{start}{extras}{rest}")));
    // Only the skipped block's stop shows; the assembler ignores it.
    let mut expected = expected_events();
    expected.insert(1, StreamEvent::BlockStop { index: 7 });
    assert_eq!(decoded, expected);
    assert_eq!(assemble(decoded), Ok(expected_message()));
}

#[test]
fn events_without_an_event_line_are_named_by_their_type() {
    let text = TRANSCRIPT
        .lines()
        .filter(|line| !line.starts_with("event:"))
        .map(|line| format!("{line}\n"))
        .collect::<String>();
    assert_eq!(events_of(decode_text(&text)), expected_events());
}

#[test]
fn a_broken_connection_is_a_retryable_transport_error() {
    let chunks = vec![
        Ok(transcript_before_the_end().as_bytes().to_vec()),
        Err(std::io::Error::other("connection reset")),
    ];
    let mut decoded = collect(decode(stream::iter(chunks)));
    let error = decoded.pop().expect("an item").expect_err("an error");
    assert!(matches!(&error, StreamError::Transport(m) if m.contains("connection reset")));
    assert!(error.is_retryable());
}

fn message_with_tool_input(fragments: &[&str]) -> Result<AssembledMessage, StreamError> {
    let mut events = vec![
        expected_events()[0].clone(),
        StreamEvent::ToolUseStart {
            index: 0,
            id: "toolu_1".into(),
            name: "list_events".into(),
        },
    ];
    events.extend(fragments.iter().map(|json| StreamEvent::ToolInputDelta {
        index: 0,
        partial_json: (*json).into(),
    }));
    events.extend([
        StreamEvent::BlockStop { index: 0 },
        StreamEvent::MessageStop,
    ]);
    assemble(events)
}

#[test]
fn a_tool_call_without_input_fragments_has_an_empty_object_as_input() {
    for fragments in [&[][..], &[""][..]] {
        let message = message_with_tool_input(fragments).expect("a message");
        assert!(
            matches!(&message.content[..], [ContentBlock::ToolUse { input, .. }] if *input == serde_json::json!({})),
            "{message:?}"
        );
    }
}

#[test]
fn invalid_tool_input_is_an_error_for_that_block() {
    let error = message_with_tool_input(&[r#"{"city": "Par"#]).expect_err("an error");
    assert!(
        matches!(&error, StreamError::InvalidToolInput { index: 0, name, .. } if name == "list_events"),
        "{error:?}"
    );
    assert!(!error.is_retryable());
}

#[test]
fn message_delta_usage_is_cumulative_and_replaces_the_previous_one() {
    let mut events = expected_events();
    let last_delta = events.len() - 1;
    events.insert(
        last_delta,
        StreamEvent::MessageDelta {
            stop_reason: None,
            usage: UsageUpdate {
                output_tokens: 95,
                input_tokens: Some(480),
                cache_write_tokens: None,
                cache_read_tokens: Some(0),
            },
        },
    );
    let message = assemble(events).expect("a message");
    assert_eq!(message.usage.output_tokens, 95);
    assert_eq!(message.usage.input_tokens, 480);
    assert_eq!(message.usage.cache_write_tokens, 120);
    assert_eq!(message.usage.cache_read_tokens, 0);
    // A later delta without a stop reason keeps the earlier one.
    assert_eq!(message.stop_reason, StopReason::ToolUse);
}

#[test]
fn stop_reasons_map_as_in_the_non_streaming_client() {
    let delta = |reason: &str| {
        sse(
            "message_delta",
            &format!(
                r#"{{"type":"message_delta","delta":{{"stop_reason":{reason},"stop_sequence":null}},"usage":{{"output_tokens":3}}}}"#
            ),
        )
    };
    for (wire, expected) in [
        (r#""end_turn""#, Some(StopReason::EndTurn)),
        (r#""max_tokens""#, Some(StopReason::MaxTokens)),
        (r#""stop_sequence""#, Some(StopReason::StopSequence)),
        (r#""refusal""#, Some(StopReason::Other("refusal".into()))),
        ("null", None),
    ] {
        let decoded = decode_text(&delta(wire));
        assert_eq!(
            decoded[0],
            Ok(StreamEvent::MessageDelta {
                stop_reason: expected,
                usage: UsageUpdate {
                    output_tokens: 3,
                    ..UsageUpdate::default()
                }
            }),
            "{wire}"
        );
    }
    // No stop reason at all: as the non-streaming client says it.
    let message =
        assemble(vec![expected_events()[0].clone(), StreamEvent::MessageStop]).expect("a message");
    assert_eq!(message.stop_reason, StopReason::Other("none".into()));
}

#[test]
fn contradictory_events_are_errors_not_panics() {
    let start = expected_events()[0].clone();
    let cases = [
        vec![StreamEvent::TextStart { index: 0 }],
        vec![start.clone(), start.clone()],
        vec![
            start.clone(),
            StreamEvent::TextDelta {
                index: 3,
                text: "x".into(),
            },
        ],
        vec![
            start.clone(),
            StreamEvent::TextStart { index: 0 },
            StreamEvent::ToolInputDelta {
                index: 0,
                partial_json: "{}".into(),
            },
        ],
        vec![
            start.clone(),
            StreamEvent::TextStart { index: 0 },
            StreamEvent::TextStart { index: 0 },
        ],
    ];
    for events in cases {
        let result = assemble(events.clone());
        assert!(
            matches!(result, Err(StreamError::Inconsistent(_))),
            "{events:?} gave {result:?}"
        );
    }
}

#[test]
fn a_tool_call_left_open_is_incomplete() {
    let events = vec![
        expected_events()[0].clone(),
        StreamEvent::ToolUseStart {
            index: 0,
            id: "toolu_1".into(),
            name: "list_events".into(),
        },
        StreamEvent::MessageStop,
    ];
    assert_eq!(assemble(events), Err(StreamError::Incomplete));
}
