//! Training sessions: general guidelines with structured directives, and
//! "Apprendre" verdicts the team left on catalogue picks.

use super::dice::{self, Concept};
use super::model::{Dataset, Directives, TrainingSession, BASE};
use super::requests::EventType;
use super::team::HANDLERS;

/// (trigger, prefer, avoid, category, event type, reason).
type Guideline = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
    &'static str,
    &'static str,
);

#[rustfmt::skip]
const GUIDELINES: &[Guideline] = &[
    ("festif", &["jardin", "terrasse"], &["sous-sol"], "ambiance", "soiree",
     "Pour un événement festif, proposer les jardins et terrasses avant les rooftops ; éviter les salles en sous-sol."),
    ("séminaire de direction", &["calme", "lumière naturelle"], &["festif"], "ambiance", "seminaire",
     "Un comité de direction veut du calme et de la lumière du jour, pas un lieu de fête."),
    ("mariage", &["parc", "patrimoine", "hébergement"], &["sous-sol"], "ambiance", "mariage",
     "Pour un mariage, privilégier les domaines avec parc et chambres sur place."),
    ("dîner de gala", &["patrimoine", "haussmannien"], &["bohème"], "ambiance", "gala",
     "Un gala demande un cadre prestigieux : salons historiques plutôt qu'ambiance bohème."),
    ("lancement produit", &["insolite", "loft", "rooftop"], &["calme"], "ambiance", "lancement",
     "Les lancements produit marchent mieux dans des lieux qui surprennent."),
    ("team building", &["parc", "cuisine démo", "extérieur"], &[], "service", "team-building",
     "Team building : il faut de la place pour les activités, idéalement dehors."),
    ("formation", &["lumière naturelle", "proche gare"], &["sous-sol", "péniche"], "service", "formation",
     "Les formations de plusieurs jours ont besoin de lumière du jour et d'un accès en train."),
    ("mobilité réduite", &["accessible PMR"], &["péniche", "sous-sol"], "service", "conference",
     "Dès qu'un participant est en fauteuil, exclure les bateaux et les salles sans ascenseur."),
    ("hiver", &["cheminée"], &["extérieur"], "ambiance", "diner",
     "De novembre à mars, ne pas vendre un lieu sur son extérieur."),
    ("afterwork", &["terrasse", "rooftop"], &[], "geo", "afterwork",
     "Afterwork : proche du bureau du client avant tout, et une terrasse si possible."),
];

const REJECT_REASONS: &[(&str, &str)] = &[
    (
        "geo",
        "Trop excentré pour des invités qui viennent en métro.",
    ),
    ("capacity", "Jauge trop juste une fois le buffet installé."),
    (
        "ambiance",
        "Pas d'extérieur alors que l'événement demande du plein air.",
    ),
    ("ambiance", "Cadre trop formel pour une soirée festive."),
    ("service", "Traiteur imposé incompatible avec le budget."),
    (
        "service",
        "Le lieu ne répond jamais aux demandes de disponibilité.",
    ),
    ("other", "Le client y a déjà fait son dernier événement."),
];

pub fn fill(data: &mut Dataset, seed: u64, events: &[EventType]) {
    let mut rng = dice::stream(seed, Concept::Training, 0);
    for (i, (trigger, prefer, avoid, category, event_type, reason)) in GUIDELINES.iter().enumerate()
    {
        push(
            data,
            TrainingSession {
                id: 0,
                request_id: None,
                member_id: None,
                catalogue_id: None,
                user_id: Some(if i % 3 == 0 {
                    1
                } else {
                    *dice::pick(&mut rng, &HANDLERS.collect::<Vec<_>>())
                }),
                source: if i % 2 == 0 { "chat" } else { "workspace" },
                verdict: "guideline",
                reason: (*reason).to_string(),
                category,
                event_type: Some(event_type),
                directives: Some(Directives {
                    trigger,
                    prefer: prefer.to_vec(),
                    avoid: avoid.to_vec(),
                }),
                created_at: BASE
                    .plus_days(-dice::between(&mut rng, 10, 200))
                    .plus_minutes(dice::between(&mut rng, 480, 1140)),
            },
        );
    }
    // Verdicts on about one standard catalogue in five.
    let catalogues: Vec<(i64, i64, crate::model::Stamp)> = data
        .catalogues
        .iter()
        .filter(|c| c.kind == "standard")
        .map(|c| (c.id, c.request_id, c.created_at))
        .collect();
    for (catalogue_id, request_id, at) in catalogues {
        let mut rng = dice::stream(seed, Concept::Training, catalogue_id as u64);
        if !dice::chance(&mut rng, 0.2) {
            continue;
        }
        let picks: Vec<i64> = data
            .picks
            .iter()
            .filter(|p| p.catalogue_id == catalogue_id)
            .map(|p| p.member_id)
            .collect();
        let Some(request) = usize::try_from(request_id - 1)
            .ok()
            .and_then(|i| data.requests.get(i))
        else {
            continue;
        };
        let event_type = request.event_type;
        let label = events
            .iter()
            .find(|e| e.key == event_type)
            .map_or(event_type, |e| e.label);
        let user = request.assigned_user_id;
        let verdicts = dice::between(&mut rng, 1, 2) as usize;
        for member_id in dice::sample(&mut rng, &picks, verdicts) {
            let (verdict, category, reason) = match dice::between(&mut rng, 0, 9) {
                0..=5 => {
                    let (category, reason) = *dice::pick(&mut rng, REJECT_REASONS);
                    ("rejected", category, reason.to_string())
                }
                6 | 7 => (
                    "demoted",
                    "capacity",
                    "Correct, mais plutôt en compatible : la jauge est tendue.".to_string(),
                ),
                _ => (
                    "approved",
                    "ambiance",
                    "Excellent choix, le client a adoré le lieu.".to_string(),
                ),
            };
            let directives =
                (verdict == "rejected" && category == "ambiance" && dice::chance(&mut rng, 0.5))
                    .then(|| Directives {
                        trigger: label,
                        prefer: vec!["jardin", "terrasse"],
                        avoid: vec!["sous-sol"],
                    });
            push(
                data,
                TrainingSession {
                    id: 0,
                    request_id: Some(request_id),
                    member_id: Some(*member_id),
                    catalogue_id: Some(catalogue_id),
                    user_id: user,
                    source: "learn_button",
                    verdict,
                    reason,
                    category,
                    event_type: Some(event_type),
                    directives,
                    created_at: at.plus_hours(dice::between(&mut rng, 2, 240)).min(BASE),
                },
            );
        }
    }
}

fn push(data: &mut Dataset, mut session: TrainingSession) {
    session.id = data.training.len() as i64 + 1;
    data.training.push(session);
}
