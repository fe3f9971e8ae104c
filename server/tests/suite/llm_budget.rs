//! The month's language-model budget on a real database: only this UTC
//! month's calls count, dollars become euros at the configured rate, and
//! the level turns at 80 % and 100 % of the cap. Through the real router,
//! the admin reads it and sees the console's banner; a team member cannot.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::llm_budget::{BudgetLevel as Dto, LlmBudget};
use chrono::Utc;
use reqwest::StatusCode;
use server::db::llm_calls::{self, CallContext};
use server::llm::budget::{month_to_date, BudgetLevel, BudgetService, BudgetSettings};
use server::llm::{CallRecord, Task, Usage};
use sqlx::PgPool;
use std::time::Duration;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

/// Rate 0.5: every amount below is exact in binary, so the thresholds are
/// hit exactly, not approximately.
const SETTINGS: BudgetSettings = BudgetSettings {
    cap_eur: 200.0,
    usd_to_eur: 0.5,
};

/// Records a call that cost `usd`, `months_ago` calendar months back
/// (0: now).
async fn call(db: &PgPool, usd: f64, months_ago: i32) {
    let record = CallRecord {
        task: Task::Chat,
        provider: "openai_compat",
        model: "qwen3-32b".into(),
        usage: Usage::default(),
        cost_usd: Some(usd),
        latency: Duration::from_millis(900),
        error: None,
    };
    let id = llm_calls::insert(db, &record, CallContext::default())
        .await
        .unwrap();
    if months_ago > 0 {
        // The last day of that month, 23:00 UTC: as late as possible
        // while still outside this month.
        sqlx::query(
            "UPDATE llm_calls
                SET created_at = date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                                 - make_interval(months => $2 - 1) - interval '1 hour'
              WHERE id = $1",
        )
        .bind(id)
        .bind(months_ago)
        .execute(db)
        .await
        .unwrap();
    }
}

async fn level(db: &PgPool) -> (f64, BudgetLevel) {
    let status = month_to_date(db, SETTINGS, Utc::now()).await.unwrap();
    assert_eq!(status.cap_eur, 200.0);
    (status.spent_eur, status.level)
}

