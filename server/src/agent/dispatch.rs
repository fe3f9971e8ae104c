//! A round's tool calls: read calls run (bounded in time), write calls
//! become approval cards, anything else an error the model reads, with the
//! round's two writes around them (ADR 0023).
use super::history;
use super::labels::label;
use super::sink::{BehindMessage, EventSink};
use super::stages::{self, Part};
use super::turn::{Agent, Before, Recorders};
use crate::approvals;
use crate::db::ai_conversations::ApprovalOutcome;
use crate::db::ai_events::{RoundMessage, RoundStored};
use crate::db::ai_messages::StoredMessage;
use crate::llm::{Block, ChatAnswer};
use crate::tools::{Access, Mode, ToolContext, ToolError, Toolbox};
use app::chat::{ApprovalCard, ChatEvent};
use sqlx::types::Json;

impl Agent {
    /// A round's tool calls, with two writes around them: the model's
    /// answer (with its call's record and the first read call's "started"
    /// event) before the calls run, their results (and the events saying
    /// how each ended) after. The results are written behind the turn (the
    /// next model call does not wait for them), and so is the answer when
    /// every call reads (no approval card refers to it). Events between two
    /// calls go out at once, so the page always shows the call that is
    /// running.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn dispatch(
        &self,
        tools: &ToolContext,
        mode: Mode,
        answer: &ChatAnswer,
        calls: &[(String, String, serde_json::Value)],
        recorders: &Recorders,
        sink: &mut EventSink,
        before: Before,
    ) -> sqlx::Result<Dispatched> {
        let conversation_id = tools.conversation_id;
        let started = |id: &str, name: &str| {
            (Toolbox::access(name) == Some(Access::Read)).then(|| ChatEvent::ToolStarted {
                call_id: id.into(),
                name: name.into(),
                label: label(name),
            })
        };
        let first = calls.first().and_then(|(id, name, _)| started(id, name));
        let records = recorders.take_left();
        let reads_only = calls
            .iter()
            .all(|(_, name, _)| Toolbox::access(name) == Some(Access::Read));
        let mut written = std::time::Duration::ZERO;
        let (answer_stored, outcomes, first_read) = if reads_only {
            // Nothing refers to the answer's row: it is written behind the
            // turn while the first call runs, the turn keeps it in memory,
            // and the approvals stay as the turn last saw them.
            sink.push_with_message_behind(
                first.into_iter().collect(),
                BehindMessage {
                    role: "assistant",
                    content: answer.content.clone(),
                    model: Some(answer.model.clone()),
                    calls: records,
                    call_context: recorders.context,
                },
            );
            let answer_stored = StoredMessage {
                // Not known before the write; the history never reads it.
                id: 0,
                // Only the turn appends messages while it runs.
                seq: before.next_seq,
                role: "assistant".into(),
                content: Json(answer.content.clone()),
            };
            let (id, name, input) = &calls[0];
            let read = self.run_read(tools, id, name, input).await;
            (answer_stored, before.outcomes, Some(read))
        } else {
            // Stored before any write call: an approval card refers to it.
            // A first call that reads needs nothing of it, so it runs
            // meanwhile.
            let store_answer = stages::timed(sink.push_with_message(
                first.into_iter().collect(),
                RoundMessage {
                    role: "assistant",
                    content: &answer.content,
                    model: Some(&answer.model),
                    calls: &records,
                    call_context: recorders.context,
                },
            ));
            let ((opened, took), first_read) = match calls.first() {
                Some((id, name, input)) if Toolbox::access(name) == Some(Access::Read) => {
                    let (stored, read) =
                        tokio::join!(store_answer, self.run_read(tools, id, name, input));
                    (stored, Some(read))
                }
                _ => (store_answer.await, None),
            };
            written += took;
            match opened {
                Ok(RoundStored { message, outcomes }) => (message, outcomes, first_read),
                Err(e) => {
                    self.store_calls(&records, recorders.context).await;
                    return Err(e);
                }
            }
        };
        let mut events = Vec::new();
        let mut results = Vec::with_capacity(calls.len());
        let ran = usize::from(first_read.is_some());
        if let Some((block, event)) = first_read {
            results.push(block);
            events.push(event);
        }
        for (id, name, input) in calls.iter().skip(ran) {
            // The previous call's end and this one's start, in one write.
            events.extend(started(id, name));
            if !events.is_empty() {
                let (pushed, took) =
                    stages::timed(sink.push_all(std::mem::take(&mut events))).await;
                pushed?;
                written += took;
            }
            let (block, event) = self
                .call(tools, mode, answer_stored.id, id, name, input)
                .await?;
            results.push(block);
            events.push(event);
        }
        // Written while the next round's model call runs: that round reads
        // the results from memory, and the sink's next write waits for this.
        let results_stored = StoredMessage {
            id: 0,
            seq: answer_stored.seq + 1,
            role: "tool".into(),
            content: Json(results.clone()),
        };
        sink.push_with_message_behind(
            events,
            BehindMessage {
                role: "tool",
                content: results,
                model: None,
                calls: Vec::new(),
                call_context: recorders.context,
            },
        );
        self.part(conversation_id, Part::ToolWrites, written);
        Ok(Dispatched {
            answer: answer_stored,
            results: results_stored,
            outcomes,
        })
    }

    /// Runs a read call, turns a write call into an approval card, and
    /// answers anything else with an error the model can read. Returns the
    /// result the model reads and the event the page shows.
    #[allow(clippy::too_many_arguments)]
    async fn call(
        &self,
        tools: &ToolContext,
        mode: Mode,
        message_id: i64,
        call_id: &str,
        name: &str,
        input: &serde_json::Value,
    ) -> sqlx::Result<(Block, ChatEvent)> {
        let result = |content: String, is_error: bool| Block::ToolResult {
            tool_use_id: call_id.to_string(),
            content,
            is_error,
        };
        let failed = |summary: String| ChatEvent::ToolFinished {
            call_id: call_id.into(),
            name: name.into(),
            summary,
            is_error: true,
        };
        match Toolbox::access(name) {
            Some(Access::Read) => Ok(self.run_read(tools, call_id, name, input).await),
            Some(Access::Write) => {
                let proposal = match Toolbox::propose(tools, mode, name, input).await {
                    Ok(proposal) => proposal,
                    Err(e) => {
                        let summary = format!("Proposition impossible : {e}");
                        return Ok((result(e.to_string(), true), failed(summary)));
                    }
                };
                let pending = match approvals::create(
                    &self.db,
                    tools.conversation_id,
                    message_id,
                    call_id,
                    name,
                    &proposal.arguments,
                    self.settings.approval_ttl,
                )
                .await
                {
                    Ok(pending) => pending,
                    Err(approvals::ApprovalError::Db(e)) => return Err(e),
                    Err(e) => {
                        let summary = format!("Proposition impossible : {e}");
                        return Ok((result(e.to_string(), true), failed(summary)));
                    }
                };
                let card = ChatEvent::ApprovalRequested(ApprovalCard {
                    approval_id: pending.id,
                    tool_name: name.into(),
                    title: proposal.title,
                    expires_at: pending.expires_at.to_rfc3339(),
                    arguments_hash: pending.arguments_hash,
                    body: proposal.body,
                });
                Ok((result(history::pending_text(pending.id), false), card))
            }
            None => {
                let error = ToolError::UnknownTool(name.into());
                Ok((result(error.to_string(), true), failed(error.to_string())))
            }
        }
    }
}

