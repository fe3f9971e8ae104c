//! Rooms of a venue and their capacity per configuration. Capacities are
//! derived from one "standing" figure per room, so they stay coherent:
//! cocktail ≥ théâtre ≥ école ≥ U ≈ réunion, and banquet ≥ cabaret ≥ U.

mod capacities;
mod wording;

use super::dice::{self, Dice};
use super::features::{Feature, Wording};
use super::model::Configuration;
use super::pools::{Kind, Size};
use super::sketch::Sketch;

use capacities::{area, capacities};
pub use wording::describe;

/// What a room is used as; decides its configurations and its wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Salon,
    Meeting,
    Dining,
    Outdoor,
    Garden,
    Park,
    Hall,
    Auditorium,
    Cellar,
    Deck,
    Rooftop,
    Loft,
}

/// A room before ids: name, one-line description, surface, capacities.
#[derive(Debug)]
pub struct PlannedRoom {
    pub name: String,
    pub description: String,
    pub area_m2: i32,
    pub capacities: Vec<(Configuration, i32)>,
}

/// The rooms of a venue: its signature spaces first, then ordinary rooms.
pub fn plan(rng: &mut Dice, sketch: &Sketch) -> Vec<PlannedRoom> {
    let count = room_count(rng, sketch.size).min(sketch.kind.max_rooms());
    let mut slots: Vec<(Category, String)> = Vec::with_capacity(count + 2);
    let signature = signature_rooms(sketch);
    if signature_first(sketch.kind) || signature.is_empty() {
        slots.extend(signature);
    } else {
        add_ordinary(rng, sketch.kind, &mut slots);
        slots.extend(signature);
    }
    let mut attempts = 0;
    while slots.len() < count && attempts < 12 {
        add_ordinary(rng, sketch.kind, &mut slots);
        attempts += 1;
    }
    slots.truncate(count);
    let largest = largest_standing(rng, sketch.size).min(sketch.kind.max_guests());
    slots
        .into_iter()
        .enumerate()
        .map(|(i, (category, name))| {
            let standing = if i == 0 {
                largest
            } else {
                ((f64::from(largest) * dice::uniform(rng, 0.2, 0.85)).round() as i32).max(8)
            };
            let standing = match category {
                Category::Park => standing * 3 / 2,
                // Boardrooms and training rooms stay human-sized in any venue.
                Category::Meeting => standing.min(dice::between(rng, 20, 150) as i32),
                _ => standing,
            };
            let capacities = capacities(rng, category, standing);
            let area_m2 = if category == Category::Park {
                sketch.park_hectares * 10_000
            } else {
                area(rng, category, standing)
            };
            let description = describe(rng, sketch, category, area_m2, &capacities);
            PlannedRoom {
                name,
                description,
                area_m2,
                capacities,
            }
        })
        .collect()
}

/// Plans capacities for hand-written rooms (the showcase venues).
pub fn plan_fixed(
    rng: &mut Dice,
    size: Size,
    rooms: &[(Category, &str, &str)],
    park_hectares: i32,
) -> Vec<PlannedRoom> {
    let largest = largest_standing(rng, size);
    rooms
        .iter()
        .enumerate()
        .map(|(i, (category, name, description))| {
            let standing = if i == 0 {
                largest
            } else {
                (largest * 2 / (i as i32 + 2)).max(10)
            };
            let capacities = capacities(rng, *category, standing);
            PlannedRoom {
                name: (*name).to_string(),
                description: (*description).to_string(),
                area_m2: if *category == Category::Park {
                    park_hectares * 10_000
                } else {
                    area(rng, *category, standing)
                },
                capacities,
            }
        })
        .collect()
}

fn room_count(rng: &mut Dice, size: Size) -> usize {
    let table: &[(usize, u32)] = match size {
        Size::Small => &[(1, 15), (2, 25), (3, 30), (4, 20), (5, 7), (6, 3)],
        Size::Medium | Size::Large => &[(1, 4), (2, 10), (3, 22), (4, 28), (5, 20), (6, 16)],
    };
    *dice::weighted(rng, table)
}

/// Standing capacity of the largest room, log-uniform within the size band.
fn largest_standing(rng: &mut Dice, size: Size) -> i32 {
    let (low, high) = match size {
        Size::Small => (12.0_f64, 80.0_f64),
        Size::Medium => (60.0, 300.0),
        Size::Large => (200.0, 1500.0),
    };
    let value = (low.ln() + dice::uniform(rng, 0.0, 1.0) * (high.ln() - low.ln())).exp();
    // Venues announce round figures.
    let step = if value > 300.0 {
        50.0
    } else if value > 60.0 {
        10.0
    } else {
        2.0
    };
    ((value / step).round() * step) as i32
}

