//! A pick's reason, as the team and organizers hit it (issue #25): the
//! reason follows the pinned room and the tier (« Terrasse · 216 places en
//! cocktail » pinned under a reason « 117 places en banquet » was the
//! finding), a reason a person wrote is kept, and internal signals (team
//! favourite, times proposed, response time) reach the team's note in the
//! builder, never an organizer's page — including catalogues already sent
//! with such reasons stored.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::catalogue_builder::{CatalogueBuilder, CatalogueView, Edit, PickView, Tier};
use server::catalogue_builder::CatalogueBuilderService;
use server::search::SearchService;
use sqlx::PgPool;
use std::sync::Arc;
use support::app::{seed_demo, TestApp, TEAM};

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

async fn team(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(db)
        .await
        .unwrap()
}

/// What an organizer must never read, as it would appear in HTML (the
/// apostrophe may be escaped, so the fragments stop before it).
const INTERNAL: &[&str] = &[
    "favori de l",
    "Favori de l",
    "déjà proposé",
    "répond en",
    "répond peu",
    "répond à",
    "retours de l",
    "rétrogradé",
];

/// A request for 180 guests in cocktail or banquet, and one venue with two
/// rooms: the « Terrasse » (216 in cocktail, 117 in banquet) and the
/// « Salon Opéra » (190 in banquet). (request id, venue code, room ids)
async fn venue_with_two_rooms(db: &PgPool) -> (i64, String, i64, i64) {
    let pool_id: i64 = sqlx::query_scalar("SELECT id FROM pools ORDER BY id LIMIT 1")
        .fetch_one(db)
        .await
        .unwrap();
    let request_id: i64 = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants, configurations)
         VALUES ('T-RAISONS', $1, 'Soirée de lancement', 'soiree', 180, '{cocktail,banquet}')
         RETURNING id",
    )
    .bind(pool_id)
    .fetch_one(db)
    .await
    .unwrap();
    let member_id: i64 = sqlx::query_scalar(
        "INSERT INTO members (code, name, pool_id, status, city)
         VALUES ('#987654', 'Maison des Raisons', $1, 'active', 'Paris') RETURNING id",
    )
    .bind(pool_id)
    .fetch_one(db)
    .await
    .unwrap();
    let room = |name: &'static str| async move {
        sqlx::query_scalar::<_, i64>(
            "INSERT INTO rooms (member_id, name) VALUES ($1, $2) RETURNING id",
        )
        .bind(member_id)
        .bind(name)
        .fetch_one(db)
        .await
        .unwrap()
    };
    let terrasse = room("Terrasse").await;
    let salon = room("Salon Opéra").await;
    sqlx::query(
        "INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
         VALUES ($1, $3, 'cocktail', 216), ($1, $3, 'banquet', 117), ($2, $3, 'banquet', 190)",
    )
    .bind(terrasse)
    .bind(salon)
    .bind(member_id)
    .execute(db)
    .await
    .unwrap();
    (request_id, "#987654".into(), terrasse, salon)
}

fn the_pick(v: &CatalogueView) -> &PickView {
    v.recommended
        .iter()
        .chain(&v.compatible)
        .find(|p| p.code == "#987654")
        .expect("the venue is in the catalogue")
}

