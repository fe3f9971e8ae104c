//! Search results you can act on (issue 29), on a real database and over
//! HTTP: a venue's sheet (team only, an unknown id a French 404), « Ajouter
//! au catalogue » from a search opened for a request (audited, idempotent,
//! refused on a sent catalogue), every finalist left out listed with its
//! reason, and the builder finding and adding venues of every pool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::catalogue_builder::{CatalogueBuilder, Edit, Tier};
use app::errors::AppError;
use app::venue_search::SearchForm;
use server::catalogue_builder::CatalogueBuilderService;
use server::search::SearchService;
use sqlx::PgPool;
use std::sync::Arc;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

fn search(db: &PgPool) -> Arc<SearchService> {
    Arc::new(SearchService {
        read_db: None,
        db: db.clone(),
        embedder: None,
        llm: Arc::new(server::llm::OfflineLlm),
    })
}

fn builder(db: &PgPool) -> CatalogueBuilderService {
    CatalogueBuilderService {
        db: db.clone(),
        search: search(db),
    }
}

async fn user(db: &PgPool, email: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(db)
        .await
        .unwrap()
}

/// A fresh request (20 guests in cocktail) in the pool with the most
/// active venues: (request id, pool id).
async fn request(db: &PgPool) -> (i64, i64) {
    let pool_id: i64 = sqlx::query_scalar(
        "SELECT pool_id FROM members WHERE status = 'active'
          GROUP BY pool_id ORDER BY count(*) DESC, pool_id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let id = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants, configurations, postal_codes)
         VALUES ('D-TEST-' || gen_random_uuid(), $1, 'Cocktail festif', 'cocktail', 20, '{cocktail}', '{75011}')
         RETURNING id",
    )
    .bind(pool_id)
    .fetch_one(db)
    .await
    .unwrap();
    (id, pool_id)
}

/// An active venue with a room, in a pool or outside it.
async fn venue_with_rooms(db: &PgPool, pool_id: i64, same_pool: bool) -> i64 {
    sqlx::query_scalar(
        "SELECT m.id FROM members m
          WHERE m.status = 'active' AND (m.pool_id = $1) = $2
            AND EXISTS (SELECT 1 FROM room_capacities c WHERE c.member_id = m.id)
          ORDER BY m.id LIMIT 1",
    )
    .bind(pool_id)
    .bind(same_pool)
    .fetch_one(db)
    .await
    .unwrap()
}

