//! The provider the server hands to every caller: each call goes to the
//! model its task is routed to this month ([`Router::for_task`]), so the
//! search ranker, the chat and every later caller follow `MODEL_BY_TASK`
//! and the budget without knowing either.
//!
//! The month's level is read from the call log ([`CallLog`]: in the
//! server, `llm_calls`) at most once per
//! [`LEVEL_TTL`]: a call never waits on more than that one cheap query,
//! and a database that cannot answer keeps the last known level (at start,
//! `Ok`: the main model), with one warning.
use super::budget::{self, BudgetLevel, BudgetSettings};
use super::chat::{ChatRequest, ChatStream};
use super::{CallLog, Completion, CompletionRequest, LlmError, LlmProvider, Router, Task};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// How long a month's level is trusted before it is read again.
pub const LEVEL_TTL: Duration = Duration::from_secs(60);

pub struct Routed {
    router: Router,
    log: Arc<dyn CallLog>,
    settings: BudgetSettings,
    /// The last level read and when.
    level: Mutex<Option<(Instant, BudgetLevel)>>,
}

impl Routed {
    /// `log`: where the month's spend is read (in the server, the pool).
    pub fn new(router: Router, log: impl CallLog + 'static, settings: BudgetSettings) -> Self {
        Routed {
            router,
            log: Arc::new(log),
            settings,
            level: Mutex::new(None),
        }
    }

    /// The month's level, read again when older than [`LEVEL_TTL`]. Without
    /// a bulk model the level changes nothing: no query at all.
    pub async fn level(&self) -> BudgetLevel {
        if self.router.bulk.is_none() {
            return BudgetLevel::Ok;
        }
        let mut cached = self.level.lock().await;
        if let Some((at, level)) = *cached {
            if at.elapsed() < LEVEL_TTL {
                return level;
            }
        }
        let level = match budget::month_to_date(
            self.log.as_ref(),
            self.settings,
            chrono::Utc::now(),
        )
        .await
        {
            Ok(status) => status.level,
            Err(e) => {
                let last = cached.map_or(BudgetLevel::Ok, |(_, level)| level);
                tracing::warn!(error = %e, ?last, "cannot read the month's LLM spend: routing as before");
                last
            }
        };
        *cached = Some((Instant::now(), level));
        level
    }

    async fn provider(&self, task: Task) -> Arc<dyn LlmProvider> {
        self.router.for_task(task, self.level().await)
    }
}

#[async_trait::async_trait]
impl LlmProvider for Routed {
    fn name(&self) -> &'static str {
        self.router.main.name()
    }

    fn model(&self) -> &str {
        self.router.main.model()
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError> {
        self.provider(request.task).await.complete(request).await
    }

    async fn complete_checked(
        &self,
        request: &CompletionRequest,
        check: super::Check<'_>,
    ) -> Result<Completion, LlmError> {
        self.provider(request.task)
            .await
            .complete_checked(request, check)
            .await
    }

    async fn stream(&self, request: &ChatRequest) -> Result<ChatStream, LlmError> {
        self.provider(request.task).await.stream(request).await
    }

    async fn is_offline_for(&self, task: Task) -> bool {
        self.provider(task).await.is_offline_for(task).await
    }
}
