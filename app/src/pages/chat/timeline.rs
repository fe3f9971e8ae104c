//! The conversation as a person reads it, folded from its event log.
//!
//! The page renders what the server rendered (the loaded log), then applies
//! the events it streams. Both go through [`Timeline::apply`], so a reload,
//! a reconnection or an event received twice gives the same screen: an
//! event whose `seq` was already seen is ignored (no text written twice).
//! Every text kept is as people read it ([`people`]): no wrapper tag of the
//! model's ever reaches the page.
use crate::chat::{ApprovalCard, ChatEvent, ConversationLog, PlaybookProgress, SeqEvent};
use people::for_people;

/// One block of the conversation. Entries are only ever appended; an entry's
/// index in [`Timeline::entries`] is its stable identity (its key when
/// rendered), and only its text or status changes afterwards.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// What a team member wrote.
    User {
        text: String,
        author: String,
    },
    /// The assistant's answer: consecutive text deltas, joined.
    /// `interrupted`: the model stopped mid-answer (the text is partial).
    Assistant {
        text: String,
        interrupted: bool,
    },
    /// A read tool: its label while it runs, then its one-line summary.
    Tool {
        call_id: String,
        label: String,
        summary: Option<String>,
        is_error: bool,
    },
    /// A write waiting for a person, then its outcome.
    Approval {
        card: ApprovalCard,
        status: CardStatus,
    },
    Notice {
        text: String,
    },
    /// A playbook opened or ended (« Parcours ouvert : … »).
    Playbook {
        text: String,
    },
    /// The end of a turn (`done`, `stopped`, `failed`) and what it cost.
    TurnEnd {
        status: String,
        cost_eur: f64,
    },
}

/// Where an approval card stands.
#[derive(Clone, Debug, PartialEq)]
pub enum CardStatus {
    Pending,
    /// `executed`, `failed`, `rejected` or `expired`, with the French detail.
    Decided {
        status: String,
        detail: String,
        decided_by: Option<String>,
    },
}

impl CardStatus {
    /// The status in the team's words.
    pub fn label(&self) -> &'static str {
        match self {
            CardStatus::Pending => "En attente",
            CardStatus::Decided { status, .. } => match status.as_str() {
                "executed" => "Exécutée",
                "failed" => "Échec",
                "rejected" => "Refusée",
                "expired" => "Expirée",
                _ => "Traitée",
            },
        }
    }
}

/// The folded conversation and what the page needs to know about its turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    pub entries: Vec<Entry>,
    /// The highest `seq` applied: the stream resumes after it.
    pub last_seq: i64,
    /// A turn is running (or was just asked for): the input waits, the page
    /// follows the stream.
    pub running: bool,
    /// The offline planner answered the last turn (« mode hors-ligne »).
    pub offline: bool,
    /// What the conversation cost so far, in euros.
    pub cost_eur: f64,
    /// The playbook ruling the conversation, while one is open.
    pub playbook: Option<PlaybookProgress>,
    /// The `seq` of a message this page sent that no log or stream has
    /// brought back yet: a log read before the send (a reload after the
    /// previous turn, answering late) must not say the new turn is over.
    pub awaiting: Option<i64>,
}

impl Timeline {
    /// A message was sent (its event's `seq`): its turn runs from now.
    pub fn sent(&mut self, seq: i64) {
        self.running = true;
        if seq > self.last_seq {
            self.awaiting = Some(seq);
        }
    }

    /// The timeline of a loaded conversation. Its `running`, `offline` and
    /// `cost_eur` are the server's word (the cost includes calls outside
    /// turns, and a turn still running may already have spent some).
    pub fn from_log(log: &ConversationLog) -> Self {
        let mut timeline = Timeline::default();
        timeline.merge_log(log);
        timeline
    }

    /// Catches up with a reloaded log (after a lost stream, a decision or a
    /// finished turn): applies the events not seen yet, then takes the
    /// server's word on the turn, the mode and the cost — unless the log is
    /// older than a message sent since ([`Self::awaiting`]).
    pub fn merge_log(&mut self, log: &ConversationLog) {
        for event in &log.events {
            self.apply(event);
        }
        self.running = log.running || self.awaiting.is_some();
        self.offline = log.offline;
        self.cost_eur = log.cost_eur;
    }

    /// Applies one event of the log. Returns `false` (and changes nothing)
    /// for an event already applied: `seq` at or below [`Self::last_seq`].
    pub fn apply(&mut self, event: &SeqEvent) -> bool {
        if event.seq <= self.last_seq {
            return false;
        }
        self.last_seq = event.seq;
        if self.awaiting.is_some_and(|sent| event.seq >= sent) {
            self.awaiting = None;
        }
        self.fold(&event.event);
        true
    }

    /// Applies an event that came without a `seq` (the answer of a decision):
    /// only a card's status can come this way, and applying it again when
    /// the log brings it is harmless.
    pub fn apply_decision(&mut self, event: &ChatEvent) {
        if let ChatEvent::ApprovalDecided { .. } = event {
            self.fold(event);
        }
    }

