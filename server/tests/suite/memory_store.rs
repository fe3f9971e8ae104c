//! The memory store on a real database (issue #12): validation, write-time
//! embedding that never fails a write, recurring tasks, the search chain
//! vector → full text → recency with its fused ranking, per-user isolation
//! (a property test), and once with the real local model.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

#[allow(dead_code)]
#[path = "../embeddings_client/fake.rs"]
mod fake;
use crate::memory_fakes as fakes;
#[path = "memory_store/isolation.rs"]
mod isolation;
#[path = "memory_store/outage.rs"]
mod outage;
#[path = "memory_store/real_model.rs"]
mod real_model;
#[path = "memory_store/tasks.rs"]
mod tasks;
#[path = "memory_store/vector_index.rs"]
mod vector_index;

use fakes::Bow;
use server::embeddings::EmbeddingProvider;
use server::memory::{MemoryError, MemoryOrigin, MemoryStore, NewMemory, NewTask, SearchSource};
use sqlx::PgPool;
use std::sync::Arc;

/// A team member named `name`.
pub async fn user(db: &PgPool, name: &str) -> i64 {
    sqlx::query_scalar("INSERT INTO users (email, display_name) VALUES ($1, $2) RETURNING id")
        .bind(format!("{}@reciprok.fr", name.to_lowercase()))
        .bind(name)
        .fetch_one(db)
        .await
        .unwrap()
}

/// A store whose search keeps rows at or above `floor` (cosine), with the
/// defaults of an uncalibrated model otherwise.
pub fn store(db: &PgPool, embedder: Arc<dyn EmbeddingProvider>, floor: f64) -> MemoryStore {
    let tuning = server::memory::ranking::Tuning {
        keep_floor: floor,
        ..server::memory::floor::UNCALIBRATED
    };
    MemoryStore::new(db.clone(), embedder, tuning)
}

pub fn memory(title: &str, content: &str) -> NewMemory {
    NewMemory {
        title: title.into(),
        content: content.into(),
        origin: MemoryOrigin::Manual,
        conversation_id: None,
    }
}

pub fn task(title: &str) -> NewTask {
    NewTask {
        title: title.into(),
        description: String::new(),
        due_at: None,
        recurrence: None,
        request_id: None,
    }
}

