//! The memory search's labelled cases and what the search achieves on them
//! (issue 27, docs/memory-calibration.md):
//! - the committed cases parse, cover every kind, and split in two halves;
//! - the calibration ranks the cases' texts exactly as the tables rank rows;
//! - with the local memory model (the one `scripts/embedder.sh` serves), the
//!   tuning committed for it keeps the level measured on the held-out half
//!   (docs/memory-calibration.md): the right memory first for at least 60 %
//!   of the cases that have one (measured 65 %; issue 27 asks for 85 %,
//!   which no local model reaches: see the doc), and « correspond » said of
//!   nothing for at least 95 % of the cases that have none.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use server::config::{EmbeddingPipeline, EmbeddingSettings, Env};
use server::embeddings::Embedders;
use server::memory::calibration::cases::{self, CaseKind, Half};
use server::memory::calibration::{gather_cases, tuning, DEFAULT_CASES};
use server::memory::floor;
use sqlx::PgPool;
use std::collections::HashMap;

#[test]
fn the_committed_cases_cover_every_kind_in_both_halves() {
    let cases = cases::parse(DEFAULT_CASES).unwrap();
    assert!(cases.len() >= 150, "{} cases", cases.len());
    let mut per_kind: HashMap<(CaseKind, bool), usize> = HashMap::new();
    for c in &cases {
        *per_kind
            .entry((c.kind, c.half == Half::HeldOut))
            .or_default() += 1;
    }
    for kind in [
        CaseKind::Concept,
        CaseKind::Synonym,
        CaseKind::Paraphrase,
        CaseKind::CodeSwitch,
        CaseKind::RelativeDate,
        CaseKind::Exact,
        CaseKind::None,
    ] {
        for held_out in [false, true] {
            let n = per_kind.get(&(kind, held_out)).copied().unwrap_or(0);
            assert!(n >= 8, "{} held_out={held_out}: {n}", kind.label());
        }
    }
    // The seed's case is in, answered by the instance.
    let med = cases
        .iter()
        .find(|c| c.query.contains("médicaments"))
        .expect("the seed's question");
    let answer = &med.memories[med.answer_index().unwrap()];
    assert!(answer.content.contains("paracétamol"), "{}", answer.content);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_calibration_ranks_texts_as_the_tables_rank_rows(db: PgPool) {
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('a@reciprok.fr', 'A') RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let texts = [
        (
            "Traiteur Kalisto",
            "menu sans viande pour 40 végétariens, réponse jeudi",
        ),
        (
            "",
            "Le Pavillon ferme à 22 h : musique coupée, voisinage sensible",
        ),
        ("Visite", "Péniche Éole le 10/12 à 14 h avec Mme Okonkwo"),
    ];
    for (title, content) in texts {
        sqlx::query("INSERT INTO ai_memories (user_id, title, content) VALUES ($1, $2, $3)")
            .bind(user)
            .bind(title)
            .bind(content)
            .execute(&db)
            .await
            .unwrap();
        sqlx::query("INSERT INTO tasks (user_id, title, description) VALUES ($1, $2, $3)")
            .bind(user)
            .bind(if title.is_empty() { "Rappel" } else { title })
            .bind(content)
            .execute(&db)
            .await
            .unwrap();
    }
    let differing: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM ai_memories WHERE search_tsv <> maxy_memory_tsv(title, content))
              + (SELECT count(*) FROM tasks WHERE search_tsv <> maxy_memory_tsv(title, description))",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(differing, 0);
    let titles: Vec<String> = texts.iter().map(|t| t.0.to_string()).collect();
    let bodies: Vec<String> = texts.iter().map(|t| t.1.to_string()).collect();
    let query = "un repas végétarien chez Kalisto ?";
    let ranks = server::db::memory_words::ranks(&db, query, &titles, &bodies)
        .await
        .unwrap();
    let stored: Vec<f64> = sqlx::query_scalar(
        "SELECT coalesce(CASE WHEN search_tsv @@ maxy_fts_any($1)
                              THEN ts_rank(search_tsv, maxy_fts_any($1)) END, 0)::float8
           FROM ai_memories ORDER BY id",
    )
    .bind(query)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(ranks, stored);
    assert!(ranks[0] > 0.0 && ranks[1] == 0.0, "{ranks:?}");
    let only_stop_words = server::db::memory_words::ranks(&db, "et de la", &titles, &bodies)
        .await
        .unwrap();
    assert_eq!(only_stop_words, [0.0, 0.0, 0.0]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_local_model_keeps_its_measured_level_on_the_held_out_half(db: PgPool) {
    // The memory pipeline as the application configures it (by default the
    // local servers `scripts/embedder.sh` starts, which `scripts/test.sh`
    // starts: an unreachable server fails this test).
    let settings = EmbeddingSettings::from_source(&Env::process()).unwrap();
    let provider = Embedders::from_settings(&settings)
        .unwrap()
        .pipeline(EmbeddingPipeline::Memory)
        .clone();
    let cases = cases::parse(DEFAULT_CASES).unwrap();
    let evidence = gather_cases(&cases, provider.as_ref(), &db)
        .await
        .expect("the local memory model must answer: run scripts/embedder.sh start");
    if std::env::var_os("MAXY_TUNE_MEMORY").is_some() {
        // A fresh tuning (minutes in a debug build): what
        // `maxy calibrate memory` prints, for updating `memory::floor` or
        // measuring another model.
        let tuned = tuning::tune(&evidence);
        println!("freshly tuned:\n{}", tuning::report(&evidence, &tuned));
        if floor::tuning_for(provider.model()).is_none() {
            return;
        }
    }
    let committed = floor::tuning_for(provider.model()).expect("a tuning for the local model");
    let report = tuning::report(&evidence, &committed);
    println!("{report}");
    let held = tuning::evaluate(&evidence, &committed, Some(Half::HeldOut));
    assert!(held.right_first_rate() >= 0.60, "{report}");
    assert!(held.none_silent_rate() >= 0.95, "{report}");
}
