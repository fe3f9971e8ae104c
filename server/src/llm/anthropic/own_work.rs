//! The client's own work on one streamed call, without the exchange: the
//! request encoded as its body, and an answer's event stream decoded into
//! chat events. `maxy bench chat` times it apart, since a call's wall time
//! cannot tell this work from the loopback's transfer and wake-ups.
use super::request::ChatWireRequest;
use super::stream::decode;
use super::translate::Translator;
use crate::llm::chat::{ChatEvent, ChatRequest};
use crate::llm::LlmError;
use futures_util::StreamExt;
use std::time::Instant;

/// Encodes `request` for `model` as a streamed call's body, then decodes
/// `answer` (the bytes of a `text/event-stream` answer, in one chunk) up
/// to its final message, as [`super::AnthropicClient`] does for a call.
/// Returns the body's length and the chat events the answer gave.
pub async fn encode_and_decode(
    model: &str,
    request: &ChatRequest,
    answer: &[u8],
) -> Result<(usize, usize), LlmError> {
    let body = serde_json::to_vec(&ChatWireRequest::new(model, request))
        .map_err(|e| LlmError::Rejected(format!("cannot encode the request: {e}")))?;
    let chunks = futures_util::stream::iter([Ok::<_, std::convert::Infallible>(answer)]);
    let mut events = std::pin::pin!(decode(chunks));
    let mut translator = Translator::new(Instant::now());
    let mut given = 0;
    while let Some(event) = events.next().await {
        let event = event.map_err(|e| LlmError::InvalidResponse(e.to_string()))?;
        let out = translator
            .push(event)
            .map_err(|e| LlmError::InvalidResponse(e.to_string()))?;
        let finished = out.iter().any(|e| matches!(e, ChatEvent::Finished(_)));
        given += out.len();
        if finished {
            return Ok((body.len(), given));
        }
    }
    Err(LlmError::InvalidResponse(
        "the stream ended without its answer".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::chat::ChatMessage;
    use crate::llm::Task;

    fn request() -> ChatRequest {
        ChatRequest {
            task: Task::Chat,
            system: "Tu es Maxy.".into(),
            tools: Vec::new().into(),
            messages: vec![ChatMessage::user_text("Des lieux ?")],
            max_tokens: 100,
            time_limit: None,
        }
    }

    #[tokio::test]
    async fn a_whole_answer_decodes_to_its_final_message() {
        let answer = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Bonjour\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":3}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        );
        let (body, given) = encode_and_decode("claude-sonnet-4-5", &request(), answer.as_bytes())
            .await
            .unwrap();
        assert!(body > 50, "{body}");
        // Started, the text, the final answer.
        assert!(given >= 3, "{given}");
    }

    #[tokio::test]
    async fn a_cut_answer_is_an_error() {
        let cut = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n";
        assert!(
            encode_and_decode("claude-sonnet-4-5", &request(), cut.as_bytes())
                .await
                .is_err()
        );
    }
}
