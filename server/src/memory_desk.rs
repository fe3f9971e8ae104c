//! The « Mémoire » page's service ([`app::memory::MemoryDesk`]) over the
//! memory store: every call is scoped to the caller's user id (the server
//! functions pass the signed-in member's), the store's refusals become
//! user-facing [`AppError`]s with its French wording, and its rows become
//! the page's DTOs (dates formatted here: the UI crate has no chrono).
pub mod when;

use crate::memory::{
    Confidence, Hit, HitKind, Memory, MemoryError, MemoryOrigin, MemoryStore, NewMemory, NewTask,
    SearchAnswer, SearchSource, Task,
};
use app::errors::AppError;
use app::memory::{
    DueGroup, HitConfidence, HitView, MemoryBoard, MemoryDesk, MemoryView, ReminderInput,
    ReminderView, SearchView, SourceSplitView, REMINDERS_SHOWN,
};
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// Results the page shows for one search.
pub const SEARCH_LIMIT: usize = 10;
/// Memories the page lists at once (newest first).
pub const LIST_LIMIT: i64 = 100;
/// Days of searches the chart covers.
pub const SPLIT_DAYS: i32 = 30;

pub struct MemoryDeskService {
    pub store: Arc<MemoryStore>,
}

/// A store error as the caller sees it: its own French message for what
/// the caller can fix, « not found » for an unknown (or another's) id, the
/// generic failure otherwise (the cause is logged once, server side).
pub fn app_error(e: MemoryError) -> AppError {
    match e {
        MemoryError::NotFound => AppError::NotFound,
        MemoryError::Database(e) => crate::db::app_error(e),
        // Every other refusal says what to fix, in the store's words (the
        // store may add refusals: they are the caller's to read too).
        other => AppError::Invalid(sentence(&other.to_string())),
    }
}

/// « la recherche est vide » → « La recherche est vide. »
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

fn origin_label(origin: MemoryOrigin) -> &'static str {
    match origin {
        MemoryOrigin::Tool => "Retenu par Maxy",
        MemoryOrigin::Summary => "Tiré d'une conversation",
        MemoryOrigin::Manual => "Saisi à la main",
    }
}

pub fn source_word(source: SearchSource) -> &'static str {
    match source {
        SearchSource::Vector => "vector",
        SearchSource::Fts => "fts",
        SearchSource::Recency => "recency",
    }
}

pub fn memory_view(m: Memory) -> MemoryView {
    MemoryView {
        id: m.id,
        title: m.title,
        content: m.content,
        origin_label: origin_label(m.origin).into(),
        embedded: m.embedded,
        created_on: app::fr::paris_date(m.created_at),
    }
}

/// Where a reminder due at `due` stands at `now`.
pub fn due_group(due: Option<DateTime<Utc>>, now: DateTime<Utc>) -> DueGroup {
    match due {
        None => DueGroup::NoDate,
        Some(d) if d < now => DueGroup::Overdue,
        Some(d) if d < when::end_of_week(now) => DueGroup::ThisWeek,
        Some(_) => DueGroup::Later,
    }
}

pub fn reminder_view(t: Task, now: DateTime<Utc>) -> ReminderView {
    ReminderView {
        id: t.id,
        title: t.title,
        description: t.description,
        due_on: t.due_at.map(due_text),
        group: due_group(t.due_at, now),
        recurrence_label: t.recurrence.as_deref().map(when::label_of),
        request_id: t.request_id,
    }
}

/// « 03/12/2026 09:00 », Paris time, as the form takes it.
fn due_text(at: DateTime<Utc>) -> String {
    when::format(at)
}

pub fn confidence_view(c: Confidence) -> HitConfidence {
    match c {
        Confidence::Matches => HitConfidence::Matches,
        Confidence::Maybe => HitConfidence::Maybe,
        Confidence::Recent => HitConfidence::Recent,
    }
}

pub fn hit_view(h: Hit) -> HitView {
    let (kind, kind_label) = match h.kind {
        HitKind::Memory => ("memory", "souvenir"),
        HitKind::Task => ("task", "rappel"),
    };
    HitView {
        kind: kind.into(),
        kind_label: kind_label.into(),
        id: h.id,
        title: h.title,
        content: h.content,
        confidence: confidence_view(h.confidence),
        by_words: h.matched_by == SearchSource::Fts && h.confidence != Confidence::Recent,
        due_on: h.due_at.map(due_text),
    }
}

/// Whether nothing matched `answer`: the recency step answered, or every
/// hit is only one of the latest.
pub fn nothing_matched(answer: &SearchAnswer) -> bool {
    answer.source == SearchSource::Recency
        || (!answer.hits.is_empty()
            && answer
                .hits
                .iter()
                .all(|h| h.confidence == Confidence::Recent))
}

pub fn search_view(query: &str, answer: SearchAnswer) -> SearchView {
    SearchView {
        query: query.trim().to_string(),
        nothing_matched: nothing_matched(&answer),
        hits: answer.hits.into_iter().map(hit_view).collect(),
        held: false,
    }
}

/// A reminder form's fields as the store's [`NewTask`] (dates and
/// recurrence checked here, texts by the store).
pub fn new_task(input: &ReminderInput, request_id: Option<i64>) -> Result<NewTask, AppError> {
    let invalid = |e: when::Invalid| AppError::Invalid(sentence(&e.0));
    Ok(NewTask {
        title: input.title.clone(),
        description: input.description.clone(),
        due_at: when::parse_due(&input.due_on, &input.due_time).map_err(invalid)?,
        recurrence: when::recurrence(&input.recurrence).map_err(invalid)?,
        request_id,
    })
}

