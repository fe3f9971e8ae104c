//! `maxy bench chat`: what the server adds to a chat turn, and how it holds
//! many conversations at once. The model is a local fake speaking
//! Anthropic's streamed wire ([`super::fake_model`]); everything else is the
//! real path: the chat service, the agent loop, the Anthropic client, the
//! tools, PostgreSQL.
//!
//! 1. **Overhead per turn**: turns one after the other (after `--warmup`
//!    turns not counted), the model answering at once; overhead = the
//!    turn's wall time (`send` called → the turn's closing statement
//!    returned, as the agent records it) minus the time
//!    the fake model spent answering, measured inside it to the microsecond
//!    (the request's transfer and the client's parsing of the answer count
//!    as overhead). Two kinds of turn: text only, and one read tool round
//!    (`get_request`, then text). The model's clock starts when the
//!    request's head reaches it (reading and parsing the body is its work);
//!    the overhead by the earlier clock, which started once the fake had
//!    parsed the body, is printed beside it. Each kind runs twice: the
//!    model answering at once (nothing the server does can hide behind
//!    it), then taking `--think-ms` to its first token, as a real model
//!    takes hundreds: what the server writes behind the turn overlaps that
//!    time, as it does for a user. The p50 of each stage
//!    ([`crate::agent::stages`]) is printed under the total, and the
//!    overhead as the benchmark itself sees it (its wake-up and its query
//!    that the turn is closed included) next to it. Under it, the overhead
//!    without the tools' own work (a read tool's argument check, queries
//!    and wrapping, [`Part::ToolRun`]): what the issue counts as "tool
//!    dispatch" is the rest, since a tool's own work is what the model
//!    asked for (a venue search takes hundreds of milliseconds) and the
//!    same in any design. Last, **the server's own work**, the figure the
//!    issue's goal is about (ADR 0025): the turn's wall time without its
//!    model calls as the agent sees them (request out, answer parsed: the
//!    exchange with the model, loopback transfer and wake-ups included)
//!    and without the tools' own work, plus the client's own work on each
//!    call (encoding the request, decoding the answer), timed in memory on
//!    the requests the fake received ([`own_work`]).
//! 2. **Concurrency**: `--concurrent` conversations sending at the same
//!    moment, the model streaming deltas at `--pace-ms`; counts turns that
//!    did not end `done`, and the process's resident memory before, at its
//!    peak and after.
use super::fake_model::{event_stream, frames, last_tool_results, Answer, FakeModel, Script};
use super::{ms, pct};
use crate::agent::stages::{Part, Stage, StageLog, TurnTimings};
use crate::agent::{Agent, AgentSettings, AssistantService, Live};
use crate::config::AnthropicSettings;
use crate::db::ai_turns;
use crate::llm::anthropic::own_work;
use crate::llm::{AnthropicClient, Block, ChatMessage, ChatRequest, Task};
use crate::search::SearchService;
use crate::tools::{Mode, Toolbox};
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

const ANSWER: &str = "Voici trois lieux qui conviennent : Le Belvédère (#102), une terrasse \
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
        "chat turn overhead (model time excluded), {} turns each:",
        opts.turns
    );
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
            overhead_run(db, opts, label, script, think, user_id, request_id).await?;
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
    Ok(())
}

