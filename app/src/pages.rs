//! One module per page of the main navigation.
mod chat;
mod console;
mod home;
mod memory;
mod not_found;
mod page_header;
mod requests;
mod venues;

pub use chat::ChatPage;
pub use console::ConsolePage;
pub use home::HomePage;
pub use memory::MemoryPage;
pub use not_found::NotFoundPage;
pub use page_header::{ComingSoon, PageHeader};
pub use requests::RequestsPage;
pub use venues::VenuesPage;
