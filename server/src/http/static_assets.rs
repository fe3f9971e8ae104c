//! The built site's static files: the bundle under `/pkg/` and the icon.
//!
//! `scripts/build-site.sh` names the wasm, its JavaScript loader and the
//! stylesheet after a hash of their content (`maxy.<hash>.js`,
//! `maxy.<hash>_bg.wasm`, `maxy.<hash>.css`), writes that name in
//! `pkg/bundle.txt`, and stores a brotli and a gzip copy beside each file.
//! So a file under a fingerprinted name never changes: browsers keep it a
//! year without asking again (`immutable`), and a new build is a new name
//! that the next page's HTML (always `no-store`) points at. Compressed copies
//! are chosen from the request's `Accept-Encoding`; nothing is compressed
//! per request (ADR 0036).
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use leptos::prelude::LeptosOptions;
use std::path::Path;
use tower_http::services::ServeDir;

/// The file of the built `pkg/` directory that names the current bundle.
pub const BUNDLE_MANIFEST: &str = "bundle.txt";

/// A fingerprinted file: the same name always holds the same bytes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Anything else under `/pkg/` (a build without fingerprints): revalidated.
const REVALIDATE: &str = "no-cache";
/// The icon keeps its name across builds: a day is a fair delay for a change.
const ICON: &str = "public, max-age=86400";

const FAVICON_ICO: &[u8] = include_bytes!("../../../public/favicon.ico");
const FAVICON_SVG: &[u8] = include_bytes!("../../../public/favicon.svg");

/// `options` with `output_name` set to the fingerprinted bundle name the
/// build wrote, when there is one; unchanged otherwise (plain `maxy.js`,
/// `maxy_bg.wasm`, `maxy.css`).
pub fn with_bundle_name(mut options: LeptosOptions) -> LeptosOptions {
    let manifest = Path::new(options.site_root.as_ref())
        .join(options.site_pkg_dir.as_ref())
        .join(BUNDLE_MANIFEST);
    if let Ok(text) = std::fs::read_to_string(&manifest) {
        let name = text.trim();
        if is_plain_name(name) {
            options.output_name = name.into();
        } else {
            tracing::warn!(path = %manifest.display(), "the bundle manifest names no bundle: ignored");
        }
    }
    options
}

/// A bare file name stem (no path, no space): what a manifest may hold.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// `/pkg/…` from the built site (precompressed copies preferred) and the icon.
pub fn routes<S>(options: &LeptosOptions) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let pkg = Path::new(options.site_root.as_ref()).join(options.site_pkg_dir.as_ref());
    let files = ServeDir::new(pkg)
        .precompressed_br()
        .precompressed_gzip()
        .append_index_html_on_directories(false);
    Router::new()
        .nest_service(&format!("/{}", options.site_pkg_dir), files)
        .layer(from_fn(cache_policy))
        .route("/favicon.ico", get(|| icon("image/x-icon", FAVICON_ICO)))
        .route("/favicon.svg", get(|| icon("image/svg+xml", FAVICON_SVG)))
}

async fn icon(content_type: &'static str, bytes: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, ICON),
        ],
        bytes,
    )
        .into_response()
}

/// `immutable` for a fingerprinted file found, `no-cache` for any other;
/// `Vary: Accept-Encoding` since the body depends on it.
async fn cache_policy(request: Request<Body>, next: Next) -> Response {
    let fingerprinted = is_fingerprinted(request.uri().path());
    let mut response = next.run(request).await;
    if response.status() == StatusCode::OK || response.status() == StatusCode::NOT_MODIFIED {
        let policy = if fingerprinted { IMMUTABLE } else { REVALIDATE };
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// Whether the file name at the end of `path` carries a content hash: a
/// dot-separated part of at least 16 hex digits (`maxy.<hash>.js`,
/// `maxy.<hash>_bg.wasm`).
pub fn is_fingerprinted(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    name.split('.').skip(1).any(|part| {
        let part = part.strip_suffix("_bg").unwrap_or(part);
        part.len() >= 16 && part.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hashed_names_are_immutable() {
        assert!(is_fingerprinted("/pkg/maxy.0123456789abcdef.js"));
        assert!(is_fingerprinted("/pkg/maxy.0123456789abcdef_bg.wasm"));
        assert!(is_fingerprinted("/pkg/maxy.0123456789abcdef.css"));
        for path in [
            "/pkg/maxy.js",
            "/pkg/maxy_bg.wasm",
            "/pkg/bundle.txt",
            "/pkg/maxy.abc.js",
            "/pkg/0123456789abcdef0.js",
        ] {
            assert!(!is_fingerprinted(path), "{path}");
        }
    }

    #[test]
    fn a_manifest_names_a_file_stem_only() {
        assert!(is_plain_name("maxy.0123456789abcdef"));
        for name in ["", "../maxy", "maxy js", "/etc/x"] {
            assert!(!is_plain_name(name), "{name}");
        }
    }

    #[test]
    fn the_icon_is_an_ico_file() {
        assert_eq!(&FAVICON_ICO[..4], &[0, 0, 1, 0]);
    }
}
