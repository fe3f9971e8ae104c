//! The console's « Mesures » (`app::measures::MeasuresReader`): the daily
//! sums of [`db::measures`] laid out as one value per day of the period
//! (Paris calendar days, today last), and the rows behind each chart
//! ([`rows`]). Read from the replica when there is one: these are reports,
//! a second of lag changes nothing.
mod rows;

use crate::db::{app_error, measures as q};
use crate::llm::budget::{month_start, BudgetSettings};
use crate::llm::pricing::usd_to_eur;
use app::errors::AppError;
use app::measures::{MeasuresData, MeasuresReader, RowsQuery, RowsTable, Series};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use sqlx::PgPool;
use std::collections::BTreeMap;

pub struct MeasuresService {
    /// The replica's pool, or the primary's.
    pub db: PgPool,
    /// The cap and exchange rate of the model budget.
    pub budget: BudgetSettings,
}

#[async_trait::async_trait]
impl MeasuresReader for MeasuresService {
    async fn measures(&self, days: u32) -> Result<MeasuresData, AppError> {
        self.read(days, Utc::now()).await.map_err(app_error)
    }

    async fn rows(&self, query: RowsQuery) -> Result<RowsTable, AppError> {
        rows::read(&self.db, &query, Utc::now(), self.budget.usd_to_eur)
            .await
            .map_err(app_error)
    }
}

/// The period's days, oldest first: the last `days` Paris days to `now`'s.
pub fn period_days(days: u32, now: DateTime<Utc>) -> Vec<NaiveDate> {
    let today = app::fr::to_paris(now).date();
    let days = i64::from(days.max(1));
    (0..days)
        .rev()
        .map(|back| today - Duration::days(back))
        .collect()
}

/// The instant a Paris day starts.
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    app::fr::paris_to_utc(day.and_time(chrono::NaiveTime::MIN))
}

/// Lays out `(day, key, value)` as one series per key over `days`; a day
/// without a row is 0 (these are counts and sums).
fn by_key(
    days: &[NaiveDate],
    rows: impl IntoIterator<Item = (NaiveDate, String, f64)>,
) -> Vec<Series> {
    let index: BTreeMap<NaiveDate, usize> = days.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let mut out: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
    for (day, key, value) in rows {
        let Some(&i) = index.get(&day) else { continue };
        let values = out
            .entry(key)
            .or_insert_with(|| vec![Some(0.0); days.len()]);
        values[i] = Some(values[i].unwrap_or(0.0) + value);
    }
    out.into_iter()
        .map(|(key, values)| Series { key, values })
        .collect()
}

/// Reads one number of a day of searches.
type SearchColumn = fn(&q::SearchDay) -> Option<f64>;

/// One series per named column of the search days (`None` where a day had
/// no search, or no search that went through that stage).
fn search_series(
    days: &[NaiveDate],
    rows: &[q::SearchDay],
    columns: &[(&str, SearchColumn)],
) -> Vec<Series> {
    columns
        .iter()
        .map(|(key, read)| Series {
            key: key.to_string(),
            values: days
                .iter()
                .map(|d| rows.iter().find(|r| r.day == Some(*d)).and_then(read))
                .collect(),
        })
        .collect()
}

fn iso(days: &[NaiveDate]) -> Vec<String> {
    days.iter()
        .map(|d| d.format("%Y-%m-%d").to_string())
        .collect()
}

