//! Stage 3 of the search: the finalists become 4 recommended + 4 compatible.
//! The language model ranks; the deterministic scorer answers when no model
//! is configured (the offline provider), and whenever the model gave no
//! usable answer, labelled as such so the team knows which ranking it reads.
use super::finalist::{Finalist, Similarity};
use super::lessons::{Effects, Lessons};
use super::llm_rank::{self, Choice, Ranking};
use super::request::SearchRequest;
use super::scoring::{self, Scored, Tiers};
use crate::db::venue_facts;
use crate::llm::LlmProvider;
use sqlx::PgPool;

/// Shown when the model was asked but its ranking could not be used.
pub const LLM_FAILED_NOTICE: &str =
    "Classement par l'IA indisponible : lieux classés sans IA (ambiance, jauge, distance, historique).";

pub struct Stage3 {
    pub tiers: Tiers,
    /// `llm` or `deterministic` (`search_runs.ranking_source`).
    pub source: &'static str,
    pub notice: Option<String>,
    /// Finalists shown to the model; `None` when it was not asked.
    pub llm_candidates: Option<usize>,
    /// What the ranking preferred, for the reasons of the venues left out.
    pub wants: scoring::Wants,
    /// Features asked for that no finalist carries, left out of the ranking.
    pub unheld_features: Vec<String>,
}

/// `model`: the embedding model of stage 2, which tells the scorer how to
/// read similarities. `lessons`: the team's training for this kind of
/// event, which both rankings honour (`search::lessons`).
pub async fn rank(
    db: &PgPool,
    llm: &dyn LlmProvider,
    req: &SearchRequest,
    finalists: &[Finalist<'_>],
    similarity: Similarity,
    model: &str,
    lessons: &Lessons,
) -> sqlx::Result<Stage3> {
    let (wants, unheld_features) = scoring::Wants::for_finalists(req, finalists);
    let deterministic =
        |effects: &Effects| scoring::rank(finalists, &wants, similarity, model, effects);
    // No finalist, nothing to ask.
    if finalists.is_empty() {
        return Ok(Stage3 {
            tiers: deterministic(&Effects::default()),
            source: "deterministic",
            notice: None,
            llm_candidates: None,
            wants,
            unheld_features,
        });
    }
    let ids: Vec<i64> = finalists.iter().map(|f| f.candidate.id).collect();
    let facts = venue_facts::for_members(db, &ids).await?;
    let effects = lessons.effects(finalists, &facts);
    let input = llm_rank::Input {
        request: req,
        finalists,
        similarity,
        facts: &facts,
        lessons,
    };
    let report = llm_rank::rank(llm, &input).await;
    if !report.asked {
        return Ok(Stage3 {
            tiers: deterministic(&effects),
            source: "deterministic",
            notice: None,
            llm_candidates: None,
            wants,
            unheld_features,
        });
    }
    let (tiers, source, notice) = match report.ranking {
        Some(ranking) => {
            let scores = scoring::scores(finalists, &wants, similarity, model, &effects);
            let tiers = from_llm(ranking, finalists.len(), &scores);
            (honour_training(tiers, &effects), "llm", None)
        }
        None => (
            deterministic(&effects),
            "deterministic",
            Some(LLM_FAILED_NOTICE.to_string()),
        ),
    };
    Ok(Stage3 {
        tiers,
        source,
        notice,
        llm_candidates: Some(report.shown),
        wants,
        unheld_features,
    })
}

/// The model's tiers with its sentences; each pick keeps the deterministic
/// score for display, and every finalist not picked counts as left out.
fn from_llm(ranking: Ranking, finalists: usize, scores: &[(Scored, Option<f64>)]) -> Tiers {
    let scored = |c: Choice| Scored {
        member_id: c.member_id,
        score: scores
            .iter()
            .find(|(s, _)| s.member_id == c.member_id)
            .map_or(0.0, |(s, _)| s.score),
        reason: c.text,
    };
    let picked = ranking.recommended.len() + ranking.compatible.len();
    Tiers {
        recommended: ranking.recommended.into_iter().map(scored).collect(),
        compatible: ranking.compatible.into_iter().map(scored).collect(),
        rejected: finalists.saturating_sub(picked),
        rejected_reasons: ranking.rejected.into_iter().map(scored).collect(),
    }
}

/// The training holds whatever the model said: a venue rejected for this
/// kind of event is turned down with the training as reason, a demoted one
/// goes to the compatible tier (when it has room), and the reasons cite the
/// lessons that apply.
fn honour_training(tiers: Tiers, effects: &Effects) -> Tiers {
    if effects.is_empty() {
        return tiers;
    }
    let mut out = Tiers {
        recommended: Vec::new(),
        compatible: Vec::new(),
        rejected: tiers.rejected,
        rejected_reasons: Vec::new(),
    };
    let mut demoted = Vec::new();
    for (mut s, recommended) in tiers
        .recommended
        .into_iter()
        .map(|s| (s, true))
        .chain(tiers.compatible.into_iter().map(|s| (s, false)))
    {
        let effect = effects.get(s.member_id);
        if let Some(reason) = effect.and_then(|e| e.rejection()) {
            s.reason = reason;
            out.rejected += 1;
            out.rejected_reasons.push(s);
            continue;
        }
        if let Some(e) = effect {
            s.reason = e.annotate(&s.reason);
        }
        match (recommended, effect.is_some_and(|e| e.is_demoted())) {
            (true, true) => demoted.push(s),
            (true, false) => out.recommended.push(s),
            (false, _) => out.compatible.push(s),
        }
    }
    for s in demoted {
        if out.compatible.len() < 4 {
            out.compatible.insert(0, s);
        } else {
            out.rejected += 1;
        }
    }
    // Those the model did not pick are turned down by the training too.
    for (member_id, reason) in effects.rejections() {
        if !out
            .rejected_reasons
            .iter()
            .any(|r| r.member_id == member_id)
        {
            out.rejected_reasons.push(Scored {
                member_id,
                score: 0.0,
                reason,
            });
        }
    }
    for s in tiers.rejected_reasons {
        if !out
            .rejected_reasons
            .iter()
            .any(|r| r.member_id == s.member_id)
        {
            out.rejected_reasons.push(s);
        }
    }
    out
}