/// The builder open on a draft holding the venue, recommended, no room yet.
async fn draft_with_the_venue(
    builder: &CatalogueBuilderService,
    user: i64,
    request_id: i64,
    code: &str,
) -> CatalogueView {
    let opened = builder.open(user, request_id, false).await.unwrap();
    builder
        .edit(
            user,
            opened.catalogue_id,
            opened.version,
            Edit::Add {
                member: code.into(),
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_pick_whose_pinned_room_changes_gets_a_reason_naming_that_room(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let user = team(&db).await;
    let (request_id, code, terrasse, salon) = venue_with_two_rooms(&db).await;
    let v = draft_with_the_venue(&builder, user, request_id, &code).await;
    let member_id = the_pick(&v).member_id;

    let pin = |v: CatalogueView, room: i64| {
        let builder = &builder;
        async move {
            builder
                .edit(
                    user,
                    v.catalogue_id,
                    v.version,
                    Edit::PinRoom {
                        member_id,
                        room_id: Some(room),
                    },
                )
                .await
                .unwrap()
        }
    };
    let v = pin(v, terrasse).await;
    let shown = the_pick(&v);
    let room = shown.room.as_ref().unwrap();
    assert_eq!(
        (
            room.name.as_str(),
            room.configuration.as_str(),
            room.capacity
        ),
        ("Terrasse", "cocktail", 216),
        "the pin as the card shows it"
    );
    assert!(
        shown.reason.contains("« Terrasse »") && shown.reason.contains("216 places en cocktail"),
        "the reason says what the pin says: {}",
        shown.reason
    );
    assert!(
        !shown.reason.contains("117") && !shown.reason.contains("banquet"),
        "{}",
        shown.reason
    );

    // The team pins the other room: the reason follows, nothing of the first stays.
    let v = pin(v, salon).await;
    let shown = the_pick(&v);
    assert!(
        shown.reason.contains("« Salon Opéra »")
            && shown.reason.contains("190 places en banquet")
            && shown.reason.contains("180 personnes"),
        "{}",
        shown.reason
    );
    assert!(
        !shown.reason.contains("Terrasse") && !shown.reason.contains("216"),
        "{}",
        shown.reason
    );

    // The organizer reads the same room, layout and capacity as the reason.
    sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1")
        .bind(v.catalogue_id)
        .execute(&db)
        .await
        .unwrap();
    let page = organizer_page(&db, v.catalogue_id).await;
    assert!(
        page.contains("Salon Opéra") && page.contains("190 places en banquet pour 180 personnes"),
        "{page}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_reason_a_person_wrote_is_kept_when_the_pin_or_tier_changes(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let user = team(&db).await;
    let (request_id, code, terrasse, salon) = venue_with_two_rooms(&db).await;
    let v = draft_with_the_venue(&builder, user, request_id, &code).await;
    let member_id = the_pick(&v).member_id;
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::PinRoom {
                member_id,
                room_id: Some(terrasse),
            },
        )
        .await
        .unwrap();
    let written = "Le rooftop le plus couru du quartier, réservé pour vous.";
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Reason {
                member_id,
                reason: written.into(),
            },
        )
        .await
        .unwrap();
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::PinRoom {
                member_id,
                room_id: Some(salon),
            },
        )
        .await
        .unwrap();
    assert_eq!(the_pick(&v).reason, written, "a new pin keeps it");
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Move {
                member_id,
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    assert_eq!(the_pick(&v).tier, Tier::Compatible);
    assert_eq!(the_pick(&v).reason, written, "a new tier keeps it");

    // « Nouvelle version » of the sent catalogue: still the person's reason.
    sqlx::query("UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1")
        .bind(v.catalogue_id)
        .execute(&db)
        .await
        .unwrap();
    let copy = builder.new_version(user, v.catalogue_id).await.unwrap();
    let copy = builder
        .edit(
            user,
            copy.catalogue_id,
            copy.version,
            Edit::PinRoom {
                member_id,
                room_id: Some(terrasse),
            },
        )
        .await
        .unwrap();
    assert_eq!(the_pick(&copy).reason, written);
}

#[sqlx::test(migrations = "../migrations")]
async fn moving_a_pick_to_the_other_tier_regenerates_an_unedited_reason(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let user = team(&db).await;
    let (request_id, code, terrasse, _) = venue_with_two_rooms(&db).await;
    let v = draft_with_the_venue(&builder, user, request_id, &code).await;
    let member_id = the_pick(&v).member_id;
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::PinRoom {
                member_id,
                room_id: Some(terrasse),
            },
        )
        .await
        .unwrap();
    let before = the_pick(&v).reason.clone();
    assert!(before.starts_with("« Terrasse » : 216 places"), "{before}");
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Move {
                member_id,
                tier: Tier::Compatible,
            },
        )
        .await
        .unwrap();
    let after = &the_pick(&v).reason;
    assert!(
        after.starts_with("En alternative, « Terrasse » : 216 places en cocktail"),
        "{after}"
    );
    let v = builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::Move {
                member_id,
                tier: Tier::Recommended,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        the_pick(&v).reason,
        before,
        "back where it was, same sentence"
    );
}

