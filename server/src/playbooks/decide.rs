//! The one decision function (seed 004, « Dans quel ordre »): which playbook
//! opens, which are suggested, or nothing. Every door (`seek_guidance`, the
//! first write, `start_playbook`) and the simulator call [`decide`]; it is
//! pure, so what the console simulates is what production does.
//!
//! The rules, in this order:
//! 1. eligibility: a candidate the caller may not open takes no part (its
//!    deterministic trigger is ignored too), whatever its score;
//! 2. the first eligible deterministic trigger, in the given order, opens its
//!    playbook in ENFORCE without looking at scores; `max_mode` does not cap
//!    it (it is an explicit open);
//! 3. otherwise the best eligible score falls in a band, edges inclusive:
//!    `≥ enforce` ENFORCE, `≥ suggest` SUGGEST, below OBSERVE;
//! 4. margin: two best scores both `≥ enforce` and at most `margin` apart →
//!    SUGGEST of the candidates `≥ enforce` within `margin` of the best;
//! 5. a band SUGGEST lists every eligible candidate `≥ suggest`;
//! 6. `max_mode` caps: under `suggest` an ENFORCE becomes a SUGGEST of the
//!    one candidate that would have opened; under `observe` nothing opens
//!    and nothing is suggested (everything is still computed);
//! 7. no eligible candidate → OBSERVE.
//!
//! Ours on top: an `observe_only` candidate (a playbook accepted from a
//! suggestion, still on trial) is scored, banded and listed like the others
//! but never opens and is never suggested: where it would have opened, the
//! decision is OBSERVE and its reason says so.
use serde::Serialize;
use std::cmp::Reverse;

mod reason;

/// A decision's mode, and the band a score falls in. Ordered: what a cap
/// allows is everything up to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Band {
    Observe,
    Suggest,
    Enforce,
}

impl Band {
    /// The spelling of the database and of the station settings.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Enforce => "enforce",
            Band::Suggest => "suggest",
            Band::Observe => "observe",
        }
    }

    /// The inverse of [`Band::as_str`] (lowercase only).
    pub fn parse(s: &str) -> Option<Band> {
        match s {
            "enforce" => Some(Band::Enforce),
            "suggest" => Some(Band::Suggest),
            "observe" => Some(Band::Observe),
            _ => None,
        }
    }

    /// The simulator's spelling (seed 004 writes the modes in capitals).
    pub fn upper(self) -> &'static str {
        match self {
            Band::Enforce => "ENFORCE",
            Band::Suggest => "SUGGEST",
            Band::Observe => "OBSERVE",
        }
    }

    /// For the pages.
    pub fn label(self) -> &'static str {
        match self {
            Band::Enforce => "Imposé",
            Band::Suggest => "Suggéré",
            Band::Observe => "Observé",
        }
    }
}

/// A score or threshold as integer millionths. Every comparison and
/// subtraction of the decision goes through this, so that the thresholds
/// behave as the decimals an admin typed: in binary floating point
/// 0.80 − 0.75 is 0.05000000000000004, which is *not* within a margin of
/// 0.05; in millionths it is 50 000, which is.
fn millionths(x: f64) -> i64 {
    // `as` saturates (NaN → 0); scores are validated before they get here.
    (x * 1_000_000.0).round() as i64
}

/// A station's guidance settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guidance {
    pub enforce: f64,
    pub suggest: f64,
    pub margin: f64,
    pub max_mode: Band,
}

/// Why guidance settings are refused; `field` names the setting.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field} : {message}")]
pub struct GuidanceError {
    pub field: &'static str,
    pub message: String,
}

impl Guidance {
    /// All three numbers in [0,1] and `suggest ≤ enforce` (compared as decimals).
    pub fn validate(&self) -> Result<(), GuidanceError> {
        for (field, value) in [
            ("enforce", self.enforce),
            ("suggest", self.suggest),
            ("margin", self.margin),
        ] {
            if !is_unit(value) {
                return Err(GuidanceError {
                    field,
                    message: "doit être entre 0 et 1".into(),
                });
            }
        }
        if millionths(self.suggest) > millionths(self.enforce) {
            return Err(GuidanceError {
                field: "suggest",
                message: format!(
                    "suggest ({}) doit être inférieur ou égal à enforce ({})",
                    self.suggest, self.enforce
                ),
            });
        }
        Ok(())
    }

    /// The band of one score; edges are inclusive.
    pub fn band(&self, score: f64) -> Band {
        let s = millionths(score);
        if s >= millionths(self.enforce) {
            Band::Enforce
        } else if s >= millionths(self.suggest) {
            Band::Suggest
        } else {
            Band::Observe
        }
    }
}

/// A finite number in [0,1]; what scores and thresholds must be.
pub fn is_unit(x: f64) -> bool {
    x.is_finite() && (0.0..=1.0).contains(&x)
}

/// One playbook (or skill) the decision chooses among.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub name: String,
    /// The caller may open it (profiles, `when`).
    pub eligible: bool,
    /// `start_playbook`, an automation event, `auto_trigger`, a true `when`
    /// without `intent`.
    pub deterministic_trigger: bool,
    /// In [0,1].
    pub score: f64,
    /// On trial: scored and listed, never opened nor suggested.
    pub observe_only: bool,
}

