//! Who reads the organizer's request: the language model (the `parse`
//! task) when one is configured, the deterministic extractor
//! ([`criteria::extract`]) otherwise, and whenever the model gave no usable
//! reading in time.
//!
//! The model answers the same structure as the extractor, as strict JSON.
//! Nothing of it is used before [`answer::parse`] has validated it against
//! the gazetteer and the vocabulary: unknown codes, places and layouts are
//! dropped, numbers out of bounds too, and coordinates always come from the
//! gazetteer. An answer that is not that JSON gets exactly one more call,
//! which tells the model what was wrong; after that, or past [`DEADLINE`],
//! the rules read the request and « Compris » says why.
//!
//! Recording the calls is the provider wrapper's business
//! ([`crate::llm::Recording`]), not this module's.
pub mod answer;
mod places;
mod preview;
pub mod prompt;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use super::criteria::{self, Criteria};
use crate::llm::{Completion, CompletionRequest, LlmError, LlmProvider, Message, StopReason, Task};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The whole reading, retry included: the search as a whole aims at < 5 s,
/// and the rules read a request in well under a millisecond.
pub const DEADLINE: Duration = Duration::from_secs(4);
/// Calls per reading, the first included.
const MAX_CALLS: usize = 2;
/// A second call with less time than this left would not answer in time.
const MIN_CALL_TIME: Duration = Duration::from_millis(500);
/// The fields take ~100 tokens; the description is never longer than the
/// request (at most 2,000 characters, about 600 tokens).
const MAX_TOKENS: u32 = 1024;

/// Who read the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The deterministic extractor.
    Rules,
    /// The language model, its answer validated.
    Model,
}

impl Reader {
    /// How « Compris » names the reader.
    pub fn label(self) -> &'static str {
        match self {
            // The team's words: no « règles », no « modèle » (issue 29).
            Reader::Rules => "lecture automatique, sans IA",
            Reader::Model => "lu par l'IA",
        }
    }
}

/// The request as read, and by whom.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Same struct as the extractor's.
    pub criteria: Criteria,
    pub reader: Reader,
    /// Why the model's reading was not used, when one was asked (French,
    /// for « Compris »).
    pub fallback: Option<String>,
}

impl Reading {
    /// The « Compris » line on who read the request, or why the model's
    /// reading was not used (`request::build_from`'s `reader_notes`).
    pub fn reader_notes(&self) -> Vec<String> {
        vec![match &self.fallback {
            Some(why) => why.clone(),
            None => self.reader.label().to_string(),
        }]
    }
}

/// Shown when the model could not be reached, or not in time.
pub const UNAVAILABLE_NOTE: &str =
    "Lecture par le modèle indisponible : demande lue par les règles.";
/// Shown when the model answered twice something unusable.
pub const UNUSABLE_NOTE: &str = "Lecture par le modèle inutilisable : demande lue par les règles.";

/// Reads `text` with the model when there is one, else with the rules.
/// Never fails and never takes much longer than [`DEADLINE`].
pub async fn read(llm: &dyn LlmProvider, text: &str) -> Reading {
    let rules = |fallback: Option<&str>| Reading {
        criteria: criteria::extract(text),
        reader: Reader::Rules,
        fallback: fallback.map(str::to_string),
    };
    let (input, truncated) = cut(text);
    // Nothing to read: no call to pay for.
    if input.trim().is_empty() {
        return rules(None);
    }
    let mut request = CompletionRequest {
        task: Task::Parse,
        system: prompt::system(),
        messages: vec![Message::user(prompt::user(input))],
        max_tokens: MAX_TOKENS,
        // The same request should read the same way.
        temperature: Some(0.0),
        time_limit: None,
    };
    // The check keeps the last answer so the retry can quote it back.
    let last_answer = Mutex::new(String::new());
    let check = |c: &Completion| {
        *last_answer.lock().unwrap_or_else(PoisonError::into_inner) = c.text.clone();
        match answer::parse(&c.text, input) {
            Ok(_) => Ok(()),
            Err(reason) if c.stop_reason == StopReason::EndTurn => Err(reason),
            Err(reason) => Err(format!("{reason} (stop reason {:?})", c.stop_reason)),
        }
    };
    let started = Instant::now();
    for attempt in 1..=MAX_CALLS {
        request.time_limit = Some(DEADLINE.saturating_sub(started.elapsed()));
        match llm.complete_checked(&request, &check).await {
            Ok(completion) => {
                // The check accepted this text: parsing it again gives the same.
                let Ok(parsed) = answer::parse(&completion.text, input) else {
                    break;
                };
                for note in &parsed.dropped {
                    tracing::info!(attempt, "request reading: dropped {note}");
                }
                let mut criteria = parsed.criteria;
                // The model's answer has no field for exclusions, départements
                // nor wanted features: the rules read those (ADR 0032), and a place
                // the rules rule out is never searched.
                let ruled = criteria::extract(text);
                criteria
                    .postal_codes
                    .retain(|c| !ruled.excluded_postal_codes.contains(c));
                criteria.departments = ruled.departments;
                criteria.excluded_postal_codes = ruled.excluded_postal_codes;
                criteria.excluded_departments = ruled.excluded_departments;
                criteria.excluded_kinds = ruled.excluded_kinds;
                criteria.wanted_tags = ruled.wanted_tags;
                // A meal's preferred layouts, unless the model read a layout.
                if criteria.configurations.is_empty() {
                    criteria.meal_layouts = ruled.meal_layouts;
                }
                // The date, the rules' remark: what the model read is no filter either.
                if ruled.remarks.iter().any(|r| r == criteria::DATE_NOTE)
                    && !criteria.remarks.iter().any(|r| r == criteria::DATE_NOTE)
                {
                    criteria.remarks.push(criteria::DATE_NOTE.to_string());
                }
                if truncated {
                    criteria.remarks.push(format!(
                        "texte tronqué à {} octets",
                        criteria::MAX_INPUT_BYTES
                    ));
                }
                // Worded as the extractor words its own criteria.
                criteria.notes = criteria::summary(&criteria);
                criteria.notes.extend(criteria.remarks.iter().cloned());
                return Reading {
                    criteria,
                    reader: Reader::Model,
                    fallback: None,
                };
            }
            Err(LlmError::Offline) => return rules(None),
            Err(LlmError::Unusable(reason)) => {
                tracing::warn!(attempt, "request reading: unusable answer: {reason}");
                let left = DEADLINE.saturating_sub(started.elapsed());
                if attempt == MAX_CALLS || left < MIN_CALL_TIME {
                    return rules(Some(UNUSABLE_NOTE));
                }
                let previous = last_answer
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                request
                    .messages
                    .push(Message::assistant(replayed(&previous)));
                request
                    .messages
                    .push(Message::user(prompt::correction(&reason)));
            }
            // The client already retried what was worth retrying within the
            // time limit: a second round would only make the team wait.
            Err(e) => {
                tracing::warn!(attempt, error = %e, "request reading: the model failed");
                return rules(Some(UNAVAILABLE_NOTE));
            }
        }
    }
    rules(Some(UNUSABLE_NOTE))
}

/// The text cut as the extractor cuts it, and whether it was cut.
fn cut(text: &str) -> (&str, bool) {
    if text.len() <= criteria::MAX_INPUT_BYTES {
        return (text, false);
    }
    let mut end = criteria::MAX_INPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default(), true)
}

/// The model's previous turn as the API accepts it (never empty).
fn replayed(answer: &str) -> String {
    let answer = answer.trim();
    if answer.is_empty() {
        "(réponse vide)".to_string()
    } else {
        answer.to_string()
    }
}
