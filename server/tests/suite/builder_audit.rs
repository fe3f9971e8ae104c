//! Catalogue writes in the audit log (issue #11, « Builder edits are not
//! audited »): every builder edit, the fill from the search, a new version,
//! the send, the bulk availability checks and the approved assistant writes
//! leave one row each — actor, catalogue, action, compact details — in the
//! transaction of the write. A refused edit (stale version, a 17th pick, bad
//! input) leaves none, and an edit whose row cannot be written fails whole.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::approvals_fixture as fixture;
use crate::support;

use app::catalogue_builder::{CatalogueBuilder, CatalogueView, Edit, PickView, Tier};
use app::chat::Decision;
use app::errors::AppError;
use app::outreach::Outreach;
use serde_json::{json, Value};
use server::auth::tokens::SigningKey;
use server::catalogue_builder::CatalogueBuilderService;
use server::outreach::OutreachService;
use server::search::SearchService;
use server::tools::Mode;
use sqlx::PgPool;
use std::sync::Arc;
use support::app::{seed_demo, TEAM};

fn builder(db: &PgPool) -> CatalogueBuilderService {
    CatalogueBuilderService {
        db: db.clone(),
        search: Arc::new(SearchService {
            read_db: None,
            db: db.clone(),
            embedder: None,
            llm: Arc::new(server::llm::OfflineLlm),
        }),
    }
}

fn outreach(db: &PgPool) -> OutreachService {
    OutreachService {
        db: db.clone(),
        key: SigningKey::new(support::SECRET_KEY.as_bytes().to_vec()),
        outbox: Default::default(),
    }
}

async fn team(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(db)
        .await
        .unwrap()
}

/// A fresh request (20 guests in cocktail) in the pool with the most active
/// venues, and `n` new venues of that pool with one 500-seat cocktail room.
async fn request_and_venues(db: &PgPool, n: i64) -> (i64, Vec<String>) {
    let pool_id: i64 = sqlx::query_scalar(
        "SELECT pool_id FROM members WHERE status = 'active'
          GROUP BY pool_id ORDER BY count(*) DESC, pool_id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let request_id = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants, configurations)
         VALUES ('A-' || gen_random_uuid(), $1, 'Cocktail festif avec terrasse', 'cocktail', 20, '{cocktail}')
         RETURNING id",
    )
    .bind(pool_id)
    .fetch_one(db)
    .await
    .unwrap();
    let codes: Vec<String> = sqlx::query_scalar(
        "INSERT INTO members (code, name, pool_id, status, city)
         SELECT '#8' || lpad(g::text, 5, '0') || $2, 'Lieu controle ' || g, $1, 'active', 'Paris'
           FROM generate_series(1, $2) g
         RETURNING code",
    )
    .bind(pool_id)
    .bind(n)
    .fetch_all(db)
    .await
    .unwrap();
    sqlx::query(
        "WITH r AS (INSERT INTO rooms (member_id, name)
                    SELECT id, 'Grande salle' FROM members WHERE code = ANY($1) RETURNING id, member_id)
         INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
         SELECT id, member_id, 'cocktail', 500 FROM r",
    )
    .bind(&codes)
    .execute(db)
    .await
    .unwrap();
    (request_id, codes)
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    actor_id: Option<i64>,
    actor_kind: String,
    action: String,
    object_type: Option<String>,
    object_id: Option<i64>,
    details: Value,
}

/// The log's rows whose action starts with `prefix`, oldest first.
async fn rows(db: &PgPool, prefix: &str) -> Vec<Row> {
    sqlx::query_as(
        "SELECT actor_id, actor_kind, action, object_type, object_id, details
           FROM audit_log WHERE starts_with(action, $1) ORDER BY id",
    )
    .bind(prefix)
    .fetch_all(db)
    .await
    .unwrap()
}

async fn log_size(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM audit_log")
        .fetch_one(db)
        .await
        .unwrap()
}