    /// The approval card with this id, if the conversation shows it.
    pub fn card_status(&self, approval_id: i64) -> Option<&CardStatus> {
        self.entries.iter().find_map(|e| match e {
            Entry::Approval { card, status } if card.approval_id == approval_id => Some(status),
            _ => None,
        })
    }

    fn fold(&mut self, event: &ChatEvent) {
        match event {
            ChatEvent::UserMessage { text, author } => self.entries.push(Entry::User {
                text: for_people(text),
                author: for_people(author),
            }),
            ChatEvent::TurnStarted { offline, .. } => {
                self.running = true;
                self.offline = *offline;
            }
            ChatEvent::TextDelta { text } => match self.entries.last_mut() {
                Some(Entry::Assistant {
                    text: so_far,
                    interrupted: false,
                }) => so_far.push_str(text),
                _ => self.entries.push(Entry::Assistant {
                    text: text.clone(),
                    interrupted: false,
                }),
            },
            ChatEvent::AnswerInterrupted => {
                if let Some(Entry::Assistant { interrupted, .. }) = self.entries.last_mut() {
                    *interrupted = true;
                }
            }
            ChatEvent::ToolStarted { call_id, label, .. } => self.entries.push(Entry::Tool {
                call_id: call_id.clone(),
                label: for_people(label),
                summary: None,
                is_error: false,
            }),
            ChatEvent::ToolFinished {
                call_id,
                name,
                summary,
                is_error,
            } => {
                let started = self.entries.iter_mut().rev().find_map(|e| match e {
                    Entry::Tool {
                        call_id: id,
                        summary,
                        is_error,
                        ..
                    } if id == call_id => Some((summary, is_error)),
                    _ => None,
                });
                match started {
                    Some((done, error)) => {
                        *done = Some(for_people(summary));
                        *error = *is_error;
                    }
                    // Its start was never seen (a log cut short, or a write
                    // refused before any card): still say what the tool found,
                    // under its French label, never its key.
                    None => self.entries.push(Entry::Tool {
                        call_id: call_id.clone(),
                        label: crate::chat::tool_label(name).to_string(),
                        summary: Some(for_people(summary)),
                        is_error: *is_error,
                    }),
                }
            }
            ChatEvent::ApprovalRequested(card) => {
                // A card shown twice (the same approval proposed again) keeps
                // one place: the first.
                if self.card_status(card.approval_id).is_none() {
                    self.entries.push(Entry::Approval {
                        card: people::card(card),
                        status: CardStatus::Pending,
                    });
                }
            }
            ChatEvent::ApprovalDecided {
                approval_id,
                status,
                detail,
                decided_by,
            } => {
                for entry in &mut self.entries {
                    if let Entry::Approval { card, status: now } = entry {
                        if card.approval_id == *approval_id {
                            *now = CardStatus::Decided {
                                status: status.clone(),
                                detail: for_people(detail),
                                decided_by: decided_by.as_deref().map(for_people),
                            };
                        }
                    }
                }
            }
            ChatEvent::Notice { text } => self.entries.push(Entry::Notice {
                text: for_people(text),
            }),
            ChatEvent::Playbook(progress) => self.fold_playbook(progress),
            ChatEvent::TurnFinished {
                status, cost_eur, ..
            } => {
                self.running = false;
                self.cost_eur += cost_eur;
                self.entries.push(Entry::TurnEnd {
                    status: status.clone(),
                    cost_eur: *cost_eur,
                });
            }
        }
    }
}

impl Timeline {
    /// The banner follows the open run; a line marks where one opened or
    /// ended (a step done only moves the banner).
    fn fold_playbook(&mut self, progress: &PlaybookProgress) {
        let progress = PlaybookProgress {
            title: for_people(&progress.title),
            goal: for_people(&progress.goal),
            next: progress.next.as_deref().map(for_people),
            ..progress.clone()
        };
        let was = self.playbook.as_ref().map(|p| p.title.clone());
        let line = match progress.status.as_str() {
            "open" if was.as_deref() != Some(progress.title.as_str()) => {
                Some(format!("Parcours ouvert : « {} »", progress.title))
            }
            "completed" => Some(format!("Parcours terminé : « {} »", progress.title)),
            "abandoned" => Some(format!("Parcours abandonné : « {} »", progress.title)),
            "replaced" => Some(format!("Parcours remplacé : « {} »", progress.title)),
            _ => None,
        };
        if let Some(text) = line {
            self.entries.push(Entry::Playbook { text });
        }
        self.playbook = (progress.status == "open").then_some(progress);
    }
}

/// A cost in euros the French way: « 0,12 € ».
pub fn euros(amount: f64) -> String {
    let amount = if amount.is_finite() {
        amount.max(0.0)
    } else {
        0.0
    };
    format!("{amount:.2} €").replace('.', ",")
}

mod people;
#[cfg(test)]
mod tests;