impl Agent {
    /// Runs a read call, bounded in time: the result the model reads and
    /// the event saying how it ended (a failure is an error the model reads).
    async fn run_read(
        &self,
        tools: &ToolContext,
        call_id: &str,
        name: &str,
        input: &serde_json::Value,
    ) -> (Block, ChatEvent) {
        let (outcome, ran) = stages::timed(tokio::time::timeout(
            self.settings.tool_limit,
            Toolbox::run_read(tools, name, input),
        ))
        .await;
        self.part(tools.conversation_id, Part::ToolRun, ran);
        let outcome = outcome.unwrap_or(Err(ToolError::Unavailable));
        let (content, summary, is_error) = match outcome {
            Ok(o) => (o.for_model, o.summary, false),
            Err(e) => (e.to_string(), e.to_string(), true),
        };
        let result = Block::ToolResult {
            tool_use_id: call_id.to_string(),
            content,
            is_error,
        };
        let finished = ChatEvent::ToolFinished {
            call_id: call_id.into(),
            name: name.into(),
            summary,
            is_error,
        };
        (result, finished)
    }
}

/// What a round's dispatch stored: the model's answer and the results
/// (being written), with the approvals as they stood then.
pub(super) struct Dispatched {
    pub answer: StoredMessage,
    pub results: StoredMessage,
    pub outcomes: Vec<ApprovalOutcome>,
}
