//! The assistant's agent loop: a message from the team starts a turn on the
//! server ([`turn`]); the model (or the offline planner) streams its answer
//! with the system prompt ([`prompt`]) and the bounded history
//! ([`history`]); read tools run, write tools become approval cards
//! ([`dispatch`]); every
//! step lands in the conversation's event log ([`sink`]) that pages follow
//! ([`live`] wakes them). [`service`] is what the pages call; [`expiry`]
//! closes the cards nobody decided in time.
//!
//! The loop holds the tool registry, never what runs an approved write: that
//! runs only when a person approves a card (`crate::approvals`).
pub mod cut_summary;
mod dispatch;
pub mod expiry;
pub mod history;
pub mod known_history;
pub mod labels;
pub mod live;
pub mod memory_summary;
pub mod prompt;
pub mod service;
pub mod sink;
pub mod stages;
pub mod stale;
pub mod title;
pub mod turn;

pub use live::Live;
pub use service::AssistantService;
pub use turn::{Agent, AgentSettings};
