//! Playbooks in the database (issue 28): a save is version 1, the same text
//! again writes nothing, a changed text is version 2 with its history, an
//! invalid text is refused with a located message and leaves the stored
//! playbook as it was; the shipped playbooks import once; every change is
//! audited.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use server::playbooks::store::{self, SaveError, Status};
use sqlx::PgPool;

const V1: &str = "\
# Un essai.
name: essai-groupe
goal: \"le groupe a ses lieux\"
activation:
  intent: \"trouver des lieux pour un groupe\"
steps:
  - skill: get_request
  - skill: search_members
";

async fn camille(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('camille@reciprok.fr', 'Camille Martin') RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

async fn audit_rows(
    db: &PgPool,
    action: &str,
) -> Vec<(Option<i64>, Option<i64>, serde_json::Value)> {
    sqlx::query_as(
        "SELECT actor_id, object_id, details FROM audit_log WHERE action = $1 ORDER BY id",
    )
    .bind(action)
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_first_save_is_version_one_with_its_columns(db: PgPool) {
    let by = camille(&db).await;
    let saved = store::save(&db, V1, Status::Observe, Some(by))
        .await
        .unwrap();
    assert!(saved.created && saved.changed);
    assert_eq!((saved.name.as_str(), saved.version), ("essai-groupe", 1));

    let stored = store::get(&db, "essai-groupe")
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.id, saved.id);
    assert_eq!(stored.status, Status::Observe);
    assert_eq!(stored.source, V1, "the YAML as written, comments included");
    assert_eq!(stored.definition.steps.len(), 2);
    let (goal, intent, when, exclusive): (String, Option<String>, Option<String>, Vec<String>) =
        sqlx::query_as(
            "SELECT goal, activation_intent, activation_when, exclusive_skills FROM playbooks WHERE id = $1",
        )
        .bind(saved.id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(goal, "le groupe a ses lieux");
    assert_eq!(intent.as_deref(), Some("trouver des lieux pour un groupe"));
    assert_eq!((when, exclusive), (None, vec![]));

    let versions = store::versions(&db, "essai-groupe").await.unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(
        versions[0].created_by_name.as_deref(),
        Some("Camille Martin")
    );
    let audit = audit_rows(&db, "playbook.saved").await;
    assert_eq!(audit.len(), 1);
    assert_eq!((audit[0].0, audit[0].1), (Some(by), Some(saved.id)));
    assert_eq!(audit[0].2["version"], 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_same_text_writes_nothing_and_a_changed_one_is_a_new_version(db: PgPool) {
    let first = store::save(&db, V1, Status::Active, None).await.unwrap();
    let again = store::save(&db, V1, Status::Disabled, None).await.unwrap();
    assert!(!again.created && !again.changed);
    assert_eq!((again.id, again.version), (first.id, 1));
    assert_eq!(audit_rows(&db, "playbook.saved").await.len(), 1);

    let v2 = V1.replace(
        "  - skill: search_members\n",
        "  - skill: search_members\n  - skill: get_member_signals\n    optional: true\n",
    );
    let second = store::save(&db, &v2, Status::Disabled, None).await.unwrap();
    assert!(!second.created && second.changed);
    assert_eq!((second.id, second.version), (first.id, 2));

    let stored = store::get(&db, "essai-groupe")
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.version, 2);
    assert_eq!(
        stored.status,
        Status::Active,
        "a new version keeps the status"
    );
    assert_eq!(stored.definition.steps.len(), 3);
    let versions = store::versions(&db, "essai-groupe").await.unwrap();
    let history: Vec<(i32, &str)> = versions
        .iter()
        .map(|v| (v.version, v.source.as_str()))
        .collect();
    assert_eq!(history, vec![(2, v2.as_str()), (1, V1)], "newest first");
    assert_eq!(versions[0].created_by_name, None);
    assert_eq!(audit_rows(&db, "playbook.saved").await.len(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invalid_text_is_refused_located_and_nothing_changes(db: PgPool) {
    store::save(&db, V1, Status::Active, None).await.unwrap();
    let before = store::get(&db, "essai-groupe").await.unwrap();

    let bad = V1.replace("skill: search_members", "skill: refund");
    let error = store::save(&db, &bad, Status::Active, None)
        .await
        .expect_err("refused");
    let SaveError::Invalid(e) = &error else {
        panic!("{error}")
    };
    assert_eq!(
        (e.line, e.field.as_deref()),
        (Some(8), Some("steps[1].skill"))
    );
    assert!(
        error
            .to_string()
            .starts_with("définition refusée : ligne 8, colonne 5, steps[1].skill : "),
        "{error}"
    );

    let bad_when = V1.replace(
        "  intent:",
        "  when: \"request.participants >> 3\"\n  intent:",
    );
    let error = store::save(&db, &bad_when, Status::Active, None)
        .await
        .expect_err("refused");
    assert!(error.to_string().contains("ligne 5, colonne "), "{error}");

    assert_eq!(store::get(&db, "essai-groupe").await.unwrap(), before);
    assert_eq!(store::versions(&db, "essai-groupe").await.unwrap().len(), 1);
    assert_eq!(audit_rows(&db, "playbook.saved").await.len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_shipped_playbooks_import_once(db: PgPool) {
    assert_eq!(store::shipped().len(), 3);
    assert_eq!(store::import_shipped(&db, None).await.unwrap(), 3);
    assert_eq!(
        store::import_shipped(&db, None).await.unwrap(),
        0,
        "idempotent"
    );
    let all = store::list(&db).await.unwrap();
    let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "groupe-plus-de-200",
            "qualification-demande",
            "reprise-catalogue-commentaire"
        ]
    );
    assert!(all
        .iter()
        .all(|p| p.status == Status::Active && p.version == 1));
    let group = &all[0];
    assert!(group.definition.is_deterministic_trigger());
    let qualification = &all[1];
    assert_eq!(
        qualification.definition.activation.exclusive_skills,
        ["update_request"]
    );

    // An admin's edit survives a later import.
    let edited = format!("{}\n# modifié par un admin\n", qualification.source);
    store::save(&db, &edited, Status::Active, None)
        .await
        .unwrap();
    assert_eq!(store::import_shipped(&db, None).await.unwrap(), 0);
    let kept = store::get(&db, "qualification-demande")
        .await
        .unwrap()
        .expect("kept");
    assert_eq!((kept.version, kept.source), (2, edited));
}

#[sqlx::test(migrations = "../migrations")]
async fn status_changes_are_audited_and_drive_the_candidates(db: PgPool) {
    let by = camille(&db).await;
    store::import_shipped(&db, None).await.unwrap();
    store::set_status(&db, "groupe-plus-de-200", Status::Disabled, Some(by))
        .await
        .unwrap();
    store::set_status(
        &db,
        "reprise-catalogue-commentaire",
        Status::Observe,
        Some(by),
    )
    .await
    .unwrap();
    store::set_status(
        &db,
        "reprise-catalogue-commentaire",
        Status::Observe,
        Some(by),
    )
    .await
    .unwrap();

    let candidates: Vec<(String, Status)> = store::candidates(&db)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.status))
        .collect();
    assert_eq!(
        candidates,
        [
            ("qualification-demande".to_string(), Status::Active),
            ("reprise-catalogue-commentaire".to_string(), Status::Observe),
        ]
    );
    let audit = audit_rows(&db, "playbook.status").await;
    assert_eq!(audit.len(), 2, "the same status again writes nothing");
    assert_eq!(audit[0].0, Some(by));
    assert_eq!(audit[0].2["from"], "active");
    assert_eq!(audit[0].2["to"], "disabled");

    let missing = store::set_status(&db, "inconnu", Status::Active, None).await;
    assert!(matches!(
        missing,
        Err(SaveError::Db(sqlx::Error::RowNotFound))
    ));
}

#[test]
fn statuses_read_in_french_and_parse_back() {
    for status in Status::ALL {
        assert_eq!(Status::parse(status.as_str()), Some(status));
    }
    assert_eq!(Status::Observe.label(), "En observation");
    assert_eq!(Status::parse("draft"), None);
}
