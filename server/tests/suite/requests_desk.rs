//! « Demandes » on a real database: every filter narrows the list to what
//! SQL says it should, pages are complete and never repeat a row, bad
//! filters get a clear message (never a 500), the memo / hints / status
//! edit is validated, audited and closed to anonymous callers, and similar
//! requests stay in the request's pool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::errors::AppError;
use app::requests::{RequestEdit, RequestsDesk, RequestsQuery, PAGE_SIZE};
use reqwest::StatusCode;
use server::requests_desk::RequestsDeskService;
use sqlx::PgPool;
use support::app::TestApp;

const HOSTILE: &str = "<script>alert('x')</script> <b>gras</b>";

struct Planted {
    /// Camille: some requests are assigned to her.
    camille: i64,
    /// Julien: the others (and some to nobody).
    julien: i64,
}

async fn exec(db: &PgPool, sql: &str) {
    sqlx::raw_sql(sql).execute(db).await.unwrap();
}

/// Two pools; 130 requests spread over statuses, pools, event months,
/// assignees and organizers, with creation times that tie in pairs (the
/// paging must break ties by id); e-mails and catalogues for a few.
async fn plant(db: &PgPool) -> Planted {
    exec(
        db,
        "INSERT INTO users (id, email, display_name) VALUES
             (1, 'camille@reciprok.fr', 'Camille Martin'),
             (2, 'julien@reciprok.fr', 'Julien Bernard');
         INSERT INTO pools (id, slug, name) VALUES (1, 'hotels', 'Hôtels'), (2, 'peniches', 'Péniches');
         INSERT INTO members (id, code, name, pool_id, status, postal_code, city, lat, lng)
         VALUES (101, '#101', 'Le Belvédère', 1, 'active', '75008', 'Paris', 48.873, 2.310),
                (102, '#102', 'La Verrière', 1, 'active', '75011', 'Paris', 48.858, 2.380),
                (103, '#103', 'Péniche Lumière', 2, 'active', '75013', 'Paris', 48.833, 2.380);
         INSERT INTO requests (id, reference, pool_id, organizer_name, organizer_company,
                               description, event_type, participants, status, assigned_user_id,
                               event_start_date, event_end_date, created_at)
         SELECT i,
                format('D-2026-%s', lpad(i::text, 5, '0')),
                CASE WHEN i % 3 = 0 THEN 2 ELSE 1 END,
                (ARRAY['Nadia Rousseau', 'Karim Lefèvre', 'Olivier Vincent'])[1 + i % 3],
                (ARRAY['Maison Vérane', 'Atelier Nova', 'Éditions du Pont', 'Banque 100%_Sûre'])[1 + i % 4],
                CASE WHEN i % 5 = 0 THEN 'Séminaire de direction au calme avec jardin'
                     WHEN i % 5 = 1 THEN 'Soirée cocktail festive sur un rooftop'
                     ELSE 'Déjeuner d''affaires en salon privatif' END,
                (ARRAY['seminaire', 'soiree', 'dejeuner'])[1 + i % 3],
                20 + i,
                (ARRAY['new', 'qualifying', 'catalogue_sent', 'won', 'lost', 'cancelled'])[1 + i % 6],
                CASE i % 4 WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE NULL END,
                CASE WHEN i % 7 = 0 THEN NULL ELSE date '2026-01-05' + (i * 3) END,
                CASE WHEN i % 10 = 0 THEN date '2026-01-05' + (i * 3) + 2 END,
                timestamptz '2025-10-01 08:00Z' + ((i / 2) * interval '1 hour')
           FROM generate_series(1, 130) AS i;
         INSERT INTO catalogues (id, request_id, status, sent_at, created_at)
         VALUES (1, 4, 'sent', now(), now() - interval '2 days'),
                (2, 4, 'draft', NULL, now()),
                (3, 10, 'archived', NULL, now());
         INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, added_by)
         VALUES (1, 101, 'recommended', 0, 'team'), (1, 102, 'compatible', 0, 'team'),
                (2, 101, 'recommended', 0, 'team'),
                (3, 101, 'recommended', 0, 'team'), (3, 102, 'recommended', 1, 'team');
         INSERT INTO request_emails (request_id, direction, from_address, subject, body, received_at)
         VALUES (1, 'out', 'equipe@reciprok.fr', 'Re: votre soirée', 'Voici nos idées.', now() - interval '1 day'),
                (1, 'in', 'orga@example.com', 'Notre soirée', 'Bonjour, nous cherchons un rooftop.', now() - interval '3 days');",
    )
    .await;
    sqlx::query("UPDATE requests SET description = description || ' ' || $1 WHERE id = 1")
        .bind(HOSTILE)
        .execute(db)
        .await
        .unwrap();
    Planted {
        camille: 1,
        julien: 2,
    }
}

