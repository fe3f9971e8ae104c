//! The assistant's chat settings.
use super::{ConfigError, Env};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatSettings {
    /// Messages of history the model reads (seed 000: 30; past ~50 it drifts).
    pub max_history: usize,
    /// How long an approval card stays valid.
    pub approval_ttl: Duration,
}

impl ChatSettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        Ok(ChatSettings {
            max_history: env.number("MAXY_CHAT_HISTORY_MESSAGES", 30, 4..=200)?,
            approval_ttl: Duration::from_secs(
                env.number("MAXY_APPROVAL_TTL_HOURS", 24u64, 1..=720)? * 3600,
            ),
        })
    }
}
