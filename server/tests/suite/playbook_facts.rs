//! `facts_for` on a real database: the caller's role and profiles, and the
//! attached request's fields as the `when` whitelist names them — pool
//! slug, catalogue, organizer comment on a sent catalogue only.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use server::playbooks::when::{facts_for, parse, Facts, RequestFacts};
use sqlx::PgPool;

async fn exec(db: &PgPool, sql: &str) {
    sqlx::raw_sql(sql).execute(db).await.unwrap();
}

/// Two users, two pools, a complete request with a sent and commented
/// catalogue, a bare one, and one whose only comment is on an archived
/// catalogue.
async fn plant(db: &PgPool) {
    exec(
        db,
        "INSERT INTO users (id, email, display_name, role, profiles) VALUES
             (1, 'camille@reciprok.fr', 'Camille Martin', 'admin', '{sales,admin,senior,sales}'),
             (2, 'julien@reciprok.fr', 'Julien Bernard', 'team', '{junior}'),
             (3, 'lea@reciprok.fr', 'Léa Petit', 'team', '{}');
         INSERT INTO pools (id, slug, name) VALUES (1, 'hotels', 'Hôtels'), (2, 'peniches', 'Péniches');
         INSERT INTO requests (id, reference, pool_id, event_type, participants, budget_eur,
                               configurations, postal_codes, status)
         VALUES (10, 'D-2026-00010', 2, 'seminaire', 240, 18000,
                 '{theatre,cocktail}', '{75008,92100}', 'catalogue_sent'),
                (11, 'D-2026-00011', 1, NULL, NULL, NULL, '{}', '{}', 'new'),
                (12, 'D-2026-00012', 1, 'soiree', 80, NULL, '{}', '{}', 'qualifying');
         INSERT INTO catalogues (id, request_id, status, sent_at) VALUES
             (100, 10, 'sent', now()),
             (120, 12, 'archived', now()),
             (121, 12, 'draft', NULL);
         INSERT INTO catalogue_feedback (catalogue_id, comment) VALUES
             (100, 'Trop loin du métro.'),
             (120, 'Plutôt en rive gauche.');",
    )
    .await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_full_request_and_an_admin(db: PgPool) {
    plant(&db).await;
    let facts = facts_for(&db, 1, "chat", Some(10), Some("organizer_comment"))
        .await
        .unwrap();
    assert_eq!(
        facts,
        Facts {
            profiles: vec!["admin".into(), "sales".into(), "senior".into()],
            station: "chat".into(),
            event: Some("organizer_comment".into()),
            request: Some(RequestFacts {
                participants: Some(240),
                event_type: Some("seminaire".into()),
                status: "catalogue_sent".into(),
                pool: Some("peniches".into()),
                configurations: vec!["theatre".into(), "cocktail".into()],
                postal_codes: vec!["75008".into(), "92100".into()],
                budget_eur: Some(18000.0),
                has_catalogue: true,
                organizer_comment: true,
            }),
        }
    );
    let rework = parse(
        "event == 'organizer_comment' and request.organizer_comment and 'admin' in profiles \
         and request.participants > 200 and request.pool == 'peniches'",
    )
    .unwrap();
    assert!(rework.eval(&facts));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_bare_request_reads_as_nulls_and_empty_lists(db: PgPool) {
    plant(&db).await;
    let facts = facts_for(&db, 2, "training", Some(11), None).await.unwrap();
    assert_eq!(facts.profiles, vec!["junior".to_string()]);
    assert_eq!(facts.event, None);
    assert_eq!(
        facts.request,
        Some(RequestFacts {
            status: "new".into(),
            pool: Some("hotels".into()),
            ..RequestFacts::default()
        })
    );
    let expr =
        parse("request != null and request.participants == null and not request.has_catalogue")
            .unwrap();
    assert!(expr.eval(&facts));
}

#[sqlx::test(migrations = "../migrations")]
async fn only_a_comment_on_a_sent_catalogue_counts(db: PgPool) {
    plant(&db).await;
    let request = facts_for(&db, 3, "chat", Some(12), None)
        .await
        .unwrap()
        .request
        .unwrap();
    assert!(request.has_catalogue);
    assert!(
        !request.organizer_comment,
        "the comment sits on an archived catalogue"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn no_request_and_a_deleted_request_both_read_as_none(db: PgPool) {
    plant(&db).await;
    let none = facts_for(&db, 3, "chat", None, None).await.unwrap();
    assert_eq!(none.request, None);
    assert!(none.profiles.is_empty(), "a team role is not a profile");
    let gone = facts_for(&db, 3, "chat", Some(999), None).await.unwrap();
    assert_eq!(gone, none);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unknown_user_is_an_error(db: PgPool) {
    plant(&db).await;
    let error = facts_for(&db, 404, "chat", None, None).await.unwrap_err();
    assert!(matches!(error, sqlx::Error::RowNotFound), "{error}");
}
