//! Anthropic's streamed Messages API (`"stream": true`): the server-sent
//! events of one answer, decoded into typed [`StreamEvent`]s and folded by
//! [`MessageAssembler`] into the final message.
//!
//! The chat streams its answers so the organizer sees text as it is written
//! and tool calls as soon as they are complete. Decoding is pure (bytes in,
//! events out) so it is tested without a network: however the bytes are
//! chunked, the events are the same.
//!
//! `AnthropicClient::stream` (in `anthropic/streaming.rs`) posts the
//! request, feeds `bytes_stream()` to [`decode`], and translates the events
//! into the chat's neutral `ChatEvent`s (`anthropic/translate.rs`).
mod assembler;
mod decode;
mod error;
mod event;
mod wire;

pub use assembler::{AssembledMessage, ContentBlock, MessageAssembler};
pub use decode::decode;
pub use error::StreamError;
pub use event::{StreamEvent, UsageUpdate};

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod transcript;
