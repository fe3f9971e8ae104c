//! Reading the simulator's explicit form by hand rather than with serde, so
//! that every refusal is French and names its place
//! (« candidates[2].score : doit être entre 0 et 1 »).
use super::SimulateError;
use crate::playbooks::decide::{is_unit, Band, Candidate, Guidance};
use serde_json::{Map, Value};
use std::collections::HashMap;

const TOP: &[&str] = &["guidance", "candidates"];
const GUIDANCE: &[&str] = &["enforce", "suggest", "margin", "max_mode"];
const CANDIDATE: &[&str] = &[
    "name",
    "eligible",
    "deterministic_trigger",
    "score",
    "observe_only",
];

/// The thresholds and the candidates, validated.
pub(super) fn read(input: &Value) -> Result<(Guidance, Vec<Candidate>), SimulateError> {
    let top = object(input, "", "l'entrée doit être un objet JSON")?;
    known_fields(top, "", TOP)?;
    let guidance = guidance(required(top, "", "guidance")?)?;
    let Value::Array(items) = required(top, "", "candidates")? else {
        return Err(SimulateError::invalid("candidates", "doit être une liste"));
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut candidates = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("candidates[{i}]");
        let candidate = candidate(item, &at)?;
        if let Some(first) = seen.get(candidate.name.as_str()) {
            return Err(SimulateError::invalid(
                format!("{at}.name"),
                format!(
                    "« {} » est déjà le nom de candidates[{first}]",
                    candidate.name
                ),
            ));
        }
        seen.insert(candidate.name.clone(), i);
        candidates.push(candidate);
    }
    Ok((guidance, candidates))
}

fn guidance(value: &Value) -> Result<Guidance, SimulateError> {
    let at = "guidance";
    let map = object(value, at, "doit être un objet")?;
    known_fields(map, at, GUIDANCE)?;
    let max_mode = match required(map, at, "max_mode")? {
        Value::String(s) => Band::parse(s),
        _ => None,
    }
    .ok_or_else(|| {
        SimulateError::invalid(
            "guidance.max_mode",
            "doit être « enforce », « suggest » ou « observe »",
        )
    })?;
    let guidance = Guidance {
        enforce: unit(map, at, "enforce")?,
        suggest: unit(map, at, "suggest")?,
        margin: unit(map, at, "margin")?,
        max_mode,
    };
    guidance
        .validate()
        .map_err(|e| SimulateError::invalid(format!("guidance.{}", e.field), e.message))?;
    Ok(guidance)
}

fn candidate(value: &Value, at: &str) -> Result<Candidate, SimulateError> {
    let map = object(value, at, "doit être un objet")?;
    known_fields(map, at, CANDIDATE)?;
    let name = match required(map, at, "name")? {
        Value::String(s) if !s.trim().is_empty() => s.clone(),
        Value::String(_) => {
            return Err(SimulateError::invalid(
                format!("{at}.name"),
                "ne doit pas être vide",
            ))
        }
        _ => {
            return Err(SimulateError::invalid(
                format!("{at}.name"),
                "doit être un texte",
            ))
        }
    };
    Ok(Candidate {
        name,
        eligible: boolean(map, at, "eligible", None)?,
        deterministic_trigger: boolean(map, at, "deterministic_trigger", None)?,
        score: unit(map, at, "score")?,
        observe_only: boolean(map, at, "observe_only", Some(false))?,
    })
}

fn object<'a>(
    value: &'a Value,
    at: &str,
    message: &str,
) -> Result<&'a Map<String, Value>, SimulateError> {
    value
        .as_object()
        .ok_or_else(|| SimulateError::invalid(at, message))
}

fn path(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn known_fields(map: &Map<String, Value>, at: &str, allowed: &[&str]) -> Result<(), SimulateError> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(unknown) => Err(SimulateError::invalid(
            path(at, unknown),
            format!("champ inconnu (attendus : {})", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

fn required<'a>(
    map: &'a Map<String, Value>,
    at: &str,
    key: &str,
) -> Result<&'a Value, SimulateError> {
    map.get(key)
        .ok_or_else(|| SimulateError::invalid(path(at, key), "champ obligatoire"))
}

/// A number in [0,1] (scores and thresholds).
fn unit(map: &Map<String, Value>, at: &str, key: &str) -> Result<f64, SimulateError> {
    let value = required(map, at, key)?
        .as_f64()
        .ok_or_else(|| SimulateError::invalid(path(at, key), "doit être un nombre"))?;
    if !is_unit(value) {
        return Err(SimulateError::invalid(
            path(at, key),
            "doit être entre 0 et 1",
        ));
    }
    Ok(value)
}

fn boolean(
    map: &Map<String, Value>,
    at: &str,
    key: &str,
    default: Option<bool>,
) -> Result<bool, SimulateError> {
    match (map.get(key), default) {
        (None, Some(default)) => Ok(default),
        (None, None) => Err(SimulateError::invalid(path(at, key), "champ obligatoire")),
        (Some(Value::Bool(b)), _) => Ok(*b),
        (Some(_), _) => Err(SimulateError::invalid(
            path(at, key),
            "doit être true ou false",
        )),
    }
}
