//! How server functions reach the services the server implements (hexagonal
//! style: a server function authorizes its caller, then calls one method).
//!
//! Each feature declares its service trait next to its server functions
//! (`links::LinkViews`, `admin::AuditLog`, `venue_search::VenueSearch`), so
//! no hub imports every feature. The server provides them all as context in
//! one place (`server::services::Services`).
use crate::errors::AppError;
use leptos::prelude::use_context;
use std::sync::Arc;

/// The service `S` the server provided for this request.
pub fn service<S: ?Sized + Send + Sync + 'static>() -> Result<Arc<S>, AppError> {
    use_context::<Arc<S>>().ok_or_else(|| {
        AppError::internal(format!(
            "no {} in the context: add it to the server's Services",
            std::any::type_name::<S>()
        ))
    })
}
