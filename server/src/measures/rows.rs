//! The rows behind a chart of « Mesures », newest first, worded for the
//! admins (labels, never stored keys; amounts in euros; Paris time). One
//! query per family: the rows of the window and, through a window
//! function, how many match in all.
use super::{day_start, period_days};
use app::fr;
use app::measures::{row_family_title, RowsQuery, RowsTable, TextTable, ROWS_SHOWN};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use sqlx::PgPool;

/// The window `[from, to)` a query covers, and its words.
struct Window {
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    words: String,
}

fn window(query: &RowsQuery, now: DateTime<Utc>) -> Window {
    match NaiveDate::parse_from_str(&query.day, "%Y-%m-%d") {
        Ok(day) => Window {
            from: day_start(day),
            to: day_start(day + Duration::days(1)),
            words: format!("Le {}", fr::date(day)),
        },
        Err(_) => {
            let days = period_days(query.days, now);
            Window {
                from: day_start(days[0]),
                to: now + Duration::seconds(1),
                words: format!("Les {} derniers jours", days.len()),
            }
        }
    }
}

/// The rows `query` asks for; `usd_to_eur` converts the recorded costs.
pub async fn read(
    db: &PgPool,
    query: &RowsQuery,
    now: DateTime<Utc>,
    usd_to_eur: f64,
) -> sqlx::Result<RowsTable> {
    let w = window(query, now);
    let (table, total) = match query.family.as_str() {
        "appels" => calls(db, &w, usd_to_eur).await?,
        "recherches" => searches(db, &w, usd_to_eur).await?,
        "catalogues" => catalogues(db, &w).await?,
        "memoire" => memory(db, &w).await?,
        // `RowsQuery::checked` lets no other family through.
        _ => approvals(db, &w).await?,
    };
    Ok(RowsTable {
        title: row_family_title(&query.family)
            .unwrap_or_default()
            .to_string(),
        period: w.words,
        table,
        total,
    })
}

/// The newest [`ROWS_SHOWN`] rows `sql` selects in the window (`$1` its
/// start, `$2` its end, `$3` the limit).
async fn newest<T>(db: &PgPool, sql: &str, w: &Window) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    sqlx::query_as(sql)
        .bind(w.from)
        .bind(w.to)
        .bind(ROWS_SHOWN)
        .fetch_all(db)
        .await
}

fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The total carried by every row (0 without rows).
fn total<T>(rows: &[T], of: impl Fn(&T) -> i64) -> i64 {
    rows.first().map_or(0, of)
}

fn ms(v: Option<i32>) -> String {
    v.map_or_else(|| "—".into(), |v| format!("{}\u{a0}ms", fr::int(v)))
}

fn count(v: Option<i32>) -> String {
    v.map_or_else(|| "—".into(), fr::int)
}

/// A recorded cost in euros, to the cent; under a cent it says so rather
/// than rounding a paid call to nothing.
fn euros(usd: f64, rate: f64) -> String {
    let eur = crate::llm::pricing::usd_to_eur(usd, rate);
    if eur == 0.0 {
        "0\u{a0}€".to_string()
    } else if eur > 0.0 && eur < 0.005 {
        "moins de 0,01\u{a0}€".to_string()
    } else {
        format!("{}\u{a0}€", fr::decimal(eur, 2))
    }
}

#[derive(sqlx::FromRow)]
struct Call {
    created_at: DateTime<Utc>,
    task: String,
    provider: String,
    model: String,
    input_tokens: i32,
    cache_read_tokens: i32,
    cache_write_tokens: i32,
    output_tokens: i32,
    cost_usd: f64,
    latency_ms: i32,
    status: String,
    total: i64,
}

/// « claude-sonnet-4-5 (Anthropic) »; offline, no model answered: the
/// planner's internal name is not shown.
fn model(provider: &str, model: &str) -> String {
    match provider {
        "offline" => "Maxy hors ligne (sans modèle)".to_string(),
        "anthropic" => format!("{model} (Anthropic)"),
        "openai_compat" => format!("{model} (serveur compatible OpenAI)"),
        other => format!("{model} ({other})"),
    }
}