fn signature_rooms(sketch: &Sketch) -> Vec<(Category, String)> {
    let mut rooms = Vec::new();
    let mut add = |category: Category, name: &str| rooms.push((category, name.to_string()));
    for (feature, wording) in &sketch.features {
        let implicit = *wording == Wording::Implicit;
        match feature {
            Feature::OnWater => {
                add(Category::Hall, "Salon sous verrière");
                add(Category::Deck, "Pont supérieur");
            }
            Feature::Rooftop if implicit => add(Category::Rooftop, "Terrasse du dernier étage"),
            Feature::Rooftop => add(Category::Rooftop, "Rooftop"),
            Feature::Industrial if implicit => add(Category::Loft, "Atelier sous verrière"),
            Feature::Industrial => add(Category::Loft, "Le Loft"),
            Feature::Cellar if implicit => add(Category::Cellar, "Cave voûtée"),
            Feature::Cellar => add(Category::Cellar, "Salle du sous-sol"),
            Feature::Garden if implicit => add(Category::Garden, "Cour arborée"),
            Feature::Garden => add(Category::Garden, "Jardin"),
            Feature::Park => add(Category::Park, "Parc"),
            Feature::Stage => add(Category::Auditorium, "Auditorium"),
            Feature::Terrace => add(Category::Outdoor, "Terrasse"),
            _ => {}
        }
    }
    rooms
}

/// Venues whose identity is the space itself list it first; the others
/// open with an ordinary main room.
fn signature_first(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Barge
            | Kind::Rooftop
            | Kind::Loft
            | Kind::Cellar
            | Kind::Greenhouse
            | Kind::Guinguette
    )
}

/// (category, name list) of the i-th ordinary room of a kind.
fn ordinary_room(kind: Kind, index: usize) -> (Category, &'static [&'static str]) {
    const SALONS: &[&str] = &[
        "Salon Haussmann",
        "Salon Opéra",
        "Salon Vendôme",
        "Salon Rivoli",
        "Salon Monceau",
        "Salon des Miroirs",
        "Grand Salon",
        "Petit Salon",
        "Salon Bleu",
        "Bibliothèque",
        "Salon Napoléon",
        "Salon Colette",
        "Salon Proust",
        "Salle de bal",
        "Salon Victor-Hugo",
    ];
    const MEETINGS: &[&str] = &[
        "Salle Eiffel",
        "Salle Montmartre",
        "Salle Concorde",
        "Salle Lumière",
        "Salle Arago",
        "Salle Curie",
        "Salle Pasteur",
        "Salle Seine",
        "Board room",
        "Salle Trocadéro",
        "Salle Lavoisier",
        "Salle Monet",
        "Salle Renoir",
        "Salle Degas",
        "Studio",
    ];
    const DINING: &[&str] = &[
        "Salle principale",
        "Salle du fond",
        "Mezzanine",
        "Salon privé",
        "Véranda",
        "Salle à manger",
        "Salon de l'étage",
        "Salle des miroirs",
        "Comptoir",
    ];
    const HALLS: &[&str] = &[
        "Verrière",
        "Atelier",
        "Plateau",
        "Mezzanine",
        "Galerie",
        "Grande halle",
        "Salle des machines",
        "Showroom",
        "Patio couvert",
    ];
    const ESTATE: &[&str] = &[
        "Salle des Gardes",
        "Orangerie",
        "Grand Salon",
        "Salle des Trophées",
        "Chapelle",
        "Bibliothèque",
        "Écuries",
        "Salle à manger d'apparat",
        "Salon de musique",
        "Salon des Tapisseries",
        "Galerie des Portraits",
    ];
    match kind.pool() {
        0 if index.is_multiple_of(2) => (Category::Salon, SALONS),
        0 => (Category::Meeting, MEETINGS),
        1 => (Category::Dining, DINING),
        2 => (Category::Hall, HALLS),
        3 if index == 0 => (
            Category::Hall,
            &["Salle plénière", "Amphithéâtre", "Espace modulable"],
        ),
        3 => (Category::Meeting, MEETINGS),
        _ if index % 3 == 2 => (Category::Meeting, MEETINGS),
        _ => (Category::Salon, ESTATE),
    }
}

/// Appends an ordinary room unless its drawn name is already used.
fn add_ordinary(rng: &mut Dice, kind: Kind, slots: &mut Vec<(Category, String)>) {
    let (category, names) = ordinary_room(kind, slots.len());
    let name = *dice::pick(rng, names);
    if !slots.iter().any(|(_, n)| n == name) {
        slots.push((category, name.to_string()));
    }
}
