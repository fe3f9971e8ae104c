//! The test cases of `venue_embeddings.rs` (helpers and the fake server there).
use super::*;
use server::venue_embeddings::embedding_text::venue_texts;
use std::time::{Duration, Instant};
use tokio::sync::watch;

#[sqlx::test(migrations = "../migrations")]
async fn triggers_queue_one_job_per_changed_venue(db: PgPool) {
    catalogue(&db).await;
    assert_eq!(
        queued_members(&db).await,
        [1, 2, 3],
        "new venues are queued"
    );
    let keys: Vec<String> = sqlx::query_scalar("SELECT dedupe_key FROM jobs ORDER BY id")
        .fetch_all(&db)
        .await
        .unwrap();
    assert_eq!(keys, ["venue.embed:1", "venue.embed:2", "venue.embed:3"]);

    // A bulk COPY of 300 rooms over 3 venues: one job per venue.
    exec(&db, "DELETE FROM jobs").await;
    let mut conn = db.acquire().await.unwrap();
    let mut copy = conn
        .copy_in_raw("COPY rooms (member_id, name, description) FROM STDIN")
        .await
        .unwrap();
    let rows: String = (0..300)
        .map(|i| format!("{}\tSalle {i}\tDescription {i}\n", i % 3 + 1))
        .collect();
    copy.send(rows.as_bytes()).await.unwrap();
    assert_eq!(copy.finish().await.unwrap(), 300);
    drop(conn);
    assert_eq!(queued_members(&db).await, [1, 2, 3]);
    let jobs: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(jobs, 3, "one job per venue, not per room");

    // Changes outside the text queue nothing.
    exec(&db, "DELETE FROM jobs").await;
    exec(
        &db,
        "UPDATE members SET contact_phone = '0102030405', website = 'https://x.fr'",
    )
    .await;
    exec(&db, "UPDATE rooms SET area_m2 = 120").await;
    assert_eq!(queued_members(&db).await, [0i64; 0]);

    let cases: &[(&str, &[i64])] = &[
        ("UPDATE members SET description = 'Nouveau' WHERE id IN (1, 2)", &[1, 2]),
        ("UPDATE members SET name = 'Le Loft Paris' WHERE id = 3", &[3]),
        ("UPDATE members SET status = 'active' WHERE id = 3", &[3]),
        ("UPDATE rooms SET description = 'Refait' WHERE id = 3", &[2]),
        ("UPDATE rooms SET position = 5 WHERE id = 2", &[1]),
        ("UPDATE rooms SET member_id = 3 WHERE id = 1", &[1, 3]),
        ("DELETE FROM rooms WHERE member_id = 2", &[2]),
        ("INSERT INTO member_tags (member_id, tag_id) VALUES (2, 1)", &[2]),
        ("DELETE FROM member_tags WHERE member_id = 1 AND tag_id = 2", &[1]),
        ("UPDATE tags SET name = 'Atypique !' WHERE id = 3", &[2, 3]),
        ("INSERT INTO knowledge_entries (member_id, content) VALUES (2, 'Ponton privé.')", &[2]),
        ("UPDATE knowledge_entries SET content = 'Parking à 50 m.' WHERE content LIKE 'Parking%'", &[1]),
        ("UPDATE knowledge_entries SET source = 'venue'", &[]),
        ("DELETE FROM knowledge_entries WHERE member_id = 1", &[1]),
    ];
    for (sql, expected) in cases {
        exec(&db, "DELETE FROM jobs").await;
        exec(&db, sql).await;
        assert_eq!(queued_members(&db).await, *expected, "{sql}");
    }

    // Two changes, one queued job; a deleted venue queues nothing.
    exec(&db, "DELETE FROM jobs").await;
    exec(&db, "UPDATE members SET description = 'A' WHERE id = 1").await;
    exec(&db, "UPDATE members SET description = 'B' WHERE id = 1").await;
    exec(&db, "DELETE FROM members WHERE id = 3").await;
    assert_eq!(queued_members(&db).await, [1]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_text_is_built_in_a_fixed_order_with_empty_parts_left_out(db: PgPool) {
    catalogue(&db).await;
    let texts = venue_texts(&db, &[3, 1, 99]).await.unwrap();
    let ids: Vec<i64> = texts.iter().map(|t| t.member_id).collect();
    assert_eq!(ids, [1, 3]);
    assert_eq!(texts[0].text, VENUE_1_TEXT);
    assert_eq!(texts[0].hash, text_hash(VENUE_1_TEXT));
    assert_eq!(texts[1].text, "Le Loft\n\natypique", "no empty description");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_job_embeds_changed_venues_and_never_re_embeds_unchanged_text(db: PgPool) {
    let fake = Fake::start(384).await;
    let provider = fake.provider(&[]);
    let registry = registry(&db, provider.clone());
    catalogue(&db).await;

    assert_eq!(drain(&db, &registry).await, 3);
    assert_eq!(fake.inputs(), [3], "one provider call for the batch");
    assert_eq!(
        fake.calls()[0]["input_type"],
        "passage",
        "embedded as documents"
    );
    let rows = stored(&db).await;
    assert_eq!(rows.len(), 3);
    let first = &rows[0];
    assert_eq!((first.member_id, first.dims), (1, 384));
    assert_eq!(first.model, provider.model());
    assert_eq!(first.text_hash, text_hash(VENUE_1_TEXT));
    assert_eq!(first.embedding.to_vec(), fake_vector(VENUE_1_TEXT, 384));
    assert!(job_states(&db).await.iter().all(|(s, _)| s == "done"));

    // Queued again with the same text: no provider call.
    for id in 1..=3 {
        let key = venue_embed::dedupe_key(id);
        server::jobs::enqueue(
            &db,
            venue_embed::KIND,
            &venue_embed::payload(id),
            Some(&key),
        )
        .await
        .unwrap();
    }
    assert_eq!(drain(&db, &registry).await, 3);
    assert_eq!(fake.inputs(), [3], "unchanged text is never re-embedded");

    // A new description: that venue only.
    exec(
        &db,
        "UPDATE members SET description = 'Rénové en 2026.' WHERE id = 2",
    )
    .await;
    assert_eq!(drain(&db, &registry).await, 1);
    assert_eq!(fake.inputs(), [3, 1]);
    let after = stored(&db).await;
    assert_ne!(after[1].text_hash, rows[1].text_hash);
    assert_eq!(
        after[0].embedded_at, rows[0].embedded_at,
        "venue 1 untouched"
    );
    assert_eq!(
        after[2].embedded_at, rows[2].embedded_at,
        "venue 3 untouched"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_embedding_outage_writes_nothing_loses_nothing_and_recovers(db: PgPool) {
    let fake = Fake::start(384).await;
    fake.set(|s| s.down = true);
    let registry = registry(&db, fake.provider(&[]));
    catalogue(&db).await;

    assert_eq!(drain(&db, &registry).await, 3);
    assert!(stored(&db).await.is_empty(), "nothing written");
    let states = job_states(&db).await;
    assert!(
        states
            .iter()
            .all(|(s, e)| s == "queued" && e.as_deref().is_some_and(|e| e.contains("unavailable"))),
        "{states:?}"
    );
    let later: bool = sqlx::query_scalar("SELECT bool_and(run_at > now()) FROM jobs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(later, "retried with backoff");

    fake.set(|s| s.down = false);
    exec(&db, "UPDATE jobs SET run_at = now()").await;
    assert_eq!(drain(&db, &registry).await, 3);
    assert_eq!(stored(&db).await.len(), 3);
    assert!(job_states(&db).await.iter().all(|(s, _)| s == "done"));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_dimension_writes_nothing_and_fails_the_jobs_clearly(db: PgPool) {
    let fake = Fake::start(256).await;
    let registry = registry(&db, fake.provider(&[]));
    catalogue(&db).await;

    drain(&db, &registry).await;
    assert!(stored(&db).await.is_empty());
    for (status, error) in job_states(&db).await {
        let error = error.unwrap();
        assert_eq!(status, "failed", "{error}");
        assert!(
            error.contains("256") && error.contains("MAXY_VENUE_EMBEDDING_DIMENSIONS"),
            "{error}"
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn jobs_of_deleted_venues_complete_and_a_refused_text_fails_alone(db: PgPool) {
    let fake = Fake::start(384).await;
    let registry = registry(&db, fake.provider(&[]));
    catalogue(&db).await;
    exec(
        &db,
        "UPDATE members SET description = 'REFUSE me' WHERE id = 2",
    )
    .await;
    let key = venue_embed::dedupe_key(42);
    server::jobs::enqueue(
        &db,
        venue_embed::KIND,
        &venue_embed::payload(42),
        Some(&key),
    )
    .await
    .unwrap();

    drain(&db, &registry).await;
    let ids: Vec<i64> = stored(&db).await.iter().map(|r| r.member_id).collect();
    assert_eq!(ids, [1, 3]);
    let states = job_states(&db).await;
    assert_eq!(states[0].0, "done");
    assert_eq!(states[1].0, "queued", "refused: retried later");
    assert!(states[1].1.as_deref().unwrap().contains("refused"));
    assert_eq!(states[2].0, "done");
    assert_eq!(states[3].0, "done", "no such venue: nothing to do");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_backfill_embeds_missing_and_stale_venues_and_resumes(db: PgPool) {
    let fake = Fake::start(384).await;
    let provider = fake.provider(&[]);
    catalogue(&db).await;
    exec(
        &db,
        "INSERT INTO members (id, code, name, pool_id) VALUES
           (4, '#4', 'Le Bistrot', 1), (5, '#5', 'La Verrière', 1)",
    )
    .await;
    let (_stop, running) = watch::channel(false);
    let options = BackfillOptions {
        batch: 2,
        progress: false,
        patience: Duration::ZERO,
    };

    // An outage in the third batch, with no patience: the first two are kept.
    fake.set(|s| s.fail_after = Some(2));
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &running).await;
    assert!(result.unwrap_err().to_string().contains("again later"));
    assert_eq!((summary.embedded, summary.unchanged), (4, 0));
    assert_eq!(stored(&db).await.len(), 4);

    // The rerun continues: one text embedded, four recognised as current.
    fake.set(|s| s.fail_after = None);
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &running).await;
    result.unwrap();
    assert_eq!(
        (summary.embedded, summary.unchanged, summary.failed),
        (1, 4, 0)
    );
    assert_eq!(fake.inputs(), [2, 2, 1]);
    assert!(summary.ms_per_text() > 0.0);
    // It claimed and completed the jobs the triggers had queued.
    assert!(job_states(&db).await.iter().all(|(s, _)| s == "done"));

    // Stale text, then another model: re-embedded.
    exec(
        &db,
        "INSERT INTO knowledge_entries (member_id, content) VALUES (5, 'Verrière 1900.')",
    )
    .await;
    let (summary, _) = backfill(&db, provider.as_ref(), &options, &running).await;
    assert_eq!((summary.embedded, summary.unchanged), (1, 4));
    let other = fake.provider(&[("MAXY_VENUE_EMBEDDING_MODEL", "other-model")]);
    let (summary, _) = backfill(&db, other.as_ref(), &options, &running).await;
    assert_eq!((summary.embedded, summary.unchanged), (5, 0));
    assert!(stored(&db).await.iter().all(|r| r.model == "other-model"));

    // Stopped (Ctrl-C) before the first batch: nothing done, said so.
    let (_stop, stopped) = watch::channel(true);
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &stopped).await;
    result.unwrap();
    assert!(summary.interrupted && summary.embedded == 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_backfill_waits_for_an_embedding_server_that_comes_back(db: PgPool) {
    let fake = Fake::start(384).await;
    let provider = fake.provider(&[]);
    catalogue(&db).await;
    let options = BackfillOptions {
        batch: 2,
        progress: false,
        patience: Duration::from_secs(60),
    };
    let (_stop, running) = watch::channel(false);

    // Down after the first batch, back 2.5 s later (a restart): the walk
    // waits, tries the failed batch again, and embeds every venue once.
    fake.set(|s| s.fail_after = Some(1));
    let back = fake.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(2500)).await;
        back.set(|s| s.fail_after = None);
    });
    let started = Instant::now();
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &running).await;
    result.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(2500));
    assert_eq!((summary.embedded, summary.failed), (3, 0));
    assert!(!summary.interrupted);
    assert_eq!(fake.inputs(), [2, 1], "each batch embedded once");
    assert_eq!(stored(&db).await.len(), 3);
    assert!(job_states(&db).await.iter().all(|(s, _)| s == "done"));

    // A server that stays down: the walk gives up once the patience is
    // spent, saying how long it waited; nothing else is written.
    exec(&db, "DELETE FROM member_embeddings").await;
    fake.set(|s| s.down = true);
    let short = BackfillOptions {
        patience: Duration::from_secs(1),
        ..options.clone()
    };
    let started = Instant::now();
    let (summary, result) = backfill(&db, provider.as_ref(), &short, &running).await;
    let error = result.unwrap_err().to_string();
    assert!(error.contains("still unavailable after 1 s"), "{error}");
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(summary.embedded, 0);
    assert!(stored(&db).await.is_empty());

    // Ctrl-C while it waits: it stops at once, interrupted, not failed.
    let (stop, watching) = watch::channel(false);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let _ = stop.send(true);
    });
    let started = Instant::now();
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &watching).await;
    result.unwrap();
    assert!(summary.interrupted);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[sqlx::test(migrations = "../migrations")]
async fn maxy_embed_venues_prints_a_summary_and_completes_the_queue(db: PgPool) {
    let fake = Fake::start(384).await;
    catalogue(&db).await;
    let url = support::url_of(&db).await;
    let embedding_url = format!("http://{}/v1", fake.addr);
    let run = move || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_maxy"))
            .args(["embed", "venues", "--quiet", "--batch", "2"])
            .env_clear()
            .env("DATABASE_URL", &url)
            .env("MAXY_EMBEDDING_URL", &embedding_url)
            .env("MAXY_LOG", "warn")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The binary blocks; run it off the async runtime that serves the fake.
    let first = tokio::task::spawn_blocking(run.clone()).await.unwrap();
    assert!(
        first.starts_with("venues: 3 embedded, 0 unchanged, 0 failed in "),
        "{first}"
    );
    assert!(first.contains("ms per embedded text"), "{first}");
    assert_eq!(fake.inputs(), [2, 1]);
    assert!(job_states(&db).await.iter().all(|(s, _)| s == "done"));

    let second = tokio::task::spawn_blocking(run).await.unwrap();
    assert!(
        second.starts_with("venues: 0 embedded, 3 unchanged"),
        "{second}"
    );
}
