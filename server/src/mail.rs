//! E-mail that leaves Maxy: a catalogue to its organizer, an availability
//! check to a venue, sent over SMTP from French templates with an HTML and
//! a plain-text part.
//!
//! A send is never made while a person waits: the builder's action writes a
//! `mail_sends` row and queues a [`JOB_KIND`] job in the transaction that
//! issues the link ([`Outbox::queue`]); the job delivers it, retrying a
//! failed attempt at once (the shared retry loop) and then later on the job
//! queue's backoff, and records each outcome on the row the builder shows
//! (ADR 0037).
pub mod job;
pub mod message;
mod outbox;
pub mod store;
mod transport;

pub use job::{register_jobs, JOB_KIND};
pub use outbox::{dedupe_key, enqueue, MailContext, Outbox, Queued};
pub use transport::SmtpSender;

/// What the team reads when e-mail is not set up (`MAXY_SMTP_URL` unset).
pub const NOT_CONFIGURED: &str = "envoi par e-mail non configuré";
