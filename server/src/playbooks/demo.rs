//! Playbooks in the demo (`maxy seed`): the shipped playbooks, the team
//! chat ruling in ENFORCE while the training workspace stays new (observe),
//! and eight weeks of calls made outside any playbook, so that the console
//! shows patterns, their trend and a suggested playbook from the start.
use super::decide::{Band, Guidance};
use super::{miner, stations, store};
use chrono::{Duration, Utc};
use sqlx::PgPool;

/// What the demo installed.
#[derive(Clone, Debug, PartialEq)]
pub struct Installed {
    pub playbooks: usize,
    pub observations: usize,
    pub suggested: usize,
}

/// The demo's patterns: (after, call, occurrences per week, oldest week
/// first). The first grows week after week: the one the team should turn
/// into a playbook.
const PATTERNS: &[(&str, &str, [i64; 8])] = &[
    (
        "get_member_signals",
        "request_availability_check",
        [2, 3, 3, 5, 6, 8, 11, 14],
    ),
    ("search_members", "save_memory", [4, 3, 5, 4, 6, 5, 7, 6]),
    (
        "get_request",
        "list_request_emails",
        [3, 2, 4, 3, 2, 3, 4, 3],
    ),
    (
        "search_knowledge",
        "add_knowledge_entry",
        [1, 0, 2, 1, 1, 2, 1, 2],
    ),
];

pub async fn install(db: &PgPool) -> anyhow::Result<Installed> {
    let playbooks = store::import_shipped(db, None).await?;
    let chat = Guidance {
        enforce: 0.85,
        suggest: 0.5,
        margin: 0.05,
        max_mode: Band::Enforce,
    };
    stations::update(db, stations::CHAT, chat, None).await?;
    let users: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE role = 'team' ORDER BY id")
            .fetch_all(db)
            .await?;
    let now = Utc::now();
    let mut observations = 0;
    for (p, (after, call, weeks)) in PATTERNS.iter().enumerate() {
        for (w, count) in weeks.iter().enumerate() {
            let weeks_ago = i64::try_from(weeks.len() - 1 - w).unwrap_or(0);
            for i in 0..*count {
                // Spread over the week, never in the future.
                let at = now
                    - Duration::days(7 * weeks_ago)
                    - Duration::hours(3 + (i * 11 + p as i64 * 5) % 150);
                let user = users.get((i as usize + p) % users.len().max(1)).copied();
                sqlx::query(
                    "INSERT INTO observations (tool_name, after_tool, pattern_key, station, user_id, created_at)
                     VALUES ($1, $2, $3, 'chat', $4, $5)",
                )
                .bind(call)
                .bind(after)
                .bind(miner::pattern_key(call, Some(after)))
                .bind(user)
                .bind(at)
                .execute(db)
                .await?;
                observations += 1;
            }
        }
    }
    let report = miner::mine(db, &miner::week_ending(now)).await?;
    Ok(Installed {
        playbooks,
        observations,
        suggested: report.suggested,
    })
}