/// One candidate as the decision saw it (what the simulator prints and the
/// decision log keeps).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judged {
    pub name: String,
    pub score: f64,
    /// The band of its score; ENFORCE for an eligible deterministic trigger.
    #[serde(serialize_with = "upper")]
    pub band: Band,
    pub eligible: bool,
    /// One French line.
    pub reason: String,
}

fn upper<S: serde::Serializer>(band: &Band, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(band.upper())
}

/// What [`decide`] decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// After the cap (and after `observe_only`).
    pub mode: Band,
    /// Before `max_mode`: what the trigger or the scores decided.
    pub uncapped: Band,
    /// The playbook that opens (`mode` is then ENFORCE).
    pub opened: Option<String>,
    /// Decided by a deterministic trigger, not by scores.
    pub by_trigger: bool,
    /// Best first (`mode` is then SUGGEST).
    pub suggested: Vec<String>,
    /// Every input candidate, by descending score, ineligible ones last.
    pub candidates: Vec<Judged>,
}

/// What the trigger or the scores decided, before the reasons are written.
enum Outcome {
    /// Rule 7.
    NoneEligible,
    /// Rule 2: the index of the first eligible trigger.
    Trigger(usize),
    /// Rules 3–6 over the eligible candidates, best first.
    Scored {
        ranked: Vec<usize>,
        uncapped: Band,
        /// Rule 4 applied.
        by_margin: bool,
        /// Who would have been opened (ENFORCE) or suggested (SUGGEST),
        /// `observe_only` ones included.
        chosen: Vec<usize>,
    },
}

/// The decision over `candidates` under `guidance` (assumed valid). Pure.
pub fn decide(guidance: &Guidance, candidates: &[Candidate]) -> Decision {
    let outcome = outcome(guidance, candidates);
    let (mode, uncapped, opened, by_trigger, suggested) = match &outcome {
        Outcome::NoneEligible => (Band::Observe, Band::Observe, None, false, vec![]),
        Outcome::Trigger(i) if candidates[*i].observe_only => {
            (Band::Observe, Band::Enforce, None, true, vec![])
        }
        Outcome::Trigger(i) => (Band::Enforce, Band::Enforce, Some(*i), true, vec![]),
        Outcome::Scored {
            uncapped, chosen, ..
        } => {
            let (mode, opened, suggested) = cap(guidance.max_mode, *uncapped, chosen, candidates);
            (mode, *uncapped, opened, false, suggested)
        }
    };
    let judged = reason::judge(guidance, candidates, &outcome, mode);
    Decision {
        mode,
        uncapped,
        opened: opened.map(|i| candidates[i].name.clone()),
        by_trigger,
        suggested: suggested
            .into_iter()
            .map(|i| candidates[i].name.clone())
            .collect(),
        candidates: judged,
    }
}

fn outcome(guidance: &Guidance, candidates: &[Candidate]) -> Outcome {
    let eligible: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].eligible)
        .collect();
    if let Some(&first) = eligible
        .iter()
        .find(|&&i| candidates[i].deterministic_trigger)
    {
        return Outcome::Trigger(first);
    }
    let mut ranked = eligible;
    // Stable: equal scores keep the given order (no rule depends on it:
    // equal scores at the top are within any margin).
    ranked.sort_by_key(|&i| Reverse(millionths(candidates[i].score)));
    let Some(&best) = ranked.first() else {
        return Outcome::NoneEligible;
    };
    let score = |i: usize| millionths(candidates[i].score);
    let band = |i: usize| guidance.band(candidates[i].score);
    let margin = millionths(guidance.margin);
    let by_margin = ranked.get(1).is_some_and(|&second| {
        band(best) == Band::Enforce
            && band(second) == Band::Enforce
            && score(best) - score(second) <= margin
    });
    let (uncapped, chosen) = if by_margin {
        let within = ranked
            .iter()
            .copied()
            .filter(|&i| band(i) == Band::Enforce && score(best) - score(i) <= margin)
            .collect();
        (Band::Suggest, within)
    } else {
        match band(best) {
            Band::Enforce => (Band::Enforce, vec![best]),
            Band::Suggest => (
                Band::Suggest,
                ranked
                    .iter()
                    .copied()
                    .filter(|&i| band(i) >= Band::Suggest)
                    .collect(),
            ),
            Band::Observe => (Band::Observe, vec![]),
        }
    };
    Outcome::Scored {
        ranked,
        uncapped,
        by_margin,
        chosen,
    }
}

/// Rule 6, then `observe_only`: (mode, opened, suggested).
fn cap(
    max_mode: Band,
    uncapped: Band,
    chosen: &[usize],
    candidates: &[Candidate],
) -> (Band, Option<usize>, Vec<usize>) {
    let on_trial = |i: &usize| candidates[*i].observe_only;
    let allowed: Vec<usize> = chosen.iter().copied().filter(|i| !on_trial(i)).collect();
    match (uncapped, max_mode) {
        (Band::Observe, _) | (_, Band::Observe) => (Band::Observe, None, vec![]),
        // The one that would have opened is on trial: nothing happens.
        (Band::Enforce, _) if chosen.iter().any(on_trial) => (Band::Observe, None, vec![]),
        (Band::Enforce, Band::Enforce) => (Band::Enforce, allowed.first().copied(), vec![]),
        (Band::Enforce, Band::Suggest) | (Band::Suggest, _) if allowed.is_empty() => {
            (Band::Observe, None, vec![])
        }
        (Band::Enforce, Band::Suggest) | (Band::Suggest, _) => (Band::Suggest, None, allowed),
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
