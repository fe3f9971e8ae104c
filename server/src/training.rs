//! Training (seed 000): what the team teaches — a verdict on a venue for a
//! request (the « Apprendre » button), or a guideline with structured
//! directives — checked ([`validate`], [`directives`]), written by one
//! function ([`create::record`], shared with the chat's approved
//! `create_training_session`), embedded through the job queue ([`embed`],
//! from the words of [`text`]),
//! and read back by meaning or by words ([`relevant`]). The venue search
//! applies it (`search::lessons`).
pub mod create;
pub mod directives;
pub mod embed;
pub mod event_type;
pub mod relevant;
pub mod text;
pub mod validate;

use app::auth::SessionUser;
use app::errors::AppError;
use app::training::{Training, TrainingInput, TrainingSessionView};
use create::CreateError;
use sqlx::PgPool;
use validate::{Draft, Source};

/// Sessions the page lists at once.
const PAGE_SIZE: i64 = 100;

/// The service behind the « Apprendre » button, the guideline form and
/// the `/entrainement` page.
pub struct TrainingService {
    pub db: PgPool,
}

/// A form's fields as a draft: lists split on commas, and no directive
/// when every directive field is blank.
pub fn draft_of(input: &TrainingInput) -> Result<Draft, validate::Invalid> {
    let prefer = directives::split_list(&input.prefer);
    let avoid = directives::split_list(&input.avoid);
    let directives = if input.trigger.trim().is_empty() && prefer.is_empty() && avoid.is_empty() {
        None
    } else {
        Some(directives::check(&input.trigger, &prefer, &avoid)?)
    };
    Ok(Draft {
        request_id: input.request_id,
        member_id: input.member_id,
        catalogue_id: input.catalogue_id,
        verdict: input.verdict.clone(),
        reason: input.reason.clone(),
        category: if input.category.trim().is_empty() {
            "other".into()
        } else {
            input.category.clone()
        },
        event_type: Some(input.event_type.clone()),
        directives,
    })
}

impl TrainingService {
    /// Checks and writes one session in its own transaction, queued for
    /// its embedding. The write runs in a task of its own: a person who
    /// leaves the page (the request's future dropped) does not cancel it.
    pub async fn create(&self, user_id: i64, input: &TrainingInput) -> Result<i64, AppError> {
        let draft = draft_of(input).map_err(|e| AppError::Invalid(e.0))?;
        let valid = validate::check(&draft).map_err(|e| AppError::Invalid(e.0))?;
        let db = self.db.clone();
        let write = tokio::spawn(async move {
            let mut tx = db.begin().await.map_err(crate::db::app_error)?;
            let id = create::record(&mut tx, &valid, Source::LearnButton, Some(user_id))
                .await
                .map_err(|e| match e {
                    CreateError::NotFound(m) => AppError::Invalid(m),
                    CreateError::Db(e) => crate::db::app_error(e),
                })?;
            tx.commit().await.map_err(crate::db::app_error)?;
            Ok(id)
        });
        match write.await {
            Ok(written) => written,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(e) => Err(AppError::internal(e)),
        }
    }
}

/// A stored session as the page shows it.
pub fn view_of(
    row: &crate::db::training_sessions::SessionRow,
    caller: &SessionUser,
) -> TrainingSessionView {
    let d = row
        .directives
        .as_ref()
        .and_then(directives::Directives::from_stored);
    TrainingSessionView {
        id: row.id,
        verdict: row.verdict.clone(),
        verdict_label: app::fr::training_verdict(&row.verdict).to_string(),
        category_label: app::fr::training_category(&row.category).to_string(),
        event_type: row.event_type.clone(),
        venue: match (&row.member_name, &row.member_code) {
            (Some(name), Some(code)) => Some(format!("{name} ({code})")),
            (None, Some(code)) => Some(code.clone()),
            _ => None,
        },
        request_reference: row.request_reference.clone(),
        reason: row.reason.clone(),
        trigger: d.as_ref().map(|d| d.trigger.clone()),
        prefer: d.as_ref().map(|d| d.prefer.clone()).unwrap_or_default(),
        avoid: d.map(|d| d.avoid).unwrap_or_default(),
        author: row.author.clone(),
        created_on: app::fr::paris_date(row.created_at),
        embedded: row.embedded,
        can_delete: caller.is_admin() || row.user_id == Some(caller.id),
    }
}

#[async_trait::async_trait]
impl Training for TrainingService {
    async fn create(&self, user_id: i64, input: TrainingInput) -> Result<i64, AppError> {
        TrainingService::create(self, user_id, &input).await
    }

    async fn list(
        &self,
        user: &SessionUser,
        event_type: Option<String>,
    ) -> Result<Vec<TrainingSessionView>, AppError> {
        let event_type = event_type.as_deref().and_then(event_type::normalize);
        if event_type
            .as_ref()
            .is_some_and(|t| t.chars().count() > event_type::MAX_CHARS)
        {
            return Err(AppError::Invalid(
                "Le type d'événement du filtre est trop long.".into(),
            ));
        }
        let rows = crate::db::training_sessions::recent(&self.db, event_type.as_deref(), PAGE_SIZE)
            .await
            .map_err(crate::db::app_error)?;
        Ok(rows.iter().map(|r| view_of(r, user)).collect())
    }

    async fn delete(&self, user: &SessionUser, id: i64) -> Result<(), AppError> {
        let row = crate::db::training_sessions::by_id(&self.db, id)
            .await
            .map_err(crate::db::app_error)?
            .ok_or(AppError::NotFound)?;
        if !user.is_admin() && row.user_id != Some(user.id) {
            return Err(AppError::Forbidden);
        }
        crate::db::training_sessions::delete(&self.db, id)
            .await
            .map_err(crate::db::app_error)?;
        Ok(())
    }
}
