//! `update_request`: changes fields of a request, within what the table's
//! CHECKs accept (statuses, layouts, five-digit postal codes). Fields left
//! out are kept; an empty memo or hint clears it.
use super::text::{at_most, required, status_label, CONFIGURATIONS};
use super::unavailable;
use crate::db::approved_writes::{self, RequestFields};
use crate::db::write_targets;
use crate::tools::args::UpdateRequest;
use crate::tools::ToolError;
use app::chat::{CardBody, CardField};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

// One list and one cap for the assistant and the request page.
pub use app::requests::{MAX_HINTS_CHARS, MAX_MEMO_CHARS, STATUSES};
pub const MAX_PARTICIPANTS: u32 = 100_000;
const MAX_POSTAL_CODES: usize = 200;

/// The canonical arguments: only the fields that change.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestChanges {
    pub request_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// `Some("")` clears the memo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_memo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_hints: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participants: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configurations: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_codes: Option<Vec<String>>,
}

impl RequestChanges {
    /// The names of the fields that change, in the table's order.
    pub fn changed(&self) -> Vec<&'static str> {
        [
            ("status", self.status.is_some()),
            ("team_memo", self.team_memo.is_some()),
            ("search_hints", self.search_hints.is_some()),
            ("participants", self.participants.is_some()),
            ("event_type", self.event_type.is_some()),
            ("configurations", self.configurations.is_some()),
            ("postal_codes", self.postal_codes.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }

    pub fn input(&self) -> UpdateRequest {
        UpdateRequest {
            request_id: self.request_id,
            status: self.status.clone(),
            team_memo: self.team_memo.clone(),
            search_hints: self.search_hints.clone(),
            participants: self.participants.and_then(|n| u32::try_from(n).ok()),
            event_type: self.event_type.clone(),
            configurations: self.configurations.clone(),
            postal_codes: self.postal_codes.clone(),
        }
    }
}

fn invalid(text: String) -> ToolError {
    ToolError::InvalidArguments(text)
}

/// Each value once, in the order given.
fn dedup(values: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(values.len());
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn check_values(args: &UpdateRequest) -> Result<RequestChanges, ToolError> {
    let status = match &args.status {
        Some(s) if !STATUSES.contains(&s.trim()) => {
            return Err(invalid(format!(
                "statut inconnu « {s} » (statuts permis : {})",
                STATUSES.join(", ")
            )))
        }
        s => s.as_ref().map(|s| s.trim().to_string()),
    };
    let participants = match args.participants {
        Some(n) if n == 0 || n > MAX_PARTICIPANTS => {
            return Err(invalid(format!(
                "« participants » doit être entre 1 et {MAX_PARTICIPANTS} (reçu {n})"
            )))
        }
        n => n.and_then(|n| i32::try_from(n).ok()),
    };
    let configurations = match &args.configurations {
        Some(list) => {
            let list: Vec<String> = list.iter().map(|c| c.trim().to_lowercase()).collect();
            if let Some(bad) = list.iter().find(|c| !CONFIGURATIONS.contains(&c.as_str())) {
                return Err(invalid(format!(
                    "configuration inconnue « {bad} » (configurations permises : {})",
                    CONFIGURATIONS.join(", ")
                )));
            }
            Some(dedup(list))
        }
        None => None,
    };
    let postal_codes = match &args.postal_codes {
        Some(list) => {
            let list: Vec<String> = list.iter().map(|c| c.trim().to_string()).collect();
            let valid = |c: &String| c.len() == 5 && c.bytes().all(|b| b.is_ascii_digit());
            if let Some(bad) = list.iter().find(|c| !valid(c)) {
                return Err(invalid(format!(
                    "code postal invalide « {bad} » : cinq chiffres attendus (ex. 75008)"
                )));
            }
            if list.len() > MAX_POSTAL_CODES {
                return Err(invalid(format!(
                    "au plus {MAX_POSTAL_CODES} codes postaux (reçu {})",
                    list.len()
                )));
            }
            Some(dedup(list))
        }
        None => None,
    };
    let changes = RequestChanges {
        request_id: args.request_id,
        status,
        team_memo: match &args.team_memo {
            Some(m) => Some(at_most("team_memo", m, MAX_MEMO_CHARS)?),
            None => None,
        },
        search_hints: match &args.search_hints {
            Some(h) => Some(at_most("search_hints", h, MAX_HINTS_CHARS)?),
            None => None,
        },
        participants,
        event_type: match &args.event_type {
            Some(t) => Some(required("event_type", t, 60)?.to_lowercase()),
            None => None,
        },
        configurations,
        postal_codes,
    };
    if changes
        == (RequestChanges {
            request_id: args.request_id,
            ..RequestChanges::default()
        })
    {
        return Err(invalid(
            "aucun champ à modifier : donne au moins un champ (status, team_memo, search_hints, \
             participants, event_type, configurations, postal_codes)"
                .into(),
        ));
    }
    Ok(changes)
}

/// Checks `args` against the table's rules and the request's existence:
/// the canonical changes. (The approval card, its executor and the request
/// page all go through here, then [`apply`].)
pub async fn resolve(
    conn: &mut PgConnection,
    args: &UpdateRequest,
) -> Result<RequestChanges, ToolError> {
    let changes = check_values(args)?;
    write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| ToolError::NotFound(format!("demande {}", args.request_id)))?;
    Ok(changes)
}

/// Writes resolved changes: the one write of the `update_request` executor
/// and of the request page. `false` when the request no longer exists.
pub async fn apply(conn: &mut PgConnection, changes: &RequestChanges) -> sqlx::Result<bool> {
    let fields = RequestFields {
        status: changes.status.as_deref(),
        team_memo: changes.team_memo.as_deref(),
        search_hints: changes.search_hints.as_deref(),
        participants: changes.participants,
        event_type: changes.event_type.as_deref(),
        configurations: changes.configurations.as_deref(),
        postal_codes: changes.postal_codes.as_deref(),
    };
    approved_writes::update_request(conn, changes.request_id, &fields).await
}

fn or_cleared(value: &str) -> String {
    if value.is_empty() {
        "(effacé)".into()
    } else {
        value.to_string()
    }
}

pub async fn describe(
    conn: &mut PgConnection,
    args: &RequestChanges,
) -> Result<(String, CardBody), ToolError> {
    let reference = write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?
        .map_or_else(|| format!("n° {}", args.request_id), |r| r.reference);
    let mut rows = vec![CardField {
        label: "Demande".into(),
        value: reference.clone(),
    }];
    let mut row = |label: &str, value: String| {
        rows.push(CardField {
            label: label.into(),
            value,
        })
    };
    if let Some(s) = &args.status {
        row("Statut", status_label(s));
    }
    if let Some(n) = args.participants {
        row("Participants", n.to_string());
    }
    if let Some(t) = &args.event_type {
        row("Type d'événement", t.clone());
    }
    if let Some(list) = &args.configurations {
        let value = if list.is_empty() {
            "(non précisées)".to_string()
        } else {
            list.iter()
                .map(|c| app::room_configurations::label_of(c))
                .collect::<Vec<_>>()
                .join(", ")
        };
        row("Configurations", value);
    }
    if let Some(list) = &args.postal_codes {
        let value = if list.is_empty() {
            "(aucun)".to_string()
        } else {
            list.join(", ")
        };
        row("Codes postaux", value);
    }
    if let Some(m) = &args.team_memo {
        row("Mémo équipe", or_cleared(m));
    }
    if let Some(h) = &args.search_hints {
        row("Consignes de recherche", or_cleared(h));
    }
    let title = format!("Modifier la demande {reference}");
    Ok((title, CardBody::Fields { rows }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_like_the_table_checks_them() {
        let base = UpdateRequest {
            request_id: 1,
            ..UpdateRequest::default()
        };
        assert!(check_values(&base).is_err(), "no field at all");
        let bad_status = UpdateRequest {
            status: Some("done".into()),
            ..base.clone()
        };
        assert!(check_values(&bad_status).is_err());
        let bad_code = UpdateRequest {
            postal_codes: Some(vec!["7508".into()]),
            ..base.clone()
        };
        assert!(check_values(&bad_code).is_err());
        let bad_layout = UpdateRequest {
            configurations: Some(vec!["debout".into()]),
            ..base.clone()
        };
        assert!(check_values(&bad_layout).is_err());
        let zero = UpdateRequest {
            participants: Some(0),
            ..base.clone()
        };
        assert!(check_values(&zero).is_err());
        let good = UpdateRequest {
            configurations: Some(vec!["Cocktail".into(), "cocktail".into()]),
            postal_codes: Some(vec![" 75008".into()]),
            team_memo: Some("  ".into()),
            ..base
        };
        let changes = check_values(&good).unwrap();
        assert_eq!(changes.configurations, Some(vec!["cocktail".to_string()]));
        assert_eq!(changes.postal_codes, Some(vec!["75008".to_string()]));
        assert_eq!(changes.team_memo.as_deref(), Some(""));
    }
}
