//! Maxy's user interface: the HTML shell, the router and the pages.
//!
//! Compiled twice: with `ssr` inside the server (renders every page's HTML)
//! and with `hydrate` inside the wasm bundle, which holds only the
//! `#[island]` components: the parts of a page that need the browser
//! (ADR 0038). Everything else is server HTML whose forms post.
#![recursion_limit = "256"]

pub mod admin;
pub mod auth;
pub mod browser;
pub mod catalogue_builder;
pub mod chat;
pub mod document_head;
pub mod errors;
pub mod event_types;
pub mod external_text;
pub mod fr;
pub mod geo;
pub mod layout;
pub mod links;
pub mod llm_budget;
pub mod measures;
pub mod memory;
pub mod outreach;
pub mod pages;
pub mod playbook_console;
pub mod raw_text;
pub mod requests;
pub mod room_configurations;
pub mod routes;
pub mod search_preferences;
#[cfg(feature = "ssr")]
pub mod services;
pub mod training;
pub mod venue_search;
pub mod work_queue;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::{
    components::{ParentRoute, Route, Router, Routes},
    path, SsrMode,
};

use crate::layout::AppLayout;
use crate::pages::{
    CatalogueBuilderPage, ChatPage, ConsolePage, DecisionsPage, HomePage, MemoryPage, MotifsPage,
    NotFoundPage, OrganizerCataloguePage, PlaybooksPage, RequestDetailPage, RequestsPage,
    SignInPage, SimulatorPage, StationsPage, TrainingPage, VenueAvailabilityPage, VenueSheetPage,
    VenuesPage, WorkspacePage,
};

/// The whole HTML document, rendered by the server for every page.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="fr">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <document_head::DocumentAssets options />
                <MetaTags />
            </head>
            <body class="bg-slate-50 text-slate-900 antialiased">
                <App />
            </body>
        </html>
    }
}

/// The application root: meta tags and routes (the stylesheet is in the shell).
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title formatter=|page: String| {
            raw_text::title_text(if page.is_empty() { "Maxy".to_string() } else { format!("{page} · Maxy") })
        } />
        // Keep in step with `routes::PAGES` (who may open each page).
        <Router>
            <Routes fallback=NotFoundPage>
                <Route path=path!("connexion") view=SignInPage />
                // Async: the link is checked before the status line is sent,
                // so a refused link is a real 404, not a 200 that streams an error.
                <Route path=path!("c/:token") view=OrganizerCataloguePage ssr=SsrMode::Async />
                <Route path=path!("v/:token") view=VenueAvailabilityPage ssr=SsrMode::Async />
                // Async: the team pages are sent whole, in order (navigation and
                // user menu included), so they are complete without JavaScript.
                <ParentRoute path=path!("") view=AppLayout ssr=SsrMode::Async>
                    <Route path=path!("") view=HomePage ssr=SsrMode::Async />
                    <Route path=path!("chat") view=ChatPage ssr=SsrMode::Async />
                    <Route path=path!("chat/:id") view=ChatPage ssr=SsrMode::Async />
                    <Route path=path!("demandes") view=RequestsPage ssr=SsrMode::Async />
                    <Route path=path!("demandes/:id") view=RequestDetailPage ssr=SsrMode::Async />
                    <Route path=path!("demandes/:id/catalogue") view=CatalogueBuilderPage ssr=SsrMode::Async />
                    <Route path=path!("atelier") view=WorkspacePage ssr=SsrMode::Async />
                    <Route path=path!("lieux") view=VenuesPage ssr=SsrMode::Async />
                    <Route path=path!("lieux/:id") view=VenueSheetPage ssr=SsrMode::Async />
                    <Route path=path!("memoire") view=MemoryPage ssr=SsrMode::Async />
                    <Route path=path!("entrainement") view=TrainingPage ssr=SsrMode::Async />
                    <Route path=path!("console") view=ConsolePage ssr=SsrMode::Async />
                    <Route path=path!("console/comptes") view=crate::pages::AccountsPage ssr=SsrMode::Async />
                    <Route path=path!("console/playbooks") view=PlaybooksPage ssr=SsrMode::Async />
                    <Route path=path!("console/stations") view=StationsPage ssr=SsrMode::Async />
                    <Route path=path!("console/decisions") view=DecisionsPage ssr=SsrMode::Async />
                    <Route path=path!("console/motifs") view=MotifsPage ssr=SsrMode::Async />
                    <Route path=path!("console/simulateur") view=SimulatorPage ssr=SsrMode::Async />
                    <Route path=path!("console/mesures") view=crate::pages::MeasuresPage ssr=SsrMode::Async />
                    <Route path=path!("console/mesures/lignes") view=crate::pages::MeasureRowsPage ssr=SsrMode::Async />
                </ParentRoute>
            </Routes>
        </Router>
    }
}

/// Sets `data-hydrated="true"` on `<body>` once the page's islands have
/// hydrated: end-to-end tests wait for it before they click.
///
/// The island script hydrates the islands right after `hydrate()` returns,
/// one after another in microtasks; a zero-delay timeout runs after all of them.
#[cfg(feature = "hydrate")]
pub fn mark_hydrated() {
    set_timeout(
        || {
            if let Some(body) = document().body() {
                let _ = body.set_attribute("data-hydrated", "true");
            }
        },
        std::time::Duration::ZERO,
    );
}
