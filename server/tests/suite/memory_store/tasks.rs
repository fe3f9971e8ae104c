//! Reminders: a recurring task's next occurrence copies the parent's vector
//! (no embedding call), completion is idempotent, snooze and the due list.
use super::fake::Fake;
use super::{count, store, task, user};
use chrono::{Duration, SubsecRound, Utc};
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::OpenAiEmbeddings;
use server::memory::{MemoryError, TaskStatus};
use sqlx::PgPool;
use std::sync::Arc;

#[sqlx::test(migrations = "../migrations")]
async fn a_recurring_task_spawns_its_next_occurrence_with_the_parents_vector(db: PgPool) {
    let me = user(&db, "Camille").await;
    let fake = Fake::start(384, vec![]).await;
    let settings = PipelineSettings {
        model: "e5-test".into(),
        input_type_style: InputTypeStyle::InputType,
        ..fake.settings()
    };
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Memory,
        &settings,
        std::time::Duration::from_secs(2),
    )
    .unwrap();
    let s = store(&db, Arc::new(client), 0.8);
    // PostgreSQL keeps microseconds.
    let due = (Utc::now() + Duration::days(1)).trunc_subsecs(6);
    let mut weekly = task("Point hebdo avec le Perchoir 7");
    weekly.recurrence = Some("freq=weekly".into());
    weekly.due_at = Some(due);
    let parent = s.create_task(me, weekly).await.unwrap();
    assert!(parent.embedded);
    assert_eq!(
        parent.recurrence.as_deref(),
        Some("FREQ=WEEKLY"),
        "stored canonical"
    );
    let calls = fake.bodies().len();
    assert_eq!(calls, 1);

    let child = s.complete_task(me, parent.id).await.unwrap().unwrap();
    assert_eq!(
        fake.bodies().len(),
        calls,
        "the occurrence is not re-embedded"
    );
    assert_eq!(child.parent_task_id, Some(parent.id));
    assert_eq!(child.status, TaskStatus::Open);
    assert_eq!(child.due_at, Some(due + Duration::days(7)));
    assert_eq!(child.title, parent.title);
    assert!(child.embedded);
    let copied: bool = sqlx::query_scalar(
        "SELECT c.embedding = p.embedding AND c.embedding_model = p.embedding_model
           FROM tasks c JOIN tasks p ON p.id = c.parent_task_id WHERE c.id = $1",
    )
    .bind(child.id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(copied);

    // Completing the parent again changes nothing and spawns nothing.
    let again = s.complete_task(me, parent.id).await.unwrap().unwrap();
    assert_eq!(again.id, child.id);
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 2);
    assert_eq!(
        count(&db, "SELECT count(*) FROM tasks WHERE status = 'done'").await,
        1
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_one_off_task_completes_without_successor_and_snooze_moves_it(db: PgPool) {
    let me = user(&db, "Camille").await;
    let s = store(&db, super::fakes::Bow::shared(), 0.5);
    let mut t = task("Envoyer le devis");
    t.due_at = Some(Utc::now() + Duration::hours(2));
    let t = s.create_task(me, t).await.unwrap();
    let soon = s
        .tasks_due(me, Utc::now() + Duration::days(1))
        .await
        .unwrap();
    assert_eq!(soon.iter().map(|t| t.id).collect::<Vec<_>>(), [t.id]);

    let later = Utc::now() + Duration::days(3);
    let moved = s.snooze_task(me, t.id, later).await.unwrap();
    assert_eq!(
        moved.due_at.map(|d| d.timestamp_micros()),
        Some(later.timestamp_micros())
    );
    assert!(s
        .tasks_due(me, Utc::now() + Duration::days(1))
        .await
        .unwrap()
        .is_empty());
    assert!(matches!(
        s.snooze_task(me, t.id, Utc::now() - Duration::hours(1))
            .await,
        Err(MemoryError::InvalidDate(_))
    ));

    assert!(s.complete_task(me, t.id).await.unwrap().is_none());
    assert!(matches!(
        s.snooze_task(me, t.id, later).await,
        Err(MemoryError::NotOpen)
    ));
    assert!(s
        .tasks_due(me, later + Duration::days(1))
        .await
        .unwrap()
        .is_empty());
}
