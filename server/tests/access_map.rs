//! Every route of the real router refuses an anonymous caller, except a
//! small, reviewed list of public ones. The routes are read from the router
//! itself (Leptos pages, registered server functions, the axum route table),
//! so a route added later is checked without anyone remembering to list it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use app::routes::{page_access, Access, PAGES};
use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// What an anonymous caller may reach. Review any change to this list.
const PUBLIC: &[(&str, &str)] = &[
    ("GET", "/connexion"),
    ("POST", "/connexion"),
    // Signing out needs no session: it only clears the cookie.
    ("POST", "/deconnexion"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    // Guarded by the caller's address, not a session: this machine by
    // default, as here (`metrics_endpoint.rs`).
    ("GET", "/metrics"),
    // Describes the caller to themselves (`null` when anonymous).
    ("POST", "/api/session/user"),
];

/// Every route of the router, as (method, path with `:param`s filled in).
fn every_route() -> Vec<(String, String)> {
    let fill = |path: &str| {
        path.split('/')
            .map(|s| {
                if s.starts_with(':') || s.starts_with('{') {
                    "not-a-token"
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut routes: Vec<(String, String)> = Vec::new();
    for route in server::http::route_list() {
        routes.push(("GET".into(), fill(route.path())));
    }
    for (path, method) in leptos::server_fn::axum::server_fn_paths() {
        routes.push((method.to_string(), path.to_string()));
    }
    for (method, path) in server::http::server_route_list() {
        routes.push((method.to_string(), fill(path)));
    }
    routes.sort();
    routes.dedup();
    routes
}

#[test]
fn the_route_list_is_read_from_the_router() {
    let routes = every_route();
    for expected in [
        ("GET", "/console"),
        ("GET", "/c/not-a-token"),
        ("POST", "/api/venues/search"),
        ("POST", "/api/admin/audit"),
        ("POST", "/deconnexion/partout"),
        ("GET", "/readyz"),
    ] {
        assert!(
            routes
                .iter()
                .any(|(m, p)| (m.as_str(), p.as_str()) == expected),
            "{expected:?} missing from {routes:?}"
        );
    }
    for (method, path) in PUBLIC {
        assert!(
            routes.iter().any(|(m, p)| m == method && p == path),
            "{method} {path} is public but no longer routed: drop it from PUBLIC"
        );
    }
}

#[test]
fn every_page_of_the_router_has_an_access_rule() {
    // The page guard reads `app::routes::PAGES`: a page missing there would
    // only be protected by its own data calls.
    let mut routed: Vec<String> = server::http::route_list()
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

/// Refused: 401/403, 404 (a magic link that is not valid), or a redirect to
/// the sign-in page.
fn is_refused(status: StatusCode, location: &str) -> bool {
    matches!(
        status,
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN | StatusCode::NOT_FOUND
    ) || (status == StatusCode::SEE_OTHER && location.starts_with("/connexion?suivant="))
}

#[sqlx::test(migrations = "../migrations")]
async fn anonymous_callers_are_refused_everywhere_but_the_public_list(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let routes = every_route();
    for (method, path) in &routes {
        // No arguments: the refusal must come before they are even read.
        // Magic-link calls get a token that is not one (and the rest).
        let args: &[(&str, &str)] = if path.starts_with("/api/links/") {
            &[
                ("token", "not-a-token"),
                ("available", "true"),
                ("comment", ""),
            ]
        } else {
            &[]
        };
        let reply = if method == "GET" {
            app.get(path, None).await
        } else {
            app.post_form(path, args, None).await
        };
        let public = PUBLIC.iter().any(|(m, p)| m == method && p == path);
        if public {
            assert!(
                !is_refused(reply.status, reply.location()),
                "{method} {path} is public: {} {}",
                reply.status,
                reply.body
            );
        } else {
            assert!(
                is_refused(reply.status, reply.location()),
                "{method} {path} answered an anonymous caller with {}: {}",
                reply.status,
                reply.body
            );
        }
    }
    // Magic-link pages and calls: refused (404) for a bad token, like any
    // other anonymous request; with a good one they open (tests/suite/magic_links.rs).
    assert!(routes
        .iter()
        .any(|(_, p)| page_access(p) == Some(Access::MagicLink)));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_signed_in_member_is_let_through_the_same_routes(db: PgPool) {
    // The other half of the map: the guard does not refuse everybody.
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    for path in ["/", "/chat", "/demandes", "/lieux", "/memoire"] {
        assert_eq!(
            app.get(path, Some(&session)).await.status,
            StatusCode::OK,
            "{path}"
        );
    }
    let pools = app
        .post_form("/api/venues/pools", &[], Some(&session))
        .await;
    assert_eq!(pools.status, StatusCode::OK, "{}", pools.body);
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
