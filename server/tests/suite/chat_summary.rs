//! A long conversation with a model configured: what the history bound cuts
//! is summarised by the model (`summarize` calls, recorded), rolled forward
//! rather than rewritten every turn, and carried in the system prompt,
//! wrapped; when the summary call fails, the extractive summary stands in
//! and the turn goes on.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use serde_json::Value;
use server::bench::fake_model::{Answer, FakeModel};
use sqlx::PgPool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};
use support::busy_pool::{pool_of_one, NeedsTheDatabase};

const SUMMARY: &str = "- résumé du modèle : l'équipe cherche une péniche pour 80 personnes";

/// The system prompt of a request body, whatever its shape (string or blocks).
fn system_of(body: &Value) -> String {
    match &body["system"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn is_summary_call(body: &Value) -> bool {
    system_of(body).starts_with("Tu résumes")
}

/// Sends a message and waits for its turn to end.
async fn turn(app: &TestApp, session: &str, conversation: Option<i64>, text: &str) -> i64 {
    let id = conversation.map(|c| c.to_string());
    let mut fields = vec![("text", text)];
    if let Some(c) = id.as_deref() {
        fields.push(("conversation_id", c));
    }
    app.send_and_wait(session, &fields).await.0
}

#[sqlx::test(migrations = "../migrations")]
async fn the_cut_history_is_summarised_by_the_model_and_rolled_forward(db: PgPool) {
    seed_demo(&db).await;
    let fail_summaries = Arc::new(AtomicBool::new(false));
    let failing = fail_summaries.clone();
    let script: server::bench::fake_model::Script = Arc::new(move |body: &Value| {
        if is_summary_call(body) {
            if failing.load(Ordering::SeqCst) {
                return Answer::Text(String::new());
            }
            return Answer::Text(SUMMARY.into());
        }
        Answer::Text("Bien noté.".into())
    });
    let fake = FakeModel::start(script, Duration::ZERO, 50).await.unwrap();
    let app = TestApp::on_model(
        db.clone(),
        &fake.base_url(),
        &[("MAXY_CHAT_HISTORY_MESSAGES", "4")],
    )
    .await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    // Turns 1–2 fit in the bound: no summary, no summary call.
    let conversation = turn(&app, &team, None, "Premier message : une péniche pour 80.").await;
    turn(&app, &team, Some(conversation), "Deuxième message.").await;
    assert!(!fake.seen().iter().any(is_summary_call));

    // Turn 3 cuts the first exchange: one summary call, and the chat call
    // carries the summary, wrapped as data.
    turn(&app, &team, Some(conversation), "Troisième message.").await;
    let seen = fake.seen();
    let summaries: Vec<&Value> = seen.iter().filter(|b| is_summary_call(b)).collect();
    assert_eq!(summaries.len(), 1);
    let asked = summaries[0]["messages"][0]["content"].to_string();
    assert!(asked.contains("Premier message"), "{asked}");
    assert!(
        asked.contains("external_content"),
        "the transcript is wrapped: {asked}"
    );
    let chat = seen.iter().rev().find(|b| !is_summary_call(b)).unwrap();
    let system = system_of(chat);
    assert!(system.contains(SUMMARY), "{system}");
    let at = system.find(SUMMARY).unwrap();
    assert!(
        system[..at].contains("<external_content type=\"conversation_summary\">"),
        "{system}"
    );

    // The next turns cut two messages each: the summary is kept and only
    // rewritten once ten more messages are cut (turn 8), folding the old one.
    for n in 4..=7 {
        turn(&app, &team, Some(conversation), &format!("Message {n}.")).await;
    }
    assert_eq!(fake.seen().iter().filter(|b| is_summary_call(b)).count(), 1);
    let chat = fake
        .seen()
        .into_iter()
        .rev()
        .find(|b| !is_summary_call(b))
        .unwrap();
    let system = system_of(&chat);
    assert!(system.contains(SUMMARY), "kept between rewrites");
    assert!(
        system.contains("Message 4"),
        "what was cut since is added: {system}"
    );
    turn(&app, &team, Some(conversation), "Message 8.").await;
    let seen = fake.seen();
    let summaries: Vec<&Value> = seen.iter().filter(|b| is_summary_call(b)).collect();
    assert_eq!(summaries.len(), 2, "rewritten after ten more cut messages");
    let asked = summaries[1]["messages"][0]["content"].to_string();
    assert!(
        asked.contains("résumé du modèle"),
        "the old summary is folded in: {asked}"
    );
    assert!(
        !asked.contains("Premier message"),
        "not re-read from the start"
    );

    // Every summary call is recorded as a `summarize` call with its cost.
    assert_eq!(
        app.count("SELECT count(*) FROM llm_calls WHERE task = 'summarize' AND status = 'ok'")
            .await,
        2
    );

    // A failing summary (an empty answer) falls back to the extractive one
    // in a fresh conversation, and the turn still ends well.
    fail_summaries.store(true, Ordering::SeqCst);
    let other = turn(&app, &team, None, "Autre conversation : un rooftop.").await;
    turn(&app, &team, Some(other), "Suite.").await;
    turn(&app, &team, Some(other), "Encore.").await;
    let chat = fake
        .seen()
        .into_iter()
        .rev()
        .find(|b| !is_summary_call(b))
        .unwrap();
    let system = system_of(&chat);
    assert!(system.contains("demandé : Autre conversation"), "{system}");
    assert!(!system.contains(SUMMARY));
}

#[sqlx::test(migrations = "../migrations")]
async fn no_connection_is_held_while_the_model_writes_the_summary(db: PgPool) {
    use server::agent::cut_summary::{of_cut, CutSummaries};
    use server::conversation_content::Block;
    seed_demo(&db).await;
    let user: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(&db)
        .await
        .unwrap();
    let conversation = server::db::ai_conversations::create(&db, user, None, "Longue")
        .await
        .unwrap();
    for (role, text) in [
        ("user", "Une péniche pour 80."),
        ("assistant", "Bien noté."),
        ("user", "Et pour 100 ?"),
    ] {
        let content = [Block::Text { text: text.into() }];
        server::db::ai_messages::append(&db, conversation.id, role, &content, None)
            .await
            .unwrap();
    }
    let one = pool_of_one(&db).await;
    let model = NeedsTheDatabase::new(one.clone(), SUMMARY);
    let summary = of_cut(
        &one,
        &CutSummaries::default(),
        Some(&model),
        conversation.id,
        2,
    )
    .await
    .unwrap();
    assert_eq!(summary.as_deref(), Some(SUMMARY));
    assert!(
        model.got_a_connection(),
        "the summary's read had given its connection back before the model was called"
    );
}
