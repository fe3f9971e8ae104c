//! Venue search over up to 70,000 members (seed 001): pool first, hard SQL
//! filters, exact vector ranking among the candidates, then a ranking into
//! 4 recommended + 4 compatible with one-sentence reasons.
pub mod criteria;
pub mod defaults;
pub mod finalist;
pub mod lessons;
pub mod llm_rank;
pub mod order;
pub mod pipeline;
pub mod preferences;
pub mod reading;
pub(crate) mod reasons;
pub mod request;
pub mod scope;
pub mod scoring;
pub mod sheet;
pub mod stage3;
mod target;

use crate::db::llm_calls::{self, CallContext};
use crate::db::search_runs::{self, NewRun};
use crate::embeddings::EmbeddingProvider;
use crate::llm::{LlmProvider, RecordedCall, Recording};
use app::errors::AppError;
use app::venue_search::{PoolOption, SearchForm, SearchResults, VenueSearch};
use sqlx::PgPool;
use std::sync::Arc;

/// The search as server functions and the chat tool call it.
pub struct SearchService {
    pub db: PgPool,
    /// Where the venue stages read (a replica, `MAXY_DATABASE_READ_URL`);
    /// `None`: `db`. The caller's preferences and the run's log stay on `db`.
    pub read_db: Option<PgPool>,
    /// The venue pipeline's embedder; `None` runs without vectors.
    pub embedder: Option<Arc<dyn EmbeddingProvider>>,
    /// The stage-3 ranker; the offline provider ranks deterministically.
    pub llm: Arc<dyn LlmProvider>,
}

