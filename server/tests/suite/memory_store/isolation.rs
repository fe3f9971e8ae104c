//! Isolation, as a property: two users with random memories and tasks; any
//! query of one returns only that user's rows, and every write on the other
//! user's ids is NotFound with the row unchanged.
use super::fakes::Bow;
use super::{memory, store, task, user};
use chrono::Utc;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use server::memory::{HitKind, MemoryError};
use sqlx::PgPool;
use std::collections::HashSet;

const WORDS: [&str; 12] = [
    "Perchoir",
    "péniche",
    "rooftop",
    "traiteur",
    "devis",
    "cocktail",
    "séminaire",
    "Ledoyen",
    "catalogue",
    "relancer",
    "août",
    "budget",
];

fn words() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..WORDS.len(), 1..5)
        .prop_map(|ix| ix.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" "))
}

/// Every column a foreign write could touch, as text.
async fn snapshot(db: &PgPool) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT format('m%s %s %s %s %s', id, title, content, embedding, updated_at) FROM ai_memories
         UNION ALL
         SELECT format('t%s %s %s %s %s %s', id, title, status, due_at, embedding, updated_at) FROM tasks
         ORDER BY 1",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_user_never_reaches_another_users_rows(db: PgPool) {
    let users = [user(&db, "Camille").await, user(&db, "Bastien").await];
    // A floor of 0: every embedded row is a vector candidate, the hardest case.
    for floor in [0.0, 0.5, 1.01] {
        let s = store(&db, Bow::shared(), floor);
        let mut runner = TestRunner::deterministic();
        let case = (
            proptest::collection::vec((0..2usize, words(), proptest::bool::ANY), 2..12),
            proptest::collection::vec(words(), 1..6),
        );
        for _ in 0..4 {
            let (rows, queries) = case.new_tree(&mut runner).unwrap().current();
            sqlx::query("TRUNCATE ai_memories, tasks, memory_searches")
                .execute(&db)
                .await
                .unwrap();
            let mut owned: [HashSet<(HitKind, i64)>; 2] = Default::default();
            for (who, text, is_task) in &rows {
                let id = if *is_task {
                    (
                        HitKind::Task,
                        s.create_task(users[*who], task(text)).await.unwrap().id,
                    )
                } else {
                    let m = s
                        .save_memory(users[*who], memory(text, text))
                        .await
                        .unwrap();
                    (HitKind::Memory, m.id)
                };
                owned[*who].insert(id);
            }
            for q in &queries {
                for who in 0..2 {
                    let answer = s.search(users[who], q, 10).await.unwrap();
                    for h in &answer.hits {
                        assert!(
                            owned[who].contains(&(h.kind, h.id)),
                            "user {who} got {:?} {} for {q:?} (floor {floor}, source {:?})",
                            h.kind,
                            h.id,
                            answer.source
                        );
                    }
                    assert_eq!(
                        answer.hits.is_empty(),
                        owned[who].is_empty(),
                        "never empty when the user has rows"
                    );
                }
            }
            let before = snapshot(&db).await;
            for who in 0..2 {
                let me = users[who];
                for &(kind, id) in &owned[1 - who] {
                    let results = match kind {
                        HitKind::Memory => [
                            s.update_memory(me, id, "pris".into(), "pris".into())
                                .await
                                .err(),
                            s.delete_memory(me, id).await.err(),
                        ],
                        HitKind::Task => [
                            s.complete_task(me, id).await.err(),
                            s.snooze_task(me, id, Utc::now() + chrono::Duration::days(1))
                                .await
                                .err(),
                        ],
                    };
                    for r in results {
                        assert!(
                            matches!(r, Some(MemoryError::NotFound)),
                            "{kind:?} {id}: {r:?}"
                        );
                    }
                }
            }
            assert_eq!(
                snapshot(&db).await,
                before,
                "foreign writes changed nothing"
            );
        }
    }
}
