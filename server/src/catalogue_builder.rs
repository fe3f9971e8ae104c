//! The catalogue builder (`app::catalogue_builder::CatalogueBuilder`): a
//! request's catalogue opened, filled from the venue search, edited one
//! operation at a time, and the training workspace's scenarios.
//!
//! Every edit runs in one transaction holding the catalogue's row lock: it
//! checks the version the caller saw (a stale one is refused and nothing is
//! written), applies the operation, checks the catalogue rules
//! ([`rules`]), recounts the acceptance rate, bumps the version, and
//! answers with the catalogue as it now is. Every write (edit, fill, new
//! version) leaves its row in the audit log on that same transaction
//! ([`crate::audit::catalogue`]).
pub mod distance;
pub mod edit;
pub mod fill;
mod from_search;
pub mod internal_signals;
pub mod lookup;
pub mod pick_reason;
pub mod rules;
pub mod view;
pub mod workspace;

use crate::audit::{self, catalogue::Change};
use crate::db::catalogues::{self, CatalogueRow};
use crate::db::{app_error, catalogue_drafts};
use crate::search::SearchService;
use app::catalogue_builder::{
    Acceptance, BuilderStart, CatalogueBuilder, CatalogueView, Edit, InventedScenario,
    MemberOption, ScenarioOption,
};
use app::errors::AppError;
use sqlx::PgPool;
use std::sync::Arc;

pub struct CatalogueBuilderService {
    pub db: PgPool,
    /// The venue search the Lieux page and the `search_members` tool run.
    pub search: Arc<SearchService>,
}

/// The refusals every edit shares: a catalogue that is no longer a draft,
/// or that changed since the caller loaded it.
pub fn guard(catalogue: &CatalogueRow, version: i32) -> Result<(), AppError> {
    if catalogue.status != "draft" {
        return Err(AppError::Conflict(
            "Ce catalogue a été envoyé : il n'est plus modifiable. « Nouvelle version » en \
             crée une copie modifiable."
                .into(),
        ));
    }
    if catalogue.version != version {
        let who = catalogue
            .edited_by_name
            .clone()
            .unwrap_or_else(|| "un autre membre de l'équipe".into());
        let when = catalogue
            .edited_at_time
            .as_deref()
            .map_or_else(String::new, |t| format!(" à {t}"));
        return Err(AppError::Conflict(format!(
            "Ce catalogue a été modifié par {who}{when} — version rechargée."
        )));
    }
    Ok(())
}

fn kind(training: bool) -> rules::Kind {
    if training {
        rules::Kind::Training
    } else {
        rules::Kind::Standard
    }
}

