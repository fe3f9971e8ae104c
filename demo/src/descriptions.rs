//! French venue descriptions composed from many fragments (opening, features,
//! ambiance, equipment, catering, access, typical events), in varying order,
//! some rich and some plain, so that semantic search has work to do.

mod fragments;

use super::dice::{self, Dice};
use super::features::Feature;
use super::french::{capitalize, de};
use super::geography::Ring;
use super::pools::Kind;
use super::sketch::Sketch;

/// The description of the venue planned in `sketch`.
pub fn compose(rng: &mut Dice, sketch: &Sketch, capacity: i32, rooms: usize) -> String {
    let mut sentences = vec![opening(rng, sketch, capacity, rooms)];
    let signature = signature(sketch.kind);
    for (feature, wording) in &sketch.features {
        let said_in_opening = Some(*feature) == signature
            || (*feature == Feature::Accommodation && sketch.kind.pool() == 0);
        if !said_in_opening {
            sentences.extend(fragments::feature(
                rng, sketch, *feature, *wording, capacity,
            ));
        }
    }
    if sketch.plain {
        sentences.push(access(rng, sketch));
        sentences.push(format!("Jusqu'à {capacity} personnes."));
        return sentences.join(" ");
    }
    let mut middle = vec![fragments::ambiance(rng, sketch.style).to_string()];
    middle.push(fragments::catering(rng, sketch.catering).to_string());
    if !sketch.equipment.is_empty() && dice::chance(rng, 0.7) {
        let lead = dice::pick(rng, &["Équipements", "Sur place", "Côté technique"]);
        middle.push(format!("{lead} : {}.", sketch.equipment.join(", ")));
    }
    // Vary the order so descriptions do not all share one template.
    if dice::chance(rng, 0.5) {
        middle.reverse();
    }
    sentences.extend(middle);
    sentences.push(access(rng, sketch));
    sentences.push(ideal_for(rng, sketch.kind));
    sentences.join(" ")
}

/// The feature whose sentence opens the description of a kind, if any.
fn signature(kind: Kind) -> Option<Feature> {
    match kind {
        Kind::Barge => Some(Feature::OnWater),
        Kind::Rooftop => Some(Feature::Rooftop),
        Kind::Loft => Some(Feature::Industrial),
        Kind::Cellar => Some(Feature::Cellar),
        _ => None,
    }
}

fn opening(rng: &mut Dice, sketch: &Sketch, capacity: i32, rooms: usize) -> String {
    if let Some(feature) = signature(sketch.kind) {
        if let Some(wording) = sketch.wording(feature) {
            if let Some(sentence) = fragments::feature(rng, sketch, feature, wording, capacity) {
                return sentence;
            }
        }
    }
    let q = de(sketch.quarter);
    let street = sketch.street;
    let label = sketch.place.label;
    let in_paris = sketch.place.ring == Ring::Paris;
    let bedrooms = sketch.bedrooms;
    let minutes = dice::between(rng, 3, 8) * 5;
    let options: Vec<String> = match sketch.kind {
        Kind::Hotel => vec![
            format!("Hôtel {} étoiles au cœur {q}, avec {bedrooms} chambres et {rooms} espaces de réception.", dice::between(rng, 3, 4)),
            format!("Établissement de charme situé {street}, à deux pas {q} : {bedrooms} chambres et des salons privatisables."),
        ],
        Kind::BoutiqueHotel => vec![
            format!("Boutique-hôtel de {bedrooms} chambres niché {street}, dans le quartier {q}."),
            format!("Petit hôtel de caractère {q}, {bedrooms} chambres décorées une à une."),
        ],
        Kind::Palace => vec![
            format!("Palace emblématique de {label} : {bedrooms} chambres et suites, salons d'apparat et service d'exception."),
            format!("Hôtel 5 étoiles situé {street}, {bedrooms} chambres et des salons de réception majestueux."),
        ],
        Kind::Brasserie => vec![
            format!("Brasserie {} située {street}, ouverte 7 jours sur 7, avec {rooms} salles privatisables.", if in_paris { "parisienne" } else { "traditionnelle" }),
            format!("Grande brasserie de quartier {q}, fruits de mer, plats canailles et service tardif."),
        ],
        Kind::Bistrot => vec![
            format!("Bistrot de quartier au cœur {q}, cuisine de saison et vins de vignerons."),
            format!("Petit bistrot chaleureux situé {street}, où l'on privatise volontiers la salle."),
        ],
        Kind::Gastronomic => vec![
            format!("Table gastronomique {q} où le chef signe une cuisine inventive et de saison."),
            format!("Restaurant gastronomique situé {street} : menus dégustation et accords mets-vins."),
        ],
        Kind::Guinguette => vec![
            format!("Guinguette {q}, on y déjeune, on y danse et on y trinque jusqu'au soir."),
            "Guinguette à l'ancienne : friture, bal musette et grandes tablées.".into(),
        ],
        Kind::Gallery => vec![
            format!("Galerie d'art contemporain {q}, cimaises blanches et espace entièrement modulable."),
            format!("Ancienne galerie d'exposition située {street}, idéale pour vernissages et showrooms."),
        ],
        Kind::Greenhouse => vec![
            format!("Serre de verre et de fer forgé {q}, baignée de lumière toute l'année."),
            "Pavillon vitré du XIXe siècle entouré de plantes tropicales.".into(),
        ],
        Kind::BusinessCentre => vec![
            format!("Centre d'affaires situé {street}, {rooms} salles de réunion et de formation équipées."),
            format!("Espace de réunion clé en main {q}, pensé pour les séminaires d'une journée."),
        ],
        Kind::ConferenceCentre => vec![
            format!("Centre de conférences de {label} pouvant accueillir jusqu'à {capacity} participants."),
            format!("Lieu de congrès et de conventions {q}, plénière et salles de sous-commission."),
        ],
        Kind::SeminarHouse => vec![
            format!("Maison de séminaire au calme {q}, pour travailler autrement."),
            if in_paris {
                format!("Maison de maître du XIXe siècle transformée en lieu de séminaire, au calme {q}.")
            } else {
                format!("Maison de maître du XIXe siècle transformée en lieu de séminaire, à {minutes} minutes de Paris.")
            },
        ],
        Kind::ThirdPlace => vec![
            format!("Tiers-lieu créatif {q} mêlant coworking, ateliers et salles modulables."),
            format!("Ancien entrepôt devenu tiers-lieu, situé {street}, engagé et convivial."),
        ],
        Kind::Chateau => vec![
            format!("Château du {} siècle à {label}, {}.", century(rng), from_paris(sketch, minutes)),
            format!("Demeure historique {q}, entourée de dépendances restaurées."),
        ],
        Kind::Domaine => vec![
            format!("Domaine de {} hectares près de {label}, {}.", sketch.park_hectares, from_paris(sketch, minutes)),
            format!("Ancienne propriété agricole {q} devenue lieu de réception et de séminaire."),
        ],
        Kind::Abbey => vec![
            format!("Ancienne abbaye restaurée près de {label}, cloître et salles capitulaires."),
            format!("Prieuré du {} siècle, havre de silence {q}.", century(rng)),
        ],
        Kind::Townhouse => vec![
            format!("Hôtel particulier du {} siècle situé {street}, salons d'apparat en enfilade.", century(rng)),
            format!("Hôtel particulier {q}, entre cour pavée et salons historiques."),
        ],
        Kind::Barge | Kind::Rooftop | Kind::Loft | Kind::Cellar => {
            vec![format!("Lieu atypique {q}, {rooms} espaces privatisables.")]
        }
    };
    capitalize(dice::pick(rng, &options).as_str())
}

