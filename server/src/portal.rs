//! The server's implementation of `app::ports::Portal`: what magic links and
//! the admin console read and write.
use crate::audit::{self, Actor, Event};
use crate::auth::magic_links::{self, Purpose};
use crate::auth::tokens::SigningKey;
use crate::db::links_view::{self, EventRow};
use app::admin::AuditEvent;
use app::auth::access::Denied;
use app::links::{
    AvailabilityAnswer, CataloguePick, OrganizerCatalogue, VenueAvailability, MAX_COMMENT_CHARS,
};
use app::ports::{Portal, ServiceError};
use sqlx::PgPool;

pub struct DbPortal {
    pub db: PgPool,
    pub key: SigningKey,
}

/// Logs the cause once, server side; the caller sees a generic message.
fn internal(e: impl std::fmt::Display) -> ServiceError {
    tracing::error!(error = %e, "portal call failed");
    ServiceError::Internal
}

const INVALID_LINK: ServiceError = ServiceError::Denied(Denied::InvalidLink);

fn dates(event: &EventRow) -> Option<String> {
    let fmt = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    match (event.event_start_date, event.event_end_date) {
        (Some(start), Some(end)) if end != start => {
            Some(format!("du {} au {}", fmt(start), fmt(end)))
        }
        (Some(start), _) => Some(fmt(start)),
        _ => None,
    }
}

impl DbPortal {
    async fn link(&self, purpose: Purpose, token: &str) -> Result<i64, ServiceError> {
        match magic_links::verify(&self.db, &self.key, purpose, token)
            .await
            .map_err(internal)?
        {
            Some(link) => Ok(link.subject_id),
            None => Err(INVALID_LINK),
        }
    }

    async fn availability_view(&self, check_id: i64) -> Result<VenueAvailability, ServiceError> {
        let row = links_view::availability(&self.db, check_id)
            .await
            .map_err(internal)?
            .ok_or(INVALID_LINK)?;
        Ok(VenueAvailability {
            venue_name: row.venue_name,
            event_dates: dates(&row.event),
            request_reference: row.event.reference,
            event_summary: row.event.description,
            participants: row.event.participants.unwrap_or_default(),
            configurations: row.event.configurations,
            status: row.status,
            answer: row.answer,
            answer_until: row.expires_at.format("%d/%m/%Y").to_string(),
        })
    }
}

#[async_trait::async_trait]
impl Portal for DbPortal {
    async fn organizer_catalogue(&self, token: &str) -> Result<OrganizerCatalogue, ServiceError> {
        let catalogue_id = self.link(Purpose::Catalogue, token).await?;
        let row = links_view::catalogue(&self.db, catalogue_id)
            .await
            .map_err(internal)?
            .ok_or(INVALID_LINK)?;
        let picks = links_view::picks(&self.db, catalogue_id)
            .await
            .map_err(internal)?;
        Ok(OrganizerCatalogue {
            event_dates: dates(&row.event),
            request_reference: row.event.reference,
            event_summary: row.event.description,
            participants: row.event.participants.unwrap_or_default(),
            configurations: row.event.configurations,
            sent_on: row.sent_at.map(|at| at.format("%d/%m/%Y").to_string()),
            picks: picks
                .into_iter()
                .map(|p| CataloguePick {
                    tier: p.tier,
                    code: p.code,
                    name: p.name,
                    city: p.city.unwrap_or_default(),
                    postal_code: p.postal_code.unwrap_or_default(),
                    explanation: Some(p.explanation).filter(|e| !e.is_empty()),
                    room: p.room,
                })
                .collect(),
        })
    }

    async fn venue_availability(&self, token: &str) -> Result<VenueAvailability, ServiceError> {
        let check_id = self.link(Purpose::Availability, token).await?;
        self.availability_view(check_id).await
    }

    async fn answer_availability(
        &self,
        token: &str,
        answer: AvailabilityAnswer,
    ) -> Result<VenueAvailability, ServiceError> {
        let check_id = self.link(Purpose::Availability, token).await?;
        let comment = answer.comment.trim();
        if comment.chars().count() > MAX_COMMENT_CHARS {
            return Err(ServiceError::Invalid(format!(
                "Le commentaire dépasse {MAX_COMMENT_CHARS} caractères."
            )));
        }
        let comment = Some(comment).filter(|c| !c.is_empty());
        if !links_view::answer(&self.db, check_id, answer.available, comment)
            .await
            .map_err(internal)?
        {
            return Err(ServiceError::Invalid(
                "Cette demande a déjà reçu une réponse ou a expiré.".into(),
            ));
        }
        let event = Event::new(Actor::MagicLink, "availability.answered")
            .on("availability_check", check_id);
        audit::record(
            &self.db,
            event.details(serde_json::json!({ "available": answer.available })),
        )
        .await;
        self.availability_view(check_id).await
    }

    async fn audit_events(&self, limit: u32) -> Result<Vec<AuditEvent>, ServiceError> {
        let rows = crate::db::audit_log::latest(&self.db, i64::from(limit.min(1000)))
            .await
            .map_err(internal)?;
        Ok(rows
            .into_iter()
            .map(|r| AuditEvent {
                at: r.at.format("%d/%m/%Y %H:%M").to_string(),
                actor: r.actor.unwrap_or_else(|| match r.actor_kind.as_str() {
                    "magic_link" => "lien magique".into(),
                    "system" => "système".into(),
                    _ => "anonyme".into(),
                }),
                action: r.action,
                object: r.object_type.map(|t| match r.object_id {
                    Some(id) => format!("{t} #{id}"),
                    None => t,
                }),
            })
            .collect())
    }
}
