//! `add_knowledge_entry`: a fact about a venue for the knowledge base
//! (source `ai` once approved).
use super::text::{at_most, required};
use super::unavailable;
use crate::db::write_targets;
use crate::tools::args::AddKnowledgeEntry;
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_CONTENT_CHARS: usize = 5000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeArgs {
    pub member_id: i64,
    pub member_code: String,
    pub title: String,
    pub content: String,
}

impl KnowledgeArgs {
    pub fn input(&self) -> AddKnowledgeEntry {
        AddKnowledgeEntry {
            member_code: self.member_code.clone(),
            title: self.title.clone(),
            content: self.content.clone(),
        }
    }
}

pub async fn resolve(
    conn: &mut PgConnection,
    args: &AddKnowledgeEntry,
) -> Result<KnowledgeArgs, ToolError> {
    let title = at_most("title", &args.title, MAX_TITLE_CHARS)?;
    let content = required("content", &args.content, MAX_CONTENT_CHARS)?;
    let code = args.member_code.trim().to_string();
    let member = write_targets::members_by_codes(&mut *conn, std::slice::from_ref(&code))
        .await
        .map_err(unavailable)?
        .into_iter()
        .next()
        .ok_or_else(|| ToolError::NotFound(format!("lieu {code}")))?;
    Ok(KnowledgeArgs {
        member_id: member.id,
        member_code: member.code,
        title,
        content,
    })
}

pub async fn describe(
    conn: &mut PgConnection,
    args: &KnowledgeArgs,
) -> Result<(String, CardBody), ToolError> {
    let name = write_targets::members_by_ids(&mut *conn, &[args.member_id])
        .await
        .map_err(unavailable)?
        .into_iter()
        .next()
        .map_or_else(|| "(lieu supprimé)".to_string(), |m| m.name);
    let mut rows = vec![CardField {
        label: "Lieu".into(),
        value: format!("{name} ({})", args.member_code),
    }];
    if !args.title.is_empty() {
        rows.push(CardField {
            label: "Titre".into(),
            value: args.title.clone(),
        });
    }
    rows.push(CardField {
        label: "Contenu".into(),
        value: args.content.clone(),
    });
    let title = format!("Ajouter une information sur {name}");
    Ok((title, CardBody::Fields { rows }))
}
