//! `maxy bench streams`: the chat as the page meets it. A `maxy serve`
//! process is started on a loopback port with the local fake model
//! (Anthropic's streamed wire, [`super::fake_model`]) as its assistant;
//! each client signs in once, then sends a message (`POST /api/chat/send`),
//! follows its turn on the conversation's SSE log (`GET
//! /api/chat/conversations/{id}/events`) until `idle`, and sends the next,
//! for a fixed time. [`super::load`] drives the same turns in process; this
//! one adds what stands between them and a person: HTTP, the session, the
//! event log read back from PostgreSQL and its wake-ups.
//!
//! With `--searches-per-second`, venue searches arrive beside the
//! conversations at a fixed rate through the page's own endpoint (`POST
//! /api/venues/search`): the server reads each request and ranks its
//! finalists with the same fake model ([`super::search_model`]), its venue
//! embedder being the one its settings name (the local query lane).
//!
//! Printed: turns done, errors (a send refused, a stream cut before
//! `idle`, a turn not `done`, a search refused), p50/p95/p99 of the time
//! from the send to the first words on the page (the first `text_delta`)
//! and to the end of the answer (`turn_finished`) and of a search, and the
//! server process's resident memory as [`super::load`] reports its own.
use super::chat::rss_kib_of;
use super::chat::ANSWER;
use super::fake_model::{Answer, FakeModel, Script};
use super::load::{Memory, Tally};
use super::{ms, QUERIES};
use anyhow::Context;
use app::chat::{ChatEvent, SentMessage, SeqEvent};
use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use sqlx::PgPool;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Options {
    /// Conversations streaming at once.
    pub streams: usize,
    /// How long the load lasts.
    pub duration: Duration,
    /// Venue searches started per second beside the conversations (0: none).
    pub searches_per_second: u32,
    /// Wait before each streamed delta.
    pub pace: Duration,
    /// The `maxy` executable to start as the server.
    pub server: PathBuf,
    /// The session cookie's name, as the server's settings make it.
    pub cookie_name: &'static str,
    /// Settings of the server beyond this process's environment (a test
    /// gives its own database).
    pub server_env: Vec<(String, String)>,
}

/// What the clients saw.
pub struct Report {
    pub first_words: Tally,
    pub whole_answer: Tally,
    pub searches: Tally,
    /// Searches the run was to start (rate × duration).
    pub searches_expected: u64,
    /// The server's resident memory in KiB, as [`super::load::Report`]
    /// reads its own process's.
    pub memory: Memory,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.whole_answer.errors + self.searches.errors
    }

    pub fn print(&mut self) {
        self.first_words
            .print("send -> first words on the page (first text_delta)");
        self.whole_answer
            .print("send -> whole answer (turn_finished), errors counted here");
        if self.searches_expected > 0 {
            self.searches
                .print("venue searches (POST /api/venues/search)");
        }
        let m = self.memory;
        println!(
            "  server's resident memory: idle {} MiB; once loaded {} MiB; at the end {} MiB; peak {} MiB",
            m.idle / 1024,
            m.settled / 1024,
            m.after / 1024,
            m.peak / 1024,
        );
        println!(
            "verdict: {}; memory {}",
            match self.errors() {
                0 => "zero errors".to_string(),
                n => format!("{n} ERRORS"),
            },
            if m.flat() { "flat" } else { "GREW" },
        );
    }
}

