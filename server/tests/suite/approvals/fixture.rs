//! A small world for the approval tests: two pools, venues with rooms, one
//! request, two users with their conversations and an assistant message each.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
use server::approvals::{self, PendingApproval};
use server::auth::tokens::SigningKey;
use server::llm::OfflineLlm;
use server::search::SearchService;
use server::tools::{write, Mode, Proposal, ToolContext, ToolError};
use sqlx::PgPool;
use std::sync::Arc;

pub const REFERENCE: &str = "D-2026-0042";

pub struct World {
    pub request_id: i64,
    pub user: i64,
    pub other_user: i64,
    pub conversation: i64,
    pub message: i64,
    pub training_conversation: i64,
    pub training_message: i64,
    pub other_conversation: i64,
    pub other_message: i64,
}

async fn id(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

/// Venues `#101`…`#112` active in Paris (one room « Grand salon <code> »:
/// 200 in cocktail, 120 in banquet), `#101` also has « Petit salon » (50 in
/// cocktail); `#200` inactive in Paris; `#300` active in Lyon.
pub async fn plant(db: &PgPool) -> World {
    let paris = id(
        db,
        "INSERT INTO pools (slug, name) VALUES ('paris', 'Paris') RETURNING id",
    )
    .await;
    let lyon = id(
        db,
        "INSERT INTO pools (slug, name) VALUES ('lyon', 'Lyon') RETURNING id",
    )
    .await;
    let mut venues: Vec<(String, i64, &str, &str)> = (101..=112)
        .map(|n| (format!("#{n}"), paris, "active", "Paris"))
        .collect();
    venues.push(("#200".into(), paris, "inactive", "Paris"));
    venues.push(("#300".into(), lyon, "active", "Lyon"));
    for (code, pool, status, city) in venues {
        let member: i64 = sqlx::query_scalar(
            "INSERT INTO members (code, name, pool_id, status, city, postal_code)
             VALUES ($1, $2, $3, $4, $5, '75008') RETURNING id",
        )
        .bind(&code)
        .bind(format!("Maison {code}"))
        .bind(pool)
        .bind(status)
        .bind(city)
        .fetch_one(db)
        .await
        .unwrap();
        let room: i64 =
            sqlx::query_scalar("INSERT INTO rooms (member_id, name) VALUES ($1, $2) RETURNING id")
                .bind(member)
                .bind(format!("Grand salon {code}"))
                .fetch_one(db)
                .await
                .unwrap();
        sqlx::query(
            "INSERT INTO room_capacities (room_id, configuration, max_capacity)
             VALUES ($1, 'cocktail', 200), ($1, 'banquet', 120)",
        )
        .bind(room)
        .execute(db)
        .await
        .unwrap();
        if code == "#101" {
            let small: i64 = sqlx::query_scalar(
                "INSERT INTO rooms (member_id, name) VALUES ($1, 'Petit salon') RETURNING id",
            )
            .bind(member)
            .fetch_one(db)
            .await
            .unwrap();
            sqlx::query(
                "INSERT INTO room_capacities (room_id, configuration, max_capacity)
                 VALUES ($1, 'cocktail', 50)",
            )
            .bind(small)
            .execute(db)
            .await
            .unwrap();
        }
    }
    let request_id: i64 = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants,
                               configurations, event_start_date, status)
         VALUES ($1, $2, 'Soirée de lancement', 'soiree', 180, '{cocktail}', '2026-06-12', 'new')
         RETURNING id",
    )
    .bind(REFERENCE)
    .bind(paris)
    .fetch_one(db)
    .await
    .unwrap();
    let user = id(db, "INSERT INTO users (email, display_name) VALUES ('camille@reciprok.fr', 'Camille') RETURNING id").await;
    let other_user = id(
        db,
        "INSERT INTO users (email, display_name) VALUES ('eve@reciprok.fr', 'Ève') RETURNING id",
    )
    .await;
    let conversation = |user: i64, mode: &'static str| {
        let db = db.clone();
        async move {
            let conversation: i64 = sqlx::query_scalar(
                "INSERT INTO ai_conversations (user_id, request_id, mode) VALUES ($1, $2, $3) RETURNING id",
            )
            .bind(user)
            .bind(request_id)
            .bind(mode)
            .fetch_one(&db)
            .await
            .unwrap();
            let message =
                server::db::ai_messages::append(&db, conversation, "assistant", &[], None)
                    .await
                    .unwrap()
                    .id;
            (conversation, message)
        }
    };
    let (conversation_id, message) = conversation(user, "chat").await;
    let (training_conversation, training_message) = conversation(user, "training").await;
    let (other_conversation, other_message) = conversation(other_user, "chat").await;
    World {
        request_id,
        user,
        other_user,
        conversation: conversation_id,
        message,
        training_conversation,
        training_message,
        other_conversation,
        other_message,
    }
}

pub fn key() -> SigningKey {
    SigningKey::new(b"approvals-test-key-long-enough-0123456789".to_vec())
}

pub fn ctx(db: &PgPool, w: &World) -> ToolContext {
    ToolContext {
        db: db.clone(),
        user_id: w.user,
        conversation_id: w.conversation,
        request_id: Some(w.request_id),
        search: Arc::new(SearchService {
            read_db: None,
            db: db.clone(),
            embedder: None,
            llm: Arc::new(OfflineLlm),
        }),
        embedder: None,
        memory: None,
    }
}

pub async fn propose(
    db: &PgPool,
    w: &World,
    mode: Mode,
    name: &str,
    input: serde_json::Value,
) -> Result<Proposal, ToolError> {
    write::propose(&ctx(db, w), mode, name, &input).await
}

/// Proposes (must pass) and stores the call in `conversation` as a card.
pub async fn pending(
    db: &PgPool,
    conversation: i64,
    message: i64,
    call: &str,
    name: &str,
    proposal: &Proposal,
) -> PendingApproval {
    approvals::create(
        db,
        conversation,
        message,
        call,
        name,
        &proposal.arguments,
        approvals::DEFAULT_TTL,
    )
    .await
    .unwrap()
}

pub async fn room(db: &PgPool, name: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM rooms WHERE name = $1")
        .bind(name)
        .fetch_one(db)
        .await
        .unwrap()
}

pub async fn count(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

/// Rows every write could have added: the proof that nothing was written.
pub async fn written(db: &PgPool) -> [i64; 6] {
    [
        count(db, "SELECT count(*) FROM catalogues").await,
        count(db, "SELECT count(*) FROM catalogue_picks").await,
        count(db, "SELECT count(*) FROM availability_checks").await,
        count(db, "SELECT count(*) FROM training_sessions").await,
        count(db, "SELECT count(*) FROM knowledge_entries").await,
        count(db, "SELECT count(*) FROM magic_links").await,
    ]
}

/// The request's columns a write may change, as text.
pub async fn request_state(db: &PgPool, id: i64) -> String {
    sqlx::query_scalar(
        "SELECT concat_ws('|', status, team_memo, search_hints, participants, event_type,
                          configurations::text, postal_codes::text)
           FROM requests WHERE id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}
