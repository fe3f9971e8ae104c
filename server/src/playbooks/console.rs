//! The admin playbook console (`app::playbook_console::PlaybookConsole`):
//! each method is a thin adapter over the playbook modules, which validate
//! and audit every change ([`store`], [`stations`], [`miner`]); here the
//! answers become French rows (labels, Paris times) and the refusals
//! user-safe errors that name what to fix.
mod chart;
mod decisions;
mod motifs;
pub mod paris;
mod simulation;

use super::decide::{Band, Guidance};
use super::scoring::Score;
use super::{miner, simulate, stations, store};
use crate::audit::{self, Actor, Event};
use app::errors::AppError;
use app::playbook_console::{
    DecisionFilters, DecisionPage, MotifsView, PlaybookConsole, PlaybookDetail, PlaybookRow,
    SimulationInput, SimulationView, StationView, ToolView, VersionView,
};
use sqlx::PgPool;
use std::sync::Arc;

pub struct PlaybookConsoleService {
    pub db: PgPool,
    /// What scores a described action; `None` when neither a model nor an
    /// embedder is configured (the simulator's configuration form says so).
    pub scorer: Option<Arc<dyn Score>>,
}

fn db_error(e: sqlx::Error) -> AppError {
    crate::db::app_error(e)
}

fn save_error(e: store::SaveError) -> AppError {
    match e {
        store::SaveError::Invalid(_) => AppError::Invalid(app::fr::capitalized(&e.to_string())),
        store::SaveError::Db(sqlx::Error::RowNotFound) => AppError::NotFound,
        store::SaveError::Db(e) => db_error(e),
    }
}

fn review_error(e: miner::ReviewError) -> AppError {
    use miner::ReviewError as R;
    match e {
        R::NotFound => AppError::NotFound,
        R::Db(e) => db_error(e),
        R::AlreadyReviewed => AppError::Conflict(app::fr::capitalized(&e.to_string())),
        R::Invalid(_) | R::NameTaken(_) | R::Save(_) => {
            AppError::Invalid(app::fr::capitalized(&e.to_string()))
        }
    }
}

fn row(p: &store::StoredPlaybook) -> PlaybookRow {
    PlaybookRow {
        name: p.name.clone(),
        title: p.definition.title(),
        goal: p.definition.goal.clone(),
        status: p.status.as_str().to_string(),
        version: p.version,
        updated_at: paris::time(p.updated_at),
    }
}

/// A threshold as typed in the form (`0.85`, `0,85`), in [0,1].
fn threshold(text: &str, label: &str) -> Result<f64, AppError> {
    text.trim()
        .replace(',', ".")
        .parse::<f64>()
        .ok()
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| {
            AppError::Invalid(format!(
                "Réglages refusés : « {label} » doit être un nombre entre 0 et 1 (reçu « {} »). Rien n'a changé.",
                text.trim()
            ))
        })
}

/// The settings a station form sent, checked with the form's own words.
fn guidance(
    enforce: &str,
    suggest: &str,
    margin: &str,
    max_mode: &str,
) -> Result<Guidance, AppError> {
    let g = Guidance {
        enforce: threshold(enforce, "Imposer dès")?,
        suggest: threshold(suggest, "Suggérer dès")?,
        margin: threshold(margin, "Marge")?,
        max_mode: Band::parse(max_mode.trim()).ok_or_else(|| {
            AppError::Invalid(
                "Réglages refusés : choisissez un plafond (Imposer, Suggérer ou Observer).".into(),
            )
        })?,
    };
    if g.validate().is_err() {
        return Err(AppError::Invalid(format!(
            "Réglages refusés : le seuil « Suggérer dès » ({}) doit être inférieur ou égal au seuil « Imposer dès » ({}). Rien n'a changé.",
            suggest.trim(),
            enforce.trim()
        )));
    }
    Ok(g)
}

#[async_trait::async_trait]
impl PlaybookConsole for PlaybookConsoleService {
    async fn playbooks(&self) -> Result<Vec<PlaybookRow>, AppError> {
        let list = store::list(&self.db).await.map_err(db_error)?;
        Ok(list.iter().map(row).collect())
    }

    async fn playbook(&self, name: String) -> Result<PlaybookDetail, AppError> {
        let playbook = store::get(&self.db, &name)
            .await
            .map_err(db_error)?
            .ok_or(AppError::NotFound)?;
        let versions = store::versions(&self.db, &name).await.map_err(db_error)?;
        let mut versions: Vec<VersionView> = versions
            .into_iter()
            .map(|v| VersionView {
                version: v.version,
                by: v.created_by_name.unwrap_or_else(|| "système".into()),
                at: paris::time(v.created_at),
                source: v.source,
            })
            .collect();
        versions.sort_by_key(|v| std::cmp::Reverse(v.version));
        Ok(PlaybookDetail {
            row: row(&playbook),
            source: playbook.source,
            versions,
        })
    }

    async fn save(&self, by: i64, yaml: String) -> Result<String, AppError> {
        let saved = store::save(&self.db, &yaml, store::Status::Observe, Some(by))
            .await
            .map_err(save_error)?;
        Ok(saved.name)
    }

