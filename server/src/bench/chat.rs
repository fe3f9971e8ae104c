//! `maxy bench chat`: the server's share of a chat turn, and how it holds
//! many conversations at once. The model is a local fake speaking
//! Anthropic's streamed wire ([`super::fake_model`]); everything else is the
//! real path: the chat service, the agent loop, the Anthropic client, the
//! tools, PostgreSQL with durable commits.
//!
//! The goal (ADR 0029): **the server's share of a turn ≤ 25 ms at p95**,
//! and **200 conversations at once with zero errors**.
//!
//! 1. **Server's share per turn**: turns one after the other (after
//!    `--warmup` turns not counted); share = the turn's wall time (`send`
//!    called → the turn's closing statement returned, as the agent records
//!    it) minus the time the fake model spent answering, measured inside it
//!    to the microsecond (the request's transfer, the client's parsing and
//!    the read tool's own work count as the server's). Two kinds of turn:
//!    text only, and one read tool round (`get_request`, then text). Each
//!    kind runs with the model answering at once, then taking `--think-ms`
//!    to its first token. The p50 of each stage ([`crate::agent::stages`])
//!    is printed under the total.
//! 2. **Concurrency**: `--concurrent` conversations sending at the same
//!    moment, the model streaming deltas at `--pace-ms`; counts turns that
//!    did not end `done`, and the process's resident memory before, at its
//!    peak and after.
use super::fake_model::{last_tool_results, Answer, FakeModel, Script};
use super::{ms, pct};
use crate::agent::stages::{Part, Stage, StageLog, TurnTimings};
use crate::agent::{Agent, AgentSettings, AssistantService, Live};
use crate::config::AnthropicSettings;
use crate::db::ai_turns;
use crate::llm::AnthropicClient;
use crate::search::SearchService;
use anyhow::Context;
use app::chat::Assistant;
use serde_json::json;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Options {
    /// Turns measured one after the other, per kind.
    pub turns: usize,
    /// Turns run first and not counted (statement plans warmed).
    pub warmup: usize,
    /// Conversations at once.
    pub concurrent: usize,
    /// Wait before each streamed delta in the concurrency run.
    pub pace: Duration,
    /// The model's time to first token in the second overhead run.
    pub think: Duration,
}

pub(super) const ANSWER: &str =
    "Voici trois lieux qui conviennent : Le Belvédère (#102), une terrasse \
    panoramique pour 120 personnes en cocktail ; l'Atelier Oberkampf (#205), un loft \
    industriel de 90 places ; la Péniche Lumière (#318), à quai près de la gare d'Austerlitz.";

