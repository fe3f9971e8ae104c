//! The admin playbook console's data: the [`PlaybookConsole`] service the
//! server implements, and its server functions. Every function is for
//! admins only ([`require_admin`](crate::auth::access::require_admin)
//! first); every change goes through the server's playbook modules, which
//! audit it. A change answers with a redirect to the page that shows its
//! result (`?fait=…`), so the forms work the same without JavaScript: the
//! browser posts, follows the 303, and the page reads the outcome from its
//! address; a refusal comes back as the form's error (see
//! [`crate::pages::FormError`]).
mod views;

pub use views::*;

use crate::errors::AppError;
use leptos::prelude::*;

/// The console's service (implemented by the server). `by` is the admin's
/// user id, recorded in the audit log and the playbook's history.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait PlaybookConsole: Send + Sync {
    async fn playbooks(&self) -> Result<Vec<PlaybookRow>, AppError>;
    async fn playbook(&self, name: String) -> Result<PlaybookDetail, AppError>;
    /// Saves a YAML definition (a new playbook starts in observe); the
    /// saved playbook's name. Invalid YAML: `Invalid` with the line and the
    /// field, and nothing changes.
    async fn save(&self, by: i64, yaml: String) -> Result<String, AppError>;
    async fn set_status(&self, by: i64, name: String, status: String) -> Result<(), AppError>;
    async fn stations(&self) -> Result<Vec<StationView>, AppError>;
    /// The numbers as the form sent them (`0.85` or `0,85`).
    async fn update_station(
        &self,
        by: i64,
        name: String,
        enforce: String,
        suggest: String,
        margin: String,
        max_mode: String,
    ) -> Result<(), AppError>;
    async fn decisions(&self, filters: DecisionFilters) -> Result<DecisionPage, AppError>;
    async fn motifs(&self) -> Result<MotifsView, AppError>;
    /// Runs the week's miner now; how many patterns it found.
    async fn mine_now(&self, by: i64) -> Result<usize, AppError>;
    /// Accepts a suggestion with its (possibly edited) YAML: the new
    /// playbook's name, in observe.
    async fn accept(&self, by: i64, id: i64, yaml: String) -> Result<String, AppError>;
    async fn edit_draft(&self, by: i64, id: i64, yaml: String) -> Result<(), AppError>;
    async fn dismiss(&self, by: i64, id: i64) -> Result<(), AppError>;
    /// Writes nothing.
    async fn simulate(&self, input: SimulationInput) -> Result<SimulationView, AppError>;
}

#[cfg(feature = "ssr")]
fn console() -> Result<std::sync::Arc<dyn PlaybookConsole>, AppError> {
    crate::services::service::<dyn PlaybookConsole>()
}

/// An admin, on a POST from our pages (GET never writes).
#[cfg(feature = "ssr")]
fn admin_writing() -> Result<crate::auth::SessionUser, AppError> {
    let admin = crate::auth::access::require_admin()?;
    crate::auth::access::require_post()?;
    Ok(admin)
}

/// Sends the browser to `url` after a change: a 303 See Other for a plain
/// form post (leptos_axum would say 302, which some browsers re-post), the
/// redirect header the page follows with JavaScript.
#[cfg(feature = "ssr")]
fn see_other(url: &str) {
    leptos_axum::redirect(url);
    let plain_form = use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    });
    if plain_form {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::SEE_OTHER);
        }
    }
}

/// A playbook's page, with the outcome `done` to show.
pub fn playbook_url(name: &str, done: &str) -> String {
    let mut url = format!("/console/playbooks?nom={}", encode(name));
    if !done.is_empty() {
        url.push_str("&fait=");
        url.push_str(&encode(done));
    }
    url
}

/// Percent-encodes a query value (names are slugs, but nothing is assumed).
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[server(endpoint = "console/playbooks")]
pub async fn list_playbooks() -> Result<Vec<PlaybookRow>, AppError> {
    crate::auth::access::require_admin()?;
    console()?.playbooks().await
}

#[server(endpoint = "console/playbook")]
pub async fn get_playbook(name: String) -> Result<PlaybookDetail, AppError> {
    crate::auth::access::require_admin()?;
    console()?.playbook(name).await
}

