//! The French label of every key the database stores and a person sees:
//! each family is one table (key, label), so the wording test can list
//! every key that must never reach a page. A key this version does not
//! know is shown as written (a newer server's row, say): the wording test
//! then flags it instead of the page hiding it.
//!
//! Room layouts live with their enum in `room_configurations`; audit
//! actions in the server's `audit::labels`.

/// A family of stored keys and how the team says each.
pub type Table = &'static [(&'static str, &'static str)];

fn lookup(table: Table, key: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, label)| *label)
}

/// `requests.event_type`: « séminaire », « soirée d'entreprise »…
pub const EVENT_TYPES: Table = &[
    ("seminaire", "séminaire"),
    ("comite", "comité de direction"),
    ("formation", "formation"),
    ("conference", "conférence"),
    ("assemblee", "assemblée générale"),
    ("soiree", "soirée d'entreprise"),
    ("lancement", "lancement produit"),
    ("afterwork", "afterwork"),
    ("diner", "dîner"),
    ("gala", "dîner de gala"),
    ("dejeuner", "déjeuner d'affaires"),
    ("cocktail", "cocktail"),
    ("team-building", "team building"),
    ("mariage", "mariage"),
    ("reunion", "réunion"),
    ("festif", "événement festif"),
];

/// The event type in lower case, to sit inside a sentence; a key nobody
/// labelled yet reads with its hyphens as spaces.
pub fn event_type(key: &str) -> String {
    match lookup(EVENT_TYPES, key.trim()) {
        Some(label) => label.to_string(),
        None => key.trim().replace(['-', '_'], " "),
    }
}

/// `requests.status`, in the order of a request's life.
pub const REQUEST_STATUSES: Table = &[
    ("new", "Nouvelle"),
    ("qualifying", "En qualification"),
    ("catalogue_sent", "Catalogue envoyé"),
    ("won", "Gagnée"),
    ("lost", "Perdue"),
    ("cancelled", "Annulée"),
];

/// « Nouvelle », « Catalogue envoyé »… (capitalised: a badge, a cell).
pub fn request_status(key: &str) -> &str {
    lookup(REQUEST_STATUSES, key).unwrap_or(key)
}

/// `requests.source`: how the request reached the team.
pub const REQUEST_SOURCES: Table = &[
    ("form", "formulaire"),
    ("email", "e-mail"),
    ("phone", "téléphone"),
    ("manual", "saisie manuelle"),
    ("import", "import"),
];

pub fn request_source(key: &str) -> &str {
    lookup(REQUEST_SOURCES, key).unwrap_or(key)
}

/// `catalogues.status`.
pub const CATALOGUE_STATUSES: Table = &[
    ("draft", "Brouillon"),
    ("sent", "Envoyé"),
    ("archived", "Archivé"),
];

pub fn catalogue_status(key: &str) -> &str {
    lookup(CATALOGUE_STATUSES, key).unwrap_or(key)
}

/// `catalogues.kind`: a catalogue for the organizer, or an exercise.
pub const CATALOGUE_KINDS: Table = &[("standard", "Catalogue"), ("training", "Entraînement")];

pub fn catalogue_kind(key: &str) -> &str {
    lookup(CATALOGUE_KINDS, key).unwrap_or(key)
}

/// `catalogue_picks.tier`, one venue's section.
pub const TIERS: Table = &[("recommended", "Recommandé"), ("compatible", "Compatible")];

/// « Recommandé », « Compatible » (one venue).
pub fn tier(key: &str) -> &str {
    lookup(TIERS, key).unwrap_or(key)
}

/// The section's heading: « Fortement recommandés », « Compatibles ».
pub fn tier_heading(key: &str) -> &str {
    match key {
        "recommended" => "Fortement recommandés",
        "compatible" => "Compatibles",
        other => other,
    }
}

/// `availability_checks.status`: a venue's answer.
pub const AVAILABILITY_STATUSES: Table = &[
    ("pending", "En attente"),
    ("available", "Disponible"),
    ("unavailable", "Indisponible"),
    ("expired", "Expirée"),
];

