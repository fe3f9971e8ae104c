//! `maxy bench load`: the combined load of the operations issue — a number
//! of conversations streaming at once and kept busy (each sends its next
//! message as soon as its turn ends), while venue searches arrive at a
//! fixed rate, for a fixed time. The model is the local fake of
//! [`super::chat`] (Anthropic's streamed wire); the searches go through
//! the real search service with the configured venue embedder (the local
//! embedding server) and the deterministic ranking; PostgreSQL is real.
//!
//! Printed: turns and searches done, errors (a send refused, a turn not
//! `done`, a search failed), p50/p95/p99 of a turn (the model's streaming
//! included) and of a search, and the process's resident memory: idle
//! before the load, once the load has settled (after a sixth of the run,
//! 10 s of the default 60: 200 streams' buffers, the pool's connections and
//! the allocator's arenas are then in use), at the end, and at its peak.
//! The goal (issue « Operations »): zero errors and memory flat under load —
//! the end no higher than the settled mark + 10 % + 16 MiB. A leak grows
//! with the run's length; filling up to the load's working set does not.
use super::chat::{chat_service, rss_kib, wait_for_turn, ANSWER};
use super::fake_model::{Answer, Script};
use super::{ms, pct, QUERIES};
use crate::embeddings::EmbeddingProvider;
use crate::search::SearchService;
use anyhow::Context;
use app::chat::Assistant;
use app::venue_search::SearchForm;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Options {
    /// Conversations streaming at once.
    pub streams: usize,
    /// Venue searches started per second.
    pub searches_per_second: u32,
    /// How long the load lasts.
    pub duration: Duration,
    /// Wait before each streamed delta.
    pub pace: Duration,
}

/// What one side of the load saw.
#[derive(Default)]
pub struct Tally {
    /// Wall time of each success, in milliseconds.
    pub took_ms: Vec<f64>,
    pub errors: usize,
    pub first_error: Option<String>,
}

/// Resident memory of a process in KiB: idle, once the load has settled
/// (after a sixth of the run), 1 s after the end, and its peak.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory {
    pub idle: u64,
    pub settled: u64,
    pub after: u64,
    pub peak: u64,
}

impl Memory {
    /// No growth once loaded: the end within 10 % + 16 MiB of the settled mark.
    pub fn flat(&self) -> bool {
        self.after <= self.settled + self.settled / 10 + 16 * 1024
    }
}

/// What a run saw; [`Report::print`] writes it as `maxy bench load` shows it.
pub struct Report {
    pub turns: Tally,
    pub searches: Tally,
    /// Searches the run was to start (rate × duration).
    pub searches_expected: u64,
    pub memory: Memory,
    pub settle: Duration,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.turns.errors + self.searches.errors
    }

    pub fn print(&mut self) {
        self.turns.print("chat turns (streaming included)");
        self.searches.print("venue searches");
        let m = self.memory;
        println!(
            "  resident memory: idle {} MiB; after {} s of load {} MiB; at the end {} MiB; peak {} MiB",
            m.idle / 1024,
            self.settle.as_secs(),
            m.settled / 1024,
            m.after / 1024,
            m.peak / 1024,
        );
        println!(
            "verdict: {}; memory {}; {} of {} searches started on time",
            match self.errors() {
                0 => "zero errors".to_string(),
                n => format!("{n} ERRORS"),
            },
            if self.memory.flat() { "flat" } else { "GREW" },
            self.searches.took_ms.len() + self.searches.errors,
            self.searches_expected,
        );
    }
}

impl Tally {
    pub(super) fn merge(&mut self, other: Tally) {
        self.took_ms.extend(other.took_ms);
        self.errors += other.errors;
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }

    fn searched<E: std::fmt::Display>(&mut self, outcome: Result<f64, E>) {
        match outcome {
            Ok(took) => self.took_ms.push(took),
            Err(e) => self.failed(e),
        }
    }

    pub(super) fn failed(&mut self, error: impl std::fmt::Display) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(error.to_string());
        }
    }

    pub(super) fn print(&mut self, what: &str) {
        self.took_ms.sort_by(f64::total_cmp);
        println!(
            "  {what}: {} done, {} errors; p50 {:.0} ms, p95 {:.0} ms, p99 {:.0} ms",
            self.took_ms.len(),
            self.errors,
            pct(&self.took_ms, 0.50),
            pct(&self.took_ms, 0.95),
            pct(&self.took_ms, 0.99),
        );
        if let Some(e) = &self.first_error {
            println!("    first error: {e}");
        }
    }
}

