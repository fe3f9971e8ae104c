//! The console's decision log: `guidance_decisions`, newest first, a page
//! at a time, filtered by station, mode (after the cap), door and playbook.
//! Rows are told in French: the station's label, the door, the modes, the
//! candidates' labels; times in Paris.
use super::paris;
use crate::playbooks::decide::Band;
use crate::playbooks::miner::tool_label;
use app::errors::AppError;
use app::playbook_console::{
    label_of, CandidateView, DecisionFilters, DecisionPage, DecisionView, MODES, ORIGINS,
};
use chrono::{DateTime, Utc};
use sqlx::PgPool;

/// Rows per page.
pub const PAGE_SIZE: i64 = 50;

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    created_at: DateTime<Utc>,
    who: Option<String>,
    station: String,
    station_label: Option<String>,
    origin: String,
    query: String,
    band: String,
    uncapped_band: Option<String>,
    chosen: Option<String>,
    suggested: Vec<String>,
    outcome: Option<String>,
    candidates: serde_json::Value,
}

/// A filter's value, refused unless it is one of `table`'s keys.
fn known<'a>(
    value: &'a str,
    table: &[(&str, &str)],
    what: &str,
) -> Result<Option<&'a str>, AppError> {
    match value.trim() {
        "" => Ok(None),
        v if table.iter().any(|(k, _)| *k == v) => Ok(Some(v)),
        _ => Err(AppError::BadRequest(format!(
            "Ce filtre n'existe pas ({what}) : choisissez dans la liste."
        ))),
    }
}

/// A mode in words (« Imposé »), from its column value.
fn mode_label(band: &str) -> String {
    Band::parse(band).map_or_else(|| label_of(MODES, band), |b| b.label().to_string())
}

/// A score as the team writes decimals (« 0,91 »).
pub fn score_text(score: f64) -> String {
    format!("{score:.2}").replace('.', ",")
}

/// One logged candidate (`{"name","kind","score","band","eligible","reason"}`).
pub fn candidate(value: &serde_json::Value) -> CandidateView {
    let text = |k: &str| value.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let name = text("name").to_string();
    let label = match text("kind") {
        "skill" => tool_label(&name),
        _ => "Playbook".to_string(),
    };
    let reason = Some(text("reason").trim().to_string()).filter(|r| !r.is_empty());
    CandidateView {
        label,
        score: score_text(value.get("score").and_then(|v| v.as_f64()).unwrap_or(0.0)),
        band: mode_label(&text("band").to_lowercase()),
        eligible: value
            .get("eligible")
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
        reason,
        name,
    }
}

/// A playbook's title from its name (a deleted one keeps its name).
fn titled(titles: &[(String, String)], name: &str) -> String {
    titles
        .iter()
        .find(|(n, _)| n == name)
        .map_or_else(|| name.to_string(), |(_, t)| t.clone())
}

fn view(row: Row, titles: &[(String, String)]) -> DecisionView {
    let uncapped = row
        .uncapped_band
        .filter(|u| *u != row.band)
        .map(|u| mode_label(&u));
    DecisionView {
        id: row.id,
        at: paris::time(row.created_at),
        who: row.who.unwrap_or_else(|| "—".into()),
        station: row.station_label.unwrap_or(row.station),
        origin: label_of(ORIGINS, &row.origin),
        action: row.query,
        mode: mode_label(&row.band),
        uncapped,
        opened: row.chosen.as_deref().map(|n| titled(titles, n)),
        suggested: row.suggested.iter().map(|n| titled(titles, n)).collect(),
        outcome: row.outcome.filter(|o| !o.trim().is_empty()),
        candidates: row
            .candidates
            .as_array()
            .map(|list| {
                list.iter()
                    .map(candidate)
                    .map(|mut c| {
                        if c.label == "Playbook" {
                            c.label = titled(titles, &c.name);
                        }
                        c
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// The page of the log that `filters` ask for.
pub async fn page(db: &PgPool, filters: &DecisionFilters) -> Result<DecisionPage, AppError> {
    let band = known(&filters.band, MODES, "mode")?;
    let origin = known(&filters.origin, ORIGINS, "origine")?;
    let station = Some(filters.station.trim()).filter(|s| !s.is_empty());
    let playbook = Some(filters.playbook.trim()).filter(|s| !s.is_empty());
    let page = filters.page.max(1);
    // One more row than shown tells whether there is a next page.
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT d.id, d.created_at, u.display_name AS who, d.station, s.label AS station_label,
                d.origin, d.query, d.band, d.uncapped_band, d.chosen, d.suggested, d.outcome,
                d.candidates
           FROM guidance_decisions d
           LEFT JOIN users u ON u.id = d.user_id
           LEFT JOIN stations s ON s.name = d.station
          WHERE ($1::text IS NULL OR d.station = $1)
            AND ($2::text IS NULL OR d.band = $2)
            AND ($3::text IS NULL OR d.origin = $3)
            AND ($4::text IS NULL OR d.chosen = $4 OR $4 = ANY (d.suggested)
                 OR d.candidates @> jsonb_build_array(jsonb_build_object('name', $4::text)))
          ORDER BY d.created_at DESC, d.id DESC
          LIMIT $5 OFFSET $6",
    )
    .bind(station)
    .bind(band)
    .bind(origin)
    .bind(playbook)
    .bind(PAGE_SIZE + 1)
    .bind((i64::from(page) - 1) * PAGE_SIZE)
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;
    let has_next = rows.len() > PAGE_SIZE as usize;
    let stations: Vec<(String, String)> =
        sqlx::query_as("SELECT name, label FROM stations ORDER BY name = 'chat' DESC, name")
            .fetch_all(db)
            .await
            .map_err(crate::db::app_error)?;
    let playbooks: Vec<(String, String)> = crate::playbooks::store::list(db)
        .await
        .map_err(crate::db::app_error)?
        .into_iter()
        .map(|p| (p.name.clone(), p.definition.title()))
        .collect();
    Ok(DecisionPage {
        rows: rows
            .into_iter()
            .take(PAGE_SIZE as usize)
            .map(|r| view(r, &playbooks))
            .collect(),
        page,
        has_next,
        stations,
        playbooks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_logged_candidate_reads_in_french() {
        let c = candidate(
            &json!({"name": "get_member_signals", "kind": "skill", "score": 0.914,
                                  "band": "suggest", "eligible": true, "reason": ""}),
        );
        assert_eq!(c.score, "0,91");
        assert_eq!(c.band, "Suggéré");
        assert_ne!(
            c.label, "get_member_signals",
            "a skill shows its French label"
        );
        assert_eq!(c.reason, None);
        let p = candidate(
            &json!({"name": "groupe-200", "kind": "playbook", "score": 0.3,
                                  "band": "OBSERVE", "eligible": false, "reason": "profil non autorisé"}),
        );
        assert_eq!(
            (p.label.as_str(), p.band.as_str(), p.eligible),
            ("Playbook", "Observé", false)
        );
        assert_eq!(p.reason.as_deref(), Some("profil non autorisé"));
    }

    #[test]
    fn an_unknown_filter_is_a_french_bad_request() {
        assert_eq!(known("", MODES, "mode").ok(), Some(None));
        assert_eq!(known("suggest", MODES, "mode").ok(), Some(Some("suggest")));
        let e = known("SUGGEST; drop", MODES, "mode").unwrap_err();
        assert_eq!(e.status_code(), 400);
    }
}