async fn added_rows(db: &PgPool, member_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM audit_log
          WHERE action = 'catalogue.pick_added' AND details::text LIKE '%' || $1 || '%'",
    )
    .bind(
        sqlx::query_scalar::<_, String>("SELECT code FROM members WHERE id = $1")
            .bind(member_id)
            .fetch_one(db)
            .await
            .unwrap(),
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_team_member_reads_a_venue_sheet_and_an_unknown_one_is_a_french_404(db: PgPool) {
    seed_demo(&db).await;
    let (_, pool_id) = request(&db).await;
    let id = venue_with_rooms(&db, pool_id, true).await;
    let (name, pool): (String, String) = sqlx::query_as(
        "SELECT m.name, p.name FROM members m JOIN pools p ON p.id = m.pool_id WHERE m.id = $1",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .unwrap();
    let app = TestApp::start(db.clone()).await;
    let fields = [("member_id", id.to_string())];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();

    // Nobody signed in: refused before anything is read.
    let reply = app.post_form("/api/venues/sheet", &fields, None).await;
    assert_eq!(reply.status.as_u16(), 401, "{}", reply.body);

    let session = app.sign_in(TEAM, PASSWORD).await;
    let reply = app
        .post_form("/api/venues/sheet", &fields, Some(&session))
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    let sheet = reply.json();
    assert_eq!(sheet["name"], name.as_str());
    assert_eq!(sheet["pool"], pool.as_str(), "the pool by its name");
    let rooms = sheet["rooms"].as_array().unwrap();
    assert!(!rooms.is_empty());
    for room in rooms {
        for pair in room["capacities"].as_array().unwrap() {
            let key = pair[0].as_str().unwrap();
            assert!(
                app::room_configurations::Configuration::from_key(key).is_some(),
                "{key}"
            );
            assert!(pair[1].as_i64().unwrap() > 0);
        }
    }

    // The page, in French, with the rooms' layouts in words.
    let page = app.get(&format!("/lieux/{id}"), Some(&session)).await;
    assert_eq!(page.status.as_u16(), 200);
    // Up to its first character HTML would escape.
    let plain: String = name
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == ' ')
        .collect();
    assert!(page.body.contains(plain.trim()), "{name} on its sheet");
    assert!(page.body.contains("Salles"), "{}", page.body);

    // An unknown venue: a 404 that says so in French.
    let unknown = [("member_id", "987654321")];
    let reply = app
        .post_form("/api/venues/sheet", &unknown, Some(&session))
        .await;
    assert_eq!(reply.status.as_u16(), 404, "{}", reply.body);
    assert!(reply.body.contains("n'existe pas"), "{}", reply.body);
    let page = app.get("/lieux/987654321", Some(&session)).await;
    assert!(page.body.contains("n&#x27;existe pas") || page.body.contains("n'existe pas"));
}

#[sqlx::test(migrations = "../migrations")]
async fn adding_from_a_search_goes_through_the_builder_once_and_is_audited(db: PgPool) {
    seed_demo(&db).await;
    let (request_id, pool_id) = request(&db).await;
    let member_id = venue_with_rooms(&db, pool_id, true).await;
    let app = TestApp::start(db.clone()).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let (r, m) = (request_id.to_string(), member_id.to_string());
    let fields = [("request_id", r.as_str()), ("member_id", m.as_str())];

    let reply = app
        .post_form("/api/catalogues/add-from-search", &fields, None)
        .await;
    assert_eq!(reply.status.as_u16(), 401);

    // Opened from elsewhere (no Origin of ours): refused, nothing written.
    let reply = app
        .post_raw(
            "/api/catalogues/add-from-search",
            &fields,
            &[
                ("Cookie", &app.cookie(&session)),
                ("Origin", "https://evil.example"),
            ],
        )
        .await;
    assert!(reply.status.is_client_error(), "{}", reply.status);
    assert_eq!(added_rows(&db, member_id).await, 0);

    // The first click prepares the draft and adds, the second changes nothing.
    let reply = app
        .post_form("/api/catalogues/add-from-search", &fields, Some(&session))
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    assert_eq!(reply.json()["added"], true);
    assert!(reply.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("Ajouté au catalogue de D-TEST-"));
    let reply = app
        .post_form("/api/catalogues/add-from-search", &fields, Some(&session))
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    assert_eq!(reply.json()["added"], false);
    assert!(reply.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("Déjà au catalogue"));
    let picks: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE c.request_id = $1 AND p.member_id = $2 AND p.tier = 'recommended'",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(picks, 1);
    assert_eq!(added_rows(&db, member_id).await, 1, "audited once");

    // The search run for the request says which venues its draft holds.
    let team = user(&db, TEAM).await;
    let form = SearchForm {
        text: "cocktail".into(),
        participants: Some(20),
        request_id: Some(request_id),
        ..SearchForm::default()
    };
    let results = search(&db).search(Some(team), &form).await.unwrap();
    let target = results.for_request.expect("the request served");
    assert_eq!(target.request_id, request_id);
    assert!(target.in_catalogue.contains(&member_id));

    // Once the catalogue is sent, the search no longer writes into it.
    sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE request_id = $1")
        .bind(request_id)
        .execute(&db)
        .await
        .unwrap();
    let other = sqlx::query_scalar::<_, i64>(
        "SELECT id FROM members WHERE status = 'active' AND id <> $1 ORDER BY id LIMIT 1",
    )
    .bind(member_id)
    .fetch_one(&db)
    .await
    .unwrap();
    match builder(&db).add_from_search(team, request_id, other).await {
        Err(AppError::Conflict(m)) => assert!(m.contains("envoyé"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn every_candidate_left_out_is_listed_with_its_reason(db: PgPool) {
    seed_demo(&db).await;
    let team = user(&db, TEAM).await;
    let form = SearchForm {
        text: "soirée cocktail festive".into(),
        participants: Some(20),
        ..SearchForm::default()
    };
    let r = search(&db).search(Some(team), &form).await.unwrap();
    let picked: Vec<&str> = r
        .recommended
        .iter()
        .chain(&r.compatible)
        .map(|p| p.code.as_str())
        .collect();
    assert!(!picked.is_empty());
    assert!(r.rejected > 0, "50 finalists, at most 8 kept");
    assert_eq!(
        r.rejected,
        r.rejected_reasons.len(),
        "the count is the list"
    );
    for left in &r.rejected_reasons {
        assert!(!picked.contains(&left.code.as_str()), "{}", left.code);
        assert!(left.member_id > 0);
        assert!(left.reason.ends_with('.'), "{}", left.reason);
        assert!(
            !left.reason.contains("score") && !left.reason.contains("similarit"),
            "{}",
            left.reason
        );
    }
    // The form can show what was applied.
    assert_eq!(r.applied.participants, Some(20));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_builder_finds_and_adds_venues_of_every_pool(db: PgPool) {
    seed_demo(&db).await;
    let (request_id, pool_id) = request(&db).await;
    let team = user(&db, TEAM).await;
    let service = builder(&db);
    let view = service.open(team, request_id, false).await.unwrap();
    // An empty draft: one hint, no warning per tier.
    assert_eq!(view.warnings.len(), 1, "{:?}", view.warnings);
    assert!(view.warnings[0].starts_with("Catalogue vide"));

    let foreign = venue_with_rooms(&db, pool_id, false).await;
    let (code, name, pool): (String, String, String) = sqlx::query_as(
        "SELECT m.code, m.name, p.name FROM members m JOIN pools p ON p.id = m.pool_id WHERE m.id = $1",
    )
    .bind(foreign)
    .fetch_one(&db)
    .await
    .unwrap();
    // Typed by part of its name, it is offered, its pool named.
    let part: String = name.chars().take(8).collect();
    let found = service.lookup(view.catalogue_id, part).await.unwrap();
    let offered = found.iter().find(|m| m.code == code).expect("offered");
    assert_eq!(offered.pool, pool);

    let after = service
        .edit(
            team,
            view.catalogue_id,
            view.version,
            Edit::Add {
                member: code.clone(),
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    let pick = after
        .compatible
        .iter()
        .find(|p| p.code == code)
        .expect("added");
    assert_eq!(pick.other_pool.as_deref(), Some(pool.as_str()));
    // The request's zone is 75011: a venue with a place has its distance.
    let located: bool =
        sqlx::query_scalar("SELECT lat IS NOT NULL AND lng IS NOT NULL FROM members WHERE id = $1")
            .bind(foreign)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(pick.distance_km.is_some(), located);

    // A reason typed on several lines is saved as one paragraph.
    let after = service
        .edit(
            team,
            after.catalogue_id,
            after.version,
            Edit::Reason {
                member_id: foreign,
                reason: "Belle terrasse\nà deux pas du métro.".into(),
            },
        )
        .await
        .unwrap();
    let pick = after.compatible.iter().find(|p| p.code == code).unwrap();
    assert_eq!(pick.reason, "Belle terrasse à deux pas du métro.");
}
