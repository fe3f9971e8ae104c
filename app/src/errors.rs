//! One error type for every failure a caller can see: server functions,
//! server routes, the page guard and the services all answer with an
//! [`AppError`].
//!
//! What the caller sees is the variant's French message and its HTTP status;
//! the cause (a database error, a panic message…) stays on the server, is
//! never serialized, and is logged exactly once by the server's error layer
//! with the request id. This module is compiled for wasm too, so it only uses
//! `std`, `serde` and `thiserror`; the HTTP side is in [`http`] (`ssr` only).
#[cfg(feature = "ssr")]
pub mod http;

use leptos::server_fn;
use serde::{Deserialize, Serialize};
use server_fn::codec::JsonEncoding;
use server_fn::error::{FromServerFnError, ServerFnErrorErr};
use std::sync::Arc;

/// Why a request failed, in terms its caller may see.
///
/// The messages never say more than the caller is entitled to know (no "this
/// e-mail does not exist", no "this link was revoked" vs "expired").
#[derive(Clone, Debug, thiserror::Error, Serialize, Deserialize)]
#[serde(into = "Wire", try_from = "Wire")]
pub enum AppError {
    /// 400: the request cannot be read (malformed body, missing argument).
    #[error("{0}")]
    BadRequest(String),
    /// 401: nobody is signed in.
    #[error("Connectez-vous pour continuer.")]
    SignInRequired,
    /// 401: the sign-in form's e-mail and password do not match an active
    /// account (which of the two is wrong is never said).
    #[error("E-mail ou mot de passe incorrect.")]
    WrongCredentials,
    /// 403: signed in, but the role does not allow it.
    #[error("Cette action est réservée aux administrateurs.")]
    Forbidden,
    /// 403: a state-changing request that does not come from our pages.
    #[error("Requête refusée : elle ne vient pas d'une page de Maxy.")]
    CrossSite,
    /// 404: no such page or object.
    #[error("Cette page n'existe pas.")]
    NotFound,
    /// 404: a magic link that is unknown, expired, revoked, tampered with or
    /// for another purpose: all look the same from outside.
    #[error("Ce lien n'est pas valide ou a expiré. Demandez un nouveau lien à l'équipe Reciprok.")]
    InvalidLink,
    /// 409: the action conflicts with the object's state (already answered…).
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is larger than this route accepts.
    #[error("La requête est trop volumineuse.")]
    PayloadTooLarge,
    /// 422: well-formed but invalid input; the message says what to fix.
    #[error("{0}")]
    Invalid(String),
    /// 429: too many attempts from this address or for this account.
    #[error("Trop de tentatives. Réessayez dans une minute.")]
    TooManyRequests,
    /// 503: a dependency (the database) does not answer; retrying may work.
    #[error("Le service est momentanément indisponible. Réessayez dans un instant.")]
    Unavailable { cause: Cause },
    /// 500: anything else. The one generic wording of the application.
    #[error("Une erreur est survenue. Réessayez dans un instant.")]
    Internal { cause: Cause },
}

/// What really went wrong: kept on the server for the log, never sent.
#[derive(Clone, Default)]
pub struct Cause(Option<Arc<dyn std::error::Error + Send + Sync>>);

impl std::fmt::Debug for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(cause) => write!(f, "{cause}"),
            None => f.write_str("-"),
        }
    }
}

impl AppError {
    /// A failure on our side; `cause` is logged, never shown.
    pub fn internal(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        AppError::Internal {
            cause: Cause(Some(Arc::from(cause.into()))),
        }
        .noted()
    }

    /// A dependency that does not answer; `cause` is logged, never shown.
    pub fn unavailable(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        AppError::Unavailable {
            cause: Cause(Some(Arc::from(cause.into()))),
        }
        .noted()
    }

    /// Inside a request, hands the error to the logging layer as soon as it
    /// exists: a page that shows it inline (or drops it) during server
    /// rendering never encodes it, and its cause must not be lost.
    fn noted(self) -> Self {
        #[cfg(feature = "ssr")]
        http::note(&self);
        self
    }

    /// The generic request-could-not-be-read refusal.
    pub fn malformed() -> Self {
        AppError::BadRequest("La requête est mal formée.".into())
    }

