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
use crate::db::{ai_conversations, ai_events, ai_turns};
use crate::state::AppState;
use app::errors::AppError;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use std::convert::Infallible;
use std::time::{Duration, Instant};

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
    /// When the running turn was last checked for a dead process.
    stale_checked: Instant,
    /// Counted in `maxy_chat_streams_open` while the stream lives.
    _open: crate::metrics::OpenStream,
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
            // Subscribe before reading, so an event written in between wakes us.
            let wake = self.state.chat_live.channel(self.conversation_id);
            let notified = wake.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let db = &self.state.db;
            match ai_events::after(db, self.conversation_id, self.after, BATCH).await {
                Ok(events) if !events.is_empty() => {
                    self.pending = events.into_iter();
                    continue;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "chat stream: cannot read the log");
                    self.done = true;
                    return Some(Event::default().event("error").data("unavailable"));
                }
            }
            match ai_turns::running(db, self.conversation_id).await {
                Ok(Some(_)) => {
                    let live = &self.state.chat_live;
                    // A turn of this process is followed to its end, even
                    // while the server shuts down (it closes it within the
                    // grace period); one run elsewhere may belong to a dead
                    // process, and its stream ends when this server stops
                    // (the browser reconnects to another).
                    let here = live.is_here(self.conversation_id);
                    if !here && self.stale_checked.elapsed() >= STALE_CHECK {
                        self.stale_checked = Instant::now();
                        match crate::agent::stale::close_stale_turns(db, self.conversation_id).await
                        {
                            Ok(0) => {}
                            Ok(_) => continue,
                            Err(e) => {
                                tracing::warn!(error = %e, "chat stream: cannot close a stale turn")
                            }
                        }
                    }
                    tokio::select! {
                        _ = tokio::time::timeout(POLL, notified) => {}
                        () = live.drained(), if !here => return None,
                    }
                }
                Ok(None) => {
                    // The turn may have ended right after our read: one last look.
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
                    tracing::warn!(error = %e, "chat stream: cannot read the turn");
                    let _ = tokio::time::timeout(POLL, notified).await;
                }
            }
        }
    }
}

fn to_sse(event: &app::chat::SeqEvent) -> Event {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".into());
    Event::default().id(event.seq.to_string()).data(data)
}
