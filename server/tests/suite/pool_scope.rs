//! Pools are never narrowed silently (issue 25), as a user hit it on the
//! demo: « trouve 4 lieux pour 60 personnes en théâtre dans le 8e » searched
//! the Châteaux alone and found 1 venue where other pools had 6–7, and the
//! Lieux page picked the first pool by itself. Now a search without a pool
//! covers every pool, every answer says which pools it searched and how the
//! picks are ordered, and the order is the one it states.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::venue_search::{SearchForm, SearchResults, VenuePick};
use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::Value;
use server::search::SearchService;
use sqlx::PgPool;
use support::app::{TestApp, PASSWORD, TEAM};

const THE_MESSAGE: &str = "trouve 4 lieux pour 60 personnes en théâtre dans le 8e";

/// The demo as `maxy seed` makes it (3,000 venues, seed 42): the data the
/// user searched.
async fn seed_the_demo(db: &PgPool) {
    let options = server::demo::SeedOptions {
        seed: 42,
        members: 3000,
        progress: false,
    };
    server::demo::seed(db, &options).await.expect("seed");
}

/// Every venue embedded, as the demo's job workers leave it (by the test
/// embedder: one vector for every text, so no mood word decides).
async fn embed_every_venue(db: &PgPool) {
    let url = format!("http://{}/v1", support::fake_embedding_server().await);
    let config = server::config::Config::from_source(&server::config::Env::from_pairs([(
        "MAXY_EMBEDDING_URL",
        url.as_str(),
    )]))
    .unwrap();
    let embedders = server::embeddings::Embedders::from_settings(&config.embeddings).unwrap();
    let (_stop_tx, stop) = tokio::sync::watch::channel(false);
    let options = server::venue_embeddings::backfill::BackfillOptions {
        batch: 256,
        ..Default::default()
    };
    let (_, outcome) = server::venue_embeddings::backfill::backfill(
        db,
        embedders.venues.as_ref(),
        &options,
        &stop,
    )
    .await;
    outcome.unwrap();
}

async fn pool_names(db: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT name FROM pools ORDER BY name")
        .fetch_all(db)
        .await
        .unwrap()
}

/// The pool of each venue code, for the codes given.
async fn pools_of(db: &PgPool, codes: &[String]) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT DISTINCT p.name FROM members m JOIN pools p ON p.id = m.pool_id
          WHERE m.code = ANY($1) ORDER BY p.name",
    )
    .bind(codes)
    .fetch_all(db)
    .await
    .unwrap()
}