fn desk(db: &PgPool) -> RequestsDeskService {
    RequestsDeskService {
        read_db: None,
        db: db.clone(),
        pools: Default::default(),
    }
}

fn query(f: impl FnOnce(&mut RequestsQuery)) -> RequestsQuery {
    let mut q = RequestsQuery::default();
    f(&mut q);
    q
}

/// Every id of the list under `q`, page after page, in order.
async fn walk(desk: &RequestsDeskService, user: i64, q: &RequestsQuery) -> Vec<i64> {
    let mut ids = Vec::new();
    for page in 1.. {
        let mut q = q.clone();
        q.page = page.to_string();
        let list = desk.list(user, q).await.unwrap();
        assert_eq!(list.page, page);
        assert_eq!(list.has_previous, page > 1);
        assert!(list.rows.len() <= PAGE_SIZE);
        if list.has_next {
            assert_eq!(list.rows.len(), PAGE_SIZE, "a full page before a next one");
        }
        ids.extend(list.rows.iter().map(|r| r.id));
        if !list.has_next {
            break;
        }
    }
    ids
}

/// The ids `WHERE <condition>`, newest first (the list's order).
async fn expected(db: &PgPool, condition: &str) -> Vec<i64> {
    sqlx::query_scalar(&format!(
        "SELECT r.id FROM requests r JOIN pools p ON p.id = r.pool_id
          WHERE {condition} ORDER BY r.created_at DESC, r.id DESC"
    ))
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn pages_are_complete_and_never_repeat_a_row(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let all = walk(&desk, p.camille, &RequestsQuery::default()).await;
    assert_eq!(all.len(), 130);
    assert_eq!(all, expected(&db, "true").await);
    let mut unique = all.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 130, "no row twice");
    // Beyond the end: an empty page, not an error.
    let beyond = desk
        .list(p.camille, query(|q| q.page = "7".into()))
        .await
        .unwrap();
    assert!(beyond.rows.is_empty());
    assert!(beyond.has_previous && !beyond.has_next);
}

