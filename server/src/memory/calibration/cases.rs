//! The labelled search cases (`server/data/memory_cases.yaml`): each case is
//! one person's few memories, a question, and the memory that answers it or
//! `none`. Kinds: concept vs instance, synonyms, paraphrases, code-switching,
//! relative dates, exact words and codes, and questions nothing answers.
//!
//! Half the cases tune the ranking, the other half are held out to report
//! it: within each kind, cases alternate (the 1st, 3rd… tune; the 2nd,
//! 4th… are held out), so both halves have every kind in equal share.
use chrono::NaiveDate;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    Concept,
    Synonym,
    Paraphrase,
    CodeSwitch,
    RelativeDate,
    Exact,
    None,
}

impl CaseKind {
    pub fn label(self) -> &'static str {
        match self {
            CaseKind::Concept => "concept",
            CaseKind::Synonym => "synonym",
            CaseKind::Paraphrase => "paraphrase",
            CaseKind::CodeSwitch => "code_switch",
            CaseKind::RelativeDate => "relative_date",
            CaseKind::Exact => "exact",
            CaseKind::None => "none",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Tuning,
    HeldOut,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseMemory {
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub content: String,
    /// A reminder (a task) rather than a memory.
    #[serde(default)]
    pub reminder: bool,
    pub due: Option<NaiveDate>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub kind: CaseKind,
    /// The day the question is asked (relative dates); the set's default
    /// otherwise.
    pub today: Option<NaiveDate>,
    pub query: String,
    pub memories: Vec<CaseMemory>,
    /// The id of the memory that answers, or `none`.
    pub answer: String,
    #[serde(skip, default = "tuning")]
    pub half: Half,
}

fn tuning() -> Half {
    Half::Tuning
}

impl Case {
    /// The index of the memory that answers; `None` when nothing does.
    pub fn answer_index(&self) -> Option<usize> {
        self.memories.iter().position(|m| m.id == self.answer)
    }
}

/// The day relative dates are read from when a case names none.
pub const DEFAULT_TODAY: NaiveDate = match NaiveDate::from_ymd_opt(2026, 12, 7) {
    Some(d) => d,
    None => panic!("a valid date"),
};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CasesError {
    #[error("the cases are not valid YAML of the expected shape: {0}")]
    Yaml(String),
    #[error("there are no cases")]
    Empty,
    #[error("the case id {0:?} is used twice")]
    DuplicateCase(String),
    #[error("case {case:?}: {problem}")]
    Case { case: String, problem: String },
}

/// Parses and checks the cases, then splits them into halves.
pub fn parse(yaml: &str) -> Result<Vec<Case>, CasesError> {
    let mut cases: Vec<Case> =
        serde_norway::from_str(yaml).map_err(|e| CasesError::Yaml(e.to_string()))?;
    if cases.is_empty() {
        return Err(CasesError::Empty);
    }
    let mut ids = HashSet::new();
    for case in &cases {
        if !ids.insert(case.id.as_str()) {
            return Err(CasesError::DuplicateCase(case.id.clone()));
        }
        check(case).map_err(|problem| CasesError::Case {
            case: case.id.clone(),
            problem,
        })?;
    }
    let mut seen: HashMap<CaseKind, usize> = HashMap::new();
    for case in &mut cases {
        let n = seen.entry(case.kind).or_default();
        case.half = if n.is_multiple_of(2) {
            Half::Tuning
        } else {
            Half::HeldOut
        };
        *n += 1;
    }
    Ok(cases)
}

fn check(case: &Case) -> Result<(), String> {
    if case.query.trim().is_empty() {
        return Err("the query is empty".into());
    }
    if case.memories.len() < 2 {
        return Err("a case needs at least two memories".into());
    }
    let mut ids = HashSet::new();
    for m in &case.memories {
        if !ids.insert(m.id.as_str()) {
            return Err(format!("memory id {:?} is used twice", m.id));
        }
        if m.content.trim().is_empty() {
            return Err(format!("memory {:?} has no content", m.id));
        }
        if m.due.is_some() && !m.reminder {
            return Err(format!(
                "memory {:?} has a due date but is not a reminder",
                m.id
            ));
        }
    }
    match (case.kind, case.answer_index()) {
        (CaseKind::None, None) if case.answer == "none" => Ok(()),
        (CaseKind::None, _) => Err("a `none` case must have `answer: none`".into()),
        (_, Some(_)) => Ok(()),
        (_, None) => Err(format!(
            "the answer {:?} is not one of its memories",
            case.answer
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"
- id: a-1
  kind: concept
  query: "médicaments"
  memories:
    - { id: a, title: "Migraine", content: "paracétamol 1g matin et soir" }
    - { id: b, content: "Relancer Kalisto", reminder: true, due: 2026-12-10 }
  answer: a
- id: n-1
  kind: none
  query: "la météo"
  memories:
    - { id: a, content: "x" }
    - { id: b, content: "y" }
  answer: none
- id: a-2
  kind: concept
  query: "boissons"
  memories:
    - { id: a, content: "open bar" }
    - { id: b, content: "DJ" }
  answer: a
"#;

    #[test]
    fn cases_parse_and_alternate_halves_within_each_kind() {
        let cases = parse(TWO).unwrap();
        let halves: Vec<_> = cases.iter().map(|c| (c.id.as_str(), c.half)).collect();
        assert_eq!(
            halves,
            [
                ("a-1", Half::Tuning),
                ("n-1", Half::Tuning),
                ("a-2", Half::HeldOut)
            ]
        );
        assert_eq!(cases[0].answer_index(), Some(0));
        assert_eq!(cases[1].answer_index(), None);
        assert_eq!(
            cases[0].memories[1].due,
            NaiveDate::from_ymd_opt(2026, 12, 10)
        );
    }

    #[test]
    fn bad_cases_are_refused_by_name() {
        let bad_answer = TWO.replacen("answer: a", "answer: z", 1);
        assert!(matches!(parse(&bad_answer), Err(CasesError::Case { case, .. }) if case == "a-1"));
        let none_with_answer = TWO.replace("answer: none", "answer: a");
        assert!(
            matches!(parse(&none_with_answer), Err(CasesError::Case { case, .. }) if case == "n-1")
        );
        let twice = TWO.replace("id: a-2", "id: a-1");
        assert_eq!(
            parse(&twice).unwrap_err(),
            CasesError::DuplicateCase("a-1".into())
        );
        assert!(matches!(parse("- 3"), Err(CasesError::Yaml(_))));
        assert_eq!(parse("[]").unwrap_err(), CasesError::Empty);
    }
}
