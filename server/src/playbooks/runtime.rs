//! Playbooks at work in a chat turn: the doors and the rules.
//!
//! - **Doors**: `seek_guidance` (explicit: candidates with score and band;
//!   an ENFORCE opens), `start_playbook` (a deterministic trigger by name;
//!   an open run is replaced and loses its reserved actions), and the
//!   **first write** of a turn made without an open playbook (the same
//!   decision; a write of an exclusive skill is refused until its playbook
//!   is open).
//! - **Once open it rules** ([`rules`]): a step before the steps it needs,
//!   a step whose guard fails, a write the playbook does not plan and a
//!   skill reserved to another playbook are refused with a reason the model
//!   and the person read. A run ends when its last required step is done,
//!   by an explicit abandon (by an allowed profile) or by a replacement.
//!   While a run is open, a better-scoring playbook is only ever suggested.
//! - Every decision and ruling is logged (`guidance_decisions`); every call
//!   made outside a run is an observation for the miner.
use super::decide::Band;
use super::evaluate::{self, Evaluation, Inputs};
use super::log::{self, Asked, Origin};
use super::scoring::Score;
use super::when::Facts;
use crate::tools::Access;
use app::chat::PlaybookProgress;
use sqlx::PgPool;
use std::sync::Arc;

mod doors;
mod rules;
pub mod runs;

pub use doors::GuidanceReply;
use runs::OpenRun;

/// Where a refusal's words for people end and its hint for the model
/// begins (tool and playbook names): the page shows only what comes before.
pub const FOR_THE_ASSISTANT: &str = " — Pour l'assistant : ";

/// The part of a refusal people read (see [`FOR_THE_ASSISTANT`]).
pub fn for_people(text: &str) -> &str {
    text.split(FOR_THE_ASSISTANT).next().unwrap_or(text)
}

/// The playbook runtime every turn shares.
pub struct Guide {
    pub db: PgPool,
    /// `None`: nothing is scored (only deterministic triggers and
    /// `start_playbook` open playbooks).
    pub scorer: Option<Arc<dyn Score>>,
}

/// Who is calling, where, about what.
#[derive(Clone, Debug)]
pub struct Caller {
    pub conversation_id: i64,
    pub user_id: i64,
    /// `chat` or `training`.
    pub station: &'static str,
    pub request_id: Option<i64>,
    /// What the person asked in this turn: the action the first write's
    /// decision scores.
    pub asked: String,
}

/// The rule's word on a call, before it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Gate {
    /// The call goes ahead; `note` is added to what the model reads (an
    /// opened playbook, suggestions to put to the person).
    Proceed { note: Option<String> },
    /// Refused, with the reason the model reads; the person reads its
    /// part before [`FOR_THE_ASSISTANT`].
    Refuse { reason: String },
}

/// What a turn remembers between its calls.
#[derive(Clone, Debug, Default)]
pub struct TurnState {
    /// The first write's decision ran in this turn.
    pub gate_ran: bool,
    /// Tools that ran without error in this turn, in order.
    pub done: Vec<String>,
    /// The run's progress changed: the event to show.
    pub progress: Option<PlaybookProgress>,
}

impl Guide {
    pub fn new(db: PgPool, scorer: Option<Arc<dyn Score>>) -> Self {
        Guide { db, scorer }
    }

    async fn facts(&self, caller: &Caller) -> sqlx::Result<Facts> {
        super::when::facts_for(
            &self.db,
            caller.user_id,
            caller.station,
            caller.request_id,
            None,
        )
        .await
    }

    async fn evaluate(
        &self,
        caller: &Caller,
        facts: &Facts,
        action: &str,
        with_skills: bool,
        started: Option<&str>,
    ) -> sqlx::Result<Evaluation> {
        let guidance = super::stations::guidance(&self.db, caller.station).await?;
        evaluate::evaluate(
            &self.db,
            self.scorer.as_deref(),
            Inputs {
                guidance,
                facts,
                action,
                with_skills,
                started,
            },
        )
        .await
    }

    fn asked<'a>(caller: &'a Caller, origin: Origin, action: &'a str) -> Asked<'a> {
        Asked {
            conversation_id: Some(caller.conversation_id),
            user_id: Some(caller.user_id),
            station: caller.station,
            origin,
            action,
        }
    }

