//! « Demandes » as the team's pages see them: the filtered list, one
//! request's detail, and the edit of its memo, search hints and status.
//!
//! The list's filters travel as the URL's raw text ([`RequestsQuery`]): the
//! server validates them, so a hand-edited or stale link gets a clear French
//! message instead of a silently different list.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Rows per page of the list.
pub const PAGE_SIZE: usize = 25;
/// The deepest page the list serves (bounded offset: 25 × 400 rows).
pub const MAX_PAGE: u32 = 400;
/// The longest free-text filter.
pub const MAX_QUERY_CHARS: usize = 200;
/// The longest team memo (same cap as the assistant's `update_request`).
pub const MAX_MEMO_CHARS: usize = 5000;
/// The longest « consignes de recherche ».
pub const MAX_HINTS_CHARS: usize = 2000;

/// Request statuses, in the order of their life.
pub const STATUSES: &[&str] = &[
    "new",
    "qualifying",
    "catalogue_sent",
    "won",
    "lost",
    "cancelled",
];

/// The list's filter for the requests still waiting for a catalogue: new
/// and qualifying (« en attente », « à qualifier »).
pub const OPEN: &str = "open";
/// The statuses [`OPEN`] stands for.
pub const OPEN_STATUSES: &[&str] = &["new", "qualifying"];
/// How the list's status filter names [`OPEN`].
pub const OPEN_LABEL: &str = "En attente (à qualifier)";

/// True for a value the list's status filter accepts: a status or [`OPEN`].
pub fn is_status_filter(value: &str) -> bool {
    value == OPEN || STATUSES.contains(&value)
}

/// The French label of a status key (see [`crate::fr::request_status`]).
pub fn status_label(status: &str) -> &str {
    crate::fr::request_status(status)
}

/// The list's filters exactly as the URL query carries them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct RequestsQuery {
    /// A status key, or empty for all.
    pub status: String,
    /// A pool slug, or empty for all.
    pub pool: String,
    /// Event date range, `AAAA-MM-JJ` each (either may be empty).
    pub from: String,
    pub to: String,
    /// A whole month of event dates, `AAAA-MM` (alternative to from/to).
    pub month: String,
    /// Free text over reference, organizer and description.
    pub q: String,
    /// Only the requests assigned to the caller.
    pub mine: bool,
    /// 1-based page number as text (empty = 1).
    pub page: String,
}

impl RequestsQuery {
    /// The query string of these filters at `page` (without the `?`).
    pub fn to_query_string(&self, page: u32) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (name, value) in [
            ("status", &self.status),
            ("pool", &self.pool),
            ("from", &self.from),
            ("to", &self.to),
            ("month", &self.month),
            ("q", &self.q),
        ] {
            if !value.is_empty() {
                parts.push(format!("{name}={}", encode(value)));
            }
        }
        if self.mine {
            parts.push("mine=1".into());
        }
        if page > 1 {
            parts.push(format!("page={page}"));
        }
        parts.join("&")
    }
}

/// Percent-encodes a query value (everything but unreserved characters).
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One row of the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRow {
    pub id: i64,
    pub reference: String,
    /// Name and/or company of the organizer.
    pub organizer: Option<String>,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    /// Event date(s), formatted in French (`12/03/2026`, `du … au …`).
    pub event_dates: Option<String>,
    pub pool: String,
    pub status: String,
    pub assigned_to: Option<String>,
    /// Picks of the current (latest standard) catalogue; 0 without one.
    pub picks: i64,
    /// `JJ/MM/AAAA`.
    pub created_on: String,
}

/// One page of the list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestsList {
    pub rows: Vec<RequestRow>,
    pub page: u32,
    pub has_previous: bool,
    pub has_next: bool,
}

/// A request in full, for its page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestDetail {
    pub id: i64,
    pub reference: String,
    pub pool: String,
    pub source: String,
    pub status: String,
    pub organizer_name: Option<String>,
    pub organizer_company: Option<String>,
    pub organizer_email: Option<String>,
    pub organizer_phone: Option<String>,
    /// Third-party text: shown as text, never as HTML.
    pub description: String,
    pub complementary_info: Option<String>,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    /// French labels of the accepted configurations.
    pub configurations: Vec<String>,
    pub event_dates: Option<String>,
    pub date_flexible: bool,
    pub date_notes: Option<String>,
    pub budget_eur: Option<i32>,
    pub budget_note: Option<String>,
    pub area: Option<String>,
    pub postal_codes: Vec<String>,
    /// `12,0 km autour de 48,8700, 2,3100` when the request has a radius.
    pub radius: Option<String>,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
    pub assigned_to: Option<String>,
    pub created_on: String,
    pub emails: Vec<RequestEmail>,
    pub similar: Vec<SimilarRequest>,
    /// `vector`, `fts` or `none`: how the similar requests were found.
    pub similar_source: String,
}