    async fn set_status(&self, by: i64, name: String, status: String) -> Result<(), AppError> {
        let status = store::Status::parse(status.trim())
            .ok_or_else(|| AppError::Invalid("Ce statut n'existe pas.".into()))?;
        store::set_status(&self.db, &name, status, Some(by))
            .await
            .map_err(save_error)
    }

    async fn stations(&self) -> Result<Vec<StationView>, AppError> {
        let list = stations::list(&self.db).await.map_err(db_error)?;
        Ok(list
            .into_iter()
            .map(|s| StationView {
                tools: s
                    .tools
                    .iter()
                    .map(|t| ToolView {
                        name: t.to_string(),
                        label: miner::tool_label(t),
                    })
                    .collect(),
                enforce: s.guidance.enforce,
                suggest: s.guidance.suggest,
                margin: s.guidance.margin,
                max_mode: s.guidance.max_mode.as_str().to_string(),
                updated_at: paris::time(s.updated_at),
                name: s.name,
                label: s.label,
            })
            .collect())
    }

    async fn update_station(
        &self,
        by: i64,
        name: String,
        enforce: String,
        suggest: String,
        margin: String,
        max_mode: String,
    ) -> Result<(), AppError> {
        let g = guidance(&enforce, &suggest, &margin, &max_mode)?;
        stations::update(&self.db, &name, g, Some(by))
            .await
            .map_err(|e| match e {
                stations::StationError::Unknown(_) => AppError::NotFound,
                stations::StationError::Invalid(_) => {
                    AppError::Invalid(app::fr::capitalized(&e.to_string()))
                }
                stations::StationError::Db(e) => db_error(e),
            })
    }

    async fn decisions(&self, filters: DecisionFilters) -> Result<DecisionPage, AppError> {
        decisions::page(&self.db, &filters).await
    }

    async fn motifs(&self) -> Result<MotifsView, AppError> {
        motifs::view(&self.db, chrono::Utc::now()).await
    }

    async fn mine_now(&self, by: i64) -> Result<usize, AppError> {
        let window = miner::week_ending(chrono::Utc::now());
        let report = miner::mine(&self.db, &window).await.map_err(db_error)?;
        // The job's runs are in the log under the same action: say who ran
        // this one, and what it found.
        audit::write(
            &self.db,
            Event::new(Actor::User(by), "playbooks.mine").details(serde_json::json!({
                "week": window.first_day().to_string(),
                "patterns": report.patterns,
                "suggested": report.suggested,
            })),
        )
        .await
        .map_err(db_error)?;
        Ok(report.patterns)
    }

    async fn accept(&self, by: i64, id: i64, yaml: String) -> Result<String, AppError> {
        miner::accept(&self.db, id, Some(&yaml), by)
            .await
            .map_err(review_error)
    }

    async fn edit_draft(&self, by: i64, id: i64, yaml: String) -> Result<(), AppError> {
        miner::edit_draft(&self.db, id, &yaml, by)
            .await
            .map_err(review_error)
    }

    async fn dismiss(&self, by: i64, id: i64) -> Result<(), AppError> {
        miner::dismiss(&self.db, id, by).await.map_err(review_error)
    }

    async fn simulate(&self, input: SimulationInput) -> Result<SimulationView, AppError> {
        let value = simulation::input(&input)?;
        let output = if simulate::is_explicit(&value) {
            simulate::explicit(&value).map_err(simulation::refusal)?
        } else {
            let scorer = self.scorer.as_deref().ok_or_else(|| {
                AppError::Invalid(
                    "Aucun service de scores n'est configuré : seule la forme explicite peut être simulée."
                        .into(),
                )
            })?;
            simulate::from_configuration(&self.db, scorer, &value)
                .await
                .map_err(simulation::refusal)?
        };
        Ok(simulation::view(&output))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_out_of_order_are_refused_with_the_forms_words() {
        let e = guidance("0.85", "0.9", "0.05", "enforce").unwrap_err();
        assert_eq!(e.status_code(), 422);
        assert!(
            e.to_string()
                .contains("« Suggérer dès » (0.9) doit être inférieur ou égal"),
            "{e}"
        );
        let e = guidance("1.2", "0.5", "0.05", "enforce").unwrap_err();
        assert!(
            e.to_string()
                .contains("« Imposer dès » doit être un nombre entre 0 et 1"),
            "{e}"
        );
        assert!(guidance("0.85", "0.5", "x", "enforce").is_err());
        assert!(guidance("0.85", "0.5", "0.05", "ENFORCE").is_err());
        let g = guidance("0,85", "0.85", "0", "suggest").unwrap();
        assert_eq!(
            (g.enforce, g.suggest, g.max_mode),
            (0.85, 0.85, Band::Suggest)
        );
    }

    #[test]
    fn messages_shown_alone_start_with_a_capital() {
        assert_eq!(
            app::fr::capitalized("définition refusée : x"),
            "Définition refusée : x"
        );
        assert_eq!(app::fr::capitalized(""), "");
    }
}
