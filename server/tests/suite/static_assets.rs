//! The bundle as browsers get it: the build step gives it fingerprinted
//! names and brotli/gzip copies (scripts/fingerprint-bundle.mjs, run here as
//! a real process), the server sends the compressed copy the browser
//! accepts with `Cache-Control: immutable`, the pages name the fingerprinted
//! files, the organizer's and venue's link pages load no bundle at all, and
//! `/favicon.ico` answers.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, VARY};
use reqwest::StatusCode;
use sqlx::PgPool;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// A built site in a fresh directory: three small stand-in files put through
/// the real fingerprinting step. Returns the site root and the bundle name.
fn built_site() -> (PathBuf, String) {
    let root = std::env::temp_dir().join(format!("maxy-site-{}", uuid::Uuid::new_v4()));
    let pkg = root.join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    // Repetitive enough that both compressions shrink it a lot.
    let wasm: Vec<u8> = b"\0asm\x01\0\0\0"
        .iter()
        .copied()
        .chain((0..200_000u32).map(|i| (i % 7) as u8))
        .collect();
    std::fs::write(pkg.join("maxy_bg.wasm"), &wasm).unwrap();
    std::fs::write(
        pkg.join("maxy.js"),
        "export function hydrate() {}\n".repeat(200),
    )
    .unwrap();
    std::fs::write(
        pkg.join("maxy.css"),
        "body { color: #4f46e5; }\n".repeat(200),
    )
    .unwrap();
    let script = support::repo_root().join("scripts/fingerprint-bundle.mjs");
    let status = std::process::Command::new("node")
        .arg(&script)
        .arg(&pkg)
        .arg("--fast")
        .stdout(std::process::Stdio::null())
        .status()
        .expect("node runs (the site build needs it too)");
    assert!(status.success(), "{} failed", script.display());
    let name = std::fs::read_to_string(pkg.join("bundle.txt")).unwrap();
    let name = name.trim().to_string();
    assert!(
        name.starts_with("maxy.") && name.len() == "maxy.".len() + 16,
        "{name}"
    );
    for suffix in ["_bg.wasm", ".js", ".css"] {
        for extra in ["", ".br", ".gz"] {
            let file = pkg.join(format!("{name}{suffix}{extra}"));
            assert!(file.is_file(), "{} is built", file.display());
        }
    }
    assert!(
        !pkg.join("maxy_bg.wasm").exists(),
        "no unfingerprinted copy left"
    );
    (root, name)
}

/// The server on a real port, reading the site at `site_root`.
async fn serve(db: PgPool, site_root: &Path) -> SocketAddr {
    let options = leptos::prelude::LeptosOptions::builder()
        .output_name("maxy")
        .site_root(site_root.to_string_lossy().as_ref())
        .build();
    let options = server::http::static_assets::with_bundle_name(options);
    let state = support::app_state_with_site(db, support::closed_port().await, &[], options);
    let app = server::http::router(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    addr
}

/// A client that leaves bodies as sent (no transparent decompression).
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// `bytes` through `gzip -dc`.
fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut gzip = std::process::Command::new("gzip")
        .arg("-dc")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip runs");
    gzip.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = gzip.wait_with_output().unwrap();
    assert!(out.status.success(), "gzip -dc");
    out.stdout
}

