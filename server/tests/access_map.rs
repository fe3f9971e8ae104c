//! Every page and every server function has a declared access rule, and an
//! anonymous caller is refused by each protected one. A new page or server
//! function that is not classified here fails this test: a missing check is
//! visible in review.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use app::auth::Role;
use app::routes::{Access, PAGES};
use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// Who may call each server function.
const SERVER_FUNCTIONS: &[(&str, Access)] = &[
    ("/api/session/user", Access::Public),
    ("/api/links/catalogue", Access::MagicLink),
    ("/api/links/availability", Access::MagicLink),
    ("/api/links/availability/answer", Access::MagicLink),
    ("/api/admin/audit", Access::Signed(Role::Admin)),
    ("/api/venues/pools", Access::Signed(Role::Team)),
    ("/api/venues/search", Access::Signed(Role::Team)),
];

/// Server routes outside Leptos, with their rule.
const SERVER_ROUTES: &[(&str, &str, Access)] = &[
    ("GET", "/healthz", Access::Public),
    ("GET", "/readyz", Access::Public),
    ("POST", "/connexion", Access::Public),
    ("POST", "/deconnexion", Access::Public),
    ("POST", "/deconnexion/partout", Access::Signed(Role::Team)),
];

#[test]
fn every_page_of_the_router_is_in_the_access_table() {
    let mut routed: Vec<String> = leptos_axum::generate_route_list(app::App)
        .iter()
        .map(|r| r.path().replace('{', ":").replace('}', ""))
        .collect();
    routed.sort();
    routed.dedup();
    let mut declared: Vec<String> = PAGES.iter().map(|(p, _)| p.to_string()).collect();
    declared.sort();
    assert_eq!(
        routed, declared,
        "app::routes::PAGES and the router disagree"
    );
}

#[test]
fn every_server_function_is_classified() {
    let mut registered: Vec<String> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, _)| path.to_string())
        .collect();
    registered.sort();
    let mut declared: Vec<String> = SERVER_FUNCTIONS
        .iter()
        .map(|(p, _)| p.to_string())
        .collect();
    declared.sort();
    assert_eq!(
        registered, declared,
        "classify the new server function in SERVER_FUNCTIONS"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn anonymous_callers_are_refused_everywhere_it_matters(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    for (pattern, access) in PAGES {
        let path = pattern.replace(":token", "not-a-token");
        let reply = app.get(&path, None).await;
        match access {
            Access::Signed(_) => {
                assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path}");
                assert!(
                    reply.location().starts_with("/connexion?suivant="),
                    "{path}"
                );
            }
            Access::MagicLink => assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}"),
            Access::Public => assert_eq!(reply.status, StatusCode::OK, "{path}"),
        }
    }
    for (path, access) in SERVER_FUNCTIONS {
        // Well-formed arguments, so the refusal comes from the access check.
        let args: &[(&str, &str)] = if path.starts_with("/api/venues/search") {
            &[("form[pool]", "hotels"), ("form[text]", "loft")]
        } else {
            &[
                ("token", "not-a-token"),
                ("available", "true"),
                ("comment", ""),
            ]
        };
        let reply = app.post_form(path, args, None).await;
        let expected = match access {
            Access::Signed(_) => StatusCode::UNAUTHORIZED,
            Access::MagicLink => StatusCode::NOT_FOUND,
            Access::Public => StatusCode::OK,
        };
        assert_eq!(reply.status, expected, "{path}: {}", reply.body);
    }
    for (method, path, access) in SERVER_ROUTES {
        let reply = if *method == "GET" {
            app.get(path, None).await
        } else {
            app.post_form(path, &[], None).await
        };
        match access {
            Access::Signed(_) => assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path}"),
            _ => assert_ne!(reply.status, StatusCode::UNAUTHORIZED, "{path}"),
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_current_user_function_describes_only_the_caller(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let anonymous = app.post_form("/api/session/user", &[], None).await;
    assert_eq!(anonymous.json(), serde_json::Value::Null);
    let session = app.sign_in(TEAM, PASSWORD).await;
    let me = app
        .post_form("/api/session/user", &[], Some(&session))
        .await;
    assert_eq!(me.json()["email"], TEAM);
    assert_eq!(me.json()["role"], "team");
}
