//! The « Demandes » page (an empty shell until its feature lands).
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};

#[component]
pub fn RequestsPage() -> impl IntoView {
    view! {
        <PageHeader title="Demandes" subtitle="Les demandes des organisateurs et leurs catalogues." />
        <ComingSoon what="La liste des demandes arrive bientôt ici." />
    }
}
