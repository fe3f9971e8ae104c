//! The whole memory search as a person waits for it
//! ([`MemoryStore::search_unrecorded`]: query embedding, nearest vectors,
//! full text on memories and tasks, reminders due in a date window, the
//! cosines of rows found by words, the ranking), side by side with its
//! vector path alone (the same query embedding, then `nearest`), on the
//! same questions in the same run, alternating which goes first.
//!
//! The synthetic rows are stored under [`MODEL`]; the store's embedder is
//! the real query lane wrapped by [`Synthetic`], which forwards the calls
//! but names the synthetic model, so the search reads the seeded vectors.
//! The store ranks with the real model's tuning and without a judge (a
//! language model's call is measured with the chat, not here).
use super::{ms, pct, MODEL};
use crate::db::{ai_memories, memory_vectors};
use crate::embeddings::{EmbeddingError, EmbeddingProvider, InputType};
use crate::memory::{embed, floor, MemoryStore, SearchSource};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Instant;

/// Candidates per step, as the search asks for (`memory::search`).
const CANDIDATES: i64 = 20;
/// Hits the memory page asks for (`memory_desk::SEARCH_LIMIT`).
const HITS: usize = 10;

/// French questions a team member asks their memory; most share a common
/// word (« semaine », « traiteur », « salle », « budget ») with thousands
/// of the seeded notes, as real questions do.
const QUESTIONS: &[&str] = &[
    "est-ce que j'ai des médicaments à prendre cette semaine ?",
    "qu'est-ce que j'avais noté sur le traiteur du Belvédère ?",
    "quel organisateur voulait un rooftop pour juin ?",
    "le lieu qui refuse les mariages, c'était lequel ?",
    "rappelle-moi ce que Claire a dit sur le budget du séminaire",
    "quelle salle avait un problème de parking ?",
    "le traiteur doit confirmer le menu quand ?",
    "which venue had the parking issue last time?",
    "la péniche accepte combien de personnes ?",
    "qui devait envoyer le devis la semaine prochaine ?",
];

/// The memory pipeline's embedder under the synthetic rows' model name.
struct Synthetic(Arc<dyn EmbeddingProvider>);

#[async_trait::async_trait]
impl EmbeddingProvider for Synthetic {
    fn model(&self) -> &str {
        MODEL
    }

    fn dimensions(&self) -> u32 {
        self.0.dimensions()
    }

    async fn embed(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        self.0.embed(texts, input_type).await
    }

    async fn embed_interactive(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        self.0.embed_interactive(texts, input_type).await
    }
}

#[derive(Default)]
struct Times {
    embedding: Vec<f64>,
    vector_sql: Vec<f64>,
    words_sql: Vec<f64>,
    vector_path: Vec<f64>,
    whole: Vec<f64>,
}

