//! `GET /api/chat/conversations/{id}/events?after={seq}`: a conversation's
//! event log as server-sent events, from the event after `seq` (or the
//! `Last-Event-ID` the browser sends when it reconnects by itself), then
//! live while a turn runs. Each SSE message is one `app::chat::SeqEvent` in
//! JSON, its SSE id the seq.
//!
//! The log is read from the database, so any server process can serve any
//! conversation: events appended by this process or another wake the
//! stream at once (`agent::live`), and a slow poll every [`POLL`] covers a
//! listening connection that is down. When no turn runs
//! and the log is caught up, an `idle` event closes the stream. A turn
//! whose process died is closed by the stream that meets it; when this
//! server shuts down, streams of turns run elsewhere end without `idle`
//! (the browser's EventSource reconnects, to another server).
use super::extract::TeamUser;
use super::route_table::RouteTable;
use crate::db::{ai_conversations, ai_events};
use crate::state::AppState;
use app::errors::AppError;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use std::convert::Infallible;
use std::pin::Pin;
use std::time::{Duration, Instant};
use tokio::sync::futures::OwnedNotified;

/// How often a stream looks for events written by another process when no
/// notification came (`LISTEN chat`, `agent::live`, wakes it at once).
const POLL: Duration = Duration::from_millis(500);
/// How often a stream following a turn of another process checks that the
/// process still beats (`agent::stale`).
const STALE_CHECK: Duration = Duration::from_secs(5);
/// Events sent per database read.
const BATCH: i64 = 500;

pub fn routes() -> RouteTable {
    RouteTable::default().get("/api/chat/conversations/{id}/events", events)
}

#[derive(Deserialize)]
struct After {
    after: Option<i64>,
}

async fn events(
    State(state): State<AppState>,
    TeamUser(user): TeamUser,
    Path(conversation_id): Path<i64>,
    Query(query): Query<After>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    ai_conversations::owned(&state.db, user.id, conversation_id)
        .await
        .map_err(AppError::unavailable)?
        .ok_or(AppError::NotFound)?;
    let resume = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok());
    let after = resume.or(query.after).unwrap_or(0).max(0);
    let follow = Follow {
        state,
        conversation_id,
        after,
        pending: Vec::new().into_iter(),
        done: false,
        caught_up: None,
        // The first check comes at once: a page opened on a dead turn.
        stale_checked: Instant::now()
            .checked_sub(STALE_CHECK)
            .unwrap_or_else(Instant::now),
        _open: crate::metrics::OpenStream::opened(),
    };
    let stream = stream::unfold(follow, |mut follow| async move {
        let event = follow.next().await?;
        Some((Ok(event), follow))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

struct Follow {
    state: AppState,
    conversation_id: i64,
    after: i64,
    pending: std::vec::IntoIter<app::chat::SeqEvent>,
    done: bool,
    /// The last read caught up with a turn still running: once `pending`
    /// is sent, wait for this wake-up (subscribed before that read, so
    /// nothing written since is missed) instead of reading again at once.
    caught_up: Option<Pin<Box<OwnedNotified>>>,
    /// When the running turn was last checked for a dead process.
    stale_checked: Instant,
    /// Counted in `maxy_chat_streams_open` while the stream lives.
    _open: crate::metrics::OpenStream,
}

/// After a wait: read again, or end the stream.
enum Waited {
    ReadAgain,
    End,
}

impl Follow {
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.pending.next() {
                self.after = event.seq;
                return Some(to_sse(&event));
            }
            if self.done {
                return None;
            }
            if let Some(wake) = self.caught_up.take() {
                if let Waited::End = self.wait(wake).await {
                    return None;
                }
            }
            // Subscribe before reading, so an event written in between wakes us.
            let mut wake = Box::pin(
                self.state
                    .chat_live
                    .channel(self.conversation_id)
                    .notified_owned(),
            );
            wake.as_mut().enable();
            let db = &self.state.db;
            // One statement per wake-up: the new events and whether a turn
            // still runs (a streamed answer wakes its followers per delta).
            let read = ai_events::after_and_running(db, self.conversation_id, self.after, BATCH);
            match read.await {
                Ok((events, running)) if !events.is_empty() => {
                    let more_waiting = events.len() as i64 == BATCH;
                    self.pending = events.into_iter();
                    if running.is_some() && !more_waiting {
                        self.caught_up = Some(wake);
                    }
                }
                Ok((_, Some(_))) => {
                    if let Waited::End = self.wait(wake).await {
                        return None;
                    }
                }
                Ok((_, None)) => {
                    // A turn closed as stale gets its last events just
                    // after its status: one last look.
                    match ai_events::after(db, self.conversation_id, self.after, BATCH).await {
                        Ok(events) if !events.is_empty() => {
                            self.pending = events.into_iter();
                        }
                        _ => {
                            self.done = true;
                            return Some(
                                Event::default().event("idle").data(self.after.to_string()),
                            );
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "chat stream: cannot read the log");
                    self.done = true;
                    return Some(Event::default().event("error").data("unavailable"));
                }
            }
        }
    }

    /// Waits, while a turn runs, for its next events: the wake-up, or the
    /// slow poll. A turn of this process is followed to its end, even while
    /// the server shuts down (it closes it within the grace period); one
    /// run elsewhere may belong to a dead process, checked every
    /// [`STALE_CHECK`], and its stream ends when this server stops (the
    /// browser reconnects to another).
    async fn wait(&mut self, wake: Pin<Box<OwnedNotified>>) -> Waited {
        let live = &self.state.chat_live;
        let here = live.is_here(self.conversation_id);
        if !here && self.stale_checked.elapsed() >= STALE_CHECK {
            self.stale_checked = Instant::now();
            match crate::agent::stale::close_stale_turns(&self.state.db, self.conversation_id).await
            {
                Ok(0) => {}
                Ok(_) => return Waited::ReadAgain,
                Err(e) => tracing::warn!(error = %e, "chat stream: cannot close a stale turn"),
            }
        }
        tokio::select! {
            _ = tokio::time::timeout(POLL, wake) => Waited::ReadAgain,
            () = live.drained(), if !here => Waited::End,
        }
    }
}

fn to_sse(event: &app::chat::SeqEvent) -> Event {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".into());
    Event::default().id(event.seq.to_string()).data(data)
}
