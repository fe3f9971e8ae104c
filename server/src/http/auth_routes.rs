//! Sign-in and sign-out: plain form posts, so they work without JavaScript.
//!
//! Browsers get redirects (`/connexion?erreur=…` on failure); clients that
//! ask for JSON get the status code and a JSON message instead.
use super::errors;
use super::extract::TeamUser;
use super::middleware::{client_ip, url_encode};
use super::route_table::RouteTable;
use crate::audit::{self, Actor, Cap, Event};
use crate::auth::email;
use crate::auth::rate_limit::{address_block, sign_in, Throttled, SIGN_IN_FAILURES_PER_BLOCK};
use crate::auth::{password, sessions, tokens};
use crate::state::AppState;
use app::errors::AppError;
use app::routes::is_safe_next;
use axum::body::Body;
use axum::extract::rejection::FormRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Deserialize;
use std::net::IpAddr;
use std::time::Duration;

/// The sign-in form is two short fields: a few kilobytes is plenty, and a
/// larger body is refused (413) before any work.
pub const BODY_LIMIT: usize = 8 * 1024;

pub fn routes() -> RouteTable {
    RouteTable::default()
        .post("/connexion", sign_in)
        .post("/deconnexion", sign_out)
        .post("/deconnexion/partout", sign_out_everywhere)
        .layer(|routes| routes.layer(DefaultBodyLimit::max(BODY_LIMIT)))
}

#[derive(Deserialize)]
pub struct SignInForm {
    email: String,
    password: String,
    #[serde(default)]
    suivant: String,
}

/// Fields longer than this (in bytes) are refused before any work; e-mails
/// are also refused past `email::MAX_CHARS`.
const MAX_FIELD: usize = 512;

/// Audit rows of refused sign-ins per address block: one throttled attempt a
/// minute (the rest are counted in its `suppressed`), and as many failures as
/// the rate limit lets through.
const THROTTLED_ROWS: Cap = Cap::per(1, Duration::from_secs(60));
const FAILED_ROWS: Cap = Cap::per(SIGN_IN_FAILURES_PER_BLOCK, Duration::from_secs(60));

async fn sign_in(State(state): State<AppState>, request: Request<Body>) -> Response {
    let ip = client_ip(&request);
    let headers = request.headers().clone();
    let json = wants_json(&headers);
    let form = match Form::<SignInForm>::from_request(request, &state).await {
        Ok(Form(form)) => form,
        Err(rejection) => return failed(json, unreadable(&rejection)),
    };
    let next = if is_safe_next(&form.suivant) {
        form.suivant.as_str()
    } else {
        "/"
    };
    // PostgreSQL stores no NUL: the account is counted under the e-mail
    // without it (inserting NULs must not open fresh counters), and the
    // attempt is refused below as a failure.
    let email = email::normalize(&form.email.replace('\0', ""));
    let has_nul = [&form.email, &form.password, &form.suivant]
        .iter()
        .any(|field| field.contains('\0'));
    if form.email.len() > MAX_FIELD
        || email.chars().count() > email::MAX_CHARS
        || form.password.len() > MAX_FIELD
    {
        return refuse(json, AppError::WrongCredentials, "identifiants", next);
    }
    // Only failures are counted, and the account's counter only once the
    // address has passed (see `auth::rate_limit`). From here the attempt
    // counts as a failure until it succeeds.
    let admitted = match sign_in::try_sign_in(&state.db, ip, &email).await {
        Ok(admitted) => admitted,
        Err(e) => return failed(json, crate::db::app_error(e)),
    };
    if let Err(why) = admitted {
        let details = match why {
            Throttled::Address => serde_json::json!({ "reason": "address" }),
            Throttled::Account => serde_json::json!({ "reason": "account", "email": email }),
        };
        let event = Event::new(Actor::Anonymous, "auth.sign_in_throttled").from_ip(ip);
        let key = address_block(ip).to_string();
        audit::record_capped(
            &state.db,
            &state.audit_throttle,
            &key,
            THROTTLED_ROWS,
            event.details(details),
        )
        .await;
        return refuse(json, AppError::TooManyRequests, "trop", next);
    }
    if has_nul {
        record_failure(&state, ip, &email, "nul_character").await;
        let error = AppError::BadRequest(super::nul_bytes::MESSAGE.into());
        return refuse(json, error, "caractere", next);
    }

    let found = match crate::db::users::credentials_by_email(&state.db, &email).await {
        Ok(found) => found,
        Err(e) => {
            // Our failure, not the caller's: the attempt is taken back.
            take_back(&state, ip, &email).await;
            return failed(json, crate::db::app_error(e));
        }
    };
    // Verify even when the account is unknown: same work, same answer.
    let stored = found
        .as_ref()
        .filter(|c| !c.disabled)
        .and_then(|c| c.password_hash.clone());
    let valid = password::verify_async(form.password, stored).await;
    let user = match found {
        Some(c) if valid && !c.disabled => c.user,
        _ => {
            record_failure(&state, ip, &email, "credentials").await;
            return refuse(json, AppError::WrongCredentials, "identifiants", next);
        }
    };

    take_back(&state, ip, &email).await;
    // Rotation: whatever session the browser had ends here.
    if let Some(old) = sessions::token_from(&headers, &state.config.auth) {
        let _ = crate::db::sessions::delete(&state.db, &tokens::hash(&old)).await;
    }
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok());
    let token = match sessions::start(&state.db, user.id, &state.config.auth, user_agent).await {
        Ok(token) => token,
        Err(e) => return failed(json, AppError::internal(e)),
    };
    let _ = crate::db::users::record_sign_in(&state.db, user.id).await;
    audit::record(
        &state.db,
        Event::new(Actor::User(user.id), "auth.sign_in")
            .on("user", user.id)
            .from_ip(ip),
    )
    .await;
    tracing::info!(user.id = user.id, "signed in");

    let cookie = sessions::set_cookie(&token, &state.config.auth);
    if json {
        (
            StatusCode::OK,
            [(header::SET_COOKIE, cookie)],
            Json(serde_json::json!({ "redirect": next })),
        )
            .into_response()
    } else {
        ([(header::SET_COOKIE, cookie)], Redirect::to(next)).into_response()
    }
}

