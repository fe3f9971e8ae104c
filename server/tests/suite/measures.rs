//! The console's « Mesures » on a real database: each table counted by
//! Paris day over the period (rows outside it left out), dollars in euros
//! at the configured rate, percentiles of the venue search, and the rows
//! behind each chart worded in French. Through the real router, an admin
//! reads the page's charts as SVG in the HTML (no JavaScript needed) and
//! the rows page; a team member gets neither.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::measures::{MeasuresData, MeasuresReader, RowsQuery, Series};
use reqwest::StatusCode;
use server::llm::budget::BudgetSettings;
use server::measures::MeasuresService;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

async fn run(db: &PgPool, sql: &str) {
    sqlx::query(sql).execute(db).await.unwrap();
}

/// Empties the measured tables of the demo's rows, then writes a known
/// day: model calls today, yesterday and 40 days ago; three searches; three
/// memory searches; two proposals (one executed two minutes after it was
/// made, one expired); three playbook decisions; one catalogue sent.
async fn known_rows(db: &PgPool) {
    seed_demo(db).await;
    for table in [
        "llm_calls",
        "search_runs",
        "memory_searches",
        "ai_pending_approvals",
        "guidance_decisions",
    ] {
        run(db, &format!("DELETE FROM {table}")).await;
    }
    run(db, "UPDATE catalogues SET search_picks = NULL, search_kept = NULL, search_moved = NULL, search_replaced = NULL").await;
    run(
        db,
        "INSERT INTO llm_calls (task, provider, model, input_tokens, cache_read_tokens,
                                cache_write_tokens, output_tokens, cost_usd, latency_ms, status, error, created_at)
         VALUES ('chat', 'anthropic', 'claude-sonnet-4-5', 100, 300, 0, 50, 1.0, 900, 'ok', NULL, now()),
                ('rank', 'anthropic', 'claude-haiku-4-5', 100, 0, 100, 20, 0.5, 400, 'error', 'HTTP 529', now()),
                ('chat', 'anthropic', 'claude-sonnet-4-5', 10, 0, 0, 5, 2.0, 800, 'ok', NULL, now() - interval '1 day'),
                ('chat', 'anthropic', 'claude-sonnet-4-5', 10, 0, 0, 5, 99.0, 800, 'ok', NULL, now() - interval '40 days')",
    )
    .await;
    run(
        db,
        "INSERT INTO search_runs (semantic_query, sql_candidates, vector_candidates, llm_candidates,
                                  result_count, sql_ms, embed_ms, vector_ms, llm_ms, total_ms, ranking_source)
         VALUES ('péniche pour un séminaire', 500, 40, 20, 8, 10, 20, 30, 40, 100, 'llm'),
                ('rooftop', 300, 40, 20, 8, 12, 22, 32, 140, 200, 'llm'),
                (NULL, 100, NULL, NULL, 8, 14, NULL, NULL, NULL, 300, 'deterministic')",
    )
    .await;
    run(
        db,
        "INSERT INTO memory_searches (user_id, source, best_similarity, hits)
         SELECT id, s, 0.8, 3 FROM users, unnest(ARRAY['vector', 'vector', 'fts']) s
          WHERE email = 'admin@reciprok.fr'",
    )
    .await;
    // Minutes before « now », yet today in Paris: run just after midnight,
    // « ten minutes ago » would be yesterday, and today's count 0.
    let now = "greatest(now(), (date_trunc('day', now() AT TIME ZONE 'Europe/Paris')
                                 + interval '15 minutes') AT TIME ZONE 'Europe/Paris')";
    run(
        db,
        &format!("WITH c AS (INSERT INTO ai_conversations (user_id) SELECT id FROM users WHERE email = 'admin@reciprok.fr' RETURNING id),
              m AS (INSERT INTO ai_messages (conversation_id, seq, role) SELECT id, 0, 'assistant' FROM c RETURNING id, conversation_id)
         INSERT INTO ai_pending_approvals (conversation_id, message_id, tool_call_id, tool_name, arguments,
                                           arguments_hash, status, decided_at, executed_at, expires_at, created_at)
         SELECT conversation_id, id, 'call-1', 'create_task', '{{}}'::jsonb, sha256('a'::bytea), 'executed',
                {now} - interval '8 minutes', {now} - interval '8 minutes', {now} + interval '1 day', {now} - interval '10 minutes' FROM m
         UNION ALL
         SELECT conversation_id, id, 'call-2', 'create_task', '{{}}'::jsonb, sha256('b'::bytea), 'expired',
                NULL, NULL, {now} - interval '1 minute', {now} - interval '10 minutes' FROM m"),
    )
    .await;
    run(
        db,
        "INSERT INTO guidance_decisions (origin, query, band, max_mode, enforce_threshold, suggest_threshold, margin)
         SELECT 'turn', 'q', b, 'enforce', 0.85, 0.6, 0.05 FROM unnest(ARRAY['enforce', 'enforce', 'observe']) b",
    )
    .await;
    run(
        db,
        "UPDATE catalogues SET status = 'sent', sent_at = now(), search_picks = 8, search_kept = 5,
                               search_moved = 1, search_replaced = 2
          WHERE id = (SELECT min(id) FROM catalogues WHERE kind = 'standard')",
    )
    .await;
}

