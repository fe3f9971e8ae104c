//! `/memoire` and the memory server functions over HTTP, as a browser
//! without JavaScript uses them: the page renders server side with its
//! forms, every endpoint refuses an anonymous caller, and a member never
//! reaches another member's memory (once the store has its bodies; on the
//! skeleton's branch the endpoints fail cleanly and write nothing).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{TestApp, ADMIN, PASSWORD, TEAM};

async fn post(
    app: &TestApp,
    path: &str,
    fields: &[(&str, &str)],
    session: &str,
) -> support::app::Reply {
    app.post_form(path, fields, Some(session)).await
}

#[sqlx::test(migrations = "../migrations")]
async fn the_page_renders_its_forms_for_a_team_member(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let anonymous = app.get("/memoire", None).await;
    assert_ne!(anonymous.status, StatusCode::OK);
    let team = app.sign_in(TEAM, PASSWORD).await;
    let page = app.get("/memoire?q=m%C3%A9dicaments", Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(">Mémoire</h1>"), "{}", page.body);
    for testid in ["memory-search", "memory-search-input"] {
        assert!(
            page.body.contains(&format!(r#"data-testid="{testid}""#)),
            "{testid}"
        );
    }
    // The query is kept in the box (a GET form: bookmarkable, no script).
    assert!(
        page.body.contains(r#"value="médicaments""#),
        "{}",
        page.body
    );
    let real = !page.body.contains(r#"data-testid="memory-error""#);
    if real {
        for testid in [
            "memory-add-form",
            "reminder-form",
            "memory-chart",
            "memory-results",
        ] {
            assert!(
                page.body.contains(&format!(r#"data-testid="{testid}""#)),
                "{testid}"
            );
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn every_endpoint_refuses_an_anonymous_caller(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    for (path, fields) in [
        ("/api/memory/search", vec![("query", "x")]),
        ("/api/memory/results", vec![("query", "x")]),
        ("/api/memory/overview", vec![]),
        ("/api/memory/save", vec![("title", ""), ("content", "x")]),
        (
            "/api/memory/update",
            vec![("id", "1"), ("title", ""), ("content", "x")],
        ),
        ("/api/memory/delete", vec![("id", "1")]),
        ("/api/memory/reminder/done", vec![("id", "1")]),
        (
            "/api/memory/reminder/snooze",
            vec![("id", "1"), ("until", "monday")],
        ),
    ] {
        let reply = app.post_form(path, &fields, None).await;
        assert_eq!(
            reply.status,
            StatusCode::UNAUTHORIZED,
            "{path}: {}",
            reply.body
        );
    }
    assert_eq!(app.count("SELECT count(*) FROM ai_memories").await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_and_other_members_ids_are_refused(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    // Checked before the store: a reminder with a bad date or recurrence.
    for fields in [
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "demain"),
            ("due_time", ""),
            ("recurrence", "none"),
        ],
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "2026-12-03"),
            ("due_time", "25:00"),
            ("recurrence", "none"),
        ],
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "2026-12-03"),
            ("due_time", ""),
            ("recurrence", "hourly"),
        ],
    ] {
        let reply = post(&app, "/api/memory/reminder", &fields, &team).await;
        assert_eq!(reply.status.as_u16(), 422, "{fields:?}: {}", reply.body);
    }
    let snooze = post(
        &app,
        "/api/memory/reminder/snooze",
        &[("id", "1"), ("until", "never")],
        &team,
    )
    .await;
    assert!(snooze.status.is_client_error() || snooze.status.is_server_error());
    assert_eq!(app.count("SELECT count(*) FROM tasks").await, 0);

    let saved = post(
        &app,
        "/api/memory/save",
        &[("title", ""), ("content", "Le Pavillon ferme le dimanche")],
        &team,
    )
    .await;
    if saved.status != StatusCode::OK {
        eprintln!(
            "the memory store is the skeleton on this branch: {}",
            saved.status
        );
        assert_eq!(app.count("SELECT count(*) FROM ai_memories").await, 0);
        return;
    }
    let id = saved.body.trim().to_string();
    let long = "x".repeat(5_000);
    for (path, fields) in [
        ("/api/memory/save", vec![("title", ""), ("content", "  ")]),
        (
            "/api/memory/save",
            vec![("title", ""), ("content", long.as_str())],
        ),
        ("/api/memory/search", vec![("query", " ")]),
    ] {
        let reply = post(&app, path, &fields, &team).await;
        assert_eq!(reply.status.as_u16(), 422, "{path}: {}", reply.body);
    }
    // 100 KB: the body limit refuses it before the store (413), clearly.
    let huge = "x".repeat(100_000);
    let reply = post(
        &app,
        "/api/memory/save",
        &[("title", ""), ("content", huge.as_str())],
        &team,
    )
    .await;
    assert!(
        [413, 422].contains(&reply.status.as_u16()),
        "{}: {}",
        reply.status,
        reply.body
    );
    // Another member (even an admin) cannot edit or delete it.
    for (path, fields) in [
        (
            "/api/memory/update",
            vec![("id", id.as_str()), ("title", ""), ("content", "volé")],
        ),
        ("/api/memory/delete", vec![("id", id.as_str())]),
        ("/api/memory/delete", vec![("id", "999999")]),
    ] {
        let reply = post(&app, path, &fields, &admin).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{path}: {}",
            reply.body
        );
    }
    assert_eq!(
        app.count(
            "SELECT count(*) FROM ai_memories WHERE content = 'Le Pavillon ferme le dimanche'"
        )
        .await,
        1
    );
}

/// A server whose memory embedder is down: searches go by the words, then
/// the latest (the chain's two later steps, deterministic).
async fn without_embedder(db: PgPool) -> TestApp {
    let closed = format!("http://{}/v1", support::closed_port().await);
    TestApp::start_with(
        db,
        &[
            ("MAXY_EMBEDDING_URL", closed.as_str()),
            ("MAXY_EMBEDDING_TIMEOUT_MS", "500"),
        ],
    )
    .await
}

fn has(body: &str, testid: &str) -> bool {
    body.contains(&format!(r#"data-testid="{testid}""#))
}

/// The page's text as a person reads it: no tags, no scripts.
fn visible(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        out.push(' ');
        let tail = &rest[i..];
        let end = if tail.starts_with("<script") {
            tail.find("</script>")
                .map_or(tail.len(), |j| j + "</script>".len())
        } else {
            tail.find('>').map_or(tail.len(), |j| j + 1)
        };
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The text of every element with `testid`, tags dropped.
fn texts(body: &str, testid: &str) -> Vec<String> {
    let marker = format!(r#"data-testid="{testid}""#);
    body.match_indices(&marker)
        .map(|(i, _)| {
            let rest = &body[i..];
            let start = rest.find('>').map_or(0, |j| j + 1);
            let end = rest[start..].find("</").map_or(rest.len(), |j| start + j);
            rest[start..end].replace("<!>", "").trim().to_string()
        })
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn search_results_say_how_sure_they_are_never_a_score(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = without_embedder(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let saved = post(
        &app,
        "/api/memory/save",
        &[("title", ""), ("content", "Le Pavillon ferme le dimanche")],
        &team,
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);

    // Nothing matches: one sentence says so, the latest carry no label.
    let page = app.get("/memoire?q=xylophone", Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body
            .contains("Aucun souvenir ne correspond ; voici les plus récents."),
        "{}",
        page.body
    );
    assert!(has(&page.body, "memory-hit"), "the latest are shown");
    assert!(!has(&page.body, "memory-hit-confidence"), "{}", page.body);
    let text = visible(&page.body);
    for jargon in [
        "score",
        "récence",
        "vecteur",
        "plein texte",
        "recency",
        "fts",
    ] {
        assert!(!text.contains(jargon), "{jargon}: {text}");
    }

    // Found by its words: a label in words, and why it came up.
    let page = app.get("/memoire?q=pavillon", Some(&team)).await;
    assert!(!page.body.contains("Aucun souvenir ne correspond"));
    let labels = texts(&page.body, "memory-hit-confidence");
    assert!(!labels.is_empty(), "{}", page.body);
    for label in &labels {
        assert!(
            ["correspond", "peut-être"].contains(&label.as_str()),
            "{label}"
        );
    }
    assert_eq!(texts(&page.body, "memory-hit-words"), ["contient vos mots"]);
    assert!(!page.body.contains("score"), "{}", page.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_search_run_from_the_page_is_counted_at_once_without_javascript(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = without_embedder(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let searches = "SELECT count(*) FROM memory_searches";
    let page = app.get("/memoire", Some(&team)).await;
    assert!(
        page.body.contains("Aucune recherche pour l"),
        "{}",
        page.body
    );
    // The search form posts (JavaScript off: the browser's own form post).
    assert!(
        page.body.contains(r#"action="/api/memory/search""#),
        "{}",
        page.body
    );

    let cookie = app.cookie(&team);
    let origin = app.url("");
    let referer = app.url("/memoire");
    let posted = app
        .post_raw(
            "/api/memory/search",
            &[("query", "  Pavillon fermé  ")],
            &[
                ("cookie", cookie.as_str()),
                ("origin", origin.as_str()),
                ("referer", referer.as_str()),
                ("accept", "text/html,application/xhtml+xml"),
            ],
        )
        .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.body);
    assert_eq!(posted.location(), "/memoire?q=Pavillon%20ferm%C3%A9");
    assert_eq!(
        app.count(searches).await,
        1,
        "the posted search is recorded"
    );

    // The page it lands on shows the results and counts the search.
    let page = app.get(posted.location(), Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(has(&page.body, "memory-results"), "{}", page.body);
    assert!(page.body.contains(r#"value="Pavillon fermé""#));
    assert!(page.body.contains("Sur 1 recherche"), "{}", page.body);
    assert_eq!(
        texts(&page.body, "memory-chart-count")
            .iter()
            .filter(|c| c.starts_with("1 "))
            .count(),
        1,
        "{}",
        page.body
    );
    // Reloading it (a GET) shows it again and records nothing.
    app.get(posted.location(), Some(&team)).await;
    assert_eq!(app.count(searches).await, 1, "a GET records nothing");

    // An empty search comes back to the page with its message.
    let refused = app
        .post_raw(
            "/api/memory/search",
            &[("query", "   ")],
            &[
                ("cookie", cookie.as_str()),
                ("origin", origin.as_str()),
                ("referer", referer.as_str()),
                ("accept", "text/html,application/xhtml+xml"),
            ],
        )
        .await;
    assert!(refused.status.is_redirection(), "{}", refused.status);
    assert!(
        refused.location().contains("__err="),
        "{}",
        refused.location()
    );
    assert_eq!(app.count(searches).await, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn every_open_reminder_is_listed_by_due_date(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let in_ten_days = (chrono::Utc::now() + chrono::Duration::days(10))
        .format("%Y-%m-%d")
        .to_string();
    for (title, due_on) in [
        ("Relancer le Pavillon", in_ten_days.as_str()),
        ("Trier les devis traiteur", ""),
    ] {
        let created = post(
            &app,
            "/api/memory/reminder",
            &[
                ("title", title),
                ("description", ""),
                ("due_on", due_on),
                ("due_time", ""),
                ("recurrence", "none"),
            ],
            &team,
        )
        .await;
        assert_eq!(created.status, StatusCode::OK, "{title}: {}", created.body);
    }
    let overdue = "INSERT INTO tasks (user_id, title, description, due_at)
                   SELECT id, 'Rappeler Mme Konan', '', now() - interval '2 days'
                     FROM users WHERE email = 'camille.martin@reciprok.fr'";
    sqlx::query(overdue).execute(&app.db).await.unwrap();

    let page = app.get("/memoire", Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    let titles = texts(&page.body, "reminder-item-title");
    let at = |t: &str| titles.iter().position(|x| x == t);
    let (late, later, undated) = (
        at("Rappeler Mme Konan"),
        at("Relancer le Pavillon"),
        at("Trier les devis traiteur"),
    );
    assert!(
        late.is_some() && later.is_some() && undated.is_some(),
        "{titles:?}"
    );
    assert!(late < later && later < undated, "{titles:?}");
    for heading in ["En retard", "Plus tard", "Sans échéance"] {
        assert!(
            page.body.contains(&format!(">{heading}</h3>")),
            "{heading}: {}",
            page.body
        );
    }
    assert!(!page.body.contains("reminder-more"), "no cap reached");

    // « Reporter » works on a reminder without a date too.
    let undated_id: i64 =
        sqlx::query_scalar("SELECT id FROM tasks WHERE title = 'Trier les devis traiteur'")
            .fetch_one(&app.db)
            .await
            .unwrap();
    let snoozed = post(
        &app,
        "/api/memory/reminder/snooze",
        &[("id", undated_id.to_string().as_str()), ("until", "monday")],
        &team,
    )
    .await;
    assert_eq!(snoozed.status, StatusCode::OK, "{}", snoozed.body);
}
