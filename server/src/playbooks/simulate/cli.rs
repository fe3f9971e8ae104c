//! `maxy playbooks simulate`: one JSON object on standard input, one on
//! standard output, nothing written anywhere else. The explicit form never
//! touches the database.
use super::{explicit, is_explicit, parse, SimulateError};
use crate::config::Config;
use serde_json::Value;
use std::io::Read;

pub async fn command(config: &Config) -> anyhow::Result<()> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| anyhow::anyhow!("entrée standard illisible : {e}"))?;
    let output = simulate(config, &text).await?;
    println!("{output}");
    Ok(())
}

/// Parses, then dispatches on the form.
pub async fn simulate(config: &Config, text: &str) -> Result<Value, SimulateError> {
    let input = parse(text)?;
    if !input.is_object() {
        return Err(SimulateError::invalid(
            "",
            "l'entrée doit être un objet JSON",
        ));
    }
    if is_explicit(&input) {
        return explicit(&input);
    }
    configuration(config, &input).await
}

/// The configuration form (`station`, `profiles`, `context`, `action`)
/// needs the database and the scorer.
async fn configuration(_config: &Config, _input: &Value) -> Result<Value, SimulateError> {
    // NOT YET WIRED: `super::from_configuration(db, scorer, input)` is being
    // written; once it lands, connect here and call it.
    Err(SimulateError::Unavailable(
        "forme configuration : pas encore disponible".into(),
    ))
}
