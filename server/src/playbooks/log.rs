//! OBSERVE's raw material: every guidance decision (`guidance_decisions`,
//! even when nothing opened) and every tool call made outside any playbook
//! (`observations`, the miner's input).
use super::decide::Decision;
use super::evaluate::Evaluation;
use sqlx::PgPool;

/// The door a decision was taken at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    SeekGuidance,
    ImplicitGate,
    StartPlaybook,
    /// An open run ruling on a call (a step out of order, a guard).
    Step,
    /// An abandon, allowed or refused.
    Abandon,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::SeekGuidance => "seek_guidance",
            Origin::ImplicitGate => "implicit_gate",
            Origin::StartPlaybook => "start_playbook",
            Origin::Step => "step",
            Origin::Abandon => "abandon",
        }
    }
}

/// Who asked, where.
#[derive(Clone, Debug)]
pub struct Asked<'a> {
    pub conversation_id: Option<i64>,
    pub user_id: Option<i64>,
    pub station: &'a str,
    pub origin: Origin,
    pub action: &'a str,
}

/// The candidates as the log keeps them: playbooks first (as decided),
/// then the skills with their score and band.
fn candidates_json(evaluation: &Evaluation) -> serde_json::Value {
    let playbooks = evaluation.decision.candidates.iter().map(|c| {
        serde_json::json!({
            "kind": "playbook", "name": c.name, "score": c.score,
            "band": c.band.as_str(), "eligible": c.eligible, "reason": c.reason,
        })
    });
    let skills = evaluation.skills.iter().map(|s| {
        serde_json::json!({
            "kind": "skill", "name": s.name, "score": s.score,
            "band": s.band.as_str(), "eligible": true, "reason": "",
        })
    });
    serde_json::Value::Array(playbooks.chain(skills).collect())
}

/// Writes one decision; returns its id. `outcome` says what followed, in
/// French (« ouvert », « écriture refusée : … », « rien n'a été ouvert »).
pub async fn decision(
    db: &PgPool,
    asked: &Asked<'_>,
    evaluation: &Evaluation,
    outcome: &str,
    run_id: Option<i64>,
) -> sqlx::Result<i64> {
    let Decision {
        mode,
        uncapped,
        opened,
        suggested,
        ..
    } = &evaluation.decision;
    let chosen_id = opened
        .as_deref()
        .and_then(|name| evaluation.playbooks.iter().find(|p| p.name == name))
        .map(|p| p.id);
    let g = &evaluation.guidance;
    sqlx::query_scalar(
        "INSERT INTO guidance_decisions
           (conversation_id, origin, query, candidates, chosen, chosen_playbook_id, band,
            max_mode, enforce_threshold, suggest_threshold, margin, station, user_id,
            uncapped_band, suggested, outcome, run_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING id",
    )
    .bind(asked.conversation_id)
    .bind(asked.origin.as_str())
    .bind(asked.action)
    .bind(candidates_json(evaluation))
    .bind(opened.as_deref())
    .bind(chosen_id)
    .bind(mode.as_str())
    .bind(g.max_mode.as_str())
    .bind(g.enforce)
    .bind(g.suggest)
    .bind(g.margin)
    .bind(asked.station)
    .bind(asked.user_id)
    .bind(uncapped.as_str())
    .bind(suggested)
    .bind(outcome)
    .bind(run_id)
    .fetch_one(db)
    .await
}

/// A tool call made outside any playbook, with the call before it in the
/// same conversation (the pattern `after:x|call:y` the miner counts).
pub async fn observation(
    db: &PgPool,
    conversation_id: i64,
    user_id: i64,
    station: &str,
    tool: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO observations (conversation_id, user_id, station, tool_name, after_tool, pattern_key)
         SELECT $1, $2, $3, $4, prev.tool_name,
                CASE WHEN prev.tool_name IS NULL THEN 'call:' || $4
                     ELSE 'after:' || prev.tool_name || '|call:' || $4 END
           FROM (SELECT NULL) AS one
           LEFT JOIN LATERAL (SELECT tool_name FROM observations
                               WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1) prev ON true",
    )
    .bind(conversation_id)
    .bind(user_id)
    .bind(station)
    .bind(tool)
    .execute(db)
    .await?;
    Ok(())
}

/// An open run's ruling (a step refused, an abandon allowed or refused):
/// logged beside the decisions, with the run's playbook as the choice and
/// the station's settings in force.
pub async fn ruling(
    db: &PgPool,
    asked: &Asked<'_>,
    guidance: &super::decide::Guidance,
    run: &super::runtime::runs::OpenRun,
    outcome: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO guidance_decisions
           (conversation_id, origin, query, candidates, chosen, chosen_playbook_id, band,
            max_mode, enforce_threshold, suggest_threshold, margin, station, user_id,
            uncapped_band, outcome, run_id)
         VALUES ($1, $2, $3, '[]', $4, $5, 'enforce', $6, $7, $8, $9, $10, $11, 'enforce', $12, $13)
         RETURNING id",
    )
    .bind(asked.conversation_id)
    .bind(asked.origin.as_str())
    .bind(asked.action)
    .bind(&run.name)
    .bind(run.playbook_id)
    .bind(guidance.max_mode.as_str())
    .bind(guidance.enforce)
    .bind(guidance.suggest)
    .bind(guidance.margin)
    .bind(asked.station)
    .bind(asked.user_id)
    .bind(outcome)
    .bind(run.id)
    .fetch_one(db)
    .await
}
