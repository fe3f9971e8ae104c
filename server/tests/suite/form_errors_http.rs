//! Every form that posts to a server function without JavaScript (an
//! `ActionForm`): when the server refuses the post, the browser comes back
//! to the form's page and the page shows the French message, once, as an
//! alert — the user-safe `AppError` text, never a cause. Nothing is written.
//!
//! server_fn answers such a post (it accepts HTML) with a redirect to the
//! referer carrying the error (`__path`, `__err`); the page's `ServerAction`
//! picks it up while it renders (leptos_router provides it as context).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use server::auth::magic_links::{issue, Purpose};
use server::auth::tokens::SigningKey;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// Posts `fields` to `action` from `page` as a browser without JavaScript
/// does, follows the redirect, and returns the page it lands on.
async fn refused(
    app: &TestApp,
    page: &str,
    action: &str,
    fields: &[(&str, &str)],
    session: Option<&str>,
) -> String {
    let origin = app.url("");
    let referer = app.url(page);
    let cookie = session.map(|s| app.cookie(s)).unwrap_or_default();
    let mut headers = vec![
        ("origin", origin.as_str()),
        ("referer", referer.as_str()),
        ("accept", "text/html,application/xhtml+xml"),
    ];
    if session.is_some() {
        headers.push(("cookie", cookie.as_str()));
    }
    let reply = app.post_raw(action, fields, &headers).await;
    assert_eq!(reply.status, StatusCode::FOUND, "{action}: {}", reply.body);
    let location = reply.location().to_string();
    assert!(
        location.starts_with(&referer) && location.contains("__err="),
        "{action} comes back to {page} with its error: {location}"
    );
    // The redirect vouches for its error with a cookie the browser sends back.
    let vouch = reply.form_error_cookie();
    let back = app
        .get_with(
            location.trim_start_matches(&origin),
            session,
            &[("cookie", &vouch)],
        )
        .await;
    // The page itself is fine: only the post failed.
    assert_eq!(back.status, StatusCode::OK, "{location}");
    back.body
}

