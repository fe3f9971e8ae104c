//! The memory search with a model configured (issue 27): the judge's
//! reading replaces the ranking — what it says answers is « correspond », in
//! its order, and nothing else is shown; « none » sends the search to the
//! latest memories, said as such; an unusable answer leaves the ranking as
//! it was. The model is the real Anthropic client against a scripted fake.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::memory_fakes as fakes;
use crate::support;

use fakes::Bow;
use server::memory::{
    floor, Confidence, MemoryOrigin, MemoryStore, NewMemory, SearchAnswer, SearchSource,
};
use sqlx::PgPool;
use support::anthropic::{FakeAnthropic, Reply};

const NOTES: [(&str, &str); 3] = [
    (
        "Traiteur",
        "le traiteur de la péniche Éole sert un menu sans viande",
    ),
    ("Péniche", "la péniche Éole accueille 80 personnes assises"),
    ("Vétérinaire", "vaccin du chat samedi matin"),
];
const QUESTION: &str = "la péniche Éole menu sans viande traiteur";

async fn setup(db: &PgPool) -> (MemoryStore, i64) {
    let me: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('c@reciprok.fr', 'C') RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let tuning = server::memory::ranking::Tuning {
        keep_floor: 0.3,
        ..floor::UNCALIBRATED
    };
    let store = MemoryStore::new(db.clone(), Bow::shared(), tuning);
    for (title, content) in NOTES {
        let new = NewMemory {
            title: title.into(),
            content: content.into(),
            origin: MemoryOrigin::Manual,
            conversation_id: None,
        };
        store.save_memory(me, new).await.unwrap();
    }
    (store, me)
}

async fn judged_by(db: &PgPool, reply: &str) -> (SearchAnswer, SearchAnswer, FakeAnthropic) {
    let (store, me) = setup(db).await;
    let ranked = store.search(me, QUESTION, 5).await.unwrap();
    let fake = FakeAnthropic::start(vec![Reply::Text(reply.into())]).await;
    let judged = store
        .clone()
        .with_judge(fake.provider("5000"))
        .search(me, QUESTION, 5)
        .await
        .unwrap();
    (ranked, judged, fake)
}

fn titles(a: &SearchAnswer) -> Vec<(String, Confidence)> {
    a.hits
        .iter()
        .map(|h| (h.title.clone(), h.confidence))
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn what_the_model_says_answers_is_all_that_is_shown_in_its_order(db: PgPool) {
    let (ranked, judged, fake) = judged_by(&db, "{\"answers\": [2]}").await;
    assert!(ranked.hits.len() >= 2, "{:?}", titles(&ranked));
    assert_eq!(fake.seen().len(), 1);
    // The model was shown the ranking's order; its second is the answer.
    assert_eq!(
        titles(&judged),
        [(ranked.hits[1].title.clone(), Confidence::Matches)]
    );
    assert_eq!(judged.source, SearchSource::Vector);
}

#[sqlx::test(migrations = "../migrations")]
async fn none_answering_means_the_latest_said_as_such(db: PgPool) {
    let (_, judged, _) = judged_by(&db, "{\"answers\": []}").await;
    assert_eq!(judged.source, SearchSource::Recency);
    assert_eq!(judged.hits.len(), 3);
    assert!(judged
        .hits
        .iter()
        .all(|h| h.confidence == Confidence::Recent));
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unusable_answer_leaves_the_ranking_as_it_was(db: PgPool) {
    let (ranked, judged, _) = judged_by(&db, "la deuxième, je crois").await;
    assert_eq!(titles(&judged), titles(&ranked));
    assert_eq!(judged.source, ranked.source);
}
