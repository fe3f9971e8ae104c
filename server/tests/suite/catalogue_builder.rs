//! The catalogue builder on a real database: filling from the venue search,
//! every operation, concurrent edits, the pick limits (16 standard, 25 in
//! training), room pinning, the acceptance rate, the workspace, and bad
//! input that must be refused clearly with nothing lost.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::catalogue_builder::{
    BuilderStart, CatalogueBuilder, CatalogueView, Edit, InventedScenario, PickView, Tier,
};
use app::errors::AppError;
use server::catalogue_builder::CatalogueBuilderService;
use server::search::SearchService;
use sqlx::PgPool;
use std::sync::Arc;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

fn service(db: &PgPool) -> CatalogueBuilderService {
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

async fn user(db: &PgPool, email: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(db)
        .await
        .unwrap()
}

/// A fresh request in the pool with the most active venues: 20 guests in
/// cocktail, so most venues have a room for it. (request id, pool id)
async fn request(db: &PgPool) -> (i64, i64) {
    let pool_id: i64 = sqlx::query_scalar(
        "SELECT pool_id FROM members WHERE status = 'active'
          GROUP BY pool_id ORDER BY count(*) DESC, pool_id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let id = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants, configurations)
         VALUES ('T-' || gen_random_uuid(), $1, 'Cocktail festif avec terrasse', 'cocktail', 20, '{cocktail}')
         RETURNING id",
    )
    .bind(pool_id)
    .fetch_one(db)
    .await
    .unwrap();
    (id, pool_id)
}