pub async fn run(
    db: &PgPool,
    venues: Arc<dyn EmbeddingProvider>,
    opts: &Options,
) -> anyhow::Result<Report> {
    let user_id: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE disabled_at IS NULL ORDER BY id LIMIT 1")
            .fetch_optional(db)
            .await?
            .context("no user: seed the demo first (maxy seed)")?;
    let text_only: Script = Arc::new(|_| Answer::Text(ANSWER.into()));
    // No stage log: it keeps every turn's timings, which is the
    // benchmark's memory, not the server's.
    let (chat, fake) = chat_service(db, text_only, Duration::ZERO, opts.pace).await?;
    fake.forget_requests();
    let search = Arc::new(SearchService {
        read_db: None,
        db: db.clone(),
        embedder: Some(venues),
        llm: Arc::new(crate::planner::Planner),
    });
    let form = |i: usize| {
        let (pool, text) = QUERIES[i % QUERIES.len()];
        SearchForm {
            pool: pool.into(),
            text: text.into(),
            ..SearchForm::default()
        }
    };
    // Warm-up, not counted: every query once (plans, the query cache's
    // misses), one turn.
    for i in 0..QUERIES.len() {
        search
            .search(Some(user_id), &form(i))
            .await
            .map_err(|e| anyhow::anyhow!("warm-up search: {e}"))?;
    }
    let sent = chat
        .send(user_id, None, None, "Des lieux ?".into())
        .await
        .map_err(|e| anyhow::anyhow!("warm-up send: {e}"))?;
    wait_for_turn(&chat, sent.conversation_id).await?;

    println!(
        "{} conversations streaming at once (a delta every {} ms) and {} venue searches a second, for {} s:",
        opts.streams,
        opts.pace.as_millis(),
        opts.searches_per_second,
        opts.duration.as_secs()
    );
    let rss_before = rss_kib("VmRSS");
    let end = Instant::now() + opts.duration;
    let settle = (opts.duration / 6).max(Duration::from_secs(1));
    let rss_settled = tokio::spawn(async move {
        tokio::time::sleep(settle).await;
        rss_kib("VmRSS")
    });

    let mut streams = Vec::with_capacity(opts.streams);
    for i in 0..opts.streams {
        let chat = chat.clone();
        streams.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut conversation = None;
            let mut n = 0usize;
            while Instant::now() < end {
                let started = Instant::now();
                n += 1;
                let text = format!("Conversation {i}, message {n} : des lieux ?");
                match chat.send(user_id, conversation, None, text).await {
                    Ok(sent) => {
                        conversation = Some(sent.conversation_id);
                        match wait_for_turn(&chat, sent.conversation_id).await {
                            Ok(()) => tally.took_ms.push(ms(started)),
                            Err(e) => tally.failed(e),
                        }
                    }
                    Err(e) => tally.failed(format!("send: {e}")),
                }
            }
            (tally, conversation)
        }));
    }

    // Searches run as a set reaped as they finish: a finished task's
    // memory (sized for the whole search future) is held until its handle
    // is read, and holding 3,000 of them was the bench's own growth.
    let mut searches = tokio::task::JoinSet::new();
    let mut found = Tally::default();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(
        1.0 / f64::from(opts.searches_per_second.max(1)),
    ));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut i = 0usize;
    while Instant::now() < end {
        tick.tick().await;
        while let Some(done) = searches.try_join_next() {
            found.searched(done?);
        }
        let (search, form) = (search.clone(), form(i));
        i += 1;
        searches.spawn(async move {
            let started = Instant::now();
            search
                .search(Some(user_id), &form)
                .await
                .map(|_| ms(started))
        });
    }

    let mut turns = Tally::default();
    let mut conversations = Vec::new();
    for stream in streams {
        let (tally, conversation) = stream.await?;
        turns.merge(tally);
        conversations.extend(conversation);
    }
    while let Some(done) = searches.join_next().await {
        found.searched(done?);
    }
    // Every turn of the run closed `done`.
    let not_done: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM ai_turns WHERE conversation_id = ANY($1) AND status <> 'done'",
    )
    .bind(&conversations)
    .fetch_one(db)
    .await?;
    if not_done > 0 {
        turns.failed(format!("{not_done} turns not done"));
        turns.errors += usize::try_from(not_done)? - 1;
    }
    let rss_peak = rss_kib("VmHWM");
    let rss_settled = rss_settled.await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(Report {
        turns,
        searches: found,
        searches_expected: u64::from(opts.searches_per_second) * opts.duration.as_secs(),
        memory: Memory {
            idle: rss_before,
            settled: rss_settled,
            after: rss_kib("VmRSS"),
            peak: rss_peak,
        },
        settle,
    })
}