/// An e-mail about the request (third-party text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestEmail {
    /// `in` (from the organizer) or `out` (from the team).
    pub direction: String,
    pub from_address: String,
    pub subject: String,
    pub body: String,
    /// `JJ/MM/AAAA HH:MM` (UTC).
    pub at: String,
}

/// A past request of the same pool like this one, with its catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarRequest {
    pub id: i64,
    pub reference: String,
    pub pool: String,
    pub status: String,
    pub summary: String,
    pub picks: Vec<SimilarPick>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarPick {
    pub code: String,
    pub name: String,
    /// `recommended` or `compatible`.
    pub tier: String,
}

/// What the team changes on a request; `None` keeps the field, an empty
/// memo or hint clears it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestEdit {
    pub status: Option<String>,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
}

/// The team's desk of requests (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait RequestsDesk: Send + Sync {
    async fn list(&self, user_id: i64, query: RequestsQuery) -> Result<RequestsList, AppError>;
    async fn detail(&self, request_id: i64) -> Result<RequestDetail, AppError>;
    /// The pools of the list's filter (kept in the process for a minute:
    /// pools are only written by the CLI, and every list page shows them).
    async fn pools(&self) -> Result<Vec<crate::venue_search::PoolOption>, AppError>;
    /// The id of the request with this reference; `NotFound` when none.
    async fn id_of_reference(&self, reference: &str) -> Result<i64, AppError>;
    /// Validates, writes and audits; the request as it now is.
    async fn edit(
        &self,
        user_id: i64,
        request_id: i64,
        edit: RequestEdit,
    ) -> Result<RequestDetail, AppError>;
}

/// One page of the team's requests.
#[server(endpoint = "requests/list")]
pub async fn list_requests(query: RequestsQuery) -> Result<RequestsList, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn RequestsDesk>()?
        .list(user.id, query)
        .await
}

/// The pools of the list's filter form (team only).
#[server(endpoint = "requests/pools")]
pub async fn list_request_pools() -> Result<Vec<crate::venue_search::PoolOption>, AppError> {
    crate::auth::access::require_team()?;
    crate::services::service::<dyn RequestsDesk>()?
        .pools()
        .await
}

/// One request, its e-mails and the three most similar past requests.
#[server(endpoint = "requests/detail")]
pub async fn load_request(request_id: i64) -> Result<RequestDetail, AppError> {
    crate::auth::access::require_team()?;
    crate::services::service::<dyn RequestsDesk>()?
        .detail(request_id)
        .await
}

/// The id of the request a reference names (« D-2025-00007 »): the
/// detail page's address takes either.
#[server(endpoint = "requests/find")]
pub async fn find_request(reference: String) -> Result<i64, AppError> {
    crate::auth::access::require_team()?;
    if !is_reference(&reference) {
        return Err(AppError::NotFound);
    }
    crate::services::service::<dyn RequestsDesk>()?
        .id_of_reference(&reference)
        .await
}

/// What may be a request's reference (« D-2025-00007 », « D-2025-00019-BIS »;
/// the marketplace numbers them, so no more is assumed): up to 40 letters,
/// digits and dashes, with a letter, read in any case.
pub fn is_reference(text: &str) -> bool {
    (1..=40).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && text.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Changes the memo, the search hints and/or the status (fields left out
/// are kept). Posted by the detail page's forms, with or without JavaScript.
#[server(endpoint = "requests/edit")]
pub async fn edit_request(
    request_id: i64,
    status: Option<String>,
    team_memo: Option<String>,
    search_hints: Option<String>,
) -> Result<RequestDetail, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = RequestEdit {
        status,
        team_memo,
        search_hints,
    };
    crate::services::service::<dyn RequestsDesk>()?
        .edit(user.id, request_id, edit)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_string_keeps_every_filter_and_encodes_text() {
        let q = RequestsQuery {
            status: "won".into(),
            q: "dîner & co".into(),
            mine: true,
            ..RequestsQuery::default()
        };
        assert_eq!(
            q.to_query_string(3),
            "status=won&q=d%C3%AEner%20%26%20co&mine=1&page=3"
        );
        assert_eq!(RequestsQuery::default().to_query_string(1), "");
    }

    #[test]
    fn every_status_has_a_french_label() {
        for s in STATUSES {
            assert_ne!(status_label(s), *s);
        }
    }
}