fn header(reply: &reqwest::Response, name: reqwest::header::HeaderName) -> &str {
    reply
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_bundle_is_sent_compressed_and_cached_for_a_year(db: PgPool) {
    let (site, name) = built_site();
    let addr = serve(db, &site).await;
    let wasm_path = format!("/pkg/{name}_bg.wasm");
    let original = std::fs::read(site.join("pkg").join(format!("{name}_bg.wasm"))).unwrap();
    let http = client();
    let get = |path: String, encoding: &'static str| {
        http.get(format!("http://{addr}{path}"))
            .header(ACCEPT_ENCODING, encoding)
            .send()
    };

    // Brotli when the browser takes it (HTTPS browsers do).
    let reply = get(wasm_path.clone(), "gzip, deflate, br").await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(header(&reply, CONTENT_ENCODING), "br");
    assert_eq!(header(&reply, CONTENT_TYPE), "application/wasm");
    assert_eq!(
        header(&reply, CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(header(&reply, VARY).to_ascii_lowercase(), "accept-encoding");
    let body = reply.bytes().await.unwrap();
    assert!(
        body.len() < original.len() / 10,
        "brotli: {} bytes",
        body.len()
    );

    // Gzip otherwise (plain-http browsers), and it is the same file.
    let reply = get(wasm_path.clone(), "gzip, deflate").await.unwrap();
    assert_eq!(header(&reply, CONTENT_ENCODING), "gzip");
    assert_eq!(
        header(&reply, CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    let body = reply.bytes().await.unwrap();
    assert_eq!(&body[..2], &[0x1f, 0x8b], "a gzip stream");
    assert_eq!(gunzip(&body), original, "the gzip copy is the wasm");

    // Neither: the file itself.
    let reply = get(wasm_path, "identity").await.unwrap();
    assert_eq!(header(&reply, CONTENT_ENCODING), "");
    assert_eq!(reply.bytes().await.unwrap().len(), original.len());

    for path in [format!("/pkg/{name}.js"), format!("/pkg/{name}.css")] {
        let reply = get(path.clone(), "br").await.unwrap();
        assert_eq!(reply.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&reply, CONTENT_ENCODING), "br", "{path}");
        assert!(
            header(&reply, CACHE_CONTROL).ends_with("immutable"),
            "{path}"
        );
    }

    // The manifest keeps its name: never cached without asking again.
    let reply = get("/pkg/bundle.txt".into(), "gzip").await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(header(&reply, CACHE_CONTROL), "no-cache");
    // A file that is not there is a 404, not a page.
    let reply = get("/pkg/maxy.0000000000000000_bg.wasm".into(), "br")
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::NOT_FOUND);

    // The sign-in page names the fingerprinted files and is never stored.
    let reply = get("/connexion".into(), "gzip").await.unwrap();
    assert_eq!(header(&reply, CACHE_CONTROL), "no-store");
    let html = reply.text().await.unwrap();
    for file in [
        format!("/pkg/{name}.js"),
        format!("/pkg/{name}_bg.wasm"),
        format!("/pkg/{name}.css"),
    ] {
        assert!(html.contains(&file), "the page names {file}: {html}");
    }
    assert!(html.contains(r#"rel="icon""#), "the page names its icon");
    std::fs::remove_dir_all(&site).unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn the_favicon_answers_on_both_names(db: PgPool) {
    let (site, _) = built_site();
    let addr = serve(db, &site).await;
    let http = client();
    let ico = http
        .get(format!("http://{addr}/favicon.ico"))
        .send()
        .await
        .unwrap();
    assert_eq!(ico.status(), StatusCode::OK);
    assert_eq!(header(&ico, CONTENT_TYPE), "image/x-icon");
    assert!(header(&ico, CACHE_CONTROL).starts_with("public, max-age="));
    assert_eq!(
        &ico.bytes().await.unwrap()[..4],
        &[0, 0, 1, 0],
        "an ICO file"
    );
    let svg = http
        .get(format!("http://{addr}/favicon.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(svg.status(), StatusCode::OK);
    assert_eq!(header(&svg, CONTENT_TYPE), "image/svg+xml");
    assert!(
        svg.text().await.unwrap().contains("#4f46e5"),
        "the indigo « M »"
    );
    std::fs::remove_dir_all(&site).unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn link_pages_load_no_bundle_and_team_pages_do(db: PgPool) {
    use server::auth::magic_links::{issue, Purpose};
    support::app::seed_demo(&db).await;
    let key = server::auth::tokens::SigningKey::new(support::SECRET_KEY.as_bytes().to_vec());
    let week = std::time::Duration::from_secs(7 * 86_400);
    let catalogue: i64 = sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let check: i64 = sqlx::query_scalar(
        "INSERT INTO availability_checks (request_id, member_id, status, expires_at)
         SELECT c.request_id, p.member_id, 'pending', now() + interval '7 days'
           FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE NOT EXISTS (SELECT 1 FROM availability_checks a
                             WHERE a.request_id = c.request_id AND a.member_id = p.member_id AND a.status = 'pending')
          ORDER BY p.id LIMIT 1
         RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let organizer = issue(&db, &key, Purpose::Catalogue, catalogue, week, None)
        .await
        .unwrap();
    let venue = issue(&db, &key, Purpose::Availability, check, week, None)
        .await
        .unwrap();
    let (site, name) = built_site();
    let addr = serve(db, &site).await;
    let http = client();
    for (path, marker) in [
        (organizer.path.as_str(), "catalogue-pick"),
        (venue.path.as_str(), "Disponibilité demandée"),
        // Opened twice: the second is the organizer page's kept rendering.
        (organizer.path.as_str(), "catalogue-pick"),
    ] {
        let reply = http
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), StatusCode::OK, "{path}");
        let html = reply.text().await.unwrap();
        assert!(html.contains(marker), "{path}: {html}");
        assert!(html.contains(&format!("/pkg/{name}.css")), "{path}: styled");
        for bundle in [".wasm", ".js\"", "<script type=\"module\"", "modulepreload"] {
            assert!(!html.contains(bundle), "{path} loads no bundle ({bundle})");
        }
        assert!(
            html.contains("<form"),
            "{path}: its forms post without JavaScript"
        );
    }
    let reply = http
        .get(format!("http://{addr}/connexion"))
        .send()
        .await
        .unwrap();
    let html = reply.text().await.unwrap();
    assert!(
        html.contains(&format!("/pkg/{name}_bg.wasm")),
        "team pages hydrate: {html}"
    );
    std::fs::remove_dir_all(&site).unwrap();
}
