//! One module per page.
mod catalogue_builder;
mod chat;
mod console;
mod form_error;
mod held_search;
mod home;
mod learn;
mod link_views;
mod memory;
mod not_found;
mod organizer_catalogue;
mod outreach;
mod page_header;
mod requests;
mod search_preferences;
mod sign_in;
mod venue_availability;
mod venues;
mod workspace;

pub use catalogue_builder::{AcceptanceRate, CatalogueBuilderPage};
pub use chat::ChatPage;
pub use console::AccountsPage;
pub use console::{
    ConsolePage, DecisionsPage, MeasureRowsPage, MeasuresPage, MotifsPage, PlaybooksPage,
    SimulatorPage, StationsPage,
};
pub use form_error::{failure, posted_to, FormError, FORM_DONE_COOKIE};
pub use held_search::HeldSearch;
pub use home::HomePage;
pub use learn::{GuidelineForm, LearnButton, TrainingPage};
pub use memory::MemoryPage;
pub use not_found::NotFoundPage;
pub use organizer_catalogue::OrganizerCataloguePage;
pub use outreach::{outreach_state, CatalogueOutreach};
pub use page_header::{ComingSoon, PageHeader};
pub use requests::{RequestDetailPage, RequestsPage};
pub use search_preferences::{AppliedDefaults, MyPreferencesPanel, RequestPreferencesPanel};
pub use sign_in::SignInPage;
pub use venue_availability::VenueAvailabilityPage;
pub use venues::{VenueSheetPage, VenuesPage};
pub use workspace::WorkspacePage;
