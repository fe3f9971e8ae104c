//! Catalogue proposals as the team hit them (issue 25), offline, on the
//! demo data: « Qualifie cette demande » on a request whose draft is full
//! proposed an impossible add (8 venues onto 4 + 4) and its approval
//! failed; after « Refuser » with « Trop loin du 14e… je veux rester à
//! Montparnasse », asking again proposed the same 8 venues.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use serde_json::Value;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

async fn send(
    app: &TestApp,
    session: &str,
    conversation: Option<i64>,
    request: i64,
    text: &str,
) -> i64 {
    let request = request.to_string();
    let conversation = conversation.map(|c| c.to_string());
    let mut fields = vec![("text", text), ("request_id", request.as_str())];
    if let Some(c) = conversation.as_deref() {
        fields.push(("conversation_id", c));
    }
    let reply = app
        .post_form("/api/chat/send", &fields, Some(session))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()["conversation_id"].as_i64().unwrap()
}

/// The SSE log after `after`, until `idle`: (seq, event).
async fn follow(app: &TestApp, session: &str, conversation: i64, after: i64) -> Vec<(i64, Value)> {
    app.events(session, conversation, after).await
}

fn card(events: &[(i64, Value)]) -> Option<Value> {
    events
        .iter()
        .find(|(_, e)| e["type"] == "approval_requested")
        .map(|(_, e)| e.clone())
}

/// Everything the assistant said in these events.
fn said(events: &[(i64, Value)]) -> String {
    events
        .iter()
        .filter_map(|(_, e)| e["text"].as_str().or_else(|| e["delta"].as_str()))
        .collect::<Vec<_>>()
        .join("")
}

fn codes(card: &Value) -> Vec<String> {
    card["body"]["picks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["member_code"].as_str().unwrap().to_string())
        .collect()
}

/// A hotels request in Paris 14e (8 km), its draft full with 4 + 4 venues
/// of its pool picked far from there.
async fn full_draft(db: &PgPool) -> i64 {
    let request: i64 = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants,
                               configurations, area, center_lat, center_lng, radius_km)
         SELECT 'T-PLEIN', id, 'Cocktail de fin d''année pour 40 personnes', 'cocktail', 40,
                '{cocktail,banquet}', '8 km autour de Paris 14e', 48.8331, 2.3264, 8
           FROM pools WHERE slug = 'hotels'
         RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let catalogue: i64 = sqlx::query_scalar(
        "INSERT INTO catalogues (request_id, kind, status) VALUES ($1, 'standard', 'draft') RETURNING id",
    )
    .bind(request)
    .fetch_one(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, explanation, added_by)
         SELECT $1, id, CASE WHEN n <= 4 THEN 'recommended' ELSE 'compatible' END,
                (n - 1) % 4, 'Choisi par l''équipe.', 'team'
           FROM (SELECT m.id, row_number() OVER (
                          ORDER BY earth_distance(ll_to_earth(m.lat, m.lng),
                                                  ll_to_earth(48.8421, 2.3219)) DESC NULLS LAST, m.id) AS n
                   FROM members m JOIN pools p ON p.id = m.pool_id
                  WHERE p.slug = 'hotels' AND m.status = 'active') v
          WHERE n <= 8",
    )
    .bind(catalogue)
    .execute(db)
    .await
    .unwrap();
    request
}

async fn draft(db: &PgPool, request: i64) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT m.code FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
           JOIN members m ON m.id = p.member_id
          WHERE c.request_id = $1 AND c.status = 'draft' AND c.kind = 'standard' ORDER BY m.code",
    )
    .bind(request)
    .fetch_all(db)
    .await
    .unwrap()
}

