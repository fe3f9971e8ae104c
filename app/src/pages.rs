//! One module per page.
mod chat;
mod console;
mod home;
mod link_views;
mod memory;
mod not_found;
mod organizer_catalogue;
mod outreach;
mod page_header;
mod requests;
mod sign_in;
mod venue_availability;
mod venues;

pub use chat::ChatPage;
pub use console::ConsolePage;
pub use home::HomePage;
pub use memory::MemoryPage;
pub use not_found::NotFoundPage;
pub use organizer_catalogue::OrganizerCataloguePage;
pub use outreach::CatalogueOutreach;
pub use page_header::{ComingSoon, PageHeader};
pub use requests::RequestsPage;
pub use sign_in::SignInPage;
pub use venue_availability::VenueAvailabilityPage;
pub use venues::VenuesPage;
