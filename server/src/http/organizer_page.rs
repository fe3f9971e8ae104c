//! The organizer's catalogue page (`/c/:token`), rendered once per content.
//!
//! An organizer's link is opened again and again (by the organizer, their
//! colleagues, link previews), and rendering the page through Leptos costs
//! far more than reading its data. So every opening still verifies the link,
//! counts and audits the use and reads the catalogue — the page is never
//! staler than the database — but when what it read equals what the last
//! rendering of this link showed, that HTML is sent again with this
//! response's CSP nonce put in (a nonce must be unique per response; it is
//! the only part of the HTML that changes between two renderings of the same
//! data, and it is kept as the cut points of a template).
//!
//! While this process listens for changes to what the page shows
//! (`link_views::page_changes`, migration 0032), a rendering read since the
//! last change heard is sent without reading the database at all: the use
//! is still counted and audited, but the link and the catalogue are not read
//! again until a change is heard, the link or its contact's last link
//! expires, or the rendering is older than [`MAX_AGE`] ([`MAX_AGE_REPLICA`]
//! when it was read on a replica, which may not have replayed the change a
//! notification announced). A visitor who has just written reads the primary
//! (ADR 0043).
//!
//! Only a plain `GET /c/:token` is served from here: a query (a form's error
//! coming back, anything else) goes to Leptos, and so does a refused link
//! (the page renders the refusal, a 404).
//!
//! The page reads from the replica when there is one, but for a visitor who
//! has just written through their link ([`own_writes`]): this middleware
//! marks those writes' responses too.
use super::headers::CspNonce;
use super::own_writes;
use crate::auth::magic_links::Purpose;
use crate::link_views::{LinkViewsService, OpenedCatalogue, PreloadedCatalogue, ReadFrom};
use app::auth::ClientAddr;
use app::links::OrganizerCatalogue;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Renderings kept (one per link; about 20 KB each). Past it, an arbitrary
/// one is forgotten and rendered again on its link's next opening.
const MAX_PAGES: usize = 1024;

/// How long a rendering read on the primary is sent without reading again,
/// when no change was heard: a bound on what a notification lost without the
/// connection saying so (a half-open socket) could leave stale.
const MAX_AGE: Duration = Duration::from_secs(10);

/// The same for a rendering read on a replica: the notification comes from
/// the primary, and the replica may not have replayed that change when the
/// page is read again right after it.
const MAX_AGE_REPLICA: Duration = Duration::from_secs(1);

/// The pages rendered so far, by link token.
pub struct OrganizerPages {
    views: Arc<LinkViewsService>,
    rendered: Mutex<HashMap<String, Kept>>,
    /// Cookies get `Secure` (the app is served over https).
    secure_cookies: bool,
}

/// A rendering and whether it may be sent without reading the database.
struct Kept {
    page: Arc<Rendered>,
    /// The link it was read through (its uses are counted on each sending).
    link_id: i64,
    /// `page_changes`' count when it was read (`None`: nobody listened).
    generation: Option<u64>,
    /// The reading stops being true then ([`OpenedCatalogue::true_until`]).
    true_until: chrono::DateTime<chrono::Utc>,
    read_at: Instant,
    max_age: Duration,
}

/// One rendering: the data it showed and its HTML cut at the nonce.
struct Rendered {
    catalogue: OrganizerCatalogue,
    content_type: HeaderValue,
    /// The HTML between the occurrences of the nonce.
    pieces: Vec<Bytes>,
}

impl Rendered {
    fn response(&self, nonce: &str) -> Response {
        let length = self.pieces.iter().map(Bytes::len).sum::<usize>()
            + nonce.len() * self.pieces.len().saturating_sub(1);
        let mut html = Vec::with_capacity(length);
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                html.extend_from_slice(nonce.as_bytes());
            }
            html.extend_from_slice(piece);
        }
        ([(header::CONTENT_TYPE, self.content_type.clone())], html).into_response()
    }
}

impl OrganizerPages {
    pub fn new(views: Arc<LinkViewsService>, secure_cookies: bool) -> Self {
        OrganizerPages {
            views,
            rendered: Mutex::new(HashMap::new()),
            secure_cookies,
        }
    }

    /// The rendering of `token` if it showed exactly `catalogue`.
    fn matching(&self, token: &str, catalogue: &OrganizerCatalogue) -> Option<Arc<Rendered>> {
        let rendered = self.rendered.lock().unwrap_or_else(PoisonError::into_inner);
        rendered
            .get(token)
            .filter(|kept| kept.page.catalogue == *catalogue)
            .map(|kept| kept.page.clone())
    }

    /// The rendering of `token` and its link when nothing it shows can have
    /// changed since it was read.
    fn current(&self, token: &str) -> Option<(Arc<Rendered>, i64)> {
        let rendered = self.rendered.lock().unwrap_or_else(PoisonError::into_inner);
        let kept = rendered.get(token)?;
        let current = self.views.page_changes.unchanged_since(kept.generation)
            && kept.read_at.elapsed() < kept.max_age
            && chrono::Utc::now() < kept.true_until;
        current.then(|| (kept.page.clone(), kept.link_id))
    }

