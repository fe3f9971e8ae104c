//! What magic-link holders read and write (`app::links::LinkViews`): an
//! organizer's catalogue, a venue's availability check and its answer.
//! Every view through a link is audited (`magic_link.used`, capped), and so
//! is every answer an organizer leaves (comments on the catalogue and on
//! each venue; favourites are counted on the pick itself).
pub mod page_changes;
pub mod pick_comments;

use crate::audit::{self, Actor, AuditThrottle, Cap, Event};
use crate::auth::magic_links::{self, uses::LinkUses, Purpose};
use crate::auth::tokens::SigningKey;
use crate::catalogue_builder::{internal_signals, pick_reason};
use crate::db::app_error;
use crate::db::availability_checks::{self, Answer};
use crate::db::catalogue_feedback;
use crate::db::links_view::{self, EventRow};
use crate::db::magic_links::LiveLink;
use app::auth::ClientAddr;
use app::catalogue_builder::RoomChoice;
use app::errors::AppError;
use app::links::{
    AvailabilityAnswer, AvailabilityChoice, CataloguePick, LinkViews, OrganizerCatalogue,
    PinnedRoom, TeamContact, VenueAvailability, MAX_COMMENT_CHARS,
};
use chrono::{DateTime, Utc};
use page_changes::PageChanges;
use sqlx::PgPool;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

pub struct LinkViewsService {
    pub db: PgPool,
    /// The replica's pool (the primary's without one): where the
    /// organizer's page reads, unless its visitor has just written
    /// ([`ReadFrom`]).
    pub db_read: PgPool,
    /// `db_read` is a replica (not the primary's pool again).
    pub has_replica: bool,
    pub key: SigningKey,
    pub audit_throttle: Arc<AuditThrottle>,
    /// Counts every use of a link (written once a second).
    pub uses: Arc<LinkUses>,
    /// Whether the organizer pages this process rendered are still current.
    pub page_changes: Arc<PageChanges>,
}

/// An organizer's catalogue read through its link for one opening.
pub struct OpenedCatalogue {
    pub catalogue: OrganizerCatalogue,
    /// The link opened (its use already counted).
    pub link_id: i64,
    /// When this reading stops being true without any write: the link
    /// expires, or the team member named as contact has their last live
    /// link expire (`open_until`).
    pub true_until: DateTime<Utc>,
    /// Read on a replica, which may not have replayed the latest writes yet.
    pub from_replica: bool,
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

/// A catalogue the HTTP layer already read for this request, through this
/// token (the link verified, its use counted and audited): the page renders
/// exactly it, without a second reading. Only server code can put it in a
/// request's extensions.
#[derive(Clone, Debug)]
pub struct PreloadedCatalogue {
    pub token: String,
    pub catalogue: OrganizerCatalogue,
}

/// The catalogue preloaded for `token` in the request being rendered.
fn preloaded(token: &str) -> Option<OrganizerCatalogue> {
    leptos::prelude::use_context::<axum::http::request::Parts>().and_then(|parts| {
        parts
            .extensions
            .get::<PreloadedCatalogue>()
            .filter(|p| p.token == token)
            .map(|p| p.catalogue.clone())
    })
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

/// The reason under a pick as its organizer reads it. Reasons stored before
/// internal signals had their own note (some on catalogues already sent)
/// still hold them: they are never shown. An unedited reason that names
/// another room or layout than the pin is read as the pin's own sentence.
fn organizer_reason(p: &links_view::PickRow, participants: Option<i32>) -> String {
    let text = internal_signals::for_organizer(&p.explanation);
    let pinned = match (&p.room, &p.room_configuration, p.room_capacity) {
        (Some(name), Some(configuration), Some(capacity)) => Some(RoomChoice {
            id: 0,
            name: name.clone(),
            configuration: configuration.clone(),
            capacity,
        }),
        _ => None,
    };
    match pinned {
        Some(room)
            if !p.reason_edited && pick_reason::contradicts(&text, &room, &[], participants) =>
        {
            pick_reason::generate(&room, participants, &p.tier)
        }
        _ => text,
    }
}

/// Where an organizer page's reads go: the replica, or the primary for a
/// visitor who has just written through their link and must see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadFrom {
    Primary,
    Replica,
}

impl LinkViewsService {
    fn reads(&self, from: ReadFrom) -> &PgPool {
        match from {
            ReadFrom::Primary => &self.db,
            ReadFrom::Replica => &self.db_read,
        }
    }

    async fn link(&self, purpose: Purpose, token: &str) -> Result<i64, AppError> {
        match magic_links::verify(&self.db, &self.key, purpose, token)
            .await
            .map_err(app_error)?
        {
            Some(link) => {
                self.uses.record(link.id);
                Ok(link.subject_id)
            }
            None => Err(AppError::InvalidLink),
        }
    }