pub fn availability_status(key: &str) -> &str {
    lookup(AVAILABILITY_STATUSES, key).unwrap_or(key)
}

/// `ai_pending_approvals.status`: what became of a proposal.
pub const APPROVAL_STATUSES: Table = &[
    ("pending", "En attente"),
    ("approved", "Validée"),
    ("rejected", "Refusée"),
    ("expired", "Expirée"),
    ("executed", "Exécutée"),
    ("failed", "En échec"),
];

pub fn approval_status(key: &str) -> &str {
    lookup(APPROVAL_STATUSES, key).unwrap_or(key)
}

/// `tasks.status`: a reminder.
pub const TASK_STATUSES: Table = &[
    ("open", "À faire"),
    ("done", "Fait"),
    ("cancelled", "Annulé"),
];

pub fn task_status(key: &str) -> &str {
    lookup(TASK_STATUSES, key).unwrap_or(key)
}

/// `members.status`: a venue on the marketplace.
pub const MEMBER_STATUSES: Table = &[
    ("active", "Actif"),
    ("inactive", "Inactif"),
    ("pending", "En attente"),
];

pub fn member_status(key: &str) -> &str {
    lookup(MEMBER_STATUSES, key).unwrap_or(key)
}

/// `users.role`.
pub const ROLES: Table = &[("team", "Équipe"), ("admin", "Administrateur")];

pub fn role(key: &str) -> &str {
    lookup(ROLES, key).unwrap_or(key)
}

/// `catalogue_picks.added_by`: who put a venue in a catalogue.
pub const ADDED_BY: Table = &[("ai", "Maxy"), ("team", "l'équipe")];

pub fn added_by(key: &str) -> &str {
    lookup(ADDED_BY, key).unwrap_or(key)
}

/// `training_examples.verdict`: what a lesson says about a venue, in the
/// words of the « Apprendre » form (which offers the first three, in this
/// order, capitalised).
pub const TRAINING_VERDICTS: Table = &[
    ("rejected", "à ne plus proposer"),
    ("demoted", "compatible plutôt que recommandé"),
    ("approved", "bon choix"),
    ("guideline", "consigne générale"),
];

pub fn training_verdict(key: &str) -> &str {
    lookup(TRAINING_VERDICTS, key).unwrap_or(key)
}

/// `training_examples.category`: what a lesson is about (the forms offer
/// them in this order, capitalised).
pub const TRAINING_CATEGORIES: Table = &[
    ("ambiance", "ambiance"),
    ("geo", "géographie"),
    ("capacity", "capacité"),
    ("service", "service"),
    ("other", "autre"),
];

pub fn training_category(key: &str) -> &str {
    lookup(TRAINING_CATEGORIES, key).unwrap_or(key)
}

/// `training_examples.source`: where a lesson was given.
pub const TRAINING_SOURCES: Table = &[
    ("learn_button", "bouton « Apprendre »"),
    ("chat", "conversation"),
    ("workspace", "atelier"),
    ("import", "import"),
];

pub fn training_source(key: &str) -> &str {
    lookup(TRAINING_SOURCES, key).unwrap_or(key)
}

/// Every family, named, for the wording test's list of keys.
/// `llm_calls.task`: what a language-model call was for.
pub const LLM_TASKS: Table = &[
    ("chat", "Conversation"),
    ("parse", "Lecture des demandes"),
    ("draft", "Rédaction"),
    ("rank", "Classement des lieux"),
    ("summarize", "Résumés"),
    ("classify", "Classification"),
    ("guidance", "Choix du playbook"),
];

pub fn llm_task(key: &str) -> &str {
    lookup(LLM_TASKS, key).unwrap_or(key)
}

/// `search_runs.ranking_source`: who ordered a venue search's picks.
pub const RANKING_SOURCES: Table = &[
    ("llm", "Modèle"),
    ("deterministic", "Règles (sans modèle)"),
    ("direct", "Lieux demandés par leur code"),
    (
        "none",
        "Aucun (recherche impossible : zone inconnue ou hors Île-de-France)",
    ),
];

pub fn ranking_source(key: &str) -> &str {
    lookup(RANKING_SOURCES, key).unwrap_or(key)
}

