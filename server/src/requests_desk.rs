//! The team's « Demandes » desk (`app::requests::RequestsDesk`): the
//! filtered list, one request's page, and the edit of its memo, search
//! hints and status.
//!
//! The edit goes through the same checks and the same write as the
//! assistant's approved `update_request` (`tools::write::update_request`),
//! and is audited (`request.updated`).
mod filters;
mod format;
pub mod pool_cache;

pub use filters::Filters;

use crate::audit::{self, Actor, Event};
use crate::db::{app_error, request_emails, requests};
use crate::tools::args::UpdateRequest;
use crate::tools::write::update_request;
use crate::tools::ToolError;
use app::auth::ClientAddr;
use app::errors::AppError;
use app::requests::{
    RequestDetail, RequestEdit, RequestsDesk, RequestsList, RequestsQuery, MAX_HINTS_CHARS,
    MAX_MEMO_CHARS, PAGE_SIZE, STATUSES,
};
use sqlx::PgPool;

/// The most e-mails a request page shows (the oldest first).
const MAX_EMAILS: i64 = 200;
/// How many similar past requests the page shows.
const SIMILAR: i64 = 3;

pub struct RequestsDeskService {
    pub db: PgPool,
    /// Where the list reads (a replica, `MAXY_DATABASE_READ_URL`); `None`:
    /// `db`. A request's own page and every write stay on `db`.
    pub read_db: Option<PgPool>,
    /// The filter form's pools, kept for a minute.
    pub pools: pool_cache::PoolCache,
}

#[async_trait::async_trait]
impl RequestsDesk for RequestsDeskService {
    async fn list(&self, user_id: i64, query: RequestsQuery) -> Result<RequestsList, AppError> {
        let filters = Filters::parse(&query)?;
        // One row more than the page tells whether a next page exists
        // without counting the whole result.
        let size = PAGE_SIZE as i64;
        let db_filter = requests::ListFilter {
            status: filters.status.as_deref(),
            pool: filters.pool.as_deref(),
            from: filters.from,
            to: filters.to,
            assigned_to: filters.mine.then_some(user_id),
            text: filters.text.as_deref(),
            limit: size + 1,
            offset: i64::from(filters.page - 1) * size,
        };
        let mut rows = requests::list(self.read_db.as_ref().unwrap_or(&self.db), &db_filter)
            .await
            .map_err(app_error)?;
        let has_next = rows.len() > PAGE_SIZE;
        rows.truncate(PAGE_SIZE);
        Ok(RequestsList {
            rows: rows.into_iter().map(format::list_row).collect(),
            page: filters.page,
            has_previous: filters.page > 1,
            has_next,
        })
    }

    async fn pools(&self) -> Result<Vec<app::venue_search::PoolOption>, AppError> {
        let pools = self.pools.get(&self.db).await.map_err(app_error)?;
        Ok(pools.as_ref().clone())
    }

    async fn detail(&self, request_id: i64) -> Result<RequestDetail, AppError> {
        let row = requests::detail(&self.db, request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let emails = request_emails::chronological(&self.db, request_id, MAX_EMAILS)
            .await
            .map_err(app_error)?;
        let similar = requests::similar_with_picks(&self.db, request_id, SIMILAR)
            .await
            .map_err(app_error)?;
        Ok(format::detail(row, emails, similar))
    }

    async fn id_of_reference(&self, reference: &str) -> Result<i64, AppError> {
        requests::id_of_reference(&self.db, reference)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)
    }

    async fn edit(
        &self,
        user_id: i64,
        request_id: i64,
        edit: RequestEdit,
    ) -> Result<RequestDetail, AppError> {
        check_edit(&edit)?;
        let args = UpdateRequest {
            request_id,
            status: edit.status,
            team_memo: edit.team_memo,
            search_hints: edit.search_hints,
            ..UpdateRequest::default()
        };
        let mut tx = self.db.begin().await.map_err(app_error)?;
        let changes = update_request::resolve(&mut tx, &args)
            .await
            .map_err(|e| match e {
                ToolError::NotFound(_) => AppError::NotFound,
                ToolError::InvalidArguments(text) => AppError::Invalid(text),
                other => AppError::unavailable(other),
            })?;
        if !update_request::apply(&mut tx, &changes)
            .await
            .map_err(app_error)?
        {
            return Err(AppError::NotFound);
        }
        let mut event = Event::new(Actor::User(user_id), "request.updated")
            .on("request", request_id)
            .details(serde_json::json!({
                "changed": changes.changed(),
                "status": changes.status,
                "via": "requests_page",
            }));
        if let Some(ip) = client_addr() {
            event = event.from_ip(ip);
        }
        audit::record(&mut *tx, event).await;
        tx.commit().await.map_err(app_error)?;
        self.detail(request_id).await
    }
}

/// The address of the request being served (set by the HTTP layer).
fn client_addr() -> Option<std::net::IpAddr> {
    leptos::prelude::use_context::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<ClientAddr>().copied())
        .map(|ClientAddr(ip)| ip)
}

/// The page's own wording for what the shared checks would refuse, said
/// before anything is opened.
fn check_edit(edit: &RequestEdit) -> Result<(), AppError> {
    if edit.status.is_none() && edit.team_memo.is_none() && edit.search_hints.is_none() {
        return Err(AppError::Invalid("Rien à modifier.".into()));
    }
    if let Some(status) = &edit.status {
        if !STATUSES.contains(&status.trim()) {
            return Err(AppError::Invalid(format!(
                "Statut inconnu « {} ». Statuts possibles : {}.",
                format::cut(status, 40),
                STATUSES.join(", ")
            )));
        }
    }
    for (label, value, max) in [
        ("Le mémo équipe", &edit.team_memo, MAX_MEMO_CHARS),
        (
            "Les consignes de recherche",
            &edit.search_hints,
            MAX_HINTS_CHARS,
        ),
    ] {
        let Some(value) = value else { continue };
        if value.contains('\0') {
            return Err(AppError::Invalid(format!(
                "{label} contient un caractère invalide."
            )));
        }
        let n = value.trim().chars().count();
        if n > max {
            return Err(AppError::Invalid(format!(
                "{label} dépasse {max} caractères ({n}) : raccourcissez le texte."
            )));
        }
    }
    Ok(())
}