/// « Nouveau playbook » and « Enregistrer » of a playbook's page: both save
/// a YAML definition; then its page.
#[server(endpoint = "console/playbook/save")]
pub async fn save_playbook(yaml: String) -> Result<String, AppError> {
    let admin = admin_writing()?;
    let name = console()?.save(admin.id, yaml).await?;
    see_other(&playbook_url(&name, "enregistre"));
    Ok(name)
}

#[server(endpoint = "console/playbook/status")]
pub async fn set_playbook_status(name: String, status: String) -> Result<(), AppError> {
    let admin = admin_writing()?;
    console()?
        .set_status(admin.id, name.clone(), status)
        .await?;
    see_other(&playbook_url(&name, "statut"));
    Ok(())
}

#[server(endpoint = "console/stations")]
pub async fn list_stations() -> Result<Vec<StationView>, AppError> {
    crate::auth::access::require_admin()?;
    console()?.stations().await
}

#[server(endpoint = "console/station/save")]
pub async fn update_station(
    name: String,
    enforce: String,
    suggest: String,
    margin: String,
    max_mode: String,
) -> Result<(), AppError> {
    let admin = admin_writing()?;
    console()?
        .update_station(admin.id, name.clone(), enforce, suggest, margin, max_mode)
        .await?;
    see_other("/console/stations?fait=reglages");
    Ok(())
}

#[server(endpoint = "console/decisions")]
pub async fn list_decisions(
    #[server(default)] filters: DecisionFilters,
) -> Result<DecisionPage, AppError> {
    crate::auth::access::require_admin()?;
    console()?.decisions(filters).await
}

#[server(endpoint = "console/motifs")]
pub async fn week_motifs() -> Result<MotifsView, AppError> {
    crate::auth::access::require_admin()?;
    console()?.motifs().await
}

/// « Analyser la semaine maintenant ».
#[server(endpoint = "console/motifs/mine")]
pub async fn mine_week() -> Result<usize, AppError> {
    let admin = admin_writing()?;
    let found = console()?.mine_now(admin.id).await?;
    see_other(&format!("/console/motifs?fait=analyse-{found}"));
    Ok(found)
}

/// A suggestion's form: its YAML (edited or not) and the button pressed.
/// « Accepter » (`decision=accepter`): the suggestion becomes a playbook in
/// observe; then the list, where it shows « En observation ». « Enregistrer
/// la modification » (`decision=enregistrer`): the draft is kept, edited.
#[server(endpoint = "console/suggestion/review")]
pub async fn review_suggestion(id: i64, yaml: String, decision: String) -> Result<(), AppError> {
    let admin = admin_writing()?;
    match decision.as_str() {
        "accepter" => {
            let name = console()?.accept(admin.id, id, yaml).await?;
            see_other(&format!(
                "/console/playbooks?fait=accepte-{}",
                encode(&name)
            ));
        }
        "enregistrer" => {
            console()?.edit_draft(admin.id, id, yaml).await?;
            see_other("/console/motifs?fait=brouillon");
        }
        _ => {
            return Err(AppError::BadRequest(
                "Choisissez « Accepter » ou « Enregistrer la modification ».".into(),
            ))
        }
    }
    Ok(())
}

#[server(endpoint = "console/suggestion/dismiss")]
pub async fn dismiss_suggestion(id: i64) -> Result<(), AppError> {
    let admin = admin_writing()?;
    console()?.dismiss(admin.id, id).await?;
    see_other("/console/motifs?fait=ecarte");
    Ok(())
}

/// The simulator (writes nothing; its form is a GET, so its answer has an
/// address). A page opened from another site does not run it: a link
/// elsewhere must not spend the embedding service in an admin's name.
#[server(endpoint = "console/simulate")]
pub async fn simulate(
    #[server(default)] input: SimulationInput,
) -> Result<SimulationView, AppError> {
    crate::auth::access::require_admin()?;
    if crate::auth::access::is_cross_site_navigation() {
        return Err(AppError::Conflict(
            "Cette simulation vient d'un lien extérieur : relancez-la depuis le formulaire.".into(),
        ));
    }
    console()?.simulate(input).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_playbook_address_is_encoded() {
        assert_eq!(
            playbook_url("group-lunch", "enregistre"),
            "/console/playbooks?nom=group-lunch&fait=enregistre"
        );
        assert_eq!(
            playbook_url("a b&c", ""),
            "/console/playbooks?nom=a%20b%26c"
        );
    }
}
