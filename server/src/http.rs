//! The HTTP surface: Leptos pages and server functions, sign-in routes,
//! health probes, and the layers every request crosses.
//!
//! Authentication happens once per request ([`middleware::authenticate`]
//! puts the [`app::auth::SessionUser`] in the request's extensions);
//! authorization is decided by `app::auth::access` (server functions), the
//! extractors of [`extract`] (server routes) and the page guard, all from the
//! same role rule and the same page table.
pub mod auth_routes;
mod chat_events;
pub mod client_addr;
mod content_types;
pub mod csrf;
pub mod errors;
pub mod extract;
mod form_done;
mod form_errors;
pub mod headers;
mod health;
mod metrics_route;
pub mod middleware;
pub mod navigation;
pub mod nul_bytes;
pub mod organizer_page;
mod own_writes;
pub mod paths;
mod request_id;
pub mod route_table;
pub mod static_assets;

use crate::state::AppState;
use app::{shell, App};
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;
use leptos_axum::{generate_route_list, AxumRouteListing, LeptosRoutes};
use organizer_page::OrganizerPages;
use route_table::RouteTable;
use std::sync::{Arc, OnceLock};

/// The largest body a server function (or any route without its own limit)
/// accepts. Forms and search criteria are far smaller. The chat will post
/// long messages with pasted text: give its route its own, larger limit
/// rather than raising this one.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Builds the whole router; tests call it directly.
///
/// A request crosses, in order: request id + tracing, security headers (CSP
/// nonce), error logging, path check (and trailing-slash redirect), NUL
/// check, client address, CSRF check, plain-post
/// confirmation, form-error check, cross-site marker, magic-link rate limit, the organizer page's
/// renderings, authentication (session cookie), page and server-function
/// guard, then its handler.
pub fn router(state: AppState) -> Router {
    let routes = route_list().to_vec();
    let leptos_options = state.leptos_options.clone();
    let services = state.services.clone();
    let router = Router::new()
        .merge(static_assets::routes(&leptos_options))
        .merge(server_routes().into_router())
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                services.provide();
                headers::provide_request_nonce();
            },
            move || shell(leptos_options.clone()),
        )
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            AppState,
            _,
        >(headers::provide_request_nonce, shell))
        .layer(from_fn(middleware::guard))
        .layer(from_fn_with_state(state.clone(), middleware::authenticate))
        .layer(from_fn_with_state(
            Arc::new(OrganizerPages::new(
                state.link_views.clone(),
                state.config.auth.secure_cookies(),
            )),
            organizer_page::serve,
        ))
        .layer(from_fn_with_state(state.clone(), middleware::limit_links))
        .layer(from_fn_with_state(
            state.clone(),
            navigation::mark_cross_site,
        ))
        .layer(from_fn_with_state(
            state.clone(),
            form_errors::vouch_for_form_errors,
        ))
        .layer(from_fn_with_state(
            state.clone(),
            form_done::confirm_plain_posts,
        ))
        .layer(from_fn(content_types::refuse_unread_bodies))
        .layer(from_fn_with_state(state.clone(), csrf::require_same_origin))
        .layer(from_fn_with_state(state.clone(), client_addr::resolve))
        .layer(from_fn(nul_bytes::refuse_nul_bytes))
        .layer(from_fn(paths::refuse_unnormalised))
        .layer(from_fn(errors::log_errors))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(from_fn(metrics_route::time_requests));
    let router = headers::with_security_headers(router, &state.config.auth);
    request_id::with_request_ids(router).with_state(state)
}

/// The Leptos routes, listed once per process. Listing them runs the app
/// with resource loading suppressed by a process-wide flag, and a resource
/// first polled meanwhile (a page another router of this process renders)
/// waits forever: so the list is made before any router exists and never
/// again (tests build many routers in one process; leptos-rs/leptos#4773).
/// Whatever else needs the list reads it here, never by listing again.
pub fn route_list() -> &'static [AxumRouteListing] {
    static ROUTES: OnceLock<Vec<AxumRouteListing>> = OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App))
}

/// The axum routes outside Leptos (health probes, sign-in and sign-out).
fn server_routes() -> RouteTable {
    health::routes()
        .merge(auth_routes::routes())
        .merge(chat_events::routes())
        .merge(metrics_route::routes())
}

/// Method and path of every axum route outside Leptos, from the same table
/// the router is built from (the access-map test walks it).
pub fn server_route_list() -> Vec<(Method, &'static str)> {
    server_routes().routes().to_vec()
}
