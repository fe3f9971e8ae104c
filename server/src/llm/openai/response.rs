//! Whole (non-streamed) answers of OpenAI's chat completions, their usage,
//! their finish reasons and error bodies. Nothing here leaves the `openai`
//! module.
use crate::llm::{Completion, StopReason, Usage};
use serde::Deserialize;
use std::time::Duration;

#[derive(Deserialize)]
struct WireResponse {
    #[serde(default)]
    model: Option<String>,
    choices: Vec<WireChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireChoice {
    message: WireAnswer,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireAnswer {
    #[serde(default)]
    content: Option<String>,
}

/// Token counts as the API reports them: the prompt's count INCLUDES the
/// tokens read from the cache.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub(super) struct WireUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u32>,
}

impl WireUsage {
    /// In the crate's terms, where input tokens are the uncached ones (they
    /// are billed differently).
    pub(super) fn usage(self) -> Usage {
        let cached = self
            .prompt_tokens_details
            .and_then(|d| d.cached_tokens)
            .unwrap_or(0)
            .min(self.prompt_tokens);
        Usage {
            input_tokens: self.prompt_tokens - cached,
            output_tokens: self.completion_tokens,
            cache_write_tokens: 0,
            cache_read_tokens: cached,
        }
    }
}

/// The one mapping of finish reasons, shared by the whole and the streamed
/// answer.
pub(super) fn finish_reason(reason: Option<&str>) -> StopReason {
    match reason {
        Some("stop") => StopReason::EndTurn,
        Some("length") => StopReason::MaxTokens,
        // `function_call`: the deprecated single-function form.
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        Some(other) => StopReason::Other(other.to_string()),
        None => StopReason::Other("none".into()),
    }
}

/// A 2xx body as a completion (latency set by the caller), or why it is
/// unusable. `model` names the answer when the server does not.
pub(super) fn parse_completion(
    body: &[u8],
    model: &str,
    latency: Duration,
) -> Result<Completion, String> {
    let response: WireResponse = serde_json::from_slice(body)
        .map_err(|e| format!("answered a body that is not a chat completion ({e})"))?;
    let Some(choice) = response.choices.into_iter().next() else {
        return Err("answered a chat completion without any choice".into());
    };
    Ok(Completion {
        text: choice.message.content.unwrap_or_default(),
        model: response
            .model
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| model.to_string()),
        usage: response.usage.unwrap_or_default().usage(),
        latency,
        stop_reason: finish_reason(choice.finish_reason.as_deref()),
    })
}

/// `{"error":{"message":"…","type":"…"}}` (OpenAI, vLLM, llama.cpp) or
/// `{"error":"…"}` (Ollama) as text, else the start of the body.
pub(super) fn error_message(body: &[u8]) -> String {
    let text = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(json) => {
            let error = &json["error"];
            let kind = error["type"].as_str().or_else(|| error["code"].as_str());
            match (kind, error["message"].as_str(), error.as_str()) {
                (Some(kind), Some(message), _) => format!("{kind}: {message}"),
                (None, Some(message), _) => message.to_string(),
                (_, _, Some(message)) => message.to_string(),
                _ => json.to_string(),
            }
        }
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    crate::outbound::quote(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_tokens_are_taken_out_of_the_input() {
        let usage: WireUsage = serde_json::from_str(
            r#"{"prompt_tokens": 1200, "completion_tokens": 40,
                "prompt_tokens_details": {"cached_tokens": 1000}}"#,
        )
        .unwrap_or_default();
        assert_eq!(
            usage.usage(),
            Usage {
                input_tokens: 200,
                output_tokens: 40,
                cache_write_tokens: 0,
                cache_read_tokens: 1000,
            }
        );
        // A server that counts more cached than prompt tokens does not
        // underflow.
        let odd: WireUsage = serde_json::from_str(
            r#"{"prompt_tokens": 5, "prompt_tokens_details": {"cached_tokens": 9}}"#,
        )
        .unwrap_or_default();
        assert_eq!(odd.usage().input_tokens, 0);
        assert_eq!(odd.usage().cache_read_tokens, 5);
    }

    #[test]
    fn finish_reasons_map_to_stop_reasons() {
        assert_eq!(finish_reason(Some("stop")), StopReason::EndTurn);
        assert_eq!(finish_reason(Some("length")), StopReason::MaxTokens);
        assert_eq!(finish_reason(Some("tool_calls")), StopReason::ToolUse);
        assert_eq!(
            finish_reason(Some("content_filter")),
            StopReason::Other("content_filter".into())
        );
    }

    #[test]
    fn error_bodies_of_every_server_read_as_text() {
        assert_eq!(
            error_message(br#"{"error":{"message":"bad model","type":"invalid_request_error"}}"#),
            "invalid_request_error: bad model"
        );
        assert_eq!(
            error_message(br#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_message(b"  upstream down "), "upstream down");
    }

    #[test]
    fn a_body_without_choices_is_unusable() {
        let error = parse_completion(br#"{"choices": []}"#, "m", Duration::ZERO).err();
        assert!(error.is_some_and(|e| e.contains("without any choice")));
    }
}