#[sqlx::test(migrations = "../migrations")]
async fn every_filter_narrows_the_list_to_what_it_says(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let cases: Vec<(RequestsQuery, String)> = vec![
        (
            query(|q| q.status = "won".into()),
            "r.status = 'won'".into(),
        ),
        (
            query(|q| q.pool = "peniches".into()),
            "p.slug = 'peniches'".into(),
        ),
        (
            query(|q| q.mine = true),
            format!("r.assigned_user_id = {}", p.camille),
        ),
        (
            query(|q| q.month = "2026-03".into()),
            "r.event_start_date <= '2026-03-31'
             AND coalesce(r.event_end_date, r.event_start_date) >= '2026-03-01'"
                .into(),
        ),
        (
            query(|q| {
                q.from = "2026-02-10".into();
                q.to = "2026-02-20".into();
            }),
            "r.event_start_date <= '2026-02-20'
             AND coalesce(r.event_end_date, r.event_start_date) >= '2026-02-10'"
                .into(),
        ),
        (
            query(|q| q.from = "2026-05-01".into()),
            "coalesce(r.event_end_date, r.event_start_date) >= '2026-05-01'".into(),
        ),
        // Words of the description, stemmed (« jardins » finds « jardin »).
        (query(|q| q.q = "jardins".into()), "r.id % 5 = 0".into()),
        // A piece of the reference.
        (
            query(|q| q.q = "D-2026-0011".into()),
            "r.reference LIKE 'D-2026-0011%'".into(),
        ),
        // The organizer's name, whatever the case.
        (
            query(|q| q.q = "karim".into()),
            "r.organizer_name = 'Karim Lefèvre'".into(),
        ),
        // LIKE's wildcards are taken literally.
        (
            query(|q| q.q = "100%_s".into()),
            "r.organizer_company = 'Banque 100%_Sûre'".into(),
        ),
        (
            query(|q| q.q = "%".into()),
            "r.organizer_company LIKE '%\\%%'".into(),
        ),
        (
            query(|q| {
                q.status = "catalogue_sent".into();
                q.pool = "hotels".into();
                q.mine = true;
            }),
            format!(
                "r.status = 'catalogue_sent' AND p.slug = 'hotels' AND r.assigned_user_id = {}",
                p.camille
            ),
        ),
        // Text and dates together: each filter is written into the
        // statement only when in use, so combinations are statements too.
        (
            query(|q| {
                q.q = "jardins".into();
                q.from = "2026-03-01".into();
            }),
            "r.id % 5 = 0 AND coalesce(r.event_end_date, r.event_start_date) >= '2026-03-01'"
                .into(),
        ),
        (query(|q| q.pool = "nulle-part".into()), "false".into()),
    ];
    for (q, condition) in cases {
        let want = expected(&db, &condition).await;
        let got = walk(&desk, p.camille, &q).await;
        assert_eq!(got, want, "{q:?}");
        if condition != "false" {
            assert!(!want.is_empty() && want.len() < 130, "{q:?} narrows");
        }
    }
    // « Mine » is the caller's own.
    let julien = walk(&desk, p.julien, &query(|q| q.mine = true)).await;
    assert_eq!(
        julien,
        expected(&db, &format!("r.assigned_user_id = {}", p.julien)).await
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_row_carries_what_the_table_shows(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let rows = walk(&desk, p.camille, &query(|q| q.q = "D-2026-00004".into())).await;
    assert_eq!(rows, vec![4]);
    let list = desk
        .list(p.camille, query(|q| q.q = "D-2026-00004".into()))
        .await
        .unwrap();
    let r = &list.rows[0];
    assert_eq!(r.reference, "D-2026-00004");
    assert_eq!(
        r.organizer.as_deref(),
        Some("Karim Lefèvre · Maison Vérane")
    );
    assert_eq!(r.pool, "Hôtels");
    assert_eq!(r.assigned_to.as_deref(), Some("Camille Martin"));
    assert_eq!(r.participants, Some(24));
    assert_eq!(r.event_dates.as_deref(), Some("17/01/2026"));
    // The current catalogue is the latest standard one (the draft: 1 pick).
    assert_eq!(r.picks, 1);
    let ten = desk
        .list(p.camille, query(|q| q.q = "D-2026-00010".into()))
        .await
        .unwrap();
    assert_eq!(
        ten.rows[0].event_dates.as_deref(),
        Some("du 04/02/2026 au 06/02/2026")
    );
    assert_eq!(ten.rows[0].assigned_to.as_deref(), Some("Camille Martin"));
    // An archived catalogue is not the current one.
    assert_eq!(ten.rows[0].picks, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_filters_get_a_clear_message_never_a_server_error(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let bad: Vec<(RequestsQuery, &str)> = vec![
        (query(|q| q.status = "done".into()), "Statut inconnu"),
        (query(|q| q.pool = "<script>".into()), "Pool inconnu"),
        (
            query(|q| q.from = "31/12/2026".into()),
            "Date de début invalide",
        ),
        (
            query(|q| q.to = "2026-02-30".into()),
            "Date de fin invalide",
        ),
        (query(|q| q.month = "mars".into()), "Mois invalide"),
        (query(|q| q.q = "é".repeat(2000)), "trop long"),
        (query(|q| q.page = "0".into()), "page invalide"),
        (query(|q| q.page = "deux".into()), "page invalide"),
        (query(|q| q.page = "99999999999".into()), "page invalide"),
        (query(|q| q.page = "401".into()), "trop lointaine"),
        (
            query(|q| {
                q.from = "2026-04-01".into();
                q.to = "2026-03-01".into();
            }),
            "après la date de fin",
        ),
    ];
    for (q, message) in bad {
        match desk.list(p.camille, q.clone()).await {
            Err(AppError::Invalid(text)) => assert!(text.contains(message), "{q:?}: {text}"),
            other => panic!("{q:?}: {other:?}"),
        }
    }
    // Text that is only punctuation or stop words is no error either.
    for text in ["!!! ((( :*", "le la les", "'; DROP TABLE requests; --"] {
        let list = desk
            .list(p.camille, query(|q| q.q = text.into()))
            .await
            .unwrap();
        assert!(list.rows.is_empty(), "{text}");
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM requests")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(count, 130);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_detail_shows_the_need_the_emails_in_order_and_similar_requests_of_the_pool(
    db: PgPool,
) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let d = desk.detail(1).await.unwrap();
    assert_eq!(d.reference, "D-2026-00001");
    assert!(
        d.description.contains(HOSTILE),
        "stored and returned as text"
    );
    let subjects: Vec<&str> = d.emails.iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(
        subjects,
        ["Notre soirée", "Re: votre soirée"],
        "oldest first"
    );
    assert_eq!(d.emails[0].direction, "in");
    // No embeddings here: similar requests come from shared words.
    assert_eq!(d.similar_source, "fts");
    assert_eq!(d.similar.len(), 3);
    let pool_of = |id: i64| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT pool_id FROM requests WHERE id = $1")
                .bind(id)
                .fetch_one(&db)
                .await
                .unwrap()
        }
    };
    for s in &d.similar {
        assert_ne!(s.id, 1);
        assert_eq!(pool_of(s.id).await, 1, "same pool as request 1");
    }
    // A péniche request's similar ones are péniche requests, by meaning
    // when vectors exist.
    exec(
        &db,
        "UPDATE requests SET embedding = '[1,0,0]', embedding_model = 'm' WHERE id IN (3, 6, 9, 1, 2);
         UPDATE requests SET embedding = '[0,1,0]', embedding_model = 'm' WHERE id = 12;",
    )
    .await;
    let d = desk.detail(3).await.unwrap();
    assert_eq!(d.similar_source, "vector");
    let ids: Vec<i64> = d.similar.iter().map(|s| s.id).collect();
    assert_eq!(ids, vec![9, 6, 12], "nearest first, same pool only");
    let _ = p;
}

#[sqlx::test(migrations = "../migrations")]
async fn similar_picks_come_from_the_latest_standard_catalogue(db: PgPool) {
    plant(&db).await;
    exec(
        &db,
        "UPDATE requests SET embedding = '[1,0,0]', embedding_model = 'm' WHERE id IN (1, 4);",
    )
    .await;
    let d = desk(&db).detail(1).await.unwrap();
    assert_eq!(d.similar[0].id, 4);
    let picks: Vec<(&str, &str)> = d.similar[0]
        .picks
        .iter()
        .map(|p| (p.code.as_str(), p.tier.as_str()))
        .collect();
    assert_eq!(picks, [("#101", "recommended")]);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unknown_request_is_not_found(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    assert!(matches!(
        desk.detail(999_999).await,
        Err(AppError::NotFound)
    ));
    let edit = RequestEdit {
        team_memo: Some("Note".into()),
        ..RequestEdit::default()
    };
    assert!(matches!(
        desk.edit(p.camille, 999_999, edit).await,
        Err(AppError::NotFound)
    ));
}

async fn notes(db: &PgPool, id: i64) -> (String, Option<String>, Option<String>) {
    sqlx::query_as("SELECT status, team_memo, search_hints FROM requests WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
}

async fn audit_rows(db: &PgPool) -> Vec<(Option<i64>, String, Option<i64>, serde_json::Value)> {
    sqlx::query_as(
        "SELECT actor_id, action, object_id, details FROM audit_log
          WHERE action = 'request.updated' ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_memo_hints_and_status_edit_writes_audits_and_keeps_the_rest(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let before = notes(&db, 5).await;
    let d = desk
        .edit(
            p.julien,
            5,
            RequestEdit {
                team_memo: Some("  Client fidèle, rappeler lundi.  ".into()),
                search_hints: Some("Privilégier les terrasses".into()),
                ..RequestEdit::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        d.team_memo.as_deref(),
        Some("Client fidèle, rappeler lundi.")
    );
    assert_eq!(d.search_hints.as_deref(), Some("Privilégier les terrasses"));
    assert_eq!(d.status, before.0, "status kept");
    // The status alone; the memo stays.
    desk.edit(
        p.julien,
        5,
        RequestEdit {
            status: Some("won".into()),
            ..RequestEdit::default()
        },
    )
    .await
    .unwrap();
    let after = notes(&db, 5).await;
    assert_eq!(after.0, "won");
    assert_eq!(after.1.as_deref(), Some("Client fidèle, rappeler lundi."));
    // An empty memo clears it.
    desk.edit(
        p.julien,
        5,
        RequestEdit {
            team_memo: Some("   ".into()),
            ..RequestEdit::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(notes(&db, 5).await.1, None);
    let audit = audit_rows(&db).await;
    assert_eq!(audit.len(), 3);
    assert_eq!(audit[0].0, Some(p.julien));
    assert_eq!(audit[0].2, Some(5));
    assert_eq!(
        audit[0].3["changed"],
        serde_json::json!(["team_memo", "search_hints"])
    );
    assert_eq!(audit[1].3["changed"], serde_json::json!(["status"]));
    assert_eq!(audit[1].3["status"], "won");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_bad_edit_is_refused_with_a_message_and_changes_nothing(db: PgPool) {
    let p = plant(&db).await;
    let desk = desk(&db);
    let before = notes(&db, 7).await;
    let cases: Vec<(RequestEdit, &str)> = vec![
        (RequestEdit::default(), "Rien à modifier"),
        (
            RequestEdit {
                team_memo: Some("x".repeat(5001)),
                ..RequestEdit::default()
            },
            "Le mémo équipe dépasse 5000 caractères",
        ),
        (
            RequestEdit {
                search_hints: Some("é".repeat(2001)),
                ..RequestEdit::default()
            },
            "Les consignes de recherche dépasse",
        ),
        (
            RequestEdit {
                team_memo: Some("ok".into()),
                status: Some("archived".into()),
                ..RequestEdit::default()
            },
            "Statut inconnu",
        ),
        (
            RequestEdit {
                team_memo: Some("nul \0 ici".into()),
                ..RequestEdit::default()
            },
            "caractère invalide",
        ),
    ];
    for (edit, message) in cases {
        match desk.edit(p.camille, 7, edit.clone()).await {
            Err(AppError::Invalid(text)) => assert!(text.contains(message), "{edit:?}: {text}"),
            other => panic!("{edit:?}: {other:?}"),
        }
    }
    assert_eq!(notes(&db, 7).await, before);
    assert!(audit_rows(&db).await.is_empty());
    // The cap itself is accepted.
    desk.edit(
        p.camille,
        7,
        RequestEdit {
            team_memo: Some("x".repeat(5000)),
            ..RequestEdit::default()
        },
    )
    .await
    .unwrap();
}

async fn session(db: &PgPool, user_id: i64) -> String {
    let env = server::config::Env::from_pairs([("MAXY_SECRET_KEY", support::SECRET_KEY)]);
    let settings = server::config::AuthSettings::from_source(&env).unwrap();
    server::auth::sessions::start(db, user_id, &settings, None)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn over_http_anonymous_callers_are_refused_and_the_team_gets_pages(db: PgPool) {
    let p = plant(&db).await;
    let app = TestApp::start(db.clone()).await;
    let before = notes(&db, 2).await;
    for (path, fields) in [
        (
            "/api/requests/edit",
            vec![("request_id", "2"), ("team_memo", "pirate")],
        ),
        ("/api/requests/list", vec![]),
        ("/api/requests/detail", vec![("request_id", "2")]),
        ("/api/requests/find", vec![("reference", "D-2026-00001")]),
    ] {
        let reply = app.post_form(path, &fields, None).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(!reply.body.contains("Soirée"), "{path}: {}", reply.body);
    }
    assert_eq!(notes(&db, 2).await, before);
    let anonymous = app.get("/demandes/2", None).await;
    assert_ne!(anonymous.status, StatusCode::OK);

    let token = session(&db, p.camille).await;
    let list = app
        .get("/demandes?status=catalogue_sent&pool=hotels", Some(&token))
        .await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(
        list.body.contains("data-testid=\"request-row\""),
        "{}",
        list.body
    );
    let bad = app.get("/demandes?status=bogus", Some(&token)).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("Statut inconnu"));
    let long = format!("/demandes?q={}", "a".repeat(2000));
    assert_eq!(
        app.get(&long, Some(&token)).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let page = app.get("/demandes/1", Some(&token)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("data-testid=\"request-extras\""));
    assert!(page.body.contains("/demandes/1/catalogue"));
    assert!(page.body.contains("/chat?request=1"));
    assert!(
        !page.body.contains("<script>alert"),
        "third-party text escaped"
    );
    assert!(page.body.contains("&lt;script&gt;alert"));
    assert_eq!(
        app.get("/demandes/999999", Some(&token)).await.status,
        StatusCode::NOT_FOUND
    );
    // Its reference is an address too, in any case.
    let by_reference = app.get("/demandes/d-2026-00001", Some(&token)).await;
    assert_eq!(by_reference.status, StatusCode::OK);
    assert!(by_reference.body.contains("/demandes/1/catalogue"));
    assert_eq!(
        app.get("/demandes/D-1999-99999", Some(&token)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/demandes/abc", Some(&token)).await.status,
        StatusCode::NOT_FOUND
    );
    // The team's form post writes (without JavaScript: a plain form).
    let reply = app
        .post_form(
            "/api/requests/edit",
            &[("request_id", "2"), ("team_memo", "Rappeler lundi")],
            Some(&token),
        )
        .await;
    assert!(
        reply.status.is_success() || reply.status.is_redirection(),
        "{}",
        reply.status
    );
    assert_eq!(notes(&db, 2).await.1.as_deref(), Some("Rappeler lundi"));
    let too_long = "x".repeat(5001);
    let reply = app
        .post_form(
            "/api/requests/edit",
            &[("request_id", "2"), ("team_memo", too_long.as_str())],
            Some(&token),
        )
        .await;
    assert!(!reply.status.is_server_error(), "{}", reply.status);
    assert_eq!(notes(&db, 2).await.1.as_deref(), Some("Rappeler lundi"));
}
