//! The covering per-user index (ADR 0017): built once, rebuilt when
//! invalid, and the vector path reads it without a heap page.
use super::{store, user};
use server::memory::{vector_index, MemoryOrigin, NewMemory};
use sqlx::PgPool;

async fn valid(db: &PgPool, name: &str) -> Option<bool> {
    sqlx::query_scalar(
        "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1",
    )
    .bind(name)
    .fetch_optional(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_index_is_built_once_and_an_invalid_one_rebuilt(db: PgPool) {
    let built = vector_index::ensure(&db, 3).await.unwrap();
    assert_eq!(
        built,
        ["ai_memories_user_vectors_3", "tasks_user_vectors_3"]
    );
    assert_eq!(valid(&db, "ai_memories_user_vectors_3").await, Some(true));
    assert!(
        vector_index::ensure(&db, 3).await.unwrap().is_empty(),
        "idempotent"
    );

    // An interrupted concurrent build leaves an invalid index behind.
    sqlx::query("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'tasks_user_vectors_3'::regclass")
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(
        vector_index::ensure(&db, 3).await.unwrap(),
        ["tasks_user_vectors_3"]
    );
    assert_eq!(valid(&db, "tasks_user_vectors_3").await, Some(true));

    // Too wide for a B-tree entry: no index, no failed insert later.
    assert!(vector_index::ensure(&db, 768).await.unwrap().is_empty());
    assert_eq!(valid(&db, "ai_memories_user_vectors_768").await, None);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_vector_path_is_an_index_only_scan(db: PgPool) {
    let store = store(&db, super::fakes::Bow::shared(), 0.0);
    let me = user(&db, "Inès").await;
    for i in 0..40 {
        store
            .save_memory(
                me,
                NewMemory {
                    title: String::new(),
                    content: format!("note {i} sur le lieu numéro {i}"),
                    origin: MemoryOrigin::Manual,
                    conversation_id: None,
                },
            )
            .await
            .unwrap();
    }
    let dims = store.embedder.dimensions();
    vector_index::ensure(&db, dims).await.unwrap();
    sqlx::query("VACUUM ANALYZE ai_memories")
        .execute(&db)
        .await
        .unwrap();
    let mut tx = db.begin().await.unwrap();
    // Tiny tables favour a sequential scan: show what the plan is at scale.
    sqlx::query("SET LOCAL enable_seqscan = off")
        .execute(&mut *tx)
        .await
        .unwrap();
    let plan: Vec<String> = sqlx::query_scalar(&format!(
        "EXPLAIN SELECT id, embedding::vector({dims}) <=> embedding::vector({dims}) AS d
           FROM ai_memories
          WHERE user_id = $1 AND embedding IS NOT NULL AND vector_dims(embedding) = {dims}
            AND embedding_model = $2
          ORDER BY d, id LIMIT 10"
    ))
    .bind(me)
    .bind(store.embedder.model())
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let plan = plan.join("\n");
    assert!(
        plan.contains(&format!(
            "Index Only Scan using ai_memories_user_vectors_{dims}"
        )),
        "{plan}"
    );
}
