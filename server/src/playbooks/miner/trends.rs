//! Each pattern's weekly counts over the last weeks, for the console's
//! chart: zero-filled, so a pattern that stopped shows its drop.
use super::week::{monday_of, paris_midnight};
use crate::memory::dates::paris_date;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use sqlx::PgPool;
use std::collections::BTreeMap;

/// One pattern's counts per Paris week (all stations together).
#[derive(Clone, Debug, PartialEq)]
pub struct Trend {
    pub key: String,
    pub tool: String,
    pub after: Option<String>,
    /// (the week's Monday, calls that week), oldest first, one entry per
    /// week asked for, zero when the pattern was not seen.
    pub weeks: Vec<(NaiveDate, i64)>,
}

impl Trend {
    fn total(&self) -> i64 {
        self.weeks.iter().map(|(_, n)| n).sum()
    }
}

#[derive(sqlx::FromRow)]
struct DayRow {
    pattern_key: String,
    tool_name: String,
    after_tool: Option<String>,
    day: NaiveDate,
    count: i64,
}

/// The Mondays of the `weeks` Paris weeks ending with the week of `now`,
/// oldest first.
pub fn mondays(weeks: u32, now: DateTime<Utc>) -> Vec<NaiveDate> {
    let last = monday_of(paris_date(now));
    (0..i64::from(weeks))
        .rev()
        .map(|back| last - Duration::weeks(back))
        .collect()
}

/// Every pattern seen in the `weeks` Paris weeks ending with the week of
/// `now`, most seen first (ties by key).
pub async fn trends(db: &PgPool, weeks: u32, now: DateTime<Utc>) -> sqlx::Result<Vec<Trend>> {
    let mondays = mondays(weeks, now);
    let (Some(first), Some(last)) = (mondays.first(), mondays.last()) else {
        return Ok(Vec::new());
    };
    // Days are grouped in Paris time by the database; weeks here.
    let rows = sqlx::query_as::<_, DayRow>(
        "SELECT pattern_key, tool_name, after_tool,
                (created_at AT TIME ZONE 'Europe/Paris')::date AS day, count(*) AS count
           FROM observations
          WHERE created_at >= $1 AND created_at < $2
          GROUP BY pattern_key, tool_name, after_tool, day",
    )
    .bind(paris_midnight(*first))
    .bind(paris_midnight(*last + Duration::weeks(1)))
    .fetch_all(db)
    .await?;
    let slot: BTreeMap<NaiveDate, usize> =
        mondays.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let mut by_key: BTreeMap<String, Trend> = BTreeMap::new();
    for row in rows {
        let trend = by_key
            .entry(row.pattern_key.clone())
            .or_insert_with(|| Trend {
                key: row.pattern_key.clone(),
                tool: row.tool_name.clone(),
                after: row.after_tool.clone(),
                weeks: mondays.iter().map(|d| (*d, 0)).collect(),
            });
        if let Some(i) = slot.get(&monday_of(row.day)) {
            if let Some(week) = trend.weeks.get_mut(*i) {
                week.1 += row.count;
            }
        }
    }
    let mut out: Vec<Trend> = by_key.into_values().collect();
    out.sort_by(|a, b| b.total().cmp(&a.total()).then_with(|| a.key.cmp(&b.key)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mondays_end_with_the_week_of_now() {
        // Sunday 30 March 2025, 23:30 Paris (summer time): still that week.
        let now: DateTime<Utc> = "2025-03-30T21:30:00Z".parse().unwrap();
        let d = |m, day| NaiveDate::from_ymd_opt(2025, m, day).unwrap();
        assert_eq!(mondays(3, now), vec![d(3, 10), d(3, 17), d(3, 24)]);
        assert!(mondays(0, now).is_empty());
    }
}