impl MeasuresService {
    async fn read(&self, days: u32, now: DateTime<Utc>) -> sqlx::Result<MeasuresData> {
        let period = period_days(days, now);
        let since = day_start(period[0]);
        let rate = self.budget.usd_to_eur;

        let calls = q::calls(&self.db, since).await?;
        let cost_eur_by_task = by_key(
            &period,
            calls
                .iter()
                .map(|c| (c.day, c.task.clone(), usd_to_eur(c.cost_usd, rate))),
        );
        let tokens = by_key(
            &period,
            calls.iter().flat_map(|c| {
                [
                    ("plain", c.plain),
                    ("cache_read", c.cache_read),
                    ("cache_write", c.cache_write),
                    ("output", c.output),
                ]
                .map(|(k, v)| (c.day, k.to_string(), v as f64))
            }),
        );

        // The budget's month is the UTC calendar month, as the cap counts.
        let month_from = month_start(now);
        let month: Vec<NaiveDate> = {
            let first = month_from.date_naive();
            let today = app::fr::to_paris(now).date().max(first);
            first.iter_days().take_while(|d| *d <= today).collect()
        };
        let month_calls = q::calls(&self.db, month_from).await?;
        let mut running = 0.0;
        let month_cumulative_eur = month
            .iter()
            .map(|d| {
                running += month_calls
                    .iter()
                    .filter(|c| c.day == *d)
                    .map(|c| usd_to_eur(c.cost_usd, rate))
                    .sum::<f64>();
                running
            })
            .collect();

        let searches = q::searches(&self.db, since).await?;
        let overall = q::searches_overall(&self.db, since).await?;
        let search_latency_ms = search_series(
            &period,
            &searches,
            &[("p50", |r| r.p50), ("p95", |r| r.p95), ("p99", |r| r.p99)],
        );
        let stage_p95_ms = search_series(
            &period,
            &searches,
            &[
                ("sql", |r| r.sql_p95),
                ("embed", |r| r.embed_p95),
                ("vector", |r| r.vector_p95),
                ("llm", |r| r.llm_p95),
            ],
        );
        let stage_candidates = search_series(
            &period,
            &searches,
            &[
                ("sql", |r| r.sql_candidates),
                ("vector", |r| r.vector_candidates),
                ("llm", |r| r.llm_candidates),
            ],
        );
        let ranking_sources = by_key(
            &period,
            searches
                .iter()
                .filter_map(|r| r.day.map(|d| (d, r)))
                .flat_map(|(d, r)| {
                    [
                        ("llm", r.ranked_llm),
                        ("deterministic", r.ranked_deterministic),
                        ("direct", r.ranked_direct),
                    ]
                    .map(|(k, v)| (d, k.to_string(), v as f64))
                }),
        );
        let search_overall_ms = match (overall.p50, overall.p95, overall.p99) {
            (Some(a), Some(b), Some(c)) if overall.searches > 0 => Some([a, b, c]),
            _ => None,
        };
        let keyed = |rows: Vec<q::Keyed>| {
            by_key(&period, rows.into_iter().map(|r| (r.day, r.key, r.value)))
        };
        Ok(MeasuresData {
            days: iso(&period),
            cost_eur_by_task,
            month_days: iso(&month),
            month_cumulative_eur,
            cap_eur: self.budget.cap_eur,
            tokens,
            search_latency_ms,
            search_overall_ms,
            search_count: overall.searches,
            stage_p95_ms,
            stage_candidates,
            ranking_sources,
            acceptance: keyed(q::acceptance(&self.db, since).await?),
            memory_sources: keyed(q::memory_sources(&self.db, since).await?),
            approvals: keyed(q::approvals(&self.db, since).await?),
            approval_median_decide_s: q::approval_median_decide_s(&self.db, since).await?,
            playbook_bands: keyed(q::playbook_bands(&self.db, since).await?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_period_ends_on_the_paris_day() {
        // 23:30 UTC on 5 December is 00:30 on the 6th in Paris.
        let now = "2026-12-05T23:30:00Z".parse().unwrap();
        let days = period_days(3, now);
        assert_eq!(days, [d("2026-12-04"), d("2026-12-05"), d("2026-12-06")]);
        assert_eq!(
            day_start(d("2026-12-06")),
            "2026-12-05T23:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
    }

    #[test]
    fn rows_become_one_value_per_day_and_key() {
        let days = [d("2026-12-04"), d("2026-12-05"), d("2026-12-06")];
        let series = by_key(
            &days,
            [
                (d("2026-12-04"), "chat".to_string(), 1.0),
                (d("2026-12-06"), "chat".to_string(), 2.0),
                (d("2026-12-06"), "chat".to_string(), 0.5),
                (d("2026-12-05"), "rank".to_string(), 3.0),
                // Outside the period: ignored.
                (d("2026-11-01"), "rank".to_string(), 9.0),
            ],
        );
        assert_eq!(series.len(), 2);
        assert_eq!(series[0].key, "chat");
        assert_eq!(series[0].values, [Some(1.0), Some(0.0), Some(2.5)]);
        assert_eq!(series[1].values, [Some(0.0), Some(3.0), Some(0.0)]);
    }
}
