//! The explicit doors: `seek_guidance`, `start_playbook`, `abandon_playbook`.
use super::{progress_of, runs, title, Caller, Guide, TurnState, FOR_THE_ASSISTANT};
use crate::playbooks::decide::Band;
use crate::playbooks::log::{self, Origin};
use crate::tools::args::{AbandonPlaybook, SeekGuidance, StartPlaybook};
use crate::tools::write::parse;
use serde_json::json;

/// What a guidance tool answers: for the model, for the person, and
/// whether it was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct GuidanceReply {
    pub for_model: String,
    pub summary: String,
    pub is_error: bool,
}

impl GuidanceReply {
    fn ok(for_model: serde_json::Value, summary: String) -> Self {
        GuidanceReply {
            for_model: for_model.to_string(),
            summary,
            is_error: false,
        }
    }

    fn refused(reason: String) -> Self {
        GuidanceReply {
            for_model: reason.clone(),
            summary: reason,
            is_error: true,
        }
    }
}

impl Guide {
    /// Runs one of the guidance tools.
    pub async fn guidance_call(
        &self,
        caller: &Caller,
        tool: &str,
        input: &serde_json::Value,
        turn: &mut TurnState,
    ) -> sqlx::Result<GuidanceReply> {
        let reply = match tool {
            "seek_guidance" => match parse::<SeekGuidance>(input) {
                Ok(args) => self.seek_guidance(caller, args.action.trim(), turn).await?,
                Err(e) => GuidanceReply::refused(e.to_string()),
            },
            "start_playbook" => match parse::<StartPlaybook>(input) {
                Ok(args) => self.start_playbook(caller, args.name.trim(), turn).await?,
                Err(e) => GuidanceReply::refused(e.to_string()),
            },
            "abandon_playbook" => match parse::<AbandonPlaybook>(input) {
                Ok(args) => self.abandon(caller, args.reason.trim(), turn).await?,
                Err(e) => GuidanceReply::refused(e.to_string()),
            },
            other => GuidanceReply::refused(format!("outil inconnu : {other}")),
        };
        Ok(reply)
    }

    async fn seek_guidance(
        &self,
        caller: &Caller,
        action: &str,
        turn: &mut TurnState,
    ) -> sqlx::Result<GuidanceReply> {
        if action.is_empty() {
            return Ok(GuidanceReply::refused(
                "arguments invalides : décrivez l'action (« action ») en une phrase".into(),
            ));
        }
        let facts = self.facts(caller).await?;
        let mut evaluation = self.evaluate(caller, &facts, action, true, None).await?;
        let open = runs::open_run(&self.db, caller.conversation_id).await?;
        // While a run is open another playbook is only ever suggested.
        if let (Some(run), Some(name)) = (&open, evaluation.decision.opened.clone()) {
            if name != run.name {
                evaluation.decision.opened = None;
                evaluation.decision.by_trigger = false;
                evaluation.decision.mode = Band::Suggest;
                evaluation.decision.suggested = vec![name];
            } else {
                evaluation.decision.opened = None;
            }
        }
        let asked = Self::asked(caller, Origin::SeekGuidance, action);
        let mut run_id = open.as_ref().map(|r| r.id);
        let mut outcome = match &open {
            Some(run) => format!("parcours déjà ouvert : {}", title(&run.definition)),
            None => "rien n'a été ouvert".to_string(),
        };
        if let Some(name) = evaluation.decision.opened.clone() {
            let by_trigger = evaluation.decision.by_trigger;
            if let Some(run) = self
                .open(
                    caller,
                    &evaluation,
                    &name,
                    by_trigger,
                    runs::OpenedBy::Model,
                    turn,
                )
                .await?
            {
                outcome = format!("ouvert : {}", title(&run.definition));
                run_id = Some(run.id);
            }
        } else if !evaluation.decision.suggested.is_empty() {
            outcome = format!(
                "suggéré : {}",
                super::titles(&evaluation, &evaluation.decision.suggested)
            );
        }
        log::decision(&self.db, &asked, &evaluation, &outcome, run_id).await?;
        let playbooks: Vec<serde_json::Value> = evaluation
            .decision
            .candidates
            .iter()
            .filter(|c| c.eligible)
            .map(|c| {
                let stored = evaluation.playbooks.iter().find(|p| p.name == c.name);
                json!({
                    "name": c.name,
                    "title": stored.map(|p| title(&p.definition)),
                    "goal": stored.map(|p| p.definition.goal.clone()),
                    "score": round(c.score), "band": c.band.upper(), "reason": c.reason,
                })
            })
            .collect();
        let skills: Vec<serde_json::Value> = evaluation
            .skills
            .iter()
            .take(5)
            .map(|s| json!({"name": s.name, "score": round(s.score), "band": s.band.upper()}))
            .collect();
        let opened = evaluation.decision.opened.clone();
        let now_open = runs::open_run(&self.db, caller.conversation_id).await?;
        let summary = match (&opened, &now_open) {
            (Some(_), Some(run)) => format!("Parcours ouvert : « {} »", title(&run.definition)),
            _ if !evaluation.decision.suggested.is_empty() => format!(
                "Parcours suggérés : {}",
                super::titles(&evaluation, &evaluation.decision.suggested)
            ),
            _ => "Aucun parcours ne s'impose".to_string(),
        };
        let body = json!({
            "mode": evaluation.decision.mode.upper(),
            "opened": opened,
            "suggested": evaluation.decision.suggested,
            "open_playbook": now_open.as_ref().map(|r| json!({
                "name": r.name, "title": title(&r.definition), "steps": super::steps_line(r),
            })),
            "playbooks": playbooks,
            "skills": skills,
            "note": if evaluation.decision.mode == Band::Suggest {
                "Propose ces parcours à l'utilisateur ; n'en ouvre un (start_playbook) que s'il le veut."
            } else { "" },
        });
        Ok(GuidanceReply::ok(body, summary))
    }

