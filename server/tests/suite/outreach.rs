//! Outreach: a catalogue sent to its organizer (training, empty and archived
//! ones refused), the organizer's page with the pinned room and its
//! capacity, favourites and a comment the team sees, refused links, and
//! availability checks sent in bulk, answered once (conditions required when
//! the answer has some), feeding the reactivity signals, swept when overdue.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::errors::AppError;
use app::outreach::Outreach;
use reqwest::StatusCode;
use server::auth::tokens::SigningKey;
use server::outreach::OutreachService;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const REFUSED: &str = "Ce lien n'est pas valide ou a expiré.";

fn service(db: &PgPool) -> OutreachService {
    OutreachService {
        db: db.clone(),
        key: SigningKey::new(support::SECRET_KEY.as_bytes().to_vec()),
        outbox: Default::default(),
    }
}

async fn team_user(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(db)
        .await
        .unwrap()
}

/// A pinned room: its venue, name, and capacity in the request's configuration.
#[derive(Debug, sqlx::FromRow)]
struct Room {
    room_id: i64,
    member_id: i64,
    name: String,
    configuration: String,
    max_capacity: i32,
}

struct Fixture {
    request_id: i64,
    catalogue_id: i64,
    pick_ids: Vec<i64>,
    member_ids: Vec<i64>,
    room: Room,
}

/// A new catalogue of `kind` and `status` with `picks` venues (the first one
/// with its room pinned, the request asking for that room's configuration),
/// on the `nth` request that has no draft of that kind.
async fn fixture(db: &PgPool, nth: i64, kind: &str, status: &str, picks: usize) -> Fixture {
    let request_id: i64 = sqlx::query_scalar(
        "SELECT r.id FROM requests r
          WHERE NOT EXISTS (SELECT 1 FROM catalogues c
                             WHERE c.request_id = r.id AND c.kind = $1 AND c.status = 'draft')
          ORDER BY r.id OFFSET $2 LIMIT 1",
    )
    .bind(kind)
    .bind(nth)
    .fetch_one(db)
    .await
    .unwrap();
    let rooms: Vec<Room> = sqlx::query_as(
        "SELECT DISTINCT ON (rc.member_id) rc.room_id, rc.member_id, r.name, rc.configuration, rc.max_capacity
           FROM room_capacities rc JOIN rooms r ON r.id = rc.room_id
          ORDER BY rc.member_id, rc.max_capacity DESC
          OFFSET $1 LIMIT 4",
    )
    .bind(nth * 4)
    .fetch_all(db)
    .await
    .unwrap();
    assert_eq!(rooms.len(), 4, "the demo has rooms");
    // Another, smaller configuration of the same room must not be the one shown.
    sqlx::query("UPDATE requests SET configurations = ARRAY[$2] WHERE id = $1")
        .bind(request_id)
        .bind(&rooms[0].configuration)
        .execute(db)
        .await
        .unwrap();
    let sent_at = if status == "sent" { "now()" } else { "NULL" };
    let catalogue_id: i64 = sqlx::query_scalar(&format!(
        "INSERT INTO catalogues (request_id, kind, status, sent_at, archived_at)
         VALUES ($1, $2, $3, {sent_at}, CASE WHEN $3 = 'archived' THEN now() END) RETURNING id"
    ))
    .bind(request_id)
    .bind(kind)
    .bind(status)
    .fetch_one(db)
    .await
    .unwrap();
    let mut pick_ids = Vec::new();
    for (i, room) in rooms.iter().take(picks).enumerate() {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, explanation, room_id, added_by)
             VALUES ($1, $2, $3, $4, 'Une raison en une ligne.', $5, 'team') RETURNING id",
        )
        .bind(catalogue_id)
        .bind(room.member_id)
        .bind(if i < 2 { "recommended" } else { "compatible" })
        .bind(i as i32)
        .bind((i == 0).then_some(room.room_id))
        .fetch_one(db)
        .await
        .unwrap();
        pick_ids.push(id);
    }
    let member_ids = rooms.iter().map(|r| r.member_id).collect();
    let room = rooms.into_iter().next().unwrap();
    Fixture {
        request_id,
        catalogue_id,
        pick_ids,
        member_ids,
        room,
    }
}

