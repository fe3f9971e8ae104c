//! The recording wrapper around any provider, on a real database: each call
//! it passes on becomes one `llm_calls` row with its tokens, cost, latency
//! and status (unusable answers keep their tokens and cost), the context it
//! was given names who the calls served, and the offline provider is never
//! called a failure nor recorded. Without a database, through the port
//! (`CallLog`): the wrapper hands each call to any log, and a log that fails
//! costs the caller nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use server::db::llm_calls::CallContext;
use server::llm::{
    CallLog, CallLogError, CallRecord, Completion, CompletionRequest, LlmError, LlmProvider,
    Message, OfflineLlm, Recording, StopReason, Task, Usage,
};
use sqlx::PgPool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A provider that answers from a script, after a short pause so latencies
/// are measurable; once the script is spent it is unavailable.
struct Scripted {
    replies: Mutex<Vec<Result<&'static str, LlmError>>>,
}

impl Scripted {
    fn new(mut replies: Vec<Result<&'static str, LlmError>>) -> Arc<Self> {
        replies.reverse();
        Arc::new(Scripted {
            replies: Mutex::new(replies),
        })
    }
}

#[async_trait::async_trait]
impl LlmProvider for Scripted {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn model(&self) -> &str {
        "claude-haiku-4-5"
    }

    async fn complete(&self, _request: &CompletionRequest) -> Result<Completion, LlmError> {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let reply = self.replies.lock().unwrap().pop();
        let text = reply.unwrap_or(Err(LlmError::Unavailable("script spent".into())))?;
        Ok(Completion {
            text: text.into(),
            model: "claude-haiku-4-5-20251001".into(),
            usage: Usage {
                input_tokens: 1200,
                output_tokens: 300,
                cache_write_tokens: 0,
                cache_read_tokens: 100,
            },
            latency: Duration::from_millis(20),
            stop_reason: StopReason::EndTurn,
        })
    }
}

fn request() -> CompletionRequest {
    CompletionRequest {
        task: Task::Rank,
        system: "Tu classes des lieux.".into(),
        messages: vec![Message::user("Voici les finalistes…")],
        max_tokens: 256,
        temperature: Some(0.0),
        time_limit: None,
    }
}

type Row = (
    String,
    String,
    String,
    i32,
    i32,
    i32,
    f64,
    i32,
    String,
    Option<String>,
    Option<i64>,
);

