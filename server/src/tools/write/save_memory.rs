//! `save_memory`: a durable fact for the caller's own memory (origin
//! `tool` once approved, with the conversation it came from).
use super::text::{at_most, required};
use crate::memory::{MAX_CONTENT_CHARS, MAX_TITLE_CHARS};
use crate::tools::args::SaveMemory;
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveMemoryArgs {
    /// Empty when none was given.
    pub title: String,
    pub content: String,
}

impl SaveMemoryArgs {
    pub fn input(&self) -> SaveMemory {
        SaveMemory {
            title: (!self.title.is_empty()).then(|| self.title.clone()),
            content: self.content.clone(),
        }
    }
}

pub fn resolve(args: &SaveMemory) -> Result<SaveMemoryArgs, ToolError> {
    let title = at_most(
        "title",
        args.title.as_deref().unwrap_or_default(),
        MAX_TITLE_CHARS,
    )?;
    let content = required("content", &args.content, MAX_CONTENT_CHARS)?;
    Ok(SaveMemoryArgs { title, content })
}

pub fn describe(args: &SaveMemoryArgs) -> (String, CardBody) {
    let mut rows = Vec::new();
    if !args.title.is_empty() {
        rows.push(CardField {
            label: "Titre".into(),
            value: args.title.clone(),
        });
    }
    rows.push(CardField {
        label: "À retenir".into(),
        value: args.content.clone(),
    });
    (
        "Retenir dans votre mémoire".into(),
        CardBody::Fields { rows },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_and_trims() {
        let ok = resolve(&SaveMemory {
            title: Some("  Pavillon ".into()),
            content: " Pas de groupes le dimanche ".into(),
        })
        .unwrap();
        assert_eq!(ok.title, "Pavillon");
        assert_eq!(ok.content, "Pas de groupes le dimanche");
        assert_eq!(resolve(&ok.input()).unwrap(), ok);
        for bad in [
            SaveMemory {
                title: None,
                content: "   ".into(),
            },
            SaveMemory {
                title: None,
                content: "x".repeat(100_000),
            },
            SaveMemory {
                title: Some("t".repeat(201)),
                content: "ok".into(),
            },
            SaveMemory {
                title: None,
                content: "nul \0 ici".into(),
            },
        ] {
            assert!(
                matches!(resolve(&bad), Err(ToolError::InvalidArguments(_))),
                "{bad:?}"
            );
        }
    }
}
