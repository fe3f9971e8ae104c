//! Bytes of a streamed chat completion (as `reqwest::Response::bytes_stream`
//! yields them) into [`ChatEvent`]s. Server-sent events are parsed by
//! `eventsource-stream`, which keeps partial lines and UTF-8 characters
//! split across reads until they are whole, and skips comments (OpenRouter's
//! `: OPENROUTER PROCESSING` keep-alives).
//!
//! The stream ends after `data: [DONE]` with [`ChatEvent::Finished`], or
//! after the first error; bytes that end before `[DONE]` are an answer cut
//! short, hence the provider being unavailable.
use super::assembler::Assembler;
use crate::llm::chat::ChatEvent;
use crate::llm::LlmError;
use eventsource_stream::{EventStream, EventStreamError};
use futures_util::stream::{self, Stream, StreamExt};
use std::collections::VecDeque;
use std::fmt::Display;
use std::pin::Pin;
use std::time::Instant;

/// `model` names the answer when the server does not; `started` is when
/// the request left, for the answer's latency.
pub(super) fn decode<S, B, E>(
    bytes: S,
    model: &str,
    started: Instant,
) -> impl Stream<Item = Result<ChatEvent, LlmError>>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    E: Display,
{
    let state = Decoder {
        sse: Box::pin(EventStream::new(bytes)),
        assembler: Some(Assembler::new(model)),
        pending: VecDeque::new(),
        started,
    };
    stream::unfold(state, |mut decoder| async move {
        let next = decoder.next().await?;
        Some((next, decoder))
    })
}

struct Decoder<S> {
    sse: Pin<Box<EventStream<S>>>,
    /// `None` once finished (after `[DONE]` or an error): nothing more is read.
    assembler: Option<Assembler>,
    /// Events of one chunk not handed out yet.
    pending: VecDeque<ChatEvent>,
    started: Instant,
}

impl<S, B, E> Decoder<S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    E: Display,
{
    async fn next(&mut self) -> Option<Result<ChatEvent, LlmError>> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(Ok(event));
            }
            let assembler = self.assembler.as_mut()?;
            let result = match self.sse.next().await {
                Some(Ok(sse)) if sse.data.trim() == "[DONE]" => {
                    let assembler = self.assembler.take()?;
                    return Some(
                        assembler
                            .finish(self.started.elapsed())
                            .map(ChatEvent::Finished),
                    );
                }
                // Keep-alives with an empty data line.
                Some(Ok(sse)) if sse.data.trim().is_empty() => continue,
                Some(Ok(sse)) => assembler.push(&sse.data),
                Some(Err(EventStreamError::Transport(e))) => Err(LlmError::Unavailable(format!(
                    "the answer stream broke: {e}"
                ))),
                Some(Err(e)) => Err(LlmError::InvalidResponse(format!(
                    "the answer stream is not valid server-sent events: {e}"
                ))),
                None => Err(LlmError::Unavailable(
                    "the answer stream ended before [DONE]: the answer is cut short".into(),
                )),
            };
            match result {
                Ok(events) => self.pending.extend(events),
                Err(error) => {
                    self.assembler = None;
                    return Some(Err(error));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