/// One kind of turn, `opts.turns` times, the model taking `think` to its
/// first token: the overhead's p50 and p95, and the p50 of each stage.
async fn overhead_run(
    db: &PgPool,
    opts: &Options,
    label: &str,
    script: Script,
    think: Duration,
    user_id: i64,
    request_id: Option<i64>,
) -> anyhow::Result<()> {
    let (service, fake, log) = service(db, script.clone(), think, Duration::ZERO).await?;
    let mut overheads = Vec::with_capacity(opts.turns);
    let mut by_parse_clock = Vec::with_capacity(opts.turns);
    let mut detected = Vec::with_capacity(opts.turns);
    let mut totals = Vec::with_capacity(opts.turns);
    let mut on_disk = Vec::with_capacity(opts.turns);
    let mut timings = Vec::with_capacity(opts.turns);
    let mut without_tools = Vec::with_capacity(opts.turns);
    // (the server's work outside the model calls, the model calls made)
    let mut outside_calls = Vec::with_capacity(opts.turns);
    let mut conversation = None;
    for i in 0..opts.warmup + opts.turns {
        // A new conversation every 10 turns: histories from 1 to ~40 messages.
        if i % 10 == 0 {
            conversation = None;
        }
        let (model_before, parse_before) = (fake.served(), fake.served_after_parse());
        let calls_before = fake.calls();
        let started = Instant::now();
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
        let seen = ms(started);
        let turn = closed_timings(&log, sent.conversation_id).await?;
        let total = turn.total().unwrap_or_default().as_secs_f64() * 1000.0;
        // The model's time as the fake measured it (to the microsecond;
        // `llm_calls.latency_ms` is whole milliseconds).
        let model = fake.served() - model_before;
        let model_ms = model.as_secs_f64() * 1000.0;
        let after_parse_ms = (fake.served_after_parse() - parse_before).as_secs_f64() * 1000.0;
        if i < opts.warmup {
            continue;
        }
        totals.push(total);
        overheads.push((total - model_ms).max(0.0));
        let tools_ms = turn.part(Part::ToolRun).as_secs_f64() * 1000.0;
        without_tools.push((total - model_ms - tools_ms).max(0.0));
        let calls_ms = turn.stage(Stage::Model).as_secs_f64() * 1000.0;
        outside_calls.push((
            (total - calls_ms - tools_ms).max(0.0),
            fake.calls() - calls_before,
        ));
        let to_disk = turn.to_disk().unwrap_or_default().as_secs_f64() * 1000.0;
        on_disk.push((to_disk - model_ms).max(0.0));
        by_parse_clock.push((total - after_parse_ms).max(0.0));
        detected.push((seen - model_ms).max(0.0));
        timings.push((turn, model));
    }
    for figures in [
        &mut overheads,
        &mut by_parse_clock,
        &mut detected,
        &mut totals,
        &mut on_disk,
        &mut without_tools,
    ] {
        figures.sort_by(f64::total_cmp);
    }
    println!(
        "    {label:<14} overhead p50 {:>6.2} ms  p95 {:>6.2} ms   (whole turn p50 {:>6.2} ms; to the closing on disk: overhead p50 {:>6.2} ms; seen by the bench: overhead p50 {:>6.2} ms; by the earlier clock: {:>6.2} ms)",
        pct(&overheads, 0.5),
        pct(&overheads, 0.95),
        pct(&totals, 0.5),
        pct(&on_disk, 0.5),
        pct(&detected, 0.5),
        pct(&by_parse_clock, 0.5),
    );
    println!(
        "      {:<42} p50 {:>6.3} ms",
        "overhead without the tools' own work",
        pct(&without_tools, 0.5)
    );
    let per_call = client_work(&fake, &script).await?;
    let mut own: Vec<f64> = outside_calls
        .iter()
        .map(|(outside, calls)| outside + per_call * *calls as f64)
        .collect();
    own.sort_by(f64::total_cmp);
    println!(
        "      {:<42} p50 {:>6.3} ms   (the model client's own work: {:.0} µs a call)",
        "the server's own work (see the doc)",
        pct(&own, 0.5),
        per_call * 1000.0
    );
    print_stages(&timings);
    Ok(())
}

/// The p50 of each stage (model time taken out of the model call's), and
/// of the reads that run at once inside the reads stage.
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
        "        {:<46} p50 {:>6.3} ms",
        "after the closing: its flush to disk",
        p50(&|(t, _)| t.closing_flush().unwrap_or_default())
    );
    println!(
        "      {:<42} p50 {:>6.3} ms",
        "model's own time (excluded)",
        p50(&|(_, model)| *model)
    );
}

/// The model client's own work on a call, in milliseconds (p50): the
/// last requests the fake received, each encoded again by the client and
/// its scripted answer decoded, in memory, as [`own_work`] does.
async fn client_work(fake: &FakeModel, script: &Script) -> anyhow::Result<f64> {
    let mut took = Vec::new();
    for body in &fake.last_seen(20) {
        let request = wire_request(body)?;
        let answer = event_stream(&frames(&script(body), CHUNK, 0));
        for _ in 0..10 {
            let started = Instant::now();
            std::hint::black_box(
                own_work::encode_and_decode(MODEL, &request, answer.as_bytes()).await?,
            );
            took.push(ms(started));
        }
    }
    took.sort_by(f64::total_cmp);
    Ok(pct(&took, 0.5))
}