/// The server process; killed when dropped, whatever happened.
struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn run(db: &PgPool, opts: &Options) -> anyhow::Result<Report> {
    let email: String = sqlx::query_scalar(
        "SELECT email FROM users WHERE disabled_at IS NULL AND role = 'team' ORDER BY id LIMIT 1",
    )
    .fetch_optional(db)
    .await?
    .context("no team member: seed the demo first (maxy seed)")?;
    let text_only: Script = Arc::new(|_| Answer::Text(ANSWER.into()));
    let model = FakeModel::start(
        super::search_model::answering_searches(text_only),
        opts.pace,
        super::chat::CHUNK,
    )
    .await?;
    model.forget_requests();
    let server = start_server(opts, &model).await?;
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(120))
        .build()?;
    let cookie = sign_in(&http, &server.base, opts.cookie_name, &email).await?;
    let client = Client {
        http,
        base: server.base.clone(),
        cookie,
    };
    // Warm-up, not counted: the server's connections plan their
    // statements, every query is searched once.
    for _ in 0..3 {
        client.turn(None, "Des lieux ?").await?;
    }
    if opts.searches_per_second > 0 {
        for i in 0..QUERIES.len() {
            client.search(i).await.context("warm-up search")?;
        }
    }

    println!(
        "{} conversations through HTTP and SSE at once (a delta every {} ms) and {} venue searches a second, for {} s:",
        opts.streams,
        opts.pace.as_millis(),
        opts.searches_per_second,
        opts.duration.as_secs()
    );
    let pid = server.child.id();
    let idle = rss_kib_of(pid, "VmRSS");
    let end = Instant::now() + opts.duration;
    let settle = (opts.duration / 6).max(Duration::from_secs(1));
    let settled = tokio::spawn(async move {
        tokio::time::sleep(settle).await;
        rss_kib_of(pid, "VmRSS")
    });
    let mut clients = tokio::task::JoinSet::new();
    for i in 0..opts.streams {
        let client = client.clone();
        clients.spawn(async move {
            let (mut first_words, mut whole_answer) = (Tally::default(), Tally::default());
            let mut conversation = None;
            let mut n = 0usize;
            while Instant::now() < end {
                n += 1;
                let text = format!("Conversation {i}, message {n} : des lieux ?");
                match client.turn(conversation, &text).await {
                    Ok(turn) => {
                        conversation = Some(turn.conversation_id);
                        first_words.took_ms.push(turn.first_words_ms);
                        whole_answer.took_ms.push(turn.whole_answer_ms);
                    }
                    Err(e) => whole_answer.failed(format!("{e:#}")),
                }
            }
            (first_words, whole_answer)
        });
    }
    let searches = searches_until(&client, opts.searches_per_second, end).await?;
    let mut report = Report {
        first_words: Tally::default(),
        whole_answer: Tally::default(),
        searches,
        searches_expected: u64::from(opts.searches_per_second) * opts.duration.as_secs(),
        memory: Memory::default(),
    };
    while let Some(done) = clients.join_next().await {
        let (first_words, whole_answer) = done?;
        report.first_words.merge(first_words);
        report.whole_answer.merge(whole_answer);
    }
    let peak = rss_kib_of(pid, "VmHWM");
    let settled = settled.await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    report.memory = Memory {
        idle,
        settled,
        after: rss_kib_of(pid, "VmRSS"),
        peak,
    };
    drop(server);
    Ok(report)
}

/// Starts `per_second` searches a second until `end` (none at 0), each
/// in its own task, and waits for the last.
async fn searches_until(client: &Client, per_second: u32, end: Instant) -> anyhow::Result<Tally> {
    let mut found = Tally::default();
    if per_second == 0 {
        return Ok(found);
    }
    // Reaped as they finish: a finished task is held until its handle is read.
    let mut searches = tokio::task::JoinSet::new();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(per_second)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut i = 0usize;
    let record = |found: &mut Tally, outcome: anyhow::Result<f64>| match outcome {
        Ok(took) => found.took_ms.push(took),
        Err(e) => found.failed(format!("{e:#}")),
    };
    while Instant::now() < end {
        tick.tick().await;
        while let Some(done) = searches.try_join_next() {
            record(&mut found, done?);
        }
        let client = client.clone();
        searches.spawn(async move { client.search(i).await });
        i += 1;
    }
    while let Some(done) = searches.join_next().await {
        record(&mut found, done?);
    }
    Ok(found)
}

/// `maxy serve` on a free loopback port, its assistant the fake model; the
/// rest of its settings are this process's environment.
async fn start_server(opts: &Options, model: &FakeModel) -> anyhow::Result<Server> {
    let addr = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0")?;
        probe.local_addr()?
    };
    let exe = &opts.server;
    let child = Command::new(exe)
        .arg("serve")
        .envs(opts.server_env.iter().map(|(k, v)| (k, v)))
        .env("MAXY_ADDR", addr.to_string())
        .env("MAXY_LLM_PROVIDER", "anthropic")
        .env("MAXY_ANTHROPIC_API_KEY", "bench-key")
        .env("MAXY_ANTHROPIC_BASE_URL", model.base_url())
        .env("MAXY_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    let mut server = Server {
        child,
        base: format!("http://{addr}"),
    };
    let ready = format!("{}/readyz", server.base);
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Some(status) = server.child.try_wait()? {
            anyhow::bail!("maxy serve exited ({status}) before it was ready");
        }
        if reqwest::get(&ready)
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return Ok(server);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    anyhow::bail!("maxy serve was not ready at {ready} within 30 s")
}

