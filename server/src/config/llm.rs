//! Language-model settings: which provider answers (none, Anthropic, or any
//! OpenAI-compatible server), with which model and timeout, and the monthly
//! budget that decides when bulk tasks move to a cheaper model.
//!
//! The default is `none`: no network call, the deterministic paths answer.
//! Choosing `anthropic` without a key is a start-up error rather than a
//! silent fallback, so a misconfigured server is noticed at once. An
//! OpenAI-compatible server may need no key (llama.cpp, vLLM, Ollama on
//! this machine), so its key is optional.
use super::{ConfigError, Env};
use std::time::Duration;

/// The Messages API host; tests and gateways point elsewhere.
pub const DEFAULT_ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// A llama.cpp server on this machine (`llama-server --port 8080`); the
/// client appends `/chat/completions`.
pub const DEFAULT_OPENAI_BASE_URL: &str = "http://127.0.0.1:8080/v1";
/// Cheap and fast enough for ranking 50 finalists within the seed's 1–3 s.
pub const DEFAULT_LLM_MODEL: &str = "claude-haiku-4-5";
/// What a local OpenAI-compatible server is asked for when no model is
/// named: llama.cpp serves its one loaded model whatever the name.
pub const DEFAULT_OPENAI_MODEL: &str = "local-model";
/// The seed's cap: past 200 € a month, routing is rethought.
pub const DEFAULT_MONTHLY_CAP_EUR: f64 = 200.0;
/// Prices are in USD; the budget is in EUR.
pub const DEFAULT_USD_TO_EUR: f64 = 0.92;
/// One non-streaming call; the ranker's own deadline caps retries on top.
const DEFAULT_TIMEOUT_MS: u64 = 20_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlmBackend {
    /// No language model: deterministic paths (`MAXY_LLM_PROVIDER=none`).
    Offline,
    Anthropic(AnthropicSettings),
    /// Any server speaking OpenAI's chat completions
    /// (`MAXY_LLM_PROVIDER=openai`).
    OpenAi(OpenAiSettings),
}

impl LlmBackend {
    /// The provider name, as `MAXY_LLM_PROVIDER` spells it.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Offline => "none",
            Self::Anthropic(_) => "anthropic",
            Self::OpenAi(_) => "openai",
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

#[derive(Clone, PartialEq, Eq)]
pub struct OpenAiSettings {
    /// With the version (`…/v1`): the client appends `/chat/completions`.
    pub base_url: String,
    /// Sent as `Authorization: Bearer …` when set; never printed.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for OpenAiSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiSettings")
            .field("base_url", &super::redact_url(&self.base_url))
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .finish()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LlmSettings {
    pub backend: LlmBackend,
    pub model: String,
    /// A cheaper model of the same provider for bulk tasks (ranking,
    /// summaries, classification) once the monthly cap is crossed; `None`:
    /// they stay on `model`.
    pub bulk_model: Option<String>,
    /// Bounds each HTTP attempt (each read, for streamed answers).
    pub timeout: Duration,
    /// Euros per US dollar, for the budget (prices are in USD).
    pub usd_to_eur: f64,
    /// The monthly spend, in EUR, past which bulk tasks use `bulk_model`
    /// (and at 80 % of which admins are warned).
    pub monthly_cap_eur: f64,
}

impl LlmSettings {
    /// Every variable is checked even when the provider is `none`, so a typo
    /// is reported the day it is made, not the day the provider is switched on.
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let provider = env.string("MAXY_LLM_PROVIDER", "none")?;
        let anthropic_url = env.url(
            "MAXY_ANTHROPIC_BASE_URL",
            DEFAULT_ANTHROPIC_BASE_URL,
            &["http", "https"],
        )?;
        let anthropic_key = api_key(env, "MAXY_ANTHROPIC_API_KEY")?;
        let openai_url = env.url(
            "MAXY_OPENAI_BASE_URL",
            DEFAULT_OPENAI_BASE_URL,
            &["http", "https"],
        )?;
        let openai_key = api_key(env, "MAXY_OPENAI_API_KEY")?;
        let model = model_name(env, "MAXY_LLM_MODEL")?;
        let bulk_model = model_name(env, "MAXY_LLM_BULK_MODEL")?;
        let timeout = Duration::from_millis(env.number(
            "MAXY_LLM_TIMEOUT_MS",
            DEFAULT_TIMEOUT_MS,
            100..=600_000,
        )?);
        let usd_to_eur = positive_decimal(env, "MAXY_USD_TO_EUR", DEFAULT_USD_TO_EUR)?;
        let monthly_cap_eur =
            positive_decimal(env, "MAXY_LLM_MONTHLY_CAP_EUR", DEFAULT_MONTHLY_CAP_EUR)?;
        let (backend, default_model) = match provider.to_ascii_lowercase().as_str() {
            "none" | "offline" => (LlmBackend::Offline, DEFAULT_LLM_MODEL),
            "anthropic" => (
                LlmBackend::Anthropic(AnthropicSettings {
                    base_url: anthropic_url.trim_end_matches('/').to_string(),
                    api_key: anthropic_key.ok_or_else(|| ConfigError::Missing {
                        var: "MAXY_ANTHROPIC_API_KEY".into(),
                        because: "MAXY_LLM_PROVIDER is anthropic".into(),
                    })?,
                }),
                DEFAULT_LLM_MODEL,
            ),
            "openai" => (
                LlmBackend::OpenAi(OpenAiSettings {
                    base_url: openai_url.trim_end_matches('/').to_string(),
                    api_key: openai_key,
                }),
                DEFAULT_OPENAI_MODEL,
            ),
            _ => {
                return Err(ConfigError::Invalid {
                    var: "MAXY_LLM_PROVIDER".into(),
                    expected: "none (or offline), anthropic or openai".into(),
                    got: provider,
                })
            }
        };
        Ok(LlmSettings {
            backend,
            model: model.unwrap_or_else(|| default_model.to_string()),
            bulk_model,
            timeout,
            usd_to_eur,
            monthly_cap_eur,
        })
    }
}

/// A model name, when set: providers refuse names with spaces, and a
/// space is more likely a typo than a model.
fn model_name(env: &Env, var: &str) -> Result<Option<String>, ConfigError> {
    let Some(model) = env.optional_string(var)? else {
        return Ok(None);
    };
    if model.chars().any(char::is_whitespace) {
        return Err(ConfigError::Invalid {
            var: var.into(),
            expected: "a model name without spaces, e.g. claude-haiku-4-5".into(),
            got: model,
        });
    }
    Ok(Some(model))
}

/// A number above zero, decimals allowed (`0.92`, `150.5`).
fn positive_decimal(env: &Env, var: &str, default: f64) -> Result<f64, ConfigError> {
    let Some(raw) = env.raw(var)? else {
        return Ok(default);
    };
    match raw.parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err(ConfigError::Invalid {
            var: var.into(),
            expected: "a number above 0, e.g. 0.92 or 150".into(),
            got: raw.into(),
        }),
    }
}

/// The key must fit in an HTTP header; a bad one is refused without being echoed.
fn api_key(env: &Env, var: &str) -> Result<Option<String>, ConfigError> {
    let Some(key) = env.raw(var)? else {
        return Ok(None);
    };
    if key.chars().all(|c| c.is_ascii_graphic()) {
        Ok(Some(key.to_string()))
    } else {
        Err(ConfigError::Invalid {
            var: var.into(),
            expected: "printable ASCII without spaces".into(),
            got: "(hidden)".into(),
        })
    }
}