fn pick<'a>(v: &'a CatalogueView, code: &str) -> &'a PickView {
    v.recommended
        .iter()
        .chain(&v.compatible)
        .find(|p| p.code == code)
        .unwrap()
}

async fn add(
    b: &CatalogueBuilderService,
    user: i64,
    v: &CatalogueView,
    member: &str,
    tier: Tier,
) -> Result<CatalogueView, AppError> {
    let edit = Edit::Add {
        member: member.into(),
        tier,
    };
    b.edit(user, v.catalogue_id, v.version, edit).await
}

#[sqlx::test(migrations = "../migrations")]
async fn every_builder_edit_leaves_one_row_saying_what_changed(db: PgPool) {
    seed_demo(&db).await;
    let b = builder(&db);
    let user = team(&db).await;
    let (request_id, codes) = request_and_venues(&db, 3).await;
    let v = b.open(user, request_id, false).await.unwrap();
    let id = v.catalogue_id;
    assert!(
        rows(&db, "catalogue.").await.is_empty(),
        "opening is not an edit"
    );

    let v = add(&b, user, &v, &codes[0], Tier::Recommended)
        .await
        .unwrap();
    // By exact name: the log names the venue by id and code, not the query.
    let v = add(&b, user, &v, "LIEU CONTROLE 2", Tier::Recommended)
        .await
        .unwrap();
    let v = add(&b, user, &v, &codes[2], Tier::Compatible)
        .await
        .unwrap();
    let second = pick(&v, &codes[1]).member_id;
    let first = pick(&v, &codes[0]).member_id;
    let third = pick(&v, &codes[2]).member_id;
    let v = b
        .edit(
            user,
            id,
            v.version,
            Edit::Move {
                member_id: second,
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    let v = b
        .edit(
            user,
            id,
            v.version,
            Edit::Reorder {
                member_id: second,
                position: 0,
            },
        )
        .await
        .unwrap();
    let room = pick(&v, &codes[0]).room_options[0].id;
    let v = b
        .edit(
            user,
            id,
            v.version,
            Edit::PinRoom {
                member_id: first,
                room_id: Some(room),
            },
        )
        .await
        .unwrap();
    let v = b
        .edit(
            user,
            id,
            v.version,
            Edit::Reason {
                member_id: first,
                reason: "  Terrasse couverte, idéale en cocktail. ".into(),
            },
        )
        .await
        .unwrap();
    let v = b
        .edit(user, id, v.version, Edit::Remove { member_id: third })
        .await
        .unwrap();

    let log = rows(&db, "catalogue.").await;
    let actions: Vec<&str> = log.iter().map(|r| r.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "catalogue.pick_added",
            "catalogue.pick_added",
            "catalogue.pick_added",
            "catalogue.pick_moved",
            "catalogue.pick_reordered",
            "catalogue.room_pinned",
            "catalogue.reason_edited",
            "catalogue.pick_removed",
        ]
    );
    for r in &log {
        assert_eq!(
            (r.actor_kind.as_str(), r.actor_id),
            ("user", Some(user)),
            "{r:?}"
        );
        assert_eq!(
            (r.object_type.as_deref(), r.object_id),
            (Some("catalogue"), Some(id))
        );
    }
    // One row per version: the row says which version the edit made.
    let versions: Vec<i64> = log
        .iter()
        .map(|r| r.details["version"].as_i64().unwrap())
        .collect();
    let last = i64::from(v.version);
    assert_eq!(versions, ((last - 7)..=last).collect::<Vec<_>>());

    let d: Vec<&Value> = log.iter().map(|r| &r.details).collect();
    assert_eq!(d[1]["code"], json!(codes[1]));
    assert_eq!(d[1]["member_id"], json!(second));
    assert_eq!(d[1]["tier"], json!("recommended"));
    assert!(
        !d[1].to_string().contains("CONTROLE"),
        "the typed query is not logged: {}",
        d[1]
    );
    assert_eq!(d[2]["tier"], json!("compatible"));
    assert_eq!(
        (&d[3]["from"], &d[3]["to"]),
        (&json!("recommended"), &json!("compatible"))
    );
    assert_eq!(
        (&d[4]["tier"], &d[4]["from"], &d[4]["to"]),
        (&json!("compatible"), &json!(1), &json!(0))
    );
    assert_eq!(
        (&d[5]["member_id"], &d[5]["room_id"], &d[5]["before"]),
        (&json!(first), &json!(room), &Value::Null)
    );
    assert_eq!(
        d[6]["reason"],
        json!("Terrasse couverte, idéale en cocktail."),
        "the reason as saved (trimmed)"
    );
    assert_eq!(
        (&d[7]["member_id"], &d[7]["tier"]),
        (&json!(third), &json!("compatible"))
    );
    // Compact: no row carries more than its few facts.
    assert!(log.iter().all(|r| r.details.to_string().len() < 300));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_fill_from_the_search_logs_the_picks_it_wrote(db: PgPool) {
    seed_demo(&db).await;
    let b = builder(&db);
    let user = team(&db).await;
    let (request_id, _) = request_and_venues(&db, 0).await;
    let v = b.open(user, request_id, false).await.unwrap();
    let filled = b
        .fill_from_search(user, v.catalogue_id, v.version)
        .await
        .unwrap();
    let log = rows(&db, "catalogue.").await;
    assert_eq!(log.len(), 1);
    let d = &log[0].details;
    assert_eq!(log[0].action, "catalogue.filled");
    assert_eq!(log[0].object_id, Some(v.catalogue_id));
    assert_eq!(d["version"], json!(filled.version));
    let mut logged: Vec<(i64, String, Option<i64>)> = d["added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["member_id"].as_i64().unwrap(),
                p["tier"].as_str().unwrap().to_string(),
                p["room_id"].as_i64(),
            )
        })
        .collect();
    let mut shown: Vec<(i64, String, Option<i64>)> = filled
        .recommended
        .iter()
        .map(|p| (p, "recommended"))
        .chain(filled.compatible.iter().map(|p| (p, "compatible")))
        .map(|(p, t)| (p.member_id, t.to_string(), p.room.as_ref().map(|r| r.id)))
        .collect();
    logged.sort();
    shown.sort();
    assert!(!shown.is_empty(), "the search found venues");
    assert_eq!(logged, shown);
    assert_eq!(d["already"], json!(0));

    // A second fill writes nothing new and says the picks were already there.
    let again = b
        .fill_from_search(user, filled.catalogue_id, filled.version)
        .await
        .unwrap();
    let log = rows(&db, "catalogue.").await;
    assert_eq!(log.len(), 2);
    assert_eq!(log[1].details["added"], json!([]));
    assert_eq!(log[1].details["already"], json!(shown.len()));
    assert_eq!(log[1].details["version"], json!(again.version));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_refused_edit_audits_nothing(db: PgPool) {
    seed_demo(&db).await;
    let b = builder(&db);
    let user = team(&db).await;
    let (request_id, codes) = request_and_venues(&db, 17).await;
    let mut v = b.open(user, request_id, false).await.unwrap();
    let stale = v.clone();
    for (i, code) in codes.iter().take(16).enumerate() {
        let tier = if i % 2 == 0 {
            Tier::Recommended
        } else {
            Tier::Compatible
        };
        v = add(&b, user, &v, code, tier).await.unwrap();
    }
    let before = log_size(&db).await;
    assert_eq!(rows(&db, "catalogue.").await.len(), 16);
    let first = v.recommended[0].member_id;
    let other_venue_room = v.recommended[1].room_options[0].id;

    let refused: Vec<Result<CatalogueView, AppError>> = vec![
        // A 17th pick.
        add(&b, user, &v, &codes[16], Tier::Compatible).await,
        // A stale version (someone else edited since).
        add(&b, user, &stale, &codes[16], Tier::Compatible).await,
        b.edit(
            user,
            v.catalogue_id,
            stale.version,
            Edit::Remove { member_id: first },
        )
        .await,
        b.fill_from_search(user, v.catalogue_id, stale.version)
            .await,
        // Bad input.
        b.edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Reason {
                member_id: first,
                reason: "x".repeat(301),
            },
        )
        .await,
        b.edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Reorder {
                member_id: first,
                position: -1,
            },
        )
        .await,
        b.edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::PinRoom {
                member_id: first,
                room_id: Some(other_venue_room),
            },
        )
        .await,
        b.edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Remove { member_id: -5 },
        )
        .await,
        add(&b, user, &v, "", Tier::Recommended).await,
    ];
    for (i, r) in refused.iter().enumerate() {
        assert!(
            matches!(r, Err(AppError::Invalid(_) | AppError::Conflict(_))),
            "refusal {i}: {r:?}"
        );
    }
    assert_eq!(log_size(&db).await, before, "no refusal left a row");
    assert_eq!(b.view(v.catalogue_id).await.unwrap(), v, "nothing written");
}