fn service(db: &PgPool) -> MeasuresService {
    MeasuresService {
        db: db.clone(),
        budget: BudgetSettings {
            cap_eur: 200.0,
            usd_to_eur: 0.5,
        },
    }
}

fn series<'a>(list: &'a [Series], key: &str) -> &'a [Option<f64>] {
    &list
        .iter()
        .find(|s| s.key == key)
        .unwrap_or_else(|| panic!("{key} in {list:?}"))
        .values
}

/// The last two days (yesterday, today) of a series.
fn last_two(values: &[Option<f64>]) -> [Option<f64>; 2] {
    [values[values.len() - 2], values[values.len() - 1]]
}

#[sqlx::test(migrations = "../migrations")]
async fn each_table_is_counted_by_day_over_the_period(db: PgPool) {
    known_rows(&db).await;
    let data: MeasuresData = service(&db).measures(30).await.unwrap();
    assert_eq!(data.days.len(), 30);
    // Euros at 0.5; the call 40 days ago is outside the period.
    assert_eq!(
        last_two(series(&data.cost_eur_by_task, "chat")),
        [Some(1.0), Some(0.5)]
    );
    assert_eq!(
        last_two(series(&data.cost_eur_by_task, "rank")),
        [Some(0.0), Some(0.25)]
    );
    let total: f64 = data
        .cost_eur_by_task
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .sum();
    assert_eq!(total, 1.75);
    assert_eq!(
        last_two(series(&data.tokens, "cache_read")),
        [Some(0.0), Some(300.0)]
    );
    assert_eq!(
        last_two(series(&data.tokens, "plain")),
        [Some(10.0), Some(200.0)]
    );
    // The month: this month's calls only, cumulative; the cap as set.
    assert_eq!(data.cap_eur, 200.0);
    assert_eq!(data.month_days.len(), data.month_cumulative_eur.len());
    assert!(*data.month_cumulative_eur.last().unwrap() >= 0.75);

    // Searches: percentiles of today's three, stages a search skipped left out.
    assert_eq!(data.search_count, 3);
    assert_eq!(data.search_overall_ms, Some([200.0, 290.0, 298.0]));
    assert_eq!(
        last_two(series(&data.search_latency_ms, "p50")),
        [None, Some(200.0)]
    );
    assert_eq!(
        last_two(series(&data.stage_p95_ms, "llm")),
        [None, Some(135.0)]
    );
    assert_eq!(
        last_two(series(&data.stage_candidates, "sql")),
        [None, Some(300.0)]
    );
    // Counts are 0 on a day without searches (bars), not missing.
    assert_eq!(
        last_two(series(&data.ranking_sources, "llm")),
        [Some(0.0), Some(2.0)]
    );
    assert_eq!(
        last_two(series(&data.ranking_sources, "deterministic")),
        [Some(0.0), Some(1.0)]
    );

    assert_eq!(series(&data.acceptance, "kept").last(), Some(&Some(5.0)));
    assert_eq!(
        series(&data.acceptance, "replaced").last(),
        Some(&Some(2.0))
    );
    assert_eq!(
        series(&data.memory_sources, "vector").last(),
        Some(&Some(2.0))
    );
    assert_eq!(series(&data.approvals, "expired").last(), Some(&Some(1.0)));
    assert_eq!(data.approval_median_decide_s, Some(120.0));
    assert_eq!(
        series(&data.playbook_bands, "enforce").last(),
        Some(&Some(2.0))
    );

    // An empty period still has its days, and says nothing was measured.
    run(&db, "DELETE FROM search_runs").await;
    let empty = service(&db).measures(7).await.unwrap();
    assert_eq!(empty.days.len(), 7);
    assert_eq!(empty.search_overall_ms, None);
    assert!(empty
        .search_latency_ms
        .iter()
        .all(|s| s.values.iter().all(Option::is_none)));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_rows_behind_a_chart_read_in_french(db: PgPool) {
    known_rows(&db).await;
    let today = app::fr::to_paris(chrono::Utc::now())
        .date()
        .format("%Y-%m-%d")
        .to_string();
    let read = |family: &str, day: &str| {
        let query = RowsQuery {
            family: family.into(),
            day: day.into(),
            days: 30,
        };
        let service = service(&db);
        async move { service.rows(query.checked().unwrap()).await.unwrap() }
    };
    let calls = read("appels", "").await;
    assert_eq!(calls.total, 3, "the call 40 days ago is outside the period");
    assert_eq!(calls.period, "Les 30 derniers jours");
    let text = format!("{:?}", calls.table.rows);
    assert!(
        text.contains("Classement des lieux") && text.contains("Conversation"),
        "{text}"
    );
    assert!(
        text.contains("Échec") && !text.contains("HTTP 529"),
        "{text}"
    );
    assert_eq!(calls.table.rows[0][4], "0,25\u{a0}€");
    let today_calls = read("appels", &today).await;
    assert_eq!(today_calls.total, 2);
    assert!(
        today_calls.period.starts_with("Le "),
        "{}",
        today_calls.period
    );

    let searches = read("recherches", "").await;
    assert_eq!(searches.total, 3);
    let text = format!("{:?}", searches.table.rows);
    assert!(
        text.contains("(filtres seuls)") && text.contains("Règles (sans modèle)"),
        "{text}"
    );
    assert!(text.contains("500 → 40 → 20"), "{text}");

    let approvals = read("validations", "").await;
    let text = format!("{:?}", approvals.table.rows);
    assert!(
        text.contains("Exécutée") && text.contains("Expirée"),
        "{text}"
    );
    assert!(
        !text.contains("create_task") && !text.contains("expired"),
        "{text}"
    );

    let memory = read("memoire", "").await;
    assert_eq!(memory.total, 3);
    assert!(format!("{:?}", memory.table.rows).contains("Par le sens"));

    let sent = read("catalogues", "").await;
    assert_eq!(sent.total, 1);
    assert_eq!(sent.table.rows[0][2..], ["8", "5", "1", "2"]);

    // Refused before any query: an unknown family, a day that is no date.
    for (family, day) in [("users", ""), ("appels", "hier"), ("appels", "2026-13-01")] {
        let query = RowsQuery {
            family: family.into(),
            day: day.into(),
            days: 30,
        };
        assert!(query.checked().is_err(), "{family} {day}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn admins_read_the_charts_in_the_html_and_team_members_do_not(db: PgPool) {
    known_rows(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let page = app.get("/console/mesures?jours=7", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let html = &page.body;
    assert_eq!(
        html.matches("data-testid=\"measure-chart\"").count(),
        11,
        "{html}"
    );
    assert_eq!(html.matches("<svg role=\"img\"").count(), 11);
    assert!(
        html.contains("Du ") && html.contains("(7 jours, heure de Paris)"),
        "{html}"
    );
    assert!(html.contains("Conversation"));
    assert!(
        html.contains("href=\"/console/mesures/lignes?famille=appels&amp;jours=7\""),
        "{html}"
    );
    assert!(html.contains("aria-current=\"page\""));
    for key in [
        "cache_read",
        "deterministic",
        "expired",
        "enforce",
        "create_task",
    ] {
        assert!(!html.contains(&format!(">{key}<")), "{key} shown as stored");
    }

    let rows = app
        .get(
            "/console/mesures/lignes?famille=validations&jours=30",
            Some(&admin),
        )
        .await;
    assert_eq!(rows.status, StatusCode::OK);
    assert!(
        rows.body.contains("Propositions soumises à validation"),
        "{}",
        rows.body
    );
    assert!(rows.body.contains("Expirée"));
    let unknown = app
        .get("/console/mesures/lignes?famille=users", Some(&admin))
        .await;
    assert!(
        unknown.body.contains("Cette page n'existe pas."),
        "{}",
        unknown.body
    );

    let team = app.sign_in(TEAM, PASSWORD).await;
    for path in ["/console/mesures", "/console/mesures/lignes?famille=appels"] {
        let reply = app.get(path, Some(&team)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{path}");
        assert!(!reply.body.contains("measure-chart"));
    }
    let reply = app
        .post_form("/api/admin/measures", &[("days", "30")], Some(&team))
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}
