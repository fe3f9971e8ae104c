//! The home page's « À faire » in one statement: every kind of item a team
//! member may have to act on, as uniform rows the service words in French.
//! Runtime-checked query.
use chrono::{DateTime, NaiveDateTime, Utc};
use sqlx::{FromRow, PgExecutor};

/// One thing to do, before it is worded.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct WorkRow {
    /// `approval`, `comment`, `venue_comment`, `favourite`, `to_qualify`,
    /// `reminder`, `availability`.
    pub kind: String,
    pub at: DateTime<Utc>,
    /// `at` and now on the Paris wall clock (the team's day ends at
    /// midnight in Paris, not in UTC).
    pub at_paris: NaiveDateTime,
    pub now_paris: NaiveDateTime,
    pub request_id: Option<i64>,
    pub reference: Option<String>,
    /// What the item is about: a card's title, a comment, venue names, a
    /// reminder's title, a venue's name, the request's event type.
    pub subject: String,
    /// More: the conversation's title, the organizer's name, a venue's
    /// answer, the request's area.
    pub detail: Option<String>,
    /// A number: the conversation of a card, the catalogue commented on,
    /// the reminder or check, the request's participants.
    pub target: Option<i64>,
    /// The venue an organizer commented on (`venue_comment` only).
    pub venue: Option<String>,
}

/// How far back organizers' and venues' answers are listed.
pub const RECENT_DAYS: i32 = 14;
/// The most items of one kind.
pub const PER_KIND: i64 = 20;

/// What `user_id` has to do now. Organizers' and venues' answers count for
/// the requests assigned to them and the catalogues and checks they made.
pub async fn for_user(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Vec<WorkRow>> {
    sqlx::query_as(&format!(
        "WITH clock AS (
             SELECT now() AS now, now() AT TIME ZONE 'Europe/Paris' AS now_paris,
                    (date_trunc('day', now() AT TIME ZONE 'Europe/Paris') + interval '1 day')
                        AT TIME ZONE 'Europe/Paris' AS end_of_day,
                    now() - make_interval(days => {RECENT_DAYS}) AS since
         ), items AS (
             (SELECT 'approval' AS kind, a.created_at AS at, c.request_id, r.reference,
                     coalesce(card.event->>'title', '') AS subject, c.title AS detail,
                     c.id AS target, NULL::text AS venue
                FROM ai_pending_approvals a
                JOIN ai_conversations c ON c.id = a.conversation_id
                LEFT JOIN requests r ON r.id = c.request_id
                LEFT JOIN LATERAL (
                     SELECT e.event FROM ai_events e
                      WHERE e.conversation_id = a.conversation_id
                        AND e.event->>'type' = 'approval_requested'
                        AND e.event->>'approval_id' = a.id::text
                      LIMIT 1) card ON true
               WHERE c.user_id = $1 AND c.archived_at IS NULL
                 AND a.status = 'pending' AND a.expires_at > now()
               ORDER BY a.created_at DESC LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'comment', f.updated_at, r.id, r.reference, f.comment, r.organizer_name, k.id,
                     NULL
                FROM catalogue_feedback f
                JOIN catalogues k ON k.id = f.catalogue_id
                JOIN requests r ON r.id = k.request_id, clock
               WHERE (r.assigned_user_id = $1 OR k.created_by = $1) AND f.updated_at > clock.since
               ORDER BY f.updated_at DESC LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'venue_comment', pc.updated_at, r.id, r.reference, pc.comment,
                     r.organizer_name, k.id, m.name
                FROM organizer_pick_comments pc
                JOIN catalogue_picks p ON p.id = pc.pick_id
                JOIN members m ON m.id = p.member_id
                JOIN catalogues k ON k.id = pc.catalogue_id
                JOIN requests r ON r.id = k.request_id, clock
               WHERE (r.assigned_user_id = $1 OR k.created_by = $1) AND pc.updated_at > clock.since
               ORDER BY pc.updated_at DESC LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'favourite', max(p.updated_at), r.id, r.reference,
                     string_agg(m.name, ', ' ORDER BY p.tier DESC, p.position), r.organizer_name,
                     count(*), NULL
                FROM catalogue_picks p
                JOIN catalogues k ON k.id = p.catalogue_id
                JOIN requests r ON r.id = k.request_id
                JOIN members m ON m.id = p.member_id, clock
               WHERE p.organizer_favorite AND k.kind = 'standard'
                 AND (r.assigned_user_id = $1 OR k.created_by = $1) AND p.updated_at > clock.since
               GROUP BY r.id, r.reference, r.organizer_name, k.id
               ORDER BY max(p.updated_at) DESC LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'to_qualify', r.created_at, r.id, r.reference, coalesce(r.event_type, ''),
                     nullif(btrim(r.area), ''), r.participants::bigint, NULL
                FROM requests r
               WHERE r.assigned_user_id = $1 AND r.status IN ('new', 'qualifying')
                 AND NOT r.workspace_scenario
               ORDER BY r.created_at LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'reminder', t.due_at, t.request_id, r.reference, t.title, NULL, t.id, NULL
                FROM tasks t
                LEFT JOIN requests r ON r.id = t.request_id, clock
               WHERE t.user_id = $1 AND t.status = 'open' AND t.due_at < clock.end_of_day
               ORDER BY t.due_at LIMIT {PER_KIND})
             UNION ALL
             (SELECT 'availability', ac.answered_at, r.id, r.reference, m.name,
                     CASE WHEN ac.status = 'unavailable' THEN 'unavailable'
                          WHEN ac.conditions IS NOT NULL THEN 'conditions'
                          ELSE 'available' END,
                     ac.id, NULL
                FROM availability_checks ac
                JOIN requests r ON r.id = ac.request_id
                JOIN members m ON m.id = ac.member_id, clock
               WHERE (r.assigned_user_id = $1 OR ac.created_by = $1)
                 AND ac.answered_at > clock.since
               ORDER BY ac.answered_at DESC LIMIT {PER_KIND})
         )
         SELECT items.kind, items.at, items.at AT TIME ZONE 'Europe/Paris' AS at_paris,
                clock.now_paris, items.request_id, items.reference, items.subject,
                items.detail, items.target, items.venue
           FROM items, clock"
    ))
    .bind(user_id)
    .fetch_all(db)
    .await
}

/// The playbook console's open questions, for admins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, FromRow)]
pub struct PlaybookAlerts {
    /// Patterns the miner proposed as playbooks, not reviewed yet.
    pub suggestions: i64,
    /// Runs abandoned in the last seven days.
    pub abandoned: i64,
}

pub async fn playbook_alerts(db: impl PgExecutor<'_>) -> sqlx::Result<PlaybookAlerts> {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM suggested_playbooks WHERE status = 'new') AS suggestions,
                (SELECT count(*) FROM playbook_runs
                  WHERE status = 'abandoned' AND closed_at > now() - interval '7 days') AS abandoned",
    )
    .fetch_one(db)
    .await
}
