//! `create_reminder`: a reminder for the caller (a due date, an optional
//! recurrence, optionally about a request). The canonical arguments hold
//! the due date in RFC 3339 (UTC) and the recurrence as a word, so the card
//! and the executor read exactly what will be written.
use super::text::{at_most, required};
use super::unavailable;
use crate::db::write_targets;
use crate::memory::{MAX_CONTENT_CHARS, MAX_TITLE_CHARS};
use crate::memory_desk::when;
use crate::tools::args::CreateReminder;
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReminderArgs {
    pub title: String,
    /// Empty when none was given.
    pub description: String,
    /// RFC 3339, UTC, to the second.
    pub due_at: String,
    /// `none`, `daily`, `weekly` or `monthly`.
    pub recurrence: String,
    pub request_id: Option<i64>,
    /// The request's reference, for the card (« R-2026-0042 »).
    pub request_reference: Option<String>,
}

impl ReminderArgs {
    pub fn input(&self) -> CreateReminder {
        CreateReminder {
            title: self.title.clone(),
            description: (!self.description.is_empty()).then(|| self.description.clone()),
            due_at: self.due_at.clone(),
            recurrence: Some(self.recurrence.clone()),
            request_id: self.request_id,
        }
    }

    /// The due date, as validated by [`resolve`].
    pub fn due(&self) -> Result<DateTime<Utc>, ToolError> {
        DateTime::parse_from_rfc3339(&self.due_at)
            .map(|d| d.with_timezone(&Utc))
            .map_err(|_| ToolError::InvalidArguments("due_at illisible".into()))
    }

    /// The stored rule (`FREQ=WEEKLY`), `None` for a one-off.
    pub fn rule(&self) -> Result<Option<String>, ToolError> {
        when::recurrence(&self.recurrence).map_err(|e| ToolError::InvalidArguments(e.0))
    }
}

/// The arguments checked without the database (title, dates, recurrence).
pub fn check(args: &CreateReminder) -> Result<ReminderArgs, ToolError> {
    let invalid = |e: when::Invalid| ToolError::InvalidArguments(e.0);
    let title = required("title", &args.title, MAX_TITLE_CHARS)?;
    let description = at_most(
        "description",
        args.description.as_deref().unwrap_or_default(),
        MAX_CONTENT_CHARS,
    )?;
    if args.due_at.trim().is_empty() {
        return Err(ToolError::InvalidArguments(
            "« due_at » est obligatoire (AAAA-MM-JJ ou RFC 3339)".into(),
        ));
    }
    let due = when::parse_due(&args.due_at, "")
        .map_err(invalid)?
        .ok_or_else(|| ToolError::InvalidArguments("« due_at » est obligatoire".into()))?;
    let rule = when::recurrence(args.recurrence.as_deref().unwrap_or_default()).map_err(invalid)?;
    Ok(ReminderArgs {
        title,
        description,
        due_at: crate::tools::output::timestamp(due),
        recurrence: when::word_of(rule.as_deref()).into(),
        request_id: args.request_id,
        request_reference: None,
    })
}

pub async fn resolve(
    conn: &mut PgConnection,
    args: &CreateReminder,
) -> Result<ReminderArgs, ToolError> {
    let mut resolved = check(args)?;
    if let Some(id) = args.request_id {
        let request = write_targets::request(&mut *conn, id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ToolError::NotFound(format!("demande {id}")))?;
        resolved.request_reference = Some(request.reference);
    }
    Ok(resolved)
}

pub fn describe(args: &ReminderArgs) -> (String, CardBody) {
    let due = args
        .due()
        .map_or_else(|_| args.due_at.clone(), when::format);
    let mut rows = vec![
        CardField {
            label: "Rappel".into(),
            value: args.title.clone(),
        },
        CardField {
            label: "Échéance".into(),
            value: due,
        },
    ];
    if !args.description.is_empty() {
        rows.push(CardField {
            label: "Détail".into(),
            value: args.description.clone(),
        });
    }
    if let Ok(Some(rule)) = args.rule() {
        rows.push(CardField {
            label: "Récurrence".into(),
            value: when::label_of(&rule),
        });
    }
    if let Some(reference) = &args.request_reference {
        rows.push(CardField {
            label: "Demande".into(),
            value: reference.clone(),
        });
    }
    ("Créer un rappel".into(), CardBody::Fields { rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reminder(due_at: &str, recurrence: Option<&str>) -> CreateReminder {
        CreateReminder {
            title: "Relancer le Pavillon".into(),
            due_at: due_at.into(),
            recurrence: recurrence.map(str::to_string),
            ..CreateReminder::default()
        }
    }

    #[test]
    fn canonical_dates_and_recurrences() {
        let a = check(&reminder("2026-12-03", None)).unwrap();
        assert_eq!(a.due_at, "2026-12-03T08:00:00Z");
        assert_eq!(a.recurrence, "none");
        let b = check(&reminder("2026-12-03T10:00:00+01:00", Some("weekly"))).unwrap();
        assert_eq!(b.due_at, "2026-12-03T09:00:00Z");
        assert_eq!(b.rule().unwrap().as_deref(), Some("FREQ=WEEKLY"));
        // The canonical arguments resolve to themselves.
        assert_eq!(check(&b.input()).unwrap(), b);
    }

    #[test]
    fn refuses_bad_input() {
        for bad in [
            reminder("", None),
            reminder("demain", None),
            reminder("2026-13-01", None),
            reminder("2026-12-03", Some("hourly")),
            CreateReminder {
                title: " ".into(),
                ..reminder("2026-12-03", None)
            },
            CreateReminder {
                description: Some("x".repeat(100_000)),
                ..reminder("2026-12-03", None)
            },
        ] {
            assert!(
                matches!(check(&bad), Err(ToolError::InvalidArguments(_))),
                "{bad:?}"
            );
        }
    }
}
