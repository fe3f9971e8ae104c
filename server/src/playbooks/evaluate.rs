//! The decision as production takes it: the active and observed playbooks
//! made candidates for a caller (eligibility from their profiles and
//! `when`, deterministic triggers), scored for a described action, then
//! [`decide`]d. Every door and the simulator's configuration form use it.
use super::decide::{decide, Band, Candidate, Decision, Guidance};
use super::scoring::{Described, Kind, Score, Source};
use super::store::{self, StoredPlaybook};
use super::when::Facts;
use sqlx::PgPool;

/// A skill's fit for the action (skills never open: they are advice).
#[derive(Clone, Debug, PartialEq)]
pub struct SkillFit {
    pub name: String,
    pub score: f64,
    pub band: Band,
}

/// A decision with what it was taken on.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub decision: Decision,
    /// The skills by descending score (empty unless asked for).
    pub skills: Vec<SkillFit>,
    /// Who scored: `None` when scoring failed (triggers still decide).
    pub source: Option<Source>,
    pub guidance: Guidance,
    pub playbooks: Vec<StoredPlaybook>,
}

/// What an evaluation looks at.
pub struct Inputs<'a> {
    pub guidance: Guidance,
    pub facts: &'a Facts,
    pub action: &'a str,
    /// Score the skills too (seek_guidance, the simulator).
    pub with_skills: bool,
    /// A playbook opened by name (`start_playbook`): a deterministic
    /// trigger of its own.
    pub started: Option<&'a str>,
}

/// Whether `playbook`'s `when` holds for `facts` (no `when`: it holds). A
/// stored expression that no longer parses (it was validated when saved)
/// holds for nobody.
pub fn when_holds(playbook: &StoredPlaybook, facts: &Facts) -> bool {
    match &playbook.definition.activation.when {
        None => true,
        Some(source) => match super::when::parse(source) {
            Ok(expr) => expr.eval(facts),
            Err(e) => {
                tracing::error!(playbook = %playbook.name, error = %e, "a stored `when` does not parse");
                false
            }
        },
    }
}

/// Eligible: the caller's profiles may open it and its `when` holds.
pub fn eligible(playbook: &StoredPlaybook, facts: &Facts) -> bool {
    playbook.definition.may_open(&facts.profiles) && when_holds(playbook, facts)
}

pub async fn evaluate(
    db: &PgPool,
    scorer: Option<&dyn Score>,
    inputs: Inputs<'_>,
) -> sqlx::Result<Evaluation> {
    let playbooks = store::candidates(db).await?;
    Ok(evaluate_among(playbooks, scorer, inputs).await)
}

/// [`evaluate`] over given playbooks (no database).
pub async fn evaluate_among(
    playbooks: Vec<StoredPlaybook>,
    scorer: Option<&dyn Score>,
    inputs: Inputs<'_>,
) -> Evaluation {
    let mut described: Vec<Described> = playbooks
        .iter()
        .map(|p| Described {
            name: p.name.clone(),
            kind: Kind::Playbook,
            text: p.definition.describe_for_scoring(),
        })
        .collect();
    if inputs.with_skills {
        described.extend(super::skills::all().iter().map(|s| Described {
            name: s.name.to_string(),
            kind: Kind::Skill,
            text: s.objective.to_string(),
        }));
    }
    let (scores, source) = match scorer {
        Some(scorer) if !inputs.action.trim().is_empty() => {
            match scorer.score(inputs.action, &described).await {
                Ok(scored) => (scored.scores, Some(scored.source)),
                Err(e) => {
                    tracing::warn!(error = %e, "playbook scoring failed: deterministic triggers only");
                    (vec![0.0; described.len()], None)
                }
            }
        }
        _ => (vec![0.0; described.len()], None),
    };
    let score_of = |i: usize| scores.get(i).copied().unwrap_or(0.0).clamp(0.0, 1.0);
    let candidates: Vec<Candidate> = playbooks
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let eligible = eligible(p, inputs.facts);
            let triggered = match inputs.started {
                Some(name) => name == p.name,
                None => {
                    p.definition.is_deterministic_trigger()
                        && p.definition.activation.when.is_some()
                }
            };
            Candidate {
                name: p.name.clone(),
                eligible,
                deterministic_trigger: eligible && triggered,
                // A playbook without intent is not scored: only its trigger opens it.
                score: if p.definition.activation.intent.is_some() {
                    score_of(i)
                } else {
                    0.0
                },
                observe_only: p.status == store::Status::Observe,
            }
        })
        .collect();
    let mut decision = decide(&inputs.guidance, &candidates);
    // The decision knows a candidate is ineligible, not why: say which rule.
    for judged in decision.candidates.iter_mut().filter(|c| !c.eligible) {
        if let Some(p) = playbooks.iter().find(|p| p.name == judged.name) {
            judged.reason = if !p.definition.may_open(&inputs.facts.profiles) {
                "non admissible : votre profil ne permet pas de l'ouvrir".into()
            } else {
                "non admissible : sa condition d'activation n'est pas remplie".into()
            };
        }
    }
    let mut skills: Vec<SkillFit> = described
        .iter()
        .enumerate()
        .skip(playbooks.len())
        .map(|(i, d)| SkillFit {
            name: d.name.clone(),
            score: score_of(i),
            band: inputs.guidance.band(score_of(i)),
        })
        .collect();
    skills.sort_by(|a, b| b.score.total_cmp(&a.score));
    Evaluation {
        decision,
        skills,
        source,
        guidance: inputs.guidance,
        playbooks,
    }
}
