//! Venue names composed from word lists and the venue's neighbourhood
//! ("Brasserie des Ternes", "Hôtel Le Marais Saint-Paul", "Domaine de la
//! Chevrette"), so 70,000 names stay plausible.

mod words;

use super::dice::{self, Dice};
use super::features::{Feature, Wording};
use super::french::{bare, capitalize, de};
use super::pools::Kind;
use super::sketch::Sketch;
use words::{ADJECTIVES, BOATS, DOMAIN_PLURALS, ESTATES, FIRST_NAMES, NOUNS, SURNAMES};

/// A name for the venue planned in `sketch`.
pub fn compose(rng: &mut Dice, sketch: &Sketch) -> String {
    let q = sketch.quarter;
    let q2 = *dice::pick(rng, sketch.place.quarters);
    let surname = *dice::pick(rng, SURNAMES);
    let first = *dice::pick(rng, FIRST_NAMES);
    let noun = *dice::pick(rng, NOUNS);
    let estate = *dice::pick(rng, ESTATES);
    let street = street_core(sketch.street);
    let implicit = |f: Feature| sketch.wording(f) == Some(Wording::Implicit);
    let options: Vec<String> = match sketch.kind {
        Kind::Hotel => vec![
            format!("Hôtel {}", capitalize(q)),
            format!("Hôtel {} {}", capitalize(q), bare(q2)),
            format!("Hôtel {}", de(q)),
            format!("Grand Hôtel {}", de(q)),
            format!("Hôtel Le {noun}"),
            format!("Hôtel {surname}"),
        ],
        Kind::BoutiqueHotel => vec![
            format!("Maison {surname}"),
            format!("Le Petit Hôtel {}", de(q)),
            format!("La Villa {}", bare(q)),
            format!("Le Relais {}", de(q)),
            format!("Hôtel {first}"),
        ],
        Kind::Palace => vec![
            format!("Palais {surname}"),
            format!("Le {surname} Paris"),
            format!("Grand Hôtel {surname}"),
            format!("Le Royal {}", bare(q)),
        ],
        Kind::Brasserie => vec![
            format!("Brasserie {}", de(q)),
            format!("Brasserie {surname}"),
            format!("La Grande Brasserie {}", de(q)),
            format!("Brasserie Le {noun}"),
            format!("Café {}", bare(q)),
        ],
        Kind::Bistrot => vec![
            format!("Chez {first}"),
            format!("Le Bistrot {}", de(q)),
            format!("Le Comptoir {}", de(q)),
            format!("Le {noun} {}", dice::pick(rng, ADJECTIVES)),
            format!("La Table {}", de(first)),
        ],
        Kind::Gastronomic => vec![
            format!("La Table {}", de(q)),
            format!("Restaurant {surname}"),
            format!("L'Atelier {}", de(first)),
            format!("Maison {surname}"),
            format!("{first} {surname}"),
        ],
        Kind::Guinguette => vec![
            format!("La Guinguette {}", de(q)),
            format!("Chez {first}, au bord de l'eau"),
            format!("Le Chalet {}", de(q)),
            format!("Le Martin-Pêcheur {}", de(q)),
        ],
        Kind::Barge if implicit(Feature::OnWater) => vec![
            format!("Le {}", dice::pick(rng, BOATS)),
            format!("L'Escale {}", bare(q)),
            format!("Le Quai {}", de(q)),
        ],
        Kind::Barge => vec![
            format!("La Péniche {}", dice::pick(rng, BOATS)),
            format!("Péniche {}", dice::pick(rng, BOATS)),
            format!("Le Bateau {}", dice::pick(rng, BOATS)),
            format!("L'Escale {}", bare(q)),
        ],
        Kind::Rooftop if implicit(Feature::Rooftop) => vec![
            format!("Le Belvédère {}", de(q)),
            format!("Les Hauteurs {}", de(q)),
            format!("Le Toit {}", de(q)),
        ],
        Kind::Rooftop => vec![
            format!("Le Rooftop {}", de(q)),
            format!("{} Rooftop", bare(q)),
            format!("Les Toits {}", de(q)),
            format!("Sky {}", bare(q)),
        ],
        Kind::Loft if implicit(Feature::Industrial) => vec![
            format!("Atelier {}", bare(q)),
            format!("L'Atelier {street}"),
            format!("La Fabrique {}", de(q)),
            format!("Espace {surname}"),
        ],
        Kind::Loft => vec![
            format!("Loft {}", bare(q)),
            format!("Le Loft {street}"),
            format!("Loft {surname}"),
            format!("Atelier {}", bare(q)),
        ],
        Kind::Gallery => vec![
            format!("Galerie {surname}"),
            format!("Galerie {}", bare(q)),
            format!("L'Atelier {surname}"),
            format!("Espace {surname}"),
        ],
        Kind::Cellar => vec![
            format!("Les Caves {}", de(q)),
            format!("Le Caveau {}", de(q)),
            format!("Les Voûtes {}", de(q)),
            format!("La Cave {surname}"),
        ],
        Kind::Greenhouse if implicit(Feature::Garden) => vec![
            format!("La Serre {}", de(q)),
            format!("Pavillon {surname}"),
            format!("La Verrière {}", de(q)),
        ],
        Kind::Greenhouse => vec![
            format!("La Serre {}", de(q)),
            format!("Le Jardin {}", de(q)),
            format!("Pavillon {surname}"),
            format!("Les Jardins {}", de(surname)),
        ],
        Kind::BusinessCentre => vec![
            format!("Espace {}", bare(q)),
            format!("Centre d'affaires {}", bare(q)),
            format!("Les Salons {}", de(q)),
            format!("Cap {}", bare(q)),
            format!("{surname} Conférences"),
        ],
        Kind::ConferenceCentre => vec![
            format!("Centre de conférences {}", bare(q)),
            format!("Auditorium {surname}"),
            format!("Le Forum {}", de(q)),
            format!("Centre de congrès {}", de(q)),
        ],
        Kind::SeminarHouse => vec![
            format!("Maison {surname}"),
            format!("La Maison {}", de(q)),
            format!("Villa {surname}"),
            format!("Le Clos {}", de(q)),
        ],
        Kind::ThirdPlace => vec![
            format!("La Fabrique {}", de(q)),
            format!("Le Hub {}", bare(q)),
            format!("La Ruche {}", de(q)),
            format!("Les Ateliers {}", de(q)),
        ],
        Kind::Chateau => vec![
            format!("Château {}", de(estate)),
            format!("Château {}", de(surname)),
        ],
        Kind::Domaine => vec![
            format!("Domaine {}", de(estate)),
            format!("Domaine des {}", dice::pick(rng, DOMAIN_PLURALS)),
        ],
        Kind::Abbey => vec![
            format!("Abbaye {}", de(estate)),
            format!("Prieuré {}", de(estate)),
            format!("Manoir {}", de(estate)),
            format!("Moulin {}", de(estate)),
        ],
        Kind::Townhouse => vec![
            format!("Hôtel particulier {surname}"),
            format!("Hôtel {}", de(surname)),
            format!("Pavillon {surname}"),
        ],
    };
    dice::pick(rng, &options).clone()
}

/// The name made distinct when it is already taken ("… – Wagram").
pub fn qualified(name: &str, sketch: &Sketch) -> String {
    format!("{name} – {}", street_core(sketch.street))
}

/// "rue de la Roquette" → "Roquette", "avenue Jean-Jaurès" → "Jean-Jaurès".
pub fn street_core(street: &str) -> &str {
    let mut rest = street;
    for prefix in [
        "rue ",
        "avenue ",
        "boulevard ",
        "quai ",
        "place ",
        "route ",
        "cours ",
        "esplanade ",
    ] {
        if let Some(r) = rest.strip_prefix(prefix) {
            rest = r;
            break;
        }
    }
    for prefix in ["de la ", "des ", "du ", "de l'", "de ", "d'", "au ", "aux "] {
        if let Some(r) = rest.strip_prefix(prefix) {
            return r;
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn street_cores() {
        assert_eq!(street_core("rue de la Roquette"), "Roquette");
        assert_eq!(street_core("avenue Jean-Jaurès"), "Jean-Jaurès");
        assert_eq!(street_core("rue Oberkampf"), "Oberkampf");
        assert_eq!(street_core("quai de l'Aisne"), "Aisne");
        assert_eq!(street_core("Grande Rue"), "Grande Rue");
    }
}