async fn rows(db: &PgPool) -> Vec<Row> {
    sqlx::query_as(
        "SELECT task, provider, model, input_tokens, output_tokens, cache_read_tokens,
                cost_usd::float8, latency_ms, status, error, user_id
           FROM llm_calls ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

async fn a_user(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO users (email, display_name, role, password_hash)
         VALUES ('camille@example.fr', 'Camille', 'team', 'x') RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_call_through_the_wrapper_writes_one_row_with_tokens_cost_and_latency(db: PgPool) {
    let user = a_user(&db).await;
    let context = CallContext {
        user_id: Some(user),
        ..CallContext::default()
    };
    let llm = Recording::new(Scripted::new(vec![Ok("{}")]), db.clone(), context);
    assert_eq!((llm.name(), llm.model()), ("scripted", "claude-haiku-4-5"));

    let answer = llm.complete(&request()).await.unwrap();
    assert_eq!(answer.text, "{}", "the answer passes through unchanged");

    let rows = rows(&db).await;
    assert_eq!(rows.len(), 1);
    let (task, provider, model, input, output, cache_read, cost, latency, status, error, who) =
        rows[0].clone();
    assert_eq!(
        (task.as_str(), provider.as_str(), model.as_str()),
        ("rank", "scripted", "claude-haiku-4-5-20251001")
    );
    assert_eq!((input, output, cache_read), (1200, 300, 100));
    // 1200 × $1 + 300 × $5 + 100 × $0.10 per million tokens.
    assert!((cost - 0.00271).abs() < 1e-9, "{cost}");
    assert!(latency >= 20, "{latency}");
    assert_eq!((status.as_str(), error), ("ok", None));
    assert_eq!(who, Some(user), "the context names who the call served");

    let calls = llm.calls();
    assert_eq!(calls.len(), 1);
    assert!(calls[0].id.is_some());
    assert_eq!(calls[0].record.usage.input_tokens, 1200);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unusable_answer_is_a_failed_call_that_keeps_its_tokens_and_cost(db: PgPool) {
    let llm = Recording::new(
        Scripted::new(vec![Ok("pas du JSON"), Ok("{\"ok\": true}")]),
        db.clone(),
        CallContext::default(),
    );
    let json = |c: &Completion| {
        serde_json::from_str::<serde_json::Value>(&c.text)
            .map(|_| ())
            .map_err(|e| format!("not JSON ({e})"))
    };
    let first = llm.complete_checked(&request(), &json).await;
    assert!(
        matches!(&first, Err(LlmError::Unusable(reason)) if reason.starts_with("not JSON")),
        "{first:?}"
    );
    let second = llm.complete_checked(&request(), &json).await.unwrap();
    assert_eq!(second.text, "{\"ok\": true}");

    let rows = rows(&db).await;
    assert_eq!(rows.len(), 2);
    let (status, error) = (&rows[0].8, rows[0].9.as_deref().unwrap_or_default());
    assert_eq!(status, "error");
    assert!(error.starts_with("unusable answer: not JSON"), "{error}");
    assert_eq!((rows[0].3, rows[0].4), (1200, 300), "the tokens were spent");
    assert!(rows[0].6 > 0.0, "and they cost");
    assert_eq!(rows[1].8, "ok");
    let recorded = llm.calls();
    assert_eq!(recorded.len(), 2);
    assert!(recorded[0].record.error.is_some() && recorded[1].record.error.is_none());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_provider_failure_is_recorded_without_tokens(db: PgPool) {
    let llm = Recording::new(
        Scripted::new(vec![Err(LlmError::Unavailable("HTTP 529".into()))]),
        db.clone(),
        CallContext::default(),
    );
    let err = llm.complete(&request()).await.unwrap_err();
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    let rows = rows(&db).await;
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!((row.3, row.4, row.6), (0, 0, 0.0));
    assert_eq!(row.2, "claude-haiku-4-5", "the configured model");
    assert_eq!(row.8, "error");
    assert!(row.9.as_deref().unwrap_or_default().contains("HTTP 529"));
    assert!(row.7 >= 20, "the latency is the wrapper's measure");
}

/// A call log in memory; `broken` refuses every write.
#[derive(Default)]
struct Kept {
    calls: Mutex<Vec<(CallRecord, CallContext)>>,
    broken: bool,
}

#[async_trait::async_trait]
impl CallLog for Kept {
    async fn record(&self, call: &CallRecord, context: CallContext) -> Result<i64, CallLogError> {
        if self.broken {
            return Err(CallLogError::Unavailable("the log is down".into()));
        }
        let mut calls = self.calls.lock().unwrap();
        calls.push((call.clone(), context));
        Ok(calls.len() as i64)
    }

    async fn spent_usd_since(
        &self,
        _since: chrono::DateTime<chrono::Utc>,
    ) -> Result<f64, CallLogError> {
        let calls = self.calls.lock().unwrap();
        Ok(calls.iter().filter_map(|(c, _)| c.cost_usd).sum())
    }
}

#[tokio::test]
async fn the_wrapper_hands_each_call_to_its_log_with_its_context() {
    let log = Arc::new(Kept::default());
    let context = CallContext {
        conversation_id: Some(7),
        ..CallContext::default()
    };
    let llm = Recording::new(Scripted::new(vec![Ok("{}")]), log.clone(), context);
    llm.complete(&request()).await.unwrap();
    let _ = llm.complete(&request()).await.unwrap_err();

    let kept = log.calls.lock().unwrap().clone();
    assert_eq!(kept.len(), 2, "one record per call, failures included");
    assert!(kept.iter().all(|(_, c)| *c == context));
    assert_eq!(kept[0].0.model, "claude-haiku-4-5-20251001");
    assert_eq!(
        kept[1].0.error.as_deref(),
        Some("the language model is unavailable: script spent")
    );
    let ids: Vec<_> = llm.calls().iter().map(|c| c.id).collect();
    assert_eq!(ids, [Some(1), Some(2)], "the ids the log gave");
    let spent = log.spent_usd_since(chrono::Utc::now()).await.unwrap();
    assert!((spent - 0.00271).abs() < 1e-9, "{spent}");
}

#[tokio::test]
async fn a_log_that_cannot_write_costs_the_caller_nothing() {
    let log = Kept {
        broken: true,
        ..Kept::default()
    };
    let llm = Recording::new(Scripted::new(vec![Ok("{}")]), log, CallContext::default());
    let answer = llm.complete(&request()).await.unwrap();
    assert_eq!(answer.text, "{}", "the answer still serves");
    let calls = llm.calls();
    assert_eq!(calls.len(), 1, "and the wrapper still keeps the call");
    assert_eq!(calls[0].id, None, "without an id");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_offline_provider_answers_offline_and_nothing_is_recorded(db: PgPool) {
    let offline = OfflineLlm;
    assert_eq!((offline.name(), offline.model()), ("offline", "none"));
    assert!(matches!(
        offline.complete(&request()).await,
        Err(LlmError::Offline)
    ));

    let llm = Recording::new(Arc::new(OfflineLlm), db.clone(), CallContext::default());
    assert!(matches!(
        llm.complete(&request()).await,
        Err(LlmError::Offline)
    ));
    let accept_all = |_: &Completion| Ok(());
    assert!(matches!(
        llm.complete_checked(&request(), &accept_all).await,
        Err(LlmError::Offline)
    ));
    assert!(llm.calls().is_empty());
    assert!(rows(&db).await.is_empty(), "no call was made: no row");
}

#[test]
fn none_in_the_configuration_builds_the_offline_provider() {
    let config = server::config::Config::from_source(&server::config::Env::from_pairs([(
        "MAXY_LLM_PROVIDER",
        "none",
    )]))
    .unwrap();
    let llm = server::llm::from_settings(&config.llm).unwrap();
    assert_eq!(llm.name(), "offline");
}

/// Collects the names of the spans opened under it.
#[derive(Clone, Default)]
struct SpanNames(Arc<Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for SpanNames {
    fn on_new_span(
        &self,
        attributes: &tracing::span::Attributes<'_>,
        _id: &tracing::span::Id,
        _context: tracing_subscriber::layer::Context<'_, S>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(attributes.metadata().name().to_string());
    }
}

#[tokio::test(flavor = "current_thread")]
async fn only_calls_made_open_a_model_call_span() {
    use tracing_subscriber::layer::SubscriberExt;
    let names = SpanNames::default();
    let _scope =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(names.clone()));
    let opened = || {
        let mut names = names.0.lock().unwrap();
        std::mem::take(&mut *names)
            .into_iter()
            .filter(|n| n == "model_call")
            .count()
    };

    let offline = Recording::new(
        Arc::new(OfflineLlm),
        Arc::new(Kept::default()),
        CallContext::default(),
    );
    assert!(matches!(
        offline.complete(&request()).await,
        Err(LlmError::Offline)
    ));
    let chat = server::llm::ChatRequest {
        task: Task::Chat,
        system: "Maxy".into(),
        tools: server::llm::ToolList::from(Vec::new()),
        messages: vec![server::llm::ChatMessage::user_text("Bonjour")],
        max_tokens: 64,
        time_limit: None,
    };
    assert!(matches!(
        offline.stream(&chat).await,
        Err(LlmError::Offline)
    ));
    assert_eq!(opened(), 0, "no model was called: no span");

    // The same wrapper around a model that answers opens one.
    let scripted = Recording::new(
        Scripted::new(vec![Ok("Bonjour")]),
        Arc::new(Kept::default()),
        CallContext::default(),
    );
    scripted.complete(&request()).await.unwrap();
    assert_eq!(opened(), 1);
}