    /// Before a read or write call runs: the open run's rules, or the first
    /// write's decision when none is open.
    pub async fn before_call(
        &self,
        caller: &Caller,
        tool: &str,
        access: Access,
        turn: &mut TurnState,
    ) -> sqlx::Result<Gate> {
        if access == Access::Guidance {
            return Ok(Gate::Proceed { note: None });
        }
        let run = runs::open_run(&self.db, caller.conversation_id).await?;
        let playbooks = super::store::candidates(&self.db).await?;
        match run {
            Some(run) => {
                let facts = self.facts(caller).await?;
                match rules::check(&run, &playbooks, tool, access, &facts) {
                    Ok(()) => Ok(Gate::Proceed { note: None }),
                    Err(reason) => {
                        let guidance = super::stations::guidance(&self.db, caller.station).await?;
                        let outcome = format!("{} refusé : {reason}", tool_label(tool));
                        let asked = Self::asked(caller, Origin::Step, &caller.asked);
                        log::ruling(&self.db, &asked, &guidance, &run, &outcome).await?;
                        Ok(Gate::Refuse { reason })
                    }
                }
            }
            None => {
                let reserved = rules::reserved_by(&playbooks, tool);
                if access != Access::Write && reserved.is_none() {
                    return Ok(Gate::Proceed { note: None });
                }
                if turn.gate_ran && reserved.is_none() {
                    return Ok(Gate::Proceed { note: None });
                }
                turn.gate_ran = true;
                self.first_write(caller, tool, access, turn).await
            }
        }
    }

    /// The implicit door: the decision at the first write without an open
    /// playbook (or at any call of a reserved skill).
    async fn first_write(
        &self,
        caller: &Caller,
        tool: &str,
        access: Access,
        turn: &mut TurnState,
    ) -> sqlx::Result<Gate> {
        let facts = self.facts(caller).await?;
        let action = if caller.asked.trim().is_empty() {
            super::skills::objective(tool).unwrap_or(tool).to_string()
        } else {
            caller.asked.clone()
        };
        let evaluation = self.evaluate(caller, &facts, &action, false, None).await?;
        let asked = Self::asked(caller, Origin::ImplicitGate, &action);
        if let Some(name) = evaluation.decision.opened.clone() {
            let by_trigger = evaluation.decision.by_trigger;
            let opened = self
                .open(
                    caller,
                    &evaluation,
                    &name,
                    by_trigger,
                    runs::OpenedBy::ImplicitGate,
                    turn,
                )
                .await?;
            let Some(run) = opened else {
                return Ok(Gate::Proceed { note: None });
            };
            let check = rules::check(&run, &evaluation.playbooks, tool, access, &facts);
            let title = title(&run.definition);
            let (gate, outcome) = match check {
                Ok(()) => (
                    Gate::Proceed {
                        note: Some(format!(
                            "Le parcours « {title} » est maintenant ouvert : ses étapes s'imposent dans l'ordre ({}).",
                            steps_line(&run)
                        )),
                    },
                    format!("ouvert : {title}"),
                ),
                Err(reason) => (
                    Gate::Refuse {
                        reason: match reason.split_once(FOR_THE_ASSISTANT) {
                            Some((shown, hint)) => format!(
                                "{shown} (Le parcours vient de s'ouvrir.){FOR_THE_ASSISTANT}{hint}"
                            ),
                            None => format!("{reason} (Le parcours vient de s'ouvrir.)"),
                        },
                    },
                    format!("ouvert : {title} ; {} refusé : {reason}", tool_label(tool)),
                ),
            };
            log::decision(&self.db, &asked, &evaluation, &outcome, Some(run.id)).await?;
            return Ok(gate);
        }
        if let Some(owner) = rules::reserved_by(&evaluation.playbooks, tool) {
            let eligible = evaluate::eligible(owner, &facts);
            let reason = if eligible {
                format!(
                    "« {} » est réservé au parcours « {} » : ouvrez d'abord ce parcours.{FOR_THE_ASSISTANT}start_playbook avec le nom « {} » l'ouvre, si la personne le veut.",
                    tool_label(tool),
                    title(&owner.definition),
                    owner.name
                )
            } else {
                format!(
                    "« {} » est réservé au parcours « {} », que votre profil ne permet pas d'ouvrir.",
                    tool_label(tool),
                    title(&owner.definition)
                )
            };
            let outcome = format!("{} refusé : {reason}", tool_label(tool));
            log::decision(&self.db, &asked, &evaluation, &outcome, None).await?;
            return Ok(Gate::Refuse { reason });
        }
        let note = suggestion_note(&evaluation);
        let outcome = match (&note, evaluation.decision.mode) {
            (Some(_), _) => format!(
                "suggéré : {} ; {} poursuivi",
                titles(&evaluation, &evaluation.decision.suggested),
                tool_label(tool)
            ),
            (None, _) => format!("rien n'a été ouvert ; {} poursuivi", tool_label(tool)),
        };
        log::decision(&self.db, &asked, &evaluation, &outcome, None).await?;
        Ok(Gate::Proceed { note })
    }

