//! Stage 3 of the search: the finalists become 4 recommended + 4 compatible.
//! The language model ranks; the deterministic scorer answers when no model
//! is configured (the offline provider), and whenever the model gave no
//! usable answer, labelled as such so the team knows which ranking it reads.
use super::finalist::{Finalist, Similarity};
use super::llm_rank::{self, Choice, Ranking};
use super::request::SearchRequest;
use super::scoring::{self, Scored, Tiers};
use crate::db::venue_facts;
use crate::llm::LlmProvider;
use sqlx::PgPool;

/// Shown when the model was asked but its ranking could not be used.
pub const LLM_FAILED_NOTICE: &str = "Classement IA indisponible : classement déterministe.";

pub struct Stage3 {
    pub tiers: Tiers,
    /// `llm` or `deterministic` (`search_runs.ranking_source`).
    pub source: &'static str,
    pub notice: Option<String>,
    /// Finalists shown to the model; `None` when it was not asked.
    pub llm_candidates: Option<usize>,
}

/// `model`: the embedding model of stage 2, which tells the scorer how to
/// read similarities.
pub async fn rank(
    db: &PgPool,
    llm: &dyn LlmProvider,
    req: &SearchRequest,
    finalists: &[Finalist<'_>],
    similarity: Similarity,
    model: &str,
) -> sqlx::Result<Stage3> {
    let deterministic = || scoring::rank(finalists, scoring::Wants::of(req), similarity, model);
    let unasked = || Stage3 {
        tiers: deterministic(),
        source: "deterministic",
        notice: None,
        llm_candidates: None,
    };
    // No finalist, nothing to ask.
    if finalists.is_empty() {
        return Ok(unasked());
    }
    let ids: Vec<i64> = finalists.iter().map(|f| f.candidate.id).collect();
    let facts = venue_facts::for_members(db, &ids).await?;
    let input = llm_rank::Input {
        request: req,
        finalists,
        similarity,
        facts: &facts,
    };
    let report = llm_rank::rank(llm, &input).await;
    if !report.asked {
        return Ok(unasked());
    }
    let (tiers, source, notice) = match report.ranking {
        Some(ranking) => {
            let scores = scoring::scores(finalists, scoring::Wants::of(req), similarity, model);
            (from_llm(ranking, finalists.len(), &scores), "llm", None)
        }
        None => (
            deterministic(),
            "deterministic",
            Some(LLM_FAILED_NOTICE.to_string()),
        ),
    };
    Ok(Stage3 {
        tiers,
        source,
        notice,
        llm_candidates: Some(report.shown),
    })
}

/// The model's tiers with its sentences; each pick keeps the deterministic
/// score for display, and every finalist not picked counts as left out.
fn from_llm(ranking: Ranking, finalists: usize, scores: &[(Scored, f64)]) -> Tiers {
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