#[sqlx::test(migrations = "../migrations")]
async fn only_this_months_calls_count(db: PgPool) {
    assert_eq!(level(&db).await, (0.0, BudgetLevel::Ok));
    // Last month was expensive: it does not count.
    call(&db, 1000.0, 1).await;
    call(&db, 500.0, 2).await;
    assert_eq!(level(&db).await, (0.0, BudgetLevel::Ok));
    // This month: 100 USD + 16 USD (a failed call is billed too).
    call(&db, 100.0, 0).await;
    call(&db, 16.0, 0).await;
    assert_eq!(level(&db).await, (58.0, BudgetLevel::Ok));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_level_turns_at_80_and_100_percent(db: PgPool) {
    // 79 % of 200 € = 158 € = 316 USD at 0.5.
    call(&db, 316.0, 0).await;
    assert_eq!(level(&db).await, (158.0, BudgetLevel::Ok));
    // 80 %: 160 €.
    call(&db, 4.0, 0).await;
    assert_eq!(level(&db).await, (160.0, BudgetLevel::Warning));
    // 99.5 %.
    call(&db, 78.0, 0).await;
    assert_eq!(level(&db).await, (199.0, BudgetLevel::Warning));
    // 100 %: 200 €.
    call(&db, 2.0, 0).await;
    assert_eq!(level(&db).await, (200.0, BudgetLevel::Exceeded));
    // The service the console reads says the same.
    let service = BudgetService {
        log: std::sync::Arc::new(db.clone()),
        settings: SETTINGS,
    };
    let dto = service.status().await.unwrap();
    assert_eq!(
        (dto.spent_eur, dto.cap_eur, dto.level),
        (200.0, 200.0, Dto::Exceeded)
    );
    assert_eq!(dto.percent(), 100);
}

#[sqlx::test(migrations = "../migrations")]
async fn admins_see_the_budget_and_its_banner_and_the_team_does_not(db: PgPool) {
    seed_demo(&db).await;
    // Whatever the demo data cost this month, the cap is set from the
    // spend so that the month stands at 83.5 % (shown as 83 %).
    let before = llm_calls::spent_usd_since(&db, server::llm::budget::month_start(Utc::now()))
        .await
        .unwrap();
    call(&db, 166.0, 0).await;
    let spent = before + 166.0;
    let cap = format!("{}", spent / 0.835);
    let app = TestApp::start_with(
        db,
        &[
            ("MAXY_LLM_MONTHLY_CAP_EUR", cap.as_str()),
            ("MAXY_USD_TO_EUR", "1"),
        ],
    )
    .await;

    let team = app.sign_in(TEAM, PASSWORD).await;
    let call = app
        .post_form("/api/admin/llm-budget", &[], Some(&team))
        .await;
    assert_eq!(call.status, StatusCode::FORBIDDEN);

    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let call = app
        .post_form("/api/admin/llm-budget", &[], Some(&admin))
        .await;
    assert_eq!(call.status, StatusCode::OK, "{}", call.body);
    let json = call.json();
    assert_eq!(json["level"], "Warning", "{json}");
    assert!((json["spent_eur"].as_f64().unwrap() - spent).abs() < 1e-6);

    let page = app.get("/console", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("llm-budget-banner"), "{}", page.body);
    assert!(page.body.contains("ce mois-ci (83 %)"), "{}", page.body);
}

/// A backend that answers with its model's name: which one a call reached.
struct Echo(&'static str);

#[async_trait::async_trait]
impl server::llm::LlmProvider for Echo {
    fn name(&self) -> &'static str {
        "echo"
    }
    fn model(&self) -> &str {
        self.0
    }
    async fn complete(
        &self,
        _: &server::llm::CompletionRequest,
    ) -> Result<server::llm::Completion, server::llm::LlmError> {
        Ok(server::llm::Completion {
            text: self.0.into(),
            model: self.0.into(),
            usage: Usage::default(),
            latency: Duration::ZERO,
            stop_reason: server::llm::StopReason::EndTurn,
        })
    }
}

async fn answered_by(routed: &server::llm::Routed, task: Task) -> String {
    use server::llm::LlmProvider;
    let request = server::llm::CompletionRequest {
        task,
        system: String::new(),
        messages: vec![server::llm::Message::user("?")],
        max_tokens: 10,
        temperature: None,
        time_limit: None,
    };
    routed.complete(&request).await.unwrap().model
}

fn routed(db: &PgPool, bulk: bool) -> server::llm::Routed {
    let router = server::llm::Router {
        main: std::sync::Arc::new(Echo("main")),
        bulk: bulk.then(|| std::sync::Arc::new(Echo("bulk")) as _),
    };
    server::llm::Routed::new(router, db.clone(), SETTINGS)
}

#[sqlx::test(migrations = "../migrations")]
async fn past_the_cap_bulk_tasks_move_to_the_cheaper_model_and_the_rest_stays(db: PgPool) {
    // Under the cap (a warning changes nothing): every task on the main model.
    call(&db, 340.0, 0).await; // 170 € of 200
    let under = routed(&db, true);
    for task in [Task::Rank, Task::Summarize, Task::Chat, Task::Parse] {
        assert_eq!(answered_by(&under, task).await, "main", "{task:?}");
    }
    // Past the cap: ranking and summaries go to the bulk model.
    call(&db, 100.0, 0).await; // 220 €
    let over = routed(&db, true);
    assert_eq!(answered_by(&over, Task::Rank).await, "bulk");
    assert_eq!(answered_by(&over, Task::Summarize).await, "bulk");
    assert_eq!(answered_by(&over, Task::Classify).await, "bulk");
    for task in [Task::Chat, Task::Parse, Task::Draft, Task::Guidance] {
        assert_eq!(answered_by(&over, task).await, "main", "{task:?}");
    }
    // Without a bulk model, nothing moves.
    assert_eq!(answered_by(&routed(&db, false), Task::Rank).await, "main");
    // The level is read once and kept (no query per call): a level read
    // under the cap stays until it is read again.
    assert_eq!(answered_by(&under, Task::Rank).await, "main");
}
