//! Language-model settings: which provider ranks venues (and, later, chats),
//! with which model and timeout.
//!
//! The default is `none`: no network call, the deterministic ranking answers.
//! Choosing `anthropic` without a key is a start-up error rather than a
//! silent fallback, so a misconfigured server is noticed at once.
use super::{ConfigError, Env};
use std::time::Duration;

/// The Messages API host; tests and gateways point elsewhere.
pub const DEFAULT_ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// Cheap and fast enough for ranking 50 finalists within the seed's 1–3 s.
pub const DEFAULT_LLM_MODEL: &str = "claude-haiku-4-5";
/// One non-streaming call; the ranker's own deadline caps retries on top.
const DEFAULT_TIMEOUT_MS: u64 = 20_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlmBackend {
    /// No language model: deterministic ranking (`MAXY_LLM_PROVIDER=none`).
    Offline,
    Anthropic(AnthropicSettings),
}

impl LlmBackend {
    /// The provider name, as `MAXY_LLM_PROVIDER` spells it.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Offline => "none",
            Self::Anthropic(_) => "anthropic",
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct AnthropicSettings {
    /// Without `/v1`: the client appends `/v1/messages`.
    pub base_url: String,
    /// Sent as `x-api-key`; never printed (see the `Debug` impl).
    pub api_key: String,
}

impl std::fmt::Debug for AnthropicSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &"***")
            .finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmSettings {
    pub backend: LlmBackend,
    pub model: String,
    /// Bounds each HTTP attempt.
    pub timeout: Duration,
}

impl LlmSettings {
    /// Every variable is checked even when the provider is `none`, so a typo
    /// is reported the day it is made, not the day the provider is switched on.
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let provider = env.string("MAXY_LLM_PROVIDER", "none")?;
        let base_url = env.url(
            "MAXY_ANTHROPIC_BASE_URL",
            DEFAULT_ANTHROPIC_BASE_URL,
            &["http", "https"],
        )?;
        let api_key = anthropic_key(env)?;
        let model = env.string("MAXY_LLM_MODEL", DEFAULT_LLM_MODEL)?;
        if model.chars().any(char::is_whitespace) {
            return Err(ConfigError::Invalid {
                var: "MAXY_LLM_MODEL".into(),
                expected: "a model name without spaces, e.g. claude-haiku-4-5".into(),
                got: model,
            });
        }
        let timeout = Duration::from_millis(env.number(
            "MAXY_LLM_TIMEOUT_MS",
            DEFAULT_TIMEOUT_MS,
            100..=600_000,
        )?);
        let backend = match provider.to_ascii_lowercase().as_str() {
            "none" => LlmBackend::Offline,
            "anthropic" => LlmBackend::Anthropic(AnthropicSettings {
                base_url: base_url.trim_end_matches('/').to_string(),
                api_key: api_key.ok_or_else(|| ConfigError::Missing {
                    var: "MAXY_ANTHROPIC_API_KEY".into(),
                    because: "MAXY_LLM_PROVIDER is anthropic".into(),
                })?,
            }),
            _ => {
                return Err(ConfigError::Invalid {
                    var: "MAXY_LLM_PROVIDER".into(),
                    expected: "none or anthropic".into(),
                    got: provider,
                })
            }
        };
        Ok(LlmSettings {
            backend,
            model,
            timeout,
        })
    }
}

/// The key must fit in an HTTP header; a bad one is refused without being echoed.
fn anthropic_key(env: &Env) -> Result<Option<String>, ConfigError> {
    let Some(key) = env.raw("MAXY_ANTHROPIC_API_KEY")? else {
        return Ok(None);
    };
    if key.chars().all(|c| c.is_ascii_graphic()) {
        Ok(Some(key.to_string()))
    } else {
        Err(ConfigError::Invalid {
            var: "MAXY_ANTHROPIC_API_KEY".into(),
            expected: "printable ASCII without spaces".into(),
            got: "(hidden)".into(),
        })
    }
}
