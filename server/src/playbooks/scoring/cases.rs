//! The labelled set (`server/data/playbook_actions.yaml`): described
//! actions, each with the one candidate that is right for it (a shipped
//! playbook or a skill, by name) or `null` when none is.
//!
//! Entries alternate between the halves: the 1st, 3rd… tune the mapping,
//! the 2nd, 4th… are held out to report it. The file groups entries by
//! candidate in even numbers, so every candidate is in both halves.
use serde::Deserialize;

/// The committed set, compiled in so `maxy calibrate playbooks` and the
/// tests need no path.
pub const DEFAULT_CASES: &str = include_str!("../../../data/playbook_actions.yaml");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Tuning,
    HeldOut,
}

/// One described action and its right candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub action: String,
    /// The right candidate's name; `None`: no candidate is right.
    pub right: Option<String>,
    pub half: Half,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    action: String,
    right: Option<String>,
}

/// Why a labelled set is refused (in French, as the command prints it).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CasesError {
    #[error("jeu étiqueté illisible : {0}")]
    Yaml(String),
    #[error("entrée {0} : l'action est vide")]
    EmptyAction(usize),
    #[error("entrée {entry} : « {name} » n'est ni un playbook ni une skill connus")]
    UnknownCandidate { entry: usize, name: String },
}

/// The cases of `text`, halves assigned by position.
pub fn parse(text: &str) -> Result<Vec<Case>, CasesError> {
    let entries: Vec<Entry> =
        serde_norway::from_str(text).map_err(|e| CasesError::Yaml(e.to_string()))?;
    entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let action = e.action.trim().to_string();
            if action.is_empty() {
                return Err(CasesError::EmptyAction(i + 1));
            }
            let right = e.right.map(|r| r.trim().to_string());
            let half = if i % 2 == 0 {
                Half::Tuning
            } else {
                Half::HeldOut
            };
            Ok(Case {
                action,
                right,
                half,
            })
        })
        .collect()
}

/// The reference actions of the offline scorer's baselines: the committed
/// set's tuning half (the held-out half stays unseen by the scorer).
pub fn reference_actions() -> Vec<String> {
    parse(DEFAULT_CASES)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.half == Half::Tuning)
        .map(|c| c.action)
        .collect()
}

/// Every right candidate named is among `names`: a label that names a
/// renamed playbook or skill would silently count as wrong everywhere.
pub fn check_names<'a>(
    cases: &[Case],
    names: impl Fn(&str) -> bool + 'a,
) -> Result<(), CasesError> {
    for (i, case) in cases.iter().enumerate() {
        if let Some(name) = &case.right {
            if !names(name) {
                return Err(CasesError::UnknownCandidate {
                    entry: i + 1,
                    name: name.clone(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_set_parses_into_two_halves() {
        let cases = parse(DEFAULT_CASES).unwrap();
        assert!(cases.len() >= 120, "{}", cases.len());
        let held_out = cases.iter().filter(|c| c.half == Half::HeldOut).count();
        assert_eq!(held_out, cases.len() / 2);
        let none = cases.iter().filter(|c| c.right.is_none()).count();
        assert!(none >= 10, "{none}");
        for name in [
            "qualification-demande",
            "groupe-plus-de-200",
            "reprise-catalogue-commentaire",
        ] {
            for half in [Half::Tuning, Half::HeldOut] {
                assert!(
                    cases
                        .iter()
                        .any(|c| c.half == half && c.right.as_deref() == Some(name)),
                    "{name} in {half:?}"
                );
            }
        }
    }

    #[test]
    fn bad_sets_are_refused_with_the_entry() {
        assert!(matches!(
            parse("- action: x\n  rite: y\n"),
            Err(CasesError::Yaml(_))
        ));
        assert_eq!(
            parse("- action: a\n  right: null\n- action: '  '\n  right: null\n"),
            Err(CasesError::EmptyAction(2))
        );
        let cases = parse("- action: a\n  right: null\n- action: b\n  right: ghost\n").unwrap();
        assert_eq!(
            check_names(&cases, |n| n == "real"),
            Err(CasesError::UnknownCandidate {
                entry: 2,
                name: "ghost".into()
            })
        );
    }
}
