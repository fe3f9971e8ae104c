//! The HTTP surface: Leptos pages and server functions, sign-in routes,
//! health probes, and the layers every request crosses.
//!
//! Authentication happens once per request ([`middleware::authenticate`]
//! puts the [`app::auth::SessionUser`] in the request's extensions);
//! authorization is decided by `app::auth::access` (server functions), the
//! extractors of [`extract`] (server routes) and the page guard, all from the
//! same role rule and the same page table.
pub mod auth_routes;
pub mod csrf;
pub mod extract;
mod health;
pub mod middleware;
mod request_id;

use crate::state::AppState;
use app::{shell, App};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};

/// Builds the whole router; tests call it directly.
///
/// A request crosses, in order: request id + tracing, CSRF check, magic-link
/// rate limit, authentication (session cookie), page guard, then its handler.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let leptos_options = state.leptos_options.clone();
    let (portal, venue_search) = (state.portal.clone(), state.venue_search.clone());
    let router = Router::new()
        .merge(health::routes())
        .merge(auth_routes::routes())
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(portal.clone());
                provide_context(venue_search.clone());
            },
            move || shell(leptos_options.clone()),
        )
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .layer(from_fn(middleware::guard_pages))
        .layer(from_fn_with_state(state.clone(), middleware::authenticate))
        .layer(from_fn_with_state(state.clone(), middleware::limit_links))
        .layer(from_fn_with_state(state.clone(), csrf::require_same_origin));
    request_id::with_request_ids(router).with_state(state)
}
