//! A person who leaves the page: the request's future is dropped 100 ms
//! into the save. The memory store's saves and the training save run in a
//! task of their own, so the row still lands, and gets its vector.
use super::edge::Edge;
use super::{embedded, embedders, memory, start_workers, store, task, user, within};
use app::training::TrainingInput;
use sqlx::PgPool;
use std::time::Duration;

/// A guideline that needs no venue nor request.
pub fn lesson() -> TrainingInput {
    TrainingInput {
        verdict: "guideline".into(),
        category: "ambiance".into(),
        event_type: "cocktail".into(),
        trigger: "festif".into(),
        prefer: "jardin, terrasse".into(),
        avoid: "sous-sol".into(),
        reason: "Les soirées festives se passent dehors.".into(),
        ..TrainingInput::default()
    }
}

/// Runs `save` and drops it after 100 ms, as axum drops a handler's future
/// when its client goes away.
async fn leave_after_100_ms<T>(save: impl std::future::Future<Output = T>) {
    let outcome = tokio::time::timeout(Duration::from_millis(100), save).await;
    assert!(outcome.is_err(), "the save was still running at 100 ms");
}

async fn count(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_save_whose_caller_leaves_after_100_ms_still_lands(db: PgPool) {
    // The query server takes a second: every save is still embedding at 100 ms.
    let slow = Edge::start(384, Duration::from_secs(1)).await;
    let e = embedders(slow.addr, slow.addr);
    let s = store(&db, e.memory.clone());
    let me = user(&db, "Camille").await;
    let kept = s.save_memory(me, memory("Avant", "un fait")).await.unwrap();

    // The saves share the client's query slot: the later ones may pass the
    // bound and be embedded by their job.
    let (workers, stop, _) = start_workers(&db, &e);
    leave_after_100_ms(s.save_memory(me, memory("Pavillon", "fermé en août"))).await;
    leave_after_100_ms(s.create_task(me, task("Relancer le Perchoir", None))).await;
    leave_after_100_ms(s.update_memory(me, kept.id, "Après".into(), "un autre fait".into())).await;

    let landed = within(Duration::from_secs(5), "the saves land", || async {
        count(&db, "SELECT count(*) FROM ai_memories WHERE title = 'Pavillon' AND embedding IS NOT NULL").await == 1
            && count(&db, "SELECT count(*) FROM tasks WHERE title = 'Relancer le Perchoir' AND embedding IS NOT NULL").await == 1
            && count(&db, "SELECT count(*) FROM ai_memories WHERE title = 'Après' AND embedding IS NOT NULL").await == 1
    })
    .await;
    println!("three saves left at 100 ms landed, embedded, {landed:?} later");
    assert!(embedded(&db, "ai_memories", kept.id).await);
    stop.send(true).unwrap();
    workers.join().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_lesson_whose_caller_leaves_after_100_ms_still_lands(db: PgPool) {
    let me = user(&db, "Camille").await;
    // Another transaction holds the author's row: the session's insert
    // (its foreign key) waits for it, past the moment the caller leaves.
    let mut holder = db.begin().await.unwrap();
    sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
        .bind(me)
        .execute(&mut *holder)
        .await
        .unwrap();
    let service = server::training::TrainingService { db: db.clone() };
    leave_after_100_ms(service.create(me, &lesson())).await;
    assert_eq!(
        count(&db, "SELECT count(*) FROM training_sessions").await,
        0
    );
    holder.commit().await.unwrap();
    within(Duration::from_secs(5), "the lesson lands", || async {
        count(&db, "SELECT count(*) FROM training_sessions").await == 1
    })
    .await;
    let queued = count(
        &db,
        "SELECT count(*) FROM jobs WHERE kind = 'memory.embed' AND dedupe_key LIKE 'memory.embed:training_sessions:%'",
    )
    .await;
    assert_eq!(queued, 1, "with its embedding job");
}