/// The page shows `message` exactly once, in an alert.
fn assert_shows(body: &str, message: &str, testid: &str) {
    // Leptos may escape `'` in text nodes.
    let escaped = message.replace('\'', "&#39;");
    let shown = if escaped == message {
        body.matches(message).count()
    } else {
        body.matches(&escaped).count() + body.matches(message).count()
    };
    assert_eq!(shown, 1, "« {message} » once on the page: {body}");
    let alert = format!(r#"data-testid="{testid}""#);
    let at = body
        .find(&alert)
        .unwrap_or_else(|| panic!("no {alert}: {body}"));
    let end = body[at..].find("</p>").map_or(body.len(), |e| at + e);
    let element = &body[at..end];
    assert!(
        element.contains(&escaped) || element.contains(message),
        "the message is in the alert: {element}"
    );
    let start = body[..at].rfind('<').unwrap_or(0);
    assert!(
        body[start..at].contains(r#"role="alert""#),
        "an alert: {}",
        &body[start..end]
    );
}

/// The opening tag of the element with `data-testid=testid`.
fn tag<'a>(body: &'a str, testid: &str) -> &'a str {
    let marker = format!(r#"data-testid="{testid}""#);
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no {marker}: {body}"));
    let start = body[..at].rfind('<').unwrap_or(0);
    let end = body[at..].find('>').map_or(body.len(), |e| at + e);
    &body[start..end]
}

async fn scalar(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

fn key() -> SigningKey {
    SigningKey::new(support::SECRET_KEY.as_bytes().to_vec())
}

#[sqlx::test(migrations = "../migrations")]
async fn link_pages_show_a_refused_answer(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;

    // The organizer's comment, too long.
    let link = support::app::catalogue_link(&db).await;
    let long = "x".repeat(app::links::MAX_COMMENT_CHARS + 1);
    let body = refused(
        &app,
        &link.path,
        "/api/links/catalogue/comment",
        &[("token", &link.token), ("comment", &long)],
        None,
    )
    .await;
    let message = format!(
        "Le commentaire dépasse {} caractères.",
        app::links::MAX_COMMENT_CHARS
    );
    assert_shows(&body, &message, "link-form-error");
    assert!(
        body.contains("Votre sélection de lieux"),
        "the catalogue is there too"
    );

    // A favourite on a venue of another catalogue.
    let body = refused(
        &app,
        &link.path,
        "/api/links/catalogue/favorite",
        &[
            ("token", &link.token),
            ("pick_id", "0"),
            ("favorite", "true"),
        ],
        None,
    )
    .await;
    assert_shows(
        &body,
        "Ce lien n'est pas valide ou a expiré. Demandez un nouveau lien à l'équipe Reciprok.",
        "link-form-error",
    );

    // The venue's answer « sous conditions » without conditions.
    let check: i64 = sqlx::query_scalar(
        "INSERT INTO availability_checks (request_id, member_id, status, expires_at)
         SELECT c.request_id, p.member_id, 'pending', now() + interval '7 days'
           FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE NOT EXISTS (SELECT 1 FROM availability_checks a
                             WHERE a.request_id = c.request_id AND a.member_id = p.member_id
                               AND a.status = 'pending')
          ORDER BY p.id LIMIT 1
         RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let week = std::time::Duration::from_secs(7 * 86_400);
    let v = issue(&db, &key(), Purpose::Availability, check, week, None)
        .await
        .unwrap();
    let body = refused(
        &app,
        &v.path,
        "/api/links/availability/answer",
        &[
            ("token", &v.token),
            ("available", "conditions"),
            ("conditions", "  "),
            ("comment", ""),
        ],
        None,
    )
    .await;
    assert_shows(
        &body,
        "Précisez vos conditions pour répondre « disponible sous conditions ».",
        "link-form-error",
    );
    assert!(
        body.contains("Envoyer ma réponse"),
        "the form is still there"
    );
    let status = format!(
        "SELECT count(*) FROM availability_checks WHERE id = {check} AND status = 'pending'"
    );
    assert_eq!(scalar(&db, &status).await, 1, "nothing answered");
}

#[sqlx::test(migrations = "../migrations")]
async fn team_pages_show_a_refused_post(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let request: i64 = scalar(&db, "SELECT min(id) FROM requests").await;
    let request_page = format!("/demandes/{request}");
    let request_id = request.to_string();

    // The request's status and memo.
    let body = refused(
        &app,
        &request_page,
        "/api/requests/edit",
        &[("request_id", &request_id), ("status", "perdue-de-vue")],
        Some(&team),
    )
    .await;
    assert!(
        body.contains("Statut inconnu « perdue-de-vue »"),
        "status refused: {body}"
    );
    let memo = "m".repeat(app::requests::MAX_MEMO_CHARS + 1);
    let body = refused(
        &app,
        &request_page,
        "/api/requests/edit",
        &[("request_id", &request_id), ("team_memo", &memo)],
        Some(&team),
    )
    .await;
    assert!(
        body.contains("Le mémo équipe dépasse"),
        "memo refused: {body}"
    );

    // The request's search preferences.
    let body = refused(
        &app,
        &request_page,
        "/api/search-preferences/save-request",
        &[("request_id", &request_id), ("postal_codes", "75OO9")],
        Some(&team),
    )
    .await;
    assert!(
        body.contains(r#"data-testid="request-preferences-error""#),
        "request preferences refused: {body}"
    );

    // A guideline from the request's page.
    let body = refused(
        &app,
        &request_page,
        "/api/training/guideline",
        &[
            ("request_id", &request_id),
            ("event_type", "cocktail"),
            ("trigger", " "),
            ("prefer", "jardin"),
            ("avoid", ""),
            ("reason", ""),
            ("category", "ambiance"),
        ],
        Some(&team),
    )
    .await;
    assert!(
        body.contains("Le déclencheur de la consigne est vide"),
        "guideline refused: {body}"
    );
    // Its form sits in a disclosure: open, or the message would be hidden.
    let disclosure = tag(&body, "request-guideline");
    assert!(disclosure.contains(" open"), "{disclosure}");

    // My own search preferences, on the Lieux page.
    let body = refused(
        &app,
        "/lieux",
        "/api/search-preferences/save-mine",
        &[("postal_codes", "75OO9")],
        Some(&team),
    )
    .await;
    assert!(
        body.contains("Donnez un nom à la zone"),
        "my preferences refused: {body}"
    );
    let panel = tag(&body, "my-preferences");
    assert!(panel.contains(" open"), "{panel}");

    // The memory page: an empty memory, a reminder on no date.
    let body = refused(
        &app,
        "/memoire",
        "/api/memory/save",
        &[("title", ""), ("content", " ")],
        Some(&team),
    )
    .await;
    assert!(
        body.contains(r#"data-testid="memory-add-error""#),
        "memory refused: {body}"
    );
    let body = refused(
        &app,
        "/memoire",
        "/api/memory/reminder",
        &[
            ("title", "Relancer le traiteur"),
            ("description", ""),
            ("due_on", "31/02/2026"),
            ("due_time", ""),
            ("recurrence", ""),
        ],
        Some(&team),
    )
    .await;
    assert!(
        body.contains(r#"data-testid="reminder-error""#),
        "reminder refused: {body}"
    );
    let written = "SELECT count(*) FROM training_sessions WHERE directives->>'prefer' LIKE '%jardin%' AND reason = ''";
    assert_eq!(scalar(&db, written).await, 0, "nothing written");
}

/// A link written by someone else, carrying an error of its author's
/// choosing, must not make our page show it: without the cookie of the
/// redirect that encoded it, the page is reached without the error.
#[sqlx::test(migrations = "../migrations")]
async fn an_error_written_into_a_link_is_not_shown(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let link = support::app::catalogue_link(&db).await;

    // A genuine refusal, to get a real encoded error and its cookie.
    let origin = app.url("");
    let referer = app.url(&link.path);
    let long = "x".repeat(app::links::MAX_COMMENT_CHARS + 1);
    let reply = app
        .post_raw(
            "/api/links/catalogue/comment",
            &[("token", &link.token), ("comment", &long)],
            &[
                ("origin", origin.as_str()),
                ("referer", referer.as_str()),
                ("accept", "text/html"),
            ],
        )
        .await;
    let genuine = reply.location().trim_start_matches(&origin).to_string();
    let vouch = reply.form_error_cookie();

    // Someone else's message, encoded the way Leptos encodes errors.
    let forged = {
        use base64::Engine;
        let text = "Votre lien a expiré : appelez le 08 99 00 00 00.";
        let encoded =
            base64::engine::general_purpose::URL_SAFE.encode(format!("ServerError|{text}"));
        format!(
            "{}?utm=x&__path=%2Fapi%2Flinks%2Fcatalogue%2Fcomment&__err={encoded}",
            link.path
        )
    };
    for cookie in ["", vouch.as_str(), "maxy_form_error=abc.def"] {
        let extra: Vec<(&str, &str)> = if cookie.is_empty() {
            vec![]
        } else {
            vec![("cookie", cookie)]
        };
        let back = app.get_with(&forged, None, &extra).await;
        assert_eq!(
            back.status,
            StatusCode::SEE_OTHER,
            "cookie {cookie:?}: {}",
            back.body
        );
        assert_eq!(
            back.location(),
            format!("{}?utm=x", link.path),
            "the same page, other parameters kept, without the error"
        );
    }
    // The genuine redirect without its cookie (another browser): no message.
    let back = app.get(&genuine, None).await;
    assert_eq!(back.status, StatusCode::SEE_OTHER);
    assert_eq!(back.location(), link.path);
    // With it: the message shows.
    let back = app.get_with(&genuine, None, &[("cookie", &vouch)]).await;
    assert_eq!(back.status, StatusCode::OK);
    assert!(
        back.body.contains("Le commentaire dépasse"),
        "{}",
        back.body
    );
}
