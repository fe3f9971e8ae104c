//! Where a chat turn's server time goes, stage by stage, for `maxy bench
//! chat`. The turn only emits `tracing` events on [`TARGET`] at each stage
//! boundary ([`begin`], [`lap`], [`part`]); the process's subscriber carries
//! a [`layer`] that turns them into figures once the benchmark [`collect`]s
//! them. Until then the layer's filter refuses those events (one atomic
//! load each) and nothing is recorded: production code carries no
//! benchmark plumbing, and any other layer (an OpenTelemetry exporter) may
//! read the same events.
//!
//! Stages are laps of one clock per conversation: each boundary attributes
//! the time since the previous one to the stage that just ended, so the
//! stages are disjoint and add up to the turn's wall time, from `send`
//! called to the turn's closing statement returned. Reads that run at the
//! same time inside one stage are kept apart as [`Part`]s (they overlap, so
//! they do not add up).
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};
use tracing::field::{Field, Visit};
use tracing::subscriber::Interest;
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::Filter;
use tracing_subscriber::layer::{Context, Layer};

/// The target of the stage events.
pub const TARGET: &str = "maxy::stages";

/// A segment of a turn's critical path, in the order a turn runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `send`: checks, the message stored, the turn opened with its start
    /// event and its first reads (one durable statement), the turn's task
    /// spawned.
    Send,
    /// The spawned turn waiting for a worker thread.
    Spawn,
    /// The prompt context completed (similar requests) and the history
    /// bounded (the send read both; later rounds take the history from
    /// memory).
    Reads,
    /// The system prompt rendered and the request assembled.
    Prompt,
    /// The model call: the body serialised, HTTP, the stream parsed, the
    /// text streamed to the log. Includes the model's own time, which the
    /// benchmark subtracts.
    Model,
    /// Tool calls run or turned into cards, their events and the round's
    /// messages stored.
    Tools,
    /// The cost summed, the last events, the answer and the closing in one
    /// durable statement.
    Close,
}

impl Stage {
    pub const ALL: [Stage; 7] = [
        Stage::Send,
        Stage::Spawn,
        Stage::Reads,
        Stage::Prompt,
        Stage::Model,
        Stage::Tools,
        Stage::Close,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Stage::Send => "send (message, turn opened, first reads)",
            Stage::Spawn => "turn task scheduled",
            Stage::Reads => "reads (similar requests, history bound)",
            Stage::Prompt => "prompt build",
            Stage::Model => "model call (client side)",
            Stage::Tools => "tool dispatch",
            Stage::Close => "closing (the page sees the end)",
        }
    }
}

/// Work inside [`Stage::Reads`] or [`Stage::Tools`], timed on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The similar requests (cached per request).
    Similar,
    /// A read tool's own work (its argument check, queries, wrapping).
    ToolRun,
}

impl Part {
    pub const ALL: [Part; 2] = [Part::Similar, Part::ToolRun];

    pub fn label(self) -> &'static str {
        match self {
            Part::Similar => "in reads: similar requests (cached)",
            Part::ToolRun => "in tools: the read tool's own work",
        }
    }
}

/// One turn's figures.
#[derive(Clone, Debug, Default)]
pub struct TurnTimings {
    /// Summed per [`Stage`], indexed as [`Stage::ALL`].
    pub stages: [Duration; Stage::ALL.len()],
    /// Summed per [`Part`], indexed as [`Part::ALL`].
    pub parts: [Duration; Part::ALL.len()],
    /// When `send` was called.
    pub sent_at: Option<Instant>,
    /// When the turn's closing statement returned (durable: on disk):
    /// where the server knows the turn is over, and the page is told.
    pub closed_at: Option<Instant>,
    /// The last boundary.
    lap: Option<Instant>,
}

impl TurnTimings {
    pub fn stage(&self, stage: Stage) -> Duration {
        self.stages[stage as usize]
    }

    pub fn part(&self, part: Part) -> Duration {
        self.parts[part as usize]
    }