/// The venues that pass the message's hard criteria, per pool (name, count).
async fn matching_per_pool(db: &PgPool) -> Vec<(String, i64)> {
    sqlx::query_as(
        "SELECT p.name, count(*) FROM member_search s JOIN pools p ON p.id = s.pool_id
          WHERE s.postal_code = '75008' AND s.cap_theatre >= 60
          GROUP BY p.name ORDER BY p.name",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

/// The assistant's answer to one message, offline (the planner with the
/// real tools), as the chat page reads it.
async fn ask(app: &TestApp, session: &str, text: &str) -> String {
    let reply = app
        .post_form("/api/chat/send", &[("text", text)], Some(session))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let response = reqwest::Client::new()
        .get(app.url(&format!(
            "/api/chat/conversations/{conversation}/events?after=0"
        )))
        .header("cookie", app.cookie(session))
        .timeout(std::time::Duration::from_secs(60))
        .send()
        .await
        .expect("events");
    let mut stream = response.bytes_stream().eventsource();
    let mut answer = String::new();
    while let Some(event) = stream.next().await {
        let event = event.expect("sse");
        if event.event == "idle" {
            break;
        }
        let json: Value = serde_json::from_str(&event.data).expect("json");
        if json["event"]["type"] == "text_delta" {
            answer.push_str(json["event"]["text"].as_str().unwrap_or(""));
        }
    }
    answer
}

/// The venue codes an answer lists (« - Nom (#233, Paris 75008) — … »).
fn codes_in(answer: &str) -> Vec<String> {
    answer
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .filter_map(|l| l.split_once(" (#"))
        .filter_map(|(_, rest)| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty()).then(|| format!("#{digits}"))
        })
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_chat_searches_every_pool_and_says_which(db: PgPool) {
    seed_the_demo(&db).await;
    embed_every_venue(&db).await;
    let per_pool = matching_per_pool(&db).await;
    let pools_with_matches = per_pool.iter().filter(|(_, n)| *n > 0).count();
    assert!(
        pools_with_matches >= 2,
        "the demo has matches in several pools: {per_pool:?}"
    );
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    let answer = ask(&app, &team, THE_MESSAGE).await;
    // Shown with --nocapture: the answer as the user reads it.
    eprintln!("{answer}");

    let names = pool_names(&app.db).await;
    assert!(
        answer.contains(&format!(
            "Cherché dans tous les pools ({}) : {}.",
            names.len(),
            names.join(", ")
        )),
        "the answer names every pool searched:\n{answer}"
    );
    assert!(
        answer.contains("Ordre : dans chaque groupe, "),
        "the answer says how the venues are ordered:\n{answer}"
    );
    let codes = codes_in(&answer);
    assert!(
        codes.len() > 1,
        "more than the one Châteaux venue:\n{answer}"
    );
    let spanned = pools_of(&app.db, &codes).await;
    assert!(
        spanned.len() >= 2,
        "the picks come from several pools ({spanned:?}):\n{answer}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_pool_the_caller_names_is_the_one_searched_and_said(db: PgPool) {
    seed_the_demo(&db).await;
    let search = service(&db);
    let r = search
        .search(
            None,
            &form("hotels", "pour 60 personnes en théâtre dans le 8e"),
        )
        .await
        .unwrap();
    assert_eq!(r.pools.sentence(), "Cherché dans le pool Hôtels.");
    let codes: Vec<String> = picks(&r).iter().map(|p| p.code.clone()).collect();
    assert!(!codes.is_empty());
    assert_eq!(pools_of(&db, &codes).await, ["Hôtels"]);
}

fn service(db: &PgPool) -> SearchService {
    SearchService {
        read_db: None,
        db: db.clone(),
        // Without vectors: the ranking is the deterministic score.
        embedder: None,
        llm: std::sync::Arc::new(server::llm::OfflineLlm),
    }
}

fn form(pool: &str, text: &str) -> SearchForm {
    SearchForm {
        pool: pool.into(),
        text: text.into(),
        ..SearchForm::default()
    }
}

fn picks(r: &SearchResults) -> Vec<&VenuePick> {
    r.recommended.iter().chain(&r.compatible).collect()
}

/// Each tier in the order `key` says (non-increasing / non-decreasing is
/// the caller's `in_order`).
fn assert_each_tier(
    r: &SearchResults,
    key: impl Fn(&VenuePick) -> f64,
    in_order: impl Fn(f64, f64) -> bool,
) {
    for tier in [&r.recommended, &r.compatible] {
        let values: Vec<f64> = tier.iter().map(&key).collect();
        assert!(
            values.windows(2).all(|w| in_order(w[0], w[1])),
            "{values:?} is not in the stated order: {}",
            r.order
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_lieux_search_without_a_pool_covers_every_pool_by_score(db: PgPool) {
    seed_the_demo(&db).await;
    let r = service(&db)
        .search(None, &form("", "pour 60 personnes en théâtre dans le 8e"))
        .await
        .unwrap();
    let names = pool_names(&db).await;
    assert!(r.pools.all);
    assert_eq!(r.pools.names, names);
    let codes: Vec<String> = picks(&r).iter().map(|p| p.code.clone()).collect();
    assert!(
        pools_of(&db, &codes).await.len() >= 2,
        "{codes:?} from one pool"
    );
    assert_eq!(
        r.order,
        "Ordre : dans chaque groupe, du plus adapté au moins adapté (ambiance, jauge, distance, historique). \
         Distances depuis le centre de Paris 8e."
    );
    assert_each_tier(&r, |p| p.score, |a, b| a >= b);
}

#[sqlx::test(migrations = "../migrations")]
async fn classes_par_distance_is_sorted_by_distance(db: PgPool) {
    seed_the_demo(&db).await;
    for pool in ["", "restaurants"] {
        let r = service(&db)
            .search(
                None,
                &form(
                    pool,
                    "près de la gare de Lyon pour 40 personnes, ambiance festive",
                ),
            )
            .await
            .unwrap();
        assert!(
            r.understood
                .iter()
                .any(|n| n.contains("(classés par distance)")),
            "{:?}",
            r.understood
        );
        assert_eq!(
            r.order,
            "Ordre : dans chaque groupe, du plus proche au plus loin de la gare de Lyon."
        );
        assert!(picks(&r).len() > 2, "{pool:?}: {:?}", r.notices);
        assert_each_tier(
            &r,
            |p| p.distance_km.unwrap_or(f64::INFINITY),
            |a, b| a <= b,
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_lieux_page_opened_bare_picks_no_pool_and_searches_all_of_them(db: PgPool) {
    seed_the_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    let bare = app.get("/lieux", Some(&team)).await;
    assert_eq!(bare.status, StatusCode::OK);
    assert!(
        bare.body.contains(r#"<option value="" selected"#) && bare.body.contains("Tous les pools"),
        "« Tous les pools » is the default"
    );
    assert!(
        !bare.body.contains(r#"data-testid="venue-results""#),
        "nothing searched before the form is sent"
    );

    let sent = app
        .get(
            "/lieux?pool=&q=pour+60+personnes+en+th%C3%A9%C3%A2tre+dans+le+8e",
            Some(&team),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK);
    assert!(
        sent.body.contains("Cherché dans tous les pools (5)"),
        "the page says which pools were searched"
    );
    assert!(sent.body.contains(r#"data-testid="search-order""#));
    assert!(sent.body.contains(r#"data-testid="venue-pick""#));
}
