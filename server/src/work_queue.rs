//! « À faire » (`app::work_queue::WorkQueueDesk`): the rows of
//! [`db::work_queue`] worded for the team, each with the link where it is
//! handled; for admins, the month's model spend near or over its cap and the
//! playbook console's open questions.
use crate::db::{app_error, work_queue};
use crate::llm::budget::{month_to_date, BudgetLevel, BudgetSettings};
use app::errors::AppError;
use app::external_text::for_people;
use app::llm_budget::{BudgetLevel as Level, LlmBudgetStatus};
use app::work_queue::{WorkItem, WorkKind, WorkQueue, WorkQueueDesk};
use chrono::{Datelike, NaiveDateTime, Utc};
use sqlx::PgPool;

/// The longest excerpt of a comment on the home page, in characters.
const EXCERPT_CHARS: usize = 140;

pub struct WorkQueueService {
    pub db: PgPool,
    /// The cap the budget alert compares the month's spend with.
    pub budget: BudgetSettings,
}

#[async_trait::async_trait]
impl WorkQueueDesk for WorkQueueService {
    async fn queue(&self, user_id: i64, admin: bool) -> Result<WorkQueue, AppError> {
        let rows = work_queue::for_user(&self.db, user_id)
            .await
            .map_err(app_error)?;
        let mut rows: Vec<&work_queue::WorkRow> = rows.iter().collect();
        // Reminders and requests to qualify oldest first (the most overdue,
        // the longest waiting); answers and cards newest first.
        rows.sort_by(|a, b| match a.kind.as_str() {
            "reminder" | "to_qualify" => a.at.cmp(&b.at),
            _ => b.at.cmp(&a.at),
        });
        let mut items: Vec<WorkItem> = rows.into_iter().filter_map(worded).collect();
        if admin {
            items.extend(self.admin_alerts().await?);
        }
        Ok(WorkQueue { items })
    }
}