/// A streamed call's body, back as the chat request the agent made (the
/// chat's tools; the system prompt is one block).
fn wire_request(body: &serde_json::Value) -> anyhow::Result<ChatRequest> {
    Ok(ChatRequest {
        task: Task::Chat,
        system: body["system"]
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n")
            })
            .unwrap_or_default(),
        tools: Toolbox::specs(Mode::Chat),
        messages: wire_messages(body)?,
        max_tokens: body["max_tokens"]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(2048),
        time_limit: None,
    })
}

/// A request body's messages, back as the chat's messages.
fn wire_messages(body: &serde_json::Value) -> anyhow::Result<Vec<ChatMessage>> {
    let mut messages = Vec::new();
    for m in body["messages"].as_array().into_iter().flatten() {
        let role = serde_json::from_value(m["role"].clone())?;
        let content = match &m["content"] {
            serde_json::Value::String(text) => vec![Block::Text { text: text.clone() }],
            blocks => serde_json::from_value(blocks.clone())?,
        };
        messages.push(ChatMessage { role, content });
    }
    Ok(messages)
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
const CHUNK: usize = 24;

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
) -> anyhow::Result<(Arc<AssistantService>, FakeModel, Arc<StageLog>)> {
    let fake = FakeModel::start_thinking(script, think, pace, CHUNK).await?;
    let log = Arc::new(StageLog::default());
    let client = client_of(&fake)?;
    let offline = Arc::new(crate::planner::Planner);
    let agent = Agent {
        db: db.clone(),
        provider: Arc::new(client),
        offline: offline.clone(),
        search: Arc::new(SearchService {
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
        stages: Some(log.clone()),
    };
    let service = Arc::new(AssistantService {
        agent: Arc::new(agent),
        links: crate::auth::tokens::SigningKey::new(b"bench-only-signing-key-0123456789".to_vec()),
        authors: Default::default(),
    });
    Ok((service, fake, log))
}

/// Returns once the conversation has no running turn.
async fn wait_for_turn(service: &AssistantService, conversation_id: i64) -> anyhow::Result<()> {
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
fn rss_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::LlmProvider;
    use futures_util::StreamExt;

    /// The client's own work is timed on the bodies the agent sent: a body
    /// rebuilt from what the fake received encodes to as many bytes.
    #[tokio::test]
    async fn the_client_work_is_timed_on_the_bodies_sent() {
        let script: Script = Arc::new(|_| Answer::Text("Bonjour".into()));
        let fake = FakeModel::start(script.clone(), Duration::ZERO, 8)
            .await
            .unwrap();
        let client = client_of(&fake).unwrap();
        let request = ChatRequest {
            task: Task::Chat,
            system: "Tu es Maxy, l'assistante de l'équipe.\n".repeat(40),
            tools: Toolbox::specs(Mode::Chat),
            messages: vec![
                ChatMessage::user_text("Lis la demande 12."),
                ChatMessage {
                    role: crate::llm::ChatRole::Assistant,
                    content: vec![
                        Block::Text {
                            text: "Je lis.".into(),
                        },
                        Block::ToolUse {
                            id: "toolu_1".into(),
                            name: "get_request".into(),
                            input: json!({"request_id": 12}),
                        },
                    ],
                },
                ChatMessage {
                    role: crate::llm::ChatRole::User,
                    content: vec![Block::ToolResult {
                        tool_use_id: "toolu_1".into(),
                        content: "{\"request\": {\"id\": 12, \"pool\": \"paris\"}}".into(),
                        is_error: false,
                    }],
                },
            ],
            max_tokens: 2048,
            time_limit: None,
        };
        let mut answer = client.stream(&request).await.unwrap();
        while answer.next().await.is_some() {}
        let sent = fake.last_seen(1).pop().expect("one body");
        let rebuilt = wire_request(&sent).unwrap();
        assert_eq!(rebuilt.messages, request.messages);
        assert_eq!(rebuilt.system, request.system);
        let stream = event_stream(&frames(&script(&sent), CHUNK, 0));
        let (length, events) = own_work::encode_and_decode(MODEL, &rebuilt, stream.as_bytes())
            .await
            .unwrap();
        assert_eq!(length, serde_json::to_vec(&sent).unwrap().len());
        assert!(events >= 3, "{events}");
        assert!(client_work(&fake, &script).await.unwrap() > 0.0);
    }
}
