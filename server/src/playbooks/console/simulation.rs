//! The console's simulator: the GET form's fields become the simulator's
//! JSON input (explicit, or from the configuration), and its JSON answer
//! becomes French rows. Nothing is written.
use super::decisions::score_text;
use crate::playbooks::decide::Band;
use crate::playbooks::miner::tool_label;
use crate::playbooks::simulate::{self, SimulateError};
use app::errors::AppError;
use app::playbook_console::{CandidateView, SimulationInput, SimulationView, PROFILES};
use serde_json::{json, Value};

/// What the simulator is asked, as its JSON input; refused with a French
/// message naming the field.
pub fn input(form: &SimulationInput) -> Result<Value, AppError> {
    if !form.explicit.trim().is_empty() {
        let value = simulate::parse(&form.explicit).map_err(refusal)?;
        if !value.is_object() || !simulate::is_explicit(&value) {
            return Err(AppError::Invalid(
                "Entrée explicite : un objet JSON avec « guidance » et « candidates » est attendu."
                    .into(),
            ));
        }
        return Ok(value);
    }
    let station = form.station.trim();
    if station.is_empty() {
        return Err(AppError::Invalid("Choisissez une station.".into()));
    }
    let action = form.action.trim();
    if action.is_empty() {
        return Err(AppError::Invalid("Décrivez l'action à simuler.".into()));
    }
    let mut profiles = Vec::new();
    for p in form
        .profiles
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        if !PROFILES.iter().any(|(k, _)| *k == p) {
            return Err(AppError::Invalid(format!("Profil inconnu : « {p} ».")));
        }
        profiles.push(p);
    }
    let context = if form.context.trim().is_empty() {
        json!({})
    } else {
        let value = simulate::parse(&form.context)
            .map_err(|e| AppError::Invalid(format!("Contexte : {e}")))?;
        if !value.is_object() {
            return Err(AppError::Invalid(
                "Contexte : un objet JSON est attendu ({…}).".into(),
            ));
        }
        value
    };
    Ok(json!({"station": station, "profiles": profiles, "context": context, "action": action}))
}

/// A simulator refusal as the form shows it.
pub fn refusal(e: SimulateError) -> AppError {
    match e {
        SimulateError::Invalid { .. } => AppError::Invalid(format!("Simulation refusée : {e}")),
        SimulateError::Unavailable(cause) => AppError::unavailable(cause),
    }
}

/// A mode or band of the simulator's answer (« ENFORCE ») in words.
fn mode_label(mode: &str) -> String {
    Band::parse(&mode.to_lowercase()).map_or_else(|| mode.to_string(), |b| b.label().to_string())
}

/// The simulator's JSON answer as the page shows it.
pub fn view(output: &Value) -> SimulationView {
    let text = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let names = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let candidates = output
        .get("candidates")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|c| {
                    let name = text(c, "name");
                    let label = if crate::playbooks::skills::exists(&name) {
                        tool_label(&name)
                    } else {
                        // A playbook: by its name, as « Ouvert » shows it.
                        name.clone()
                    };
                    CandidateView {
                        label,
                        score: score_text(c.get("score").and_then(Value::as_f64).unwrap_or(0.0)),
                        band: mode_label(&text(c, "band")),
                        eligible: c.get("eligible").and_then(Value::as_bool).unwrap_or(true),
                        reason: Some(text(c, "reason")).filter(|r| !r.trim().is_empty()),
                        name,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    SimulationView {
        mode: mode_label(&text(output, "mode")),
        opened: output
            .get("opened")
            .and_then(Value::as_str)
            .map(str::to_string),
        suggested: names(output.get("suggested")),
        candidates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_form_becomes_the_simulators_input() {
        let form = SimulationInput {
            station: "chat".into(),
            profiles: "sales,senior".into(),
            context: r#"{"participants": 250}"#.into(),
            action: " qualifier la demande ".into(),
            explicit: String::new(),
        };
        assert_eq!(
            input(&form).unwrap(),
            json!({"station": "chat", "profiles": ["sales", "senior"],
                   "context": {"participants": 250}, "action": "qualifier la demande"})
        );
    }

    #[test]
    fn bad_fields_are_refused_in_french() {
        let base = SimulationInput {
            station: "chat".into(),
            action: "x".into(),
            ..Default::default()
        };
        let refused = |form: SimulationInput| input(&form).unwrap_err().to_string();
        assert!(refused(SimulationInput {
            profiles: "pirate".into(),
            ..base.clone()
        })
        .contains("pirate"));
        assert!(refused(SimulationInput {
            context: "{".into(),
            ..base.clone()
        })
        .starts_with("Contexte"));
        assert!(refused(SimulationInput {
            context: "[1]".into(),
            ..base.clone()
        })
        .contains("objet"));
        assert!(refused(SimulationInput {
            action: " ".into(),
            ..base.clone()
        })
        .contains("Décrivez"));
        assert!(refused(SimulationInput {
            explicit: "{\"a\": 1}".into(),
            ..base
        })
        .contains("candidates"));
    }

    #[test]
    fn the_answer_reads_in_french() {
        let out = json!({"mode": "SUGGEST", "opened": null, "suggested": ["a", "b"],
            "candidates": [{"name": "a", "score": 0.8, "band": "ENFORCE", "eligible": true, "reason": ""}]});
        let v = view(&out);
        assert_eq!(v.mode, "Suggéré");
        assert_eq!(v.suggested, vec!["a", "b"]);
        assert_eq!(v.candidates[0].band, "Imposé");
        assert_eq!(v.candidates[0].score, "0,80");
        assert_eq!(v.opened, None);
    }
}
