//! The playbooks shipped with the server, compiled in: the team's three
//! procedures (seed 000's qualification, a group over 200 people, a
//! catalogue reworked after an organizer's comment).

/// (file name, YAML source), in the order they are imported.
pub(super) static SHIPPED: &[(&str, &str)] = &[
    (
        "qualification-demande.yaml",
        include_str!("../../../data/playbooks/qualification-demande.yaml"),
    ),
    (
        "groupe-plus-de-200.yaml",
        include_str!("../../../data/playbooks/groupe-plus-de-200.yaml"),
    ),
    (
        "reprise-catalogue-commentaire.yaml",
        include_str!("../../../data/playbooks/reprise-catalogue-commentaire.yaml"),
    ),
];
