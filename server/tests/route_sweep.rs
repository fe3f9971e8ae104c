//! Every route of the router against what the second security review sent
//! it: trailing-slash variants, a NUL character in the query and in the
//! body, and GETs (from another site, and from our own pages) that must not
//! write. The routes are read from the router itself, as in `access_map.rs`,
//! so a route added later is swept without anyone listing it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD};

/// Every route as (method, path), `:param`s filled with `fill`.
fn every_route(fill: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let fill_path = |path: &str| {
        path.split('/')
            .map(|s| {
                if s.starts_with(':') || s.starts_with('{') {
                    fill(s.trim_matches(['{', '}', ':']))
                } else {
                    s.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut routes: Vec<(String, String)> = Vec::new();
    for route in server::http::route_list() {
        routes.push(("GET".into(), fill_path(route.path())));
    }
    for (path, method) in leptos::server_fn::axum::server_fn_paths() {
        routes.push((method.to_string(), path.to_string()));
    }
    for (method, path) in server::http::server_route_list() {
        routes.push((method.to_string(), fill_path(path)));
    }
    routes.sort();
    routes.dedup();
    routes
}

/// Parameters filled with rows that exist (tokens with one that is not).
async fn real_params(app: &TestApp) -> impl Fn(&str) -> String {
    let request = app.count("SELECT min(id) FROM requests").await;
    move |name: &str| match name {
        "token" => "not-a-token".to_string(),
        "id" => request.to_string(),
        other => panic!("no value for the route parameter `{other}`: add one"),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_trailing_slash_redirects_to_the_route_and_never_fails(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let fill = real_params(&app).await;
    for (method, path) in every_route(fill) {
        if path == "/" {
            continue;
        }
        for session in [None, Some(admin.as_str())] {
            let slashed = format!("{path}/?x=1");
            let reply = if method == "GET" {
                app.get(&slashed, session).await
            } else {
                app.post_form(&slashed, &[], session).await
            };
            assert_eq!(
                reply.status,
                StatusCode::PERMANENT_REDIRECT,
                "{method} {slashed}: {}",
                reply.body
            );
            assert_eq!(
                reply.location(),
                format!("{path}?x=1"),
                "{method} {slashed}"
            );
        }
    }
    // As reproduced: anonymous `/c/…/`, `/v/…/` and `/demandes/` were 500s.
    for path in ["/c/anything/", "/v/anything/", "/demandes/", "/console/"] {
        let reply = app.get(path, None).await;
        assert_eq!(reply.status, StatusCode::PERMANENT_REDIRECT, "{path}");
        let followed = app.get(reply.location(), None).await;
        assert!(!followed.status.is_server_error(), "{path}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_character_anywhere_is_a_clear_400(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let fill = real_params(&app).await;
    for (method, path) in every_route(fill) {
        for session in [None, Some(admin.as_str())] {
            let in_query = format!("{path}?q=a%00b");
            let reply = if method == "GET" {
                app.get(&in_query, session).await
            } else {
                app.post_form(&in_query, &[], session).await
            };
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{method} {in_query}");
            assert!(
                reply.body.contains("caractère nul"),
                "{method} {in_query}: {}",
                reply.body
            );
            if method == "POST" && path != "/connexion" {
                // In any field of the body, whatever the function's arguments.
                let reply = app
                    .post_form(&path, &[("text", "a\0b"), ("token", "x")], session)
                    .await;
                assert_eq!(
                    reply.status,
                    StatusCode::BAD_REQUEST,
                    "{path}: {}",
                    reply.body
                );
                assert!(reply.body.contains("caractère nul"), "{path}");
            }
        }
    }
}

/// Tables whose rows a GET may change: the session's last use, the audit
/// log (link views are audited), and the search logs of searches a person
/// ran from our own pages.
const WRITTEN_BY_READS: &[&str] = &[
    "user_sessions",
    "audit_log",
    "search_runs",
    "memory_searches",
    "_sqlx_migrations",
];

/// A digest of every row of every other table.
async fn fingerprint(db: &PgPool) -> Vec<(String, String)> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    )
    .fetch_all(db)
    .await
    .unwrap();
    let mut digests = Vec::new();
    for table in tables {
        if WRITTEN_BY_READS.contains(&table.as_str()) {
            continue;
        }
        let digest: Option<String> = sqlx::query_scalar(&format!(
            "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {table} t"
        ))
        .fetch_one(db)
        .await
        .unwrap();
        digests.push((table, digest.unwrap_or_default()));
    }
    digests
}

/// The tables whose digest differs from `before`.
async fn changed_since(before: &[(String, String)], db: &PgPool) -> Vec<String> {
    let after = fingerprint(db).await;
    before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(b, _)| b.0.clone())
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn no_get_writes_whoever_links_to_it(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let fill = real_params(&app).await;
    // As reproduced: `/memoire?q=…`, `/demandes/:id/catalogue` and its
    // `?atelier=1` wrote; every page gets the parameters any page reads.
    let query = "?q=m%C3%A9dicaments&atelier=1&pool=hotels&demande=1";
    let before = fingerprint(&db).await;
    for (method, path) in every_route(fill) {
        // A conversation's event stream stays open: it reads (chat.rs).
        if method != "GET" || path.ends_with("/events") {
            continue;
        }
        for from in [
            &[("sec-fetch-site", "cross-site")][..],
            &[("sec-fetch-site", "same-origin")],
            &[],
        ] {
            let reply = app
                .get_with(&format!("{path}{query}"), Some(&admin), from)
                .await;
            assert!(
                !reply.status.is_server_error(),
                "GET {path}{query} {from:?}: {}",
                reply.status
            );
        }
    }
    let changed = changed_since(&before, &db).await;
    assert!(changed.is_empty(), "GETs wrote to {changed:?}");
}

/// Bodies no page of ours sends: JSON, content types no route reads, a
/// multipart body without its boundary, bytes with no type, and a form past
/// the size limit. All are refused before a handler reads them.
fn bodies_refused_at_the_edge() -> Vec<(Option<&'static str>, Vec<u8>)> {
    vec![
        (Some("application/json"), b"{\"form\": {\"pool\": ".to_vec()),
        (Some("application/json"), b"[1, 2, {}]".to_vec()),
        (Some("text/plain"), "bonjour".into()),
        (
            Some("application/xml"),
            b"<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>".to_vec(),
        ),
        (Some("multipart/form-data"), b"--x\r\n\r\n".to_vec()),
        (None, b"\x00\x01\x02".to_vec()),
        (
            Some("application/x-www-form-urlencoded"),
            format!("text={}", "x".repeat(server::http::BODY_LIMIT + 1)).into(),
        ),
    ]
}

/// Forms no page of ours sends: bytes that are not UTF-8, and brackets
/// nested past any argument. None names a function's argument, so a
/// function whose arguments are all optional reads an empty form (a valid
/// call); the others must refuse them cleanly.
fn garbled_forms() -> Vec<Vec<u8>> {
    vec![
        vec![0xff, 0xfe, b'=', 0xc3, 0x28, b'&', b'%', b'z', b'z'],
        b"a[b][c][d][e][f][g]=1&a[=2&]]=3&%=%".to_vec(),
    ]
}

#[sqlx::test(migrations = "../migrations")]
async fn hostile_bodies_methods_and_sessions_never_fail_and_never_write(db: PgPool) {
    use reqwest::Method;
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let team = app.sign_in(support::app::TEAM, PASSWORD).await;
    let fill = real_params(&app).await;
    let routes: Vec<(String, String)> = every_route(fill)
        .into_iter()
        // A conversation's event stream stays open: it reads (chat.rs).
        .filter(|(_, path)| !path.ends_with("/events"))
        .collect();
    // Anonymous, a member on an admin's functions, a session that is not
    // one, and the admin.
    let sessions = [
        None,
        Some(team.as_str()),
        Some("forged-token"),
        Some(admin.as_str()),
    ];
    let form = Some("application/x-www-form-urlencoded");
    let before = fingerprint(&db).await;
    let mut sent = 0;
    for (method, path) in &routes {
        let others: &[Method] = if method == "GET" {
            &[Method::POST, Method::PUT, Method::DELETE]
        } else {
            &[Method::GET, Method::PUT, Method::DELETE, Method::PATCH]
        };
        for session in sessions {
            for other in others {
                let reply = app
                    .send(other.clone(), path, form, b"text=x".to_vec(), session)
                    .await;
                sent += 1;
                assert!(
                    !reply.status.is_server_error(),
                    "{other} {path} (a {method} route): {} {}",
                    reply.status,
                    reply.body
                );
            }
            if method != "POST" {
                continue;
            }
            for (content_type, body) in bodies_refused_at_the_edge() {
                let shown = String::from_utf8_lossy(&body[..body.len().min(40)]).into_owned();
                let reply = app
                    .send(Method::POST, path, content_type, body, session)
                    .await;
                sent += 1;
                assert!(
                    matches!(reply.status.as_u16(), 400 | 403 | 413),
                    "POST {path} {content_type:?} {shown:?}: {} {}",
                    reply.status,
                    reply.body
                );
            }
        }
    }
    assert!(sent > 1_000, "only {sent} requests: are the routes listed?");
    let changed = changed_since(&before, &db).await;
    assert!(changed.is_empty(), "hostile requests wrote to {changed:?}");

    for (method, path) in routes.iter().filter(|(m, _)| m == "POST") {
        for session in sessions {
            for body in garbled_forms() {
                let reply = app.send(Method::POST, path, form, body, session).await;
                assert!(
                    !reply.status.is_server_error(),
                    "{method} {path} garbled form: {} {}",
                    reply.status,
                    reply.body
                );
            }
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_body_that_is_not_a_form_is_refused_in_french(db: PgPool) {
    use reqwest::Method;
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(support::app::TEAM, PASSWORD).await;
    // As reproduced: plain text read as a form with every field empty
    // cleared the caller's search preferences.
    let reply = app
        .send(
            Method::POST,
            "/api/search-preferences/save-mine",
            Some("text/plain"),
            "bonjour".into(),
            Some(&team),
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.json()["error"], "bad_request");
    assert_eq!(
        reply.json()["message"],
        "Le format de la requête n'est pas pris en charge : envoyez un formulaire."
    );
    // An empty post needs no type (a sign-out button without a body).
    let reply = app
        .send(Method::POST, "/deconnexion", None, Vec::new(), Some(&team))
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
}
