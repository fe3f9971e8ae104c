//! The HTTP surface: Leptos pages, health probes, request ids and tracing.
mod health;
mod request_id;

use crate::state::AppState;
use app::{shell, App};
use axum::Router;
use leptos_axum::{generate_route_list, LeptosRoutes};

/// Builds the whole router; tests call it directly.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let leptos_options = state.leptos_options.clone();
    let router = Router::new()
        .merge(health::routes())
        .leptos_routes(&state, routes, move || shell(leptos_options.clone()))
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell));
    request_id::with_request_ids(router).with_state(state)
}