/// `memory_searches.source`: what answered a memory search.
pub const MEMORY_SOURCES: Table = &[
    ("vector", "Par le sens"),
    ("fts", "Par les mots"),
    ("recency", "Les plus récentes"),
];

pub fn memory_source(key: &str) -> &str {
    lookup(MEMORY_SOURCES, key).unwrap_or(key)
}

/// `tags.name`, the venue sheets' tags, where the slug does not read as
/// French once its hyphens are spaces (« accessible pmr », « vue seine »,
/// « sous sol »); the noun makes « sans espace extérieur » read.
pub const TAGS: Table = &[
    ("sous-sol", "sous-sol"),
    ("cave-voûtée", "cave voûtée"),
    ("industriel", "lieu industriel"),
    ("extérieur", "espace extérieur"),
    ("accessible-pmr", "accessible PMR"),
    ("bord-de-l-eau", "bord de l'eau"),
    ("vue-seine", "vue sur la Seine"),
    ("vue-tour-eiffel", "vue sur la tour Eiffel"),
    ("écran-led", "écran LED"),
    ("dj-autorisé", "DJ autorisé"),
    ("art-déco", "Art déco"),
    ("éco-responsable", "éco-responsable"),
    ("cuisine-démo", "cuisine de démonstration"),
    ("proche-gare", "proche d'une gare"),
];

/// A tag as people read it: its label, or its slug with its hyphens as
/// spaces (« lumière-naturelle » → « lumière naturelle »).
pub fn tag(key: &str) -> String {
    match lookup(TAGS, key) {
        Some(label) => label.to_string(),
        None => key.replace('-', " "),
    }
}

pub const TABLES: &[(&str, Table)] = &[
    ("event_types", EVENT_TYPES),
    ("request_statuses", REQUEST_STATUSES),
    ("request_sources", REQUEST_SOURCES),
    ("catalogue_statuses", CATALOGUE_STATUSES),
    ("catalogue_kinds", CATALOGUE_KINDS),
    ("tiers", TIERS),
    ("availability_statuses", AVAILABILITY_STATUSES),
    ("approval_statuses", APPROVAL_STATUSES),
    ("task_statuses", TASK_STATUSES),
    ("member_statuses", MEMBER_STATUSES),
    ("roles", ROLES),
    ("added_by", ADDED_BY),
    ("training_verdicts", TRAINING_VERDICTS),
    ("training_categories", TRAINING_CATEGORIES),
    ("training_sources", TRAINING_SOURCES),
    ("llm_tasks", LLM_TASKS),
    ("ranking_sources", RANKING_SOURCES),
    ("memory_sources", MEMORY_SOURCES),
    ("tags", TAGS),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_french_and_unknown_keys_stay_visible() {
        assert_eq!(event_type("seminaire"), "séminaire");
        assert_eq!(event_type(" soiree "), "soirée d'entreprise");
        assert_eq!(event_type("team-building"), "team building");
        assert_eq!(event_type("salon_pro"), "salon pro");
        assert_eq!(request_status("catalogue_sent"), "Catalogue envoyé");
        assert_eq!(request_status("frozen"), "frozen");
        assert_eq!(tier("recommended"), "Recommandé");
        assert_eq!(tier_heading("compatible"), "Compatibles");
        assert_eq!(role("admin"), "Administrateur");
        assert_eq!(tag("accessible-pmr"), "accessible PMR");
        assert_eq!(tag("sous-sol"), "sous-sol");
        assert_eq!(tag("lumière-naturelle"), "lumière naturelle");
        assert_eq!(tag("rooftop"), "rooftop");
    }

    #[test]
    fn every_table_is_whole_and_never_shows_a_key_as_its_label() {
        for (name, table) in TABLES {
            assert!(!table.is_empty(), "{name}");
            for (key, label) in *table {
                assert!(!label.is_empty(), "{name}.{key}");
                assert!(!label.contains('_'), "{name}.{key}: {label}");
                let mut keys = table.iter().filter(|(k, _)| k == key);
                assert!(
                    keys.next().is_some() && keys.next().is_none(),
                    "{name}.{key} twice"
                );
            }
        }
    }
}
