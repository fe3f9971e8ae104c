//! The audit log as the admin console reads it (`app::admin::AuditLog`):
//! one view per kind of actor, each with its own latest rows, and summary
//! rows told in French.
use super::journal::{self, actor_kinds};
use super::labels;
use super::objects;
use crate::db::audit_log;
use app::admin::{
    AuditEvent, AuditKind, AuditLog, JournalFilters, JournalObject, JournalPage, JournalRow,
};
use app::errors::AppError;
use sqlx::PgPool;
use std::collections::HashMap;

pub struct AuditReader {
    pub db: PgPool,
}

/// What a summary row of `action` standing for `rows` rows says: the rows
/// past the minute's cap, hence « autres ».
fn summary(action: &str, rows: i64) -> String {
    let (one, many) = match action {
        "auth.sign_in_failed" => ("autre échec de connexion", "autres échecs de connexion"),
        "auth.sign_in_throttled" => (
            "autre connexion refusée (trop de tentatives)",
            "autres connexions refusées (trop de tentatives)",
        ),
        "magic_link.used" => ("autre ouverture de lien", "autres ouvertures de liens"),
        "catalogue.organizer_comment" => (
            "autre commentaire d'organisateur",
            "autres commentaires d'organisateurs",
        ),
        _ => (
            "autre événement du même genre",
            "autres événements du même genre",
        ),
    };
    format!("{rows} {} cette minute", if rows == 1 { one } else { many })
}

/// Who acted, in words, when no account name is at hand.
fn actor_words(actor_kind: &str) -> &'static str {
    match actor_kind {
        "magic_link" => "Lien d'accès (organisateur ou lieu)",
        "system" => "Système",
        "user" => "Compte supprimé",
        _ => "Visiteur non connecté",
    }
}

/// What the rows' objects are called, in one query per kind: objects by
/// their public words (« demande D-2026-00042 »), never by id.
async fn describe_objects<'a>(
    db: &PgPool,
    objects: impl Iterator<Item = (&'a Option<String>, Option<i64>)>,
) -> Result<HashMap<objects::Key, JournalObject>, AppError> {
    let keys: Vec<(String, Option<i64>)> = objects
        .filter_map(|(kind, id)| kind.clone().map(|k| (k, id)))
        .collect();
    objects::describe(db, &keys)
        .await
        .map_err(crate::db::app_error)
}

#[async_trait::async_trait]
impl AuditLog for AuditReader {
    async fn page(&self, filters: JournalFilters) -> Result<JournalPage, AppError> {
        let checked = journal::check(&filters)?;
        let (rows, has_next) = journal::page(&self.db, &checked).await?;
        let described =
            describe_objects(&self.db, rows.iter().map(|r| (&r.object_type, r.object_id))).await?;
        let members: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, display_name FROM users ORDER BY lower(display_name), id")
                .fetch_all(&self.db)
                .await
                .map_err(crate::db::app_error)?;
        Ok(JournalPage {
            rows: rows
                .into_iter()
                .map(|r| JournalRow {
                    at: crate::playbooks::console::paris::time(r.at),
                    actor: r
                        .actor
                        .unwrap_or_else(|| actor_words(&r.actor_kind).to_string()),
                    summary: r.summarised.map(|rows| summary(&r.action, rows)),
                    action_label: labels::action(&r.action).to_string(),
                    object: r
                        .object_type
                        .map(|t| objects::of(&described, &t, r.object_id)),
                    action: r.action,
                })
                .collect(),
            page: checked.page,
            has_next,
            members: members
                .into_iter()
                .map(|(id, name)| (id.to_string(), name))
                .collect(),
        })
    }

    async fn latest(&self, kind: AuditKind, limit: u32) -> Result<Vec<AuditEvent>, AppError> {
        let limit = i64::from(limit.min(1000));
        let rows = audit_log::latest(&self.db, actor_kinds(kind), limit)
            .await
            .map_err(crate::db::app_error)?;
        let described =
            describe_objects(&self.db, rows.iter().map(|r| (&r.object_type, r.object_id))).await?;
        Ok(rows
            .into_iter()
            .map(|r| AuditEvent {
                at: crate::playbooks::console::paris::time(r.at),
                actor: r.actor.unwrap_or_else(|| match r.actor_kind.as_str() {
                    "magic_link" => "lien magique".into(),
                    "system" => "système".into(),
                    _ => "anonyme".into(),
                }),
                summary: r.summarised.map(|rows| summary(&r.action, rows)),
                action_label: labels::action(&r.action).to_string(),
                action: r.action,
                object: r
                    .object_type
                    .map(|t| objects::of(&described, &t, r.object_id).label),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_read_in_french() {
        assert_eq!(
            summary("auth.sign_in_failed", 187),
            "187 autres échecs de connexion cette minute"
        );
        assert_eq!(
            summary("magic_link.used", 1),
            "1 autre ouverture de lien cette minute"
        );
    }

    #[test]
    fn the_views_cover_every_kind_once() {
        let mut seen: Vec<&str> = [AuditKind::Team, AuditKind::Outsiders, AuditKind::System]
            .into_iter()
            .flat_map(actor_kinds)
            .copied()
            .collect();
        seen.sort_unstable();
        let mut all = actor_kinds(AuditKind::All).to_vec();
        all.sort_unstable();
        assert_eq!(seen, all);
    }
}
