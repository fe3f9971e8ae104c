//! The audit journal as the console pages through it: filters (who, what,
//! when, words) carried by the page's address, 50 rows a page, each row in
//! French with the object it is about named in words and linked to its page.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Rows on one page of the journal.
pub const JOURNAL_PAGE_SIZE: u32 = 50;

/// The journal's filters as its address carries them (`/console?quoi=…`);
/// empty means all (a filter left out too). `page` starts at 1.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JournalFilters {
    /// A view by kind of actor ([`super::AuditKind::param`]).
    pub journal: String,
    /// One team member (their account number), or empty.
    pub member: String,
    /// One of [`FAMILIES`]' keys, or empty.
    pub family: String,
    /// One of [`PERIODS`]' keys, or empty.
    pub period: String,
    /// First and last day shown (`AAAA-MM-JJ`, Paris days), or empty.
    pub from: String,
    pub to: String,
    /// Words searched in the actor's name, the action, the object, the details.
    pub text: String,
    pub page: u32,
}

impl JournalFilters {
    /// The journal's address with these filters at `page`.
    pub fn address(&self, page: u32) -> String {
        let mut url = String::from("/console?");
        for (key, value) in [
            ("journal", &self.journal),
            ("membre", &self.member),
            ("quoi", &self.family),
            ("periode", &self.period),
            ("du", &self.from),
            ("au", &self.to),
            ("q", &self.text),
        ] {
            if !value.trim().is_empty() {
                url.push_str(&format!(
                    "{key}={}&",
                    crate::playbook_console::encode(value)
                ));
            }
        }
        url.push_str(&format!("page={page}"));
        url
    }
}

/// The families of actions (`quoi=`): key, label, and the areas of the
/// action keys it covers (`auth` for `auth.sign_in`…).
pub const FAMILIES: &[(&str, &str, &[&str])] = &[
    ("connexions", "Connexions", &["auth"]),
    ("comptes", "Comptes et rôles", &["user"]),
    ("propositions", "Propositions de l'assistant", &["approval"]),
    ("demandes", "Demandes", &["request", "search_preferences"]),
    ("catalogues", "Catalogues", &["catalogue"]),
    ("disponibilites", "Disponibilités", &["availability"]),
    ("liens", "Liens d'accès", &["magic_link"]),
    ("memoire", "Mémoire", &["memory"]),
    ("playbooks", "Playbooks", &["playbook", "playbooks"]),
];

/// The periods (`periode=`): key and label.
pub const PERIODS: &[(&str, &str)] = &[
    ("aujourdhui", "Aujourd'hui"),
    ("7j", "7 derniers jours"),
    ("30j", "30 derniers jours"),
];

/// What a row is about, in words, with the page that shows it when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalObject {
    /// « demande D-2026-00042 », « conversation « Séminaire à Lyon » ».
    pub label: String,
    pub href: Option<String>,
}

/// One row of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalRow {
    /// Paris time, « 06/12/2026 14:05 ».
    pub at: String,
    /// A name (« Camille Martin »), or « Système », « Organisateur ou lieu »…
    pub actor: String,
    /// The action's key, for tools and tests (never shown).
    pub action: String,
    /// What a person reads for it (« Connexion »).
    pub action_label: String,
    pub object: Option<JournalObject>,
    /// A flood's excess, in words (« 187 autres échecs de connexion cette minute »).
    pub summary: Option<String>,
}

/// A page of the journal and what its filter form offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalPage {
    pub rows: Vec<JournalRow>,
    pub page: u32,
    pub has_next: bool,
    /// Every account, (number, name), for the « Qui » filter.
    pub members: Vec<(String, String)>,
}

/// One page of the audit journal (admins only).
#[server(endpoint = "admin/journal")]
pub async fn read_journal(
    #[server(default)] filters: JournalFilters,
) -> Result<JournalPage, AppError> {
    crate::auth::access::require_admin()?;
    crate::services::service::<dyn super::AuditLog>()?
        .page(filters)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_keeps_only_the_filters_set() {
        let filters = JournalFilters {
            family: "connexions".into(),
            text: "Camille Martin".into(),
            ..Default::default()
        };
        assert_eq!(
            filters.address(2),
            "/console?quoi=connexions&q=Camille%20Martin&page=2"
        );
        assert_eq!(JournalFilters::default().address(1), "/console?page=1");
    }

    #[test]
    fn every_family_covers_areas_and_reads_in_french() {
        for (key, label, areas) in FAMILIES {
            assert!(!areas.is_empty(), "{key}");
            assert!(!label.contains('_'), "{label}");
        }
    }
}
