//! What magic-link holders read and write (`app::links::LinkViews`): an
//! organizer's catalogue, a venue's availability check and its answer.
use crate::audit::{self, Actor, Event};
use crate::auth::magic_links::{self, Purpose};
use crate::auth::tokens::SigningKey;
use crate::db::app_error;
use crate::db::links_view::{self, EventRow};
use app::errors::AppError;
use app::links::{
    AvailabilityAnswer, CataloguePick, LinkViews, OrganizerCatalogue, VenueAvailability,
    MAX_COMMENT_CHARS,
};
use sqlx::PgPool;

pub struct LinkViewsService {
    pub db: PgPool,
    pub key: SigningKey,
}

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

impl LinkViewsService {
    async fn link(&self, purpose: Purpose, token: &str) -> Result<i64, AppError> {
        match magic_links::verify(&self.db, &self.key, purpose, token)
            .await
            .map_err(app_error)?
        {
            Some(link) => Ok(link.subject_id),
            None => Err(AppError::InvalidLink),
        }
    }

    async fn availability_view(&self, check_id: i64) -> Result<VenueAvailability, AppError> {
        let row = links_view::availability(&self.db, check_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
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
impl LinkViews for LinkViewsService {
    async fn organizer_catalogue(&self, token: &str) -> Result<OrganizerCatalogue, AppError> {
        let catalogue_id = self.link(Purpose::Catalogue, token).await?;
        let row = links_view::catalogue(&self.db, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
        let picks = links_view::picks(&self.db, catalogue_id)
            .await
            .map_err(app_error)?;
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

    async fn venue_availability(&self, token: &str) -> Result<VenueAvailability, AppError> {
        let check_id = self.link(Purpose::Availability, token).await?;
        self.availability_view(check_id).await
    }

    async fn answer_availability(
        &self,
        token: &str,
        answer: AvailabilityAnswer,
    ) -> Result<VenueAvailability, AppError> {
        let check_id = self.link(Purpose::Availability, token).await?;
        let comment = answer.comment.trim();
        if comment.chars().count() > MAX_COMMENT_CHARS {
            return Err(AppError::Invalid(format!(
                "Le commentaire dépasse {MAX_COMMENT_CHARS} caractères."
            )));
        }
        let comment = Some(comment).filter(|c| !c.is_empty());
        if !links_view::answer(&self.db, check_id, answer.available, comment)
            .await
            .map_err(app_error)?
        {
            return Err(AppError::Conflict(
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
}