pub async fn run(db: &PgPool, opts: &Options) -> anyhow::Result<()> {
    let user_id: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE disabled_at IS NULL ORDER BY id LIMIT 1")
            .fetch_optional(db)
            .await?
            .context("no user: seed the demo first (maxy seed)")?;
    let request_id: Option<i64> = sqlx::query_scalar("SELECT id FROM requests ORDER BY id LIMIT 1")
        .fetch_optional(db)
        .await?;

    let text_only: Script = Arc::new(|_| Answer::Text(ANSWER.into()));
    let one_tool: Script = Arc::new(move |body| {
        if last_tool_results(body).is_empty() {
            Answer::ToolUse {
                text: "Je lis la demande.".into(),
                name: "get_request".into(),
                input: request_id.map_or(json!({}), |id| json!({"request_id": id})),
            }
        } else {
            Answer::Text(ANSWER.into())
        }
    });

    println!(
        "the server's share of a chat turn (model time excluded), {} turns each; goal: p95 <= {GOAL_P95_MS} ms:",
        opts.turns
    );
    let mut within = true;
    let mut runs = vec![Duration::ZERO];
    if !opts.think.is_zero() {
        runs.push(opts.think);
    }
    for think in runs {
        println!(
            "  the model taking {} ms to its first token:",
            think.as_millis()
        );
        for (label, script) in [
            ("text only", text_only.clone()),
            ("one read tool", one_tool.clone()),
        ] {
            within &= overhead_run(db, opts, label, script, think, user_id, request_id).await?;
        }
    }

    println!(
        "{} conversations at once, model streaming a delta every {} ms:",
        opts.concurrent,
        opts.pace.as_millis()
    );
    let (service, _fake, _log) = service(db, text_only, Duration::ZERO, opts.pace).await?;
    let rss_before = rss_kib("VmRSS");
    let started = Instant::now();
    let mut sends = Vec::with_capacity(opts.concurrent);
    for i in 0..opts.concurrent {
        let service = service.clone();
        sends.push(tokio::spawn(async move {
            let sent = service
                .send(
                    user_id,
                    None,
                    request_id,
                    format!("Conversation {i} : des lieux ?"),
                )
                .await
                .map_err(|e| anyhow::anyhow!("send: {e}"))?;
            wait_for_turn(&service, sent.conversation_id).await?;
            Ok::<i64, anyhow::Error>(sent.conversation_id)
        }));
    }
    let mut conversations = Vec::new();
    let mut errors = 0usize;
    for send in sends {
        match send.await {
            Ok(Ok(id)) => conversations.push(id),
            Ok(Err(e)) => {
                if errors == 0 {
                    eprintln!("  first error: {e:#}");
                }
                errors += 1;
            }
            Err(e) => {
                eprintln!("  a task failed: {e}");
                errors += 1;
            }
        }
    }
    let wall = ms(started);
    let not_done: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM ai_turns WHERE conversation_id = ANY($1) AND status <> 'done'",
    )
    .bind(&conversations)
    .fetch_one(db)
    .await?;
    let events: i64 =
        sqlx::query_scalar("SELECT count(*) FROM ai_events WHERE conversation_id = ANY($1)")
            .bind(&conversations)
            .fetch_one(db)
            .await?;
    let rss_peak = rss_kib("VmHWM");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_after = rss_kib("VmRSS");
    println!(
        "  {} turns in {:.0} ms, errors {} (send) + {} (turn not done), {} events logged",
        opts.concurrent, wall, errors, not_done, events
    );
    println!(
        "  resident memory: before {} MiB, peak {} MiB, after {} MiB",
        rss_before / 1024,
        rss_peak / 1024,
        rss_after / 1024
    );
    let concurrent_ok = errors == 0 && not_done == 0;
    println!(
        "verdict: server's share {}; {} conversations at once {}",
        if within {
            format!("within the goal (p95 <= {GOAL_P95_MS} ms)")
        } else {
            format!("OVER the goal (p95 > {GOAL_P95_MS} ms)")
        },
        opts.concurrent,
        if concurrent_ok {
            "with zero errors"
        } else {
            "with ERRORS"
        }
    );
    Ok(())
}

/// The goal: the server's share of a turn at p95, in milliseconds.
const GOAL_P95_MS: f64 = 25.0;

/// One kind of turn, `opts.turns` times, the model taking `think` to its
/// first token: the server's share at p50 and p95, and the p50 of each
/// stage. Returns whether the p95 is within the goal.
async fn overhead_run(
    db: &PgPool,
    opts: &Options,
    label: &str,
    script: Script,
    think: Duration,
    user_id: i64,
    request_id: Option<i64>,
) -> anyhow::Result<bool> {
    let (service, fake, log) = service(db, script, think, Duration::ZERO).await?;
    let mut shares = Vec::with_capacity(opts.turns);
    let mut totals = Vec::with_capacity(opts.turns);
    let mut timings = Vec::with_capacity(opts.turns);
    let mut conversation = None;
    for i in 0..opts.warmup + opts.turns {
        // A new conversation every 10 turns: histories from 1 to ~40 messages.
        if i % 10 == 0 {
            conversation = None;
        }
        let model_before = fake.served();
        let sent = service
            .send(
                user_id,
                conversation,
                request_id,
                format!("Question {i} : des lieux ?"),
            )
            .await
            .map_err(|e| anyhow::anyhow!("send: {e}"))?;
        conversation = Some(sent.conversation_id);
        wait_for_turn(&service, sent.conversation_id).await?;
        let turn = closed_timings(log, sent.conversation_id).await?;
        let total = turn.total().unwrap_or_default().as_secs_f64() * 1000.0;
        // The model's time as the fake measured it (to the microsecond;
        // `llm_calls.latency_ms` is whole milliseconds).
        let model = fake.served() - model_before;
        if i < opts.warmup {
            continue;
        }
        totals.push(total);
        shares.push((total - model.as_secs_f64() * 1000.0).max(0.0));
        timings.push((turn, model));
    }
    shares.sort_by(f64::total_cmp);
    totals.sort_by(f64::total_cmp);
    let p95 = pct(&shares, 0.95);
    let within = p95 <= GOAL_P95_MS;
    println!(
        "    {label:<14} server's share p50 {:>6.2} ms  p95 {:>6.2} ms  {}   (whole turn p50 {:>6.2} ms)",
        pct(&shares, 0.5),
        p95,
        if within { "ok" } else { "OVER" },
        pct(&totals, 0.5),
    );
    print_stages(&timings);
    Ok(within)
}