    /// [`Self::link`] for a view of what the link opens, by a client at
    /// `ip`, the link read `from` there: the use is audited (on the primary).
    async fn viewed_link(
        &self,
        purpose: Purpose,
        token: &str,
        ip: Option<IpAddr>,
        from: ReadFrom,
    ) -> Result<LiveLink, AppError> {
        let link = magic_links::verify(self.reads(from), &self.key, purpose, token)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
        self.count_view(purpose, link.id, ip).await;
        Ok(link)
    }

    /// One more view through link `link_id` by a client at `ip`: counted,
    /// and audited within [`VIEW_ROWS`].
    pub async fn count_view(&self, purpose: Purpose, link_id: i64, ip: Option<IpAddr>) {
        self.uses.record(link_id);
        let block = ip.map(crate::auth::rate_limit::address_block);
        let key = format!(
            "{}/{}",
            link_id,
            block.map(|b| b.to_string()).unwrap_or_default()
        );
        let mut event = Event::new(Actor::MagicLink, "magic_link.used").on("magic_link", link_id);
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
    }

    /// The catalogue as its organizer sees it; a training or archived
    /// catalogue reads as a bad link.
    async fn catalogue_view(
        &self,
        catalogue_id: i64,
        from: ReadFrom,
    ) -> Result<(OrganizerCatalogue, Option<DateTime<Utc>>), AppError> {
        let links_view::CatalogueView {
            catalogue: row,
            contact,
            picks,
        } = links_view::catalogue_with_picks(self.reads(from), catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
        let participants = row.event.participants;
        let open_until = contact.open_until;
        let catalogue = OrganizerCatalogue {
            contact: match (contact.name, contact.email) {
                (Some(name), Some(email)) => Some(TeamContact { name, email }),
                _ => None,
            },
            open_until: contact.open_until.map(app::fr::paris_date),
            event_dates: dates(&row.event),
            request_reference: row.event.reference,
            event_summary: row.event.description,
            participants: row.event.participants.unwrap_or_default(),
            configurations: row.event.configurations,
            sent_on: row.sent_at.map(app::fr::paris_date),
            comment: row.comment,
            picks: picks
                .into_iter()
                .map(|p| (organizer_reason(&p, participants), p))
                .map(|(explanation, p)| CataloguePick {
                    comment: p.organizer_comment,
                    id: p.id,
                    tier: p.tier,
                    name: p.name,
                    address: p.address.filter(|a| !a.trim().is_empty()),
                    city: p.city.unwrap_or_default(),
                    postal_code: p.postal_code.unwrap_or_default(),
                    explanation: Some(explanation).filter(|e| !e.is_empty()),
                    room: p.room.map(|name| PinnedRoom {
                        name,
                        configuration: p.room_configuration,
                        capacity: p.room_capacity,
                    }),
                    favorite: p.organizer_favorite,
                })
                .collect(),
        };
        Ok((catalogue, open_until))
    }

    /// The catalogue behind a link the organizer acts through (not a view:
    /// the use is counted, the view that follows the form is audited).
    async fn acting_catalogue(&self, token: &str) -> Result<i64, AppError> {
        let catalogue_id = self.link(Purpose::Catalogue, token).await?;
        // An archived or training catalogue takes no answers either.
        links_view::catalogue(&self.db, catalogue_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::InvalidLink)?;
        Ok(catalogue_id)
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
            conditions: row.conditions,
            answer_until: app::fr::paris_date(row.expires_at),
        })
    }
}

impl LinkViewsService {
    /// The organizer's view of the catalogue behind `token`, opened by a
    /// client at `ip` (the use counted and audited), read `from` there. A
    /// link or catalogue the replica has not seen yet reads as a bad link:
    /// the page then asks again through the primary.
    pub async fn organizer_catalogue_for(
        &self,
        token: &str,
        ip: Option<IpAddr>,
        from: ReadFrom,
    ) -> Result<OpenedCatalogue, AppError> {
        let link = self
            .viewed_link(Purpose::Catalogue, token, ip, from)
            .await?;
        let (catalogue, open_until) = self.catalogue_view(link.subject_id, from).await?;
        Ok(OpenedCatalogue {
            catalogue,
            link_id: link.id,
            true_until: open_until.map_or(link.expires_at, |until| until.min(link.expires_at)),
            from_replica: from == ReadFrom::Replica && self.has_replica,
        })
    }
}

#[async_trait::async_trait]
impl LinkViews for LinkViewsService {
    async fn organizer_catalogue(&self, token: &str) -> Result<OrganizerCatalogue, AppError> {
        if let Some(catalogue) = preloaded(token) {
            return Ok(catalogue);
        }
        self.organizer_catalogue_for(token, client_addr(), ReadFrom::Primary)
            .await
            .map(|opened| opened.catalogue)
    }