async fn calls(db: &PgPool, w: &Window, rate: f64) -> sqlx::Result<(TextTable, i64)> {
    let rows: Vec<Call> = newest(
        db,
        "SELECT created_at, task, provider, model, input_tokens, cache_read_tokens,
                cache_write_tokens, output_tokens, cost_usd::float8 AS cost_usd, latency_ms,
                status, count(*) OVER () AS total
           FROM llm_calls WHERE created_at >= $1 AND created_at < $2
          ORDER BY created_at DESC, id DESC LIMIT $3",
        w,
    )
    .await?;
    let table = TextTable {
        columns: columns(&[
            "Quand",
            "Tâche",
            "Modèle",
            "Jetons : entrée / cache lu / cache écrit / sortie",
            "Coût",
            "Durée",
            "Issue",
        ]),
        rows: rows
            .iter()
            .map(|c| {
                vec![
                    fr::paris_datetime(c.created_at),
                    fr::llm_task(&c.task).to_string(),
                    model(&c.provider, &c.model),
                    format!(
                        "{} / {} / {} / {}",
                        fr::int(c.input_tokens),
                        fr::int(c.cache_read_tokens),
                        fr::int(c.cache_write_tokens),
                        fr::int(c.output_tokens)
                    ),
                    euros(c.cost_usd, rate),
                    ms(Some(c.latency_ms)),
                    if c.status == "ok" {
                        "Réussi"
                    } else {
                        "Échec"
                    }
                    .to_string(),
                ]
            })
            .collect(),
    };
    Ok((table, total(&rows, |c| c.total)))
}

#[derive(sqlx::FromRow)]
struct Search {
    created_at: DateTime<Utc>,
    semantic_query: Option<String>,
    sql_candidates: Option<i32>,
    vector_candidates: Option<i32>,
    llm_candidates: Option<i32>,
    result_count: i32,
    sql_ms: Option<i32>,
    embed_ms: Option<i32>,
    vector_ms: Option<i32>,
    llm_ms: Option<i32>,
    total_ms: i32,
    ranking_source: String,
    cost_usd: f64,
    failed: bool,
    total: i64,
}

async fn searches(db: &PgPool, w: &Window, rate: f64) -> sqlx::Result<(TextTable, i64)> {
    let rows: Vec<Search> = newest(
        db,
        "SELECT created_at, semantic_query, sql_candidates, vector_candidates, llm_candidates,
                result_count, sql_ms, embed_ms, vector_ms, llm_ms, total_ms, ranking_source,
                cost_usd::float8 AS cost_usd, error IS NOT NULL AS failed,
                count(*) OVER () AS total
           FROM search_runs WHERE created_at >= $1 AND created_at < $2
          ORDER BY created_at DESC, id DESC LIMIT $3",
        w,
    )
    .await?;
    let table = TextTable {
        columns: columns(&[
            "Quand",
            "Recherche",
            "Candidats : filtres → sens → modèle",
            "Lieux proposés",
            "Durées : filtres / sens / proximité / modèle",
            "Total",
            "Classement",
            "Coût",
        ]),
        rows: rows
            .iter()
            .map(|s| {
                vec![
                    fr::paris_datetime(s.created_at),
                    s.semantic_query
                        .as_deref()
                        .filter(|q| !q.trim().is_empty())
                        .map_or_else(|| "(filtres seuls)".to_string(), |q| q.to_string()),
                    format!(
                        "{} → {} → {}",
                        count(s.sql_candidates),
                        count(s.vector_candidates),
                        count(s.llm_candidates)
                    ),
                    fr::int(s.result_count),
                    format!(
                        "{} / {} / {} / {}",
                        ms(s.sql_ms),
                        ms(s.embed_ms),
                        ms(s.vector_ms),
                        ms(s.llm_ms)
                    ),
                    ms(Some(s.total_ms)),
                    if s.failed {
                        "Échec".to_string()
                    } else {
                        fr::ranking_source(&s.ranking_source).to_string()
                    },
                    euros(s.cost_usd, rate),
                ]
            })
            .collect(),
    };
    Ok((table, total(&rows, |s| s.total)))
}

#[derive(sqlx::FromRow)]
struct Sent {
    sent_at: DateTime<Utc>,
    reference: String,
    organizer_company: Option<String>,
    search_picks: i32,
    search_kept: i32,
    search_moved: i32,
    search_replaced: i32,
    total: i64,
}