/// Makes every insert of a `catalogue.*`, `availability.*` or
/// `magic_link.revoked` row fail, as a full disk or a broken constraint would.
async fn break_the_log(db: &PgPool) {
    sqlx::query(
        "CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.action LIKE 'catalogue.%' OR NEW.action LIKE 'availability.%'
              OR NEW.action = 'magic_link.revoked' THEN
             RAISE EXCEPTION 'audit log unavailable';
           END IF;
           RETURN NEW;
         END $$",
    )
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log
         FOR EACH ROW EXECUTE FUNCTION refuse_audit()",
    )
    .execute(db)
    .await
    .unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn an_edit_whose_row_cannot_be_written_fails_whole(db: PgPool) {
    seed_demo(&db).await;
    let b = builder(&db);
    let o = outreach(&db);
    let user = team(&db).await;
    let (request_id, codes) = request_and_venues(&db, 2).await;
    let v = b.open(user, request_id, false).await.unwrap();
    let v = add(&b, user, &v, &codes[0], Tier::Recommended)
        .await
        .unwrap();
    let member = v.recommended[0].member_id;
    let links: i64 = sqlx::query_scalar("SELECT count(*) FROM magic_links")
        .fetch_one(&db)
        .await
        .unwrap();
    break_the_log(&db).await;

    assert!(add(&b, user, &v, &codes[1], Tier::Recommended)
        .await
        .is_err());
    assert!(b
        .fill_from_search(user, v.catalogue_id, v.version)
        .await
        .is_err());
    assert_eq!(
        b.view(v.catalogue_id).await.unwrap(),
        v,
        "no edit without its row"
    );
    // The send and the checks too: no link out without its row.
    assert!(o.send_catalogue(user, v.catalogue_id).await.is_err());
    assert!(o
        .send_availability_checks(user, request_id, vec![member])
        .await
        .is_err());
    let (status, checks, links_now): (String, i64, i64) = sqlx::query_as(
        "SELECT (SELECT status FROM catalogues WHERE id = $1),
                (SELECT count(*) FROM availability_checks WHERE request_id = $2),
                (SELECT count(*) FROM magic_links)",
    )
    .bind(v.catalogue_id)
    .bind(request_id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!((status.as_str(), checks, links_now), ("draft", 0, links));

    sqlx::query("DROP TRIGGER refuse_audit ON audit_log")
        .execute(&db)
        .await
        .unwrap();
    let v = add(&b, user, &v, &codes[1], Tier::Recommended)
        .await
        .unwrap();
    assert_eq!(v.recommended.len(), 2, "with the log back, the edit goes");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_revocation_whose_rows_cannot_be_written_revokes_nothing(db: PgPool) {
    seed_demo(&db).await;
    let o = outreach(&db);
    let user = team(&db).await;
    let catalogue: i64 = sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    o.send_catalogue(user, catalogue).await.unwrap();
    let live = || async {
        sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM magic_links
              WHERE purpose = 'catalogue' AND subject_id = $1 AND revoked_at IS NULL",
        )
        .bind(catalogue)
        .fetch_one(&db)
        .await
        .unwrap()
    };
    let before = live().await;
    assert!(before >= 1);

    break_the_log(&db).await;
    assert!(o.revoke_catalogue_links(user, catalogue).await.is_err());
    assert_eq!(live().await, before, "no revocation without its rows");

    sqlx::query("DROP TRIGGER refuse_audit ON audit_log")
        .execute(&db)
        .await
        .unwrap();
    let revoked = o.revoke_catalogue_links(user, catalogue).await.unwrap();
    assert_eq!(revoked as i64, before);
    assert_eq!(live().await, 0);
    let logged = rows(&db, "magic_link.revoked").await;
    assert_eq!(logged.len(), revoked, "one row per revoked link");
}

#[sqlx::test(migrations = "../migrations")]
async fn sends_new_versions_and_bulk_checks_are_audited_once_each(db: PgPool) {
    seed_demo(&db).await;
    let b = builder(&db);
    let o = outreach(&db);
    let user = team(&db).await;
    let (request_id, codes) = request_and_venues(&db, 2).await;
    let v = b.open(user, request_id, false).await.unwrap();
    let v = add(&b, user, &v, &codes[0], Tier::Recommended)
        .await
        .unwrap();
    let v = add(&b, user, &v, &codes[1], Tier::Compatible)
        .await
        .unwrap();
    let ids: Vec<i64> = [&codes[0], &codes[1]]
        .iter()
        .map(|c| pick(&v, c).member_id)
        .collect();

    let sent = o.send_catalogue(user, v.catalogue_id).await.unwrap();
    let log = rows(&db, "catalogue.sent").await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].object_id, Some(v.catalogue_id));
    assert_eq!(log[0].actor_id, Some(user));
    assert_eq!(
        log[0].details,
        json!({"link_id": sent.link_id, "picks": 2, "resend": false})
    );

    let next = b.new_version(user, v.catalogue_id).await.unwrap();
    let log = rows(&db, "catalogue.version_created").await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].object_id, Some(next.catalogue_id));
    assert_eq!(
        log[0].details,
        json!({"copied_from": v.catalogue_id, "version": next.version})
    );
    // Asking again opens the same draft: nothing new is created, or logged.
    b.new_version(user, v.catalogue_id).await.unwrap();
    assert_eq!(rows(&db, "catalogue.version_created").await.len(), 1);

    let checks = o
        .send_availability_checks(user, request_id, ids.clone())
        .await
        .unwrap();
    let log = rows(&db, "availability.requested").await;
    assert_eq!(log.len(), 2, "one row per check, not two");
    for (r, (check, member)) in log.iter().zip(checks.iter().zip(&ids)) {
        assert_eq!(r.object_type.as_deref(), Some("availability_check"));
        assert_eq!(r.object_id, Some(check.check_id));
        assert_eq!(r.details["member_id"], json!(member));
        assert_eq!(r.details["request_id"], json!(request_id));
        assert_eq!(r.details["reused"], json!(false));
    }
    // Sent again: the pending checks are reused, and the log says so.
    o.send_availability_checks(user, request_id, ids.clone())
        .await
        .unwrap();
    let log = rows(&db, "availability.requested").await;
    assert_eq!(log.len(), 4);
    assert!(log[2..].iter().all(|r| r.details["reused"] == json!(true)));

    // A refused send (a training catalogue) audits nothing.
    let t = b.open(user, request_id, true).await.unwrap();
    let t = add(&b, user, &t, &codes[0], Tier::Recommended)
        .await
        .unwrap();
    let before = log_size(&db).await;
    assert!(o.send_catalogue(user, t.catalogue_id).await.is_err());
    assert_eq!(log_size(&db).await, before);
}

