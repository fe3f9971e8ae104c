//! The simulator's configuration form: `{"station", "profiles", "context",
//! "action"}` decided as production decides it — the stored playbooks, the
//! station's settings, eligibility and triggers from the facts, scores from
//! the scorer — and nothing written.
use super::{output, SimulateError};
use crate::playbooks::evaluate::{evaluate, Inputs};
use crate::playbooks::scoring::Score;
use crate::playbooks::stations;
use crate::playbooks::when::Facts;
use serde_json::{Map, Value};
use sqlx::PgPool;

const FIELDS: [&str; 4] = ["station", "profiles", "context", "action"];

pub async fn from_configuration(
    db: &PgPool,
    scorer: &dyn Score,
    input: &Value,
) -> Result<Value, SimulateError> {
    let Some(object) = input.as_object() else {
        return Err(SimulateError::invalid(
            "",
            "l'entrée doit être un objet JSON",
        ));
    };
    if let Some(unknown) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(SimulateError::invalid(
            unknown.as_str(),
            format!("champ inconnu (champs permis : {})", FIELDS.join(", ")),
        ));
    }
    let station = match object.get("station") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        _ => {
            return Err(SimulateError::invalid(
                "station",
                "le nom d'une station est attendu (chat ou training)",
            ))
        }
    };
    let action = match object.get("action") {
        Some(Value::String(s)) => s.trim().to_string(),
        None => String::new(),
        Some(_) => return Err(SimulateError::invalid("action", "un texte est attendu")),
    };
    let unavailable = |e: sqlx::Error| {
        tracing::error!(error = %e, "the simulator cannot read the configuration");
        SimulateError::Unavailable("la configuration est illisible pour le moment".into())
    };
    let Some(station) = stations::get(db, &station).await.map_err(unavailable)? else {
        let known: Vec<String> = stations::list(db)
            .await
            .map_err(unavailable)?
            .into_iter()
            .map(|s| s.name)
            .collect();
        return Err(SimulateError::invalid(
            "station",
            format!(
                "station inconnue « {station} » (stations : {})",
                known.join(", ")
            ),
        ));
    };
    let facts = facts(object, &station.name)?;
    let evaluation = evaluate(
        db,
        Some(scorer),
        Inputs {
            guidance: station.guidance,
            facts: &facts,
            action: &action,
            with_skills: false,
            started: None,
        },
    )
    .await
    .map_err(unavailable)?;
    Ok(output(&evaluation.decision))
}

/// The facts `when` reads: the profiles and the station given apart, the
/// rest (`request`, `event`) from `context`.
fn facts(object: &Map<String, Value>, station: &str) -> Result<Facts, SimulateError> {
    let mut facts = match object.get("context") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(context)) => context.clone(),
        Some(_) => return Err(SimulateError::invalid("context", "un objet est attendu")),
    };
    for key in ["profiles", "station"] {
        if facts.contains_key(key) {
            return Err(SimulateError::invalid(
                format!("context.{key}"),
                format!("« {key} » se donne hors de context"),
            ));
        }
    }
    let profiles = object
        .get("profiles")
        .cloned()
        .unwrap_or(Value::Array(vec![]));
    facts.insert("profiles".into(), profiles);
    facts.insert("station".into(), Value::String(station.to_string()));
    serde_json::from_value(Value::Object(facts))
        .map_err(|e| SimulateError::invalid("context", format!("{e}")))
}