    /// `send` called → closing returned.
    pub fn total(&self) -> Option<Duration> {
        Some(self.closed_at?.saturating_duration_since(self.sent_at?))
    }
}

/// The figures of the turns running or ended, by conversation (one turn
/// runs at a time in a conversation).
#[derive(Debug, Default)]
pub struct StageLog {
    turns: Mutex<HashMap<i64, TurnTimings>>,
}

impl StageLog {
    fn turns(&self) -> MutexGuard<'_, HashMap<i64, TurnTimings>> {
        self.turns.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A turn starts: `send` was called at `at` (the conversation may have
    /// been created since, so its id is known only now).
    pub fn begin(&self, conversation_id: i64, at: Instant) {
        self.turns().insert(
            conversation_id,
            TurnTimings {
                sent_at: Some(at),
                lap: Some(at),
                ..TurnTimings::default()
            },
        );
    }

    /// `stage` ended now: the time since the last boundary is its.
    pub fn lap(&self, conversation_id: i64, stage: Stage) {
        let now = Instant::now();
        let mut turns = self.turns();
        let Some(turn) = turns.get_mut(&conversation_id) else {
            return;
        };
        if let Some(last) = turn.lap.replace(now) {
            turn.stages[stage as usize] += now.saturating_duration_since(last);
        }
        if stage == Stage::Close {
            turn.closed_at = Some(now);
        }
    }

    /// A concurrent part of a stage took `took`.
    pub fn part(&self, conversation_id: i64, part: Part, took: Duration) {
        if let Some(turn) = self.turns().get_mut(&conversation_id) {
            turn.parts[part as usize] += took;
        }
    }

    /// The conversation's last turn's figures, removed from the log.
    pub fn take(&self, conversation_id: i64) -> Option<TurnTimings> {
        self.turns().remove(&conversation_id)
    }

    /// Like [`StageLog::take`], once the turn's closing was recorded (the
    /// closing commit is visible to other sessions a moment before its
    /// statement returns here).
    pub fn take_closed(&self, conversation_id: i64) -> Option<TurnTimings> {
        let mut turns = self.turns();
        let turn = turns.get(&conversation_id)?;
        turn.closed_at?;
        turns.remove(&conversation_id)
    }
}

/// A turn starts: `send` was called at `sent_at` (the conversation may have
/// been created since, so its id is known only now).
pub fn begin(conversation_id: i64, sent_at: Instant) {
    tracing::trace!(
        target: TARGET,
        conversation_id,
        since_send_us = u64::try_from(sent_at.elapsed().as_micros()).unwrap_or(u64::MAX),
        "turn begins"
    );
}

/// `stage` ended now.
pub fn lap(conversation_id: i64, stage: Stage) {
    tracing::trace!(target: TARGET, conversation_id, stage = stage as u64, "stage ended");
}

/// A concurrent part of a stage took `took`.
pub fn part(conversation_id: i64, part: Part, took: Duration) {
    tracing::trace!(
        target: TARGET,
        conversation_id,
        part = part as u64,
        took_us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
        "part timed"
    );
}

static COLLECTING: AtomicBool = AtomicBool::new(false);

fn log() -> &'static StageLog {
    static LOG: OnceLock<StageLog> = OnceLock::new();
    LOG.get_or_init(StageLog::default)
}

/// Starts recording the stage events of this process and gives their log
/// (for `maxy bench chat`; the process's subscriber must carry [`layer`]).
pub fn collect() -> &'static StageLog {
    COLLECTING.store(true, Ordering::Relaxed);
    log()
}

/// The layer that records stage events into [`collect`]'s log, filtered so
/// that it sees nothing else and nothing at all until collecting starts.
pub fn layer<S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>>() -> impl Layer<S>
{
    StageLayer.with_filter(StageEvents)
}

/// Stage events only, and only while collecting: every other callsite is
/// never asked about again; a stage event costs one atomic load.
struct StageEvents;

impl<S> Filter<S> for StageEvents {
    fn enabled(&self, meta: &tracing::Metadata<'_>, _: &Context<'_, S>) -> bool {
        meta.target() == TARGET && COLLECTING.load(Ordering::Relaxed)
    }

