//! Server routes outside Leptos, registered through a table that remembers
//! them: the router is built from it and the access-map test walks it, so a
//! route cannot be added without being checked. Add axum routes here (via
//! [`RouteTable::get`] / [`RouteTable::post`]), never with `Router::route`.
use crate::state::AppState;
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{get, post};
use axum::Router;

#[derive(Default)]
pub struct RouteTable {
    router: Router<AppState>,
    routes: Vec<(Method, &'static str)>,
}

impl RouteTable {
    pub fn get<H, T>(mut self, path: &'static str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.router = self.router.route(path, get(handler));
        self.routes.push((Method::GET, path));
        self
    }

    pub fn post<H, T>(mut self, path: &'static str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.router = self.router.route(path, post(handler));
        self.routes.push((Method::POST, path));
        self
    }

    /// Wraps the routes registered so far (a body limit, for instance).
    pub fn layer(mut self, apply: impl FnOnce(Router<AppState>) -> Router<AppState>) -> Self {
        self.router = apply(self.router);
        self
    }

    pub fn merge(mut self, other: RouteTable) -> Self {
        self.router = self.router.merge(other.router);
        self.routes.extend(other.routes);
        self
    }

    /// The method and path of every route, in registration order.
    pub fn routes(&self) -> &[(Method, &'static str)] {
        &self.routes
    }

    pub fn into_router(self) -> Router<AppState> {
        self.router
    }
}
