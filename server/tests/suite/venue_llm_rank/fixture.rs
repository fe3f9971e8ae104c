//! A small pool of venues, the search form that finds them, and answers
//! the fake model gives from the codes it was shown.
use crate::support::anthropic::listed_codes;
use app::venue_search::{SearchForm, SearchResults, VenuePick};
use serde_json::{json, Value};
use server::db::llm_calls::CallContext;
use server::llm::{CallRecord, LlmProvider, Recording};
use server::search::pipeline;
use server::search::request;
use sqlx::PgPool;
use std::sync::Arc;

pub const POOL: &str = "llm-test";

/// A pool of `n` active venues in the 11th (codes #9001…), each with one
/// cocktail room; #9001 also has prices, a tag and a knowledge entry.
pub async fn seed(db: &PgPool, n: i32) {
    let pool: i64 =
        sqlx::query_scalar("INSERT INTO pools (slug, name) VALUES ($1, 'Test LLM') RETURNING id")
            .bind(POOL)
            .fetch_one(db)
            .await
            .unwrap();
    sqlx::query(
        "INSERT INTO members (code, name, pool_id, status, postal_code, city, lat, lng, description)
         SELECT '#' || (9000 + i), 'Lieu ' || i, $1, 'active', '75011', 'Paris',
                48.857 + i * 0.0004, 2.375, 'Salle lumineuse numéro ' || i || ', ambiance festive.'
           FROM generate_series(1, $2) AS i",
    )
    .bind(pool)
    .bind(n)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO rooms (member_id, name) SELECT id, 'Verrière' FROM members WHERE pool_id = $1",
    )
    .bind(pool)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
         SELECT r.id, r.member_id, 'cocktail', 60 + (r.member_id % 7) * 20
           FROM rooms r JOIN members m ON m.id = r.member_id WHERE m.pool_id = $1",
    )
    .bind(pool)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE members SET price_per_person_min_eur = 45, price_per_person_max_eur = 90,
                venue_hire_from_eur = 2000 WHERE code = '#9001'",
    )
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "WITH t AS (INSERT INTO tags (name) VALUES ('rooftop'), ('accessible-pmr') RETURNING id)
         INSERT INTO member_tags (member_id, tag_id) SELECT m.id, t.id FROM members m, t WHERE m.code = '#9001'",
    )
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO knowledge_entries (member_id, content, source)
         SELECT id, 'Terrasse chauffée ouverte jusqu''à 23 h.', 'venue' FROM members WHERE code = '#9001'",
    )
    .execute(db)
    .await
    .unwrap();
}

pub fn form() -> SearchForm {
    SearchForm {
        pool: POOL.into(),
        text: "ambiance festive".into(),
        participants: Some(50),
        configurations: vec!["cocktail".into()],
        postal_codes: vec!["75011".into()],
        ..SearchForm::default()
    }
}

/// What one search through the pipeline gave, and the model calls it made.
pub struct Ran {
    pub results: SearchResults,
    pub llm_candidates: Option<usize>,
    pub llm_calls: Vec<CallRecord>,
}

/// The pipeline with `llm` wrapped in a recording, as the search service does.
pub async fn run(db: &PgPool, llm: Arc<dyn LlmProvider>) -> Ran {
    run_form(db, llm, &form()).await
}

/// As [`run`], for another form.
pub async fn run_form(db: &PgPool, llm: Arc<dyn LlmProvider>, form: &SearchForm) -> Ran {
    let req = request::build(form).unwrap();
    let llm = Recording::new(llm, db.clone(), CallContext::default());
    match pipeline::run(db, None, &llm, &req).await {
        Ok(outcome) => Ran {
            results: outcome.results,
            llm_candidates: outcome.llm_candidates,
            llm_calls: llm.calls().into_iter().map(|c| c.record).collect(),
        },
        Err(_) => panic!("the search failed"),
    }
}

pub fn codes(picks: &[VenuePick]) -> Vec<&str> {
    picks.iter().map(|p| p.code.as_str()).collect()
}

pub fn item(code: &str, text: &str) -> Value {
    json!({"memberCode": code, "explanation": text})
}

/// The last eight listed codes, in reverse: an order no scorer would give.
pub fn last_eight_reversed(body: &Value) -> String {
    let listed = listed_codes(body);
    let mut chosen: Vec<&String> = listed.iter().rev().take(8).collect();
    let compatible = chosen.split_off(4);
    let explain = |c: &&String| item(c, &format!("{c} convient à cette soirée festive."));
    json!({
        "recommended": chosen.iter().map(explain).collect::<Vec<_>>(),
        "compatible": compatible.iter().map(explain).collect::<Vec<_>>(),
        "rejected": [{"memberCode": listed[0], "reason": "Trop sobre."}]
    })
    .to_string()
}

pub fn explanations(r: &SearchResults) -> Vec<&str> {
    r.recommended
        .iter()
        .chain(&r.compatible)
        .map(|p| p.reason.as_str())
        .collect()
}