    fn callsite_enabled(&self, meta: &'static tracing::Metadata<'static>) -> Interest {
        if meta.target() == TARGET {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }
}

struct StageLayer;

impl<S: Subscriber> Layer<S> for StageLayer {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut fields = StageFields::default();
        event.record(&mut fields);
        record(log(), &fields);
    }
}

/// The fields of one stage event.
#[derive(Default)]
struct StageFields {
    conversation_id: Option<i64>,
    since_send_us: Option<u64>,
    stage: Option<u64>,
    part: Option<u64>,
    took_us: Option<u64>,
}

impl Visit for StageFields {
    fn record_i64(&mut self, field: &Field, value: i64) {
        if field.name() == "conversation_id" {
            self.conversation_id = Some(value);
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "since_send_us" => self.since_send_us = Some(value),
            "stage" => self.stage = Some(value),
            "part" => self.part = Some(value),
            "took_us" => self.took_us = Some(value),
            _ => {}
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
}

fn record(log: &StageLog, f: &StageFields) {
    let Some(conversation_id) = f.conversation_id else {
        return;
    };
    if let Some(us) = f.since_send_us {
        let at = Instant::now()
            .checked_sub(Duration::from_micros(us))
            .unwrap_or_else(Instant::now);
        log.begin(conversation_id, at);
    } else if let Some(stage) = f.stage.and_then(|i| Stage::ALL.get(i as usize)) {
        log.lap(conversation_id, *stage);
    } else if let (Some(part), Some(us)) =
        (f.part.and_then(|i| Part::ALL.get(i as usize)), f.took_us)
    {
        log.part(conversation_id, *part, Duration::from_micros(us));
    }
}

/// Runs `work`, then gives its result and how long it took.
pub async fn timed<T>(work: impl std::future::Future<Output = T>) -> (T, Duration) {
    let started = Instant::now();
    let out = work.await;
    (out, started.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_are_disjoint_and_add_up_to_the_turn() {
        let log = StageLog::default();
        let sent = Instant::now();
        log.begin(7, sent);
        std::thread::sleep(Duration::from_millis(2));
        log.lap(7, Stage::Send);
        std::thread::sleep(Duration::from_millis(3));
        log.lap(7, Stage::Reads);
        log.part(7, Part::Similar, Duration::from_millis(1));
        log.lap(7, Stage::Close);
        let t = log.take(7).expect("recorded");
        assert!(t.stage(Stage::Send) >= Duration::from_millis(2));
        assert!(t.stage(Stage::Reads) >= Duration::from_millis(3));
        assert_eq!(t.stage(Stage::Model), Duration::ZERO);
        assert_eq!(t.part(Part::Similar), Duration::from_millis(1));
        let sum: Duration = t.stages.iter().sum();
        assert_eq!(Some(sum), t.total());
        assert!(log.take(7).is_none(), "taken once");
    }

    #[test]
    fn the_layer_records_stage_events_once_collecting() {
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(layer());
        tracing::subscriber::with_default(subscriber, || {
            // Before collecting: nothing is kept.
            begin(41, Instant::now());
            lap(41, Stage::Close);
            assert!(log().take(41).is_none());

            let log = collect();
            begin(42, Instant::now() - Duration::from_millis(5));
            lap(42, Stage::Send);
            part(42, Part::ToolRun, Duration::from_millis(2));
            lap(42, Stage::Close);
            let t = log.take_closed(42).expect("recorded");
            assert!(t.stage(Stage::Send) >= Duration::from_millis(5));
            assert_eq!(t.part(Part::ToolRun), Duration::from_millis(2));
            assert!(t.total().is_some());
        });
    }

    #[test]
    fn a_conversation_never_begun_records_nothing() {
        let log = StageLog::default();
        log.lap(9, Stage::Send);
        log.part(9, Part::Similar, Duration::from_millis(1));
        assert!(log.take(9).is_none());
    }
}