async fn links_of(db: &PgPool, catalogue_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM magic_links WHERE purpose = 'catalogue' AND subject_id = $1",
    )
    .bind(catalogue_id)
    .fetch_one(db)
    .await
    .unwrap()
}

async fn status_of(db: &PgPool, catalogue_id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM catalogues WHERE id = $1")
        .bind(catalogue_id)
        .fetch_one(db)
        .await
        .unwrap()
}

fn token_of(path: &str) -> String {
    path.rsplit('/').next().unwrap().to_string()
}

#[sqlx::test(migrations = "../migrations")]
async fn training_empty_and_archived_catalogues_are_never_sent(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let outreach = service(&db);

    let training = fixture(&db, 0, "training", "draft", 3).await;
    let err = outreach
        .send_catalogue(user, training.catalogue_id)
        .await
        .unwrap_err();
    assert!(
        matches!(err, AppError::Invalid(ref m) if m.contains("entraînement")),
        "{err:?}"
    );
    // The database refuses it too, whoever writes.
    let direct =
        sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1")
            .bind(training.catalogue_id)
            .execute(&db)
            .await;
    assert!(direct.is_err(), "the CHECK holds");

    let empty = fixture(&db, 1, "standard", "draft", 0).await;
    let err = outreach
        .send_catalogue(user, empty.catalogue_id)
        .await
        .unwrap_err();
    assert!(
        matches!(err, AppError::Invalid(ref m) if m.contains("vide")),
        "{err:?}"
    );

    let archived = fixture(&db, 2, "standard", "archived", 2).await;
    let err = outreach
        .send_catalogue(user, archived.catalogue_id)
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::Conflict(_)), "{err:?}");

    let err = outreach.send_catalogue(user, i64::MAX).await.unwrap_err();
    assert!(matches!(err, AppError::NotFound), "{err:?}");

    for f in [&training, &empty, &archived] {
        assert_eq!(links_of(&db, f.catalogue_id).await, 0, "no link issued");
    }
    assert_eq!(status_of(&db, training.catalogue_id).await, "draft");
    assert_eq!(status_of(&db, empty.catalogue_id).await, "draft");
    assert_eq!(status_of(&db, archived.catalogue_id).await, "archived");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_sent_catalogue_opens_through_its_link_with_the_pinned_room(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let f = fixture(&db, 0, "standard", "draft", 3).await;
    sqlx::query("UPDATE requests SET status = 'qualifying' WHERE id = $1")
        .bind(f.request_id)
        .execute(&db)
        .await
        .unwrap();
    let sent = service(&db)
        .send_catalogue(user, f.catalogue_id)
        .await
        .unwrap();
    assert!(sent.path.starts_with("/c/"), "{}", sent.path);
    assert_eq!(status_of(&db, f.catalogue_id).await, "sent");
    let request_status: String = sqlx::query_scalar("SELECT status FROM requests WHERE id = $1")
        .bind(f.request_id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(request_status, "catalogue_sent");
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'catalogue.sent' AND object_id = $1 AND actor_id = $2",
    )
    .bind(f.catalogue_id)
    .bind(user)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(audited, 1);

    let app = TestApp::start(db.clone()).await;
    let page = app.get(&sent.path, None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Votre sélection de lieux"));
    assert!(
        page.body.contains(r#"data-testid="pick-room""#),
        "the pinned room is shown"
    );
    assert!(page
        .body
        .contains(&format!("{} personnes", f.room.max_capacity)));
    assert!(
        page.body.contains("favorite-toggle"),
        "the favourite forms are there"
    );

    let data = app
        .post_form(
            "/api/links/catalogue",
            &[("token", &token_of(&sent.path))],
            None,
        )
        .await;
    assert_eq!(data.status, StatusCode::OK, "{}", data.body);
    let picks = data.json()["picks"].as_array().cloned().unwrap();
    assert_eq!(picks.len(), 3);
    let first = &picks[0];
    assert_eq!(first["room"]["name"], f.room.name.as_str());
    assert_eq!(first["room"]["capacity"], f.room.max_capacity);
    assert_eq!(
        first["room"]["configuration"],
        f.room.configuration.as_str()
    );
    assert!(picks[1]["room"].is_null());
    assert!(!data.body.contains("team_favorite") && !data.body.contains("note"));

    // Resending gives a fresh link; both open the catalogue until revoked.
    let again = service(&db)
        .send_catalogue(user, f.catalogue_id)
        .await
        .unwrap();
    assert_ne!(again.path, sent.path);
    assert_eq!(app.get(&again.path, None).await.status, StatusCode::OK);
    assert_eq!(app.get(&sent.path, None).await.status, StatusCode::OK);
    let view = service(&db)
        .view(f.request_id, Some(f.catalogue_id))
        .await
        .unwrap();
    assert_eq!(view.catalogue.as_ref().unwrap().live_links, 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_team_sends_through_its_server_function_and_anonymous_callers_cannot(db: PgPool) {
    seed_demo(&db).await;
    let f = fixture(&db, 0, "standard", "draft", 2).await;
    let app = TestApp::start(db.clone()).await;
    let id = f.catalogue_id.to_string();
    let anonymous = app
        .post_form("/api/outreach/send", &[("catalogue_id", &id)], None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(links_of(&db, f.catalogue_id).await, 0);

    let session = app.sign_in(TEAM, PASSWORD).await;
    let sent = app
        .post_form(
            "/api/outreach/send",
            &[("catalogue_id", &id)],
            Some(&session),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let path = sent.json()["path"].as_str().unwrap().to_string();
    assert_eq!(app.get(&path, None).await.status, StatusCode::OK);

    let bad = app
        .post_form(
            "/api/outreach/send",
            &[("catalogue_id", "x")],
            Some(&session),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    // A list argument, as forms and the e2e tests encode it.
    let (request, a, b) = (
        f.request_id.to_string(),
        f.member_ids[0].to_string(),
        f.member_ids[1].to_string(),
    );
    let asked = app
        .post_form(
            "/api/outreach/availability",
            &[
                ("request_id", &request),
                ("member_ids[0]", &a),
                ("member_ids[1]", &b),
            ],
            Some(&session),
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert_eq!(asked.json().as_array().map(Vec::len), Some(2));
    let view = app
        .post_form(
            "/api/outreach/view",
            &[("request_id", &request)],
            Some(&session),
        )
        .await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    assert!(view.json()["checks"].as_array().unwrap().len() >= 2);
    let anonymous = app
        .post_form("/api/outreach/view", &[("request_id", &request)], None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let revoked = app
        .post_form(
            "/api/outreach/revoke",
            &[("catalogue_id", &id)],
            Some(&session),
        )
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.body);
    assert_eq!(revoked.json(), serde_json::json!(1));
    let page = app.get(&path, None).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.body.contains(REFUSED));
}

#[sqlx::test(migrations = "../migrations")]
async fn organizer_favourites_and_comment_are_saved_and_seen_by_the_team(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let f = fixture(&db, 0, "standard", "draft", 3).await;
    let outreach = service(&db);
    let sent = outreach.send_catalogue(user, f.catalogue_id).await.unwrap();
    let token = token_of(&sent.path);
    let app = TestApp::start(db.clone()).await;
    let pick = f.pick_ids[1].to_string();

    // JavaScript on: the server function answers with the catalogue.
    let marked = app
        .post_form(
            "/api/links/catalogue/favorite",
            &[("token", &token), ("pick_id", &pick), ("favorite", "true")],
            None,
        )
        .await;
    assert_eq!(marked.status, StatusCode::OK, "{}", marked.body);
    assert_eq!(marked.json()["picks"][1]["favorite"], true);
    assert_eq!(marked.json()["picks"][0]["favorite"], false);

    // JavaScript off: a plain form post comes back to the page.
    let page_url = app.url(&sent.path);
    let origin = app.url("");
    let plain = app
        .post_raw(
            "/api/links/catalogue/comment",
            &[
                ("token", &token),
                ("comment", "  Le deuxième nous plaît beaucoup.  "),
            ],
            &[
                ("origin", &origin),
                ("accept", "text/html"),
                ("referer", &page_url),
            ],
        )
        .await;
    assert_eq!(plain.status, StatusCode::FOUND, "{}", plain.body);
    // Back to the page, at the comment's section.
    assert_eq!(plain.location(), format!("{}#commentaire", sent.path));
    // A favourite and a venue's comment without JavaScript: back at the card.
    let first = f.pick_ids[0].to_string();
    let headers = [
        ("origin", origin.as_str()),
        ("accept", "text/html"),
        ("referer", page_url.as_str()),
    ];
    let starred = app
        .post_raw(
            "/api/links/catalogue/favorite",
            &[("token", &token), ("pick_id", &first), ("favorite", "true")],
            &headers,
        )
        .await;
    assert_eq!(starred.status, StatusCode::FOUND, "{}", starred.body);
    assert_eq!(starred.location(), format!("{}#lieu-{first}", sent.path));
    let worded = app
        .post_raw(
            "/api/links/catalogue/pick-comment",
            &[
                ("token", &token),
                ("pick_id", &pick),
                ("comment", " La terrasse <b>est</b> parfaite. "),
            ],
            &headers,
        )
        .await;
    assert_eq!(worded.status, StatusCode::FOUND, "{}", worded.body);
    assert_eq!(worded.location(), format!("{}#lieu-{pick}", sent.path));
    let page = app.get(&sent.path, None).await;
    assert!(page.body.contains("Le deuxième nous plaît beaucoup."));
    assert!(page.body.contains(r#"data-favorite="true""#));
    assert!(page.body.contains(&format!(r#"id="lieu-{pick}""#)));
    // Escaped, on its card; the contact and the next step; no venue code.
    assert!(page
        .body
        .contains("La terrasse &lt;b&gt;est&lt;/b&gt; parfaite."));
    assert!(page.body.contains("Prochaine étape"));
    assert!(
        page.body.contains("camille.martin@reciprok.fr"),
        "the sender is the contact"
    );
    assert!(!page.body.contains(">#"), "no internal code on the page");
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'catalogue.organizer_pick_comment'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(audited, 1);
    // Unstarred again for what follows.
    app.post_form(
        "/api/links/catalogue/favorite",
        &[
            ("token", &token),
            ("pick_id", &first),
            ("favorite", "false"),
        ],
        None,
    )
    .await;

    let view = outreach
        .view(f.request_id, Some(f.catalogue_id))
        .await
        .unwrap();
    let catalogue = view.catalogue.unwrap();
    assert_eq!(
        catalogue.organizer_comment.as_deref(),
        Some("Le deuxième nous plaît beaucoup."),
        "trimmed, and visible to the team"
    );
    let worded = catalogue
        .picks
        .iter()
        .find(|p| p.pick_id == f.pick_ids[1])
        .unwrap();
    assert_eq!(
        worded.organizer_comment.as_deref(),
        Some("La terrasse <b>est</b> parfaite."),
        "the venue's comment reaches the team"
    );
    let favourites: Vec<i64> = catalogue
        .picks
        .iter()
        .filter(|p| p.organizer_favorite)
        .map(|p| p.pick_id)
        .collect();
    assert_eq!(favourites, vec![f.pick_ids[1]]);

    // Too long: refused, and the saved comment stays.
    let long = "x".repeat(app::links::MAX_COMMENT_CHARS + 1);
    let refused = app
        .post_form(
            "/api/links/catalogue/comment",
            &[("token", &token), ("comment", &long)],
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Edited: one comment per catalogue.
    let edited = app
        .post_form(
            "/api/links/catalogue/comment",
            &[("token", &token), ("comment", "Finalement le premier.")],
            None,
        )
        .await;
    assert_eq!(edited.json()["comment"], "Finalement le premier.");
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM catalogue_feedback WHERE catalogue_id = $1")
            .bind(f.catalogue_id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(rows, 1);

    // Unmarked again.
    let unmarked = app
        .post_form(
            "/api/links/catalogue/favorite",
            &[("token", &token), ("pick_id", &pick), ("favorite", "false")],
            None,
        )
        .await;
    assert_eq!(unmarked.json()["picks"][1]["favorite"], false);
}

#[sqlx::test(migrations = "../migrations")]
async fn expired_revoked_archived_and_other_catalogues_links_are_refused(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let outreach = service(&db);
    let mine = fixture(&db, 0, "standard", "draft", 2).await;
    let other = fixture(&db, 1, "standard", "draft", 2).await;
    let app = TestApp::start(db.clone()).await;

    // Another catalogue's pick, through my link: refused, nothing written.
    let link = outreach
        .send_catalogue(user, mine.catalogue_id)
        .await
        .unwrap();
    let token = token_of(&link.path);
    let theirs = other.pick_ids[0].to_string();
    let refused = app
        .post_form(
            "/api/links/catalogue/favorite",
            &[
                ("token", &token),
                ("pick_id", &theirs),
                ("favorite", "true"),
            ],
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    assert!(refused.body.contains(REFUSED), "{}", refused.body);
    let touched: bool =
        sqlx::query_scalar("SELECT organizer_favorite FROM catalogue_picks WHERE id = $1")
            .bind(other.pick_ids[0])
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(!touched);

    // Expired.
    let expired = outreach
        .send_catalogue(user, other.catalogue_id)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE magic_links SET created_at = now() - interval '40 days', expires_at = now() - interval '1 day'
          WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
    )
    .bind(token_of(&expired.path))
    .execute(&db)
    .await
    .unwrap();
    // Revoked (by the team's server function).
    let revoked = outreach
        .send_catalogue(user, mine.catalogue_id)
        .await
        .unwrap();
    assert_eq!(
        outreach
            .revoke_catalogue_links(user, mine.catalogue_id)
            .await
            .unwrap(),
        2,
        "every live link of the catalogue"
    );
    for path in [&expired.path, &revoked.path, &link.path] {
        let page = app.get(path, None).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
        assert!(page.body.contains(REFUSED));
        let comment = app
            .post_form(
                "/api/links/catalogue/comment",
                &[("token", &token_of(path)), ("comment", "bonjour")],
                None,
            )
            .await;
        assert_eq!(comment.status, StatusCode::NOT_FOUND, "{path}");
    }
    let comments: i64 = sqlx::query_scalar("SELECT count(*) FROM catalogue_feedback")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(comments, 0);

    // Archived after sending: its links close.
    let live = outreach
        .send_catalogue(user, other.catalogue_id)
        .await
        .unwrap();
    assert_eq!(app.get(&live.path, None).await.status, StatusCode::OK);
    sqlx::query("UPDATE catalogues SET status = 'archived', archived_at = now() WHERE id = $1")
        .bind(other.catalogue_id)
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(
        app.get(&live.path, None).await.status,
        StatusCode::NOT_FOUND
    );

    // An unknown catalogue for the team: not found, nothing revoked.
    let err = outreach
        .revoke_catalogue_links(user, i64::MAX)
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::NotFound));
}

async fn pending(db: &PgPool, request_id: i64, member_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM availability_checks WHERE request_id = $1 AND member_id = $2 AND status = 'pending'",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_one(db)
    .await
    .unwrap()
}

async fn checks(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM availability_checks")
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn bulk_checks_reuse_pending_ones_and_refuse_bad_input(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let outreach = service(&db);
    let f = fixture(&db, 0, "standard", "draft", 3).await;
    let (a, b, c) = (f.member_ids[0], f.member_ids[1], f.member_ids[2]);

    let first = outreach
        .send_availability_checks(user, f.request_id, vec![a, b, a])
        .await
        .unwrap();
    assert_eq!(first.len(), 2, "one check per venue");
    assert!(first.iter().all(|s| !s.reused && s.path.starts_with("/v/")));
    let second = outreach
        .send_availability_checks(user, f.request_id, vec![a, c])
        .await
        .unwrap();
    assert_eq!(
        second[0].check_id, first[0].check_id,
        "the pending check is reused"
    );
    assert!(second[0].reused);
    assert!(!second[1].reused);
    assert_ne!(second[0].path, first[0].path, "with a fresh link");
    for m in [a, b, c] {
        assert_eq!(pending(&db, f.request_id, m).await, 1);
    }
    let app = TestApp::start(db.clone()).await;
    for path in [&first[0].path, &second[0].path, &second[1].path] {
        assert_eq!(app.get(path, None).await.status, StatusCode::OK, "{path}");
    }

    let before = checks(&db).await;
    let err = outreach
        .send_availability_checks(user, f.request_id, vec![])
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::Invalid(_)));
    let err = outreach
        .send_availability_checks(user, f.request_id, vec![b, i64::MAX])
        .await
        .unwrap_err();
    assert!(
        matches!(err, AppError::Invalid(ref m) if m.contains("inconnu")),
        "{err:?}"
    );
    let err = outreach
        .send_availability_checks(user, i64::MAX, vec![a])
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::NotFound));
    let many = (1..=40).collect::<Vec<i64>>();
    let err = outreach
        .send_availability_checks(user, f.request_id, many)
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::Invalid(_)));
    assert_eq!(checks(&db).await, before, "refusals write nothing");

    let view = outreach.view(f.request_id, None).await.unwrap();
    let ours: Vec<_> = view
        .checks
        .iter()
        .filter(|check| [a, b, c].contains(&check.member_id))
        .collect();
    assert_eq!(ours.len(), 3, "one line per venue");
    assert!(ours
        .iter()
        .all(|c| c.status == "pending" && c.delay.is_none()));
}

async fn answer(
    app: &TestApp,
    path: &str,
    available: &str,
    conditions: &str,
) -> support::app::Reply {
    app.post_form(
        "/api/links/availability/answer",
        &[
            ("token", &token_of(path)),
            ("available", available),
            ("conditions", conditions),
            ("comment", "Merci"),
        ],
        None,
    )
    .await
}

#[sqlx::test(migrations = "../migrations")]
async fn answers_need_conditions_when_conditional_count_once_and_feed_signals(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let outreach = service(&db);
    let f = fixture(&db, 0, "standard", "draft", 3).await;
    // The venues' history, out of the way of the numbers below.
    sqlx::query("DELETE FROM response_signals WHERE member_id = ANY ($1)")
        .bind(&f.member_ids)
        .execute(&db)
        .await
        .unwrap();
    let sent = outreach
        .send_availability_checks(user, f.request_id, f.member_ids[..2].to_vec())
        .await
        .unwrap();
    // Asked five hours ago.
    sqlx::query(
        "UPDATE availability_checks SET sent_at = now() - interval '5 hours' WHERE id = ANY ($1)",
    )
    .bind(sent.iter().map(|s| s.check_id).collect::<Vec<_>>())
    .execute(&db)
    .await
    .unwrap();
    let app = TestApp::start(db.clone()).await;

    let missing = answer(&app, &sent[0].path, "conditions", "   ").await;
    assert_eq!(
        missing.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        missing.body
    );
    assert!(missing.body.contains("conditions"));
    let bad = answer(&app, &sent[0].path, "peut-être", "").await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        pending(&db, f.request_id, f.member_ids[0]).await,
        1,
        "still pending"
    );

    let ok = answer(&app, &sent[0].path, "conditions", "Seulement après 18 h").await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(ok.json()["status"], "available");
    assert_eq!(ok.json()["conditions"], "Seulement après 18 h");
    let twice = answer(&app, &sent[0].path, "false", "").await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "answered once only");
    let page = app.get(&sent[0].path, None).await;
    assert!(page.body.contains("sous conditions"));
    assert!(!page.body.contains("Envoyer ma réponse"));

    let declined = answer(&app, &sent[1].path, "false", "ignored").await;
    assert_eq!(declined.status, StatusCode::OK);
    assert!(
        declined.json()["conditions"].is_null(),
        "conditions only with a conditional answer"
    );

    let signals: Vec<(i64, String, f64)> = sqlx::query_as(
        "SELECT member_id, kind, response_hours FROM response_signals
          WHERE availability_check_id = ANY ($1) ORDER BY id",
    )
    .bind(sent.iter().map(|s| s.check_id).collect::<Vec<_>>())
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(signals.len(), 2, "{signals:?}");
    assert_eq!(signals[0].0, f.member_ids[0]);
    assert_eq!(signals[0].1, "availability_answered");
    assert_eq!(signals[1].1, "declined");
    assert!((signals[0].2 - 5.0).abs() < 0.1, "{signals:?}");
    // As the search reads them: answered every time, in about five hours.
    let read = server::db::member_signals::of_members(&db, &f.member_ids[..1])
        .await
        .unwrap();
    assert_eq!(read[0].response_rate, Some(1.0));
    let median = read[0].median_response_hours.unwrap();
    assert!((median - 5.0).abs() < 0.1, "{median}");

    let view = outreach.view(f.request_id, None).await.unwrap();
    let first = view
        .checks
        .iter()
        .find(|c| c.member_id == f.member_ids[0])
        .unwrap();
    assert_eq!(first.conditions.as_deref(), Some("Seulement après 18 h"));
    assert_eq!(first.answer.as_deref(), Some("Merci"));
    assert!(
        first.delay.as_deref().unwrap().starts_with("5 h"),
        "{first:?}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn overdue_checks_are_swept_to_expired_with_a_no_answer_signal(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let outreach = service(&db);
    let f = fixture(&db, 0, "standard", "draft", 2).await;
    let sent = outreach
        .send_availability_checks(user, f.request_id, f.member_ids[..2].to_vec())
        .await
        .unwrap();
    sqlx::query(
        "UPDATE availability_checks SET sent_at = now() - interval '8 days', expires_at = now() - interval '1 minute'
          WHERE id = $1",
    )
    .bind(sent[0].check_id)
    .execute(&db)
    .await
    .unwrap();
    // Other overdue checks of the demo data may be swept too: count ours.
    server::outreach::sweep::expire_checks(&db).await.unwrap();
    let status: String = sqlx::query_scalar("SELECT status FROM availability_checks WHERE id = $1")
        .bind(sent[0].check_id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(status, "expired");
    let other: String = sqlx::query_scalar("SELECT status FROM availability_checks WHERE id = $1")
        .bind(sent[1].check_id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(other, "pending", "a check still in time is left alone");
    let no_answer: Vec<(String, Option<f64>)> = sqlx::query_as(
        "SELECT kind, response_hours FROM response_signals WHERE availability_check_id = $1",
    )
    .bind(sent[0].check_id)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(no_answer, vec![("no_answer".to_string(), None)]);
    assert_eq!(
        server::outreach::sweep::expire_checks(&db).await.unwrap(),
        0,
        "idempotent"
    );
    // Asking the venue again opens a new check (the expired one is history).
    let again = outreach
        .send_availability_checks(user, f.request_id, vec![f.member_ids[0]])
        .await
        .unwrap();
    assert!(!again[0].reused);
    assert_ne!(again[0].check_id, sent[0].check_id);
}
