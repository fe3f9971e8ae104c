//! OBSERVE → suggested playbooks (seed 004): « 14 fois cette semaine, … a
//! été appelé hors parcours après … ». Patterns, not conversations.
//!
//! The chat runtime writes one `observations` row per tool call made
//! outside any open playbook, keyed `after:{previous}|call:{tool}` (or
//! `call:{tool}` for a conversation's first such call). The miner counts
//! them per Paris week ([`week_ending`]) and station, and upserts one
//! suggestion per pattern seen at least [`MIN_OCCURRENCES`] times, with a
//! playbook drafted from it ([`draft_yaml`]). It runs as a daily job
//! ([`job`]) and from `maxy playbooks mine`.
//!
//! Which patterns are suggested: a sequence of two distinct tools. A call
//! alone (`call:x`) says nothing about a procedure, and a tool called after
//! itself (paging, retrying) is not a step. A pattern seen on both stations
//! gives one suggestion (the table keeps one open suggestion per pattern),
//! drafted for the station where it was seen most.
//!
//! What a re-run keeps: the same week again rewrites the same rows
//! (idempotent); an older week never overwrites a newer count; a draft an
//! admin edited keeps its YAML; a pattern dismissed this week is not
//! suggested again this week, and one accepted into a playbook that still
//! exists is not suggested again.
pub mod command;
pub mod job;
pub mod review;
pub mod trends;
mod week;
mod wording;

pub use job::{register_jobs, schedule_next, JOB_KIND};
pub use review::{accept, dismiss, edit_draft, AcceptError, EditError, ReviewError};
pub use trends::{trends, Trend};
pub use week::{monday_of, paris_midnight, week_ending, Window};
pub use wording::{draft_name, draft_yaml, sentence, tool_label};

use sqlx::PgPool;

/// Occurrences in a week from which a pattern becomes a suggestion.
pub const MIN_OCCURRENCES: i64 = 5;

/// How often one sequence of calls happened outside any playbook in a
/// window, on one station.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// `after:{after}|call:{tool}` or `call:{tool}`.
    pub key: String,
    pub tool: String,
    pub after: Option<String>,
    pub station: String,
    pub count: i64,
}

impl Pattern {
    /// A sequence of two distinct tools seen often enough (module docs).
    pub fn is_suggestable(&self) -> bool {
        self.count >= MIN_OCCURRENCES && self.after.as_ref().is_some_and(|a| *a != self.tool)
    }
}

/// The key the chat runtime writes for a call of `tool` after `after`.
pub fn pattern_key(tool: &str, after: Option<&str>) -> String {
    match after {
        Some(after) => format!("after:{after}|call:{tool}"),
        None => format!("call:{tool}"),
    }
}

#[derive(sqlx::FromRow)]
struct PatternRow {
    pattern_key: String,
    tool_name: String,
    after_tool: Option<String>,
    station: String,
    count: i64,
}

/// Every pattern seen in `window`, per station, by descending count (ties
/// by key, then station, so the order is stable).
pub async fn patterns(db: &PgPool, window: &Window) -> sqlx::Result<Vec<Pattern>> {
    let rows = sqlx::query_as::<_, PatternRow>(
        "SELECT pattern_key, tool_name, after_tool, station, count(*) AS count
           FROM observations
          WHERE created_at >= $1 AND created_at < $2
          GROUP BY pattern_key, tool_name, after_tool, station
          ORDER BY count DESC, pattern_key, station",
    )
    .bind(window.start)
    .bind(window.end)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Pattern {
            key: r.pattern_key,
            tool: r.tool_name,
            after: r.after_tool,
            station: r.station,
            count: r.count,
        })
        .collect())
}

/// What one run of the miner found and wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct MineReport {
    pub window: Window,
    /// Patterns seen in the window (every station, every count).
    pub patterns: usize,
    /// Suggestions written (new or updated).
    pub suggested: usize,
}

/// Counts the window's patterns and upserts a suggestion for each one that
/// qualifies (module docs). Idempotent for a window.
pub async fn mine(db: &PgPool, window: &Window) -> sqlx::Result<MineReport> {
    let found = patterns(db, window).await?;
    let mut seen_keys = std::collections::HashSet::new();
    let mut suggested = 0;
    for pattern in found.iter().filter(|p| p.is_suggestable()) {
        // By descending count: the first station of a key is its busiest.
        if !seen_keys.insert(pattern.key.as_str()) {
            continue;
        }
        if upsert_suggestion(db, window, pattern).await? {
            suggested += 1;
        }
    }
    Ok(MineReport {
        window: *window,
        patterns: found.len(),
        suggested,
    })
}

/// The draft stored with a suggestion.
pub fn draft(pattern: &Pattern) -> serde_json::Value {
    serde_json::json!({
        "yaml": draft_yaml(pattern),
        "sentence": sentence(pattern),
        "tool": pattern.tool,
        "after": pattern.after,
        "station": pattern.station,
    })
}

/// Inserts or refreshes the open suggestion of `pattern`; false when it was
/// left alone (reviewed this week, accepted before, or a newer week's).
async fn upsert_suggestion(db: &PgPool, window: &Window, pattern: &Pattern) -> sqlx::Result<bool> {
    let count = i32::try_from(pattern.count).unwrap_or(i32::MAX);
    // The edited draft keeps the admin's YAML (`edited_by` is set by
    // `edit_draft`); the counts and the sentence follow the new window.
    let written: Option<i64> = sqlx::query_scalar(
        "INSERT INTO suggested_playbooks (pattern_key, occurrences, window_start, window_end, draft)
         SELECT $1, $2, $3, $4, $5
          WHERE NOT EXISTS (
                SELECT 1 FROM suggested_playbooks s
                 WHERE s.pattern_key = $1
                   AND ((s.status = 'dismissed' AND s.window_start = $3)
                     OR (s.status = 'accepted' AND s.accepted_playbook_id IS NOT NULL)))
         ON CONFLICT (pattern_key) WHERE status = 'new'
         DO UPDATE SET occurrences = EXCLUDED.occurrences,
                       window_start = EXCLUDED.window_start,
                       window_end = EXCLUDED.window_end,
                       draft = CASE WHEN suggested_playbooks.draft ? 'edited_by'
                                    THEN suggested_playbooks.draft
                                         || jsonb_build_object('sentence', EXCLUDED.draft -> 'sentence')
                                    ELSE EXCLUDED.draft END
                 WHERE suggested_playbooks.window_end <= EXCLUDED.window_end
         RETURNING id",
    )
    .bind(&pattern.key)
    .bind(count)
    .bind(window.start)
    .bind(window.end)
    .bind(draft(pattern))
    .fetch_optional(db)
    .await?;
    Ok(written.is_some())
}
