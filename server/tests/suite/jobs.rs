//! The job queue on a real PostgreSQL: idempotent enqueue, concurrent
//! claims, backoff and attempts, the reaper, re-runs after a change, the
//! worker loop (NOTIFY wake-up, shutdown), and interactive kinds ahead of
//! bulk ones.
//!
//! Needs DATABASE_URL: each test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use serde_json::json;
use server::config::{Config, Env};
use server::db::jobs::{claim, complete, fail, purge_done, reap};
use server::jobs::worker::{run_once, WorkerOptions};
use server::jobs::{enqueue, Enqueued, FailMode, Job, JobHandler, Outcome, Priority, Registry};
use sqlx::PgPool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const KIND: &str = "test.echo";

/// Records the jobs it runs, answers `outcome` for each, optionally slowly.
#[derive(Clone)]
struct Recorder {
    seen: Arc<Mutex<Vec<(String, i64)>>>,
    outcome: Outcome,
    batch: i64,
    delay: Duration,
}

impl Recorder {
    fn new(outcome: Outcome) -> Self {
        Recorder {
            seen: Arc::default(),
            outcome,
            batch: 1,
            delay: Duration::ZERO,
        }
    }

    fn seen_ids(&self) -> Vec<i64> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|(_, id)| *id)
            .collect()
    }
}

#[async_trait::async_trait]
impl JobHandler for Recorder {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn batch_size(&self) -> i64 {
        self.batch
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        tokio::time::sleep(self.delay).await;
        let worker = format!("{:?}", std::thread::current().id());
        let mut seen = self.seen.lock().unwrap();
        jobs.iter()
            .map(|j| {
                seen.push((worker.clone(), j.id));
                (j.id, self.outcome.clone())
            })
            .collect()
    }
}

