//! A server's pool when every other connection is taken: one connection,
//! and a model that needs it while it answers. Code that holds a pooled
//! connection across the model's call makes the model's query time out.
use server::llm::{Completion, CompletionRequest, LlmError, LlmProvider, StopReason};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A pool of one connection to the test's database, giving up after 2 s.
pub async fn pool_of_one(db: &PgPool) -> PgPool {
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let options: PgConnectOptions = url.parse().expect("a database URL");
    let test_database = db
        .connect_options()
        .get_database()
        .expect("the test's database")
        .to_string();
    PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(2))
        .connect_with(options.database(&test_database))
        .await
        .expect("a pool of one")
}

/// Answers `answer`, after a query of its own on `db`.
pub struct NeedsTheDatabase {
    db: PgPool,
    answer: &'static str,
    got_one: AtomicBool,
}

impl NeedsTheDatabase {
    pub fn new(db: PgPool, answer: &'static str) -> Self {
        NeedsTheDatabase {
            db,
            answer,
            got_one: AtomicBool::new(false),
        }
    }

    /// Whether its last call found a free connection.
    pub fn got_a_connection(&self) -> bool {
        self.got_one.load(Ordering::SeqCst)
    }
}

#[async_trait::async_trait]
impl LlmProvider for NeedsTheDatabase {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn model(&self) -> &str {
        "claude-haiku-4-5"
    }

    async fn complete(&self, _request: &CompletionRequest) -> Result<Completion, LlmError> {
        let free = sqlx::query_scalar::<_, i32>("SELECT 1")
            .fetch_one(&self.db)
            .await
            .is_ok();
        self.got_one.store(free, Ordering::SeqCst);
        Ok(Completion {
            text: self.answer.into(),
            model: "claude-haiku-4-5".into(),
            usage: Default::default(),
            latency: Duration::ZERO,
            stop_reason: StopReason::EndTurn,
        })
    }
}
