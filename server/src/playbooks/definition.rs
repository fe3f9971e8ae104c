//! A playbook's definition: YAML as admins write it, validated so that
//! every refusal names the line and the field to fix.
//!
//! ```yaml
//! name: qualification-demande            # slug: lower-case words joined by dashes
//! title: "Qualification d'une demande"   # optional: how people see it (else the name's words)
//! goal: "la demande est qualifiée : …"   # French, required: what the scorer reads
//! activation:
//!   when: "'sales' in profiles"          # optional, deterministic (the `when` language)
//!   intent: "qualifier une nouvelle demande d'organisateur"   # optional, what a described action is matched against
//!   auto_trigger: false                  # optional: true = a true `when` opens it even with an intent
//!   exclusive_skills: [update_request]   # skills allowed ONLY inside this playbook
//! steps:                                 # ordered, at least one
//!   - skill: get_request
//!   - skill: find_similar_requests
//!     optional: true
//!   - skill: update_request
//!     guard: "request.participants != null"              # checked when the step is called
//!     guard_message: "renseignez d'abord le nombre de participants"
//! profiles:
//!   open: [sales, account-manager, admin]   # who may open it; empty = every team member
//!   abandon: [senior, manager, admin]       # who may abandon it; empty = only admins
//! ```
//!
//! A `when` without `intent` is a deterministic trigger: true, it opens the
//! playbook without a model. With an intent, `when` only filters who may
//! have it proposed, unless `auto_trigger` makes a true `when` open it too.
//!
//! Profiles are the user's `profiles` labels; callers add `admin` for an
//! administrator, as the demo's admin account carries it.
mod locate;
mod validate;
mod yaml_errors;

pub use locate::{Outline, Spot};

use serde::{Deserialize, Serialize};

/// A parsed and validated playbook.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    pub name: String,
    /// What people read (« Qualification d'une demande »); the name is for
    /// tools and the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub goal: String,
    #[serde(default)]
    pub activation: Activation,
    pub steps: Vec<Step>,
    #[serde(default)]
    pub profiles: Profiles,
}

/// When the playbook opens (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Activation {
    pub when: Option<String>,
    pub intent: Option<String>,
    pub auto_trigger: bool,
    pub exclusive_skills: Vec<String>,
}

/// One step: a skill, called in order unless optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub skill: String,
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub guard: Option<String>,
    #[serde(default)]
    pub guard_message: Option<String>,
}

/// Who may open and who may abandon the playbook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profiles {
    pub open: Vec<String>,
    pub abandon: Vec<String>,
}

/// Why a definition is refused, and where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct DefinitionError {
    /// 1-based, as editors number lines.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The field's path: `activation.when`, `steps[2].skill` (0-based items).
    pub field: Option<String>,
    /// French.
    pub message: String,
}

impl DefinitionError {
    /// « ligne 7, colonne 12, activation.when : champ inconnu … », with
    /// only the parts that are known.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(line) = self.line {
            parts.push(format!("ligne {line}"));
        }
        if let Some(column) = self.column {
            parts.push(format!("colonne {column}"));
        }
        if let Some(field) = &self.field {
            parts.push(field.clone());
        }
        if parts.is_empty() {
            self.message.clone()
        } else {
            format!("{} : {}", parts.join(", "), self.message)
        }
    }
}

/// Longest accepted definition, in characters: a playbook is a page of
/// YAML, and the bound keeps the locator's walk cheap.
pub const MAX_CHARS: usize = 20_000;

/// Parses and validates `source`; the first problem found is returned.
pub fn parse(source: &str) -> Result<Definition, DefinitionError> {
    if let Some((offset, _)) = source.char_indices().nth(MAX_CHARS) {
        return Err(DefinitionError {
            line: Some(source[..offset].lines().count().max(1)),
            column: None,
            field: None,
            message: format!("définition trop longue : {MAX_CHARS} caractères au plus"),
        });
    }
    let outline = Outline::of(source);
    let value: serde_norway::Value = serde_norway::from_str(source).map_err(|e| {
        let s = yaml_errors::syntax(&e);
        // libyaml places a repeated key at its mapping's start: the outline
        // knows the repeated line.
        match outline
            .duplicate()
            .filter(|_| s.message.contains("clé en double"))
        {
            Some((field, spot)) => DefinitionError {
                line: Some(spot.line),
                column: Some(spot.column),
                field: Some(field.to_string()),
                message: "clé en double : chaque champ ne s'écrit qu'une fois".to_string(),
            },
            None => DefinitionError {
                line: s.line.or_else(|| second_document(source)),
                column: s.column,
                field: s.field,
                message: s.message,
            },
        }
    })?;
    if !value.is_mapping() {
        return Err(DefinitionError {
            line: Some(1),
            column: None,
            field: None,
            message: "une définition est un objet YAML avec au moins name, goal et steps"
                .to_string(),
        });
    }
    let definition: Definition = serde_norway::from_str(source).map_err(|e| {
        let s = yaml_errors::shape(&e);
        DefinitionError {
            line: s.line,
            column: s.column,
            field: s.field,
            message: s.message,
        }
    })?;
    validate::check(&definition, &outline)?;
    Ok(definition)
}

/// The line of the `---` that starts a second document (serde_norway
/// refuses it without a place).
fn second_document(source: &str) -> Option<usize> {
    let mut content = false;
    for (i, line) in source.lines().enumerate() {
        if line.starts_with("---") && content {
            return Some(i + 1);
        }
        let text = line.trim();
        content |= !text.is_empty() && !text.starts_with('#') && !text.starts_with("---");
    }
    None
}

impl Definition {
    /// The title people read: `title`, else the name's words
    /// (« Groupe plus de 200 »), never the slug itself.
    pub fn title(&self) -> String {
        if let Some(title) = self
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            return title.to_string();
        }
        let words = self.name.replace('-', " ");
        let mut chars = words.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => words,
        }
    }

    /// A true `when` opens it without a model: no intent, or `auto_trigger`.
    pub fn is_deterministic_trigger(&self) -> bool {
        self.activation.when.is_some()
            && (self.activation.intent.is_none() || self.activation.auto_trigger)
    }

    /// What the scorer embeds for this playbook: its intent, then its goal.
    pub fn describe_for_scoring(&self) -> String {
        match &self.activation.intent {
            Some(intent) => format!("{intent} — {}", self.goal),
            None => self.goal.clone(),
        }
    }

    /// Whether a caller with `profiles` may open it (an empty list: anyone).
    pub fn may_open(&self, profiles: &[String]) -> bool {
        self.profiles.open.is_empty() || shares(&self.profiles.open, profiles)
    }

    /// Whether a caller with `profiles` may abandon it (an empty list: only
    /// admins).
    pub fn may_abandon(&self, profiles: &[String]) -> bool {
        if self.profiles.abandon.is_empty() {
            profiles.iter().any(|p| p == "admin")
        } else {
            shares(&self.profiles.abandon, profiles)
        }
    }
}

fn shares(allowed: &[String], profiles: &[String]) -> bool {
    profiles.iter().any(|p| allowed.contains(p))
}

#[cfg(test)]
mod tests;
