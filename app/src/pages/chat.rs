//! The « Chat » page (an empty shell until its feature lands).
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};

#[component]
pub fn ChatPage() -> impl IntoView {
    view! {
        <PageHeader title="Chat" subtitle="Discutez avec Maxy ; les modifications proposées attendent votre approbation." />
        <ComingSoon what="La conversation avec Maxy arrive bientôt ici." />
    }
}