/// `n` new active venues of the pool, each with one 500-seat cocktail room.
async fn venues(db: &PgPool, pool_id: i64, n: i64) -> Vec<String> {
    let codes: Vec<String> = sqlx::query_scalar(
        "INSERT INTO members (code, name, pool_id, status, city)
         SELECT '#9' || lpad(g::text, 5, '0') || $2, 'Lieu d''essai ' || g, $1, 'active', 'Paris'
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
    codes
}

fn all(v: &CatalogueView) -> Vec<&PickView> {
    v.recommended.iter().chain(&v.compatible).collect()
}

fn invalid(r: Result<CatalogueView, AppError>) -> String {
    match r {
        Err(AppError::Invalid(m)) => m,
        other => panic!("expected a clear refusal, got {other:?}"),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn filling_from_the_search_gives_at_most_four_and_four_with_rooms_pinned(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, _) = request(&db).await;
    let opened = builder.open(team, request_id, false).await.unwrap();
    assert_eq!(
        (opened.kind.as_str(), opened.status.as_str()),
        ("standard", "draft")
    );
    assert!(all(&opened).is_empty());
    // Opening again gives the same draft, not a second one.
    let again = builder.open(team, request_id, false).await.unwrap();
    assert_eq!(again.catalogue_id, opened.catalogue_id);

    let filled = builder
        .fill_from_search(team, opened.catalogue_id, opened.version)
        .await
        .unwrap();
    assert!(filled.recommended.len() <= 4 && filled.compatible.len() <= 4);
    assert!(!all(&filled).is_empty(), "the search found venues");
    assert_eq!(filled.version, opened.version + 1);
    for pick in all(&filled) {
        let room = pick.room.as_ref().expect("the matched room is pinned");
        assert!(
            room.capacity >= 20 && room.configuration == "cocktail",
            "{pick:?}"
        );
        assert!(pick.room_options.iter().any(|r| r.id == room.id));
        assert!(!pick.reason.is_empty(), "the search's reason is kept");
        assert_eq!(pick.added_by, "ai");
    }
    let acceptance = filled
        .acceptance
        .expect("the search's picks are remembered");
    assert_eq!(acceptance.search_picks as usize, all(&filled).len());
    assert_eq!(acceptance.kept, acceptance.search_picks);

    // A second fill only fills empty slots: nothing twice, never over 4 + 4.
    let refilled = builder
        .fill_from_search(team, filled.catalogue_id, filled.version)
        .await
        .unwrap();
    assert!(refilled.recommended.len() <= 4 && refilled.compatible.len() <= 4);
    let mut ids: Vec<i64> = all(&refilled).iter().map(|p| p.member_id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all(&refilled).len());
}

#[sqlx::test(migrations = "../migrations")]
async fn every_operation_is_saved_at_once(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 3).await;
    let v = builder.open(team, request_id, false).await.unwrap();
    let id = v.catalogue_id;

    // Add by code, and by exact name (any case).
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Add {
                member: "LIEU D'ESSAI 2".into(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Add {
                member: codes[2].clone(),
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    let order =
        |v: &CatalogueView, t: Tier| v.tier(t).iter().map(|p| p.code.clone()).collect::<Vec<_>>();
    assert_eq!(
        order(&v, Tier::Recommended),
        [codes[0].clone(), codes[1].clone()]
    );
    assert_eq!(order(&v, Tier::Compatible), [codes[2].clone()]);
    assert_eq!(v.version, 3);
    assert!(v.last_edit.as_deref().unwrap().starts_with("Modifié par"));
    // Short tiers are a warning, never a block.
    assert!(
        v.warnings.iter().any(|w| w.contains("4 + 2")),
        "{:?}",
        v.warnings
    );
    let m =
        |v: &CatalogueView, code: &str| all(v).iter().find(|p| p.code == code).unwrap().member_id;

    // Reorder within a tier.
    let second = m(&v, &codes[1]);
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Reorder {
                member_id: second,
                position: 0,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        order(&v, Tier::Recommended),
        [codes[1].clone(), codes[0].clone()]
    );

    // Move to the other tier (at its end).
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Move {
                member_id: second,
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    assert_eq!(order(&v, Tier::Recommended), [codes[0].clone()]);
    assert_eq!(
        order(&v, Tier::Compatible),
        [codes[2].clone(), codes[1].clone()]
    );
    let positions: Vec<i32> = v.compatible.iter().map(|p| p.position).collect();
    assert_eq!(positions, [0, 1]);

    // Pin a room of the venue that holds the group, then unpin it.
    let first = m(&v, &codes[0]);
    let pick = all(&v)
        .into_iter()
        .find(|p| p.member_id == first)
        .unwrap()
        .clone();
    assert_eq!(pick.room_options.len(), 1);
    let room = pick.room_options[0].id;
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::PinRoom {
                member_id: first,
                room_id: Some(room),
            },
        )
        .await
        .unwrap();
    assert_eq!(v.recommended[0].room.as_ref().map(|r| r.id), Some(room));

    // The one-line reason, trimmed.
    let v = builder
        .edit(
            team,
            id,
            v.version,
            Edit::Reason {
                member_id: first,
                reason: "  Terrasse plein sud.  ".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(v.recommended[0].reason, "Terrasse plein sud.");

    // Remove: the tier closes up.
    let third = m(&v, &codes[2]);
    let v = builder
        .edit(team, id, v.version, Edit::Remove { member_id: third })
        .await
        .unwrap();
    assert_eq!(order(&v, Tier::Compatible), [codes[1].clone()]);
    assert_eq!(v.compatible[0].position, 0);

    // What the builder answered is what a fresh load reads.
    let reloaded = builder.view(id).await.unwrap();
    assert_eq!(reloaded, v);
    assert_eq!(reloaded.version, 8, "open, then seven edits");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stale_edit_is_refused_and_nothing_of_the_first_is_lost(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let (camille, admin) = (user(&db, TEAM).await, user(&db, ADMIN).await);
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 2).await;
    let v = builder.open(camille, request_id, false).await.unwrap();
    let v = builder
        .edit(
            camille,
            v.catalogue_id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    let member = v.recommended[0].member_id;
    // Both have version `seen` on screen; Camille moves the venue first.
    let seen = v.version;
    let first = builder
        .edit(
            camille,
            v.catalogue_id,
            seen,
            Edit::Move {
                member_id: member,
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    // The admin, still on `seen`, removes it and adds another: both refused.
    for edit in [
        Edit::Remove { member_id: member },
        Edit::Add {
            member: codes[1].clone(),
            tier: Tier::Recommended,
        },
    ] {
        match builder.edit(admin, v.catalogue_id, seen, edit).await {
            Err(AppError::Conflict(message)) => {
                let name: String =
                    sqlx::query_scalar("SELECT display_name FROM users WHERE id = $1")
                        .bind(camille)
                        .fetch_one(&db)
                        .await
                        .unwrap();
                assert!(
                    message.starts_with(&format!("Ce catalogue a été modifié par {name} à "))
                        && message.ends_with("— version rechargée."),
                    "{message}"
                );
            }
            other => panic!("a stale edit must be refused: {other:?}"),
        }
    }
    // The fill is checked too (before and after its search).
    assert!(matches!(
        builder.fill_from_search(admin, v.catalogue_id, seen).await,
        Err(AppError::Conflict(_))
    ));
    let now = builder.view(v.catalogue_id).await.unwrap();
    assert_eq!(now, first, "the first edit stands, untouched");
    // Reloaded, the admin's edit goes through.
    let after = builder
        .edit(
            admin,
            v.catalogue_id,
            now.version,
            Edit::Remove { member_id: member },
        )
        .await
        .unwrap();
    assert!(all(&after).is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_standard_catalogue_holds_sixteen_and_a_training_one_twenty_five(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 26).await;

    let mut v = builder.open(team, request_id, false).await.unwrap();
    for (i, code) in codes.iter().take(16).enumerate() {
        let tier = if i % 2 == 0 {
            Tier::Recommended
        } else {
            Tier::Compatible
        };
        v = builder
            .edit(
                team,
                v.catalogue_id,
                v.version,
                Edit::Add {
                    member: code.clone(),
                    tier,
                },
            )
            .await
            .unwrap();
    }
    assert_eq!(all(&v).len(), 16);
    // Over the 4 + 4 norm: a warning, not a refusal.
    assert!(
        v.warnings.iter().any(|w| w.contains("la norme est 4 + 4")),
        "{:?}",
        v.warnings
    );
    let refused = invalid(
        builder
            .edit(
                team,
                v.catalogue_id,
                v.version,
                Edit::Add {
                    member: codes[16].clone(),
                    tier: Tier::Compatible,
                },
            )
            .await,
    );
    assert!(refused.contains("au plus 16"), "{refused}");
    assert_eq!(
        builder.view(v.catalogue_id).await.unwrap(),
        v,
        "nothing written"
    );

    let mut t = builder.open(team, request_id, true).await.unwrap();
    assert_eq!((t.kind.as_str(), t.max_picks), ("training", 25));
    assert_ne!(t.catalogue_id, v.catalogue_id);
    for code in codes.iter().take(25) {
        t = builder
            .edit(
                team,
                t.catalogue_id,
                t.version,
                Edit::Add {
                    member: code.clone(),
                    tier: Tier::Recommended,
                },
            )
            .await
            .unwrap();
    }
    assert_eq!(all(&t).len(), 25);
    assert!(
        t.warnings.is_empty(),
        "no per-tier norm in training: {:?}",
        t.warnings
    );
    let refused = invalid(
        builder
            .edit(
                team,
                t.catalogue_id,
                t.version,
                Edit::Add {
                    member: codes[25].clone(),
                    tier: Tier::Compatible,
                },
            )
            .await,
    );
    assert!(refused.contains("au plus 25"), "{refused}");

    // A training catalogue can never be sent: the database refuses it too.
    let sent = sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1")
        .bind(t.catalogue_id)
        .execute(&db)
        .await;
    assert!(sent.is_err());
}

#[sqlx::test(migrations = "../migrations")]
async fn only_a_room_of_the_venue_that_holds_the_group_can_be_pinned(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 2).await;
    // A small room of the first venue: 10 seats in cocktail, for 20 guests;
    // and a big one in banquet only (not a requested layout).
    let (member, small): (i64, i64) = sqlx::query_as(
        "WITH r AS (INSERT INTO rooms (member_id, name)
                    SELECT id, 'Petit salon' FROM members WHERE code = $1 RETURNING id, member_id),
              c AS (INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
                    SELECT id, member_id, 'cocktail', 10 FROM r)
         SELECT member_id, id FROM r",
    )
    .bind(&codes[0])
    .fetch_one(&db)
    .await
    .unwrap();
    let banquet: i64 = sqlx::query_scalar(
        "WITH r AS (INSERT INTO rooms (member_id, name) VALUES ($1, 'Salle banquet') RETURNING id, member_id),
              c AS (INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
                    SELECT id, member_id, 'banquet', 300 FROM r)
         SELECT id FROM r",
    )
    .bind(member)
    .fetch_one(&db)
    .await
    .unwrap();
    let other_room: i64 = sqlx::query_scalar(
        "SELECT r.id FROM rooms r JOIN members m ON m.id = r.member_id WHERE m.code = $1",
    )
    .bind(&codes[1])
    .fetch_one(&db)
    .await
    .unwrap();
    let v = builder.open(team, request_id, false).await.unwrap();
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    // Only the big cocktail room is offered.
    let offered: Vec<i64> = v.recommended[0].room_options.iter().map(|r| r.id).collect();
    assert!(!offered.contains(&small) && !offered.contains(&banquet));
    assert_eq!(offered.len(), 1);
    for (room, expected) in [
        (small, "ne peut pas recevoir 20 personnes en cocktail"),
        (banquet, "ne peut pas recevoir"),
        (other_room, "n'appartient pas au lieu"),
        (999_999_999, "Salle inconnue"),
    ] {
        let m = invalid(
            builder
                .edit(
                    team,
                    v.catalogue_id,
                    v.version,
                    Edit::PinRoom {
                        member_id: member,
                        room_id: Some(room),
                    },
                )
                .await,
        );
        assert!(m.contains(expected), "{m}");
    }
    assert_eq!(
        builder.view(v.catalogue_id).await.unwrap(),
        v,
        "nothing written"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_acceptance_rate_counts_kept_moved_and_replaced(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 1).await;
    let v = builder.open(team, request_id, false).await.unwrap();
    assert_eq!(builder.acceptance(request_id).await.unwrap(), None);
    let v = builder
        .fill_from_search(team, v.catalogue_id, v.version)
        .await
        .unwrap();
    let picks: Vec<PickView> = all(&v).into_iter().cloned().collect();
    assert!(
        picks.len() >= 3,
        "the search gives at least 3 venues: {}",
        picks.len()
    );
    let total = picks.len() as i32;
    // Move one to the other tier, remove another, add a venue of our own.
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Move {
                member_id: picks[0].member_id,
                tier: picks[0].tier.other(),
            },
        )
        .await
        .unwrap();
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Remove {
                member_id: picks[1].member_id,
            },
        )
        .await
        .unwrap();
    let replaced_slot = picks[1].tier;
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: replaced_slot,
            },
        )
        .await
        .unwrap();
    let a = v.acceptance.unwrap();
    assert_eq!(
        (a.search_picks, a.kept, a.moved, a.replaced),
        (total, total - 2, 1, 1)
    );
    assert_eq!(builder.acceptance(request_id).await.unwrap(), Some(a));
    // Moving it back counts as kept again.
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Move {
                member_id: picks[0].member_id,
                tier: picks[0].tier,
            },
        )
        .await
        .unwrap();
    let a = v.acceptance.unwrap();
    assert_eq!((a.kept, a.moved, a.replaced), (total - 1, 0, 1));
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_is_refused_clearly_and_loses_nothing(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 2).await;
    assert!(matches!(
        builder.open(team, 999_999_999, false).await,
        Err(AppError::NotFound)
    ));
    assert!(matches!(
        builder.view(999_999_999).await,
        Err(AppError::NotFound)
    ));
    assert!(matches!(
        builder
            .edit(team, 999_999_999, 0, Edit::Remove { member_id: 1 })
            .await,
        Err(AppError::NotFound)
    ));
    let v = builder.open(team, request_id, false).await.unwrap();
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    let member = v.recommended[0].member_id;
    let id = v.catalogue_id;
    let version = v.version;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Edit::Reason {
                member_id: member,
                reason: "x".repeat(10_000),
            },
            "dépasse 300 caractères",
        ),
        // (A reason on several lines is one paragraph now: search_actions.rs.)
        (
            Edit::Reason {
                member_id: member,
                reason: "nul\0".into(),
            },
            "caractère nul",
        ),
        (
            Edit::Reorder {
                member_id: member,
                position: -1,
            },
            "commencent à 0",
        ),
        (
            Edit::Reorder {
                member_id: member,
                position: 5,
            },
            "hors du rang",
        ),
        (
            Edit::Remove {
                member_id: 999_999_999,
            },
            "pas (ou plus) dans le catalogue",
        ),
        (
            Edit::Move {
                member_id: -4,
                tier: Tier::Compatible,
            },
            "pas (ou plus) dans le catalogue",
        ),
        (
            Edit::Add {
                member: "   ".into(),
                tier: Tier::Recommended,
            },
            "Indiquez le code",
        ),
        (
            Edit::Add {
                member: "#0000000".into(),
                tier: Tier::Recommended,
            },
            "Aucun lieu",
        ),
        (
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Compatible,
            },
            "déjà au catalogue",
        ),
        (
            Edit::Add {
                member: "y".repeat(10_000),
                tier: Tier::Compatible,
            },
            "trop long",
        ),
    ];
    for (edit, expected) in cases {
        let m = invalid(builder.edit(team, id, version, edit.clone()).await);
        assert!(m.contains(expected), "{edit:?}: {m}");
    }
    // An inactive venue. (A venue of another pool may be added: issue 29,
    // search_actions.rs.)
    sqlx::query("UPDATE members SET status = 'inactive' WHERE code = $1")
        .bind(&codes[1])
        .execute(&db)
        .await
        .unwrap();
    let m = invalid(
        builder
            .edit(
                team,
                id,
                version,
                Edit::Add {
                    member: codes[1].clone(),
                    tier: Tier::Compatible,
                },
            )
            .await,
    );
    assert!(m.contains("n'est pas actif"), "{m}");
    // After all that, the catalogue and its version are as they were.
    assert_eq!(builder.view(id).await.unwrap(), v);
    // Lookups: short queries give nothing, long ones a clear refusal.
    assert!(builder.lookup(id, "a".into()).await.unwrap().is_empty());
    assert!(matches!(
        builder.lookup(id, "z".repeat(10_000)).await,
        Err(AppError::Invalid(_))
    ));
    let found = builder.lookup(id, "lieu d'essai".into()).await.unwrap();
    assert!(found.iter().any(|m| m.code == codes[0]));
    assert!(
        found.iter().all(|m| m.code != codes[1]),
        "inactive venues are not offered"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_sent_catalogue_is_read_only_and_a_new_version_copies_it(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 2).await;
    let v = builder.open(team, request_id, false).await.unwrap();
    let v = builder
        .edit(
            team,
            v.catalogue_id,
            v.version,
            Edit::Add {
                member: codes[0].clone(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1")
        .bind(v.catalogue_id)
        .execute(&db)
        .await
        .unwrap();
    let sent = builder.open(team, request_id, false).await.unwrap();
    assert_eq!(
        (sent.catalogue_id, sent.status.as_str()),
        (v.catalogue_id, "sent")
    );
    assert!(sent.read_only());
    match builder
        .edit(
            team,
            sent.catalogue_id,
            sent.version,
            Edit::Add {
                member: codes[1].clone(),
                tier: Tier::Compatible,
            },
        )
        .await
    {
        Err(AppError::Conflict(m)) => assert!(m.contains("Nouvelle version"), "{m}"),
        other => panic!("{other:?}"),
    }
    let draft = builder.new_version(team, sent.catalogue_id).await.unwrap();
    assert_ne!(draft.catalogue_id, sent.catalogue_id);
    assert_eq!(draft.status, "draft");
    assert_eq!(draft.recommended[0].code, codes[0]);
    // The builder now opens the new draft; the sent one is untouched.
    assert_eq!(
        builder
            .open(team, request_id, false)
            .await
            .unwrap()
            .catalogue_id,
        draft.catalogue_id
    );
    assert_eq!(
        all(&builder.view(sent.catalogue_id).await.unwrap()).len(),
        1
    );
    assert!(matches!(
        builder.new_version(team, draft.catalogue_id).await,
        Err(AppError::Conflict(_))
    ));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_workspace_stores_invented_requests_and_builds_training_catalogues(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let good = InventedScenario {
        pool: pool.clone(),
        description: "Soirée festive avec jardin".into(),
        participants: Some(80),
        configurations: vec!["cocktail".into()],
        postal_codes: "75008, 75017".into(),
        area: "Paris ouest".into(),
        event_type: " Soirée ".into(),
    };
    for (bad, expected) in [
        (
            InventedScenario {
                description: " ".into(),
                ..good.clone()
            },
            "Décrivez",
        ),
        (
            InventedScenario {
                participants: Some(-3),
                ..good.clone()
            },
            "participants",
        ),
        (
            InventedScenario {
                configurations: vec!["piscine".into()],
                ..good.clone()
            },
            "Configuration inconnue",
        ),
        (
            InventedScenario {
                postal_codes: "7500".into(),
                ..good.clone()
            },
            "Code postal invalide",
        ),
        (
            InventedScenario {
                pool: "nulle-part".into(),
                ..good.clone()
            },
            "pool",
        ),
        (
            InventedScenario {
                description: "x".repeat(10_000),
                ..good.clone()
            },
            "dépasse",
        ),
    ] {
        match builder.invent(team, bad).await {
            Err(AppError::Invalid(m)) => assert!(m.contains(expected), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    let id = builder.invent(team, good).await.unwrap();
    let (reference, scenario, source, event_type): (String, bool, String, Option<String>) =
        sqlx::query_as(
            "SELECT reference, workspace_scenario, source, event_type FROM requests WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(reference, format!("ATELIER-{id}"));
    assert!(scenario);
    assert_eq!(
        (source.as_str(), event_type.as_deref()),
        ("manual", Some("soirée"))
    );
    // « Créer et entraîner »: the invented request comes with its training
    // draft, which the builder then opens.
    let found = builder.find(id, true).await.unwrap();
    let BuilderStart::Catalogue(t) = found else {
        panic!("no training draft: {found:?}")
    };
    assert_eq!(
        builder.open(team, id, true).await.unwrap().catalogue_id,
        t.catalogue_id
    );
    assert_eq!(t.kind, "training");
    assert!(t.request.workspace_scenario);
    let listed = builder.scenarios().await.unwrap();
    assert!(listed
        .iter()
        .any(|s| s.request_id == id && s.workspace_scenario));
}

#[sqlx::test(migrations = "../migrations")]
async fn only_signed_in_team_members_reach_the_builder(db: PgPool) {
    seed_demo(&db).await;
    let (request_id, _) = request(&db).await;
    let app = TestApp::start(db.clone()).await;
    let id = request_id.to_string();
    for (path, fields) in [
        (
            "/api/catalogues/open",
            vec![("request_id", id.as_str()), ("training", "false")],
        ),
        (
            "/api/catalogues/find",
            vec![("request_id", id.as_str()), ("training", "false")],
        ),
        ("/api/catalogues/view", vec![("catalogue_id", "1")]),
        (
            "/api/catalogues/remove",
            vec![("catalogue_id", "1"), ("version", "0"), ("member_id", "1")],
        ),
        (
            "/api/catalogues/acceptance",
            vec![("request_id", id.as_str())],
        ),
        ("/api/catalogues/workspace/scenarios", vec![]),
    ] {
        let reply = app.post_form(path, &fields, None).await;
        assert_eq!(reply.status.as_u16(), 401, "{path}: {}", reply.body);
    }
    assert_eq!(
        app.count(
            "SELECT count(*) FROM catalogues WHERE request_id = (SELECT max(id) FROM requests)"
        )
        .await,
        0
    );
    let pages = app.get(&format!("/demandes/{id}/catalogue"), None).await;
    assert!(pages.status.is_redirection(), "{}", pages.status);
    // Signed in, the same call opens the draft.
    let session = app.sign_in(TEAM, PASSWORD).await;
    let reply = app
        .post_form(
            "/api/catalogues/open",
            &[("request_id", id.as_str()), ("training", "false")],
            Some(&session),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    assert_eq!(reply.json()["kind"], "standard");
    let page = app
        .get(&format!("/demandes/{id}/catalogue"), Some(&session))
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(
        page.body.contains("Remplir depuis la recherche"),
        "server-rendered builder"
    );
    // The workspace's form encoding: empty lists and absent numbers are left out.
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let invented = app
        .post_form(
            "/api/catalogues/workspace/invent",
            &[
                ("scenario[pool]", pool.as_str()),
                ("scenario[description]", "Soirée d'entreprise"),
            ],
            Some(&session),
        )
        .await;
    assert_eq!(invented.status.as_u16(), 200, "{}", invented.body);
    assert!(
        invented.body.contains("/catalogue?atelier=1"),
        "{}",
        invented.body
    );
    let bad = app
        .post_form(
            "/api/catalogues/move",
            &[
                ("catalogue_id", "1"),
                ("version", "0"),
                ("member_id", "1"),
                ("tier", "ailleurs"),
            ],
            Some(&session),
        )
        .await;
    assert_eq!(bad.status.as_u16(), 422, "{}", bad.body);
    assert!(bad.body.contains("Rang inconnu"), "{}", bad.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn picks_written_by_the_assistant_show_up_and_make_open_builders_reload(db: PgPool) {
    use server::db::catalogue_drafts::{self, NewPick};
    seed_demo(&db).await;
    let builder = service(&db);
    let team = user(&db, TEAM).await;
    let (request_id, pool_id) = request(&db).await;
    let codes = venues(&db, pool_id, 1).await;
    let seen = builder.open(team, request_id, false).await.unwrap();
    let (member, room): (i64, i64) = sqlx::query_as(
        "SELECT m.id, r.id FROM members m JOIN rooms r ON r.member_id = m.id WHERE m.code = $1",
    )
    .bind(&codes[0])
    .fetch_one(&db)
    .await
    .unwrap();
    // What the approved `add_members_to_catalog` writes, in its transaction.
    let mut tx = db.begin().await.unwrap();
    let id = catalogue_drafts::lock_draft(&mut tx, request_id, "standard", team)
        .await
        .unwrap();
    assert_eq!(id, seen.catalogue_id, "the assistant fills the same draft");
    let pick = NewPick {
        member_id: member,
        tier: "recommended",
        position: 0,
        explanation: "Proposé par Maxy.",
        room_id: Some(room),
    };
    catalogue_drafts::insert_pick(&mut tx, id, &pick, team)
        .await
        .unwrap();
    catalogue_drafts::touch(&mut tx, id, team).await.unwrap();
    tx.commit().await.unwrap();

    let now = builder.view(id).await.unwrap();
    assert_eq!(now.version, seen.version + 1);
    let shown = &now.recommended[0];
    assert_eq!(
        (shown.code.as_str(), shown.added_by.as_str()),
        (codes[0].as_str(), "ai")
    );
    assert_eq!(shown.room.as_ref().map(|r| r.id), Some(room));
    assert_eq!(shown.reason, "Proposé par Maxy.");
    // A builder still on the version before is told to reload.
    assert!(matches!(
        builder
            .edit(team, id, seen.version, Edit::Remove { member_id: member })
            .await,
        Err(AppError::Conflict(_))
    ));
}