#[async_trait::async_trait]
impl MemoryDesk for MemoryDeskService {
    async fn search(
        &self,
        user_id: i64,
        query: String,
        record: bool,
    ) -> Result<SearchView, AppError> {
        let answer = if record {
            self.store.search(user_id, &query, SEARCH_LIMIT).await
        } else {
            self.store
                .search_unrecorded(user_id, &query, SEARCH_LIMIT)
                .await
        }
        .map_err(app_error)?;
        Ok(search_view(&query, answer))
    }

    async fn overview(&self, user_id: i64) -> Result<MemoryBoard, AppError> {
        let now = Utc::now();
        let shown = i64::try_from(REMINDERS_SHOWN).unwrap_or(i64::MAX);
        let (memories, (tasks, open), split) = tokio::try_join!(
            self.store.list_memories(user_id, LIST_LIMIT, 0),
            crate::memory::tasks::open(&self.store, user_id, shown),
            self.store.source_split(user_id, SPLIT_DAYS),
        )
        .map_err(app_error)?;
        let more_reminders = (open - tasks.len() as i64).max(0);
        Ok(MemoryBoard {
            memories: memories.into_iter().map(memory_view).collect(),
            reminders: tasks.into_iter().map(|t| reminder_view(t, now)).collect(),
            more_reminders,
            split: SourceSplitView {
                vector: split.vector,
                fts: split.fts,
                recency: split.recency,
            },
        })
    }

    async fn save(&self, user_id: i64, title: String, content: String) -> Result<i64, AppError> {
        let new = NewMemory {
            title,
            content,
            origin: MemoryOrigin::Manual,
            conversation_id: None,
        };
        let memory = self
            .store
            .save_memory(user_id, new)
            .await
            .map_err(app_error)?;
        Ok(memory.id)
    }

    async fn update(
        &self,
        user_id: i64,
        id: i64,
        title: String,
        content: String,
    ) -> Result<(), AppError> {
        self.store
            .update_memory(user_id, id, title, content)
            .await
            .map_err(app_error)?;
        Ok(())
    }

    async fn delete(&self, user_id: i64, id: i64) -> Result<(), AppError> {
        self.store
            .delete_memory(user_id, id)
            .await
            .map_err(app_error)
    }

    async fn create_reminder(&self, user_id: i64, input: ReminderInput) -> Result<i64, AppError> {
        let new = new_task(&input, None)?;
        let task = self
            .store
            .create_task(user_id, new)
            .await
            .map_err(app_error)?;
        Ok(task.id)
    }

    async fn complete_reminder(&self, user_id: i64, id: i64) -> Result<Option<i64>, AppError> {
        let next = self
            .store
            .complete_task(user_id, id)
            .await
            .map_err(app_error)?;
        Ok(next.map(|t| t.id))
    }

    async fn snooze_reminder(&self, user_id: i64, id: i64, until: String) -> Result<(), AppError> {
        // The due date is read from the caller's own open reminder (one
        // without a date too): any other id is « introuvable » before
        // anything moves.
        let now = Utc::now();
        let due = crate::memory::tasks::open_one(&self.store, user_id, id)
            .await
            .map_err(app_error)?
            .due_at;
        let until =
            when::snooze_until(now, due, &until).map_err(|e| AppError::Invalid(sentence(&e.0)))?;
        self.store
            .snooze_task(user_id, id, until)
            .await
            .map_err(app_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_errors_become_user_errors() {
        let e = app_error(MemoryError::EmptyQuery);
        assert_eq!(e.status_code(), 422);
        assert_eq!(e.to_string(), "La recherche est vide.");
        let e = app_error(MemoryError::TooLong {
            field: "le contenu",
            max: 4000,
            got: 100_000,
        });
        assert!(e.to_string().contains("4000"), "{e}");
        assert_eq!(app_error(MemoryError::NotFound).status_code(), 404);
        let down = app_error(MemoryError::Database(sqlx::Error::PoolTimedOut));
        assert_eq!(down.status_code(), 503);
    }

    #[test]
    fn reminders_fall_in_their_group() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        // Tuesday 1 December 2026; the week ends on Monday 7 at 00:00 in
        // Paris (Sunday 6 at 23:00 UTC).
        let now = at("2026-12-01T10:00:00Z");
        let group = |due: &str| due_group(Some(at(due)), now);
        assert_eq!(due_group(None, now), DueGroup::NoDate);
        assert_eq!(group("2026-12-01T09:59:00Z"), DueGroup::Overdue);
        assert_eq!(group("2026-12-01T10:00:00Z"), DueGroup::ThisWeek);
        assert_eq!(group("2026-12-06T22:59:00Z"), DueGroup::ThisWeek);
        assert_eq!(group("2026-12-06T23:00:00Z"), DueGroup::Later);
        assert_eq!(group("2026-12-11T10:00:00Z"), DueGroup::Later);
    }

    #[test]
    fn reminder_forms_are_checked() {
        let input = ReminderInput {
            title: "Rappeler le Pavillon".into(),
            due_on: "2026-12-03".into(),
            recurrence: "weekly".into(),
            ..ReminderInput::default()
        };
        let task = new_task(&input, None).unwrap();
        assert_eq!(task.recurrence.as_deref(), Some("FREQ=WEEKLY"));
        assert!(task.due_at.is_some());
        let bad = ReminderInput {
            recurrence: "hourly".into(),
            ..input.clone()
        };
        assert_eq!(new_task(&bad, None).unwrap_err().status_code(), 422);
        let bad = ReminderInput {
            due_on: "demain".into(),
            ..input
        };
        assert_eq!(new_task(&bad, None).unwrap_err().status_code(), 422);
    }
}
