//! One-line room descriptions. They respect the venue's implicit wording:
//! a room of a venue described without "rooftop" never says "rooftop".

use super::Category;
use crate::dice::{self, Dice};
use crate::features::{Feature, Wording};
use crate::french::a;
use crate::model::Configuration;
use crate::sketch::Sketch;

pub fn describe(
    rng: &mut Dice,
    sketch: &Sketch,
    category: Category,
    area: i32,
    caps: &[(Configuration, i32)],
) -> String {
    let implicit = |f: Feature| sketch.wording(f) == Some(Wording::Implicit);
    let view = *dice::pick(rng, sketch.place.views);
    let head = match category {
        Category::Salon => format!(
            "{} de {area} m² {}",
            if area < 80 {
                dice::pick(
                    rng,
                    &["Salon", "Élégant salon", "Salon lumineux", "Salon intime"],
                )
            } else {
                dice::pick(
                    rng,
                    &[
                        "Salon",
                        "Élégant salon",
                        "Salon lumineux",
                        "Grand salon de réception",
                    ],
                )
            },
            dice::pick(
                rng,
                &[
                    "aux boiseries d'origine",
                    "sous un lustre en cristal",
                    "aux murs tendus de velours",
                    "avec parquet en point de Hongrie",
                    "aux grandes fenêtres sur cour",
                    "avec moulures et miroirs",
                ]
            )
        ),
        Category::Meeting => format!(
            "Salle de réunion de {area} m² {}",
            dice::pick(
                rng,
                &[
                    "équipée d'un écran 85 pouces",
                    "à la lumière du jour",
                    "avec visioconférence intégrée",
                    "insonorisée",
                    "modulable par cloison mobile",
                    "au mobilier ergonomique",
                ]
            )
        ),
        Category::Dining => format!(
            "Salle de {area} m² {}",
            dice::pick(
                rng,
                &[
                    "aux banquettes de cuir",
                    "avec vue sur la cuisine ouverte",
                    "sous une verrière Belle Époque",
                    "aux murs de pierre",
                    "avec bar en zinc",
                    "au décor de carreaux de ciment",
                ]
            )
        ),
        Category::Hall => format!(
            "Espace de {area} m² {}",
            dice::pick(
                rng,
                &[
                    "avec une grande hauteur sous plafond",
                    "au sol en béton ciré",
                    "entièrement modulable",
                    "aux murs blancs, facile à scénographier",
                    "avec accès direct pour les livraisons",
                ]
            )
        ),
        Category::Outdoor => format!(
            "Terrasse de {area} m² {}",
            dice::pick(
                rng,
                &[
                    "abritée et chauffée",
                    "plein sud",
                    "avec bar extérieur",
                    "bordée de bacs fleuris"
                ]
            )
        ),
        Category::Garden if implicit(Feature::Garden) => {
            format!("Cour de {area} m² plantée d'arbres, pelouse et tonnelle")
        }
        Category::Garden => format!(
            "Jardin de {area} m² {}",
            dice::pick(
                rng,
                &[
                    "avec pelouse et arbres centenaires",
                    "clos de murs, à l'abri des regards",
                    "fleuri d'avril à octobre"
                ]
            )
        ),
        Category::Park => match (area / 10_000).max(1) {
            1 => "Parc d'un hectare avec allées et pelouses".to_string(),
            hectares => format!("Parc de {hectares} hectares avec allées et pelouses"),
        },
        Category::Deck if implicit(Feature::OnWater) => {
            format!("Pont à ciel ouvert de {area} m², au ras de l'eau")
        }
        Category::Deck => format!(
            "Pont de la péniche, {area} m² à ciel ouvert face {}",
            a(view)
        ),
        Category::Rooftop if implicit(Feature::Rooftop) => {
            format!(
                "Terrasse au dernier étage, {area} m² face {}, superbe au coucher du soleil",
                a(view)
            )
        }
        Category::Rooftop => format!("Rooftop de {area} m² avec bar, vue sur {view}"),
        Category::Loft if implicit(Feature::Industrial) => {
            format!("Atelier de {area} m² sous verrière, poutres apparentes et murs de briques")
        }
        Category::Loft => {
            format!("Loft de {area} m² au style industriel : béton, acier et grandes baies")
        }
        Category::Cellar if implicit(Feature::Cellar) => format!(
            "Voûtes de pierre de {area} m², {}",
            dice::pick(
                rng,
                &[
                    "éclairage tamisé",
                    "sol en tomettes anciennes",
                    "avec bar de dégustation"
                ]
            )
        ),
        Category::Cellar => {
            format!("Salle voûtée en sous-sol de {area} m², idéale pour les soirées")
        }
        Category::Auditorium => {
            let seats = caps
                .iter()
                .find(|(c, _)| *c == Configuration::Theatre)
                .map_or(0, |(_, n)| *n);
            format!("Auditorium de {seats} fauteuils avec régie et cabine de traduction")
        }
    };
    // Quote the headline layout so the line reads like a venue's own sheet.
    match caps.iter().max_by_key(|(_, n)| *n) {
        Some((config, n)) => format!("{head}, jusqu'à {n} personnes {}.", config.phrase()),
        None => format!("{head}."),
    }
}