/// Signs in through the form with the demo password; the `Cookie` header
/// that carries the session.
async fn sign_in(
    http: &reqwest::Client,
    base: &str,
    cookie_name: &str,
    email: &str,
) -> anyhow::Result<String> {
    let reply = http
        .post(format!("{base}/connexion"))
        .header(ORIGIN, base)
        .form(&[("email", email), ("password", crate::demo::DEMO_PASSWORD)])
        .send()
        .await?;
    let prefix = format!("{cookie_name}=");
    reply
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|pair| pair.starts_with(&prefix) && pair.len() > prefix.len())
        .map(str::to_string)
        .with_context(|| {
            format!(
                "signing in as {email} with the demo password gave no session (HTTP {})",
                reply.status()
            )
        })
}

#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    cookie: String,
}

/// One turn as the page saw it.
struct Turn {
    conversation_id: i64,
    first_words_ms: f64,
    whole_answer_ms: f64,
}

impl Client {
    /// The `i`-th query of [`QUERIES`] (round robin) through the venue
    /// page's endpoint; its time to the whole answer, in milliseconds.
    async fn search(&self, i: usize) -> anyhow::Result<f64> {
        let (pool, text) = QUERIES[i % QUERIES.len()];
        let started = Instant::now();
        let reply = self
            .http
            .post(format!("{}/api/venues/search", self.base))
            .header(ORIGIN, &self.base)
            .header(COOKIE, &self.cookie)
            .form(&[("form[pool]", pool), ("form[text]", text)])
            .send()
            .await?;
        let status = reply.status();
        let body = reply.bytes().await?;
        if !status.is_success() {
            anyhow::bail!(
                "search: HTTP {status}: {}",
                String::from_utf8_lossy(&body[..body.len().min(300)])
            );
        }
        let _: app::venue_search::SearchResults =
            serde_json::from_slice(&body).context("search: not SearchResults")?;
        Ok(ms(started))
    }

    /// Sends `text` and follows the turn's events to `idle`.
    async fn turn(&self, conversation: Option<i64>, text: &str) -> anyhow::Result<Turn> {
        let started = Instant::now();
        let mut form = vec![("text", text.to_string())];
        if let Some(c) = conversation {
            form.push(("conversation_id", c.to_string()));
        }
        let reply = self
            .http
            .post(format!("{}/api/chat/send", self.base))
            .header(ORIGIN, &self.base)
            .header(COOKIE, &self.cookie)
            .form(&form)
            .send()
            .await?;
        if !reply.status().is_success() {
            anyhow::bail!("send: HTTP {}: {}", reply.status(), reply.text().await?);
        }
        let sent: SentMessage = reply.json().await.context("send: not a SentMessage")?;
        let events = self
            .http
            .get(format!(
                "{}/api/chat/conversations/{}/events?after={}",
                self.base, sent.conversation_id, sent.seq
            ))
            .header(COOKIE, &self.cookie)
            .send()
            .await?;
        if !events.status().is_success() {
            anyhow::bail!("events: HTTP {}", events.status());
        }
        let (mut first_words_ms, mut whole_answer_ms) = (None, None);
        let mut stream = events.bytes_stream().eventsource();
        while let Some(event) = stream.next().await {
            let event = event.map_err(|e| anyhow::anyhow!("events: the stream broke: {e}"))?;
            if event.event == "idle" {
                break;
            }
            let seq: SeqEvent = serde_json::from_str(&event.data).context("events: bad JSON")?;
            match seq.event {
                ChatEvent::TextDelta { .. } if first_words_ms.is_none() => {
                    first_words_ms = Some(ms(started));
                }
                ChatEvent::TurnFinished { status, .. } => {
                    if status != "done" {
                        anyhow::bail!("the turn ended {status}");
                    }
                    whole_answer_ms = Some(ms(started));
                }
                _ => {}
            }
        }
        Ok(Turn {
            conversation_id: sent.conversation_id,
            first_words_ms: first_words_ms.context("the stream ended without any text")?,
            whole_answer_ms: whole_answer_ms.context("the stream ended before the turn")?,
        })
    }
}