/// The organizer page of `catalogue_id` through a fresh link, as HTML.
async fn organizer_page(db: &PgPool, catalogue_id: i64) -> String {
    use server::auth::magic_links::{issue, Purpose};
    let key = server::auth::tokens::SigningKey::new(support::SECRET_KEY.as_bytes().to_vec());
    let link = issue(
        db,
        &key,
        Purpose::Catalogue,
        catalogue_id,
        std::time::Duration::from_secs(86_400),
        None,
    )
    .await
    .unwrap();
    let app = TestApp::start(db.clone()).await;
    let page = app.get(&link.path, None).await;
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

#[sqlx::test(migrations = "../migrations")]
async fn no_organizer_page_shows_an_internal_signal_and_the_team_sees_them_as_a_note(db: PgPool) {
    seed_demo(&db).await;
    // The demo generator writes none.
    let leaking: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM catalogue_picks
          WHERE explanation ~* '(favori de l.équipe|déjà proposé|répond en|retours de l.équipe)'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(leaking, 0, "demo reasons carry no internal signal");

    // Catalogues sent before the fix: reasons stored with the search's
    // history and the planner's note, the favourite said twice.
    sqlx::query(
        "UPDATE catalogue_picks p
            SET explanation = rtrim(p.explanation, '.')
                || ', favori de l''équipe, déjà proposé 2 fois, répond en 8 h en général'
                || ' (favori de l''équipe, répond peu : 20 % des demandes).'
           FROM catalogues c
          WHERE c.id = p.catalogue_id AND c.status = 'sent' AND c.kind = 'standard'",
    )
    .execute(&db)
    .await
    .unwrap();
    let sent: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert!(!sent.is_empty(), "the demo has sent catalogues");
    let mut picks_seen = 0;
    for id in &sent {
        let page = organizer_page(&db, *id).await;
        for fragment in INTERNAL {
            assert!(
                !page.contains(fragment),
                "catalogue {id} shows « {fragment} » to its organizer"
            );
        }
        picks_seen += page.matches("data-testid=\"catalogue-pick\"").count();
    }
    let total: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE c.status = 'sent' AND c.kind = 'standard'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(
        picks_seen as i64, total,
        "every pick of every sent catalogue"
    );

    // The team's builder shows the same reason, and the signals as its note,
    // each once.
    let builder = service(&db);
    let v = builder.view(sent[0]).await.unwrap();
    for pick in v.recommended.iter().chain(&v.compatible) {
        for fragment in INTERNAL {
            assert!(!pick.reason.contains(fragment), "{}", pick.reason);
        }
        let note = pick.team_note.join(" · ");
        assert_eq!(
            note.matches("favori de l'équipe").count(),
            1,
            "the note says it once: {note}"
        );
        assert!(note.contains("répond peu : 20 % des demandes"), "{note}");
        assert!(!pick.reason.ends_with(".."), "{}", pick.reason);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_builder_page_shows_the_note_to_the_team(db: PgPool) {
    seed_demo(&db).await;
    let builder = service(&db);
    let user = team(&db).await;
    let (request_id, code, terrasse, _) = venue_with_two_rooms(&db).await;
    let v = draft_with_the_venue(&builder, user, request_id, &code).await;
    let member_id = the_pick(&v).member_id;
    builder
        .edit(
            user,
            v.catalogue_id,
            v.version,
            Edit::PinRoom {
                member_id,
                room_id: Some(terrasse),
            },
        )
        .await
        .unwrap();
    sqlx::query("INSERT INTO team_favorites (user_id, member_id) VALUES ($1, $2)")
        .bind(user)
        .bind(member_id)
        .execute(&db)
        .await
        .unwrap();
    let v = builder.view(v.catalogue_id).await.unwrap();
    assert_eq!(the_pick(&v).team_note, ["favori de l'équipe"]);
    assert!(!the_pick(&v).reason.contains("favori"));

    let app = TestApp::start(db.clone()).await;
    let session = app.sign_in(TEAM, support::app::PASSWORD).await;
    let page = app
        .get(&format!("/demandes/{request_id}/catalogue"), Some(&session))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("data-testid=\"team-note\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("Note interne"), "{}", page.body);
}