#[async_trait::async_trait]
impl CatalogueBuilder for CatalogueBuilderService {
    async fn find(&self, request_id: i64, training: bool) -> Result<BuilderStart, AppError> {
        let mut conn = self.db.acquire().await.map_err(app_error)?;
        let request = catalogues::request(&mut *conn, request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let current = catalogues::current_of_request(&mut *conn, request_id, kind(training).key())
            .await
            .map_err(app_error)?;
        Ok(match current {
            Some(id) => BuilderStart::Catalogue(Box::new(view::load(&mut conn, id).await?)),
            None => BuilderStart::NotPrepared {
                request_id,
                training,
                request: view::summary(&request),
            },
        })
    }

    async fn open(
        &self,
        user_id: i64,
        request_id: i64,
        training: bool,
    ) -> Result<CatalogueView, AppError> {
        let kind = kind(training);
        let mut tx = self.db.begin().await.map_err(app_error)?;
        if catalogues::request(&mut *tx, request_id)
            .await
            .map_err(app_error)?
            .is_none()
        {
            return Err(AppError::NotFound);
        }
        // A standard catalogue already sent stays on screen (read-only, with
        // « Nouvelle version ») rather than a fresh empty draft beside it.
        let current = catalogues::current_of_request(&mut *tx, request_id, kind.key())
            .await
            .map_err(app_error)?;
        let id = match current {
            Some(id) => id,
            None => catalogue_drafts::lock_draft(&mut tx, request_id, kind.key(), user_id)
                .await
                .map_err(app_error)?,
        };
        let view = view::load(&mut tx, id).await?;
        tx.commit().await.map_err(app_error)?;
        Ok(view)
    }

    async fn view(&self, catalogue_id: i64) -> Result<CatalogueView, AppError> {
        let mut conn = self.db.acquire().await.map_err(app_error)?;
        view::load(&mut conn, catalogue_id).await
    }

    async fn fill_from_search(
        &self,
        user_id: i64,
        catalogue_id: i64,
        version: i32,
    ) -> Result<CatalogueView, AppError> {
        fill::fill(&self.db, &self.search, user_id, catalogue_id, version).await
    }

    async fn edit(
        &self,
        user_id: i64,
        catalogue_id: i64,
        version: i32,
        edit: Edit,
    ) -> Result<CatalogueView, AppError> {
        edit::apply(&self.db, user_id, catalogue_id, version, edit).await
    }

    async fn new_version(
        &self,
        user_id: i64,
        catalogue_id: i64,
    ) -> Result<CatalogueView, AppError> {
        let mut tx = self.db.begin().await.map_err(app_error)?;
        let from = catalogues::lock(&mut tx, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        if from.status == "draft" {
            return Err(AppError::Conflict(
                "Ce catalogue est encore un brouillon : modifiez-le directement.".into(),
            ));
        }
        let copied = catalogues::copy_as_draft(&mut tx, catalogue_id, user_id)
            .await
            .map_err(app_error)?;
        let id = match copied {
            Some(id) => id,
            // Someone made the new version first: open theirs.
            None => catalogues::current_of_request(&mut *tx, from.request_id, &from.kind)
                .await
                .map_err(app_error)?
                .ok_or(AppError::NotFound)?,
        };
        let view = view::load(&mut tx, id).await?;
        if copied.is_some() {
            let change = Change::VersionCreated { from: catalogue_id };
            audit::catalogue::record(&mut tx, user_id, id, Some(view.version), &change)
                .await
                .map_err(app_error)?;
        }
        tx.commit().await.map_err(app_error)?;
        Ok(view)
    }

    async fn add_from_search(
        &self,
        user_id: i64,
        request_id: i64,
        member_id: i64,
    ) -> Result<app::catalogue_builder::AddedFromSearch, AppError> {
        from_search::add(self, user_id, request_id, member_id).await
    }

    async fn lookup(
        &self,
        catalogue_id: i64,
        query: String,
    ) -> Result<Vec<MemberOption>, AppError> {
        let query = query.trim();
        if query.chars().count() < 2 {
            return Ok(Vec::new());
        }
        if query.chars().count() > 100 || query.contains('\0') {
            return Err(AppError::Invalid(
                "Recherche trop longue : 100 caractères au plus.".into(),
            ));
        }
        let catalogue = catalogues::by_id(&self.db, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let request = catalogues::request(&self.db, catalogue.request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        lookup::suggestions(&self.db, request.pool_id, query, 8)
            .await
            .map_err(app_error)
    }

    async fn acceptance(&self, request_id: i64) -> Result<Option<Acceptance>, AppError> {
        let row = catalogues::acceptance_of_request(&self.db, request_id)
            .await
            .map_err(app_error)?;
        Ok(row.map(|(search_picks, kept, moved, replaced)| Acceptance {
            search_picks,
            kept,
            moved,
            replaced,
        }))
    }

    async fn scenarios(&self) -> Result<Vec<ScenarioOption>, AppError> {
        workspace::scenarios(&self.db).await
    }

    async fn invent(&self, user_id: i64, scenario: InventedScenario) -> Result<i64, AppError> {
        workspace::invent(&self.db, user_id, scenario).await
    }
}