async fn decide(app: &TestApp, session: &str, card: &Value, fields: &[(&str, &str)]) -> Value {
    let approval = card["approval_id"].as_i64().unwrap().to_string();
    let mut all = vec![("approval_id", approval.as_str())];
    all.extend_from_slice(fields);
    let reply = app.post_form("/api/chat/decide", &all, Some(session)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_full_draft_gets_a_replacing_card_a_refusal_teaches_and_approving_writes_it(db: PgPool) {
    seed_demo(&db).await;
    let request = full_draft(&db).await;
    let before = draft(&db, request).await;
    assert_eq!(before.len(), 8);
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    // The draft is full: the card says it replaces it, never an impossible add.
    let conversation = send(&app, &team, None, request, "Qualifie cette demande").await;
    let events = follow(&app, &team, conversation, 0).await;
    let first = card(&events).unwrap_or_else(|| panic!("a card: {}", said(&events)));
    let title = first["title"].as_str().unwrap();
    assert!(
        title.starts_with("Remplace les 8 lieux du brouillon"),
        "{title}"
    );
    assert!(!title.contains("recommended"), "{title}");
    let refused = codes(&first);

    // Refused with a reason, then asked again around Montparnasse.
    let decided = decide(
        &app,
        &team,
        &first,
        &[
            ("decision[decision]", "reject"),
            (
                "decision[reason]",
                "Trop loin du 14e… je veux rester à Montparnasse",
            ),
        ],
    )
    .await;
    assert_eq!(decided["status"], "rejected");
    let last = events.last().unwrap().0;
    send(
        &app,
        &team,
        Some(conversation),
        request,
        "Qualifie cette demande en restant autour de Montparnasse",
    )
    .await;
    let events = follow(&app, &team, conversation, last).await;
    let text = said(&events);
    assert!(text.contains("Montparnasse"), "{text}");
    let Some(second) = card(&events) else {
        // Nothing close enough: said, never the refused venues again.
        assert!(text.contains("aucun lieu"), "{text}");
        return;
    };
    let proposed = codes(&second);
    for code in &proposed {
        assert!(!refused.contains(code), "{code} was refused: {proposed:?}");
    }
    // Every proposed venue stays around Montparnasse (3 km).
    let far: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM members
          WHERE code = ANY($1)
            AND earth_distance(ll_to_earth(lat, lng), ll_to_earth(48.8421, 2.3219)) > 3500",
    )
    .bind(&proposed)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(far, 0, "{proposed:?}");

    // Approved: the draft is exactly the card.
    let hash = second["arguments_hash"].as_str().unwrap().to_string();
    let decided = decide(
        &app,
        &team,
        &second,
        &[
            ("decision[decision]", "approve"),
            ("decision[arguments_hash]", &hash),
        ],
    )
    .await;
    assert_eq!(decided["status"], "executed", "{decided}");
    let mut expected = proposed.clone();
    expected.sort();
    assert_eq!(draft(&app.db, request).await, expected);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_search_from_a_request_says_which_and_stays_in_its_zone(db: PgPool) {
    seed_demo(&db).await;
    let request = full_draft(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let conversation = send(
        &app,
        &team,
        None,
        request,
        "Chercher des lieux pour cette demande",
    )
    .await;
    let events = follow(&app, &team, conversation, 0).await;
    let text = said(&events);
    assert!(card(&events).is_none(), "a search proposes nothing: {text}");
    assert!(
        text.contains("Recherche pour la demande T-PLEIN : 40 personnes, cocktail ou banquet, 8 km autour de Paris 14e, réseau Hôtels"),
        "{text}"
    );
    // Every venue found is within the request's 8 km.
    let codes: Vec<String> = text
        .split(|c: char| !(c == '#' || c.is_ascii_digit()))
        .filter(|s| s.len() > 1 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    assert!(!codes.is_empty(), "{text}");
    let far: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM members
          WHERE code = ANY($1)
            AND earth_distance(ll_to_earth(lat, lng), ll_to_earth(48.8331, 2.3264)) > 9000",
    )
    .bind(&codes)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(far, 0, "{codes:?}\n{text}");
}

/// A memo card whose write the database refuses: the card says it failed,
/// Maxy follows with the next step in the conversation, nothing is
/// written, and « Réessayer » writes it once the cause is gone.
#[sqlx::test(migrations = "../migrations")]
async fn a_failed_approval_is_followed_by_maxy_and_can_be_retried(db: PgPool) {
    seed_demo(&db).await;
    let request: i64 = sqlx::query_scalar(
        "SELECT id FROM requests WHERE status = 'qualifying' ORDER BY id LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let conversation = send(
        &app,
        &team,
        None,
        request,
        "Ajoute au mémo : rappeler l'organisateur lundi",
    )
    .await;
    let events = follow(&app, &team, conversation, 0).await;
    let card = card(&events).expect("a memo card");
    assert_eq!(card["tool_name"], "update_request");
    let last = events.last().unwrap().0;
    let memo = "SELECT coalesce(team_memo, '') FROM requests WHERE id = ";
    let memo = format!("{memo}{request}");
    let before: String = sqlx::query_scalar(&memo).fetch_one(&app.db).await.unwrap();

    // The database refuses any memo for now (not a transient error).
    sqlx::raw_sql(
        "ALTER TABLE requests ADD CONSTRAINT no_memo_now CHECK (team_memo IS NULL OR team_memo = '') NOT VALID",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let hash = card["arguments_hash"].as_str().unwrap().to_string();
    let approve = [
        ("decision[decision]", "approve"),
        ("decision[arguments_hash]", hash.as_str()),
    ];
    let decided = decide(&app, &team, &card, &approve).await;
    assert_eq!(decided["status"], "failed", "{decided}");
    let after = follow(&app, &team, conversation, last).await;
    let kinds: Vec<&str> = after
        .iter()
        .map(|(_, e)| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["approval_decided", "notice"], "{after:?}");
    let next = after[1].1["text"].as_str().unwrap();
    assert!(next.contains("rien n'a été enregistré"), "{next}");
    assert!(next.contains("« Réessayer »"), "{next}");
    let unchanged: String = sqlx::query_scalar(&memo).fetch_one(&app.db).await.unwrap();
    assert_eq!(unchanged, before, "a failed card wrote nothing");

    // The cause gone, the same card goes through.
    sqlx::raw_sql("ALTER TABLE requests DROP CONSTRAINT no_memo_now")
        .execute(&app.db)
        .await
        .unwrap();
    let decided = decide(&app, &team, &card, &approve).await;
    assert_eq!(decided["status"], "executed", "{decided}");
    let written: String = sqlx::query_scalar(&memo).fetch_one(&app.db).await.unwrap();
    assert!(
        written.contains("rappeler l'organisateur lundi"),
        "{written}"
    );
}