    async fn start_playbook(
        &self,
        caller: &Caller,
        name: &str,
        turn: &mut TurnState,
    ) -> sqlx::Result<GuidanceReply> {
        let facts = self.facts(caller).await?;
        let action = format!("ouvrir le parcours {name}");
        let evaluation = self
            .evaluate(caller, &facts, &action, false, Some(name))
            .await?;
        let asked = Self::asked(caller, Origin::StartPlaybook, &action);
        let Some(stored) = evaluation.playbooks.iter().find(|p| p.name == name) else {
            let known: Vec<&crate::playbooks::store::StoredPlaybook> = evaluation
                .playbooks
                .iter()
                .filter(|p| crate::playbooks::evaluate::eligible(p, &facts))
                .collect();
            let titles: Vec<String> = known
                .iter()
                .map(|p| format!("« {} »", title(&p.definition)))
                .collect();
            let names: Vec<&str> = known.iter().map(|p| p.name.as_str()).collect();
            return Ok(GuidanceReply::refused(format!(
                "Ce parcours n'existe pas. Parcours que vous pouvez ouvrir ici : {}.{FOR_THE_ASSISTANT}noms permis : {}",
                if titles.is_empty() { "aucun".to_string() } else { titles.join(", ") },
                if names.is_empty() { "aucun".to_string() } else { names.join(", ") }
            )));
        };
        let open = runs::open_run(&self.db, caller.conversation_id).await?;
        if open.as_ref().is_some_and(|r| r.name == name) {
            return Ok(GuidanceReply::ok(
                json!({"opened": name, "note": "ce parcours est déjà ouvert"}),
                format!("Parcours déjà ouvert : « {} »", title(&stored.definition)),
            ));
        }
        let refusal = if !stored.definition.may_open(&facts.profiles) {
            Some(format!(
                "Votre profil ne permet pas d'ouvrir le parcours « {} ».",
                title(&stored.definition)
            ))
        } else if evaluation.decision.opened.as_deref() != Some(name) {
            let reason = evaluation
                .decision
                .candidates
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.reason.clone())
                .unwrap_or_default();
            Some(format!(
                "Le parcours « {} » ne peut pas s'ouvrir ici : {reason}.",
                title(&stored.definition),
                reason = reason.trim_end_matches('.')
            ))
        } else {
            None
        };
        if let Some(reason) = refusal {
            log::decision(
                &self.db,
                &asked,
                &evaluation,
                &format!("refusé : {reason}"),
                None,
            )
            .await?;
            return Ok(GuidanceReply::refused(reason));
        }
        let replaced = open.map(|r| title(&r.definition));
        let run = self
            .open(
                caller,
                &evaluation,
                name,
                true,
                runs::OpenedBy::Explicit,
                turn,
            )
            .await?;
        let Some(run) = run else {
            return Ok(GuidanceReply::refused(
                "ce parcours n'a pas pu s'ouvrir".into(),
            ));
        };
        let outcome = match &replaced {
            Some(old) => format!(
                "ouvert : {} ; remplace « {old} », qui perd ses actions réservées",
                title(&run.definition)
            ),
            None => format!("ouvert : {}", title(&run.definition)),
        };
        log::decision(&self.db, &asked, &evaluation, &outcome, Some(run.id)).await?;
        let summary = match &replaced {
            Some(old) => format!(
                "Parcours « {} » ouvert, à la place de « {old} »",
                title(&run.definition)
            ),
            None => format!("Parcours ouvert : « {} »", title(&run.definition)),
        };
        Ok(GuidanceReply::ok(
            json!({
                "opened": run.name, "title": title(&run.definition), "goal": run.definition.goal,
                "steps": super::steps_line(&run), "replaced": replaced,
            }),
            summary,
        ))
    }

    async fn abandon(
        &self,
        caller: &Caller,
        reason: &str,
        turn: &mut TurnState,
    ) -> sqlx::Result<GuidanceReply> {
        let Some(run) = runs::open_run(&self.db, caller.conversation_id).await? else {
            return Ok(GuidanceReply::refused(
                "Aucun parcours n'est ouvert dans cette conversation.".into(),
            ));
        };
        let reply = self.abandon_run(caller, &run, reason).await?;
        if !reply.is_error {
            turn.progress = Some(progress_of(&run, "abandoned"));
        }
        Ok(reply)
    }

    /// Abandons `run` for the caller when their profiles allow it; the
    /// attempt is logged either way. Shared with the chat's button.
    pub async fn abandon_run(
        &self,
        caller: &Caller,
        run: &runs::OpenRun,
        reason: &str,
    ) -> sqlx::Result<GuidanceReply> {
        let facts = self.facts(caller).await?;
        let guidance = crate::playbooks::stations::guidance(&self.db, caller.station).await?;
        let asked = Self::asked(caller, Origin::Abandon, reason);
        if reason.is_empty() {
            return Ok(GuidanceReply::refused(
                "arguments invalides : donnez la raison de l'abandon (« reason »)".into(),
            ));
        }
        if !run.definition.may_abandon(&facts.profiles) {
            let allowed = if run.definition.profiles.abandon.is_empty() {
                "admin".to_string()
            } else {
                run.definition.profiles.abandon.join(", ")
            };
            let refusal = format!(
                "Votre profil ne permet pas d'abandonner le parcours « {} » (profils autorisés : {allowed}).",
                title(&run.definition)
            );
            log::ruling(
                &self.db,
                &asked,
                &guidance,
                run,
                &format!("abandon refusé : {refusal}"),
            )
            .await?;
            return Ok(GuidanceReply::refused(refusal));
        }
        runs::close(
            &self.db,
            run.id,
            runs::Closing::Abandoned,
            caller.user_id,
            Some(reason),
        )
        .await?;
        log::ruling(&self.db, &asked, &guidance, run, "abandonné").await?;
        Ok(GuidanceReply::ok(
            json!({"abandoned": run.name, "reason": reason}),
            format!("Parcours « {} » abandonné", title(&run.definition)),
        ))
    }
}

fn round(score: f64) -> f64 {
    (score * 100.0).round() / 100.0
}
