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
    /// ended (or its approval card); last, the results stored.
    pub(super) async fn dispatch(
        &self,
        tools: &ToolContext,
        mode: Mode,
        answer: &ChatAnswer,
        calls: &[(String, String, serde_json::Value)],
        read: &mut Vec<String>,
        sink: &mut EventSink,
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
            if Toolbox::access(name) == Some(Access::Read) {
                sink.push(ChatEvent::ToolStarted {
                    call_id: id.into(),
                    name: name.into(),
                    label: label(name),
                })
                .await?;
            }
            let (block, event) = self
                .call(tools, mode, answer_stored.id, id, name, input, read)
                .await?;
            if let ChatEvent::ToolFinished {
                is_error: false, ..
            } = &event
            {
                read.push(name.clone());
            }
            sink.push(event).await?;
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

/// What a round's dispatch stored: the model's answer and the results,
/// with the approvals as they stood then.
pub(super) struct Dispatched {
    pub answer: StoredMessage,
    pub results: StoredMessage,
    pub outcomes: Vec<ApprovalOutcome>,
}
