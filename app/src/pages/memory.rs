//! The « Mémoire » page (an empty shell until its feature lands).
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};

#[component]
pub fn MemoryPage() -> impl IntoView {
    view! {
        <PageHeader title="Mémoire" subtitle="Ce que Maxy retient d'une conversation à l'autre." />
        <ComingSoon what="La recherche dans la mémoire arrive bientôt ici." />
    }
}