/// "à 45 minutes de Paris", or "aux portes de Paris" in the inner ring.
fn from_paris(sketch: &Sketch, minutes: i64) -> String {
    match sketch.place.ring {
        Ring::Outer => format!("à {} minutes de Paris", minutes + 20),
        _ => "aux portes de Paris".to_string(),
    }
}

fn century(rng: &mut Dice) -> &'static str {
    dice::one(rng, &["XVIe", "XVIIe", "XVIIIe", "XIXe"])
}

fn access(rng: &mut Dice, sketch: &Sketch) -> String {
    let station = *dice::pick(rng, sketch.place.access);
    let mut parts = vec![match dice::between(rng, 0, 2) {
        0 => format!(
            "Accès : {station}, à {} minutes à pied.",
            dice::between(rng, 2, 8)
        ),
        1 => format!("À {} minutes de {station}.", dice::between(rng, 2, 10)),
        _ => format!("Accès facile depuis {station}."),
    }];
    if sketch.has(Feature::Parking) {
        parts.push(
            dice::pick(
                rng,
                &[
                    "Parking privé sur place.",
                    "Parking gratuit pour les invités.",
                    "Parking fermé et sécurisé.",
                ],
            )
            .to_string(),
        );
    }
    if sketch.has(Feature::Accessible) {
        parts.push(
            dice::pick(
                rng,
                &[
                    "Accessible aux personnes à mobilité réduite.",
                    "Accès de plain-pied et ascenseur (PMR).",
                ],
            )
            .to_string(),
        );
    }
    parts.join(" ")
}

fn ideal_for(rng: &mut Dice, kind: Kind) -> String {
    let events: &[&str] = match kind.pool() {
        0 => &[
            "séminaires résidentiels",
            "réunions de direction",
            "dîners de gala",
            "conférences de presse",
            "mariages",
            "cocktails",
        ],
        1 => &[
            "déjeuners d'affaires",
            "dîners de fin d'année",
            "anniversaires",
            "afterworks",
            "cocktails dînatoires",
            "repas de fin de séminaire",
        ],
        2 => &[
            "soirées de lancement",
            "soirées d'entreprise",
            "showrooms",
            "tournages",
            "afterworks",
            "team buildings",
            "vernissages",
        ],
        3 => &[
            "séminaires",
            "formations",
            "assemblées générales",
            "conventions",
            "réunions d'équipe",
            "conférences",
        ],
        _ => &[
            "mariages",
            "séminaires au vert",
            "dîners de gala",
            "team buildings",
            "incentives",
            "comités de direction",
        ],
    };
    let picked = dice::sample(rng, events, 3);
    let list = match picked.as_slice() {
        [a, b, c] => format!("{a}, {b} et {c}"),
        _ => picked.iter().map(|s| **s).collect::<Vec<_>>().join(", "),
    };
    match dice::between(rng, 0, 2) {
        0 => format!("Idéal pour les {list}."),
        1 => format!("Le lieu se prête aux {list}."),
        _ => format!("Parfait pour vos {list}."),
    }
}