    /// The HTTP status of this error.
    pub fn status_code(&self) -> u16 {
        match self {
            AppError::BadRequest(_) => 400,
            AppError::SignInRequired | AppError::WrongCredentials => 401,
            AppError::Forbidden | AppError::CrossSite => 403,
            AppError::NotFound | AppError::InvalidLink => 404,
            AppError::Conflict(_) => 409,
            AppError::PayloadTooLarge => 413,
            AppError::Invalid(_) => 422,
            AppError::TooManyRequests => 429,
            AppError::Unavailable { .. } => 503,
            AppError::Internal { .. } => 500,
        }
    }

    /// A stable, English name for logs and tests.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::SignInRequired => "sign_in_required",
            AppError::WrongCredentials => "wrong_credentials",
            AppError::Forbidden => "forbidden",
            AppError::CrossSite => "cross_site",
            AppError::NotFound => "not_found",
            AppError::InvalidLink => "invalid_link",
            AppError::Conflict(_) => "conflict",
            AppError::PayloadTooLarge => "payload_too_large",
            AppError::Invalid(_) => "invalid",
            AppError::TooManyRequests => "too_many_requests",
            AppError::Unavailable { .. } => "unavailable",
            AppError::Internal { .. } => "internal",
        }
    }

    /// The cause behind a 500 or a 503, for the server's log.
    pub fn cause(&self) -> Option<&(dyn std::error::Error + Send + Sync)> {
        match self {
            AppError::Unavailable { cause } | AppError::Internal { cause } => cause.0.as_deref(),
            _ => None,
        }
    }
}

/// The one JSON shape of an error, for every client:
/// `{"error": "<code>", "message": "<French message>"}`. The cause has no
/// field: it cannot be sent, even by mistake.
#[derive(Serialize, Deserialize)]
struct Wire {
    error: String,
    message: String,
}

impl From<AppError> for Wire {
    fn from(error: AppError) -> Wire {
        Wire {
            error: error.code().to_string(),
            message: error.to_string(),
        }
    }
}

impl TryFrom<Wire> for AppError {
    type Error = String;

    fn try_from(wire: Wire) -> Result<AppError, String> {
        let Wire { error, message } = wire;
        Ok(match error.as_str() {
            "bad_request" => AppError::BadRequest(message),
            "sign_in_required" => AppError::SignInRequired,
            "wrong_credentials" => AppError::WrongCredentials,
            "forbidden" => AppError::Forbidden,
            "cross_site" => AppError::CrossSite,
            "not_found" => AppError::NotFound,
            "invalid_link" => AppError::InvalidLink,
            "conflict" => AppError::Conflict(message),
            "payload_too_large" => AppError::PayloadTooLarge,
            "invalid" => AppError::Invalid(message),
            "too_many_requests" => AppError::TooManyRequests,
            "unavailable" => AppError::Unavailable {
                cause: Cause::default(),
            },
            "internal" => AppError::Internal {
                cause: Cause::default(),
            },
            other => return Err(format!("unknown error code {other}")),
        })
    }
}

impl PartialEq for AppError {
    /// Same variant and same message (causes are not compared).
    fn eq(&self, other: &Self) -> bool {
        self.code() == other.code() && self.to_string() == other.to_string()
    }
}

/// How server functions carry an `AppError`: JSON on the wire (variant and
/// message, never the cause). On the server, encoding it is also the moment
/// the response gets the error's status (see [`http::report`]): every server
/// function's error crosses here, so none can forget it.
impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            // Arguments that do not decode: the caller's mistake, a 400.
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::MissingArg(_) => AppError::malformed(),
            // On the server, reading the body failed: too large, or cut short.
            #[cfg(feature = "ssr")]
            ServerFnErrorErr::Deserialization(detail) => {
                if detail.contains("length limit exceeded") {
                    AppError::PayloadTooLarge
                } else {
                    AppError::malformed()
                }
            }
            // In the browser: the server could not be reached.
            #[cfg(not(feature = "ssr"))]
            ServerFnErrorErr::Request(detail) => AppError::unavailable(detail),
            other => AppError::internal(other.to_string()),
        }
    }

    #[cfg(feature = "ssr")]
    fn ser(&self) -> server_fn::Bytes {
        http::report(self);
        <JsonEncoding as server_fn::Encodes<Self>>::encode(self).unwrap_or_default()
    }
}
