//! A round's tool calls: read calls run (bounded in time), write calls
//! become approval cards, anything else an error the model reads. The
//! model's answer is stored before the calls, their results after, each
//! event written as it happens (ADR 0029).
use super::history;
use super::labels::label;
use super::sink::EventSink;
use super::stages::{self, Part};
use super::turn::Agent;
use crate::approvals;
use crate::db::ai_conversations::ApprovalOutcome;
use crate::db::ai_events::{RoundMessage, RoundStored};
use crate::db::ai_messages::StoredMessage;
use crate::llm::{Block, ChatAnswer};
use crate::playbooks::runtime::{Caller, Gate, TurnState};
use crate::tools::{Access, Mode, ToolContext, ToolError, Toolbox};
use app::chat::{ApprovalCard, ChatEvent};

/// The read tool whose text people outside the team wrote.
const EMAILS: &str = "list_request_emails";

/// The turn's reads before a card, in French, each once, in order.
fn provenance(read: &[String]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for name in read {
        let l = label(name).trim_end_matches('…').to_string();
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    labels
}

impl Agent {
    /// A round's tool calls, one after the other: the model's answer
    /// stored first (an approval card refers to it), then for each call its
    /// "started" line (read calls), the call, and the line saying how it
    /// ended (or its approval card); last, the results stored. The open
    /// playbook rules each call first (`playbooks::runtime`).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn dispatch(
        &self,
        tools: &ToolContext,
        mode: Mode,
        answer: &ChatAnswer,
        calls: &[(String, String, serde_json::Value)],
        read: &mut Vec<String>,
        sink: &mut EventSink,
        caller: &Caller,
        turn: &mut TurnState,
    ) -> sqlx::Result<Dispatched> {
        let RoundStored {
            message: answer_stored,
            ..
        } = sink
            .push_message(RoundMessage {
                role: "assistant",
                content: &answer.content,
                model: Some(&answer.model),
            })
            .await?;
        let mut results = Vec::with_capacity(calls.len());
        for (id, name, input) in calls {
            if matches!(Toolbox::access(name), Some(Access::Read | Access::Guidance)) {
                sink.push(ChatEvent::ToolStarted {
                    call_id: id.into(),
                    name: name.into(),
                    label: label(name),
                })
                .await?;
            }
            let (block, event) = self
                .ruled_call(
                    tools,
                    mode,
                    answer_stored.id,
                    id,
                    name,
                    input,
                    read,
                    caller,
                    turn,
                )
                .await?;
            if let ChatEvent::ToolFinished {
                is_error: false, ..
            } = &event
            {
                read.push(name.clone());
            }
            // A playbook that opened shows before what its rules did to
            // the call; a step done or an end shows after the call.
            let progress = turn.progress.take();
            let (before, after) = match progress {
                Some(p) if p.status == "open" => (Some(p), None),
                other => (None, other),
            };
            if let Some(progress) = before {
                sink.push(ChatEvent::Playbook(progress)).await?;
            }
            sink.push(event).await?;
            if let Some(progress) = after {
                sink.push(ChatEvent::Playbook(progress)).await?;
            }
            results.push(block);
        }
        let RoundStored {
            message: results_stored,
            outcomes,
        } = sink
            .push_message(RoundMessage {
                role: "tool",
                content: &results,
                model: None,
            })
            .await?;
        Ok(Dispatched {
            answer: answer_stored,
            results: results_stored,
            outcomes,
        })
    }

    /// A call as the playbooks rule it: guidance tools run in the playbook
    /// runtime; a read or a write is first checked by the open run (or the
    /// first write's decision), then runs, then counts as a step done or as
    /// an observation.
    #[allow(clippy::too_many_arguments)]
    async fn ruled_call(
        &self,
        tools: &ToolContext,
        mode: Mode,
        message_id: i64,
        call_id: &str,
        name: &str,
        input: &serde_json::Value,
        read: &[String],
        caller: &Caller,
        turn: &mut TurnState,
    ) -> sqlx::Result<(Block, ChatEvent)> {
        let Some(guide) = &self.guide else {
            return self
                .call(tools, mode, message_id, call_id, name, input, read)
                .await;
        };
        let finished = |content: String, summary: String, is_error: bool| {
            (
                Block::ToolResult {
                    tool_use_id: call_id.to_string(),
                    content,
                    is_error,
                },
                ChatEvent::ToolFinished {
                    call_id: call_id.into(),
                    name: name.into(),
                    summary,
                    is_error,
                },
            )
        };
        let access = Toolbox::access(name);
        if access == Some(Access::Guidance) {
            let reply = guide.guidance_call(caller, name, input, turn).await?;
            let shown = crate::playbooks::runtime::for_people(&reply.summary).to_string();
            return Ok(finished(reply.for_model, shown, reply.is_error));
        }
        let Some(access) = access else {
            return self
                .call(tools, mode, message_id, call_id, name, input, read)
                .await;
        };
        let note = match guide.before_call(caller, name, access, turn).await? {
            Gate::Refuse { reason } => {
                let shown = crate::playbooks::runtime::for_people(&reason);
                let summary = match access {
                    Access::Write => format!("Proposition impossible : {shown}"),
                    _ => shown.to_string(),
                };
                return Ok(finished(reason, summary, true));
            }
            Gate::Proceed { note } => note,
        };
        let (mut block, event) = self
            .call(tools, mode, message_id, call_id, name, input, read)
            .await?;
        let succeeded = match &event {
            ChatEvent::ToolFinished { is_error, .. } => !is_error,
            ChatEvent::ApprovalRequested(_) => true,
            _ => false,
        };
        guide.after_call(caller, name, succeeded, turn).await?;
        if let (Some(note), Block::ToolResult { content, .. }) = (note, &mut block) {
            content.push_str("\n\n");
            content.push_str(&note);
        }
        Ok((block, event))
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
        read: &[String],
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
                    read_before: provenance(read),
                    after_emails: read.iter().any(|r| r == EMAILS),
                });
                Ok((result(history::pending_text(pending.id), false), card))
            }
            Some(Access::Guidance) | None => {
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
        let (outcome, ran) = stages::timed(tracing::Instrument::instrument(
            tokio::time::timeout(
                self.settings.tool_limit,
                Toolbox::run_read(tools, name, input),
            ),
            tracing::info_span!("tool", tool = name),
        ))
        .await;
        super::stages::part(tools.conversation_id, Part::ToolRun, ran);
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

/// What a round's dispatch stored: the model's answer and the results,
/// with the approvals as they stood then.
pub(super) struct Dispatched {
    pub answer: StoredMessage,
    pub results: StoredMessage,
    pub outcomes: Vec<ApprovalOutcome>,
}
