//! Accounts and roles from the console (admins only): list, create, change
//! a role, disable or enable, reset a password, end every session. The
//! server's account service does the work and audits it — the same one the
//! command line uses; here each server function authorizes its caller (an
//! admin, on a POST from our pages) and hands over the admin's id.
//!
//! Posted without JavaScript, a change answers with a redirect to
//! `/console/comptes?fait=…`; a refusal comes back as the form's error.
//! A generated password is the one thing an address cannot carry: it comes
//! back in the answer, shown once by the page (with JavaScript), so without
//! JavaScript the admin types the temporary password instead.
use crate::auth::Role;
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One account as the console lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub role: Role,
    /// Labels used by playbook eligibility, as typed.
    pub profiles: Vec<String>,
    pub active: bool,
    /// Paris time of the last sign-in, « 06/12/2026 14:05 ».
    pub last_sign_in: Option<String>,
    /// Open sessions right now.
    pub sessions: i64,
    /// The admin looking at the list.
    pub is_me: bool,
}

/// A role in words.
pub fn role_label(role: Role) -> &'static str {
    match role {
        Role::Team => "Équipe",
        Role::Admin => "Administrateur",
    }
}

/// The accounts service (implemented by the server). `by` is the admin
/// acting, recorded in the audit log; the service refuses to disable or
/// demote its caller and the last active admin.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait Accounts: Send + Sync {
    async fn list(&self, by: i64) -> Result<Vec<AccountRow>, AppError>;
    /// A new account; `password` empty: one is generated and returned.
    async fn create(
        &self,
        by: i64,
        email: String,
        name: String,
        role: String,
        password: String,
    ) -> Result<Option<String>, AppError>;
    async fn set_role(&self, by: i64, id: i64, role: String) -> Result<(), AppError>;
    /// Disabling also ends every session of the account.
    async fn set_active(&self, by: i64, id: i64, active: bool) -> Result<(), AppError>;
    /// A fresh password (returned once); every session of the account ends.
    async fn reset_password(&self, by: i64, id: i64) -> Result<String, AppError>;
    /// How many sessions ended.
    async fn end_sessions(&self, by: i64, id: i64) -> Result<u64, AppError>;
}

#[cfg(feature = "ssr")]
fn accounts() -> Result<std::sync::Arc<dyn Accounts>, AppError> {
    crate::services::service::<dyn Accounts>()
}

/// An admin, on a POST from our pages (GET never writes).
#[cfg(feature = "ssr")]
fn admin_writing() -> Result<crate::auth::SessionUser, AppError> {
    let admin = crate::auth::access::require_admin()?;
    crate::auth::access::require_post()?;
    Ok(admin)
}

/// Whether the browser posted a plain form (no JavaScript): it follows the
/// redirect and never sees the answer.
#[cfg(feature = "ssr")]
fn plain_form() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    })
}

/// Without JavaScript, the accounts page after a change, saying what was
/// done (a 303, so the browser does not post again). With JavaScript the
/// page stays where it is and shows the answer beside the form.
#[cfg(feature = "ssr")]
fn done(outcome: &str) {
    if plain_form() {
        leptos_axum::redirect(&format!("/console/comptes?fait={outcome}"));
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::SEE_OTHER);
        }
    }
}

/// Every account (admins only).
#[server(endpoint = "admin/accounts")]
pub async fn list_accounts() -> Result<Vec<AccountRow>, AppError> {
    let admin = crate::auth::access::require_admin()?;
    accounts()?.list(admin.id).await
}

/// « Créer le compte »: the generated password, if one was generated.
#[server(endpoint = "admin/account/create")]
pub async fn create_account(
    email: String,
    name: String,
    role: String,
    #[server(default)] password: String,
) -> Result<Option<String>, AppError> {
    let admin = admin_writing()?;
    if password.is_empty() && plain_form() {
        return Err(AppError::Invalid(
            "Saisissez le mot de passe provisoire : sans JavaScript, un mot de passe généré ne pourrait pas vous être montré."
                .into(),
        ));
    }
    let generated = accounts()?
        .create(admin.id, email, name, role, password)
        .await?;
    done("cree");
    Ok(generated)
}

#[server(endpoint = "admin/account/role")]
pub async fn set_account_role(id: i64, role: String) -> Result<(), AppError> {
    let admin = admin_writing()?;
    accounts()?.set_role(admin.id, id, role).await?;
    done("role");
    Ok(())
}

/// « Désactiver » (`active=false`) or « Réactiver » (`active=true`).
#[server(endpoint = "admin/account/active")]
pub async fn set_account_active(id: i64, active: bool) -> Result<(), AppError> {
    let admin = admin_writing()?;
    accounts()?.set_active(admin.id, id, active).await?;
    done(if active { "reactive" } else { "desactive" });
    Ok(())
}

/// « Réinitialiser le mot de passe »: the new password, shown once.
#[server(endpoint = "admin/account/password")]
pub async fn reset_account_password(id: i64) -> Result<String, AppError> {
    let admin = admin_writing()?;
    if plain_form() {
        return Err(AppError::Invalid(
            "La réinitialisation affiche le nouveau mot de passe une seule fois : activez JavaScript pour la faire depuis cette page."
                .into(),
        ));
    }
    let password = accounts()?.reset_password(admin.id, id).await?;
    done("mot-de-passe");
    Ok(password)
}

/// « Fermer les sessions »: signs the account out everywhere.
#[server(endpoint = "admin/account/sessions")]
pub async fn end_account_sessions(id: i64) -> Result<u64, AppError> {
    let admin = admin_writing()?;
    let ended = accounts()?.end_sessions(admin.id, id).await?;
    done("sessions");
    Ok(ended)
}

/// The sentence for the outcome key `fait` of the accounts page.
pub fn outcome_message(fait: &str) -> Option<&'static str> {
    Some(match fait {
        "cree" => "Compte créé.",
        "role" => "Rôle modifié.",
        "desactive" => "Compte désactivé : ses sessions sont fermées.",
        "reactive" => "Compte réactivé.",
        "mot-de-passe" => "Mot de passe réinitialisé : les sessions du compte sont fermées.",
        "sessions" => "Sessions fermées.",
        _ => return None,
    })
}
