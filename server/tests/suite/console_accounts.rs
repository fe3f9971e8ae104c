//! Accounts and roles from the console, over HTTP on a real database: an
//! admin creates an account (a generated password shown once, that signs
//! in), changes its role, resets its password, ends its sessions, disables
//! it (its sessions end and it can no longer sign in) and enables it again;
//! each change leaves its audit row. Refused: a team member's calls, an
//! admin disabling or demoting themselves, the last active admin, a taken
//! address; a refusal changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

async fn id_of(db: &PgPool, email: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(db)
        .await
        .unwrap()
}

async fn audited(app: &TestApp, action: &str, id: i64) -> i64 {
    app.count(&format!(
        "SELECT count(*) FROM audit_log WHERE action = '{action}' AND object_type = 'user'
            AND object_id = {id} AND actor_kind = 'user'"
    ))
    .await
}

async fn sessions(app: &TestApp, id: i64) -> i64 {
    app.count(&format!(
        "SELECT count(*) FROM user_sessions WHERE user_id = {id}"
    ))
    .await
}

#[sqlx::test(migrations = "../migrations")]
async fn an_admin_manages_an_account_from_creation_to_disabling(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;

    // Created with a generated password, shown once in the answer.
    let created = app
        .post_form(
            "/api/admin/account/create",
            &[
                ("email", " Nina.Roux@Reciprok.fr "),
                ("name", "Nina Roux"),
                ("role", "team"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let password = created.json().as_str().unwrap().to_string();
    assert_eq!(password.chars().count(), 20);
    let nina = id_of(&db, "nina.roux@reciprok.fr").await;
    assert_eq!(audited(&app, "user.created", nina).await, 1);
    let session = app.sign_in("nina.roux@reciprok.fr", &password).await;
    assert_eq!(
        app.get("/chat", Some(&session)).await.status,
        StatusCode::OK
    );

    // The same address again is refused, in French.
    let again = app
        .post_form(
            "/api/admin/account/create",
            &[
                ("email", "nina.roux@reciprok.fr"),
                ("name", "Autre"),
                ("role", "team"),
                ("password", "a long enough password"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(
        again.json()["message"],
        "Un compte existe déjà avec cette adresse e-mail."
    );

    // Listed, with role and state.
    let list = app
        .post_form("/api/admin/accounts", &[], Some(&admin))
        .await;
    let row = list
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == nina)
        .cloned()
        .unwrap();
    assert_eq!(
        (row["role"].as_str(), row["active"].as_bool()),
        (Some("team"), Some(true))
    );
    assert_eq!(row["sessions"], 1);

    // Role: promoted, audited; the next request sees it (roles are read per request).
    let id = nina.to_string();
    let promoted = app
        .post_form(
            "/api/admin/account/role",
            &[("id", id.as_str()), ("role", "admin")],
            Some(&admin),
        )
        .await;
    assert_eq!(promoted.status, StatusCode::OK, "{}", promoted.body);
    assert_eq!(audited(&app, "user.role_changed", nina).await, 1);
    assert_eq!(
        app.get("/console", Some(&session)).await.status,
        StatusCode::OK
    );

    // End sessions: the session is gone.
    let ended = app
        .post_form(
            "/api/admin/account/sessions",
            &[("id", id.as_str())],
            Some(&admin),
        )
        .await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.body);
    assert_eq!(ended.json(), 1);
    assert_eq!(sessions(&app, nina).await, 0);
    assert_eq!(audited(&app, "user.sessions_ended", nina).await, 1);

    // Reset: a new password that signs in; the old one no longer does.
    let reset = app
        .post_form(
            "/api/admin/account/password",
            &[("id", id.as_str())],
            Some(&admin),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    let fresh = reset.json().as_str().unwrap().to_string();
    assert_ne!(fresh, password);
    assert_eq!(audited(&app, "user.password_reset", nina).await, 1);
    let old = app
        .post_form(
            "/connexion",
            &[("email", "nina.roux@reciprok.fr"), ("password", &password)],
            None,
        )
        .await;
    assert!(old.session_cookie().is_none());
    let session = app.sign_in("nina.roux@reciprok.fr", &fresh).await;

    // Disabled: the open session ends at once and signing in is refused.
    let disabled = app
        .post_form(
            "/api/admin/account/active",
            &[("id", id.as_str()), ("active", "false")],
            Some(&admin),
        )
        .await;
    assert_eq!(disabled.status, StatusCode::OK, "{}", disabled.body);
    assert_eq!(sessions(&app, nina).await, 0);
    assert_ne!(
        app.get("/chat", Some(&session)).await.status,
        StatusCode::OK
    );
    let refused = app
        .post_form(
            "/connexion",
            &[("email", "nina.roux@reciprok.fr"), ("password", &fresh)],
            None,
        )
        .await;
    assert!(
        refused.session_cookie().is_none(),
        "a disabled account cannot sign in"
    );
    assert_eq!(audited(&app, "user.disabled", nina).await, 1);

    // Enabled again: signing in works.
    let enabled = app
        .post_form(
            "/api/admin/account/active",
            &[("id", id.as_str()), ("active", "true")],
            Some(&admin),
        )
        .await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.body);
    assert_eq!(audited(&app, "user.enabled", nina).await, 1);
    app.sign_in("nina.roux@reciprok.fr", &fresh).await;

    // The journal names the changes in French.
    let page = app.get("/console?quoi=comptes", Some(&admin)).await;
    for label in [
        "Compte désactivé",
        "Compte réactivé",
        "Rôle d&#x27;un compte changé",
        "compte de Nina Roux",
    ] {
        assert!(
            page.body.contains(label) || page.body.contains(&label.replace("&#x27;", "'")),
            "{label}"
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn self_changes_the_last_admin_and_team_members_are_refused(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let admin_id = id_of(&db, ADMIN).await;
    let camille = id_of(&db, TEAM).await;
    // The demo's only admin: make sure of it.
    assert_eq!(
        app.count("SELECT count(*) FROM users WHERE role = 'admin' AND disabled_at IS NULL")
            .await,
        1
    );
    let me = admin_id.to_string();
    let before = app
        .count("SELECT count(*) FROM audit_log WHERE action LIKE 'user.%'")
        .await;

    let self_disable = app
        .post_form(
            "/api/admin/account/active",
            &[("id", me.as_str()), ("active", "false")],
            Some(&admin),
        )
        .await;
    assert_eq!(self_disable.status, StatusCode::CONFLICT);
    assert!(self_disable.json()["message"]
        .as_str()
        .unwrap()
        .contains("votre propre compte"));
    let self_demote = app
        .post_form(
            "/api/admin/account/role",
            &[("id", me.as_str()), ("role", "team")],
            Some(&admin),
        )
        .await;
    assert_eq!(self_demote.status, StatusCode::CONFLICT);

    // A second admin cannot demote or disable the last one once alone.
    let other = app
        .post_form(
            "/api/admin/account/create",
            &[
                ("email", "second@reciprok.fr"),
                ("name", "Second Admin"),
                ("role", "admin"),
                ("password", "another long password"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);
    let second = app
        .sign_in("second@reciprok.fr", "another long password")
        .await;
    let second_id = id_of(&db, "second@reciprok.fr").await.to_string();
    // The first admin steps down through the second: allowed (two admins).
    let demoted = app
        .post_form(
            "/api/admin/account/role",
            &[("id", me.as_str()), ("role", "team")],
            Some(&second),
        )
        .await;
    assert_eq!(demoted.status, StatusCode::OK, "{}", demoted.body);
    // Now the second is the last admin: the first (a team member) cannot act.
    let as_team = app
        .post_form(
            "/api/admin/account/active",
            &[("id", second_id.as_str()), ("active", "false")],
            Some(&admin),
        )
        .await;
    assert_eq!(as_team.status, StatusCode::FORBIDDEN);
    let last = app
        .post_form(
            "/api/admin/account/role",
            &[("id", second_id.as_str()), ("role", "team")],
            Some(&second),
        )
        .await;
    assert_eq!(last.status, StatusCode::CONFLICT);

    // A team member: every account function is refused, nothing written.
    let team = app.sign_in(TEAM, PASSWORD).await;
    let target = camille.to_string();
    for (function, fields) in [
        ("/api/admin/accounts", vec![]),
        (
            "/api/admin/account/create",
            vec![
                ("email", "x@reciprok.fr"),
                ("name", "X"),
                ("role", "admin"),
                ("password", "a long enough password"),
            ],
        ),
        (
            "/api/admin/account/role",
            vec![("id", target.as_str()), ("role", "admin")],
        ),
        (
            "/api/admin/account/active",
            vec![("id", me.as_str()), ("active", "false")],
        ),
        ("/api/admin/account/password", vec![("id", me.as_str())]),
        ("/api/admin/account/sessions", vec![("id", me.as_str())]),
    ] {
        let reply = app.post_form(function, &fields, Some(&team)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{function}");
    }
    assert_eq!(
        app.count("SELECT count(*) FROM users WHERE email = 'x@reciprok.fr'")
            .await,
        0
    );
    // Audited: the creation and the one demotion, nothing for the refusals.
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action LIKE 'user.%'")
            .await,
        before + 2
    );
    // Without JavaScript, a generated password could not be shown: refused.
    let plain = app
        .post_raw(
            "/api/admin/account/create",
            &[("email", "y@reciprok.fr"), ("name", "Y"), ("role", "team")],
            &[
                ("origin", app.url("").as_str()),
                ("referer", app.url("/console/comptes").as_str()),
                ("accept", "text/html"),
                ("cookie", app.cookie(&second).as_str()),
            ],
        )
        .await;
    assert!(
        plain.status.is_redirection(),
        "{}: {}",
        plain.status,
        plain.body
    );
    assert!(plain.form_error_cookie().contains("maxy_form_error="));
    assert_eq!(
        app.count("SELECT count(*) FROM users WHERE email = 'y@reciprok.fr'")
            .await,
        0
    );
}