    /// Opens `name` for the caller (replacing an open run), prefilled with
    /// the steps this turn already did. Returns the run as it now stands.
    async fn open(
        &self,
        caller: &Caller,
        evaluation: &Evaluation,
        name: &str,
        by_trigger: bool,
        door: runs::OpenedBy,
        turn: &mut TurnState,
    ) -> sqlx::Result<Option<OpenRun>> {
        let Some(playbook) = evaluation.playbooks.iter().find(|p| p.name == name) else {
            return Ok(None);
        };
        let judged = evaluation
            .decision
            .candidates
            .iter()
            .find(|c| c.name == name);
        let steps_done: Vec<String> = playbook
            .definition
            .steps
            .iter()
            .map(|s| s.skill.clone())
            .filter(|skill| turn.done.contains(skill))
            .fold(Vec::new(), |mut acc, s| {
                if !acc.contains(&s) {
                    acc.push(s);
                }
                acc
            });
        // `start_playbook` is a trigger of its own, recorded as explicit.
        let opened_by = match door {
            runs::OpenedBy::Explicit => door,
            _ if by_trigger => runs::OpenedBy::Trigger,
            _ => door,
        };
        runs::open(
            &self.db,
            runs::Opening {
                playbook_id: playbook.id,
                version: playbook.version,
                name,
                conversation_id: caller.conversation_id,
                station: caller.station,
                user_id: caller.user_id,
                opened_by,
                scored: (!by_trigger)
                    .then(|| judged.map(|c| (c.band.as_str(), c.score)))
                    .flatten(),
                steps_done,
            },
        )
        .await?;
        let run = runs::open_run(&self.db, caller.conversation_id).await?;
        turn.progress = run.as_ref().map(|r| progress_of(r, "open"));
        Ok(run)
    }

    /// After a read ran or a write became a card: the run's progress, or an
    /// observation when no run is open.
    pub async fn after_call(
        &self,
        caller: &Caller,
        tool: &str,
        succeeded: bool,
        turn: &mut TurnState,
    ) -> sqlx::Result<()> {
        if crate::tools::GUIDANCE.contains(&tool) {
            return Ok(());
        }
        if succeeded {
            turn.done.push(tool.to_string());
        }
        let Some(run) = runs::open_run(&self.db, caller.conversation_id).await? else {
            return log::observation(
                &self.db,
                caller.conversation_id,
                caller.user_id,
                caller.station,
                tool,
            )
            .await;
        };
        if !succeeded || !run.definition.steps.iter().any(|s| s.skill == tool) {
            return Ok(());
        }
        let done = runs::step_done(&self.db, run.id, tool).await?;
        let run = OpenRun {
            steps_done: done,
            ..run
        };
        if rules::complete(&run) {
            runs::close(
                &self.db,
                run.id,
                runs::Closing::Completed,
                caller.user_id,
                None,
            )
            .await?;
            turn.progress = Some(progress_of(&run, "completed"));
        } else {
            turn.progress = Some(progress_of(&run, "open"));
        }
        Ok(())
    }
}

/// A playbook's title as people read it.
pub fn title(definition: &super::definition::Definition) -> String {
    definition.title()
}

fn tool_label(tool: &str) -> String {
    crate::agent::labels::label(tool)
        .trim_end_matches('…')
        .to_string()
}

fn titles(evaluation: &Evaluation, names: &[String]) -> String {
    names
        .iter()
        .map(|n| {
            evaluation
                .playbooks
                .iter()
                .find(|p| &p.name == n)
                .map_or(n.clone(), |p| format!("« {} »", title(&p.definition)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the model reads when the decision suggested playbooks: it may put
/// them to the person, never open one by itself.
fn suggestion_note(evaluation: &Evaluation) -> Option<String> {
    if evaluation.decision.mode != Band::Suggest || evaluation.decision.suggested.is_empty() {
        return None;
    }
    let names: Vec<String> = evaluation
        .decision
        .suggested
        .iter()
        .map(|n| {
            let score = evaluation
                .decision
                .candidates
                .iter()
                .find(|c| &c.name == n)
                .map_or(0.0, |c| c.score);
            format!("{n} ({score:.2})")
        })
        .collect();
    Some(format!(
        "Parcours suggérés pour cette demande : {} ({}). Demande à l'utilisateur s'il veut en suivre un (start_playbook) ; rien n'est ouvert sans lui.",
        titles(evaluation, &evaluation.decision.suggested),
        names.join(", ")
    ))
}

/// The steps in order with their state, for the model.
fn steps_line(run: &OpenRun) -> String {
    run.definition
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let state = if run.steps_done.contains(&s.skill) {
                "fait"
            } else if s.optional {
                "facultatif"
            } else {
                "à faire"
            };
            format!("{}. {} — {state}", i + 1, s.skill)
        })
        .collect::<Vec<_>>()
        .join(" ; ")
}

/// The run as the chat shows it.
pub fn progress_of(run: &OpenRun, status: &str) -> PlaybookProgress {
    let steps = &run.definition.steps;
    let done = steps
        .iter()
        .filter(|s| run.steps_done.contains(&s.skill))
        .count();
    let next = steps
        .iter()
        .find(|s| !run.steps_done.contains(&s.skill))
        .map(|s| tool_label(&s.skill));
    PlaybookProgress {
        title: title(&run.definition),
        goal: run.definition.goal.clone(),
        done,
        steps: steps.len(),
        next: if status == "open" { next } else { None },
        status: status.to_string(),
    }
}