async fn catalogues(db: &PgPool, w: &Window) -> sqlx::Result<(TextTable, i64)> {
    let rows: Vec<Sent> = newest(
        db,
        "SELECT c.sent_at, r.reference, r.organizer_company, c.search_picks, c.search_kept,
                c.search_moved, c.search_replaced, count(*) OVER () AS total
           FROM catalogues c JOIN requests r ON r.id = c.request_id
          WHERE c.sent_at >= $1 AND c.sent_at < $2 AND c.search_picks IS NOT NULL
          ORDER BY c.sent_at DESC, c.id DESC LIMIT $3",
        w,
    )
    .await?;
    let table = TextTable {
        columns: columns(&[
            "Envoyé le",
            "Demande",
            "Proposés par la recherche",
            "Gardés à leur rang",
            "Gardés, rang changé",
            "Remplacés",
        ]),
        rows: rows
            .iter()
            .map(|c| {
                let request = match c.organizer_company.as_deref().map(str::trim) {
                    Some(company) if !company.is_empty() => {
                        format!("{} — {}", c.reference, company)
                    }
                    _ => c.reference.clone(),
                };
                vec![
                    fr::paris_datetime(c.sent_at),
                    request,
                    fr::int(c.search_picks),
                    fr::int(c.search_kept),
                    fr::int(c.search_moved),
                    fr::int(c.search_replaced),
                ]
            })
            .collect(),
    };
    Ok((table, total(&rows, |c| c.total)))
}

#[derive(sqlx::FromRow)]
struct MemorySearch {
    created_at: DateTime<Utc>,
    display_name: String,
    source: String,
    hits: i32,
    best_similarity: Option<f64>,
    total: i64,
}

async fn memory(db: &PgPool, w: &Window) -> sqlx::Result<(TextTable, i64)> {
    let rows: Vec<MemorySearch> = newest(
        db,
        "SELECT m.created_at, u.display_name, m.source, m.hits, m.best_similarity,
                count(*) OVER () AS total
           FROM memory_searches m JOIN users u ON u.id = m.user_id
          WHERE m.created_at >= $1 AND m.created_at < $2
          ORDER BY m.created_at DESC, m.id DESC LIMIT $3",
        w,
    )
    .await?;
    let table = TextTable {
        columns: columns(&[
            "Quand",
            "Par",
            "Trouvées",
            "Résultats",
            "Meilleure proximité",
        ]),
        rows: rows
            .iter()
            .map(|m| {
                vec![
                    fr::paris_datetime(m.created_at),
                    m.display_name.clone(),
                    fr::memory_source(&m.source).to_string(),
                    fr::int(m.hits),
                    m.best_similarity
                        .map_or_else(|| "—".to_string(), |s| fr::decimal(s, 2)),
                ]
            })
            .collect(),
    };
    Ok((table, total(&rows, |m| m.total)))
}

#[derive(sqlx::FromRow)]
struct Proposal {
    created_at: DateTime<Utc>,
    tool_name: String,
    status: String,
    decided_at: Option<DateTime<Utc>>,
    decided_by: Option<String>,
    total: i64,
}

async fn approvals(db: &PgPool, w: &Window) -> sqlx::Result<(TextTable, i64)> {
    let rows: Vec<Proposal> = newest(
        db,
        "SELECT a.created_at, a.tool_name, a.status, a.decided_at,
                u.display_name AS decided_by, count(*) OVER () AS total
           FROM ai_pending_approvals a LEFT JOIN users u ON u.id = a.decided_by
          WHERE a.created_at >= $1 AND a.created_at < $2
          ORDER BY a.created_at DESC, a.id DESC LIMIT $3",
        w,
    )
    .await?;
    let table = TextTable {
        columns: columns(&["Proposée le", "Action", "Issue", "Décidée le", "Par"]),
        rows: rows
            .iter()
            .map(|a| {
                vec![
                    fr::paris_datetime(a.created_at),
                    app::chat::tool_label(&a.tool_name).to_string(),
                    fr::approval_status(&a.status).to_string(),
                    a.decided_at
                        .map_or_else(|| "—".to_string(), fr::paris_datetime),
                    a.decided_by.clone().unwrap_or_else(|| "—".to_string()),
                ]
            })
            .collect(),
    };
    Ok((table, total(&rows, |a| a.total)))
}