pub(super) async fn run(
    db: &PgPool,
    embedder: &Arc<dyn EmbeddingProvider>,
    target: i64,
    searches: usize,
) -> anyhow::Result<()> {
    let synthetic: Arc<dyn EmbeddingProvider> = Arc::new(Synthetic(embedder.clone()));
    if let Err(e) = synthetic
        .embed_interactive(&[QUESTIONS[0].to_string()], InputType::Query)
        .await
    {
        println!("  whole search skipped: the memory embedder is unavailable ({e})");
        return Ok(());
    }
    let store = MemoryStore::new(
        db.clone(),
        synthetic.clone(),
        floor::for_model(embedder.model(), None),
    );
    let dims = synthetic.dimensions();
    for q in QUESTIONS {
        store.search_unrecorded(target, q, HITS).await?;
    }

    let mut t = Times::default();
    let (mut no_vector, mut sources) = (0usize, [0usize; 3]);
    for i in 0..searches {
        let question = QUESTIONS[i % QUESTIONS.len()];
        // Alternate the order: neither side always finds the other's pages
        // in the cache or always runs first after a pause.
        for side in [i % 2, 1 - i % 2] {
            if side == 0 {
                let started = Instant::now();
                let Some(v) = embed::for_query(synthetic.as_ref(), target, question).await else {
                    no_vector += 1;
                    continue;
                };
                t.embedding.push(ms(started));
                let sql = Instant::now();
                memory_vectors::nearest(db, target, &v, dims, MODEL, CANDIDATES).await?;
                t.vector_sql.push(ms(sql));
                t.vector_path.push(ms(started));
                let words = Instant::now();
                ai_memories::fts(db, target, question, CANDIDATES).await?;
                t.words_sql.push(ms(words));
            } else {
                let started = Instant::now();
                let answer = store.search_unrecorded(target, question, HITS).await?;
                t.whole.push(ms(started));
                sources[match answer.source {
                    SearchSource::Vector => 0,
                    SearchSource::Fts => 1,
                    SearchSource::Recency => 2,
                }] += 1;
            }
        }
    }
    for v in [
        &mut t.embedding,
        &mut t.vector_sql,
        &mut t.words_sql,
        &mut t.vector_path,
        &mut t.whole,
    ] {
        v.sort_by(f64::total_cmp);
    }
    println!(
        "whole search against its vector path, user {target}, {searches} questions × 2 \
         ({} French/English questions, top {HITS}, no judge):",
        QUESTIONS.len()
    );
    let line = |label: &str, v: &[f64]| {
        println!(
            "  {label:<28} p50 {:>7.2} ms  p95 {:>7.2} ms  p99 {:>7.2} ms",
            pct(v, 0.5),
            pct(v, 0.95),
            pct(v, 0.99)
        );
    };
    line(
        &format!("query embedding ({})", embedder.model()),
        &t.embedding,
    );
    line("vector SQL (nearest)", &t.vector_sql);
    line("full-text SQL (memories)", &t.words_sql);
    line("vector path (embed + SQL)", &t.vector_path);
    line("whole search", &t.whole);
    let ratio = |p: f64| pct(&t.whole, p) / pct(&t.vector_path, p).max(f64::EPSILON);
    println!(
        "  whole ÷ vector path          p50 {:.2}×  p95 {:.2}×  p99 {:.2}×",
        ratio(0.5),
        ratio(0.95),
        ratio(0.99)
    );
    println!(
        "  answered by: vector {}, fts {}, recency {}; query vector missing {no_vector} time(s)",
        sources[0], sources[1], sources[2]
    );
    Ok(())
}

/// How many of the user's memories share each common word, and the plan of
/// the full-text step for the first (`EXPLAIN (ANALYZE, BUFFERS)`).
pub(super) async fn words_plan(db: &PgPool, target: i64) -> anyhow::Result<()> {
    const WORDS: &[&str] = &["semaine", "traiteur", "salle", "budget", "Wagram"];
    let mut counts = Vec::new();
    for w in WORDS {
        let n: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM ai_memories
              WHERE user_id = $1 AND search_tsv @@ maxy_fts_any($2)",
        )
        .bind(target)
        .bind(w)
        .fetch_one(db)
        .await?;
        counts.push(format!("« {w} » {n}"));
    }
    println!(
        "full text, the user's memories sharing a word: {}",
        counts.join(", ")
    );
    // The statement of `ai_memories::fts`, literally.
    let plan: Vec<String> = sqlx::query_scalar(
        "EXPLAIN (ANALYZE, BUFFERS)
         SELECT 'memory'::text AS kind, m.id, m.title, m.content, NULL::timestamptz AS due_at,
                m.created_at, ts_rank(m.search_tsv, q)::float8 AS score
           FROM ai_memories m, maxy_fts_any($2) q
          WHERE m.user_id = $1 AND m.search_tsv @@ q
          ORDER BY score DESC, m.created_at DESC, m.id DESC
          LIMIT $3",
    )
    .bind(target)
    .bind(WORDS[0])
    .bind(CANDIDATES)
    .fetch_all(db)
    .await?;
    println!("  plan of the full-text step for « {} »:", WORDS[0]);
    for line in plan {
        println!("    {line}");
    }
    Ok(())
}