async fn status_of(db: &PgPool, id: i64) -> (String, i32, Option<String>, f64) {
    sqlx::query_as(
        "SELECT status, attempts, last_error,
                extract(epoch FROM run_at - now())::float8 FROM jobs WHERE id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}

async fn enqueue_new(db: &PgPool, key: Option<&str>) -> i64 {
    match enqueue(db, KIND, &json!({}), key).await.unwrap() {
        Enqueued::New(id) => id,
        other => panic!("expected a new job, got {other:?}"),
    }
}

async fn make_due(db: &PgPool) {
    sqlx::query("UPDATE jobs SET run_at = now() WHERE status = 'queued'")
        .execute(db)
        .await
        .unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn enqueue_is_idempotent_per_dedupe_key(db: PgPool) {
    let id = enqueue_new(&db, Some("test.echo:1")).await;
    let again = enqueue(&db, KIND, &json!({"other": 1}), Some("test.echo:1"))
        .await
        .unwrap();
    assert_eq!(again, Enqueued::AlreadyQueued);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(count, 1);

    // Finished jobs don't block a new one; NULL keys never conflict.
    let claimed = claim(&db, KIND, 10, "w").await.unwrap();
    assert_eq!(claimed.len(), 1);
    complete(&db, &[id], "w").await.unwrap();
    let second = enqueue_new(&db, Some("test.echo:1")).await;
    assert_ne!(second, id);
    enqueue_new(&db, None).await;
    enqueue_new(&db, None).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn two_concurrent_claimers_never_get_the_same_job(db: PgPool) {
    for _ in 0..50 {
        enqueue_new(&db, None).await;
    }
    let claimer = |name: &'static str| {
        let db = db.clone();
        tokio::spawn(async move {
            let mut mine = Vec::new();
            loop {
                let jobs = claim(&db, KIND, 1, name).await.unwrap();
                let Some(job) = jobs.first() else { break };
                mine.push(job.id);
                tokio::task::yield_now().await;
                complete(&db, &[job.id], name).await.unwrap();
            }
            mine
        })
    };
    let (a, b) = tokio::join!(claimer("a"), claimer("b"));
    let (a, b) = (a.unwrap(), b.unwrap());
    let mut all: Vec<i64> = a.iter().chain(&b).copied().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 50, "every job once: a={a:?} b={b:?}");
    assert_eq!(a.len() + b.len(), 50, "no job twice");
    let done: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE status = 'done'")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(done, 50);
}

#[sqlx::test(migrations = "../migrations")]
async fn two_worker_loops_process_every_job_exactly_once(db: PgPool) {
    for _ in 0..50 {
        enqueue_new(&db, None).await;
    }
    let handler = Recorder {
        batch: 4,
        delay: Duration::from_millis(20),
        ..Recorder::new(Outcome::Done)
    };
    let registry = Registry::default().with(handler.clone());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let options = WorkerOptions {
        idle_poll: Duration::from_millis(50),
        ..WorkerOptions::default()
    };
    let workers = server::jobs::start(&db, &registry, 2, &options, &shutdown);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let left: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE status <> 'done'")
            .fetch_one(&db)
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{left} jobs left");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), workers.join())
        .await
        .expect("workers stop on shutdown");

    let mut ids = handler.seen_ids();
    assert_eq!(ids.len(), 50, "no job ran twice");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 50, "every job ran");
    let lockers: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT locked_by FROM jobs WHERE locked_by IS NOT NULL")
            .fetch_all(&db)
            .await
            .unwrap();
    assert!(lockers.is_empty(), "done jobs are unlocked: {lockers:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn failures_back_off_exponentially_then_fail_at_max_attempts(db: PgPool) {
    let id = enqueue_new(&db, None).await;
    sqlx::query("UPDATE jobs SET max_attempts = 3 WHERE id = $1")
        .bind(id)
        .execute(&db)
        .await
        .unwrap();
    let handler = Recorder::new(Outcome::failed(FailMode::Retry, "boom"));
    let registry = Registry::default().with(handler.clone());
    let options = WorkerOptions::default();

    let mut delays = Vec::new();
    for _ in 0..2 {
        assert_eq!(run_once(&db, &registry, "w", &options).await.unwrap(), 1);
        let (status, _, error, delay) = status_of(&db, id).await;
        assert_eq!(
            (status.as_str(), error.as_deref()),
            ("queued", Some("boom"))
        );
        // Not due yet: another round runs nothing.
        assert_eq!(run_once(&db, &registry, "w", &options).await.unwrap(), 0);
        delays.push(delay);
        make_due(&db).await;
    }
    assert!((9.0..=10.5).contains(&delays[0]), "{delays:?}");
    assert!((19.0..=20.5).contains(&delays[1]), "{delays:?}");

    assert_eq!(run_once(&db, &registry, "w", &options).await.unwrap(), 1);
    let (status, attempts, error, _) = status_of(&db, id).await;
    assert_eq!(
        (status.as_str(), attempts, error.as_deref()),
        ("failed", 3, Some("boom"))
    );
    make_due(&db).await;
    assert_eq!(run_once(&db, &registry, "w", &options).await.unwrap(), 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unavailable_dependency_never_exhausts_attempts_and_permanent_fails_at_once(db: PgPool) {
    let waiting = enqueue_new(&db, Some("test.echo:wait")).await;
    let broken = enqueue_new(&db, Some("test.echo:broken")).await;
    for _ in 0..7 {
        let jobs = claim(&db, KIND, 10, "w").await.unwrap();
        for job in jobs {
            let mode = if job.id == waiting {
                FailMode::Unavailable
            } else {
                FailMode::Permanent
            };
            fail(&db, &[job.id], "w", "down", mode).await.unwrap();
        }
        make_due(&db).await;
    }
    let (status, attempts, _, _) = status_of(&db, waiting).await;
    assert_eq!((status.as_str(), attempts), ("queued", 7));
    let (status, attempts, _, _) = status_of(&db, broken).await;
    assert_eq!((status.as_str(), attempts), ("failed", 1));

    // The outage backoff is capped at 10 minutes.
    claim(&db, KIND, 10, "w").await.unwrap();
    fail(&db, &[waiting], "w", "down", FailMode::Unavailable)
        .await
        .unwrap();
    let (_, _, _, delay) = status_of(&db, waiting).await;
    assert!((599.0..=600.5).contains(&delay), "{delay}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_reaper_requeues_jobs_of_a_dead_worker(db: PgPool) {
    let id = enqueue_new(&db, None).await;
    let spent = enqueue_new(&db, None).await;
    sqlx::query("UPDATE jobs SET max_attempts = 1 WHERE id = $1")
        .bind(spent)
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(claim(&db, KIND, 10, "dead:1:0").await.unwrap().len(), 2);

    // Recent locks are left alone.
    assert!(reap(&db, Duration::from_secs(600))
        .await
        .unwrap()
        .is_empty());
    sqlx::query("UPDATE jobs SET locked_at = now() - interval '1 hour'")
        .execute(&db)
        .await
        .unwrap();
    let mut reaped = reap(&db, Duration::from_secs(600)).await.unwrap();
    reaped.sort_unstable();
    assert_eq!(reaped, [id, spent]);

    let (status, _, error, _) = status_of(&db, id).await;
    assert_eq!(status, "queued");
    assert!(error.unwrap().contains("dead:1:0"));
    let (status, _, _, _) = status_of(&db, spent).await;
    assert_eq!(
        status, "failed",
        "out of attempts: a job that kills workers stops"
    );

    // Another worker takes it; the dead one's late answer changes nothing.
    assert_eq!(claim(&db, KIND, 10, "alive:2:0").await.unwrap().len(), 1);
    assert_eq!(complete(&db, &[id], "dead:1:0").await.unwrap(), 0);
    assert_eq!(complete(&db, &[id], "alive:2:0").await.unwrap(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_job_enqueued_again_while_it_runs_runs_once_more(db: PgPool) {
    let id = enqueue_new(&db, Some("test.echo:7")).await;
    let jobs = claim(&db, KIND, 10, "w").await.unwrap();
    assert_eq!(jobs.len(), 1);
    let again = enqueue(&db, KIND, &json!({}), Some("test.echo:7"))
        .await
        .unwrap();
    assert_eq!(again, Enqueued::RerunRequested(id));

    complete(&db, &[id], "w").await.unwrap();
    let (status, attempts, _, delay) = status_of(&db, id).await;
    assert_eq!((status.as_str(), attempts), ("queued", 0));
    assert!(delay <= 0.0);

    claim(&db, KIND, 10, "w").await.unwrap();
    complete(&db, &[id], "w").await.unwrap();
    assert_eq!(status_of(&db, id).await.0, "done");
}

#[sqlx::test(migrations = "../migrations")]
async fn idle_workers_wake_on_notify_and_stop_on_shutdown(db: PgPool) {
    let handler = Recorder::new(Outcome::Done);
    let registry = Registry::default().with(handler.clone());
    // A poll this long means only the NOTIFY can wake the worker in time.
    let options = WorkerOptions {
        idle_poll: Duration::from_secs(120),
        ..WorkerOptions::default()
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let workers = server::jobs::start(&db, &registry, 1, &options, &shutdown);
    // Let the worker go idle and the listener subscribe.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let id = enqueue_new(&db, None).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while status_of(&db, id).await.0 != "done" {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not woken by NOTIFY"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), workers.join())
        .await
        .expect("idle workers stop at once on shutdown");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_panicking_handler_fails_its_batch_not_the_worker(db: PgPool) {
    struct Panics;
    #[async_trait::async_trait]
    impl JobHandler for Panics {
        fn kind(&self) -> &'static str {
            KIND
        }
        async fn run(&self, _jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
            panic!("handler bug")
        }
    }
    let id = enqueue_new(&db, None).await;
    let registry = Registry::default().with(Panics);
    run_once(&db, &registry, "w", &WorkerOptions::default())
        .await
        .unwrap();
    let (status, attempts, error, _) = status_of(&db, id).await;
    assert_eq!((status.as_str(), attempts), ("queued", 1));
    assert!(error.unwrap().contains("panicked"));
}

#[test]
fn job_workers_come_from_maxy_job_workers() {
    let workers = |pairs: &[(&str, &str)]| {
        Config::from_source(&Env::from_pairs(pairs.iter().copied())).map(|c| c.job_workers)
    };
    assert_eq!(workers(&[]).unwrap(), 1);
    assert_eq!(workers(&[("MAXY_JOB_WORKERS", "0")]).unwrap(), 0);
    assert_eq!(workers(&[("MAXY_JOB_WORKERS", "4")]).unwrap(), 4);
    let error = workers(&[("MAXY_JOB_WORKERS", "many")]).unwrap_err();
    assert!(error.to_string().contains("MAXY_JOB_WORKERS"), "{error}");
}

#[sqlx::test(migrations = "../migrations")]
async fn old_done_jobs_are_purged_failed_ones_kept(db: PgPool) {
    let old = enqueue_new(&db, None).await;
    let recent = enqueue_new(&db, None).await;
    let failed = enqueue_new(&db, None).await;
    claim(&db, KIND, 10, "w").await.unwrap();
    complete(&db, &[old, recent], "w").await.unwrap();
    fail(&db, &[failed], "w", "no", FailMode::Permanent)
        .await
        .unwrap();
    sqlx::query("UPDATE jobs SET finished_at = now() - interval '8 days' WHERE id IN ($1, $2)")
        .bind(old)
        .bind(failed)
        .execute(&db)
        .await
        .unwrap();
    let week = Duration::from_secs(7 * 24 * 3600);
    assert_eq!(purge_done(&db, week, 100).await.unwrap(), 1);
    let left: Vec<i64> = sqlx::query_scalar("SELECT id FROM jobs ORDER BY id")
        .fetch_all(&db)
        .await
        .unwrap();
    assert_eq!(left, [recent, failed]);
}

/// (kind, job id, when it started) of every job a [`Timed`] ran.
type Starts = Arc<Mutex<Vec<(&'static str, i64, std::time::Instant)>>>;

/// A handler of its own kind and priority that notes when each job starts.
#[derive(Clone)]
struct Timed {
    kind: &'static str,
    priority: Priority,
    delay: Duration,
    started: Starts,
}

#[async_trait::async_trait]
impl JobHandler for Timed {
    fn kind(&self) -> &'static str {
        self.kind
    }

    fn priority(&self) -> Priority {
        self.priority
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let now = std::time::Instant::now();
        self.started
            .lock()
            .unwrap()
            .extend(jobs.iter().map(|j| (self.kind, j.id, now)));
        tokio::time::sleep(self.delay).await;
        jobs.iter().map(|j| (j.id, Outcome::Done)).collect()
    }
}

fn bulk_and_interactive(bulk_delay: Duration) -> (Timed, Timed) {
    let started = Arc::default();
    let bulk = Timed {
        kind: "test.bulk",
        priority: Priority::Bulk,
        delay: bulk_delay,
        started: Arc::clone(&started),
    };
    let interactive = Timed {
        kind: "test.person",
        priority: Priority::Interactive,
        delay: Duration::ZERO,
        started,
    };
    (bulk, interactive)
}

#[sqlx::test(migrations = "../migrations")]
async fn interactive_kinds_are_claimed_first_whatever_the_registration_order(db: PgPool) {
    let (bulk, interactive) = bulk_and_interactive(Duration::ZERO);
    // Registered bulk first, as `serve` registers the venues first.
    let registry = Registry::default()
        .with(bulk.clone())
        .with(interactive.clone());
    assert_eq!(registry.kinds(), ["test.person", "test.bulk"]);
    assert_eq!(registry.interactive().kinds(), ["test.person"]);
    enqueue(&db, "test.bulk", &json!({}), None).await.unwrap();
    enqueue(&db, "test.person", &json!({}), None).await.unwrap();
    assert_eq!(
        run_once(&db, &registry, "w", &WorkerOptions::default())
            .await
            .unwrap(),
        2
    );
    let order: Vec<&str> = bulk.started.lock().unwrap().iter().map(|s| s.0).collect();
    assert_eq!(order, ["test.person", "test.bulk"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_interactive_job_does_not_wait_for_a_bulk_batch_in_flight(db: PgPool) {
    // One configured worker (the default), busy with 5-second bulk batches.
    let (bulk, interactive) = bulk_and_interactive(Duration::from_secs(5));
    let registry = Registry::default()
        .with(bulk.clone())
        .with(interactive.clone());
    for _ in 0..5 {
        enqueue(&db, "test.bulk", &json!({}), None).await.unwrap();
    }
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let workers = server::jobs::start(&db, &registry, 1, &WorkerOptions::default(), &shutdown);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while bulk.started.lock().unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no bulk batch started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let queued_at = std::time::Instant::now();
    let Enqueued::New(id) = enqueue(&db, "test.person", &json!({}), None).await.unwrap() else {
        panic!("a new job")
    };
    let waited = loop {
        let started = bulk.started.lock().unwrap().clone();
        if let Some((_, _, at)) = started.iter().find(|s| s.1 == id) {
            break at.duration_since(queued_at);
        }
        assert!(queued_at.elapsed() < Duration::from_secs(10), "never ran");
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let bulk_started = bulk
        .started
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.0 == "test.bulk")
        .count();
    println!("interactive job started {waited:?} after it was queued, {bulk_started} bulk batch(es) started");
    assert!(
        waited < Duration::from_millis(1500),
        "waited {waited:?}: behind the bulk batch in flight"
    );
    assert_eq!(bulk_started, 1, "the bulk batch was still running");
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(10), workers.join())
        .await
        .expect("workers stop");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_dependency_a_person_waits_on_is_retried_within_30_seconds_and_never_failed(db: PgPool) {
    let id = enqueue_new(&db, Some("test.echo:person")).await;
    let mut delays = Vec::new();
    for _ in 0..12 {
        let jobs = claim(&db, KIND, 10, "w").await.unwrap();
        assert_eq!(jobs.len(), 1);
        fail(&db, &[id], "w", "down", FailMode::UnavailableSoon)
            .await
            .unwrap();
        delays.push(status_of(&db, id).await.3.round() as i64);
        make_due(&db).await;
    }
    assert_eq!(delays, [1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30, 30]);
    let (status, attempts, _, _) = status_of(&db, id).await;
    assert_eq!(
        (status.as_str(), attempts),
        ("queued", 12),
        "past max_attempts, still queued"
    );
}
