//! The « Console » page (an empty shell until its feature lands).
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};

#[component]
pub fn ConsolePage() -> impl IntoView {
    view! {
        <PageHeader title="Console" subtitle="Playbooks, règles d'activation et suggestions (administrateurs)." />
        <ComingSoon what="La console des playbooks arrive bientôt ici." />
    }
}
