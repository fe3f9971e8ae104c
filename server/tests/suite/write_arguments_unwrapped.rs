//! A model may copy a wrapped field of a tool's answer into a write's
//! arguments (a memo, a knowledge entry, a pick's reason). The card a person
//! approves and what is stored — then shown on the pages, the organizer's
//! included — hold the text as written, never the model's wrapper.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use serde_json::json;
use server::llm::external::wrap;
use server::search::SearchService;
use server::tools::{Mode, ToolContext, Toolbox};
use sqlx::PgPool;
use std::sync::Arc;
use support::app::seed_demo;

fn context(db: &PgPool) -> ToolContext {
    ToolContext {
        db: db.clone(),
        user_id: 1,
        conversation_id: 1,
        request_id: None,
        search: Arc::new(SearchService {
            read_db: None,
            db: db.clone(),
            embedder: None,
            llm: Arc::new(server::llm::OfflineLlm),
        }),
        embedder: None,
        memory: None,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn wrapped_text_copied_into_a_write_is_proposed_as_written(db: PgPool) {
    seed_demo(&db).await;
    let request: i64 = sqlx::query_scalar("SELECT id FROM requests ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let code: String =
        sqlx::query_scalar("SELECT code FROM members WHERE status = 'active' ORDER BY id LIMIT 1")
            .fetch_one(&db)
            .await
            .unwrap();
    let ctx = context(&db);
    let calls = [
        (
            "update_request",
            json!({"request_id": request,
                   "team_memo": wrap("memo", "Client <VIP> & fidèle"),
                   "event_type": wrap("event_type", "Soirée")}),
            "Client <VIP> & fidèle",
        ),
        (
            "add_knowledge_entry",
            json!({"member_code": code,
                   "title": wrap("knowledge", "Accès"),
                   "content": format!("D'après l'e-mail : {}", wrap("email_body", "entrée par la cour < 2 m"))}),
            "D'après l'e-mail : entrée par la cour < 2 m",
        ),
    ];
    for (name, input, expected) in calls {
        let proposal = Toolbox::propose(&ctx, Mode::Chat, name, &input)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let arguments = proposal.arguments.to_string();
        let card = serde_json::to_string(&proposal.body).unwrap();
        for shown in [&arguments, &card, &proposal.title] {
            assert!(
                !shown.contains("external_content") && !shown.contains("&lt;"),
                "{name}: {shown}"
            );
        }
        assert!(arguments.contains(expected), "{name}: {arguments}");
        assert!(card.contains(expected), "{name}: {card}");
    }
}
