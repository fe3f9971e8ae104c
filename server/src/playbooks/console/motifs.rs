//! The console's « Motifs »: this Paris week's patterns (all stations
//! together) with their counts and sentences, the trend of the most seen
//! ones over eight weeks (chart and table), and the suggestions waiting for
//! an admin.
use super::{chart, paris};
use crate::playbooks::miner::{self, tool_label, Pattern};
use app::errors::AppError;
use app::playbook_console::{MotifsView, PatternView, SuggestionView, TrendRow};
use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;

/// Weeks the trend covers.
pub const WEEKS: u32 = 8;
/// Patterns drawn on the chart (the most seen over the weeks).
pub const CHARTED: usize = 5;
/// Patterns listed for the week.
pub const LISTED: usize = 30;

/// A pattern in words, short enough for a legend.
fn short_label(tool: &str, after: Option<&str>) -> String {
    match after {
        Some(after) => format!("« {} » après « {} »", tool_label(tool), tool_label(after)),
        None => format!("« {} »", tool_label(tool)),
    }
}

/// The week's patterns, each station's counts added up, most seen first.
fn merged(patterns: Vec<Pattern>) -> Vec<Pattern> {
    let mut out: Vec<Pattern> = Vec::new();
    for p in patterns {
        match out.iter_mut().find(|o| o.key == p.key) {
            Some(o) => o.count += p.count,
            None => out.push(p),
        }
    }
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
    out
}

#[derive(sqlx::FromRow)]
struct SuggestionRow {
    id: i64,
    occurrences: i32,
    sentence: Option<String>,
    yaml: Option<String>,
}

pub async fn view(db: &PgPool, now: DateTime<Utc>) -> Result<MotifsView, AppError> {
    let window = miner::week_ending(now);
    let patterns = merged(
        miner::patterns(db, &window)
            .await
            .map_err(crate::db::app_error)?,
    );
    let trends = miner::trends(db, WEEKS, now)
        .await
        .map_err(crate::db::app_error)?;
    let weeks: Vec<String> = miner::trends::mondays(WEEKS, now)
        .into_iter()
        .map(paris::day_month)
        .collect();
    let rows: Vec<TrendRow> = trends
        .iter()
        .take(CHARTED)
        .map(|t| TrendRow {
            label: short_label(&t.tool, t.after.as_deref()),
            counts: t.weeks.iter().map(|(_, n)| *n).collect(),
        })
        .collect();
    let series: Vec<chart::Series> = rows
        .iter()
        .map(|r| chart::Series {
            label: r.label.clone(),
            counts: r.counts.clone(),
        })
        .collect();
    let chart_svg = chart::trend_svg(
        "Appels hors parcours par semaine, sur 8 semaines, pour les motifs les plus fréquents",
        &weeks,
        &series,
    )
    .map_err(AppError::internal)?;
    let suggestions: Vec<SuggestionRow> = sqlx::query_as(
        "SELECT id, occurrences, draft ->> 'sentence' AS sentence, draft ->> 'yaml' AS yaml
           FROM suggested_playbooks
          WHERE status = 'new'
          ORDER BY occurrences DESC, id",
    )
    .fetch_all(db)
    .await
    .map_err(crate::db::app_error)?;
    let last_day = window.first_day() + Duration::days(6);
    Ok(MotifsView {
        week: format!(
            "Semaine du {} au {}",
            window.first_day().format("%d/%m/%Y"),
            last_day.format("%d/%m/%Y")
        ),
        patterns: patterns
            .iter()
            .take(LISTED)
            .map(|p| PatternView {
                key: p.key.clone(),
                count: p.count,
                sentence: miner::sentence(p),
            })
            .collect(),
        chart_svg,
        weeks,
        trends: rows,
        suggestions: suggestions
            .into_iter()
            .map(|s| SuggestionView {
                id: s.id,
                occurrences: s.occurrences,
                sentence: s.sentence.unwrap_or_default(),
                yaml: s.yaml.unwrap_or_default(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(key: &str, station: &str, count: i64) -> Pattern {
        Pattern {
            key: key.into(),
            tool: "request_availability_check".into(),
            after: Some("get_member_signals".into()),
            station: station.into(),
            count,
        }
    }

    #[test]
    fn a_pattern_seen_on_both_stations_is_counted_once_with_both_counts() {
        let merged = merged(vec![
            pattern("a", "chat", 9),
            pattern("b", "chat", 7),
            pattern("a", "training", 5),
        ]);
        assert_eq!(merged.len(), 2);
        assert_eq!((merged[0].key.as_str(), merged[0].count), ("a", 14));
        assert_eq!((merged[1].key.as_str(), merged[1].count), ("b", 7));
    }

    #[test]
    fn a_legend_names_tools_in_french() {
        let label = short_label("request_availability_check", Some("get_member_signals"));
        assert!(!label.contains("request_availability_check"), "{label}");
        assert!(label.contains(" après "), "{label}");
    }
}