async fn count(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_gets_a_clear_error_and_writes_nothing(db: PgPool) {
    let me = user(&db, "Camille").await;
    let other = user(&db, "Bastien").await;
    let bow = Bow::shared();
    let s = store(&db, bow.clone(), 0.5);
    let theirs = s
        .save_memory(other, memory("Leur", "leur fait"))
        .await
        .unwrap();

    for q in ["", "   \n"] {
        let e = s.search(me, q, 5).await.unwrap_err();
        assert!(matches!(e, MemoryError::EmptyQuery), "{q:?}: {e:?}");
        assert_eq!(e.to_string(), "la recherche est vide");
    }
    let e = s.search(me, &"mot ".repeat(200), 5).await.unwrap_err();
    assert!(
        matches!(
            e,
            MemoryError::TooLong {
                field: "la recherche",
                ..
            }
        ),
        "{e:?}"
    );

    let calls = bow.calls();
    let big = "x".repeat(100 * 1024);
    let e = s.save_memory(me, memory("Gros", &big)).await.unwrap_err();
    assert_eq!(e.to_string(), "le contenu dépasse 4000 caractères (102400)");
    let e = s.save_memory(me, memory("Vide", " \t ")).await.unwrap_err();
    assert_eq!(e.to_string(), "le contenu est vide");
    let e = s.create_task(me, task("  ")).await.unwrap_err();
    assert_eq!(e.to_string(), "le titre est vide");
    let mut weird = task("Relancer");
    weird.recurrence = Some("FREQ=YEARLY".into());
    weird.due_at = Some(chrono::Utc::now());
    let e = s.create_task(me, weird).await.unwrap_err();
    assert!(matches!(e, MemoryError::InvalidRecurrence(_)), "{e:?}");
    let mut undated = task("Relancer");
    undated.recurrence = Some("FREQ=WEEKLY;BYDAY=MO".into());
    let e = s.create_task(me, undated).await.unwrap_err();
    assert!(matches!(e, MemoryError::InvalidRecurrence(_)), "{e:?}");
    let mut unknown_request = task("Relancer");
    unknown_request.request_id = Some(987_654);
    assert!(matches!(
        s.create_task(me, unknown_request).await,
        Err(MemoryError::NotFound)
    ));
    let mut foreign = memory("Conv", "un fait");
    foreign.conversation_id = Some(987_654);
    assert!(matches!(
        s.save_memory(me, foreign).await,
        Err(MemoryError::NotFound)
    ));
    assert_eq!(
        bow.calls(),
        calls + 2,
        "refused input never reaches the embedder"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM ai_memories").await, 1);
    assert_eq!(count(&db, "SELECT count(*) FROM tasks").await, 0);

    // Unknown id and another user's id: the same NotFound, the row intact.
    for id in [987_654, theirs.id] {
        assert!(matches!(
            s.update_memory(me, id, "t".into(), "c".into()).await,
            Err(MemoryError::NotFound)
        ));
        assert!(matches!(
            s.delete_memory(me, id).await,
            Err(MemoryError::NotFound)
        ));
        assert!(matches!(
            s.complete_task(me, id).await,
            Err(MemoryError::NotFound)
        ));
    }
    let still = s.list_memories(other, 10, 0).await.unwrap();
    assert_eq!(still.len(), 1);
    assert_eq!(
        (still[0].title.as_str(), still[0].content.as_str()),
        ("Leur", "leur fait")
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn memories_round_trip_and_a_new_text_is_re_embedded(db: PgPool) {
    let me = user(&db, "Camille").await;
    let bow = Bow::shared();
    let s = store(&db, bow.clone(), 0.5);
    let saved = s
        .save_memory(me, memory("  ", "  Le Pavillon Ledoyen ferme en août  "))
        .await
        .unwrap();
    assert!(saved.embedded);
    assert_eq!(saved.title, "Le Pavillon Ledoyen ferme en août");
    assert_eq!(saved.origin, MemoryOrigin::Manual);
    let updated = s
        .update_memory(
            me,
            saved.id,
            "Ledoyen".into(),
            "rouvre le 1er septembre".into(),
        )
        .await
        .unwrap();
    assert_eq!(bow.calls(), 2, "the update embeds the new text");
    let same: bool =
        sqlx::query_scalar("SELECT embedding = $2::real[]::vector FROM ai_memories WHERE id = $1")
            .bind(updated.id)
            .bind(Bow::vector("Ledoyen\nrouvre le 1er septembre"))
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(same, "the stored vector is the new text's");
    let list = s.list_memories(me, 10, 0).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].content, "rouvre le 1er septembre");
    s.delete_memory(me, saved.id).await.unwrap();
    assert!(s.list_memories(me, 10, 0).await.unwrap().is_empty());
    assert!(matches!(
        s.delete_memory(me, saved.id).await,
        Err(MemoryError::NotFound)
    ));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_literal_word_below_the_vector_floor_still_appears(db: PgPool) {
    let me = user(&db, "Camille").await;
    let s = store(&db, Bow::shared(), 0.5);
    let near = s
        .save_memory(me, memory("Terrasse", "terrasse"))
        .await
        .unwrap();
    let literal = s
        .save_memory(
            me,
            memory(
                "Note",
                "Zanzibar alpha beta gamma delta epsilon zeta eta theta",
            ),
        )
        .await
        .unwrap();
    let answer = s.search(me, "terrasse Zanzibar", 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Vector);
    let best = answer.best_similarity.unwrap();
    assert!((best - 0.707).abs() < 0.01, "best similarity {best}");
    let found: Vec<_> = answer.hits.iter().map(|h| (h.id, h.matched_by)).collect();
    assert!(
        found.contains(&(near.id, SearchSource::Vector)),
        "{found:?}"
    );
    assert!(
        found.contains(&(literal.id, SearchSource::Fts)),
        "{found:?}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn full_text_is_unaccented_and_one_word_is_enough(db: PgPool) {
    let me = user(&db, "Camille").await;
    // Floor 1.01: the vector path never answers, full text does.
    let s = store(&db, Bow::shared(), 1.01);
    let m = s
        .save_memory(
            me,
            memory("Santé", "Paracétamol 1g matin et soir pour migraine"),
        )
        .await
        .unwrap();
    s.save_memory(
        me,
        memory("Lieu", "Le rooftop du Perchoir accueille 200 personnes"),
    )
    .await
    .unwrap();
    for q in [
        "paracetamol",
        "PARACÉTAMOL",
        "quel médicament contre la migraine déjà ?",
    ] {
        let answer = s.search(me, q, 5).await.unwrap();
        assert_eq!(answer.source, SearchSource::Fts, "{q}");
        assert_eq!(answer.hits[0].id, m.id, "{q}");
        assert_eq!(answer.hits.len(), 1, "{q}");
        assert!(
            answer.best_similarity.is_some(),
            "a vector was computed: {q}"
        );
    }
    let answer = s.search(me, "xylophone", 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Recency);
    assert_eq!(answer.hits.len(), 2);
    let split = s.source_split(me, 7).await.unwrap();
    assert_eq!((split.vector, split.fts, split.recency), (0, 3, 1));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_user_with_only_tasks_still_gets_recency(db: PgPool) {
    let me = user(&db, "Camille").await;
    let nobody = user(&db, "Nobody").await;
    let s = store(&db, Bow::shared(), 1.01);
    s.create_task(me, task("Rappeler le traiteur"))
        .await
        .unwrap();
    let answer = s.search(me, "xylophone", 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Recency);
    assert_eq!(answer.hits.len(), 1);
    let empty = s.search(nobody, "xylophone", 5).await.unwrap();
    assert!(
        empty.hits.is_empty(),
        "a user without rows has nothing to recall"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn cancelled_tasks_are_never_found_done_ones_are(db: PgPool) {
    let me = user(&db, "Camille").await;
    let s = store(&db, Bow::shared(), 0.5);
    let done = s.create_task(me, task("Relancer Kaspia")).await.unwrap();
    let cancelled = s
        .create_task(me, task("Relancer Kaspia demain"))
        .await
        .unwrap();
    s.complete_task(me, done.id).await.unwrap();
    sqlx::query("UPDATE tasks SET status = 'cancelled' WHERE id = $1")
        .bind(cancelled.id)
        .execute(&db)
        .await
        .unwrap();
    assert!(matches!(
        s.complete_task(me, cancelled.id).await,
        Err(MemoryError::NotOpen)
    ));
    for floor in [0.0, 1.01] {
        let s = store(&db, Bow::shared(), floor);
        let answer = s.search(me, "Kaspia", 5).await.unwrap();
        let ids: Vec<i64> = answer.hits.iter().map(|h| h.id).collect();
        assert_eq!(ids, [done.id], "floor {floor}: {:?}", answer.source);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_vector_helper_is_exact_and_ignores_other_models_and_sizes(db: PgPool) {
    use server::db::memory_vectors::nearest;
    let me = user(&db, "Camille").await;
    let s = store(&db, Bow::shared(), 0.0);
    let texts = [
        "rooftop Perchoir",
        "péniche cocktail",
        "devis traiteur Kaspia",
        "budget séminaire",
        "Ledoyen août",
        "rooftop cocktail été",
        "catalogue mariage jardin",
        "relancer devis",
    ];
    let mut ids = Vec::new();
    for t in texts {
        ids.push(s.save_memory(me, memory(t, t)).await.unwrap().id);
    }
    // Another model's vector and a vector of another size: never candidates,
    // never an error from the cast.
    sqlx::query(
        "INSERT INTO ai_memories (user_id, title, content, embedding, embedding_model) VALUES
         ($1, 'x', 'rooftop', '[1,0,0]', 'fake-bow'), ($1, 'y', 'rooftop', $2, 'other-model')",
    )
    .bind(me)
    .bind(pgvector::Vector::from(Bow::vector("rooftop")))
    .execute(&db)
    .await
    .unwrap();
    let query = "rooftop cocktail";
    let q = Bow::vector(query);
    let got = nearest(
        &db,
        me,
        &pgvector::Vector::from(q.clone()),
        fakes::BOW_DIMS,
        "fake-bow",
        3,
    )
    .await
    .unwrap();
    let cosine = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| f64::from(x * y)).sum::<f64>();
    let mut expected: Vec<(f64, i64)> = texts
        .iter()
        .zip(&ids)
        .map(|(t, id)| (cosine(&q, &Bow::vector(&format!("{t}\n{t}"))), *id))
        .collect();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    assert_eq!(
        got.iter().map(|r| r.id).collect::<Vec<_>>(),
        expected.iter().take(3).map(|e| e.1).collect::<Vec<_>>()
    );
    for (row, (score, _)) in got.iter().zip(&expected) {
        assert!((row.score - score).abs() < 1e-5, "{} vs {score}", row.score);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn rows_saved_without_vector_are_filled_once_and_then_found_by_meaning(db: PgPool) {
    use server::memory::backfill::{backfill, BackfillOptions, Providers};
    let me = user(&db, "Camille").await;
    // Written while the embedding server is down…
    let down = outage::down_store(&db).await;
    let m = down
        .save_memory(me, memory("Santé", "paracétamol matin et soir"))
        .await
        .unwrap();
    down.save_memory(me, memory("Lieu", "rooftop du Perchoir"))
        .await
        .unwrap();
    down.create_task(me, task("Relancer Kaspia")).await.unwrap();
    let before = down.search(me, "paracétamol", 5).await.unwrap();
    assert_eq!(before.source, SearchSource::Fts);
    // …the server is back and the backfill runs (`maxy embed memory`).
    let bow = Bow::shared();
    let stop = tokio::sync::watch::channel(false).1;
    let (summary, result) = backfill(
        &db,
        Providers {
            memory: bow.as_ref(),
            training: bow.as_ref(),
        },
        &BackfillOptions::default(),
        &stop,
    )
    .await;
    result.unwrap();
    assert_eq!(
        bow.calls(),
        2,
        "memories then tasks, one batch each: {summary:?}"
    );
    let missing: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM ai_memories WHERE embedding IS NULL)
              + (SELECT count(*) FROM tasks WHERE embedding IS NULL)",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(missing, 0);
    // Back up: the same search now answers through the vector path.
    let up = store(&db, Bow::shared(), 0.3);
    let answer = up.search(me, "paracétamol", 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Vector);
    assert_eq!(answer.hits[0].id, m.id);
}