    /// Keeps `page` as `token`'s rendering of `opened`, read when
    /// `page_changes` counted `generation`.
    fn keep(
        &self,
        token: String,
        page: Arc<Rendered>,
        opened: &OpenedCatalogue,
        generation: Option<u64>,
        read_at: Instant,
    ) {
        let kept = Kept {
            page,
            link_id: opened.link_id,
            generation,
            true_until: opened.true_until,
            read_at,
            max_age: if opened.from_replica {
                MAX_AGE_REPLICA
            } else {
                MAX_AGE
            },
        };
        let mut rendered = self.rendered.lock().unwrap_or_else(PoisonError::into_inner);
        if rendered.len() >= MAX_PAGES && !rendered.contains_key(&token) {
            if let Some(any) = rendered.keys().next().cloned() {
                rendered.remove(&any);
            }
        }
        rendered.insert(token, kept);
    }

    /// Renderings kept (for tests and diagnostics).
    pub fn len(&self) -> usize {
        self.rendered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The token of a plain `GET /c/:token`, the only request served here.
fn page_token(request: &Request<Body>) -> Option<String> {
    if request.method() != Method::GET || request.uri().query().is_some() {
        return None;
    }
    let token = request.uri().path().strip_prefix("/c/")?;
    let well_formed = !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    well_formed.then(|| token.to_string())
}

/// Serves an organizer page from its last rendering when the data is the
/// same; renders it (and keeps the rendering) otherwise.
pub async fn serve(
    State(pages): State<Arc<OrganizerPages>>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    if own_writes::is_link_write(request.method(), request.uri().path()) {
        let mut response = next.run(request).await;
        own_writes::mark(&mut response, pages.secure_cookies);
        return response;
    }
    let Some(token) = page_token(&request) else {
        return next.run(request).await;
    };
    let nonce = match request.extensions().get::<CspNonce>() {
        Some(CspNonce(nonce)) if !nonce.is_empty() => nonce.clone(),
        // No nonce, no inline script: nothing to put in a template.
        _ => return next.run(request).await,
    };
    let ip = request.extensions().get::<ClientAddr>().map(|a| a.0);
    let from = if own_writes::wrote_recently(request.headers()) {
        ReadFrom::Primary
    } else {
        ReadFrom::Replica
    };
    if from == ReadFrom::Replica {
        if let Some((page, link_id)) = pages.current(&token) {
            pages
                .views
                .count_view(Purpose::Catalogue, link_id, ip)
                .await;
            return page.response(&nonce);
        }
    }
    // Taken before reading: a change heard while the read runs leaves this
    // reading stale, never the next one.
    let generation = pages.views.page_changes.current();
    let read_at = Instant::now();
    let Ok(opened) = pages.views.organizer_catalogue_for(&token, ip, from).await else {
        // The page says why (and answers 404 for a refused link).
        return next.run(request).await;
    };
    if let Some(page) = pages.matching(&token, &opened.catalogue) {
        let response = page.response(&nonce);
        pages.keep(token, page, &opened, generation, read_at);
        return response;
    }
    request.extensions_mut().insert(PreloadedCatalogue {
        token: token.clone(),
        catalogue: opened.catalogue.clone(),
    });
    let response = next.run(request).await;
    let cacheable =
        response.status() == StatusCode::OK && !response.headers().contains_key(header::SET_COOKIE);
    if !cacheable {
        return response;
    }
    let (parts, body) = response.into_parts();
    let html = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(html) => html,
        Err(e) => {
            tracing::error!(error = %e, "the organizer page's rendering failed midway");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static("text/html; charset=utf-8"));
    let pieces = split_at(&html, nonce.as_bytes());
    let page = Arc::new(Rendered {
        catalogue: opened.catalogue.clone(),
        content_type,
        pieces,
    });
    pages.keep(token, page, &opened, generation, read_at);
    Response::from_parts(parts, Body::from(html))
}

/// `html` cut at every occurrence of `nonce` (which is not kept).
fn split_at(html: &Bytes, nonce: &[u8]) -> Vec<Bytes> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at + nonce.len() <= html.len() {
        if html[at..].starts_with(nonce) {
            pieces.push(html.slice(start..at));
            at += nonce.len();
            start = at;
        } else {
            at += 1;
        }
    }
    pieces.push(html.slice(start..));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_template_puts_the_new_nonce_where_the_old_one_was() {
        let html =
            Bytes::from_static(b"<script nonce=\"N1\">a</script><p>N</p><x crossorigin=\"N1\">N1");
        let pieces = split_at(&html, b"N1");
        assert_eq!(pieces.len(), 4);
        let page = Rendered {
            catalogue: OrganizerCatalogue {
                request_reference: String::new(),
                event_summary: String::new(),
                participants: 0,
                event_dates: None,
                configurations: vec![],
                sent_on: None,
                picks: vec![],
                comment: None,
                contact: None,
                open_until: None,
            },
            content_type: HeaderValue::from_static("text/html"),
            pieces,
        };
        let response = page.response("ZZZ");
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("a body");
        assert_eq!(
            &body[..],
            b"<script nonce=\"ZZZ\">a</script><p>N</p><x crossorigin=\"ZZZ\">ZZZ"
        );
    }

    #[test]
    fn only_a_plain_get_of_a_catalogue_link_is_served_here() {
        let get = |uri: &str| Request::get(uri).body(Body::empty()).expect("a request");
        assert_eq!(
            page_token(&get("/c/abc.DEF-_1")).as_deref(),
            Some("abc.DEF-_1")
        );
        assert_eq!(page_token(&get("/c/abc?__err=x")), None);
        assert_eq!(page_token(&get("/c/")), None);
        assert_eq!(page_token(&get("/c/a/b")), None);
        assert_eq!(page_token(&get("/v/abc")), None);
        let post = Request::post("/c/abc")
            .body(Body::empty())
            .expect("a request");
        assert_eq!(page_token(&post), None);
    }
}