/// The p50 of each stage (model time taken out of the model call's), and
/// of the work timed inside the stages.
fn print_stages(timings: &[(TurnTimings, Duration)]) {
    let p50 = |f: &dyn Fn(&(TurnTimings, Duration)) -> Duration| {
        let mut v: Vec<f64> = timings
            .iter()
            .map(|t| f(t).as_secs_f64() * 1000.0)
            .collect();
        v.sort_by(f64::total_cmp);
        pct(&v, 0.5)
    };
    for stage in Stage::ALL {
        let figure = p50(&|(t, model)| {
            let spent = t.stage(stage);
            if stage == Stage::Model {
                spent.saturating_sub(*model)
            } else {
                spent
            }
        });
        println!("      {:<42} p50 {figure:>6.3} ms", stage.label());
    }
    for part in Part::ALL {
        let figure = p50(&|(t, _)| t.part(part));
        println!("        {:<46} p50 {figure:>6.3} ms", part.label());
    }
    println!(
        "      {:<42} p50 {:>6.3} ms",
        "model's own time (excluded)",
        p50(&|(_, model)| *model)
    );
}

/// The turn's figures once its closing is recorded.
async fn closed_timings(log: &StageLog, conversation_id: i64) -> anyhow::Result<TurnTimings> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(t) = log.take_closed(conversation_id) {
            return Ok(t);
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "a turn's closing was not recorded"
        );
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}

/// The model the client names (the fake answers any).
const MODEL: &str = "claude-sonnet-4-5";
/// Characters per streamed delta of the fake's answers.
pub(super) const CHUNK: usize = 24;

/// The Anthropic client pointed at `fake`.
fn client_of(fake: &FakeModel) -> anyhow::Result<AnthropicClient> {
    Ok(AnthropicClient::new(
        &AnthropicSettings {
            base_url: fake.base_url(),
            api_key: "bench-key".into(),
        },
        MODEL,
        Duration::from_secs(60),
    )?)
}

/// The chat service wired to a fake model streaming at `pace`, with the
/// per-stage timings collected.
async fn service(
    db: &PgPool,
    script: Script,
    think: Duration,
    pace: Duration,
) -> anyhow::Result<(Arc<AssistantService>, FakeModel, &'static StageLog)> {
    let (service, fake) = chat_service(db, script, think, pace).await?;
    // The stage events of every turn in this process, from now on.
    let log = crate::agent::stages::collect();
    Ok((service, fake, log))
}

/// The chat service wired to a fake model streaming at `pace`.
pub(super) async fn chat_service(
    db: &PgPool,
    script: Script,
    think: Duration,
    pace: Duration,
) -> anyhow::Result<(Arc<AssistantService>, FakeModel)> {
    let fake = FakeModel::start_thinking(script, think, pace, CHUNK).await?;
    let client = client_of(&fake)?;
    let offline = Arc::new(crate::planner::Planner);
    let agent = Agent {
        db: db.clone(),
        provider: Arc::new(client),
        offline: offline.clone(),
        search: Arc::new(SearchService {
            read_db: None,
            db: db.clone(),
            embedder: None,
            llm: offline,
        }),
        embedder: None,
        live: Arc::new(Live::default()),
        settings: AgentSettings::default(),
        similar: Default::default(),
        summaries: Default::default(),
        known: Default::default(),
        memory: None,
        guide: None,
    };
    let service = Arc::new(AssistantService {
        agent: Arc::new(agent),
        links: crate::auth::tokens::SigningKey::new(b"bench-only-signing-key-0123456789".to_vec()),
        authors: Default::default(),
        outbox: crate::mail::Outbox::disabled(),
    });
    Ok((service, fake))
}

/// Returns once the conversation has no running turn.
pub(super) async fn wait_for_turn(
    service: &AssistantService,
    conversation_id: i64,
) -> anyhow::Result<()> {
    let wake = service.agent.live.channel(conversation_id);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        // Registered before the check, so a wake-up in between is not lost.
        let notified = wake.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if ai_turns::running(&service.agent.db, conversation_id)
            .await?
            .is_none()
        {
            return Ok(());
        }
        anyhow::ensure!(Instant::now() < deadline, "a turn ran for 2 minutes");
        let _ = tokio::time::timeout(Duration::from_millis(20), notified).await;
    }
}

/// A line of /proc/self/status in KiB (0 where it is not readable).
pub(super) fn rss_kib(field: &str) -> u64 {
    read_status("/proc/self/status", field)
}

/// [`rss_kib`] of another process (a server the bench started).
pub(super) fn rss_kib_of(pid: u32, field: &str) -> u64 {
    read_status(&format!("/proc/{pid}/status"), field)
}

fn read_status(path: &str, field: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