impl WorkQueueService {
    async fn admin_alerts(&self) -> Result<Vec<WorkItem>, AppError> {
        let mut alerts = Vec::new();
        // The spend unread is no reason to hide the rest of the queue.
        match month_to_date(&self.db, self.budget, Utc::now()).await {
            Ok(status) if status.level != BudgetLevel::Ok => {
                let exceeded = status.level == BudgetLevel::Exceeded;
                let dto = LlmBudgetStatus {
                    spent_eur: status.spent_eur,
                    cap_eur: status.cap_eur,
                    level: if exceeded {
                        Level::Exceeded
                    } else {
                        Level::Warning
                    },
                };
                if let Some(text) = dto.banner() {
                    alerts.push(alert(
                        WorkKind::Budget,
                        text,
                        "ce mois-ci",
                        "/console",
                        exceeded,
                    ));
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "work queue: the month's spend could not be read"),
        }
        let playbooks = work_queue::playbook_alerts(&self.db)
            .await
            .map_err(app_error)?;
        if playbooks.suggestions > 0 {
            let n = playbooks.suggestions;
            let text = if n == 1 {
                "Un motif repéré dans les conversations est proposé comme playbook : à examiner"
                    .to_string()
            } else {
                format!("{n} motifs repérés dans les conversations sont proposés comme playbooks : à examiner")
            };
            alerts.push(alert(
                WorkKind::Playbook,
                text,
                "en attente",
                "/console/motifs",
                false,
            ));
        }
        if playbooks.abandoned > 0 {
            let n = playbooks.abandoned;
            let text = if n == 1 {
                "Un parcours a été abandonné en cours de route".to_string()
            } else {
                format!("{n} parcours ont été abandonnés en cours de route")
            };
            alerts.push(alert(
                WorkKind::Playbook,
                text,
                "ces 7 derniers jours",
                "/console/decisions",
                false,
            ));
        }
        Ok(alerts)
    }
}

fn alert(kind: WorkKind, text: String, when: &str, href: &str, urgent: bool) -> WorkItem {
    WorkItem {
        kind,
        text,
        reference: None,
        when: when.into(),
        href: href.into(),
        urgent,
    }
}

/// A row in the team's words; `None` for a kind this version does not know.
fn worded(row: &work_queue::WorkRow) -> Option<WorkItem> {
    let subject = for_people(&row.subject);
    let subject = subject.split_whitespace().collect::<Vec<_>>().join(" ");
    let organizer = row
        .detail
        .as_deref()
        .map(for_people)
        .filter(|o| !o.trim().is_empty())
        .unwrap_or_else(|| "L'organisateur".into());
    let request = row.request_id.unwrap_or_default();
    let ago = past(row.at_paris, row.now_paris);
    let (kind, text, href, when, urgent) = match row.kind.as_str() {
        "approval" => (
            WorkKind::Approval,
            approval_text(&subject, row.detail.as_deref()),
            format!("/chat/{}", row.target.unwrap_or_default()),
            ago,
            false,
        ),
        "comment" => (
            WorkKind::Comment,
            format!(
                "{organizer} a commenté le catalogue : « {} »",
                excerpt(&subject)
            ),
            format!("/demandes/{request}/catalogue"),
            ago,
            false,
        ),
        // One venue's card, read by the team in the builder's outreach panel.
        "venue_comment" => (
            WorkKind::Comment,
            format!(
                "{organizer} a commenté {} : « {} »",
                row.venue
                    .as_deref()
                    .map(for_people)
                    .filter(|v| !v.trim().is_empty())
                    .unwrap_or_else(|| "un lieu du catalogue".into()),
                excerpt(&subject)
            ),
            format!("/demandes/{request}/catalogue"),
            ago,
            false,
        ),
        "favourite" => (
            WorkKind::Favourite,
            match row.target {
                Some(n) if n > 1 => format!("{organizer} a mis {n} lieux en favori : {subject}"),
                _ => format!("{organizer} a mis en favori : {subject}"),
            },
            format!("/demandes/{request}/catalogue"),
            ago,
            false,
        ),
        "to_qualify" => {
            let mut what = Vec::new();
            if !subject.is_empty() {
                what.push(app::fr::capitalized(&app::event_types::label(&subject)));
            }
            if let Some(n) = row.target {
                what.push(format!("{n} personnes"));
            }
            if let Some(area) = row.detail.as_deref().map(for_people) {
                what.push(area);
            }
            let text = if what.is_empty() {
                "Demande à qualifier".to_string()
            } else {
                format!("{} : à qualifier", what.join(", "))
            };
            (
                WorkKind::ToQualify,
                text,
                format!("/demandes/{request}"),
                format!("reçue {ago}"),
                false,
            )
        }
        "reminder" => {
            let overdue = row.at_paris < row.now_paris;
            let when = if overdue {
                format!(
                    "en retard : prévu {}",
                    day_and_time(row.at_paris, row.now_paris)
                )
            } else {
                format!("à faire {}", day_and_time(row.at_paris, row.now_paris))
            };
            (
                WorkKind::Reminder,
                subject,
                "/memoire".to_string(),
                when,
                overdue,
            )
        }
        "availability" => {
            let answer = match row.detail.as_deref() {
                Some("unavailable") => "n'est pas disponible",
                Some("conditions") => "est disponible, sous conditions",
                _ => "est disponible",
            };
            (
                WorkKind::Availability,
                format!("{subject} {answer}"),
                format!("/demandes/{request}"),
                ago,
                false,
            )
        }
        _ => return None,
    };
    Some(WorkItem {
        kind,
        text,
        reference: row.reference.clone(),
        when,
        href,
        urgent,
    })
}

/// « Retenir dans votre mémoire — conversation « Le Pavillon ferme en
/// août » »: what the card proposes, and where (a card's title alone is
/// often the same for many).
fn approval_text(title: &str, conversation: Option<&str>) -> String {
    let title = if title.is_empty() {
        "Une proposition de Maxy attend votre décision"
    } else {
        title
    };
    match conversation.map(for_people) {
        Some(c) if !c.trim().is_empty() => format!("{title} — conversation « {} »", c.trim()),
        _ => title.to_string(),
    }
}

/// The first words of a comment, cut between words.
fn excerpt(text: &str) -> String {
    if text.chars().count() <= EXCERPT_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    let cut = head.rfind(' ').map_or(head.as_str(), |i| &head[..i]);
    format!("{cut}…")
}

/// « il y a 5 min », « il y a 3 h », « hier à 14:05 », « le 03/12 à
/// 14:05 »: a past moment, both on the Paris wall clock.
fn past(at: NaiveDateTime, now: NaiveDateTime) -> String {
    let minutes = (now - at).num_minutes();
    if minutes < 1 {
        "à l'instant".into()
    } else if minutes < 60 {
        format!("il y a {minutes} min")
    } else if at.date() == now.date() {
        format!("il y a {} h", minutes / 60)
    } else {
        day_and_time(at, now)
    }
}

/// « aujourd'hui à 14:05 », « hier à 09:00 », « demain à 09:00 », « le
/// 03/12 à 14:05 » (« le 03/12/2025 » another year).
fn day_and_time(at: NaiveDateTime, now: NaiveDateTime) -> String {
    let days = (at.date() - now.date()).num_days();
    let day = match days {
        0 => "aujourd'hui".to_string(),
        -1 => "hier".to_string(),
        1 => "demain".to_string(),
        _ if at.year() == now.year() => format!("le {}", at.format("%d/%m")),
        _ => format!("le {}", at.format("%d/%m/%Y")),
    };
    format!("{day} à {}", at.format("%H:%M"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paris(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn past_moments_read_as_the_team_says_them() {
        let now = paris("2026-12-06 10:00");
        assert_eq!(past(paris("2026-12-06 09:59"), now), "il y a 1 min");
        assert_eq!(past(paris("2026-12-06 10:00"), now), "à l'instant");
        assert_eq!(past(paris("2026-12-06 07:30"), now), "il y a 2 h");
        assert_eq!(past(paris("2026-12-05 14:05"), now), "hier à 14:05");
        assert_eq!(past(paris("2026-12-03 14:05"), now), "le 03/12 à 14:05");
        assert_eq!(
            past(paris("2025-12-03 14:05"), now),
            "le 03/12/2025 à 14:05"
        );
    }

    #[test]
    fn long_comments_are_cut_between_words() {
        let long = "mot ".repeat(60);
        let cut = excerpt(&long);
        assert!(cut.chars().count() <= EXCERPT_CHARS + 1, "{cut}");
        assert!(cut.ends_with("mot…"), "{cut}");
        assert_eq!(excerpt("Court."), "Court.");
    }
}
