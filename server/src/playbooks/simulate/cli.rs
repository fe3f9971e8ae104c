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
/// needs the database and the scorer (the model when one is configured,
/// the calibrated embeddings otherwise). It only reads.
async fn configuration(config: &Config, input: &Value) -> Result<Value, SimulateError> {
    let unavailable =
        |what: &str, e: &dyn std::fmt::Display| SimulateError::Unavailable(format!("{what} : {e}"));
    let db = crate::db::connect(&config.database)
        .await
        .map_err(|e| unavailable("base de données injoignable", &e))?;
    let embedder = crate::embeddings::Embedders::from_settings(&config.embeddings)
        .map_err(|e| unavailable("service d'embeddings mal configuré", &e))?
        .memory;
    let llm = crate::llm::for_server(&config.llm, db.clone())
        .map_err(|e| unavailable("modèle mal configuré", &e))?;
    use crate::llm::LlmProvider;
    let offline = llm.name() == crate::planner::Planner.name();
    let scorer = super::super::scoring::scorer((!offline).then_some(llm), embedder);
    super::from_configuration(&db, scorer.as_ref(), input).await
}