    async fn venue_availability(&self, token: &str) -> Result<VenueAvailability, AppError> {
        let link = self
            .viewed_link(
                Purpose::Availability,
                token,
                client_addr(),
                ReadFrom::Primary,
            )
            .await?;
        self.availability_view(link.subject_id).await
    }

    async fn answer_availability(
        &self,
        token: &str,
        answer: AvailabilityAnswer,
    ) -> Result<VenueAvailability, AppError> {
        let check_id = self.link(Purpose::Availability, token).await?;
        let comment = capped_text(&answer.comment, "Le commentaire")?;
        let conditions = capped_text(&answer.conditions, "Les conditions")?;
        let conditions = match answer.choice {
            AvailabilityChoice::WithConditions if conditions.is_none() => {
                return Err(AppError::Invalid(
                    "Précisez vos conditions pour répondre « disponible sous conditions ».".into(),
                ))
            }
            AvailabilityChoice::WithConditions => conditions,
            // Conditions typed, then another answer chosen: they do not apply.
            AvailabilityChoice::Available | AvailabilityChoice::Unavailable => None,
        };
        let available = answer.choice != AvailabilityChoice::Unavailable;
        let stored = Answer {
            available,
            conditions,
            comment,
        };
        if !availability_checks::answer(&self.db, check_id, &stored)
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
            event.details(serde_json::json!({
                "available": available,
                "conditions": stored.conditions.is_some(),
            })),
        )
        .await;
        self.availability_view(check_id).await
    }

    async fn set_organizer_favorite(
        &self,
        token: &str,
        pick_id: i64,
        favorite: bool,
    ) -> Result<OrganizerCatalogue, AppError> {
        let catalogue_id = self.acting_catalogue(token).await?;
        // A pick of another catalogue: this link grants nothing on it.
        if !catalogue_feedback::set_favorite(&self.db, catalogue_id, pick_id, favorite)
            .await
            .map_err(app_error)?
        {
            return Err(AppError::InvalidLink);
        }
        self.catalogue_view(catalogue_id, ReadFrom::Primary)
            .await
            .map(|(catalogue, _)| catalogue)
    }

    async fn save_organizer_comment(
        &self,
        token: &str,
        comment: &str,
    ) -> Result<OrganizerCatalogue, AppError> {
        let catalogue_id = self.acting_catalogue(token).await?;
        let comment = capped_text(comment, "Le commentaire")?;
        catalogue_feedback::save_comment(&self.db, catalogue_id, comment)
            .await
            .map_err(app_error)?;
        let event = Event::new(Actor::MagicLink, "catalogue.organizer_comment")
            .on("catalogue", catalogue_id)
            .details(serde_json::json!({ "chars": comment.map_or(0, |c| c.chars().count()) }));
        audit::record_capped(
            &self.db,
            &self.audit_throttle,
            &format!("comment/{catalogue_id}"),
            VIEW_ROWS,
            event,
        )
        .await;
        self.catalogue_view(catalogue_id, ReadFrom::Primary)
            .await
            .map(|(catalogue, _)| catalogue)
    }

    async fn save_organizer_pick_comment(
        &self,
        token: &str,
        pick_id: i64,
        comment: &str,
    ) -> Result<OrganizerCatalogue, AppError> {
        let catalogue_id = self.acting_catalogue(token).await?;
        let comment = capped_text(comment, "Le commentaire")?;
        if !pick_comments::save(&self.db, catalogue_id, pick_id, comment)
            .await
            .map_err(app_error)?
        {
            return Err(AppError::InvalidLink);
        }
        let event = Event::new(Actor::MagicLink, "catalogue.organizer_pick_comment")
            .on("catalogue", catalogue_id)
            .details(serde_json::json!({
                "pick_id": pick_id,
                "chars": comment.map_or(0, |c| c.chars().count()),
            }));
        audit::record_capped(
            &self.db,
            &self.audit_throttle,
            &format!("pick-comment/{pick_id}"),
            VIEW_ROWS,
            event,
        )
        .await;
        self.catalogue_view(catalogue_id, ReadFrom::Primary)
            .await
            .map(|(catalogue, _)| catalogue)
    }
}

/// A free text of a link holder, trimmed: `None` when blank, refused past
/// [`MAX_COMMENT_CHARS`] (`what` names it in the message).
fn capped_text<'a>(text: &'a str, what: &str) -> Result<Option<&'a str>, AppError> {
    let text = text.trim();
    if text.chars().count() > MAX_COMMENT_CHARS {
        return Err(AppError::Invalid(format!(
            "{what} dépasse {MAX_COMMENT_CHARS} caractères."
        )));
    }
    Ok(Some(text).filter(|t| !t.is_empty()))
}
