//! The whitelist: the only fields a `when` expression may read, with their
//! kind (what they may be compared with) and a French label for the
//! console's help. An expression naming anything else is refused at parse
//! time, so evaluation never meets an unknown name.

/// What a field holds; any field may also be null (see each label).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Text,
    Number,
    Bool,
    /// A list of texts: the right side of `in`.
    TextList,
    /// Present or null; only tested bare or against `null`.
    Object,
}

impl FieldKind {
    /// The French name used in error messages and the console.
    pub fn label(self) -> &'static str {
        match self {
            FieldKind::Text => "un texte",
            FieldKind::Number => "un nombre",
            FieldKind::Bool => "un booléen",
            FieldKind::TextList => "une liste de textes",
            FieldKind::Object => "un objet",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    pub name: &'static str,
    pub kind: FieldKind,
    /// French, for the console's help.
    pub label: &'static str,
}

const fn field(name: &'static str, kind: FieldKind, label: &'static str) -> Field {
    Field { name, kind, label }
}

pub const FIELDS: &[Field] = &[
    field(
        "profiles",
        FieldKind::TextList,
        "Rôle et profils de l'utilisateur (admin, sales, senior, account-manager, junior, manager…)",
    ),
    field(
        "station",
        FieldKind::Text,
        "Station où travaille l'assistant : chat ou training",
    ),
    field(
        "event",
        FieldKind::Text,
        "Événement d'automatisation qui a ouvert le tour (organizer_comment…), ou null",
    ),
    field(
        "event_type",
        FieldKind::Text,
        "Type d'événement de la demande (comme request.event_type), ou null",
    ),
    field(
        "request",
        FieldKind::Object,
        "La demande jointe au tour, ou null s'il n'y en a pas",
    ),
    field(
        "request.participants",
        FieldKind::Number,
        "Nombre de participants de la demande, ou null",
    ),
    field(
        "request.event_type",
        FieldKind::Text,
        "Type d'événement de la demande (conference, seminaire, soiree, dejeuner, cocktail…), ou null",
    ),
    field(
        "request.status",
        FieldKind::Text,
        "Statut de la demande (new, qualifying, catalogue_sent, won, lost, cancelled)",
    ),
    field(
        "request.pool",
        FieldKind::Text,
        "Vivier de la demande (son slug), ou null",
    ),
    field(
        "request.configurations",
        FieldKind::TextList,
        "Configurations de salle acceptées (reunion, u, theatre, cabaret, ecole, banquet, cocktail)",
    ),
    field(
        "request.postal_codes",
        FieldKind::TextList,
        "Codes postaux de la demande",
    ),
    field(
        "request.budget_eur",
        FieldKind::Number,
        "Budget total de la demande en euros, ou null",
    ),
    field(
        "request.has_catalogue",
        FieldKind::Bool,
        "Vrai si un catalogue existe pour la demande",
    ),
    field(
        "request.organizer_comment",
        FieldKind::Bool,
        "Vrai si un organisateur a commenté un catalogue envoyé de la demande",
    ),
];

/// The whitelisted field named `path`, if any.
pub fn lookup(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == path)
}

/// The closest whitelisted name to a mistyped `path`, when one is close
/// enough to be worth suggesting.
pub fn closest(path: &str) -> Option<&'static str> {
    FIELDS
        .iter()
        .map(|f| (strsim::levenshtein(path, f.name), f.name))
        .filter(|(distance, name)| *distance <= 3 && *distance * 3 <= name.len())
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name)
}

/// « profiles, station, … »: every permitted name, for error messages.
pub fn names() -> String {
    FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_children_have_their_object() {
        for (i, f) in FIELDS.iter().enumerate() {
            assert!(
                FIELDS[i + 1..].iter().all(|g| g.name != f.name),
                "{}",
                f.name
            );
            if let Some((parent, _)) = f.name.split_once('.') {
                assert_eq!(lookup(parent).map(|p| p.kind), Some(FieldKind::Object));
            }
        }
    }

    #[test]
    fn a_typo_gets_the_nearest_name() {
        assert_eq!(closest("request.participant"), Some("request.participants"));
        assert_eq!(closest("profile"), Some("profiles"));
        assert_eq!(closest("budget"), None);
    }
}
