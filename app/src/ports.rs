//! The services server functions call, implemented by the server crate and
//! provided as context (hexagonal style: server functions stay thin adapters).
use crate::admin::AuditEvent;
use crate::auth::access::Denied;
use crate::links::{AvailabilityAnswer, OrganizerCatalogue, VenueAvailability};
use crate::venue_search::{PoolOption, SearchForm, SearchResults};
use leptos::prelude::*;
use std::sync::Arc;

/// Why a service call failed, in terms a caller may see.
#[derive(Debug)]
pub enum ServiceError {
    Denied(Denied),
    /// Bad input: the message says what to fix (French, user-safe).
    Invalid(String),
    /// Anything else: logged once on the server, shown as a generic message.
    Internal,
}

impl ServiceError {
    pub fn into_server_error(self) -> ServerFnError {
        let (status, message) = match self {
            ServiceError::Denied(denied) => return denied.into_server_error(),
            ServiceError::Invalid(message) => (http::StatusCode::UNPROCESSABLE_ENTITY, message),
            ServiceError::Internal => (
                http::StatusCode::INTERNAL_SERVER_ERROR,
                "Une erreur est survenue. Réessayez dans un instant.".to_string(),
            ),
        };
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(status);
        }
        ServerFnError::ServerError(message)
    }
}

/// What organizers' and venues' magic links, and the admin console, read and write.
#[async_trait::async_trait]
pub trait Portal: Send + Sync {
    async fn organizer_catalogue(&self, token: &str) -> Result<OrganizerCatalogue, ServiceError>;
    async fn venue_availability(&self, token: &str) -> Result<VenueAvailability, ServiceError>;
    async fn answer_availability(
        &self,
        token: &str,
        answer: AvailabilityAnswer,
    ) -> Result<VenueAvailability, ServiceError>;
    async fn audit_events(&self, limit: u32) -> Result<Vec<AuditEvent>, ServiceError>;
}

/// The portal the server provided for this request.
pub fn portal() -> Result<Arc<dyn Portal>, ServerFnError> {
    use_context::<Arc<dyn Portal>>().ok_or_else(|| ServiceError::Internal.into_server_error())
}

/// The venue search pipeline.
#[async_trait::async_trait]
pub trait VenueSearch: Send + Sync {
    async fn pools(&self) -> Result<Vec<PoolOption>, ServiceError>;
    async fn search(&self, user_id: i64, form: SearchForm) -> Result<SearchResults, ServiceError>;
}

/// The venue search the server provided for this request.
pub fn venue_search() -> Result<Arc<dyn VenueSearch>, ServerFnError> {
    use_context::<Arc<dyn VenueSearch>>().ok_or_else(|| ServiceError::Internal.into_server_error())
}
