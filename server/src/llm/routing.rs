//! Which model serves which task: the seed's `MODEL_BY_TASK`, one table
//! from [`Task`] to a [`Tier`], read by [`Router::for_task`].
//!
//! The seed keeps every task on the main model (quality first at our
//! volume) and names the lever for later: past the monthly cap, bulk tasks
//! move to a cheaper model. So bulk tasks go to the bulk provider only once
//! the month's spend exceeds the cap, and only when one is configured
//! (`MAXY_LLM_BULK_MODEL`). No model call decides the model: a "router"
//! model would cost a call to choose who to call, and fail in its own ways.
use super::budget::BudgetLevel;
use super::{LlmProvider, ProviderBuildError, Task};
use crate::config::LlmSettings;
use std::sync::Arc;

/// A class of tasks that share a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// What the team reads or relies on: chat, parsing, drafts, guidance.
    Main,
    /// Many calls whose output a later step checks: ranking, summaries,
    /// classification. Moved to the cheaper model first.
    Bulk,
}

/// The seed's `MODEL_BY_TASK`: a new task gets its tier here, and the
/// compiler asks for it.
pub const fn tier(task: Task) -> Tier {
    match task {
        Task::Chat | Task::Parse | Task::Draft | Task::Guidance => Tier::Main,
        Task::Rank | Task::Summarize | Task::Classify => Tier::Bulk,
    }
}

/// The providers tasks are routed to. Build once per process and share.
#[derive(Clone)]
pub struct Router {
    pub main: Arc<dyn LlmProvider>,
    /// The configured backend asking for `MAXY_LLM_BULK_MODEL`; `None`
    /// keeps every task on `main`.
    pub bulk: Option<Arc<dyn LlmProvider>>,
}

impl Router {
    /// The main model, and the bulk one when a bulk model is configured and
    /// a provider is (offline has no models to choose between).
    pub fn from_settings(settings: &LlmSettings) -> Result<Self, ProviderBuildError> {
        let main = super::from_settings(settings)?;
        let bulk = match (&settings.bulk_model, &settings.backend) {
            (_, crate::config::LlmBackend::Offline) | (None, _) => None,
            (Some(model), _) => Some(super::build(settings, model)?),
        };
        Ok(Router { main, bulk })
    }

    /// Every task on one provider.
    pub fn single(main: Arc<dyn LlmProvider>) -> Self {
        Router { main, bulk: None }
    }

    /// The provider for `task` this month: a bulk task goes to the bulk
    /// provider once the cap is exceeded (a warning changes nothing yet);
    /// everything else stays on the main one.
    pub fn for_task(&self, task: Task, budget: BudgetLevel) -> Arc<dyn LlmProvider> {
        match (tier(task), budget, &self.bulk) {
            (Tier::Bulk, BudgetLevel::Exceeded, Some(bulk)) => bulk.clone(),
            _ => self.main.clone(),
        }
    }
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field(
                "main",
                &format_args!("{} {}", self.main.name(), self.main.model()),
            )
            .field(
                "bulk",
                &self
                    .bulk
                    .as_ref()
                    .map(|b| format!("{} {}", b.name(), b.model())),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Env, LlmBackend};
    use crate::llm::{Completion, CompletionRequest, LlmError};

    /// A provider that only says its model: routing never calls one.
    struct Named(&'static str);

    #[async_trait::async_trait]
    impl LlmProvider for Named {
        fn name(&self) -> &'static str {
            "named"
        }
        fn model(&self) -> &str {
            self.0
        }
        async fn complete(&self, _: &CompletionRequest) -> Result<Completion, LlmError> {
            Err(LlmError::Offline)
        }
    }

    const ALL: [Task; 7] = [
        Task::Rank,
        Task::Parse,
        Task::Chat,
        Task::Summarize,
        Task::Draft,
        Task::Classify,
        Task::Guidance,
    ];

    fn router(bulk: bool) -> Router {
        Router {
            main: Arc::new(Named("sonnet")),
            bulk: bulk.then(|| Arc::new(Named("haiku")) as Arc<dyn LlmProvider>),
        }
    }

    #[test]
    fn the_table_puts_rank_summarize_and_classify_in_bulk() {
        let bulk: Vec<_> = ALL.into_iter().filter(|t| tier(*t) == Tier::Bulk).collect();
        assert_eq!(bulk, [Task::Rank, Task::Summarize, Task::Classify]);
        let labels: Vec<_> = [Task::Draft, Task::Classify, Task::Guidance]
            .map(Task::label)
            .to_vec();
        assert_eq!(labels, ["draft", "classify", "guidance"]);
    }

    #[test]
    fn bulk_tasks_move_only_once_the_cap_is_exceeded() {
        let router = router(true);
        for task in ALL {
            for level in [BudgetLevel::Ok, BudgetLevel::Warning] {
                assert_eq!(router.for_task(task, level).model(), "sonnet", "{task:?}");
            }
            let expected = match tier(task) {
                Tier::Bulk => "haiku",
                Tier::Main => "sonnet",
            };
            assert_eq!(
                router.for_task(task, BudgetLevel::Exceeded).model(),
                expected,
                "{task:?}"
            );
        }
    }

    #[test]
    fn without_a_bulk_model_everything_stays_on_main() {
        let router = router(false);
        for task in ALL {
            assert_eq!(
                router.for_task(task, BudgetLevel::Exceeded).model(),
                "sonnet"
            );
        }
        assert!(Router::single(Arc::new(Named("x"))).bulk.is_none());
    }

    #[test]
    fn from_settings_builds_the_bulk_model_on_the_same_backend() {
        let settings = |pairs: &[(&str, &str)]| {
            crate::config::LlmSettings::from_source(&Env::from_pairs(pairs.iter().copied()))
        };
        let Ok(s) = settings(&[
            ("MAXY_LLM_PROVIDER", "openai"),
            ("MAXY_LLM_MODEL", "big"),
            ("MAXY_LLM_BULK_MODEL", "small"),
        ]) else {
            panic!("valid settings")
        };
        let Ok(router) = Router::from_settings(&s) else {
            panic!("a router")
        };
        assert_eq!(router.main.model(), "big");
        assert_eq!(router.main.name(), "openai_compat");
        assert_eq!(router.bulk.as_ref().map(|b| b.model()), Some("small"));
        assert_eq!(
            router.for_task(Task::Rank, BudgetLevel::Exceeded).model(),
            "small"
        );
        // Offline: nothing to choose between.
        let Ok(s) = settings(&[("MAXY_LLM_BULK_MODEL", "small")]) else {
            panic!("valid settings")
        };
        assert_eq!(s.backend, LlmBackend::Offline);
        let Ok(router) = Router::from_settings(&s) else {
            panic!("a router")
        };
        assert!(router.bulk.is_none());
        assert_eq!(router.main.name(), "offline");
    }
}
