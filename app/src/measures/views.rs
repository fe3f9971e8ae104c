//! What travels between the server and the « Mesures » pages.
use crate::errors::AppError;
use serde::{Deserialize, Serialize};

/// One line (or one stack of bars) of a chart: the stored key it counts
/// (a task, a status…) and one value per day of the period; `None` where
/// the day has nothing to measure (no search, say), which is not zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub key: String,
    pub values: Vec<Option<f64>>,
}

/// The numbers behind the page, day by day (Paris calendar days, oldest
/// first). Each list of series has one value per entry of `days`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasuresData {
    /// ISO dates (`2026-12-06`), oldest first.
    pub days: Vec<String>,
    /// Model cost in euros, by `llm_calls.task`.
    pub cost_eur_by_task: Vec<Series>,
    /// The budget's month (UTC calendar month, as the cap counts it) so far.
    pub month_days: Vec<String>,
    /// Cumulative spend in euros at the end of each of `month_days`.
    pub month_cumulative_eur: Vec<f64>,
    pub cap_eur: f64,
    /// Tokens by kind: `plain` (input read in full), `cache_read`,
    /// `cache_write`, `output`.
    pub tokens: Vec<Series>,
    /// Venue searches: `p50`, `p95`, `p99` of the total time, in ms.
    pub search_latency_ms: Vec<Series>,
    /// The same three over the whole period (`None` without a search).
    pub search_overall_ms: Option<[f64; 3]>,
    pub search_count: i64,
    /// p95 per stage, in ms: `sql`, `embed`, `vector`, `llm`.
    pub stage_p95_ms: Vec<Series>,
    /// Median candidates out of each stage: `sql`, `vector`, `llm`.
    pub stage_candidates: Vec<Series>,
    /// Searches by `search_runs.ranking_source`.
    pub ranking_sources: Vec<Series>,
    /// The search's picks in catalogues sent that day: `kept`, `moved`,
    /// `replaced`.
    pub acceptance: Vec<Series>,
    /// Memory searches by `memory_searches.source`.
    pub memory_sources: Vec<Series>,
    /// Write proposals by the day they were made, by current status.
    pub approvals: Vec<Series>,
    /// Median time from proposal to decision over the period, in seconds.
    pub approval_median_decide_s: Option<f64>,
    /// Playbook evaluations by band (`enforce`, `suggest`, `observe`).
    pub playbook_bands: Vec<Series>,
}

/// A small table of plain text (the numbers behind a chart, or rows).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TextTable {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One chart as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartView {
    /// The anchor of its section (`couts`).
    pub id: String,
    pub title: String,
    /// What period it covers, in words.
    pub period: String,
    /// The one sentence to remember (« 12,40 € sur la période »).
    pub summary: String,
    /// The chart, an SVG document drawn by the server.
    pub svg: String,
    /// Each series' label and colour (CSS), in drawing order: the legend
    /// is HTML beside the chart, so it reflows on a phone.
    pub legend: Vec<(String, String)>,
    /// The numbers it draws, one row per day (the day first).
    pub numbers: TextTable,
    /// The ISO day of each row of `numbers`, and the family of rows a day
    /// links to (`None`: the rows page is `rows_href` only).
    pub days: Vec<String>,
    pub family: Option<String>,
    /// The rows it counts, and the link's words.
    pub rows_href: String,
    pub rows_label: String,
}

/// The page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuresView {
    pub days: u32,
    pub charts: Vec<ChartView>,
}

/// Which rows: a family ([`ROW_FAMILIES`]) and a day (ISO) or the last
/// `days` days.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowsQuery {
    pub family: String,
    pub day: String,
    pub days: u32,
}

/// The families of rows behind the charts: (address key, title).
pub const ROW_FAMILIES: &[(&str, &str)] = &[
    ("appels", "Appels aux modèles"),
    ("recherches", "Recherches de lieux"),
    ("catalogues", "Catalogues envoyés"),
    ("memoire", "Recherches dans la mémoire"),
    ("validations", "Propositions soumises à validation"),
];

/// The title of a family of rows.
pub fn row_family_title(key: &str) -> Option<&'static str> {
    ROW_FAMILIES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, title)| *title)
}

impl RowsQuery {
    /// The address of these rows.
    pub fn href(&self) -> String {
        if self.day.is_empty() {
            format!(
                "/console/mesures/lignes?famille={}&jours={}",
                self.family, self.days
            )
        } else {
            format!(
                "/console/mesures/lignes?famille={}&jour={}",
                self.family, self.day
            )
        }
    }

    /// The query as asked, or why not: an unknown family or a day that is
    /// not a date is refused; a period the page does not offer reads as
    /// the default.
    pub fn checked(self) -> Result<RowsQuery, AppError> {
        if row_family_title(&self.family).is_none() {
            return Err(AppError::NotFound);
        }
        let day = self.day.trim().to_string();
        if !day.is_empty() && chrono::NaiveDate::parse_from_str(&day, "%Y-%m-%d").is_err() {
            return Err(AppError::Invalid(
                "Le jour doit être une date (AAAA-MM-JJ).".into(),
            ));
        }
        Ok(RowsQuery {
            family: self.family,
            day,
            days: super::period(self.days),
        })
    }
}

/// The rows behind a chart, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RowsTable {
    pub title: String,
    /// What they cover, in words (« le 06/12/2026 », « les 30 derniers jours »).
    pub period: String,
    pub table: TextTable,
    /// How many rows match in all (the table shows the newest [`ROWS_SHOWN`]).
    pub total: i64,
}

/// The most rows a rows page shows.
pub const ROWS_SHOWN: i64 = 200;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_queries_are_checked() {
        let ok = RowsQuery {
            family: "appels".into(),
            day: " 2026-12-06 ".into(),
            days: 12,
        }
        .checked()
        .unwrap();
        assert_eq!(ok.day, "2026-12-06");
        assert_eq!(ok.days, 30);
        assert_eq!(
            ok.href(),
            "/console/mesures/lignes?famille=appels&jour=2026-12-06"
        );
        let bad_family = RowsQuery {
            family: "users".into(),
            ..RowsQuery::default()
        };
        assert!(bad_family.checked().is_err());
        let bad_day = RowsQuery {
            family: "appels".into(),
            day: "06/12/2026".into(),
            days: 7,
        };
        assert!(bad_day.checked().is_err());
        let period = RowsQuery {
            family: "memoire".into(),
            day: String::new(),
            days: 7,
        };
        assert_eq!(
            period.href(),
            "/console/mesures/lignes?famille=memoire&jours=7"
        );
    }
}
