//! The « Lieux » page (an empty shell until its feature lands).
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};

#[component]
pub fn VenuesPage() -> impl IntoView {
    view! {
        <PageHeader title="Lieux" subtitle="Cherchez parmi les lieux par pool, zone, configuration et jauge." />
        <ComingSoon what="La recherche de lieux arrive bientôt ici." />
    }
}