impl SearchService {
    /// Validates, searches, and records the run's metrics.
    pub async fn search(
        &self,
        user_id: Option<i64>,
        form: &SearchForm,
    ) -> Result<SearchResults, AppError> {
        request::check_text(form).map_err(|e| AppError::Invalid(e.0))?;
        let context = CallContext {
            user_id,
            ..CallContext::default()
        };
        let llm = Recording::new(self.llm.clone(), self.db.clone(), context);
        // The model reads the text when one is configured (the `parse`
        // task), the rules otherwise; the form's fields win either way.
        let reading = reading::read(&llm, &form.text).await;
        let notes = reading.reader_notes();
        // The caller's and the request's preferences, as defaults: the
        // zone fills an area nobody gave (search::defaults).
        let defaults = match defaults::Defaults::load(&self.db, user_id, form).await {
            Ok(d) => d,
            Err(defaults::LoadError::UnknownRequest) => return Err(AppError::NotFound),
            Err(defaults::LoadError::Database(e)) => return Err(crate::db::app_error(e)),
        };
        let removed = defaults.removed(form, &reading.criteria);
        let mut form = form.clone();
        let zone = defaults.apply_zone(&mut form, &reading.criteria);
        let req = request::build_from(&form, reading.criteria, notes)
            .map_err(|e| AppError::Invalid(e.0))?;
        let venues = self.read_db.as_ref().unwrap_or(&self.db);
        let mut outcome = match pipeline::run(venues, self.embedder.as_deref(), &llm, &req).await {
            Ok(mut outcome) => {
                let applied = defaults
                    .reorder(&self.db, &mut outcome.results)
                    .await
                    .map_err(crate::db::app_error)?;
                // The order sentence is written once the defaults moved
                // favourites and specialities up: it says the final order.
                let first = |key: &str| applied.iter().any(|d| d.key == key);
                outcome.results.order = order::sentence(
                    &outcome.order,
                    first(app::search_preferences::FAVORITES_FIRST),
                    first(app::search_preferences::SPECIALITIES),
                    outcome.distance_from.as_deref(),
                );
                outcome.results.applied_defaults = zone.into_iter().chain(applied).collect();
                outcome.results.removed_defaults = removed;
                // The metrics keep the order shown.
                outcome.result_ids = outcome
                    .results
                    .recommended
                    .iter()
                    .chain(&outcome.results.compatible)
                    .map(|p| p.member_id)
                    .collect();
                outcome
            }
            Err(pipeline::Failure::UnknownPool(slug)) => {
                return Err(AppError::Invalid(format!("Pool inconnu : « {slug} ».")));
            }
            Err(pipeline::Failure::Database(e)) => return Err(crate::db::app_error(e)),
        };
        if let Err(e) = target::complete(&self.db, form.request_id, &mut outcome.results).await {
            return Err(crate::db::app_error(e));
        }
        let r = &outcome.results;
        let stats = &r.stats;
        let as_ms = |v: f64| v.round() as i32;
        let calls = llm.calls();
        let llm_ms: u128 = calls.iter().map(|c| c.record.latency.as_millis()).sum();
        let run = NewRun {
            pool_id: outcome.pool_id,
            user_id,
            criteria: serde_json::json!({
                "participants": req.participants,
                "participants_max": req.participants_max,
                "participants_about": req.participants_about,
                "budget_per_person_eur": req.budget_per_person(),
                "unknown_postal_codes": req.unknown_postal_codes,
                "places_elsewhere": req.places_elsewhere,
                "configurations": req.configurations.iter().map(|c| c.key()).collect::<Vec<_>>(),
                "postal_codes": req.postal_codes,
                "near": req.near.as_ref().map(|n| serde_json::json!({"label": n.label, "lat": n.lat, "lng": n.lng, "radius_km": n.radius_km})),
                "member_codes": req.member_codes,
                // The search preferences applied as defaults, and whose.
                "defaults": r.applied_defaults.iter().map(|d| serde_json::json!({"key": d.key, "source": d.source})).collect::<Vec<_>>(),
            }),
            semantic_query: &req.semantic_query,
            sql_candidates: Some(stats.sql_candidates as i32),
            vector_candidates: stats.vector_candidates.map(|n| n as i32),
            result_count: outcome.result_ids.len() as i32,
            sql_ms: Some(as_ms(stats.sql_ms)),
            embed_ms: stats.embed_ms.map(as_ms),
            total_ms: as_ms(stats.total_ms),
            similarity_source: &stats.similarity_source,
            ranking_source: &stats.ranking_source,
            embedding_model: outcome.embedding_model.as_deref(),
            result_member_ids: outcome.result_ids.clone(),
            error: None,
            llm_candidates: outcome
                .llm_candidates
                .map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
            llm_ms: outcome
                .llm_candidates
                .map(|_| i32::try_from(llm_ms).unwrap_or(i32::MAX)),
            cost_usd: calls.iter().filter_map(|c| c.record.cost_usd).sum(),
        };
        match search_runs::insert(&self.db, &run).await {
            Ok(run_id) => self.link_llm_calls(run_id, &calls).await,
            Err(e) => tracing::warn!(error = %e, "cannot record the search metrics"),
        }
        Ok(outcome.results)
    }

    /// Stage 3's model calls, recorded as they ended, name the search's row.
    async fn link_llm_calls(&self, run_id: i64, calls: &[RecordedCall]) {
        let ids: Vec<i64> = calls.iter().filter_map(|c| c.id).collect();
        if let Err(e) = llm_calls::link_search_run(&self.db, &ids, run_id).await {
            tracing::warn!(error = %e, "cannot link the LLM calls to their search");
        }
    }
}

#[async_trait::async_trait]
impl VenueSearch for SearchService {
    async fn pools(&self) -> Result<Vec<PoolOption>, AppError> {
        let rows = crate::db::venue_search::pools(&self.db)
            .await
            .map_err(crate::db::app_error)?;
        Ok(rows
            .into_iter()
            .map(|p| PoolOption {
                slug: p.slug,
                name: p.name,
            })
            .collect())
    }

    async fn search(&self, user_id: i64, form: SearchForm) -> Result<SearchResults, AppError> {
        SearchService::search(self, Some(user_id), &form).await
    }

    async fn sheet(&self, member_id: i64) -> Result<app::venue_search::VenueSheet, AppError> {
        sheet::load(&self.db, member_id).await
    }
}