/// A card of the assistant's, proposed (it must pass) and stored.
async fn card(
    db: &PgPool,
    w: &fixture::World,
    call: &str,
    name: &str,
    input: Value,
) -> server::approvals::PendingApproval {
    let p = fixture::propose(db, w, Mode::Chat, name, input)
        .await
        .unwrap();
    fixture::pending(db, w.conversation, w.message, call, name, &p).await
}

async fn approve(
    db: &PgPool,
    w: &fixture::World,
    card: &server::approvals::PendingApproval,
) -> server::approvals::DecisionOutcome {
    let decision = Decision::Approve {
        arguments_hash: card.arguments_hash.clone(),
    };
    server::approvals::decide(db, &fixture::key(), w.user, card.id, decision)
        .await
        .unwrap()
}

fn proposed(code: &str, tier: &str) -> Value {
    json!({"member_code": code, "tier": tier, "reason": format!("{code} reçoit 180 personnes.")})
}

#[sqlx::test(migrations = "../migrations")]
async fn approved_assistant_writes_are_audited_like_the_builders(db: PgPool) {
    let w = fixture::plant(&db).await;
    let r = w.request_id;
    let picks = vec![
        proposed("#101", "recommended"),
        proposed("#102", "recommended"),
        proposed("#103", "compatible"),
    ];
    let first = card(
        &db,
        &w,
        "t1",
        "add_members_to_catalog",
        json!({"request_id": r, "picks": picks}),
    )
    .await;
    // Proposed now, while it still fits; approved after the first, when
    // it goes over the 4 + 4 norm.
    let over: Vec<Value> = ["#104", "#105", "#106"]
        .iter()
        .map(|c| proposed(c, "recommended"))
        .collect();
    let second = card(
        &db,
        &w,
        "t2",
        "add_members_to_catalog",
        json!({"request_id": r, "picks": over}),
    )
    .await;
    let done = approve(&db, &w, &first).await;
    assert_eq!(done.status, "executed", "{}", done.detail);
    let log = rows(&db, "catalogue.").await;
    assert_eq!(log.len(), 1);
    let row = &log[0];
    assert_eq!(row.action, "catalogue.proposal_applied");
    assert_eq!(row.actor_id, Some(w.user), "the approver acted");
    let catalogue_id: i64 = sqlx::query_scalar("SELECT id FROM catalogues")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(row.object_id, Some(catalogue_id));
    assert_eq!(row.details["conversation_id"], json!(w.conversation));
    let codes: Vec<&str> = row.details["added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["#101", "#102", "#103"]);
    assert_eq!(row.details["updated"], json!([]));

    // Over the norm it fails at execution: nothing written, nothing audited
    // as a catalogue change (the approval's own row says it failed).
    let failed = approve(&db, &w, &second).await;
    assert_eq!(failed.status, "failed", "{}", failed.detail);
    assert_eq!(rows(&db, "catalogue.").await.len(), 1);
    assert_eq!(rows(&db, "approval.failed").await.len(), 1);

    // The approved availability check is audited by the same function as
    // the builder's bulk send: one row. A second card for the same venue,
    // proposed before the first ran, is refused at execution: no row.
    let check = json!({"request_id": r, "member_code": "#102"});
    let one = card(&db, &w, "t3", "request_availability_check", check.clone()).await;
    let two = card(&db, &w, "t4", "request_availability_check", check).await;
    let done = approve(&db, &w, &one).await;
    assert_eq!(done.status, "executed", "{}", done.detail);
    let log = rows(&db, "availability.requested").await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].actor_id, Some(w.user));
    assert_eq!(log[0].details["reused"], json!(false));
    let again = approve(&db, &w, &two).await;
    assert_eq!(again.status, "failed", "{}", again.detail);
    assert_eq!(rows(&db, "availability.requested").await.len(), 1);
}
