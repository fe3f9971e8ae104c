//! Outreach (`app::outreach::Outreach`): a catalogue sent to its organizer
//! through a magic link, that link revoked, availability checks sent to
//! venues in bulk, and the panel the builder shows of all of it.
//!
//! Sends are audited in their own transaction (`catalogue.sent` here,
//! `availability.requested` by [`checks::open_check`], which the assistant's
//! executor shares) and revocations after theirs (`magic_link.revoked`);
//! tokens are returned once and never stored — but for an e-mail waiting
//! to be delivered, whose text holds its link until it is (`mail_sends`).
//! With e-mail set up, each send also queues its e-mail in the transaction
//! that issues the link (`crate::mail::Outbox`).
pub mod checks;
mod mail_retry;
pub mod sweep;
mod view;

use crate::audit::{self, catalogue::Change, Actor, Event};
use crate::auth::magic_links::{self, Purpose};
use crate::auth::tokens::SigningKey;
use crate::db::{app_error, catalogue_outreach, write_targets};
use crate::mail::{MailContext, Outbox};
use app::errors::AppError;
use app::outreach::{Outreach, OutreachView, SentCatalogue, SentCheck, MAX_CHECKS_AT_ONCE};
use checks::{CheckError, OnPending};
use sqlx::PgPool;
use std::time::Duration;

/// How long an organizer's link opens the catalogue.
pub const CATALOGUE_LINK_TTL: Duration = Duration::from_secs(30 * 86_400);

pub struct OutreachService {
    pub db: PgPool,
    pub key: SigningKey,
    /// Whether sends are e-mailed (`Outbox::disabled()`: links to copy only).
    pub outbox: Outbox,
}

#[async_trait::async_trait]
impl Outreach for OutreachService {
    async fn view(
        &self,
        request_id: i64,
        catalogue_id: Option<i64>,
    ) -> Result<OutreachView, AppError> {
        view::load(&self.db, request_id, catalogue_id, self.outbox.is_enabled()).await
    }

    async fn send_catalogue(
        &self,
        user_id: i64,
        catalogue_id: i64,
    ) -> Result<SentCatalogue, AppError> {
        let mut tx = self.db.begin().await.map_err(app_error)?;
        let state = catalogue_outreach::lock(&mut tx, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        if state.kind == "training" {
            return Err(AppError::Invalid(
                "Un catalogue d'entraînement ne s'envoie jamais à un organisateur.".into(),
            ));
        }
        if state.status == "archived" {
            return Err(AppError::Conflict(
                "Ce catalogue est archivé : il ne peut plus être envoyé.".into(),
            ));
        }
        if state.picks == 0 {
            return Err(AppError::Invalid(
                "Ce catalogue est vide : ajoutez au moins un lieu avant de l'envoyer.".into(),
            ));
        }
        catalogue_outreach::mark_sent(&mut tx, catalogue_id)
            .await
            .map_err(app_error)?;
        let link = magic_links::issue(
            &mut *tx,
            &self.key,
            Purpose::Catalogue,
            catalogue_id,
            CATALOGUE_LINK_TTL,
            Some(user_id),
        )
        .await
        .map_err(|e| AppError::internal(e.to_string()))?;
        let change = Change::Sent {
            link_id: link.id,
            picks: state.picks,
            resend: state.status == "sent",
        };
        audit::catalogue::record(&mut tx, user_id, catalogue_id, None, &change)
            .await
            .map_err(app_error)?;
        let expires =
            chrono::Utc::now() + chrono::Duration::from_std(CATALOGUE_LINK_TTL).unwrap_or_default();
        let mail = MailContext {
            user_id,
            path: &link.path,
            until: expires,
        };
        let queued = self
            .outbox
            .queue_catalogue(&mut tx, catalogue_id, state.picks as usize, &mail)
            .await
            .map_err(app_error)?;
        tx.commit().await.map_err(app_error)?;
        Ok(SentCatalogue {
            catalogue_id,
            link_id: link.id,
            path: link.path,
            expires_on: app::fr::paris_date(expires),
            emailed_to: queued.emailed_to(),
            mail_note: queued.note(),
        })
    }

    async fn revoke_catalogue_links(
        &self,
        user_id: i64,
        catalogue_id: i64,
    ) -> Result<usize, AppError> {
        catalogue_outreach::state(&self.db, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        // The revocation and its audit rows commit together: a revocation
        // nobody can trace is refused like any failed write.
        let mut tx = self.db.begin().await.map_err(app_error)?;
        let revoked = catalogue_outreach::revoke_links(&mut *tx, catalogue_id, user_id)
            .await
            .map_err(app_error)?;
        for link_id in &revoked {
            let event = Event::new(Actor::User(user_id), "magic_link.revoked")
                .on("magic_link", *link_id)
                .details(serde_json::json!({ "catalogue_id": catalogue_id }));
            audit::write(&mut *tx, event).await.map_err(app_error)?;
        }
        tx.commit().await.map_err(app_error)?;
        Ok(revoked.len())
    }

    async fn send_availability_checks(
        &self,
        user_id: i64,
        request_id: i64,
        member_ids: Vec<i64>,
    ) -> Result<Vec<SentCheck>, AppError> {
        let mut ids = Vec::with_capacity(member_ids.len());
        for id in member_ids {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        if ids.is_empty() {
            return Err(AppError::Invalid(
                "Choisissez au moins un lieu à interroger.".into(),
            ));
        }
        if ids.len() > MAX_CHECKS_AT_ONCE {
            return Err(AppError::Invalid(format!(
                "Pas plus de {MAX_CHECKS_AT_ONCE} lieux à la fois."
            )));
        }
        write_targets::request(&self.db, request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let members = write_targets::members_by_ids(&self.db, &ids)
            .await
            .map_err(app_error)?;
        let mut ordered = Vec::with_capacity(ids.len());
        for id in &ids {
            match members.iter().find(|m| m.id == *id) {
                Some(m) => ordered.push(m),
                None => {
                    return Err(AppError::Invalid(format!(
                        "Lieu inconnu (n° {id}) : rien n'a été envoyé."
                    )))
                }
            }
        }
        // All or nothing: one transaction for every check and link.
        let mut tx = self.db.begin().await.map_err(app_error)?;
        let mut sent = Vec::with_capacity(ordered.len());
        for member in ordered {
            let check = checks::open_check(
                &mut tx,
                &self.key,
                request_id,
                member.id,
                user_id,
                OnPending::Reuse,
            )
            .await
            .map_err(|e| match e {
                CheckError::Db(db) => app_error(db),
                other => AppError::internal(other.to_string()),
            })?;
            let mail = MailContext {
                user_id,
                path: &check.link.path,
                until: check.expires_at,
            };
            let queued = self
                .outbox
                .queue_availability(&mut tx, request_id, member.id, check.check_id, &mail)
                .await
                .map_err(app_error)?;
            sent.push(SentCheck {
                member_id: member.id,
                code: member.code.clone(),
                name: member.name.clone(),
                check_id: check.check_id,
                path: check.link.path,
                reused: check.reused,
                expires_on: app::fr::paris_date(check.expires_at),
                emailed_to: queued.emailed_to(),
                mail_note: queued.note(),
            });
        }
        tx.commit().await.map_err(app_error)?;
        Ok(sent)
    }

    async fn retry_mail(&self, user_id: i64, send_id: i64) -> Result<(), AppError> {
        mail_retry::retry(&self.db, user_id, send_id).await
    }
}
