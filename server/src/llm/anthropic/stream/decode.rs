//! Bytes of a streamed answer (as `reqwest::Response::bytes_stream` yields
//! them) into [`StreamEvent`]s. Server-sent events are parsed by
//! `eventsource-stream`, which keeps partial lines, CRLF pairs and UTF-8
//! characters split across chunks until they are whole.
use super::wire::decode_event;
use super::{StreamError, StreamEvent};
use eventsource_stream::{EventStream, EventStreamError};
use futures_util::stream::{self, Stream, StreamExt};
use std::collections::VecDeque;
use std::fmt::Display;
use std::pin::Pin;

/// The events of one streamed answer, in order. The stream ends after the
/// first error (an `error` event, malformed data, a broken connection) or,
/// when the bytes end without `message_stop`, with
/// [`StreamError::Incomplete`].
pub fn decode<S, B, E>(bytes: S) -> impl Stream<Item = Result<StreamEvent, StreamError>>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    E: Display,
{
    let state = Decoder {
        sse: Box::pin(EventStream::new(bytes)),
        pending: VecDeque::new(),
        saw_stop: false,
        finished: false,
    };
    stream::unfold(state, |mut decoder| async move {
        let next = decoder.next().await?;
        Some((next, decoder))
    })
}

struct Decoder<S> {
    sse: Pin<Box<EventStream<S>>>,
    /// Events decoded from one SSE event and not handed out yet.
    pending: VecDeque<StreamEvent>,
    saw_stop: bool,
    /// After an error or the end: nothing more is read.
    finished: bool,
}

impl<S, B, E> Decoder<S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    E: Display,
{
    async fn next(&mut self) -> Option<Result<StreamEvent, StreamError>> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                self.saw_stop |= event == StreamEvent::MessageStop;
                return Some(Ok(event));
            }
            if self.finished {
                return None;
            }
            let decoded = match self.sse.next().await {
                Some(Ok(sse)) => decode_event(&sse.event, &sse.data),
                Some(Err(error)) => Err(sse_error(error)),
                None if self.saw_stop => {
                    self.finished = true;
                    return None;
                }
                None => Err(StreamError::Incomplete),
            };
            match decoded {
                Ok(events) => self.pending.extend(events),
                Err(error) => {
                    self.finished = true;
                    return Some(Err(error));
                }
            }
        }
    }
}

fn sse_error<E: Display>(error: EventStreamError<E>) -> StreamError {
    match error {
        EventStreamError::Transport(e) => StreamError::Transport(e.to_string()),
        other => StreamError::Sse(other.to_string()),
    }
}
