//! The labelled calibration set: memories (or reminders) and queries, each
//! query labelled with the ids of the memories it relates to.
use serde::Deserialize;
use std::collections::HashSet;

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Memory,
    Task,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledMemory {
    pub id: String,
    pub kind: Kind,
    #[serde(default)]
    pub title: String,
    /// The memory's content or the task's description.
    pub content: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledQuery {
    pub id: String,
    pub text: String,
    /// Ids of the memories this query should find; empty: none should.
    pub related: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationSet {
    #[serde(default)]
    pub about: String,
    pub memories: Vec<LabelledMemory>,
    pub queries: Vec<LabelledQuery>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetError {
    #[error("the calibration set is not valid JSON of the expected shape: {0}")]
    Json(String),
    #[error("the calibration set has no {0}")]
    Empty(&'static str),
    #[error("the id {0:?} is used twice")]
    DuplicateId(String),
    #[error("query {query:?} is labelled with {memory:?}, which is not a memory of the set")]
    UnknownLabel { query: String, memory: String },
    #[error("{0:?} has an empty text")]
    EmptyText(String),
}

impl CalibrationSet {
    /// Parses and checks the set: unique ids, non-empty texts, every label
    /// naming a memory of the set.
    pub fn parse(json: &str) -> Result<Self, SetError> {
        let set: CalibrationSet =
            serde_json::from_str(json).map_err(|e| SetError::Json(e.to_string()))?;
        set.check()?;
        Ok(set)
    }

    fn check(&self) -> Result<(), SetError> {
        if self.memories.is_empty() {
            return Err(SetError::Empty("memories"));
        }
        if self.queries.is_empty() {
            return Err(SetError::Empty("queries"));
        }
        let mut ids = HashSet::new();
        for m in &self.memories {
            if !ids.insert(m.id.as_str()) {
                return Err(SetError::DuplicateId(m.id.clone()));
            }
            if m.content.trim().is_empty() {
                return Err(SetError::EmptyText(m.id.clone()));
            }
        }
        let memories = ids.clone();
        for q in &self.queries {
            if !ids.insert(q.id.as_str()) {
                return Err(SetError::DuplicateId(q.id.clone()));
            }
            if q.text.trim().is_empty() {
                return Err(SetError::EmptyText(q.id.clone()));
            }
            if let Some(bad) = q.related.iter().find(|r| !memories.contains(r.as_str())) {
                return Err(SetError::UnknownLabel {
                    query: q.id.clone(),
                    memory: bad.clone(),
                });
            }
        }
        Ok(())
    }

    /// `related[q][m]`: query `q` relates to memory `m` (set order).
    pub fn relation_matrix(&self) -> Vec<Vec<bool>> {
        self.queries
            .iter()
            .map(|q| {
                self.memories
                    .iter()
                    .map(|m| q.related.contains(&m.id))
                    .collect()
            })
            .collect()
    }
}