/// The failure counted in advance was not one. Should the database refuse
/// that too, the attempt stays counted: one failure too many on the limit,
/// never a sign-in refused for it.
async fn take_back(state: &AppState, ip: IpAddr, email: &str) {
    if let Err(e) = sign_in::sign_in_succeeded(&state.db, ip, email).await {
        tracing::warn!(error = %e, "cannot take back a sign-in attempt counted in advance");
    }
}

/// One failed sign-in in the audit log (capped per address block).
async fn record_failure(state: &AppState, ip: IpAddr, email: &str, reason: &str) {
    let event = Event::new(Actor::Anonymous, "auth.sign_in_failed").from_ip(ip);
    audit::record_capped(
        &state.db,
        &state.audit_throttle,
        &address_block(ip).to_string(),
        FAILED_ROWS,
        event.details(serde_json::json!({ "email": email, "reason": reason })),
    )
    .await;
}

async fn sign_out(State(state): State<AppState>, request: Request<Body>) -> Response {
    let ip = client_ip(&request);
    if let Some(token) = sessions::token_from(request.headers(), &state.config.auth) {
        if let Ok(Some(user_id)) =
            crate::db::sessions::delete(&state.db, &tokens::hash(&token)).await
        {
            audit::record(
                &state.db,
                Event::new(Actor::User(user_id), "auth.sign_out")
                    .on("user", user_id)
                    .from_ip(ip),
            )
            .await;
        }
    }
    signed_out(&state)
}

async fn sign_out_everywhere(
    State(state): State<AppState>,
    TeamUser(user): TeamUser,
    request: Request<Body>,
) -> Response {
    let ip = client_ip(&request);
    match crate::db::sessions::delete_all_for_user(&state.db, user.id).await {
        Ok(ended) => {
            let event = Event::new(Actor::User(user.id), "auth.sign_out_everywhere")
                .on("user", user.id)
                .from_ip(ip);
            audit::record(
                &state.db,
                event.details(serde_json::json!({ "sessions": ended })),
            )
            .await;
            signed_out(&state)
        }
        Err(e) => errors::html_page(crate::db::app_error(e)),
    }
}

fn signed_out(state: &AppState) -> Response {
    let cookie = sessions::clear_cookie(&state.config.auth);
    (
        [(header::SET_COOKIE, cookie)],
        Redirect::to("/connexion?deconnecte=1"),
    )
        .into_response()
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("application/json"))
}

/// A form that cannot be read: too large (413) or malformed (400).
fn unreadable(rejection: &FormRejection) -> AppError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::PayloadTooLarge
    } else {
        AppError::malformed()
    }
}

/// A sign-in that could not be judged (our failure, or a form no page of ours
/// sends): the error itself, as a page or as JSON. Back to the form would
/// read as "wrong password".
fn failed(json: bool, error: AppError) -> Response {
    if json {
        errors::json(error)
    } else {
        errors::html_page(error)
    }
}

/// A refused sign-in: JSON with the status, or back to the form with a code.
fn refuse(json: bool, error: AppError, code: &str, next: &str) -> Response {
    if json {
        return errors::json(error);
    }
    let mut location = format!("/connexion?erreur={code}");
    if next != "/" && !next.is_empty() {
        location.push_str("&suivant=");
        location.push_str(&url_encode(next));
    }
    let mut response = Redirect::to(&location).into_response();
    // The redirect is the answer, but the refusal is still logged once.
    response.extensions_mut().insert(error);
    response
}
