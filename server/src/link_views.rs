//! What magic-link holders read and write (`app::links::LinkViews`): an
//! organizer's catalogue, a venue's availability check and its answer.
//! Every view through a link is audited (`magic_link.used`, capped).
use crate::audit::{self, Actor, AuditThrottle, Cap, Event};
use crate::auth::magic_links::{self, Purpose};
use crate::auth::tokens::SigningKey;
use crate::db::app_error;
use crate::db::links_view::{self, EventRow};
use app::auth::ClientAddr;
use app::errors::AppError;
use app::links::{
    AvailabilityAnswer, CataloguePick, LinkViews, OrganizerCatalogue, VenueAvailability,
    MAX_COMMENT_CHARS,
};
use sqlx::PgPool;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

pub struct LinkViewsService {
    pub db: PgPool,
    pub key: SigningKey,
    pub audit_throttle: Arc<AuditThrottle>,
}

/// One `magic_link.used` row per link and address block per window: every
/// opening is counted in `magic_links.use_count`, but reloading a page a
/// thousand times writes one row (and a `suppressed` count), not a thousand.
const VIEW_ROWS: Cap = Cap::per(1, Duration::from_secs(10 * 60));

/// The address of the request being served (set by the HTTP layer).
fn client_addr() -> Option<IpAddr> {
    leptos::prelude::use_context::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<ClientAddr>().copied())
        .map(|ClientAddr(ip)| ip)
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

    /// [`Self::link`] for a view of what the link opens: the use is audited.
    async fn viewed_link(&self, purpose: Purpose, token: &str) -> Result<i64, AppError> {
        let link = magic_links::verify(&self.db, &self.key, purpose, token)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
        let ip = client_addr();
        let block = ip.map(crate::auth::rate_limit::address_block);
        let key = format!(
            "{}/{}",
            link.id,
            block.map(|b| b.to_string()).unwrap_or_default()
        );
        let mut event = Event::new(Actor::MagicLink, "magic_link.used").on("magic_link", link.id);
        if let Some(ip) = ip {
            event = event.from_ip(ip);
        }
        let details = serde_json::json!({ "purpose": purpose.as_str() });
        audit::record_capped(
            &self.db,
            &self.audit_throttle,
            &key,
            VIEW_ROWS,
            event.details(details),
        )
        .await;
        Ok(link.subject_id)
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
        let catalogue_id = self.viewed_link(Purpose::Catalogue, token).await?;
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
        let check_id = self.viewed_link(Purpose::Availability, token).await?;
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
